"""Ctrl-C before a command has started: one line (``interrupted``) and exit code 130.

Shared by the entry points (:mod:`.__main__`'s ``guarded``) and by the package's ``__init__``,
which calls :func:`hear_early` so that ``python -m unbeatable.X`` hears Ctrl-C while Python
imports the packages above ``X`` (``unbeatable.games`` imports every game: 0.2 s on a quiet
machine), before ``X``'s first line can hand over to ``guarded``. Imports nothing heavy.
"""

import os
import sys

TYPE_CHECKING = False  # typing, like signal (enum), costs tens of milliseconds on a busy machine
if TYPE_CHECKING:
    import signal
    from types import FrameType
    from typing import NoReturn
else:
    import _signal as signal  # the C module: the signal module's names, without enum

#: 128 + SIGINT, as :data:`.cli.common.INTERRUPTED`
INTERRUPTED = 130


def stop(signum: int = 2, frame: "FrameType | None" = None) -> "NoReturn":
    """End the process at once, as Ctrl-C ends a command: one line and exit code 130."""
    try:  # noqa: SIM105 (contextlib would be an import)
        os.write(sys.stderr.fileno(), b"interrupted\n")
    except (OSError, ValueError, AttributeError):
        pass  # no stderr to say it on
    os._exit(INTERRUPTED)


def module_run(argv: "list[str]") -> "str | None":
    """The module that ``python ... -m MODULE ...`` runs (``argv``: ``sys.orig_argv``), else
    None."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "-m":
            return argv[index + 1] if index + 1 < len(argv) else None
        if word.startswith("-m"):
            return word[2:]
        if word in ("-c", "-") or not word.startswith("-"):
            return None  # code, standard input or a script: what follows is its own
        index += 2 if word in ("-W", "-X") else 1  # the options that take the next word
    return None


def hear_early() -> None:
    """While Python looks for ``python -m unbeatable...``'s module (``sys.argv[0]`` is ``-m``
    then), Ctrl-C ends the process at once. Every such module hands over to
    :func:`unbeatable.__main__.guarded` on its first line, which takes this handler for
    Python's own (Ctrl-C raises KeyboardInterrupt while the command runs). A process started
    with Ctrl-C ignored keeps it ignored; another program's ``-m`` (``mpi4py.futures``, a
    user's module importing ours) is left alone."""
    if sys.argv[:1] != ["-m"]:
        return
    name = module_run(getattr(sys, "orig_argv", []))
    if name is None or name.split(".", 1)[0] != "unbeatable":
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, stop)
