"""unbeatable.check_game: our games keep the protocol's promises, and each broken promise a
user's game might make is caught and named (issue 12 item 9)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import astuple, dataclass, field

import pytest

from tests.dots import Dots
from unbeatable import Game, GameCheckError, Move, Outcome, State, check_game
from unbeatable.search import search


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


class Fickle(Count):
    """Its legal moves come in another order at every call."""

    def legal_moves(self) -> Sequence[Move]:
        moves = list(super().legal_moves())
        return moves[::-1] if next(_FLIPS) else moves


_FLIPS = itertools.cycle([False, True])


class Hasty(Count):
    def is_terminal(self) -> bool:
        return self.n >= 4


class Loud(Count):
    """Says 2 is noisy even at 4, where only 1 is legal."""

    def noisy_moves(self) -> Sequence[Move]:
        return [2] if self.n < 5 else []


class Quiet(Count):
    """Correct: 2, where it is legal, is the noisy move."""

    def noisy_moves(self) -> Sequence[Move]:
        return [m for m in self.legal_moves() if m == 2]


@dataclass(frozen=True)
class Counted(Count):
    """Correct: counts its moves (``ply``) and bounds what is left (a ``max_plies`` that
    shrinks when a move takes two)."""

    moves: int = 0

    @property
    def ply(self) -> int:
        return self.moves

    @property
    def max_plies(self) -> int | None:
        return self.moves + 5 - self.n

    def play(self, move: Move) -> Counted:
        assert isinstance(move, int)
        return type(self)(self.n + move, 1 - self.turn, self.moves + 1)


class Skipping(Counted):
    @property
    def ply(self) -> int:
        return 2 * self.moves


class Late(Counted):
    """Counts from its second move on: ply 0, 0, 1, 2..."""

    @property
    def ply(self) -> int:
        return max(0, self.moves - 1)


class Negative(Counted):
    @property
    def ply(self) -> int:
        return -1


class Growing(Counted):
    @property
    def max_plies(self) -> int | None:
        return self.moves + 5


class Fuzzy(Counted):
    @property
    def max_plies(self) -> int | None:
        return 5.0  # type: ignore[return-value]


class Short(Counted):
    """Says no game lasts more than 3 moves; five ones do."""

    @property
    def max_plies(self) -> int | None:
        return 3


class ShortUncounted(Count):
    """The same lie in a game that does not count its moves (ply stays 0)."""

    @property
    def max_plies(self) -> int | None:
        return 3


class Passing(Count):
    """Correct: a pass gives the other player the move."""

    def null_move(self) -> State | None:
        return type(self)(self.n, 1 - self.turn)


class NoPass(Count):
    """A pass that leaves the same player to move."""

    def null_move(self) -> State | None:
        return type(self)(self.n, self.turn)


class SelfPass(Count):
    def null_move(self) -> State | None:
        return self


class MutatingPass(Count):
    def null_move(self) -> State | None:
        object.__setattr__(self, "turn", 1 - self.turn)
        return Count(self.n, self.turn)


class ChattyPass(Count):
    """A pass to a position whose outcome() is broken."""

    def null_move(self) -> State | None:
        return Chatty(self.n + 5, 1 - self.turn)


class TextPass(Count):
    def null_move(self) -> State | None:
        return "pass"  # type: ignore[return-value]


class CountGame(Game):
    """Count as a game that reads and writes positions (its fields: ``n,turn``...), starting
    at ``start``."""

    name = "count"

    def __init__(self, start: State) -> None:
        self.start = start

    def initial(self) -> State:
        return self.start

    def format_position(self, state: State) -> str:
        return ",".join(map(str, astuple(state)))  # type: ignore[call-overload]

    def parse_position(self, text: str) -> State:
        return type(self.start)(*map(int, text.split(",")))


@dataclass(frozen=True)
class Tagged(Count):
    """Equal to a Count of the same numbers, but its hash counts a tag that equality ignores."""

    tag: int = field(default=0, compare=False)

    def __hash__(self) -> int:
        return hash((self.n, self.turn, self.tag))

    def play(self, move: Move) -> Tagged:
        assert isinstance(move, int)
        return Tagged(self.n + move, 1 - self.turn, self.tag)


class TaggedGame(CountGame):
    def parse_position(self, text: str) -> State:
        n, turn, _ = map(int, text.split(","))
        return Tagged(n, turn, tag=1)


class PassingDots(Dots):
    """Correct: Dots and Boxes (extra turns) with a pass."""

    def play(self, move: Move) -> PassingDots:
        child = super().play(move)
        return PassingDots(child.rows, child.cols, child.drawn, child.lead, child.turn)

    def null_move(self) -> State | None:
        return PassingDots(self.rows, self.cols, self.drawn, self.lead, 1 - self.turn)


BROKEN: list[tuple[State | Game, str, str, bool]] = [
    # (the game, the check that must catch it, words of the message, whether a move is named)
    (Mutating(), "play", "changed the state it was called on", True),
    (Chatty(), "outcome", "must return an Outcome, a Payoff or None, not 'over'", False),
    (Silent(), "evaluate", "must return a number, not None", False),
    (Stuck(), "legal_moves", "no legal moves but outcome() says the game goes on", False),
    (Unhashable(), "key", "unhashable", False),
    (Bragging(), "winning_move", "does not win", True),
    (Shuffled(), "ordered_moves", "not a reordering", False),
    (Three(), "to_move", "must be a player from 0 to 1, not 3", False),
    (Fickle(), "legal_moves", "changed between two calls", False),
    (Hasty(), "is_terminal", "disagrees with outcome()", False),
    (Loud(), "noisy_moves", "noisy move 2 is not a legal move", True),
    (Skipping(), "ply", "a move adds one", True),
    (Late(), "ply", "stayed 0 after another move", True),
    (Negative(), "ply", "must be a whole number >= 0, not -1", False),
    (CountGame(Counted(moves=2)), "ply", "ply is 2 at the game's initial position, not 0", False),
    (Growing(), "max_plies", "max_plies grows from 5 to 6", True),
    (Fuzzy(), "max_plies", "must be None or a whole number >= 0, not 5.0", False),
    (Short(), "max_plies", "outlasts max_plies 3", False),
    (ShortUncounted(), "max_plies", "outlasts max_plies 3", False),
    (NoPass(), "null_move", "must give the other player the move, but 0 is to move", False),
    (SelfPass(), "null_move", "returned the state itself", False),
    (MutatingPass(), "null_move", "changed the state it was called on", False),
    (ChattyPass(), "null_move", "breaks a promise: outcome: outcome() must return", False),
    (TextPass(), "null_move", "must return a State or None, not str", False),
    (TaggedGame(Tagged()), "parse_position", "reads back equal but hashing otherwise", False),
]


@pytest.mark.parametrize(
    ("start", "check", "words", "names_move"),
    BROKEN,
    ids=[type(case[0]).__name__ for case in BROKEN],
)
def test_each_broken_promise_is_named(
    start: State | Game, check: str, words: str, names_move: bool
) -> None:
    assert check_game(Count(), games=5).positions > 5  # the base game is fine
    with pytest.raises(GameCheckError) as caught:
        check_game(start, games=5)
    assert caught.value.check == check
    assert words in str(caught.value)
    assert "n=" in caught.value.position  # the position is named, and in the message
    assert caught.value.position in str(caught.value)
    assert (caught.value.move is not None) == names_move
    if names_move:
        assert f"after move {caught.value.move} in " in str(caught.value)


@pytest.mark.parametrize(
    "start",
    [
        Counted(),
        Counted(n=2, moves=1),
        Quiet(),
        Passing(),
        CountGame(Counted()),
        CountGame(Tagged()),
    ],
    ids=["Counted", "Counted-midgame", "Quiet", "Passing", "CountGame", "CountGame-Tagged"],
)
def test_the_correct_counterparts_pass(start: State | Game) -> None:
    """Each new check's correct game passes it: ply counted from the game's start and a
    shrinking max_plies, noisy moves that are legal, a pass to the other player, notation
    that reads back equal and hashing equal."""
    report = check_game(start, games=10)
    assert report.positions > 10 and report.longest >= 3


def test_extra_turns_and_passes_together_pass() -> None:
    """Turns need not alternate: a game with extra turns that counts its moves, bounds its
    length and offers a pass keeps every promise."""

    report = check_game(PassingDots(2, 2), games=10)
    assert report.longest == 12


def test_the_mutating_game_really_fools_the_search() -> None:
    """Why the check matters: the search trusts play() not to mutate."""
    assert str(search(Count()).score) == "win in 2"
    assert str(search(Mutating()).score) == "win in 1"  # wrong, and nothing says so
    with pytest.raises(GameCheckError, match="play"):
        check_game(Mutating(), games=1)


def test_a_start_that_is_not_a_state_is_refused() -> None:
    with pytest.raises(TypeError, match="needs a State or a Game, not int"):
        check_game(3)  # type: ignore[arg-type]
