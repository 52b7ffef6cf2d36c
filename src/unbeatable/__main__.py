"""The command line's entry point: ``python -m unbeatable`` and the ``unbeatable`` script.

This module imports nothing heavy (``import unbeatable`` is cheap: see the package), so that
Ctrl-C is heard from the first instant: until the command has started, Ctrl-C ends the process
at once with one line (``interrupted``) and exit code 130, instead of a traceback from the
middle of an import; while the command runs, it is the command's (:func:`.cli.main` prints what
it has and returns 130); once it has returned, Ctrl-C ends the process at once again (Python
would print a traceback from its shutdown). A process started with Ctrl-C ignored (a background
job of a shell script) keeps it ignored.
"""

import sys

from . import _stop

TYPE_CHECKING = False  # typing, like signal (enum), costs tens of milliseconds on a busy machine
if TYPE_CHECKING:
    import signal
    from types import FrameType
    from typing import NoReturn
else:
    import _signal as signal  # the C module: the signal module's names, without enum

__all__ = ["run"]


def run() -> "NoReturn":
    """Run the command line on ``sys.argv`` and exit with its code (the ``unbeatable``
    script)."""
    guarded("unbeatable.cli")


#: the files where a Ctrl-C must end the process at once rather than raise (a part of their
#: names): Python's import machinery, and numba's and llvmlite's while they compile or load
_AT_ONCE = ("<frozen importlib", "/numba/", "\\numba\\", "/llvmlite/", "\\llvmlite\\")


def _hear(said: list[int], frame: "FrameType | None") -> "NoReturn":
    """Python's own Ctrl-C (KeyboardInterrupt), remembered in ``said``; but a Ctrl-C that lands
    inside an import or a kernel's build (``frame``, the one it interrupted, or one of its
    callers, in a file of :data:`_AT_ONCE`) ends the process at once, as during the imports
    before the command. Raised there, Python can swallow the KeyboardInterrupt: in a module
    lock's weak-reference callback (the process went on to exit 0, or hung with the import lock
    held: ``python -m unbeatable.games.connect4``, 2026-12-04), or in llvmlite's callback from
    the compiler (a cold ``unbeatable match --game chess`` then failed with numba's traceback,
    "no compiled object yet")."""
    while frame is not None:
        if any(part in frame.f_code.co_filename for part in _AT_ONCE):
            _stop()
        frame = frame.f_back
    said.append(signal.SIGINT)
    raise KeyboardInterrupt


def guarded(module: str) -> "NoReturn":
    """Import ``module`` and exit with the code of its ``main()``, ``finish(code)`` if it has
    one: with Ctrl-C ending the process at once (one line, exit code 130) while the module is
    imported and after ``main`` has returned, and raising KeyboardInterrupt in between
    (``main``'s to handle; one that escapes it ends the process the same way), unless the
    module sets ``HEARS_CTRL_C = False``: then Ctrl-C ends the process at once throughout."""
    # Python's handler, or ours from the package's ``__init__`` (``python -m unbeatable.X``)
    heard = signal.getsignal(signal.SIGINT) in (signal.default_int_handler, _stop)
    if heard:
        signal.signal(signal.SIGINT, _stop)
    import importlib  # the heavy imports: Ctrl-C here ends the process at once

    entry = importlib.import_module(module)
    said: list[int] = []
    try:
        # a module with nothing to say on Ctrl-C (``HEARS_CTRL_C = False``: the UCI engine)
        # keeps ending at once: a KeyboardInterrupt can be raised where Python swallows it (a
        # weak reference's callback, a finaliser), and the process would go on
        if heard and getattr(entry, "HEARS_CTRL_C", True):
            signal.signal(signal.SIGINT, lambda signum, frame: _hear(said, frame))
        code = entry.main()
    except KeyboardInterrupt:
        _stop()
    except ImportError:
        # Ctrl-C inside a C extension's import (numpy's, as ``main`` loads a game) comes out
        # as that module's ImportError, not as KeyboardInterrupt: it is the same Ctrl-C
        if said:
            _stop()
        raise
    if heard:
        signal.signal(signal.SIGINT, _stop)
    finish = getattr(entry, "finish", sys.exit)
    finish(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
