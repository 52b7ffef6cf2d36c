"""What each search feature buys chess: nodes and time to the same depth, with every feature,
with each one left out, and with none (same positions, same depth, same run).

Usage: ``python benchmarks/chess_features.py [--depth 5]``. Protocol: a fresh searcher (empty
table) per position and setting, one process, depth-limited iterative deepening (as UCI's
``go depth`` searches); nodes and seconds are summed over the positions. Seconds are this
process's CPU time (``time.process_time``: on a shared machine, wall-clock time mostly
measures the neighbours); compare rows of one run only. A feature pays when the row that
leaves it out costs more nodes or more time than the row with everything. The last row is
chess's default (``ChessState.search_features``).

``--wac N --seconds S``: instead, the first N positions of Win at Chess (``../shared/
benchmarks/chess/wac.epd``), each searched for S seconds of wall-clock time by every setting
in turn (the settings interleaved position by position, so that a neighbour's load falls on
all of them alike), in this process with a fresh searcher; solved means the move played is a
``bm`` move and no ``am`` move. Shows whether the nodes a feature saves (or spends) win or
lose tactics at a fixed time.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import chess

from unbeatable import get_game
from unbeatable.search import Limits, Searcher
from unbeatable.search.options import FEATURES

POSITIONS = {
    "start": "startpos",
    "italian": "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "middle game": "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "tactics (WAC 1)": "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "end game": "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
}
ALL = FEATURES
#: The features chess asked for before the four newer ones were measured.
EARLIER = frozenset({"quiescence", "killers", "history"})
NEWER = ("aspiration", "check-extension", "null-move", "pvs")
SUITE = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "chess" / "wac.epd"


def settings(default: frozenset[str]) -> list[tuple[str, frozenset[str]]]:
    rows = [("all", ALL)]
    rows += [(f"without {name}", ALL - {name}) for name in sorted(ALL)]
    rows.append(("none", frozenset()))
    rows.append(("chess default", default))
    return rows


def measure(features: frozenset[str], depth: int) -> tuple[int, float, list[str]]:
    game = get_game("chess")
    nodes, seconds, moves = 0, 0.0, []
    for text in POSITIONS.values():
        state = game.parse_position(text)
        searcher = Searcher(features=features, iterative=True)
        start = time.process_time()
        result = searcher.search(state, Limits(depth=depth))
        seconds += time.process_time() - start
        nodes += result.nodes
        moves.append(state.move_text(result.move) if result.move is not None else "-")
    return nodes, seconds, moves


def wac(limit: int, seconds: float, default: frozenset[str]) -> None:
    rows = [("all", ALL)]
    rows += [(f"without {name}", ALL - {name}) for name in NEWER]
    rows += [("quiescence killers history", EARLIER), ("chess default", default)]
    suite = []
    for line in SUITE.read_text(encoding="utf-8").splitlines()[:limit]:
        if line.strip():
            board = chess.Board()
            ops = board.set_epd(line)
            suite.append((board, ops))
    print(
        f"WAC: first {len(suite)} positions, {seconds} s each (wall clock, in process, settings "
        f"interleaved); chess default: {', '.join(sorted(default))}"
    )
    solved = dict.fromkeys((label for label, _ in rows), 0)
    game = get_game("chess")
    for board, ops in suite:
        state = game.parse_position(board.fen())
        best = list(ops.get("bm") or [])  # type: ignore[arg-type]
        avoid = list(ops.get("am") or [])  # type: ignore[arg-type]
        for label, features in rows:
            move = Searcher(features=features).search(state, Limits(time=seconds)).move
            solved[label] += move is not None and (not best or move in best) and move not in avoid
    print(f"| {'features':26} | solved |")
    print(f"|{'-' * 28}|-------:|")
    for label, _ in rows:
        print(f"| {label:26} | {solved[label]:3d}/{len(suite):<2d} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--wac", type=int, default=0, help="the first N WAC positions instead")
    parser.add_argument("--seconds", type=float, default=1.0, help="per WAC position")
    parser.add_argument(
        "--rows", nargs="*", default=None, help="only these rows, e.g. all 'without pvs'"
    )
    args = parser.parse_args()
    default = get_game("chess").initial().search_features
    if args.wac:
        wac(args.wac, args.seconds, default)
        return
    print(
        f"depth {args.depth}; nodes and seconds summed over {len(POSITIONS)} positions "
        f"({', '.join(POSITIONS)}); chess default: {', '.join(sorted(default))}"
    )
    ratio = "vs all"
    print(f"| {'features':26} | {'nodes':>10} | {ratio} | {'cpu s':>7} | {ratio} | moves")
    print(f"|{'-' * 28}|{'-' * 11}:|{'-' * 7}:|{'-' * 8}:|{'-' * 7}:|------")
    base: tuple[int, float] | None = None
    for label, features in settings(default):
        if args.rows is not None and label not in args.rows:
            continue
        nodes, seconds, moves = measure(features, args.depth)
        if base is None:
            base = (nodes, seconds)
        print(
            f"| {label:26} | {nodes:10,d} | {nodes / base[0]:6.2f} | {seconds:7.2f} | "
            f"{seconds / base[1]:6.2f} | {' '.join(moves)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
