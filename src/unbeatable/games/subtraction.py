"""The subtraction game: take 1 to k tokens from a pile; whoever takes the last token wins.

A game as long as its pile (the slowest line takes one token a turn), so it is the test bed
for searches deeper than Python's recursion limit. A position is worth the same to whoever
is to move, so the table key is the pile alone. Moves are the number of tokens taken.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..game import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    State,
    require_text,
)

__all__ = ["Subtraction", "SubtractionState"]


#: The largest pile: a search holds one frame per token along its longest line, and a pile of
#: 10^6 took 768 MB; this bound keeps a solve under about 100 MB.
MAX_PILE = 100_000


class Subtraction(Game):
    """A pile of ``pile`` tokens; a move takes 1 to ``take`` of them."""

    name = "subtraction"

    def __init__(self, pile: int = 21, take: int = 3) -> None:
        for label, value in (("pile", pile), ("take", take)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_PILE:
                raise ValueError(
                    f"subtraction: {label} must be a whole number from 1 to {MAX_PILE:,}, "
                    f"not {value!r}"
                )
        self.pile, self.take = pile, take

    @property
    def params(self) -> dict[str, Any]:
        return {"pile": self.pile, "take": self.take}

    def initial(self) -> SubtractionState:
        return SubtractionState(self.pile, self.take, 0, self.pile)

    def parse_position(self, text: str) -> SubtractionState:
        """A sequence of takes from the full pile (``3 1 2``), or ``pile=N`` for N tokens left
        with the first player to move (``pile=N,second`` for the second)."""
        require_text(text)
        stripped = text.strip()
        if not stripped.startswith("pile="):
            state = super().parse_position(stripped)
            assert isinstance(state, SubtractionState)
            return state
        value, _, side = stripped[5:].partition(",")
        if (
            not (value.isascii() and value.isdigit())
            or int(value) > self.pile
            or side not in ("", "first", "second")
        ):
            raise InvalidPositionError(
                f"{stripped!r} is not a position: write pile=N with N from 0 to {self.pile}, "
                "then ',second' if the second player is to move",
                text=stripped,
                position=stripped,
            )
        left = int(value)
        return SubtractionState(left, self.take, 1 if side == "second" else 0, self.pile)

    def format_position(self, state: State) -> str:
        assert isinstance(state, SubtractionState)
        return str(state)


class SubtractionState(State):
    __slots__ = ("full", "pile", "ply_", "take")

    def __init__(self, pile: int, take: int, ply: int, full: int) -> None:
        self.pile = pile
        self.take = take
        self.ply_ = ply
        self.full = full

    @property
    def to_move(self) -> int:
        return self.ply_ & 1

    @property
    def ply(self) -> int:
        return self.ply_

    @property
    def max_plies(self) -> int:
        """The game's length bound: the full pile, plus one so that a position read as
        ``pile=N,second`` (ply 1) fits it too."""
        return self.full + 1

    def legal_moves(self) -> list[int]:
        return list(range(1, min(self.take, self.pile) + 1))

    def play(self, move: Move) -> SubtractionState:
        n: int = move  # type: ignore[assignment]
        return SubtractionState(self.pile - n, self.take, self.ply_ + 1, self.full)

    def outcome(self) -> Outcome | None:
        if self.pile:
            return None
        # the player who just moved took the last token
        return Outcome.win_for(1 - self.to_move)

    def key(self) -> Hashable:
        return (self.pile, self.take)

    def winning_move(self) -> int | None:
        """Taking the whole pile, when the rules allow it."""
        return self.pile if 0 < self.pile <= self.take else None

    def ordered_moves(self) -> list[int]:
        """The take that leaves a multiple of take + 1 (the winning one) first."""
        moves = self.legal_moves()
        best = self.pile % (self.take + 1)
        if best:
            moves.remove(best)
            moves.insert(0, best)
        return moves

    def evaluate(self) -> float:
        """Exact for this game: a pile that is a multiple of take+1 is lost for the mover."""
        return -1 if self.pile % (self.take + 1) == 0 else 1

    def parse_move(self, text: str) -> int:
        token = text.strip()
        if not (token.isascii() and token.isdigit()):
            raise InvalidMoveError(
                f"{token!r} is not a number of tokens (1-{self.take})",
                text=token,
                position=str(self),
            )
        n = int(token)
        if not 1 <= n <= self.take:  # no position allows it: not a move of this game
            raise InvalidMoveError(
                f"take {n} is not a move of this game: take 1 to {self.take}",
                text=token,
                position=str(self),
            )
        if self.pile == 0:
            raise IllegalMoveError(
                f"take {n} after the game ended in {self}", text=token, position=str(self)
            )
        if n > self.pile:
            raise IllegalMoveError(
                f"cannot take {n} from {self}: take 1 to {min(self.take, self.pile)}",
                text=token,
                position=str(self),
            )
        return n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SubtractionState) and (self.pile, self.take, self.ply_ & 1) == (
            other.pile,
            other.take,
            other.ply_ & 1,
        )

    def __hash__(self) -> int:
        return hash((self.pile, self.take, self.ply_ & 1))

    def __reduce__(self) -> tuple[Any, ...]:
        return (SubtractionState, (self.pile, self.take, self.ply_, self.full))

    def __str__(self) -> str:
        return f"pile={self.pile}" + (",second" if self.ply_ & 1 else "")

    def __repr__(self) -> str:
        return f"<subtraction pile={self.pile} take<={self.take} ply={self.ply_}>"
