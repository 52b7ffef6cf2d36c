"""Openings for self-play matches: more than ``chess_match.py``'s 32, so that a match at a fixed
number of nodes (where the same opening played twice by the same engines is the same game) can
run past 64 games.

Each opening is one of ``chess_match.OPENINGS`` (four plies) followed by ``--plies`` more, each
chosen at random (``--seed``) among the moves our engine scores within ``--margin`` centipawns of
its best (MultiPV 4 at ``--depth``); an opening is kept when it is new and its last position
stands within ``--keep`` centipawns of even at that depth. One opening a line, its moves in UCI.

    PYTHONPATH=src python benchmarks/chess_openings.py --count 256 \\
        > benchmarks/data/openings-8ply.txt
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chess_match import OPENINGS

from unbeatable.games.chess.core import Position
from unbeatable.games.chess.searcher import Limits, Searcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=256, help="openings to write")
    parser.add_argument("--plies", type=int, default=4, help="plies past the 32 openings")
    parser.add_argument("--depth", type=int, default=8, help="the engine's depth")
    parser.add_argument("--margin", type=int, default=30, help="centipawns below the best")
    parser.add_argument("--keep", type=int, default=70, help="centipawns from even at the end")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    searcher = Searcher(hash_mb=16)
    seen: set[str] = set()
    tries = 0
    while len(seen) < args.count:
        tries += 1
        if tries > 20 * args.count:
            raise SystemExit(f"only {len(seen)} openings found in {tries - 1} tries")
        moves = OPENINGS[(tries - 1) % len(OPENINGS)].split()
        position = Position.initial()
        for m in moves:
            position = position.play_uci(m)
        for _ in range(args.plies):
            result = searcher.search(position, Limits(depth=args.depth), multipv=4)
            best = result.lines[0].score
            near = [line.pv[0] for line in result.lines if line.score >= best - args.margin]
            move = rng.choice(near)
            moves.append(position.uci(move))
            position = position.play(move)
        line = " ".join(moves)
        if line in seen or not position.legal_moves():
            continue
        score = searcher.search(position, Limits(depth=args.depth)).score
        if abs(score) <= args.keep:
            seen.add(line)
            print(line, flush=True)


if __name__ == "__main__":
    main()
