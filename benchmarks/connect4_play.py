"""Whole Connect Four games from the empty board: the perfect player against random play,
against ``time:0.2`` and against itself, with the perfect player's time per move.

Each game is played through the library (``players.parse_player`` and ``play_match``), the way
``unbeatable match`` plays it; the perfect player starts half of the games (``--games`` each
pairing, alternating colours; against itself, every game). Printed: the results, and the
distribution of the perfect player's seconds per move (median, 95th percentile, max), in one
process (the first move pays for loading the compiled kernels and the database, shown apart).

    PYTHONPATH=src python benchmarks/connect4_play.py [--games 4] [--seed 1] [--no-book]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from unbeatable import get_game
from unbeatable.game import Outcome
from unbeatable.players import parse_player, play_match


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=4, help="games per pairing (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--opponents", nargs="*", default=["random", "time:0.2", "perfect"])
    args = p.parse_args(argv)
    game = get_game("connect4")
    rng = random.Random(args.seed)
    perfect = parse_player("perfect", rng)
    t0 = time.perf_counter()
    perfect.choose(game.initial())
    print(
        f"first call (kernels from numba's cache, database, book): {time.perf_counter() - t0:.2f} s"
    )
    times: list[float] = []
    failures = 0
    for spec in args.opponents:
        other = perfect if spec == "perfect" else parse_player(spec, rng)
        tally = {"perfect wins": 0, "draws": 0, "perfect loses": 0}
        own: list[float] = []
        for index in range(args.games):
            starts = spec == "perfect" or index % 2 == 0
            first, second = (perfect, other) if starts else (other, perfect)
            record = play_match(game.initial(), first, second)
            side = 0 if starts else 1
            own += [t for i, t in enumerate(record.times) if i % 2 == side or spec == "perfect"]
            if record.outcome is Outcome.DRAW:
                tally["draws"] += 1
            elif record.outcome is not None and record.outcome.winner == side:
                tally["perfect wins"] += 1
            else:
                tally["perfect loses"] += 1
            if starts and (record.outcome is None or record.outcome.winner != 0):
                failures += 1  # the first player wins Connect Four: perfect must win
            print(
                f"  perfect vs {spec} game {index + 1} ({'perfect' if starts else spec} first): "
                f"{record.outcome}, {len(record.moves)} moves, "
                f"slowest move {max(record.times):.2f} s",
                flush=True,
            )
        times += own
        print(
            f"perfect vs {spec}: {tally}; perfect's move time median "
            f"{statistics.median(own):.3f} s, p95 {pct(own, 0.95):.3f} s, "
            f"max {max(own):.3f} s over {len(own)} moves",
            flush=True,
        )
    print(
        f"all games: perfect's move time median {statistics.median(times):.3f} s, p95 "
        f"{pct(times, 0.95):.3f} s, max {max(times):.3f} s over {len(times)} moves; "
        f"games started by perfect and not won: {failures}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
