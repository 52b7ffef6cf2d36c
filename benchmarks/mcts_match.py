"""Monte Carlo tree search against alpha-beta with the game's evaluation, as players: whole
games at the same time a move, the score and an Elo difference with its 95% interval.

Protocol. Both players are the library's (``players.parse_player``, as ``unbeatable match``
makes them): ``mcts:SECONDS`` (UCT with MCTS-Solver, random playouts, exploration sqrt 2)
against ``time:SECONDS,algorithm=alphabeta`` (iterative deepening with the table and the game's
evaluation; naming the algorithm keeps Connect Four's own solver out, so that the generic engine
plays). Each game starts from the empty board; MCTS plays first in the even-numbered games and
second in the odd ones. Every game has its own seeded generator (``--seed`` plus the game's
number) for the players' ties and MCTS's playouts, so a run is reproducible up to the clock.
A line per game (who played first, the result, each player's mean seconds a move), the running
score, and the machine's load average every ten games: on a shared machine the figures move
with it, and both players are held to wall-clock time.

The Elo difference is MCTS's: ``-400 log10(1/p - 1)`` of its mean score ``p`` (a win 1, a draw
1/2), with the 95% interval of ``p`` (normal, from the games' own spread) mapped through the
same curve (infinite beyond a score of 0 or 1).

    PYTHONPATH=src python benchmarks/mcts_match.py --game hex:7 --games 100 --time 0.5
    PYTHONPATH=src python benchmarks/mcts_match.py --game connect4 --games 100 --time 0.5
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from unbeatable import get_game
from unbeatable.players import parse_player, play_match


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def to_elo(p: float) -> float:
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1) + 0.0


def elo(scores: list[float]) -> tuple[float, float, float]:
    """The Elo difference of the mean score and the ends of its 95% interval."""
    mean = statistics.fmean(scores)
    spread = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    return to_elo(mean), to_elo(mean - 1.96 * spread), to_elo(mean + 1.96 * spread)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="hex:7")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move, both players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mcts", default="", help="options after mcts:T, e.g. ',eval=zero'")
    args = parser.parse_args()

    game = get_game(args.game)
    mcts_spec = f"mcts:{args.time:g}{args.mcts}"
    alphabeta_spec = f"time:{args.time:g},algorithm=alphabeta"
    print(f"{game.spec}: {mcts_spec} against {alphabeta_spec}, {args.games} games, seed "
          f"{args.seed}; {load()}", flush=True)
    scores: list[float] = []
    wins = draws = losses = 0
    began = time.perf_counter()
    for number in range(args.games):
        rng = random.Random(args.seed * 100_003 + number)
        mcts = parse_player(mcts_spec, rng)
        alphabeta = parse_player(alphabeta_spec, rng)
        mcts_first = number % 2 == 0
        first, second = (mcts, alphabeta) if mcts_first else (alphabeta, mcts)
        record = play_match(game.initial(), first, second)
        assert record.outcome is not None
        winner = record.outcome.winner
        mcts_side = 0 if mcts_first else 1
        score = 0.5 if winner is None else 1.0 if winner == mcts_side else 0.0
        scores.append(score)
        wins += score == 1.0
        draws += score == 0.5
        losses += score == 0.0
        own = record.times[mcts_side::2]
        other = record.times[1 - mcts_side::2]
        print(
            f"game {number + 1:3d}: mcts {'first ' if mcts_first else 'second'} "
            f"{'won ' if score == 1 else 'drew' if score == 0.5 else 'lost'} in "
            f"{len(record.moves)} moves (s/move mcts {statistics.fmean(own):.2f}, alpha-beta "
            f"{statistics.fmean(other):.2f}); mcts +{wins} ={draws} -{losses}",
            flush=True,
        )
        if (number + 1) % 10 == 0:
            print(f"  after {number + 1} games, {time.perf_counter() - began:.0f} s: {load()}",
                  flush=True)
    difference, low, high = elo(scores)
    print(
        f"{game.spec}, {len(scores)} games at {args.time:g} s a move: mcts scores "
        f"{statistics.fmean(scores):.1%} (+{wins} ={draws} -{losses}), Elo {difference:+.0f} "
        f"(95%: {low:+.0f} to {high:+.0f}) against alpha-beta with the evaluation; {load()}",
        flush=True,
    )


if __name__ == "__main__":
    main()
