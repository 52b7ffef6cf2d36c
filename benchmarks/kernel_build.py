"""What a cold build of a game's compiled kernels costs, kernel by kernel: the CPU seconds of
the whole process, and for each kernel numba compiled (its ``numba:compile`` events) the
seconds spent compiling it alone (its callees' compiles taken out) and its signatures.

Runs the group's warm-up (``unbeatable warm GAME``) in a fresh process with ``NUMBA_CACHE_DIR``
pointing at an empty folder, then once more on the filled cache (the warm load).

    PYTHONPATH=src python benchmarks/kernel_build.py [connect4] [chess] [--top 15]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any

CHILD = r"""
import json, sys, time
from numba.core import event
from unbeatable import kernels
import unbeatable.games  # registers the groups

records = []
stack = []

class Timer(event.Listener):
    def on_start(self, ev):
        stack.append([time.process_time(), 0.0])
    def on_end(self, ev):
        start, inner = stack.pop()
        spent = time.process_time() - start
        if stack:
            stack[-1][1] += spent
        d = ev.data["dispatcher"]
        name = f"{d.py_func.__module__.rsplit('.', 1)[-1]}.{d.py_func.__name__}"
        records.append((name, str(ev.data["args"]), spent - inner))

event.register("numba:compile", Timer())
cpu = time.process_time()
wall = time.perf_counter()
kernels.warm(sys.argv[1])
print(json.dumps({"records": records, "cpu": time.process_time() - cpu,
                  "wall": time.perf_counter() - wall}))
"""


def run(game: str, cache: str) -> tuple[dict[str, Any], float, float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, game], capture_output=True, text=True, env=env, check=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    data: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return data, wall, cpu


def declared(game: str) -> Any:
    """The group ``unbeatable warm GAME`` announces (its seconds and kernels)."""
    import unbeatable.games  # noqa: F401  (registers the groups)
    from unbeatable import kernels

    return kernels.groups()[game]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("games", nargs="*", default=["connect4", "chess"])
    p.add_argument("--top", type=int, default=15, help="kernels listed, the costliest first")
    args = p.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game in args.games:
        with tempfile.TemporaryDirectory(prefix="unbeatable-build-") as cache:
            cold, cold_wall, cold_cpu = run(game, cache)
            _, warm_wall, warm_cpu = run(game, cache)
        per: dict[str, float] = defaultdict(float)
        signatures: dict[str, list[str]] = defaultdict(list)
        for name, sig, spent in cold["records"]:
            per[name] += spent
            signatures[name].append(sig)
        compiled = sum(per.values())
        print(
            f"\n{game}: cold {cold_cpu:.2f} s CPU ({cold_wall:.1f} s wall) for the whole "
            f"process; {len(cold['records'])} kernels compiled, {compiled:.2f} s CPU in numba's "
            f"compiles; warm {warm_cpu:.2f} s CPU ({warm_wall:.1f} s wall)"
        )
        group = declared(game)
        print(
            f"  declared (what a cold build announces): about {group.seconds:.0f} s, "
            f"{group.kernels} kernels; measured {cold_cpu / group.seconds:.2f}x its seconds"
        )
        print(f"  {'kernel':<34} {'CPU s':>6} signatures")
        for name, spent in sorted(per.items(), key=lambda item: -item[1])[: args.top]:
            sigs = signatures[name]
            print(f"  {name:<34} {spent:6.2f} {len(sigs)}: {'; '.join(sigs)[:150]}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
