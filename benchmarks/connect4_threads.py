"""Speed-up of one Connect Four position searched by several threads sharing one table (lazy
SMP), on Pons' Test_L1_R3 sample (the hard positions: 13 stones or fewer, 28 moves or more to
play), the bare solver (no database), strong mode.

For each thread count a fresh solver (same table size) solves the first N lines; the table is
cleared before each position (Pons' protocol), only the solve is timed. The scores must equal
the set's (and so each other's). The machine is shared: CPU contention lowers the speed-up, so
the benchmark first measures how much CPU two processes get side by side, and prints beside the
wall-clock speed-up the work speed-up (one thread's nodes / the busiest thread's nodes), which
is what the wall clock would show with a free core per thread. ``--empty`` also solves the empty
board after each thread count's lines (its published score guides the probes, as in ``solve``).

    PYTHONPATH=src python benchmarks/connect4_threads.py [--sample 20] [--threads 1 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from connect4_solve import default_data_dir


def _spin(n: int) -> None:
    x = 0
    for i in range(n):
        x += i


def cpu_check(n: int = 5_000_000) -> float:
    """How much slower two CPU-bound processes run side by side than one alone: about 1.0
    when two cores are free, 2.0 when the machine gives one core's worth (then no thread
    count can speed anything up)."""
    import multiprocessing

    t0 = time.perf_counter()
    _spin(n)
    alone = time.perf_counter() - t0
    procs = [multiprocessing.Process(target=_spin, args=(n,)) for _ in range(2)]
    t0 = time.perf_counter()
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    return (time.perf_counter() - t0) / alone


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
    base = base_nodes = empty_base = None
    bad = 0
    print(f"CPU check: {cpu_check():.2f}x (time of two busy processes at once / one alone)")
    for n in args.threads:
        solver = Solver(int(args.table_mb * 2**20), book=False, threads=n)
        total = 0.0
        nodes = busiest = 0
        for moves, expected in rows:
            solver.reset()
            t0 = time.perf_counter()
            got = solver.solve(moves)
            total += time.perf_counter() - t0
            nodes += solver.nodes
            busiest += max(solver.thread_nodes)
            bad += got != int(expected)
        base = base or total
        base_nodes = base_nodes or nodes
        print(
            f"{args.set} first {len(rows)} lines, {n} thread(s): {total:.2f} s, "
            f"{nodes:,} nodes ({busiest:,} by the busiest thread of each search), wall speed-up "
            f"{base / total:.2f}x, work speed-up {base_nodes / busiest:.2f}x, "
            f"mismatches so far {bad}",
            flush=True,
        )
        if args.empty:
            solver.reset()
            t0 = time.perf_counter()
            score = solver.solve("")
            took = time.perf_counter() - t0
            empty_base = empty_base or (took, solver.nodes)
            print(
                f"  empty board, {n} thread(s): score {score}, {took:.1f} s, {solver.nodes:,} "
                f"nodes ({max(solver.thread_nodes):,} by the busiest thread), wall speed-up "
                f"{empty_base[0] / took:.2f}x, work speed-up "
                f"{empty_base[1] / max(solver.thread_nodes):.2f}x"
            )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
