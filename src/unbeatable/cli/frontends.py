"""``unbeatable serve`` and ``unbeatable uci``: optional front ends, imported only when asked
for; every argument after the command is theirs."""

from __future__ import annotations

import argparse
import importlib
import signal
import threading
import types
from collections.abc import Callable
from typing import cast

from .. import _stop
from . import common
from .common import Streams

#: command -> (its module, the extra that installs it, what it does, an example)
FRONT_ENDS = {
    "serve": (
        "unbeatable.web.server",
        "web",
        "serve the web front end (arguments go to the server)",
        "unbeatable serve --port 8000",
    ),
    "uci": (
        "unbeatable.uci",
        "chess",
        "speak the UCI protocol on stdin/stdout, for chess GUIs (arguments go to the engine)",
        "unbeatable uci",
    ),
}


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    for name, (_module, extra, text, example) in FRONT_ENDS.items():
        p = sub.add_parser(
            name,
            help=text,
            description=f"{text[0].upper()}{text[1:]}. Needs the {extra} extra: pip install "
            f"'unbeatable[{extra}]'. Its own options: unbeatable {name} -- --help.",
            epilog=f"Example: {example}",
        )
        p.set_defaults(handler=run, forward=[], front_end=name)


def load(name: str) -> types.ModuleType:
    """The front end's module (its ``main(argv) -> int``, and ``HEARS_CTRL_C = False`` if it has
    nothing to say on Ctrl-C: the UCI engine, which a GUI stops with ``stop``); ImportError
    when it is not installed."""
    return importlib.import_module(FRONT_ENDS[name][0])


def run(args: argparse.Namespace, streams: Streams) -> int:
    name = args.front_end
    try:
        module = load(name)
    except ImportError as error:
        extra = FRONT_ENDS[name][1]
        missing = f" ({error.name} is missing)" if error.name else ""
        streams.err.write(
            f"{common.PROG} {name} needs the {extra} extra: "
            f"pip install 'unbeatable[{extra}]'{missing}\n"
        )
        return common.USAGE
    streams.out.flush()
    # a front end with nothing to say on Ctrl-C ends the process at once on it (one line, exit
    # code 130), as ``python -m`` of it does (``__main__.guarded``): a KeyboardInterrupt would be
    # swallowed where it lands in a weak reference's callback or a finaliser, and the engine
    # would go on. Only while it runs, in the main thread, unless Ctrl-C was ignored
    previous = signal.getsignal(signal.SIGINT)
    at_once = (
        not getattr(module, "HEARS_CTRL_C", True)
        and threading.current_thread() is threading.main_thread()
        and previous is not signal.SIG_IGN
    )
    if at_once:
        signal.signal(signal.SIGINT, _stop)
    try:
        return cast(Callable[[list[str]], int], module.main)(list(args.forward))
    finally:
        if at_once:
            signal.signal(signal.SIGINT, previous)
