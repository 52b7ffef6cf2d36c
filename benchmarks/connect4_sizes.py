"""Connect Four on every board size the solver supports (``width * (height + 1) <= 64``), each
solved from the empty board and compared with the published results.

The published results are John Tromp's (every board with width + height <= 15,
https://tromp.github.io/c4/c4.html) and Christophe Steininger's (width + height <= 16 and some
larger, https://github.com/ChristopheSteininger/c4, README); they are stored as data, with the
citation, in ``unbeatable.games.connect4.published``. Boards narrower or lower than 4 have no
published entry: their score is printed, not checked.

    PYTHONPATH=src python benchmarks/connect4_sizes.py                     # width + height <= 12
    PYTHONPATH=src python benchmarks/connect4_sizes.py --min-sum 13 --max-sum 13 --cap 600
    PYTHONPATH=src python benchmarks/connect4_sizes.py --size 7x6 --threads 2
    PYTHONPATH=src python benchmarks/connect4_sizes.py --size 9x5 --table-mb 4096 --progress

For each size a fresh solver (no opening book, ``--table-mb`` of table, ``--threads``) solves
the empty board strongly (the exact score, so the move on which the game ends) under a time cap
``--cap`` (seconds): a search cut short prints the bounds it proved (``--progress``: also each
time they narrow, on stderr). The empty board of a size with a published score is probed from
that score first (see ``_negamax.solve_position``'s guess; the score is still proven). The
line gives the wall time, the nodes, the published score and whether ours equals it; the exit
status is 1 when a complete score differs from a published one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def board_sizes(min_sum: int, max_sum: int) -> list[tuple[int, int]]:
    """Every (width, height) that fits the bitboard with ``min_sum <= width + height <=
    max_sum``, by growing cell count."""
    sizes = [
        (w, h)
        for w in range(1, 65)
        for h in range(1, 64)
        if w * (h + 1) <= 64 and min_sum <= w + h <= max_sum
    ]
    return sorted(sizes, key=lambda s: (s[0] * s[1], s))


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` as (width, height)."""
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size WxH: {text!r}") from None
    if w < 1 or h < 1 or w * (h + 1) > 64:
        raise argparse.ArgumentTypeError(f"board {text} does not fit a 64-bit word")
    return w, h


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--min-sum", type=int, default=2, help="smallest width + height (default 2)")
    p.add_argument("--max-sum", type=int, default=12, help="largest width + height (default 12)")
    p.add_argument("--size", type=parse_size, action="append", help="only this size WxH")
    p.add_argument("--cap", type=float, default=1800.0, help="seconds per size (default 1800)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--table-mb", type=float, default=64.0)
    p.add_argument(
        "--progress",
        action="store_true",
        help="print each size's bounds, nodes and time to stderr each time they narrow",
    )
    args = p.parse_args(argv)

    from unbeatable.games.connect4.published import first_player_score
    from unbeatable.games.connect4.solver import Analysis, Solver, compile_kernels

    compile_kernels()
    sizes = args.size or board_sizes(args.min_sum, args.max_sum)
    print(
        f"{len(sizes)} board size(s); table {args.table_mb:g} MiB, {args.threads} thread(s), "
        f"no book, cap {args.cap:g} s a size; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'size':>6} {'cells':>5} {'score':>9} {'time':>9} {'nodes':>15} {'published':>9}  check"
    )
    wrong = 0
    for w, h in sizes:
        solver = Solver(int(args.table_mb * 2**20), width=w, height=h, book=False)
        t0 = time.perf_counter()

        def told(a: Analysis, t0: float = t0, size: str = f"{w}x{h}") -> None:
            dt = time.perf_counter() - t0
            bounds = f"[{a.lower[0]}, {a.upper[0]}]"
            print(f"  {size} {bounds} {a.nodes:,} nodes {dt:.1f} s", file=sys.stderr, flush=True)

        progress = told if args.progress else None
        result = solver.bounds(
            0, 0, 0, threads=args.threads, deadline=t0 + args.cap, progress=progress
        )
        dt = time.perf_counter() - t0
        lo, hi = result.lower[0], result.upper[0]
        ours = str(lo) if result.complete else f"[{lo},{hi}]"
        expected = first_player_score(w, h)
        if expected is None:
            check = "no published result"
        elif not result.complete:
            inside = lo is not None and hi is not None and lo <= expected <= hi
            check = f"cut at the cap; the bounds {'hold' if inside else 'EXCLUDE'} it"
            wrong += not inside
        elif lo == expected:
            check = "equal"
        else:
            check = "DIFFERENT"
            wrong += 1
        published = "" if expected is None else str(expected)
        print(
            f"{w:>3}x{h:<2} {w * h:>5} {ours:>9} {dt:>8.2f}s {result.nodes:>15,} {published:>9}  "
            f"{check}",
            flush=True,
        )
        if result.interrupted:
            print("interrupted", file=sys.stderr)
            break
    verdict = f"{wrong} WRONG" if wrong else "all as published"
    print(f"load average {os.getloadavg()[0]:.1f}; {verdict}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
