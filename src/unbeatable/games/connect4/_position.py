"""What the solver's side of the package reads of a Connect Four position.

The game (:mod:`.game`) calls the solver through its hooks (:mod:`.hooks`), which read the
opening book (:mod:`.book`); none of those imports the game back, so they name what they read
of a :class:`~.game.Connect4State` and its game here, structurally.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

from ...game import Move, Outcome

__all__ = ["BoardSize", "Position"]


class BoardSize(Protocol):
    """A board's size (a :class:`~.game.Connect4` game has it)."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...


class Board(BoardSize, Protocol):
    """A board's size and its number of cells."""

    @property
    def cells(self) -> int: ...


class Position(Protocol):
    """A position as :class:`~.game.Connect4State` holds it: ``current`` (the side to move's
    stones), ``mask`` (every stone) and ``moves`` (how many stones are on the board)."""

    @property
    def game(self) -> Board: ...

    @property
    def current(self) -> int: ...

    @property
    def mask(self) -> int: ...

    @property
    def moves(self) -> int: ...

    def key(self) -> Hashable: ...

    def legal_moves(self) -> list[int]: ...

    def play(self, move: Move) -> Position: ...

    def outcome(self) -> Outcome | None: ...
