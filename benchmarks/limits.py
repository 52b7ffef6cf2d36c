"""Do time limits hold? Many short-limit searches from random positions, each in a thread that
is given a few seconds: a search still running then counts as a hang.

Usage: ``python benchmarks/limits.py [--games connect4 mnk:4,4,4 mnk:5,5,4] [--count 60]``.
Protocol: one process per game spec; positions are 0 to 7 random moves from the start (seed 1);
each search is ``Searcher().search(state, Limits(time=T))`` (default T = 0.05 s); one untimed
warm-up search first (a game's compiled solver loads its kernels and data once per process).
Prints the hangs and the worst overshoot of the limit among the searches that ended.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time

from unbeatable import get_game
from unbeatable.search import Limits, Searcher


def run_one(spec: str, count: int, seconds: float, patience: float) -> str:
    rng = random.Random(1)
    game = get_game(spec)
    Searcher().search(game.initial(), Limits(time=seconds))  # warm-up
    hangs, worst, searched = 0, 0.0, 0
    for _ in range(count):
        state = game.initial()
        for _ in range(rng.randrange(0, 8)):
            if state.outcome() is not None:
                break
            state = state.play(rng.choice(list(state.legal_moves())))
        if state.outcome() is not None:
            continue
        taken: list[float] = []

        def search(position: object = state, out: list[float] = taken) -> None:
            start = time.perf_counter()
            Searcher().search(position, Limits(time=seconds))  # type: ignore[arg-type]
            out.append(time.perf_counter() - start)

        worker = threading.Thread(target=search, daemon=True)
        worker.start()
        worker.join(patience)
        searched += 1
        if not taken:
            hangs += 1
        else:
            worst = max(worst, taken[0] - seconds)
    return f"{spec}: {hangs} hangs of {searched}; worst overshoot {worst * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["connect4", "mnk:4,4,4", "mnk:5,5,4"])
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--patience", type=float, default=3.0)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(run_one(args.one, args.count, args.seconds, args.patience), flush=True)
        os._exit(0)  # a hung search thread must not keep the process alive
    for spec in args.games:
        command = [
            sys.executable,
            __file__,
            "--one",
            spec,
            "--count",
            str(args.count),
            "--seconds",
            str(args.seconds),
            "--patience",
            str(args.patience),
        ]
        subprocess.run(command, check=False)


if __name__ == "__main__":
    main()
