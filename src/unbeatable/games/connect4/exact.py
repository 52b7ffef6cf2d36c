"""Exact values of Connect Four positions for the search API: the solver behind the game's
``exact_value`` and ``exact_move_values`` hooks.

One solver per board size and process, created on first use and kept (its table holds bounds
that are true for every search, so keeping it only makes later solves faster). Not shared
between threads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...game import Move

if TYPE_CHECKING:
    from .game import Connect4, Connect4State
    from .solver import Solver

__all__ = ["move_values", "solver_for"]

_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver_for(game: Connect4) -> Solver:
    """This process's solver for the game's board size."""
    size = (game.width, game.height)
    solver = _SOLVERS.get(size)
    if solver is None:
        from .solver import Solver

        solver = _SOLVERS[size] = Solver(width=game.width, height=game.height)
    return solver


def move_values(state: Connect4State) -> dict[Move, int]:
    """Every legal move's exact score (solve convention, from the side to move's view)."""
    scores = solver_for(state.game).score_map_bitboards(state.current, state.mask, state.moves)
    return {c: s for c, s in enumerate(scores) if s is not None}
