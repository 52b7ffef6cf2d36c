"""Game trees with chance and with more players, for the tests: random trees of a fixed
shape, and brute force (the textbook recursions, written plainly) to check the searches
against."""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Any, ClassVar

from unbeatable import Payoff, State

#: Leaves are worth -LEAF to LEAF to the first player (the bounds the trees declare).
LEAF = 10


@dataclass(frozen=True)
class Tree(State):
    """A tree as nested tuples: a number is a leaf (the first player's payoff, zero-sum),
    ``("c", ((p, subtree), ...))`` a chance node, any other tuple a node of the player to
    move, whose children are moved to by the next player (``turn`` counts the players' moves
    so far). ``width`` players take turns (two: zero-sum)."""

    numeric_outcomes: ClassVar[bool] = True
    has_chance: ClassVar[bool] = True
    value_bounds: ClassVar[tuple[float, float] | None] = (-LEAF, LEAF)
    node: Any = None
    turn: int = 0

    @property
    def to_move(self) -> int:
        return self.turn % 2

    @property
    def is_chance(self) -> bool:
        return isinstance(self.node, tuple) and self.node[:1] == ("c",)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        return [(i, p) for i, (p, _) in enumerate(self.node[1])]

    def legal_moves(self) -> list[int]:
        if self.is_chance:
            return list(range(len(self.node[1])))
        return list(range(len(self.node))) if isinstance(self.node, tuple) else []

    def play(self, move: Any) -> Tree:
        if self.is_chance:
            return type(self)(self.node[1][move][1], self.turn)
        return type(self)(self.node[move], self.turn + 1)

    def outcome(self) -> Payoff | None:
        return None if isinstance(self.node, tuple) else Payoff.zero_sum(self.node)

    def evaluate(self) -> float:
        """A made-up estimate that depends on the position only, within the bounds."""
        seed = zlib.crc32(repr((self.node, self.turn)).encode())
        return (seed % 2001 - 1000) / 1000 * LEAF / 2


def random_tree(rng: random.Random, depth: int, chance_first: bool, chance: float = 0.5) -> Any:
    """A random tree ``depth`` levels deep: chance nodes (2-3 outcomes of random weights) and
    players' nodes (1-3 moves), leaves of whole numbers."""
    if depth == 0 or (depth < 3 and rng.random() < 0.1):
        return rng.randint(-LEAF, LEAF)
    if chance_first:
        weights = [rng.randint(1, 5) for _ in range(rng.randint(2, 3))]
        total = sum(weights)
        return ("c", tuple((w / total, random_tree(rng, depth - 1, False, chance))
                           for w in weights))
    return tuple(random_tree(rng, depth - 1, rng.random() < chance, chance)
                 for _ in range(rng.randint(1, 3)))


def expectimax(state: State, depth: int | None = None) -> float:
    """The expectiminimax value from the side to move's view (negamax form), to the end or
    ``depth`` players' moves deep (chance nodes take none), with the evaluation held within
    the bounds at the limit."""
    outcome = state.outcome()
    if outcome is not None:
        assert isinstance(outcome, Payoff)
        return outcome.values[state.to_move]
    if depth == 0:
        low, high = state.value_bounds or (-1, 1)
        return min(high, max(low, state.evaluate()))
    values = []
    for move in state.legal_moves():
        child = state.play(move)
        below = depth if depth is None or state.is_chance else depth - 1
        value = expectimax(child, below)
        values.append(value if child.to_move == state.to_move else -value)
    if state.is_chance:
        return sum(p * v for (_, p), v in zip(state.chance_outcomes(), values, strict=True))
    return max(values)


@dataclass(frozen=True)
class Party(State):
    """A tree of ``PLAYERS`` players taking turns: leaves are payoff vectors, chance nodes as
    in :class:`Tree`."""

    PLAYERS: ClassVar[int] = 3
    numeric_outcomes: ClassVar[bool] = True
    has_chance: ClassVar[bool] = True
    node: Any = None
    turn: int = 0

    @property
    def players(self) -> int:
        return self.PLAYERS

    @property
    def to_move(self) -> int:
        return self.turn % self.PLAYERS

    @property
    def is_chance(self) -> bool:
        return isinstance(self.node, tuple) and self.node[:1] == ("c",)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        return [(i, p) for i, (p, _) in enumerate(self.node[1])]

    def legal_moves(self) -> list[int]:
        if self.is_chance:
            return list(range(len(self.node[1])))
        if isinstance(self.node, tuple) and self.node[:1] == ("leaf",):
            return []
        return list(range(len(self.node)))

    def play(self, move: Any) -> Party:
        if self.is_chance:
            return type(self)(self.node[1][move][1], self.turn)
        return type(self)(self.node[move], self.turn + 1)

    def outcome(self) -> Payoff | None:
        if isinstance(self.node, tuple) and self.node[:1] == ("leaf",):
            return Payoff(self.node[1])
        return None

    def evaluate_players(self) -> tuple[float, ...]:
        seed = zlib.crc32(repr((self.node, self.turn)).encode())
        return tuple(((seed >> (4 * p)) % 11 - 5) / 10 for p in range(self.PLAYERS))


def random_party(rng: random.Random, depth: int, chance: float = 0.3) -> Any:
    """A random tree of :data:`Party.PLAYERS` players; payoffs are small whole numbers, so
    ties are common (the tie rule matters)."""
    if depth == 0 or (depth < 3 and rng.random() < 0.1):
        return ("leaf", tuple(rng.randint(0, 3) for _ in range(Party.PLAYERS)))
    if rng.random() < chance:
        weights = [rng.randint(1, 5) for _ in range(rng.randint(2, 3))]
        total = sum(weights)
        return ("c", tuple((w / total, random_party(rng, depth - 1, chance)) for w in weights))
    return tuple(random_party(rng, depth - 1, chance) for _ in range(rng.randint(1, 3)))


def maxn(state: State, depth: int | None = None) -> tuple[float, ...]:
    """The max^n vector: the player to move takes the first child (in legal order) whose
    value to it is greatest; chance nodes their expectation."""
    outcome = state.outcome()
    if outcome is not None:
        assert isinstance(outcome, Payoff)
        return tuple(float(v) for v in outcome.values)
    if depth == 0:
        return tuple(state.evaluate_players())
    best: tuple[float, ...] | None = None
    total = [0.0] * state.players
    for move in state.legal_moves():
        below = depth if depth is None or state.is_chance else depth - 1
        value = maxn(state.play(move), below)
        if state.is_chance:
            p = dict(state.chance_outcomes())[move]
            total = [t + p * v for t, v in zip(total, value, strict=True)]
        elif best is None or value[state.to_move] > best[state.to_move] + 1e-12:
            best = value
    if state.is_chance:
        return tuple(total)
    assert best is not None
    return best


def paranoid(state: State, me: int, depth: int | None = None) -> float:
    """The paranoid value: ``me`` maximises its payoff, every other player minimises it."""
    outcome = state.outcome()
    if outcome is not None:
        assert isinstance(outcome, Payoff)
        return float(outcome.values[me])
    if depth == 0:
        return tuple(state.evaluate_players())[me]
    values = []
    for move in state.legal_moves():
        below = depth if depth is None or state.is_chance else depth - 1
        values.append(paranoid(state.play(move), me, below))
    if state.is_chance:
        return sum(p * v for (_, p), v in zip(state.chance_outcomes(), values, strict=True))
    return max(values) if state.to_move == me else min(values)
