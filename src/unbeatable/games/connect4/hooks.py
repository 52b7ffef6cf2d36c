"""What the game's solver hooks answer: :meth:`~.game.Connect4State.solver_value`,
``solver_moves`` and ``solver_line`` come here, and get their answers from the opening book or
from this process's compiled solver (:class:`.solver.Solver`), under the request's limits.

The game imports this module, never the reverse: a position is read through
:class:`._position.Position` (a :class:`~.game.Connect4State` is one).

One solver per board size, table size and process, created on first use and kept (its table holds
bounds that are true for every search, so keeping it only makes later solves faster). A solver
runs one search at a time (a lock), each on ``request.threads`` threads.

The first search of a process loads numba, the compiled kernels (from numba's cache) and the
database: about half a second of CPU here (numba's import and its first kernel call are most
of it; the database 15 ms), seconds on a busy machine. A request with a deadline does not wait
past it for the loading (see :func:`ready_solver`).
"""

from __future__ import annotations

import logging  # noqa: F401  (its fork hook first: see the registration of ours below)
import os
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ...game import Move, SolveAnswer, SolveRequest
from ...kernels import KernelGroup, building, register
from ._cache import KERNEL_SOURCES, drop_stale_cache
from ._depth import board_uses_rules
from ._position import BoardSize, Position
from .book import lookup

if TYPE_CHECKING:
    from ._threads import Analysis
    from .solver import Solver

__all__ = [
    "KERNELS",
    "LINE_NODES",
    "QUICK_NODES",
    "QUICK_PLIES",
    "WARM_KERNELS",
    "Size",
    "line",
    "line_costs",
    "load_solver",
    "move_values",
    "ready_solver",
    "solver_for",
    "uses_rules",
    "value",
    "warm_up",
]

#: The solver's compiled kernels, as numba caches them (:mod:`unbeatable.kernels`): what a
#: first command's cold load (:func:`load_solver`: the search without the rules) writes, and
#: about how long it takes (CPU seconds; 8.4 s measured on 2026-12-03, beside a solve on both
#: cores; ``benchmarks/kernel_build.py`` prints the figures of today's sources).
KERNELS = KernelGroup(
    "connect4", "the Connect Four solver", Path(__file__).parent, KERNEL_SOURCES, 9, 8
)
#: What :func:`warm_up` builds: :data:`KERNELS` and the search with the rules
#: (``negamax_rules``, the costliest kernel alone): 23-33 s of CPU measured the same way. The
#: group ``unbeatable warm connect4`` and the web server's warming announce.
WARM_KERNELS = replace(KERNELS, seconds=25, kernels=10)

_SOLVERS: dict[tuple[int, int, int | None], Solver] = {}
_LOCK = threading.Lock()
_READY: set[tuple[int, int, int | None]] = set()
_LOADERS: dict[tuple[int, int, int | None], threading.Thread] = {}
_FAILED: dict[tuple[int, int, int | None], BaseException] = {}



def _finish_loading() -> None:
    """Before this process forks (a pool of worker processes), let a loading thread that a
    search with a deadline left behind finish: a child forked in the middle of its import
    would inherit a module half imported (``cannot import name 'Solver' from partially
    initialized module``) and a lock nobody releases."""
    for loader in list(_LOADERS.values()):
        if loader.is_alive():
            loader.join()


# logging takes its lock in a fork hook of its own, and the hooks run before a fork in the
# reverse order of their registration: logging's must be registered before ours (it is imported
# at the top of this module), else it would hold its lock while we wait for a loading thread
# whose imports log (numba's do), and the fork would never come.
os.register_at_fork(before=_finish_loading)

#: Without the database, from this many stones on a position is solved in milliseconds at most
#: (Pons' middle-game sets, 15 to 28 stones played, take 3.6 ms on average here), so a quick
#: answer may use the solver; with the database every position is quick (the empty board's
#: every move: about 0.15 s).
QUICK_PLIES = 16


class Size(NamedTuple):
    """A board size, for :func:`solver_for` and :func:`ready_solver` (a game is one too)."""

    width: int
    height: int


def solver_for(game: BoardSize, table_size: int | None = None) -> Solver:
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


def ready_solver(game: BoardSize, request: SolveRequest) -> Solver | None:
    """This process's solver (:func:`solver_for`) once its kernels are loaded: the first time,
    numba, every compiled kernel (from numba's cache, or compiled) and the database. With a
    ``request.deadline`` the loading runs in a thread of its own and this call gives up at the
    deadline (None; the loading goes on, for the next request), so that a time limit covers
    the loading too; without one it waits."""
    size = (game.width, game.height, request.table_size)
    if size in _READY:
        return _SOLVERS[size]
    with _LOCK:
        loader = _LOADERS.get(size)
        if loader is None:
            loader = threading.Thread(
                target=_load, args=(game, request.table_size), name="connect4-loader", daemon=True
            )
            _LOADERS[size] = loader
            loader.start()
    if request.deadline is None:
        loader.join()
    else:
        loader.join(max(0.0, request.deadline - time.perf_counter()))
    failed = _FAILED.pop(size, None)
    if failed is not None:
        with _LOCK:
            _LOADERS.pop(size, None)  # the next request tries again
        raise failed
    return _SOLVERS[size] if size in _READY else None


def uses_rules(game: BoardSize) -> bool:
    """Whether the board's opening positions are solved with the search with the rules
    (``_negamax.negamax_rules``), which its first load then loads too (``_depth``, free of
    numba: asked before a build is announced)."""
    return board_uses_rules(game.width, game.height)


def _load(game: BoardSize, table_size: int | None) -> None:
    """Create the solver and call each kernel of the search API once (on a 4 x 4 board: the
    same compiled code), and the search with the rules where the board uses it (so that its
    build, the costliest, is announced with the rest and never runs inside a search's time
    limit); an error is kept for :func:`ready_solver` to raise in its caller."""
    size = (game.width, game.height, table_size)
    rules = uses_rules(game)
    try:
        drop_stale_cache()  # before the cache is looked at (the solver's import does it too)
        # says so when the kernels must be compiled
        with building(WARM_KERNELS if rules else KERNELS):
            _load_kernels(game, table_size)
            if rules:
                from .solver import load_rules_search

                load_rules_search()
    except BaseException as error:
        _FAILED[size] = error
        return
    _READY.add(size)


def _load_kernels(game: BoardSize, table_size: int | None) -> None:
    from .solver import Solver

    solver_for(game, table_size)
    warm = Solver(0, 4, 4, threads=1)
    tiny = (0, 1, 1)  # "1": one stone at the bottom of column 1, none the side to move's
    warm.bounds(*tiny)
    warm.analyze(*tiny)
    warm.best(*tiny)
    _line_on(warm, *tiny, SolveRequest(threads=1), "1 on a 4 x 4 board")


def load_solver() -> None:
    """Load the 7 x 6 solver as a first command does (:func:`ready_solver`): its kernels, from
    numba's cache or built, without the search with the rules (the first load of a board that
    uses them, :func:`uses_rules`, loads them too)."""
    ready_solver(Size(7, 6), SolveRequest())


def warm_up() -> float:
    """Load (or, the first time after an install, compile into numba's cache) everything the
    7 x 6 solver needs, and the search with the rules that a deep solve without the book uses
    (``_negamax.negamax_rules``: another board size from its start; not on a first command's
    path, which does not need it); return the seconds it took. ``python -m
    unbeatable.games.connect4``, ``unbeatable warm connect4`` and the web server (in the
    background) call it, so that no first game or analysis pays for compiling."""
    start = time.perf_counter()
    from .solver import load_rules_search

    with building(WARM_KERNELS):  # one announcement, one live line, for both
        load_solver()
        load_rules_search()
    return time.perf_counter() - start


register(WARM_KERNELS, warm_up)

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


def value(state: Position, request: SolveRequest) -> int | None:
    """The exact score of an unfinished position (weak: its sign) from the opening book, else
    the solver; None when a limit stopped the solver first (or its deadline came while the
    solver was still loading). Ctrl-C stops the compiled search and is then raised again
    (KeyboardInterrupt) for the caller."""
    found = lookup(state) if request.book else None
    if found is not None:
        return (found > 0) - (found < 0) if request.weak else found
    solver = ready_solver(state.game, request)
    if solver is None:
        return None
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


def _from_book(state: Position) -> dict[Move, int] | None:
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


def move_values(state: Position, request: SolveRequest) -> SolveAnswer | None:
    """Every legal move's exact score (solve convention, from the side to move's view; weak:
    signs) from the opening book when it holds every child, else from the solver, with bounds
    for the moves still open when a limit or Ctrl-C stopped it. ``best_only`` (strong): the
    solver proves which moves are best (:meth:`.Solver.best`) and gives the others as bounds
    below the best score. ``quick``: None rather than a
    long search (an early position with neither book nor database, or a search that needs
    more than :data:`QUICK_NODES` nodes). None too when the request's deadline came while the
    solver was still loading (the search then answers by itself). ``request.progress`` (not
    ``best_only``): told every column's bounds each time the solver narrows them."""
    values = _from_book(state) if request.book else None
    if values is not None:
        if request.weak:
            values = {m: (v > 0) - (v < 0) for m, v in values.items()}
        return SolveAnswer(values)
    solver = ready_solver(state.game, request)
    if solver is None:
        return None
    fast = request.book and solver.book
    if request.quick and not fast and state.moves < QUICK_PLIES:
        return None
    if request.best_only and not request.weak:
        result = solver.best(
            state.current, state.mask, state.moves, **_limits(request)  # type: ignore[arg-type]
        )
    else:
        tell = request.progress
        result = solver.analyze(
            state.current,
            state.mask,
            state.moves,
            weak=request.weak,
            progress=None if tell is None else (lambda known: tell(_answer(known))),
            **_limits(request),  # type: ignore[arg-type]
        )
    return _answer(result)


def _answer(result: Analysis) -> SolveAnswer:
    """The solver's analysis of every column as the protocol's answer (0-based columns)."""
    exact: dict[Move, int] = {}
    bounds: dict[Move, tuple[int, int]] = {}
    for column, (lo, hi) in enumerate(zip(result.lower, result.upper, strict=True)):
        if lo is None or hi is None:
            continue
        if lo == hi:
            exact[column] = lo
        else:
            bounds[column] = (lo, hi)
    return SolveAnswer(exact, bounds, result.complete, result.nodes, result.interrupted)


#: A quick line gives up after this many nodes (about a second here); the lines of the first
#: positions (the empty board, ``4444``) take a few hundred thousand.
LINE_NODES = 10_000_000


def line(state: Position, request: SolveRequest) -> list[int]:
    """A principal variation of an unfinished position: columns (0-based) that each keep the
    position's exact score, to the end of the game; the moves proven so far when the request's
    deadline or node budget (``quick``: at most :data:`LINE_NODES`) stopped the search first.
    Each move is proven by one null-window probe of the child (see :mod:`._line`) on the
    solver's table, kept warm along the line. Ctrl-C stops the compiled search and is then
    raised again (KeyboardInterrupt)."""
    return [column for column, _, _ in line_costs(state, request)]


def line_costs(state: Position, request: SolveRequest) -> list[tuple[int, int, int]]:
    """:func:`line` with what each move cost to prove: ``(column, nodes, probes)``, the
    null-window probes run and the nodes they searched (the first move's include solving the
    position); on a size with a book and no database, the book's moves first, each
    ``(column, 0, 0)`` (see :func:`_book_line`); no more when the deadline came while the
    solver was loading."""
    # 7 x 6: the 12-stone database makes the solver's own line quick from the start (and each
    # of its moves' probes counted); elsewhere the book's moves are free and the solver's are not
    size = (state.game.width, state.game.height)
    walked = _book_line(state) if request.book and size != (7, 6) else []
    for column, _, _ in walked:
        state = state.play(column)
    if state.outcome() is not None:
        return walked
    solver = ready_solver(state.game, request)
    if solver is None:
        return walked
    return walked + _line_on(solver, state.current, state.mask, state.moves, request, state)


def _book_line(state: Position) -> list[tuple[int, int, int]]:
    """The first moves of a principal variation read from the opening book, free: while the
    book scores every move of the position, a move that keeps the position's score (the first
    in the search's centre-first order), as ``(column, 0, 0)``; empty outside the book."""
    walked: list[tuple[int, int, int]] = []
    while state.outcome() is None:
        values = _from_book(state)
        if not values:
            break
        best = max(values.values())
        width = state.game.width
        columns = [c for c in values if isinstance(c, int)]
        columns.sort(key=lambda c: (abs(2 * c - (width - 1)), c))  # centre first
        column = next(c for c in columns if values[c] == best)
        walked.append((column, 0, 0))
        state = state.play(column)
    return walked


def _line_on(
    solver: Solver,
    current: int,
    mask: int,
    stones: int,
    request: SolveRequest,
    where: object,
) -> list[tuple[int, int, int]]:
    """:func:`line_costs` of the position given as bitboards, on ``solver`` (``where``: the
    position as an error names it)."""
    max_nodes = request.max_nodes
    if request.quick:
        max_nodes = LINE_NODES if max_nodes is None else min(max_nodes, LINE_NODES)
    proven, result, consistent = solver.line(
        current, mask, stones, book=request.book, deadline=request.deadline, max_nodes=max_nodes
    )
    if result.interrupted:
        raise KeyboardInterrupt  # the compiled search has stopped; Ctrl-C goes on as usual
    if not consistent:
        raise RuntimeError(f"no move keeps the exact score in {where}: the solver contradicts it")
    return proven
