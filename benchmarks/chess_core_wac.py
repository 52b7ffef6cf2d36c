"""Win at Chess with the compiled chess core (issue 20), in process, beside ``unbeatable uci``
(since issue 20 the same engine, reached through the library's searcher and UCI: what the
layers above the kernels cost) in the same run.

    PYTHONPATH=src python benchmarks/chess_core_wac.py --seconds 1            # both
    PYTHONPATH=src python benchmarks/chess_core_wac.py --seconds 1 --alone    # the core only
    PYTHONPATH=src python benchmarks/chess_core_wac.py --nodes 2000000        # the core only

``--nodes N`` searches every position to N nodes instead (the core alone, one thread): a figure
the machine's load does not move, to tell a search's strength from the CPU it got (a free core
of this machine searches about 2 million nodes a second).

The suite, the reading of each line and what counts as solved are ``chess_wac.py``'s. For each
position in turn: the core (a fresh table, as after ``ucinewgame``; ``--threads`` threads)
searches it for ``--seconds`` (``movetime``), then the UCI engine gets the same time, so both
meet the same load. (Before issue 20, ``unbeatable uci`` ran the generic search over
python-chess: 165/299 against the core's 271 in one run, docs/chess.md.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chess_wac import SUITE, Player, read_suite
from uci_engines import OURS, load

from unbeatable.games.chess.core import Position
from unbeatable.games.chess.searcher import Limits, Searcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per position")
    parser.add_argument("--limit", type=int, default=None, help="the first N positions")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--alone", action="store_true", help="the core only, not the UCI engine")
    parser.add_argument("--nodes", type=int, default=None, help="N nodes each (the core only)")
    args = parser.parse_args()
    if args.nodes is not None:
        args.alone, args.threads = True, 1
    suite = read_suite(SUITE, args.limit)
    searcher = Searcher(hash_mb=64, threads=args.threads)
    searcher.search(Position.initial(), Limits(depth=1))  # load the kernels
    if args.nodes is not None:
        limits = Limits(nodes=args.nodes)
        each = f"{args.nodes:,} nodes"
    else:
        limits = Limits(movetime=args.seconds)
        each = f"{args.seconds:g} s"
    other = None if args.alone else Player("uci", OURS)
    print(f"WAC: {len(suite)} positions, {each} each; load {load()}", flush=True)
    solved = nodes = 0
    spent = 0.0
    try:
        for item in suite:
            if item.problem or item.board is None:
                print(f"{item.name}: skipped, {item.problem}")
                continue
            position = Position.from_fen(item.board.fen())
            searcher.clear()
            result = searcher.search(position, limits)
            move = chess.Move.from_uci(position.uci(result.best or 0))
            ok = item.solved(move)
            solved += ok
            nodes += result.nodes
            spent += result.elapsed
            mark = "yes" if ok else "no "
            line = f"{item.name:10} {item.key():16} core {item.board.san(move):8} {mark}"
            line += f" d{result.depth:<3}"
            if other is not None:
                san, theirs = other.play(item, args.seconds)
                line += f"   uci {san:8} {'yes' if theirs else 'no'}"
            print(line, flush=True)
    finally:
        if other is not None:
            other.close()
    print(f"\nWAC at {each}, {len(suite)} positions:")
    print(f"core        solved {solved:4d}   {nodes / spent / 1e6:.2f} M nodes/s")
    if other is not None:
        print(f"uci         solved {other.solved:4d}   {other.errors} errors")
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
