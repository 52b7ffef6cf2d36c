"""Speed-up of one Connect Four position searched by several threads sharing one table (lazy
SMP), on Pons' Test_L1_R3 sample (the hard positions: 13 stones or fewer, 28 moves or more to
play), the bare solver (no database), strong mode.

For each thread count a fresh solver (same table size) solves the first N lines; the table is
cleared before each position (Pons' protocol), only the solve is timed. The scores must equal
the set's (and so each other's). The machine is shared: CPU contention lowers the speed-up.

    PYTHONPATH=src python benchmarks/connect4_threads.py [--sample 20] [--threads 1 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from connect4_solve import default_data_dir


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sample", type=int, default=20)
    p.add_argument("--set", default="Test_L1_R3")
    p.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    p.add_argument("--table-mb", type=float, default=64.0)
    p.add_argument("--empty", action="store_true", help="also the empty board (minutes)")
    args = p.parse_args(argv)
    from unbeatable.games.connect4.solver import Solver, compile_kernels

    compile_kernels()
    with open(default_data_dir() / args.set) as f:
        rows = [line.split() for line in f if line.strip()][: args.sample]
    base = None
    bad = 0
    for n in args.threads:
        solver = Solver(int(args.table_mb * 2**20), book=False, threads=n)
        total = 0.0
        nodes = 0
        for moves, expected in rows:
            solver.reset()
            t0 = time.perf_counter()
            got = solver.solve(moves)
            total += time.perf_counter() - t0
            nodes += solver.nodes
            bad += got != int(expected)
        base = base or total
        print(
            f"{args.set} first {len(rows)} lines, {n} thread(s): {total:.2f} s, "
            f"{nodes:,} nodes, speed-up {base / total:.2f}x, mismatches so far {bad}",
            flush=True,
        )
        if args.empty:
            solver.reset()
            t0 = time.perf_counter()
            score = solver.solve("")
            print(f"  empty board, {n} thread(s): score {score}, {time.perf_counter() - t0:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
