"""Print the bench's node-count signature and time (the same as ``unbeatable bench``).

Usage: python benchmarks/bench_signature.py [--repeat N]

With ``--repeat`` the bench runs N times and the best time is kept (the signature must be the
same every time); use it to compare the speed of two versions on a noisy machine.
"""

from __future__ import annotations

import argparse

from unbeatable.bench import run_bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs (best time kept)")
    args = parser.parse_args()
    signatures = set()
    best = float("inf")
    for _ in range(max(1, args.repeat)):
        results = run_bench()
        signatures.add(sum(r.nodes for r in results))
        best = min(best, sum(r.seconds for r in results))
    if len(signatures) != 1:
        raise SystemExit(f"the signature changed between runs: {sorted(signatures)}")
    (signature,) = signatures
    print(f"signature {signature} nodes, best time {best:.3f} s over {args.repeat} runs")


if __name__ == "__main__":
    main()
