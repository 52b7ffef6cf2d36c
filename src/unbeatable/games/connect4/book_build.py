"""Build the Connect Four opening book (:mod:`.book`): the deepest layer solved by the solver,
every shallower position the negamax of its children (no early position has a finished child).

Rebuild it (about half an hour on a 2-core machine for 3 plies without the database)::

    python -m unbeatable.games.connect4.book_build --plies 3 \
        --out src/unbeatable/data/connect4-book.txt
"""

from __future__ import annotations

if __name__ == "__main__":  # Ctrl-C heard from here on: one line, exit code 130
    from unbeatable.__main__ import guarded

    guarded("unbeatable.games.connect4.book_build")

import argparse
import sys
import time
from pathlib import Path

from .book import BOOK_RESOURCE
from .game import Connect4, Connect4State, connect4

__all__ = ["BOOK_RESOURCE", "build", "positions_by_ply", "read_log", "write"]


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
) -> dict[int, int]:
    """Solve the book: the deepest layer by the solver, the others by negamax over it.

    ``known``: scores already solved (a resumed build). ``seconds``: stop solving after this
    long; the book then holds the positions solved so far and every shallower position whose
    children are all known.
    """
    from .solver import Solver

    game = game or connect4()
    layers = positions_by_ply(plies, game)
    solver = Solver(table_bytes=table_bytes, width=game.width, height=game.height)
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
            print(
                f"{index}/{len(deepest)} {state} {scores[key]} {time.perf_counter() - start:.0f}s",
                file=sys.stderr,
                flush=True,
            )
    for layer in reversed(layers[:-1]):
        for key, state in layer.items():
            children = [_key(state.play(m)) for m in state.legal_moves()]
            if all(child in scores for child in children):
                scores[key] = max(-scores[child] for child in children)
    return scores


def read_log(path: Path) -> dict[int, int]:
    """The scores a build printed (``i/n PICTURE SCORE TIME`` lines), to resume from."""
    game = connect4()
    scores = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 4 and "/" in parts[0] and parts[3].endswith("s"):
            state = game.parse_picture(parts[1])
            scores[_key(state)] = int(parts[2])
    return scores


def write(scores: dict[int, int], path: Path, plies: int) -> None:
    lines = [f"# unbeatable Connect Four 7x6 opening book: {plies} plies, key score"]
    lines += [f"{key} {score}" for key, score in sorted(scores.items())]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Connect Four opening book.")
    parser.add_argument("--plies", type=int, default=3, help="deepest layer (default 3)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the book")
    parser.add_argument("--table-mb", type=int, default=256, help="solver table (MB)")
    parser.add_argument("--resume", type=Path, help="a previous build's log: skip what it solved")
    parser.add_argument("--seconds", type=float, help="stop solving after this long (partial book)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    known = read_log(args.resume) if args.resume else None
    scores = build(args.plies, args.table_mb << 20, known=known, seconds=args.seconds)
    write(scores, args.out, args.plies)
    empty = scores.get(_key(connect4().initial()))
    print(
        f"{len(scores)} positions in {time.perf_counter() - start:.0f} s; "
        f"empty board: {'not reached' if empty is None else empty}",
        file=sys.stderr,
    )
    return 0
