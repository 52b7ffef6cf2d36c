"""Whole Connect Four games from the empty board: the perfect player against random play,
against ``time:0.2`` and against itself, with the perfect player's time per move; and the
whole-process time of ``unbeatable analyze connect4 ""`` and ``... 4444`` with the length of
the principal variation they print.

Protocol. Each game is played through the library (``players.parse_player`` and
``play_match``), the way ``unbeatable match`` plays it, in one process whose first call (numba,
the compiled kernels from numba's cache, the database, the book) is made and timed before the
games. The perfect player starts half of the games against each opponent (``--games`` each,
alternating colours; against itself, every game). A move's time is the wall-clock time of
``Player.choose`` (the search, its every-column analysis and its principal variation).
``--verify`` (default on) re-solves, untimed, with a solver of its own, the position after each
of the perfect player's moves: a move that gives away the value counts as an error (expected
0); the opponents' moves that give away value are counted too (that is how a game against a
perfect second player is won). The first player wins Connect Four, so the perfect player must
win every game it starts; a game it does not start it can only lose to an opponent that never
gives the value away: each game it lost is classed as held by the opponent (no move of perfect
lost value) or thrown (expected 0).

``--analyze N`` runs each analyze command N times in fresh processes (numba's cache warm: one
untimed run first) and prints the median wall-clock and CPU (user + system) seconds, for this
source tree and, with ``--peer-src PATH``, for another one (e.g. main's ``src``) in the same run,
alternating. The machine's load average is printed before and after: on a shared 2-core machine
the wall-clock figures move with it.

    PYTHONPATH=src python benchmarks/connect4_play.py [--games 4] [--seed 1] [--analyze 5]
        [--peer-src ../main/src] [--no-verify]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from unbeatable import get_game
from unbeatable.game import Outcome, State
from unbeatable.games.connect4 import Connect4State
from unbeatable.games.connect4.solver import Solver
from unbeatable.players import Player, parse_player, play_match

SRC = Path(__file__).resolve().parents[1] / "src"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


class Checker:
    """Counts the moves that give away the position's value, by side (untimed)."""

    def __init__(self) -> None:
        self.solver = Solver(1 << 26, threads=1)
        self.given_away = {"perfect": 0, "opponent": 0}
        self.losses_held = 0  # games perfect lost although the opponent never gave value away
        self.losses_thrown = 0  # games perfect lost from a position it could hold (expected 0)

    def score(self, state: State) -> int:
        assert isinstance(state, Connect4State)
        return self.solver.solve_bitboards(state.current, state.mask, state.moves)

    def check(self, moves: list[object], perfect_sides: set[int], lost: bool) -> None:
        """Re-solve every position of a game and count the moves that lost value; a game
        perfect ``lost`` counts as held by the opponent when no move of perfect lost value."""
        before = self.given_away["perfect"]
        state: State = get_game("connect4").initial()
        value = self.score(state)
        for move in moves:
            child = state.play(move)
            outcome = child.outcome()
            if outcome is None:
                after = self.score(child)
                kept = -after == value
            else:
                after = 0
                kept = outcome.winner == state.to_move or (outcome.winner is None and value == 0)
            if not kept:
                who = "perfect" if state.to_move in perfect_sides else "opponent"
                self.given_away[who] += 1
            state, value = child, after
        if lost and self.given_away["perfect"] == before:
            self.losses_held += 1
        elif lost:
            self.losses_thrown += 1


def play_pairing(
    spec: str, perfect: Player, games: int, rng: random.Random, checker: Checker | None
) -> tuple[list[float], list[tuple[float, int]], int]:
    """Play ``games`` games; the perfect player's move times, (time, stones) pairs, and the
    number of games it started and did not win."""
    other = perfect if spec == "perfect" else parse_player(spec, rng)
    tally = {"perfect wins": 0, "draws": 0, "perfect loses": 0}
    own: list[float] = []
    by_stones: list[tuple[float, int]] = []
    failures = 0
    game = get_game("connect4")
    for index in range(games):
        starts = spec == "perfect" or index % 2 == 0
        first, second = (perfect, other) if starts else (other, perfect)
        record = play_match(game.initial(), first, second)
        side = 0 if starts else 1
        sides = {0, 1} if spec == "perfect" else {side}
        mine = [(t, ply) for ply, t in enumerate(record.times) if ply % 2 in sides]
        own += [t for t, _ in mine]
        by_stones += mine
        lost = False
        if record.outcome is Outcome.DRAW:
            tally["draws"] += 1
        elif record.outcome is not None and record.outcome.winner == side:
            tally["perfect wins"] += 1
        else:
            tally["perfect loses"] += 1
            lost = True
        if starts and (record.outcome is None or record.outcome.winner != 0):
            failures += 1
        if checker is not None:
            checker.check(list(record.moves), sides, lost)
        print(
            f"  perfect vs {spec} game {index + 1} ({'perfect' if starts else spec} first): "
            f"{record.outcome}, {len(record.moves)} moves, perfect's slowest move "
            f"{max(t for t, _ in mine):.3f} s",
            flush=True,
        )
    print(
        f"perfect vs {spec}: {tally}; perfect's move time median "
        f"{statistics.median(own):.3f} s, p95 {pct(own, 0.95):.3f} s, "
        f"max {max(own):.3f} s over {len(own)} moves",
        flush=True,
    )
    return own, by_stones, failures


def analyze_runs(src: Path, moves: str, runs: int) -> tuple[float, float, int]:
    """Median wall-clock and CPU seconds of ``unbeatable analyze connect4 MOVES`` in fresh
    processes (one untimed run first), and the length of the principal variation printed."""
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, "-m", "unbeatable", "analyze", "connect4", moves]
    subprocess.run(command, env=env, capture_output=True, check=True)
    walls, cpus = [], []
    length = 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        line = next(t for t in out.splitlines() if t.startswith("principal variation:"))
        length = len(line.split(":")[1].split())
    return statistics.median(walls), statistics.median(cpus), length


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=4, help="games per pairing (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--opponents", nargs="*", default=["random", "time:0.2", "perfect"])
    p.add_argument("--no-verify", action="store_true", help="do not re-solve the moves")
    p.add_argument("--analyze", type=int, default=5, metavar="N", help="runs of each analyze")
    p.add_argument("--peer-src", type=Path, help="another source tree to time analyze with")
    args = p.parse_args(argv)
    print(load(), flush=True)
    if args.analyze:
        trees = [("this tree", SRC)] + ([("peer", args.peer_src)] if args.peer_src else [])
        for moves in ("", "4444"):
            for label, src in trees:
                wall, cpu, length = analyze_runs(src, moves, args.analyze)
                print(
                    f"analyze connect4 {moves or chr(34) * 2} ({label}, {src}): median "
                    f"{wall:.2f} s wall, {cpu:.2f} s CPU over {args.analyze} processes; "
                    f"principal variation {length} moves (to the end: {42 - len(moves)})",
                    flush=True,
                )
    game = get_game("connect4")
    rng = random.Random(args.seed)
    perfect = parse_player("perfect", rng)
    t0 = time.perf_counter()
    perfect.choose(game.initial())
    print(f"first call (numba, kernels from its cache, database, book): "
          f"{time.perf_counter() - t0:.2f} s", flush=True)  # fmt: skip
    checker = None if args.no_verify else Checker()
    times: list[float] = []
    by_stones: list[tuple[float, int]] = []
    failures = 0
    for spec in args.opponents:
        own, stones, failed = play_pairing(spec, perfect, args.games, rng, checker)
        times += own
        by_stones += stones
        failures += failed
    slowest = sorted(by_stones, reverse=True)[:5]
    print(
        f"all games: perfect's move time median {statistics.median(times):.3f} s, p95 "
        f"{pct(times, 0.95):.3f} s, max {max(times):.3f} s over {len(times)} moves; slowest "
        f"at " + ", ".join(f"{s} stones ({t:.2f} s)" for t, s in slowest)
    )
    print(f"games started by perfect and not won: {failures}")
    if checker is not None:
        print(
            f"moves that gave the value away (re-solved): perfect "
            f"{checker.given_away['perfect']}, opponents {checker.given_away['opponent']}; "
            f"games perfect lost: {checker.losses_held} to an opponent that never gave the value "
            f"away (the first player wins), {checker.losses_thrown} from a position it could hold"
        )
    print(load())
    thrown = 0 if checker is None else checker.given_away["perfect"] + checker.losses_thrown
    bad = failures or thrown
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
