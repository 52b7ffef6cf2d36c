"""Proof-number search (df-pn) against alpha-beta, proving positions exactly: nodes, seconds and
the answers, side by side in the same run.

Protocol. Each position is solved by the library's default alpha-beta (``Searcher()``: the
table, the symmetric key, the game's move order and immediate wins; one iteration straight to
the end of the game) and by ``Searcher("pns")`` (df-pn with its table), one after the other in
this process, each stopped by a timer after ``--cap`` seconds (the search's stop event: an
unfinished search is marked so, with the nodes it had visited). Alpha-beta's nodes are the
positions it visited; df-pn's the positions it expanded. The answers are compared by class (a
win, a draw or a loss for the side to move; df-pn does not prove distances). The machine's
load average is printed beside every line: times are wall-clock, on a shared machine.

The positions (``--set``): ``small``, 4x4 Hex from the empty board and three openings, and
4,4,4 (a draw) after one move; ``hex5``, 5x5 Hex after two moves and two openings; ``mnk``,
two positions of four stones where the first player wins by threats (6,6,4 and 5,5,4), the
empty 4,4,4 board (a draw) and the empty 5,5,4 board (a known draw that alpha-beta does not
finish in ten minutes); ``all``. Or give your own: ``--position GAME=MOVES`` (repeatable).

    PYTHONPATH=src python benchmarks/pns_vs_alphabeta.py --set small --cap 120
    PYTHONPATH=src python benchmarks/pns_vs_alphabeta.py --set all --cap 600
"""

from __future__ import annotations

import argparse
import os
import threading
import time

from unbeatable import get_game
from unbeatable.search import Searcher, SearchResult
from unbeatable.search.mcts import outcome_class

SETS = {
    "small": [
        ("hex:4", ""), ("hex:4", "a1"), ("hex:4", "b2"), ("hex:4", "d1"), ("mnk:4,4,4", "6"),
    ],
    "hex5": [("hex:5", "c3 b4"), ("hex:5", "c3"), ("hex:5", "a1")],
    "mnk": [
        ("mnk:6,6,4", "14,10,20,18"),
        ("mnk:5,5,4", "12,7,3,15"),
        ("mnk:4,4,4", ""),
        ("mnk:5,5,4", ""),
    ],
}
SETS["all"] = SETS["small"] + SETS["hex5"] + SETS["mnk"]

CLASSES = {1: "win", 0: "draw", -1: "loss"}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


def solve(algorithm: str | None, spec: str, moves: str, cap: float) -> tuple[SearchResult, float]:
    """One exact search, stopped after ``cap`` seconds; its result and wall-clock seconds."""
    state = get_game(spec).parse_position(moves)
    stop = threading.Event()
    timer = threading.Timer(cap, stop.set)
    timer.start()
    began = time.perf_counter()
    try:
        result = Searcher(algorithm).search(state, stop=stop)
    finally:
        timer.cancel()
    return result, time.perf_counter() - began


def answer(result: SearchResult) -> str:
    if not result.complete or not result.exact:
        return "unfinished"
    return CLASSES[outcome_class(result.score.value)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), default="small")
    parser.add_argument("--position", action="append", default=[], metavar="GAME=MOVES")
    parser.add_argument("--cap", type=float, default=600.0, help="seconds for each search")
    parser.add_argument("--only", choices=("alphabeta", "pns"), help="run one algorithm")
    args = parser.parse_args()
    positions = [tuple(p.split("=", 1)) for p in args.position] or SETS[args.set]
    print(f"{os.cpu_count()} CPUs, cap {args.cap:g} s a search; {load()}", flush=True)
    header = (f"{'game':10} {'position':12} {'algorithm':9} {'answer':10} {'nodes':>11} "
              f"{'seconds':>8}")
    print(header, flush=True)
    for spec, moves in positions:
        found = {}
        for name, algorithm in (("alphabeta", None), ("pns", "pns")):
            if args.only is not None and args.only != name:
                continue
            result, seconds = solve(algorithm, spec, moves, args.cap)
            found[name] = answer(result)
            print(f"{spec:10} {moves or '(start)':12} {name:9} {found[name]:10} "
                  f"{result.nodes:11,} {seconds:8.1f}  {load()}", flush=True)
        known = {a for a in found.values() if a != "unfinished"}
        if len(known) > 1:
            print(f"  DISAGREE: {found}", flush=True)


if __name__ == "__main__":
    main()
