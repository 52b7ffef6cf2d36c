"""unbeatable.check_game: our games keep the protocol's promises, and each broken promise a
user's game might make is caught and named (issue 12 item 9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from tests.dots import Dots
from unbeatable import GameCheckError, Move, Outcome, State, check_game, get_game
from unbeatable.search import search


@pytest.mark.parametrize(
    "spec", ["tictactoe", "mnk:4,4,4", "mnk:5,5,4", "connect4", "connect4:5,4", "subtraction"]
)
def test_our_games_pass(spec: str) -> None:
    report = check_game(get_game(spec), games=8, seed=3)
    assert report.games == 8 and report.positions > 8 * 4


def test_a_game_with_extra_turns_passes() -> None:
    assert check_game(Dots(1, 2), games=10).longest == 7


@dataclass(frozen=True)
class Count(State):
    """Count to 5 by ones or twos; whoever says 5 wins. Correct: the base of the broken ones."""

    n: int = 0
    turn: int = 0

    @property
    def to_move(self) -> int:
        return self.turn

    def legal_moves(self) -> Sequence[Move]:
        return [] if self.n >= 5 else [step for step in (1, 2) if self.n + step <= 5]

    def play(self, move: Move) -> Count:
        assert isinstance(move, int)
        return type(self)(self.n + move, 1 - self.turn)

    def outcome(self) -> Outcome | None:
        if self.n < 5:
            return None
        return Outcome.FIRST_WINS if self.turn == 1 else Outcome.SECOND_WINS


class Mutating(Count):
    """play() changes the state it is called on: the search silently went wrong on such a game
    ("win at ply 1" in a 5-ply game)."""

    def play(self, move: Move) -> Count:  # type: ignore[override]  # broken on purpose
        assert isinstance(move, int)
        object.__setattr__(self, "n", self.n + move)
        object.__setattr__(self, "turn", 1 - self.turn)
        return Count(self.n, self.turn)


class Chatty(Count):
    def outcome(self) -> Outcome | None:
        return "over" if self.n >= 5 else None  # type: ignore[return-value]


class Silent(Count):
    def evaluate(self) -> float:
        return None  # type: ignore[return-value]


class Stuck(Count):
    def outcome(self) -> Outcome | None:
        return None if self.n < 5 else None if self.n == 5 else Outcome.DRAW


class Unhashable(Count):
    def key(self) -> list[int]:  # type: ignore[override]
        return [self.n]


class Bragging(Count):
    def winning_move(self) -> Move | None:
        return 1


class Shuffled(Count):
    def ordered_moves(self) -> Sequence[Move]:
        return [1]


class Three(Count):
    @property
    def to_move(self) -> int:
        return 3


@pytest.mark.parametrize(
    ("state", "check", "words"),
    [
        (Mutating(), "play", "changed the state it was called on"),
        (Chatty(), "outcome", "must return an Outcome, a Payoff or None, not 'over'"),
        (Silent(), "evaluate", "must return a number, not None"),
        (Stuck(), "legal_moves", "no legal moves but outcome() says the game goes on"),
        (Unhashable(), "key", "unhashable"),
        (Bragging(), "winning_move", "does not win"),
        (Shuffled(), "ordered_moves", "not a reordering"),
        (Three(), "to_move", "must be a player from 0 to 1, not 3"),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_each_broken_promise_is_named(state: State, check: str, words: str) -> None:
    assert check_game(Count(), games=5).positions > 5  # the base game is fine
    with pytest.raises(GameCheckError) as caught:
        check_game(state, games=5)
    assert caught.value.check == check
    assert words in str(caught.value)
    assert "in " in str(caught.value)  # the position is named


def test_the_mutating_game_really_fools_the_search() -> None:
    """Why the check matters: the search trusts play() not to mutate."""
    assert str(search(Count()).score) == "win in 2"
    assert str(search(Mutating()).score) == "win in 1"  # wrong, and nothing says so
    with pytest.raises(GameCheckError, match="play"):
        check_game(Mutating(), games=1)


def test_a_start_that_is_not_a_state_is_refused() -> None:
    with pytest.raises(TypeError, match="needs a State or a Game, not int"):
        check_game(3)  # type: ignore[arg-type]
