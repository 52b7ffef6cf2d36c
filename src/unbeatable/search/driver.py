"""The serial searcher: :class:`Searcher`, and the functions :func:`search` and :func:`solve`.

The deepening loop, the result and the principal variation are shared with the parallel
searcher (:mod:`.deepening`, :mod:`.result`, :mod:`.pv`); this module supplies the serial root.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..game import FIRST, Move, State
from . import policy
from .deepening import Root, Searching, check_state, deepen, renamed
from .engine import Engine
from .events import ENTER, VALUE, Observer
from .options import ALGORITHMS, Limits, SearchOptions
from .pv import complete_line, principal_variation
from .result import Progress, SearchResult, build_result, rank_moves
from .score import INFINITY, WIN_MIN, Score, to_table
from .stack import alphabeta_stack
from .table import EXACT, RESOLVED, TranspositionTable

__all__ = ["ALGORITHMS", "Limits", "SearchResult", "Searcher", "search", "solve"]

#: Aspiration windows: the first window's half-width around the last iteration's value (in
#: the evaluation's units: centipawns in chess); it grows fourfold at every failure, and past
#: :data:`ASPIRATION_WIDEST` that side of the window opens fully.
ASPIRATION = 50
ASPIRATION_WIDEST = 5000


class Searcher(Searching):
    """A configured search: :class:`~.options.SearchOptions` and the table they call for.

    Pass ``options``, or the options themselves as keywords (``Searcher("negamax",
    table=True)``), or both (the keywords then change the given options). The table is kept
    between searches of the same game.
    """

    def __init__(
        self, algorithm: str | None = None, *, options: SearchOptions | None = None, **kw: Any
    ) -> None:
        if algorithm is not None:
            kw["algorithm"] = algorithm
        self.options = SearchOptions.make(options, **kw)
        opts = self.options
        self.table = TranspositionTable(opts.entries) if opts.table else None
        self._game: tuple[type, object] | None = None
        #: What a game's own searcher keeps between searches (its table, its heuristics).
        self.memory: dict[str, Any] = {}

    # The options, as attributes (read-only: make a new searcher to change them).
    algorithm = property(lambda self: self.options.algorithm)
    symmetry = property(lambda self: self.options.symmetry)
    hints = property(lambda self: self.options.hints)
    evaluate = property(lambda self: self.options.evaluate)
    order = property(lambda self: self.options.order)
    rng = property(lambda self: self.options.rng)
    iterative = property(lambda self: self.options.iterative)

    def switch_game(self, state: State) -> None:
        """Empty the table when ``state`` belongs to another game than the last search's.

        Keys need not tell games apart (tic-tac-toe and the 3,3,2 game share theirs); a game
        is the state's type and its :attr:`State.game`. A game's own searcher's memory (its
        table) is forgotten too.
        """
        game = (type(state), state.game)
        if self._game is not None and game != self._game:
            if self.table is not None:
                self.table.clear()
            self.memory.clear()
        self._game = game

    def uses_solver(self, state: State) -> bool:
        """Whether a search of ``state`` goes to the game's own solver (see
        :func:`.policy.uses_solver`)."""
        return policy.uses_solver(self.options, state)

    def _iterate(
        self, state: State, limits: Limits, algorithm: str, analyze: bool,
        stop: threading.Event | None, observer: Observer | None = None,
        progress: Progress | None = None,
    ) -> Iterator[SearchResult]:
        policy.before_clock(self.options, state, observer)
        start = time.perf_counter()
        self.switch_game(state)
        if algorithm in policy.RUNNERS and (
            algorithm not in policy.TREE_SEARCHES or state.outcome() is None
        ):  # not an iteration of the alpha-beta engine (a finished game is answered below)
            yield from policy.run(
                algorithm, state, limits, self.options, analyze, stop, observer, self.table
            )
            return
        engine = Engine(
            table=self.table,
            symmetry=self.options.symmetry,
            hints=self.options.hints and algorithm.startswith("alphabeta"),
            evaluate=self.options.evaluate,
            order=self.options.order,
            deadline=start + limits.time if limits.time is not None else None,
            max_nodes=limits.nodes,
            features=self.options.features_for(state, algorithm),
            stop=stop,
            observer=observer,
        )
        outcome = state.outcome()
        if outcome is not None:
            value = engine.terminal_value(state, outcome, 0)
            yield build_result(
                state, engine, algorithm, start, (), (), Score(value), None, 0, None
            )
            return
        if (
            observer is None
            and policy.uses_solver(self.options, state)
            and policy.solver_may_answer(limits)
        ):
            result = policy.by_solver(
                state, self.options, limits, engine, start, analyze, progress
            )
            if result is not None:
                yield result
                return
        if observer is None and policy.uses_searcher(self.options, state):
            yield from policy.by_searcher(
                state, self.options, limits, start, analyze, stop, self.memory
            )
            return
        step = _SerialStep(self, state, engine, algorithm)
        yield from deepen(state, limits, self.options, step, algorithm, start, analyze)

#: How the serial root searches a root move: (child, depth, alpha, beta, move) -> value.
Search = Callable[[State, int, int, int, Move], int]


class _SerialStep:
    """The serial root: every root move searched in this process by one engine."""

    def __init__(self, searcher: Searcher, state: State, engine: Engine, algorithm: str) -> None:
        self.searcher = searcher
        self.state = state
        self.engine = engine
        self.algorithm = algorithm
        self.current = Root()
        self.guess: int | None = None  # the last iteration's value, for aspiration windows

    @property
    def counters(self) -> Engine:
        return self.engine

    def iteration(self, depth: int, analyze: bool, alone: bool) -> Root:
        engine, state = self.engine, self.state
        horizon = engine.horizon
        self.current = root = Root()
        engine.extension_plies = 2 * depth
        try:
            if self.algorithm in ("minimax", "negamax"):
                self._plain(root, depth)
            else:
                self._alphabeta(root, depth, analyze)
        except RecursionError:
            raise ValueError(
                f"the game is deeper than Python's recursion allows for {self.algorithm!r}; "
                "use the algorithm alphabeta-stack (an explicit stack, no recursion), or give "
                "a depth or a time limit if it goes round in circles"
            ) from None
        root.exact = engine.horizon == horizon
        if engine.table is not None and self.algorithm.startswith("alphabeta"):
            # The root's best move leads the next iteration, and its value answers a later
            # search of the same position.
            value, best, _ = rank_moves(root.order, root.values, root.exact, False)
            stored = RESOLVED if root.exact else depth
            engine.table.store(engine.key(state), to_table(value, 0), EXACT, stored, best[0])
        if root.values:
            self.guess = max(root.values.values())
        return root

    def partial(self) -> Root | None:
        return self.current if self.current.values else None

    def line(self, root: Root, move: Move, value: int, depth: int | None) -> tuple[Move, ...]:
        line = principal_variation(
            self.state, self.engine, root.lines.get(move, [move]), depth, value
        )
        return line if depth is not None else complete_line(self.state, line, value, self.engine)

    def fallback(self) -> Move:
        return self.engine.ordered(self.state, None)[0]

    def _plain(self, root: Root, depth: int) -> None:
        engine, state = self.engine, self.state
        engine.visit()
        engine.root_event(ENTER, None, None)
        root.order = self.searcher.options.tie_order(state)
        minimax = self.algorithm == "minimax"
        for move in engine.ordered(state, None):
            child = state.play(move)
            if minimax:
                value = engine.minimax(child, depth - 1, 1, move)
                if state.to_move != FIRST:
                    value = -value
            else:
                value = engine.negamax(child, depth - 1, 1, move)
                if child.to_move != state.to_move:
                    value = -value
            root.values[move] = value
            root.lines[move] = [move, *engine.line(1)]
        best = max(root.values.values())
        sign = -1 if minimax and state.to_move != FIRST else 1
        engine.root_event(VALUE, None, None, sign * best)

    def _alphabeta(self, root: Root, depth: int, analyze: bool) -> None:
        """Exact values for the best moves (and for every move when analyzing); for the
        others, an upper bound below the best value."""
        engine, state = self.engine, self.state
        engine.visit()
        engine.root_event(ENTER, -INFINITY, INFINITY)
        first = None
        if engine.table is not None:
            entry = engine.table.probe(engine.key(state))
            if entry is not None:
                first = entry.move
        if self.algorithm == "alphabeta":
            search: Search = lambda s, d, a, b, m: engine.alphabeta(s, d, a, b, 1, True, m)  # noqa: E731
        else:
            search = lambda s, d, a, b, m: alphabeta_stack(engine, s, d, a, b, 1, m)  # noqa: E731
        root.order = self.searcher.options.tie_order(state)
        moves = list(engine.ordered(state, first))
        guess = self.guess
        if analyze or not engine.aspiration or guess is None or abs(guess) >= WIN_MIN:
            self._root_moves(root, moves, depth, analyze, search, -INFINITY, INFINITY)
            engine.root_event(VALUE, -INFINITY, INFINITY, max(root.values.values()))
            return
        # Aspiration window: the value is expected near the last iteration's; when every move
        # fails low, the window opens downwards and the moves are searched again.
        width = ASPIRATION
        low, high = guess - width, guess + width
        while not self._root_moves(root, moves, depth, analyze, search, low, high):
            width *= 4
            lost = max(root.values.values()) <= -WIN_MIN
            low = -INFINITY if width > ASPIRATION_WIDEST or lost else guess - width
            root.values.clear()
            root.lines.clear()
        engine.root_event(VALUE, -INFINITY, INFINITY, max(root.values.values()))

    def _root_moves(
        self,
        root: Root,
        moves: list[Move],
        depth: int,
        analyze: bool,
        search: Search,
        low: int,
        high: int,
    ) -> bool:
        """Search every root move within the window (``low``, ``high``): False when every
        move failed low (then the values are only upper bounds). A move that fails high is
        searched again with the window opened upwards, so the best move's value is exact."""
        engine, state = self.engine, self.state
        best = -INFINITY
        width = ASPIRATION
        for move in moves:
            child = state.play(move)
            # Analysing: every move exactly. Otherwise a window one below the best so far, so
            # that a move as good as the best is told apart from a worse one.
            alpha = -INFINITY if analyze else low if best == -INFINITY else max(low, best - 1)
            below = depth if engine.extensions and child.extends() else depth - 1
            while True:
                if child.to_move == state.to_move:
                    value = search(child, below, alpha, high, move)
                else:
                    value = -search(child, below, -high, -alpha, move)
                if value < high:
                    break
                width *= 4
                wide = width > ASPIRATION_WIDEST or value >= WIN_MIN
                high = INFINITY if wide else value + width
            root.values[move] = value
            if value > alpha:
                root.lines[move] = [move, *engine.line(1)]
            best = max(best, value)
        return best > low


def search(
    state: State,
    limits: Limits | None = None,
    *,
    analyze: bool = False,
    options: SearchOptions | None = None,
    observer: Observer | None = None,
    analyse: bool | None = None,
    **kw: Any,
) -> SearchResult:
    """Search ``state`` with a fresh :class:`Searcher` (options as for it); ``observer`` is
    called with every step of the search (see :mod:`.events`). (``analyse``: the old
    spelling of ``analyze``, deprecated.)"""
    return Searcher(options=options, **kw).search(
        state, limits, analyze=renamed(analyze, analyse), observer=observer
    )


def solve(state: State, *, weak: bool = False, searcher: Searcher | None = None) -> int:
    """The exact score of ``state`` in the solve convention (see :func:`.score.solve_score`).

    Uses the game's own solver when it has one, else an exact search (with ``searcher``, whose
    table then carries over between calls). ``weak``: only the sign is asked for (1, 0 or -1).
    The rule is :func:`.policy.solve`, the same for the parallel searcher.
    """
    check_state(state)
    searcher = searcher or Searcher()
    return policy.solve(state, searcher.options, searcher.search, weak=weak)
