"""Dots and Boxes, written from the README alone as a user would: a player who completes a box
moves again, so turns do not alternate. A test game for every algorithm and the conformance
checks.

Edges are numbered: first the horizontal ones, row by row ((rows + 1) * cols of them), then the
vertical ones, row by row (rows * (cols + 1)).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from unbeatable import Move, Outcome, State


@dataclass(frozen=True)
class Dots(State):
    rows: int = 1
    cols: int = 2
    drawn: int = 0  # a bit per edge
    lead: int = 0  # boxes of the first player minus boxes of the second
    turn: int = 0

    @cached_property
    def _boxes(self) -> tuple[tuple[int, int, int, int], ...]:
        horizontal = (self.rows + 1) * self.cols
        boxes = []
        for r in range(self.rows):
            for c in range(self.cols):
                top = r * self.cols + c
                bottom = top + self.cols
                left = horizontal + r * (self.cols + 1) + c
                boxes.append((top, bottom, left, left + 1))
        return tuple(boxes)

    @property
    def edges(self) -> int:
        return (self.rows + 1) * self.cols + self.rows * (self.cols + 1)

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def ply(self) -> int:
        return self.drawn.bit_count()

    @property
    def max_plies(self) -> int:
        return self.edges

    def legal_moves(self) -> list[int]:
        if self.outcome() is not None:
            return []
        return [e for e in range(self.edges) if not self.drawn >> e & 1]

    def _closed(self, drawn: int) -> int:
        return sum(all(drawn >> e & 1 for e in box) for box in self._boxes)

    def play(self, move: Move) -> Dots:
        assert isinstance(move, int)
        drawn = self.drawn | 1 << move
        made = self._closed(drawn) - self._closed(self.drawn)
        sign = 1 if self.turn == 0 else -1
        turn = self.turn if made else 1 - self.turn
        return Dots(self.rows, self.cols, drawn, self.lead + sign * made, turn)

    def outcome(self) -> Outcome | None:
        if self.drawn != (1 << self.edges) - 1:
            return None
        if self.lead == 0:
            return Outcome.DRAW
        return Outcome.win_for(0 if self.lead > 0 else 1)
