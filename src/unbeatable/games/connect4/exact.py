"""Exact values of Connect Four positions for the search API: the solver behind the game's
``solver_value`` and ``solver_moves`` hooks.

One solver per board size, table size and process, created on first use and kept (its table holds
bounds that are true for every search, so keeping it only makes later solves faster). A solver
runs one search at a time (a lock), each on ``request.threads`` threads.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from ...game import Move, SolveAnswer, SolveRequest
from .book import lookup

if TYPE_CHECKING:
    from .game import Connect4, Connect4State
    from .solver import Solver

__all__ = ["QUICK_NODES", "QUICK_PLIES", "move_values", "solver_for", "value"]

_SOLVERS: dict[tuple[int, int, int | None], Solver] = {}
_LOCK = threading.Lock()

#: Without the database, from this many stones on a position is solved in milliseconds at most
#: (Pons' middle-game sets, 15 to 28 stones played, take 3.6 ms on average here), so a quick
#: answer may use the solver; with the database every position is quick (the empty board's
#: every move: about 0.15 s).
QUICK_PLIES = 16


def solver_for(game: Connect4, table_size: int | None = None) -> Solver:
    """This process's solver for the game's board size (``table_size`` entries; None: the
    default table)."""
    from .solver import DEFAULT_TABLE_BYTES, Solver

    size = (game.width, game.height, table_size)
    with _LOCK:
        solver = _SOLVERS.get(size)
        if solver is None:
            table_bytes = DEFAULT_TABLE_BYTES if table_size is None else 8 * table_size
            solver = Solver(table_bytes, width=game.width, height=game.height, threads=None)
            _SOLVERS[size] = solver
    return solver


#: A quick answer gives up after this many nodes (tens of milliseconds).
QUICK_NODES = 400_000


def _limits(request: SolveRequest) -> dict[str, object]:
    max_nodes = request.max_nodes
    if request.quick:
        max_nodes = QUICK_NODES if max_nodes is None else min(max_nodes, QUICK_NODES)
    return {
        "book": request.book,
        "threads": request.threads,
        "deadline": request.deadline,
        "max_nodes": max_nodes,
    }


def value(state: Connect4State, request: SolveRequest) -> int | None:
    """The exact score of an unfinished position (weak: its sign) from the opening book, else
    the solver; None when a limit stopped the solver first. Ctrl-C stops the compiled search
    and is then raised again (KeyboardInterrupt) for the caller."""
    found = lookup(state) if request.book else None
    if found is not None:
        return (found > 0) - (found < 0) if request.weak else found
    solver = solver_for(state.game, request.table_size)
    result = solver.bounds(
        state.current,
        state.mask,
        state.moves,
        weak=request.weak,
        **_limits(request),  # type: ignore[arg-type]
    )
    if result.interrupted:
        raise KeyboardInterrupt  # the compiled search has stopped; Ctrl-C goes on as usual
    return result.lower[0] if result.complete else None


def _from_book(state: Connect4State) -> dict[Move, int] | None:
    """Every legal move's exact score when the book holds every child, else None."""
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
            return None
        values[move] = -found
    return values


def move_values(state: Connect4State, request: SolveRequest) -> SolveAnswer | None:
    """Every legal move's exact score (solve convention, from the side to move's view; weak:
    signs) from the opening book when it holds every child, else from the solver, with bounds
    for the moves still open when a limit or Ctrl-C stopped it. ``quick``: None rather than a
    long search (an early position with neither book nor database, or a search that needs
    more than :data:`QUICK_NODES` nodes)."""
    values = _from_book(state) if request.book else None
    if values is not None:
        if request.weak:
            values = {m: (v > 0) - (v < 0) for m, v in values.items()}
        return SolveAnswer(values)
    solver = solver_for(state.game, request.table_size)
    fast = request.book and solver.book
    if request.quick and not fast and state.moves < QUICK_PLIES:
        return None
    result = solver.analyze(
        state.current,
        state.mask,
        state.moves,
        weak=request.weak,
        **_limits(request),  # type: ignore[arg-type]
    )
    exact: dict[Move, int] = {}
    bounds: dict[Move, tuple[int, int]] = {}
    for column, (lo, hi) in enumerate(zip(result.lower, result.upper, strict=True)):
        if lo is None or hi is None:
            continue
        if lo == hi:
            exact[column] = lo
        else:
            bounds[column] = (lo, hi)
    return SolveAnswer(exact, bounds, not bounds, result.nodes, result.interrupted)
