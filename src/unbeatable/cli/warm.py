"""``unbeatable warm``: build (or load) a game's compiled kernels on purpose, before the first
game or analysis needs them."""

from __future__ import annotations

import argparse

from .. import kernels, registered
from . import common
from .common import Streams, UsageError


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "warm",
        help="build the compiled kernels of a game (or of every game) once, now",
        description=(
            "Connect Four's solver and the chess engine are compiled (numba) the first time "
            "they are used after an install, which takes some seconds, and loaded from "
            "numba's cache from then on. This command does it now, with a progress line in "
            "a terminal; a game with nothing compiled (tictactoe, mnk, ...) has nothing to "
            "do. With no game: every compiled game."
        ),
        epilog="Example: unbeatable warm connect4",
    )
    p.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="a game as 'play' takes it (connect4, chess, tictactoe, mnk:4,4,4); default: all",
    )
    p.set_defaults(handler=run)


def chosen(names: list[str]) -> list[str]:
    """The kernel groups to warm for ``names`` (games as the other commands take them: the
    name before ``:`` counts); every group for none. Raises UsageError for an unknown game."""
    groups = kernels.groups()
    if not names:
        return sorted(groups)
    known = registered()
    picked: list[str] = []
    for text in names:
        name = text.split(":", 1)[0].strip().lower()
        if name not in known:
            raise UsageError(f"unknown game {text!r} (games: {', '.join(known)})")
        if name in groups and name not in picked:
            picked.append(name)
    return picked


def run(args: argparse.Namespace, streams: Streams) -> int:
    for name in chosen(args.games):
        group = kernels.groups()[name]
        cold = kernels.is_cold(group)
        seconds = kernels.warm(name)
        how = "built" if cold else "loaded from numba's cache"
        streams.out.write(f"{group.title}: ready ({how} in {seconds:.1f} s)\n")
        streams.out.flush()
    return 0
