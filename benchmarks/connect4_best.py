"""What a Connect Four player's move costs: the best moves only (``SolveRequest(best_only=True)``,
``Solver.best``: the position solved, then one null-window question per column) against every
column's exact score (``Solver.analyze``, what a player asked before), and the principal
variation (from a cold table too).

Protocol: one process, one thread; the solver is loaded first (untimed). The positions are
reached from the empty board by mostly perfect play (a best move, chosen at random among the
best, with probability ``--perfect``; else a random move) up to ``--stones`` stones, the layer
just past the 12-stone database where a player's moves cost the most. Before each timed call
the table is cleared (a new generation), so that each pays for all of its work; the nodes and
wall-clock seconds of each are printed, then the medians, maxima and totals. The best moves
found are checked against those of the whole analysis (a mismatch is printed and counted).

    PYTHONPATH=src python benchmarks/connect4_best.py [--positions 16] [--stones 12] [--seed 11]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from unbeatable import get_game
from unbeatable.game import SolveAnswer, SolveRequest
from unbeatable.games.connect4 import Connect4State
from unbeatable.games.connect4.hooks import line_costs, move_values, ready_solver
from unbeatable.search import search


def position(rng: random.Random, stones: int, perfect: float) -> Connect4State | None:
    state = get_game("connect4").initial()
    while state.ply < stones and state.outcome() is None:
        moves = list(search(state).best_moves) if rng.random() < perfect else state.legal_moves()
        state = state.play(rng.choice(list(moves)))
    if state.outcome() is not None:
        return None
    assert isinstance(state, Connect4State)
    return state


def best_of(answer: SolveAnswer) -> set[object]:
    top = max(answer.values.values())
    return {m for m, v in answer.values.items() if v == top}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--positions", type=int, default=16)
    p.add_argument("--stones", type=int, default=12)
    p.add_argument("--perfect", type=float, default=0.7, help="share of perfect moves")
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args()
    rng = random.Random(args.seed)
    solver = ready_solver(get_game("connect4"), SolveRequest())  # type: ignore[arg-type]
    assert solver is not None
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    kinds = ("best moves", "every column", "line, cold table")
    rows: list[list[tuple[float, int]]] = []
    mismatches = 0
    while len(rows) < args.positions:
        state = position(rng, args.stones, args.perfect)
        if state is None:
            continue
        row: list[tuple[float, int]] = []
        answers: list[SolveAnswer] = []
        for best_only in (True, False):
            solver.clear()
            start = time.perf_counter()
            answer = move_values(state, SolveRequest(threads=1, best_only=best_only))
            assert answer is not None and answer.complete
            row.append((time.perf_counter() - start, answer.nodes))
            answers.append(answer)
        solver.clear()
        start = time.perf_counter()
        costs = line_costs(state, SolveRequest(threads=1, quick=True))
        row.append((time.perf_counter() - start, sum(nodes for _, nodes, _ in costs)))
        if best_of(answers[0]) != best_of(answers[1]):
            mismatches += 1
            print(f"MISMATCH at {state}: {best_of(answers[0])} != {best_of(answers[1])}")
        rows.append(row)
        cells = "  ".join(f"{k} {s:.3f} s {n:,}" for k, (s, n) in zip(kinds, row, strict=True))
        print(f"{state}  {cells}", flush=True)
    for i, kind in enumerate(kinds):
        seconds = [r[i][0] for r in rows]
        nodes = sum(r[i][1] for r in rows)
        print(
            f"{kind}: median {statistics.median(seconds):.3f} s, max {max(seconds):.3f} s, "
            f"{nodes:,} nodes in all"
        )
    print(f"best moves that differ from the whole analysis': {mismatches} (expected 0)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
