"""How promptly the compiled Connect Four solver honours a deadline and a node budget.

Hard positions (Pons' Test_L1_R3, the bare solver: seconds to minutes each) are analyzed with a
deadline of 0.1 s and then with a budget of 200,000 nodes, on 1 and 2 threads, both for every
column's score (``Solver.analyze``) and for the best columns only (``Solver.best``); printed:
how far past the deadline each call returned (max, mean), and the nodes searched against the
budget.

    PYTHONPATH=src python benchmarks/connect4_limits.py [--sample 10]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from connect4_solve import default_data_dir

from unbeatable.games.connect4 import Connect4State


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sample", type=int, default=10)
    p.add_argument("--deadline", type=float, default=0.1)
    p.add_argument("--nodes", type=int, default=200_000)
    args = p.parse_args(argv)
    from unbeatable import get_game
    from unbeatable.games.connect4.solver import Solver, compile_kernels

    compile_kernels()
    game = get_game("connect4")
    with open(default_data_dir() / "Test_L1_R3") as f:
        states = [
            cast(Connect4State, game.parse_position(line.split()[0])) for line in f
        ][: args.sample]
    worst = 0.0
    for kind, threads in (("analyze", 1), ("analyze", 2), ("best", 1), ("best", 2)):
        solver = Solver(book=False, threads=threads)
        call = solver.analyze if kind == "analyze" else solver.best
        late: list[float] = []
        over: list[int] = []
        for s in states:
            solver.reset()
            start = time.perf_counter()
            r = call(s.current, s.mask, s.moves, deadline=start + args.deadline)
            late.append(time.perf_counter() - start - args.deadline if not r.complete else 0.0)
            print(f"  {kind} {s}: {late[-1] * 1e3:.1f} ms late", file=sys.stderr)
            solver.reset()
            r = call(s.current, s.mask, s.moves, max_nodes=args.nodes)
            over.append(solver.nodes - args.nodes if not r.complete else 0)
        worst = max(worst, max(late))
        print(
            f"{kind}, {threads} thread(s), {len(states)} Test_L1_R3 positions: past the "
            f"{args.deadline} s deadline by max {max(late) * 1e3:.1f} ms, mean "
            f"{sum(late) / len(late) * 1e3:.1f} ms; past the {args.nodes:,}-node budget by max "
            f"{max(over):,} nodes"
        )
    return 0 if worst < 0.05 else 1


if __name__ == "__main__":
    sys.exit(main())
