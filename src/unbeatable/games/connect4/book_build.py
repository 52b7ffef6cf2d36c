"""Build a Connect Four opening book (:mod:`.book`): the deepest layer solved by the solver,
every shallower position the negamax of its children (a finished child scores as the game's
end does).

Rebuild the 7 x 6 book (about half an hour on a 2-core machine for 3 plies without the
database), or another size's (``--width``, ``--height``; ``--plies`` defaults to
:data:`.book.PLIES`, ``--out`` to the package's data file of that size)::

    python -m unbeatable.games.connect4.book_build --plies 3 \
        --out src/unbeatable/data/connect4-book.txt
    python -m unbeatable.games.connect4.book_build --width 8 --height 5 --log 8x5.log

``--log FILE`` keeps each solved position's line (``i/n PICTURE SCORE TIME``) and ``--resume
FILE`` skips what such a log holds, so that a build cut short goes on where it stopped.
"""

from __future__ import annotations

if __name__ == "__main__":  # Ctrl-C heard from here on: one line, exit code 130
    from unbeatable.__main__ import guarded

    guarded("unbeatable.games.connect4.book_build")

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

from .book import BOOK_RESOURCE, PLIES, resource_name
from .game import Connect4, Connect4State, connect4

__all__ = ["BOOK_RESOURCE", "build", "default_out", "positions_by_ply", "read_log", "write"]


def positions_by_ply(plies: int, game: Connect4 | None = None) -> list[dict[int, Connect4State]]:
    """Every position up to ``plies`` stones (7 x 6 unless ``game`` says), by ply, one per key."""
    start = (game or connect4()).initial()
    layers: list[dict[int, Connect4State]] = [{_key(start): start}]
    for _ in range(plies):
        layer: dict[int, Connect4State] = {}
        for state in layers[-1].values():
            for move in state.legal_moves():
                child = state.play(move)
                if child.outcome() is None:
                    layer.setdefault(_key(child), child)
        layers.append(layer)
    return layers


def _key(state: Connect4State) -> int:
    key = state.key()
    assert isinstance(key, int)
    return key


def build(
    plies: int,
    table_bytes: int = 1 << 28,
    log: bool = True,
    known: dict[int, int] | None = None,
    seconds: float | None = None,
    game: Connect4 | None = None,
    threads: int = 1,
    out: TextIO | None = None,
) -> dict[int, int]:
    """Solve the book: the deepest layer by the solver, the others by negamax over it.

    ``known``: scores already solved (a resumed build). ``seconds``: stop solving after this
    long; the book then holds the positions solved so far and every shallower position whose
    children are all known. ``threads``: the solver's threads. ``log``: each solved position's
    line on stderr, and on ``out`` too when given (a log to resume from).
    """
    from .solver import Solver

    game = game or connect4()
    layers = positions_by_ply(plies, game)
    solver = Solver(table_bytes, width=game.width, height=game.height, threads=threads)
    scores: dict[int, int] = dict(known or {})
    deepest = layers[-1]
    start = time.perf_counter()
    for index, (key, state) in enumerate(sorted(deepest.items()), start=1):
        if key in scores:
            continue
        if seconds is not None and time.perf_counter() - start > seconds:
            break
        scores[key] = solver.solve_bitboards(state.current, state.mask, state.moves)
        if log:
            spent = time.perf_counter() - start
            text = f"{index}/{len(deepest)} {state} {scores[key]} {spent:.0f}s"
            for stream in (sys.stderr, out):
                if stream is not None:
                    print(text, file=stream, flush=True)
    for layer in reversed(layers[:-1]):
        for key, state in layer.items():
            values = [_child_score(state, m, scores) for m in state.legal_moves()]
            if all(v is not None for v in values):
                scores[key] = max(v for v in values if v is not None)
    return scores


def _child_score(state: Connect4State, move: int, scores: dict[int, int]) -> int | None:
    """The score of playing ``move`` in ``state`` (the side to move's view): the end of the
    game's when it ends it, else the negation of the child's known score (None: unknown)."""
    child = state.play(move)
    outcome = child.outcome()
    if outcome is not None:  # a win placed when state.moves stones are down, or a full board
        return 0 if outcome.winner is None else (state.game.cells + 1 - state.moves) // 2
    found = scores.get(_key(child))
    return None if found is None else -found


def read_log(path: Path, game: Connect4 | None = None) -> dict[int, int]:
    """The scores a build printed (``i/n PICTURE SCORE TIME`` lines), to resume from."""
    game = game or connect4()
    scores = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 4 and "/" in parts[0] and parts[3].endswith("s"):
            state = game.parse_picture(parts[1])
            scores[_key(state)] = int(parts[2])
    return scores


def default_out(game: Connect4) -> Path:
    """The package's data file of the game's book (in this source tree)."""
    return Path(__file__).resolve().parents[2] / "data" / resource_name(game.width, game.height)


def write(scores: dict[int, int], path: Path, plies: int, game: Connect4 | None = None) -> None:
    game = game or connect4()
    size = f"{game.width}x{game.height}"
    lines = [f"# unbeatable Connect Four {size} opening book: {plies} plies, key score"]
    lines += [f"{key} {score}" for key, score in sorted(scores.items())]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build a Connect Four opening book.")
    parser.add_argument("--width", type=int, default=7, help="board width (default 7)")
    parser.add_argument("--height", type=int, default=6, help="board height (default 6)")
    parser.add_argument("--plies", type=int, help="deepest layer (default: the size's in PLIES)")
    parser.add_argument("--out", type=Path, help="where to write the book (default: package data)")
    parser.add_argument("--table-mb", type=int, default=256, help="solver table (MB)")
    parser.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
    parser.add_argument("--log", type=Path, help="append each solved position's line to this file")
    parser.add_argument("--resume", type=Path, help="a previous build's log: skip what it solved")
    parser.add_argument("--seconds", type=float, help="stop solving after this long (partial book)")
    args = parser.parse_args(argv)
    try:
        game = connect4(args.width, args.height)
    except ValueError as error:
        parser.error(str(error))
    plies = args.plies if args.plies is not None else PLIES.get((game.width, game.height))
    if plies is None or plies < 0:
        parser.error(f"--plies: give the depth of the {game.width}x{game.height} book")
    start = time.perf_counter()
    known = read_log(args.resume, game) if args.resume else None
    out = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    try:
        scores = build(
            plies, args.table_mb << 20, known=known, seconds=args.seconds, game=game,
            threads=args.threads, out=out,
        )  # fmt: skip
    finally:
        if out is not None:
            out.close()
    write(scores, args.out or default_out(game), plies, game)
    empty = scores.get(_key(game.initial()))
    print(
        f"{len(scores)} positions in {time.perf_counter() - start:.0f} s "
        f"({time.process_time():.0f} s CPU); "
        f"empty board: {'not reached' if empty is None else empty}",
        file=sys.stderr,
    )
    return 0
