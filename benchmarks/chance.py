"""The nodes *-minimax saves: expectiminimax, Star1 and Star2 on the same searches.

Node counts are exact and deterministic (times vary with the machine and its load, printed
beside them). Three kinds of search:

* **bear-off**: a long race (15 checkers on 6 points), a player's search of several positions
  (the move to play, not every move's value) to a depth limit, with the game's evaluation,
  the table and the game's play order: where *-minimax is meant to work (Ballard; Hauk, Buro
  and Schaeffer measured it on backgammon).
* **regular trees**: random trees of 4 moves a node and 6 equally likely outcomes a chance
  node, leaves from -10 to 10, no move order at all: what the pruning gives without help.
* **exact**: every position of a small race solved to the end with a table (a dynamic
  programme for expectiminimax: each position searched once; little is left to prune).

Every row checks that the three algorithms agree on the value and the move.

    python benchmarks/chance.py [--depths 1 2 3] [--positions 4] [--trees 4]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from unbeatable import Limits, Payoff, Searcher, State, get_game
from unbeatable.games.bearoff import Bearoff, BearoffState

ALGORITHMS = ("expectiminimax", "star1", "star2")

#: Positions of the long race (a roll to play), from the start and later on.
RACE = [
    "2-2-3-3-3-2/2-3-2-3-2-3 first 6-3",
    "2-2-3-3-3-2/3-3-3-2-2-2 first 5-2",
    "3-3-3-2-2-1/2-2-2-3-3-2 second 4-1",
    "1-2-3-2-1-1/1-1-2-3-2-1 first 6-6",
    "0-2-2-2-2-1/1-2-2-2-2-0 second 3-1",
    "2-2-2-1-1-0/0-2-2-2-2-1 first 2-1",
]


def run(search: Callable[[], tuple[int, float, object]]) -> tuple[int, float, object]:
    """A search's nodes, its seconds, and its answer (the value, rounded, and the move)."""
    start = time.perf_counter()
    nodes, value, move = search()
    return nodes, time.perf_counter() - start, (round(value, 9), move)


def row(label: str, counts: dict[str, int], seconds: dict[str, float]) -> None:
    base = counts["expectiminimax"]
    cells = [f"{counts[a]:>11,} {seconds[a]:6.2f}s" for a in ALGORITHMS]
    saved = [f"{100 * (1 - counts[a] / base):5.1f}%" for a in ("star1", "star2")]
    print(f"{label:<44}" + "".join(cells) + "   " + "  ".join(saved))


def header(title: str) -> None:
    print(f"\n{title}")
    print(f"{'':<44}" + "".join(f"{a:>19}" for a in ALGORITHMS) + "   star1  star2 saved")


def race(depths: list[int], positions: int) -> None:
    header("bear-off race, 15 checkers on 6 points: a player's search (the move to play)")
    game = get_game("bearoff:15,6")
    for depth in depths:
        totals = dict.fromkeys(ALGORITHMS, 0)
        times = dict.fromkeys(ALGORITHMS, 0.0)
        for text in RACE[:positions]:
            state = game.parse_position(text)
            answers = {}
            for algorithm in ALGORITHMS:
                def search(
                    a: str = algorithm, s: State = state, d: int = depth
                ) -> tuple[int, float, object]:
                    found = Searcher(a).search(s, Limits(depth=d))
                    return found.nodes, found.score.value, found.move

                nodes, seconds, answer = run(search)
                totals[algorithm] += nodes
                times[algorithm] += seconds
                answers[algorithm] = answer
            assert len(set(answers.values())) == 1, (text, depth, answers)
        row(f"depth {depth}, {positions} positions", totals, times)


@dataclass(frozen=True)
class Tree(State):
    """A tree of nested tuples: a number is a leaf (the first player's payoff, zero-sum),
    ``("c", ((p, subtree), ...))`` a chance node, any other tuple a player's node."""

    numeric_outcomes: ClassVar[bool] = True
    has_chance: ClassVar[bool] = True
    value_bounds: ClassVar[tuple[float, float] | None] = (-10, 10)
    node: Any = None
    turn: int = 0

    @property
    def to_move(self) -> int:
        return self.turn % 2

    @property
    def is_chance(self) -> bool:
        return isinstance(self.node, tuple) and self.node[:1] == ("c",)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(i, p) for i, (p, _) in enumerate(self.node[1])] if self.is_chance else []

    def legal_moves(self) -> list[int]:
        if self.is_chance:
            return list(range(len(self.node[1])))
        return list(range(len(self.node))) if isinstance(self.node, tuple) else []

    def play(self, move: Any) -> Tree:
        if self.is_chance:
            return Tree(self.node[1][move][1], self.turn)
        return Tree(self.node[move], self.turn + 1)

    def outcome(self) -> Payoff | None:
        return None if isinstance(self.node, tuple) else Payoff.zero_sum(self.node)

    def key(self) -> Hashable:
        """A 64-bit digest of the tree: the same in every process (a string's hash is not,
        and the table's slots, and so the node counts, would change from run to run)."""
        text = repr((self.node, self.turn)).encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def regular(rng: random.Random, depth: int, chance: bool) -> object:
    if depth == 0:
        return rng.randint(-10, 10)
    if chance:
        return ("c", tuple((1 / 6, regular(rng, depth - 1, False)) for _ in range(6)))
    return tuple(regular(rng, depth - 1, True) for _ in range(4))


def trees(count: int) -> None:
    header(f"regular trees (4 moves, 6 outcomes, 7 levels), {count} trees, exact, no ordering")
    rng = random.Random(7)
    for table in (False, True):
        totals = dict.fromkeys(ALGORITHMS, 0)
        times = dict.fromkeys(ALGORITHMS, 0.0)
        for _ in range(count):
            tree = Tree(regular(rng, 7, False))
            answers = {}
            for algorithm in ALGORITHMS:
                def search(
                    a: str = algorithm, t: Tree = tree, k: bool = table
                ) -> tuple[int, float, object]:
                    found = Searcher(a, table=k, hints=False).search(t)
                    return found.nodes, found.score.value, found.move

                nodes, seconds, answer = run(search)
                totals[algorithm] += nodes
                times[algorithm] += seconds
                answers[algorithm] = answer
            assert len(set(answers.values())) == 1, answers
        row("with a table" if table else "without a table", totals, times)


def exact() -> None:
    header("every position of a 3-checker, 3-point race, solved exactly (one table each)")
    game = get_game("bearoff:3,3")
    assert isinstance(game, Bearoff)
    sides = [c for c in itertools.product(range(4), repeat=3) if sum(c) <= 3]
    totals = dict.fromkeys(ALGORITHMS, 0)
    times = dict.fromkeys(ALGORITHMS, 0.0)
    for algorithm in ALGORITHMS:
        searcher = Searcher(algorithm)
        start = time.perf_counter()
        for mine, theirs in itertools.product(sides, repeat=2):
            if any(mine) or any(theirs):
                found = searcher.search(BearoffState(game, mine, theirs, 0, None))
                totals[algorithm] += found.nodes
        times[algorithm] = time.perf_counter() - start
    row(f"{len(sides) ** 2 - 1} positions", totals, times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--positions", type=int, default=4, help="race positions (at most 6)")
    parser.add_argument("--trees", type=int, default=4)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores shared): times are indicative")
    print("columns: nodes and seconds of each algorithm; the nodes Star1 and Star2 save")
    race(args.depths, min(args.positions, len(RACE)))
    trees(args.trees)
    exact()


if __name__ == "__main__":
    main()
