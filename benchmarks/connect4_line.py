"""Where the time of a Connect Four principal variation goes: per move of the line, the
null-window probes run and the nodes they searched, and each line's whole time.

Protocol: one process; the solver is loaded first (untimed). Each position's line is proven on
a table cleared before it (a new generation), so that it pays for all of its proofs, as the line
of a fresh ``unbeatable analyze`` does after the book answered the root (after an analysis the
table is warm and the line costs less). Default positions: the empty board, ``4444`` and
``444441322224`` (12 stones, the database's layer); ``--random N`` adds N positions of random
play of 8 to 20 stones (``--seed``). Only the plies that cost at least ``--show`` nodes are
listed.

    PYTHONPATH=src python benchmarks/connect4_line.py [--random 20] [--seed 1] [--show 1000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from unbeatable import get_game
from unbeatable.game import SolveRequest
from unbeatable.games.connect4 import Connect4State
from unbeatable.games.connect4.hooks import line_costs, ready_solver


def random_position(rng: random.Random) -> Connect4State:
    game = get_game("connect4")
    while True:
        state = game.initial()
        stones = rng.randrange(8, 21)
        while state.outcome() is None and state.ply < stones:
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome() is None:
            assert isinstance(state, Connect4State)
            return state


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--random", type=int, default=0, help="random positions to add")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--show", type=int, default=1000, help="list plies of at least this many nodes")
    args = p.parse_args(argv)
    game = get_game("connect4")
    start_state = game.initial()
    assert isinstance(start_state, Connect4State)
    solver = ready_solver(start_state.game, SolveRequest())
    assert solver is not None
    positions = [(f'"{m}"', game.parse_position(m)) for m in ("", "4444", "444441322224")]
    rng = random.Random(args.seed)
    positions += [(f"random {i + 1}", random_position(rng)) for i in range(args.random)]
    seconds: list[float] = []
    for label, state in positions:
        assert isinstance(state, Connect4State)
        solver.reset()
        start = time.perf_counter()
        costs = line_costs(state, SolveRequest())
        spent = time.perf_counter() - start
        seconds.append(spent)
        moves = start_state.game.format_moves([c for c, _, _ in costs])
        total = sum(n for _, n, _ in costs)
        print(
            f"{label} ({state.moves} stones, {state}): {len(costs)} moves to the end, "
            f"{total:,} nodes, "
            f"{spent * 1000:.1f} ms: {moves}"
        )
        for index, (column, nodes, probes) in enumerate(costs):
            if nodes >= args.show:
                print(
                    f"    at {state.moves + index:2d} stones: column {column + 1}, {probes} probe"
                    f"{'s' if probes != 1 else ''}, {nodes:,} nodes"
                )
    print(
        f"{len(seconds)} lines: median {statistics.median(seconds) * 1000:.1f} ms, "
        f"max {max(seconds) * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
