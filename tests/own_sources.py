"""Source texts of games as a user writes them, for the tests that put one in a module of its
own (a file the command line, the loader or the server imports): Nim and Pig."""

from __future__ import annotations


def nim_source(heaps: tuple[int, ...], summary: str) -> str:
    """A module defining ``Nim`` (a State subclass) starting from ``heaps``, with ``summary``
    as its docstring (what the web page's game list shows)."""
    return f'''
from dataclasses import dataclass

from unbeatable import Game, Outcome, State


@dataclass(frozen=True)
class Nim(State):
    """{summary}"""

    heaps: tuple = {heaps!r}
    turn: int = 0

    @property
    def to_move(self):
        return self.turn

    def legal_moves(self):
        return [(h, n) for h, size in enumerate(self.heaps) for n in range(1, size + 1)]

    def play(self, move):
        heap, taken = move
        heaps = list(self.heaps)
        heaps[heap] -= taken
        return Nim(tuple(heaps), 1 - self.turn)

    def outcome(self):
        return None if any(self.heaps) else Outcome.win_for(1 - self.turn)
'''


#: Pig to 6, a dice game (chance nodes) that can go round in circles forever.
PIG = '''
from dataclasses import dataclass

from unbeatable import Outcome, State


@dataclass(frozen=True)
class Pig(State):
    """Pig to 6: a roll of 1 hands the turn on with the scores as they were."""

    has_chance = True
    scores: tuple = (0, 0)
    turn: int = 0
    total: int = 0
    rolling: bool = False

    @property
    def to_move(self):
        return self.turn

    @property
    def is_chance(self):
        return self.rolling

    def chance_outcomes(self):
        return [(face, 1 / 6) for face in range(1, 7)] if self.rolling else []

    def legal_moves(self):
        if self.outcome() is not None:
            return []
        if self.rolling:
            return list(range(1, 7))
        return ["roll", "hold"] if self.total else ["roll"]

    def play(self, move):
        if self.rolling:
            if move == 1:
                return Pig(self.scores, 1 - self.turn, 0, False)
            return Pig(self.scores, self.turn, self.total + move, False)
        if move == "roll":
            return Pig(self.scores, self.turn, self.total, True)
        scores = list(self.scores)
        scores[self.turn] += self.total
        return Pig(tuple(scores), 1 - self.turn, 0, False)

    def outcome(self):
        for player in (0, 1):
            if self.scores[player] >= 6:
                return Outcome.win_for(player)
        return None
'''
