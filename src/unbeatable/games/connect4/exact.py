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

__all__ = ["move_values", "solver_for", "value"]

_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver_for(game: Connect4) -> Solver:
    """This process's solver for the game's board size."""
    size = (game.width, game.height)
    solver = _SOLVERS.get(size)
    if solver is None:
        from .solver import Solver

        solver = _SOLVERS[size] = Solver(width=game.width, height=game.height)
    return solver


def value(state: Connect4State, weak: bool = False) -> int:
    """The exact score of an unfinished position: from the opening book, else the solver."""
    from .book import lookup

    found = lookup(state)
    if found is not None:
        return (found > 0) - (found < 0) if weak else found
    return solver_for(state.game).solve_bitboards(state.current, state.mask, state.moves, weak)


def move_values(state: Connect4State) -> dict[Move, int]:
    """Every legal move's exact score (solve convention, from the side to move's view): from
    the opening book when it holds every child, else from the solver."""
    from .book import lookup

    values: dict[Move, int] = {}
    for move in state.legal_moves():
        child = state.play(move)
        outcome = child.outcome()
        if outcome is not None:
            # a winning stone placed when state.moves stones are on the board, or a full board
            values[move] = (
                0 if outcome.winner is None else (state.game.cells + 1 - state.moves) // 2
            )
            continue
        found = lookup(child)
        if found is None:
            break
        values[move] = -found
    else:
        return values
    scores = solver_for(state.game).score_map_bitboards(state.current, state.mask, state.moves)
    return {c: s for c, s in enumerate(scores) if s is not None}
