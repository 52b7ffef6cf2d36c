"""The published results of Connect Four on other board sizes, as data: who wins each board
under perfect play, and on which move the game ends.

Sources (facts, not code):

* John Tromp solved every board with ``width + height <= 15`` (2006) and 8 x 8 (2015):
  https://tromp.github.io/c4/c4.html
* Christophe Steininger extended them to every board with ``width + height = 16`` and some
  larger ones, and publishes both tables (the winner, and the move on which the game ends
  when both sides play perfectly) in the README of https://github.com/ChristopheSteininger/c4
  (read 2026-11-24); the tables below are copied from it, and agree with Tromp's where both
  give a result.

``RESULTS[(width, height)] = (winner, last_move)``: winner ``1`` (the first player wins), ``2``
(the second player wins) or ``0`` (a draw); ``last_move`` is the number of the move (1-based)
that ends the game, the board's cell count for a draw. :func:`first_player_score` turns them
into the solver's score of the empty board (Pons' convention, see ``docs/connect4.md``).
"""

from __future__ import annotations

# widths 4 .. 12 along each row, one row per height (None: no published result)
_WINNER = {
    4: (0, 0, 2, 0, 2, 2, 2, 2, 2),
    5: (0, 0, 0, 0, 1, 1, 1, 1),
    6: (0, 0, 2, 1, 2, 2, 1),
    7: (0, 0, 1, 0, 1, 1),
    8: (0, 0, 2, 1, 2),
    9: (0, 0, 1, 0, 1),
    10: (0, 0, 2, 1),
    11: (0, 0, 1),
    12: (0, 0, 2),
    13: (0, 0),
}
_LAST_MOVE = {
    4: (16, 20, 24, 28, 32, 36, 40, 44, 48),
    5: (20, 25, 30, 35, 39, 41, 47, 51),
    6: (24, 30, 36, 41, 48, 52, 59),
    7: (28, 35, 41, 49, 53, 55),
    8: (32, 40, 48, 55, 62),
    9: (36, 45, 53, 63),
    10: (40, 50, 60, 69),
    11: (44, 55, 63),
    12: (48, 60, 72),
    13: (52, 65),
}

SOURCES = (
    "John Tromp, https://tromp.github.io/c4/c4.html (every board with width + height <= 15)",
    "Christophe Steininger, https://github.com/ChristopheSteininger/c4 README (tables of the "
    "winner and of the last move, width + height <= 16 and some larger)",
)

RESULTS: dict[tuple[int, int], tuple[int, int]] = {
    (4 + i, height): (winner, _LAST_MOVE[height][i])
    for height, row in _WINNER.items()
    for i, winner in enumerate(row)
    if i < len(_LAST_MOVE[height])
}


def first_player_score(width: int, height: int) -> int | None:
    """The published score of the empty ``width`` x ``height`` board for the first player (the
    solver's convention: a win whose winning stone is the ``m``-th move scores
    ``(cells + 2 - m) // 2``, a loss the negation, a draw 0); None when not published."""
    found = RESULTS.get((width, height))
    if found is None:
        return None
    winner, last = found
    magnitude = (width * height + 2 - last) // 2
    return magnitude if winner == 1 else (-magnitude if winner == 2 else 0)
