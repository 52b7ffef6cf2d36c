"""Where the compiled chess search spends its time: each kernel's share of the samples that
``perf`` takes in compiled code while the bench positions are searched to a depth.

    PYTHONPATH=src python benchmarks/chess_profile.py [--depth 16]

``perf`` cannot name numba's kernels by itself: they are machine code made at run time. So the
script loads the kernels first (the cached ones, or a build), writes ``/tmp/perf-<pid>.map``
(the address of each kernel numba compiled, in the format ``perf`` reads for code made at run
time), and then searches, under ``perf record -e cpu-clock`` (a software clock: it needs no
hardware counters). A kernel inlined into its caller counts as the caller's (``search`` holds
the table's probe, the draw tests and the node's bookkeeping). Each map entry runs up to the next
kernel's address, so a gap between kernels counts as the kernel before it. Needs the ``perf``
command (Debian's ``linux-perf``) and ``kernel.perf_event_paranoid`` at 2 or less.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


def _write_map() -> int:
    """The ``perf`` map of every compiled chess kernel in this process; how many it names."""
    from numba.core.registry import CPUDispatcher

    entries = []
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher) or ".games.chess." not in obj.py_func.__module__:
            continue
        for compiled in obj.overloads.values():
            cres: Any = compiled  # numba's CompileResult: its attributes are not declared
            address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
            if address:
                name = obj.py_func.__module__.rsplit(".", 1)[-1] + "." + obj.py_func.__name__
                entries.append((address, name))
    entries.sort()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(entries):
            size = entries[i + 1][0] - address if i + 1 < len(entries) else 1 << 16
            out.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")
    return len(entries)


def _search(depth: int) -> None:
    """Run in the profiled child: load the kernels, name them, search the bench positions."""
    from unbeatable.games.chess.core import Position
    from unbeatable.games.chess.searcher import BENCH_FENS, Limits, Searcher

    Searcher(hash_mb=1, threads=1).search(Position.initial(), Limits(depth=2))
    named = _write_map()
    nodes = 0
    for fen in BENCH_FENS:
        searcher = Searcher(hash_mb=16, threads=1)
        nodes += searcher.search(Position.from_fen(fen), Limits(depth=depth)).nodes
    print(f"{named} kernels named; {nodes:,} nodes searched to depth {depth}", file=sys.stderr)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--depth", type=int, default=16, help="search each bench position this deep")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _search(args.depth)
        return
    perf = shutil.which("perf")
    if perf is None:
        raise SystemExit("chess_profile: needs the perf command (Debian: linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "perf.data")
        command = [sys.executable, __file__, "--child", "--depth", str(args.depth)]
        subprocess.run([perf, "record", "-q", "-e", "cpu-clock", "-o", data, *command], check=True)
        report = subprocess.run(
            [perf, "report", "-i", data, "--sort", "dso,sym", "--stdio"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    shares: dict[str, float] = {}
    for line in report.splitlines():
        parts = line.split()
        if "[JIT]" in line and parts and parts[0].endswith("%"):
            shares[parts[-1]] = shares.get(parts[-1], 0.0) + float(parts[0].rstrip("%"))
    total = sum(shares.values())
    if not total:
        raise SystemExit("chess_profile: perf took no samples in compiled code")
    print(f"{'kernel (with what is inlined into it)':40} share of the compiled code's samples")
    for name, share in sorted(shares.items(), key=lambda item: -item[1]):
        print(f"{name:40} {100 * share / total:5.1f} %")


if __name__ == "__main__":
    main()
