"""Players and matches: who chooses the moves, kept apart from the rules of the games."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .game import Move, Outcome, State
from .search import Limits, Searcher, SearchResult

__all__ = ["AIPlayer", "MatchRecord", "Player", "RandomPlayer", "play_match"]


class Player:
    """Chooses a move in a position; ``name`` is shown in tables."""

    name = "player"

    def choose(self, state: State) -> Move:
        raise NotImplementedError


class RandomPlayer(Player):
    """Plays a uniformly random legal move with the generator it is given."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.name = "random"

    def choose(self, state: State) -> Move:
        return self.rng.choice(list(state.legal_moves()))


class AIPlayer(Player):
    """Plays the search's move within ``limits`` (no limit: perfect play where it can solve)."""

    def __init__(
        self,
        limits: Limits | None = None,
        searcher: Searcher | None = None,
        name: str | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.searcher = searcher or Searcher()
        self.last: SearchResult | None = None
        if name is None:
            parts = []
            if self.limits.depth is not None:
                parts.append(f"depth {self.limits.depth}")
            if self.limits.time is not None:
                parts.append(f"{self.limits.time:g}s")
            name = "ai " + ", ".join(parts) if parts else "perfect"
        self.name = name

    def choose(self, state: State) -> Move:
        self.last = self.searcher.search(state, self.limits)
        assert self.last.move is not None
        return self.last.move


@dataclass
class MatchRecord:
    """How one game went: the moves and the outcome."""

    moves: list[Move] = field(default_factory=list)
    outcome: Outcome | None = None


def play_match(
    state: State,
    first: Player,
    second: Player,
    on_move: Callable[[State, Move], None] | None = None,
) -> MatchRecord:
    """Play one game from ``state`` between two players; the record of the game."""
    record = MatchRecord()
    players = (first, second)
    while state.outcome() is None:
        move = players[state.to_move].choose(state)
        if on_move is not None:
            on_move(state, move)
        record.moves.append(move)
        state = state.play_checked(move)
    record.outcome = state.outcome()
    return record
