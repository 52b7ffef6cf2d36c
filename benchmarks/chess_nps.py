"""Speed of the compiled chess engine: nodes per second on one thread and on two (lazy SMP, one
shared table) at equal time on the same positions, the bench signature, and the kernels' cold
compile time and warm start.

    PYTHONPATH=src python benchmarks/chess_nps.py [--seconds 2] [--threads 1 2]
    PYTHONPATH=src python benchmarks/chess_nps.py --bench 10      # the node-count signature
    PYTHONPATH=src python benchmarks/chess_nps.py --cold          # compile from an empty cache
    PYTHONPATH=src python benchmarks/chess_nps.py --latency       # how long past movetime

Threads: for each of the bench positions (``searcher.BENCH_FENS``) in turn, a fresh searcher
(64 MiB table) of each thread count searches it for ``--seconds`` (``movetime``), one after the
other, so that each count meets the same load. Nodes are every thread's; nodes per second are
the totals' ratio. The machine is shared: beside the speed-up the script prints how much CPU
two busy processes get side by side here (1.0: two free cores; 2.0: one core's worth), and the
nodes per CPU second of each thread count (the process's CPU time, every thread's): when two
threads do as many nodes per CPU second as one, the wall-clock speed-up on two free cores is 2.

Cold: a child process with an empty numba cache (``NUMBA_CACHE_DIR`` in a fresh directory)
imports the core, makes a position, lists its moves and SAN, runs perft 2 and a depth-1 search:
that is every kernel a game needs compiled; a second child with the same cache does it again
(the warm start).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from unbeatable.games.chess.core import Position
from unbeatable.games.chess.searcher import BENCH_FENS, Limits, Searcher, bench

REPO = Path(__file__).resolve().parents[1]
_FIRST_USE = """
import time
t0 = time.perf_counter()
from unbeatable.games.chess.core import Position, perft
from unbeatable.games.chess.searcher import Limits, Searcher
t1 = time.perf_counter()
p = Position.initial()
p.san_all()
p.play_san("e4").is_checkmate()
perft(p, 2)
t2 = time.perf_counter()
Searcher(hash_mb=1).search(p, Limits(depth=1))
t3 = time.perf_counter()
print(f"{t1 - t0:.1f} {t2 - t1:.1f} {t3 - t2:.1f} {t3 - t0:.1f}")
"""


def load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def _spin(n: int) -> None:
    x = 0
    for i in range(n):
        x += i


def cpu_check(n: int = 5_000_000) -> float:
    """How much slower two CPU-bound processes run side by side than one alone."""
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


def threads(seconds: float, counts: list[int]) -> None:
    print(f"two busy processes here run {cpu_check():.2f}x slower than one (1.0: two free cores)")
    nodes = dict.fromkeys(counts, 0)
    spent = dict.fromkeys(counts, 0.0)
    cpu = dict.fromkeys(counts, 0.0)
    depth: dict[int, list[int]] = {n: [] for n in counts}
    for fen in BENCH_FENS:
        position = Position.from_fen(fen)
        for n in counts:
            searcher = Searcher(hash_mb=64, threads=n)
            start = time.process_time()
            result = searcher.search(position, Limits(movetime=seconds))
            cpu[n] += time.process_time() - start
            nodes[n] += result.nodes
            spent[n] += result.elapsed
            depth[n].append(result.depth)
        print(
            "  ".join(f"{n} thr: {depth[n][-1]:2} plies" for n in counts) + f"   {fen}",
            flush=True,
        )
    base = nodes[counts[0]] / spent[counts[0]]
    for n in counts:
        nps = nodes[n] / spent[n]
        print(
            f"Threads {n}: {nodes[n]:,} nodes in {spent[n]:.1f} s = {nps / 1e6:.2f} M nodes/s "
            f"({nps / base:.2f}x Threads {counts[0]}), mean depth "
            f"{sum(depth[n]) / len(depth[n]):.1f}; {cpu[n]:.1f} CPU s, "
            f"{nodes[n] / cpu[n] / 1e6:.2f} M nodes per CPU second"
        )


def latency(counts: list[int]) -> None:
    """How long past ``movetime`` each search returns (the whole call, threads started and
    joined), over the bench positions at 50 ms and 200 ms."""
    for n in counts:
        searcher = Searcher(hash_mb=16, threads=n)
        over = []
        for movetime in (0.05, 0.2):
            for fen in BENCH_FENS:
                position = Position.from_fen(fen)
                start = time.perf_counter()
                searcher.search(position, Limits(movetime=movetime))
                over.append(time.perf_counter() - start - movetime)
        over.sort()
        print(
            f"Threads {n}: past movetime by {1000 * over[len(over) // 2]:.1f} ms (median), "
            f"{1000 * over[-1]:.1f} ms (worst) over {len(over)} searches; load {load()}"
        )


def cold() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), *filter(None, [env.get("PYTHONPATH")])])
    with tempfile.TemporaryDirectory() as cache:
        env["NUMBA_CACHE_DIR"] = cache
        for label in ("cold (empty cache)", "warm (cached kernels)"):
            out = subprocess.run(
                [sys.executable, "-c", _FIRST_USE], env=env, capture_output=True, text=True
            )
            if out.returncode != 0:
                print(out.stderr)
                raise SystemExit(1)
            imp, rules, search, total = out.stdout.split()
            print(
                f"{label}: {total} s in all (import {imp} s, rules {rules} s, search {search} s)"
                f"; load {load()}",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=2.0, help="movetime per position")
    p.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    p.add_argument("--bench", type=int, metavar="DEPTH", help="the bench signature at DEPTH")
    p.add_argument("--cold", action="store_true", help="cold compile time and warm start")
    p.add_argument("--latency", action="store_true", help="how long past movetime a search ends")
    args = p.parse_args(argv)
    print(f"load average at the start: {load()}", flush=True)
    if args.cold:
        cold()
        return 0
    Searcher(hash_mb=1).search(Position.initial(), Limits(depth=1))  # load the kernels
    if args.latency:
        latency(args.threads)
    elif args.bench:
        nodes, seconds = bench(args.bench)
        print(
            f"bench depth {args.bench}: {nodes} nodes, {seconds:.2f} s, {nodes / seconds:,.0f} nps"
        )
    else:
        threads(args.seconds, args.threads)
    print(f"load average at the end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
