"""Prove BitBully's 12-stone database (package ``bitbully-databases``) with our own solver.

A random sample of database entries is decoded into positions and re-solved by our solver with
the database off (``book=False``, table kept between positions); every mismatch is printed, then
the count (expected 0), the time per position and the nodes. Also checked: a random sample of
12-stone positions reached by random play is found in the database unless the side to move can
win at once (the positions the database leaves out).

    PYTHONPATH=src python benchmarks/connect4_database.py [--sample 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import cast

import numpy as np

from unbeatable.games.connect4 import Connect4State


def resolve(sample: int, seed: int) -> int:
    from unbeatable.games.connect4.database import decode, load, score
    from unbeatable.games.connect4.solver import Solver

    db = load()
    if not db.loaded:
        print(db.reason, file=sys.stderr)
        return 2
    solver = Solver(book=False)
    rng = np.random.default_rng(seed)
    bad = nodes = 0
    times = []
    for n, i in enumerate(rng.choice(db.keys.shape[0], sample, replace=False), start=1):
        first, mask = decode(int(db.keys[i]))
        expected = score(int(db.values[i]))
        t0 = time.perf_counter()
        got = solver.solve_bitboards(first, mask, 12)
        times.append(time.perf_counter() - t0)
        nodes += solver.nodes
        if got != expected:
            bad += 1
            print(f"\nMISMATCH entry {i}: database {expected}, ours {got}", file=sys.stderr)
        print(f"\r{n}/{sample}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    t = np.array(times)
    print(
        f"re-solved {sample} random database entries (seed {seed}) with our solver, database "
        f"off: {bad} mismatches; per position mean {t.mean() * 1e3:.1f} ms, median "
        f"{np.median(t) * 1e3:.1f} ms, max {t.max():.2f} s; {nodes / sample:,.0f} nodes mean"
    )
    return 1 if bad else 0


def coverage(sample: int, seed: int) -> None:
    from unbeatable import get_game
    from unbeatable.games.connect4 import _database_probe as D
    from unbeatable.games.connect4.database import load

    db = load()
    game = get_game("connect4")
    rng = random.Random(seed)
    counts = {"found": 0, "missing, immediate win": 0, "missing, no immediate win": 0}
    while sum(counts.values()) < sample:
        state = cast(Connect4State, game.initial())
        while state.ply < 12 and state.outcome() is None:
            state = state.play(rng.choice(list(state.legal_moves())))
        if state.outcome() is not None:
            continue
        args = (np.uint64(state.current), np.uint64(state.mask), 12, 7, 6, db.keys, db.values)
        if D.db_probe(*args) != D.NOT_FOUND:
            counts["found"] += 1
        elif state.winning_move() is not None:
            counts["missing, immediate win"] += 1
        else:
            counts["missing, no immediate win"] += 1
    print(f"{sample} random 12-stone positions (random play, seed {seed}): {counts}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sample", type=int, default=1000, help="database entries to re-solve")
    p.add_argument("--coverage", type=int, default=10_000, help="random positions to look up")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    coverage(args.coverage, args.seed)
    return resolve(args.sample, args.seed)


if __name__ == "__main__":
    sys.exit(main())
