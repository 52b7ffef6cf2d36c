"""``unbeatable serve`` and ``unbeatable uci``: optional front ends, imported only when asked
for; every argument after the command is theirs."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import cast

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


def load(name: str) -> Callable[[list[str]], int]:
    """The front end's ``main(argv) -> int``; ImportError when it is not installed."""
    module = importlib.import_module(FRONT_ENDS[name][0])
    return cast(Callable[[list[str]], int], module.main)


def run(args: argparse.Namespace, streams: Streams) -> int:
    name = args.front_end
    try:
        main = load(name)
    except ImportError as error:
        extra = FRONT_ENDS[name][1]
        missing = f" ({error.name} is missing)" if error.name else ""
        streams.err.write(
            f"{common.PROG} {name} needs the {extra} extra: "
            f"pip install 'unbeatable[{extra}]'{missing}\n"
        )
        return common.USAGE
    streams.out.flush()
    return main(list(args.forward))
