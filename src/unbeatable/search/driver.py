"""One entry point for every algorithm: :class:`Searcher` and :func:`search`."""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ..game import FIRST, Move, SolveRequest, State
from .engine import Engine, Evaluator, Orderer, SearchStopped
from .score import INFINITY, WIN_MIN, Score, solve_score, to_table, value_from_solve_score
from .stack import alphabeta_stack
from .table import EXACT, RESOLVED, TranspositionTable

__all__ = ["ALGORITHMS", "Limits", "SearchResult", "Searcher", "search", "solve"]

#: The algorithms by name. ``alphabeta-stack`` is the explicit-stack (non-recursive) alpha-beta.
ALGORITHMS = ("minimax", "negamax", "alphabeta", "alphabeta-stack")

#: Deeper than this many plies, the default choice is the explicit-stack search.
RECURSION_SAFE_PLIES = 400

UNLIMITED = 1 << 29


@dataclass(frozen=True)
class Limits:
    """How far a search may go. None means no limit of that kind.

    ``depth``: plies below the root (positions at the limit are evaluated); ``time``: seconds of
    wall-clock time; ``nodes``: positions visited. With no limit at all the search is exact.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and (
            not isinstance(self.depth, int) or isinstance(self.depth, bool) or self.depth < 1
        ):
            raise ValueError(f"depth limit must be a whole number >= 1, not {self.depth!r}")
        if self.time is not None and (
            isinstance(self.time, bool)
            or not isinstance(self.time, (int, float))
            or not math.isfinite(self.time)
            or self.time <= 0
        ):
            raise ValueError(f"time limit must be a positive number of seconds, not {self.time!r}")
        if self.nodes is not None and (
            not isinstance(self.nodes, int) or isinstance(self.nodes, bool) or self.nodes < 1
        ):
            raise ValueError(f"node limit must be a whole number >= 1, not {self.nodes!r}")

    @property
    def bounded(self) -> bool:
        """True when the search has a time or node budget (and so runs iteration by iteration)."""
        return self.time is not None or self.nodes is not None


@dataclass(frozen=True)
class SearchResult:
    """What a search found. Scores are from the view of the side to move at the root.

    ``move`` is the move to play: the first of ``best_moves`` in the game's move order, or a
    random one of them when the searcher was given a random generator. ``exact`` is True when
    the score is the game-theoretic value (no depth limit cut any line short); ``complete`` is
    False when a time or node budget interrupted the search and the result is that of the
    last completed iteration.
    """

    move: Move | None
    best_moves: tuple[Move, ...]
    score: Score
    pv: tuple[Move, ...]
    move_scores: Mapping[Move, Score] | None
    depth: int
    seldepth: int
    nodes: int
    table_hits: int
    cutoffs: int
    elapsed: float
    exact: bool
    complete: bool
    algorithm: str
    to_move: int = FIRST
    evaluations: int = 0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else math.inf


class Searcher:
    """A configured search: the algorithm and what belongs to it (table, hints, hooks).

    ``algorithm``: one of :data:`ALGORITHMS`, or None to choose alpha-beta, explicit-stack when
    the game can outlast Python's recursion. ``table``: keep a transposition table of
    ``table_size`` entries (memoization for minimax/negamax; bounds for alpha-beta). The table
    is kept between searches of the same searcher. ``symmetry``: key the table by the game's
    canonical key (e.g. the same for mirror images). ``hints``: use the game's move ordering and
    immediate-win detection (alpha-beta only; plain minimax and negamax visit every node).
    ``evaluate`` and ``order`` replace the game's evaluation and move order without forking it.
    ``rng``: break ties among equally good moves at random instead of by move order.
    ``iterative``: deepen one ply at a time even without a time or node budget, up to the depth
    limit or, without one, until the value is exact (with a budget the search always deepens;
    without one, by default it goes straight to the limit, or to the end of the game, so that
    node counts compare algorithm with algorithm).
    """

    def __init__(
        self,
        algorithm: str | None = None,
        *,
        table: bool | None = None,
        table_size: int = 1 << 20,
        symmetry: bool = True,
        hints: bool = True,
        evaluate: Evaluator | None = None,
        order: Orderer | None = None,
        rng: random.Random | None = None,
        iterative: bool = False,
    ) -> None:
        if algorithm is not None and algorithm not in ALGORITHMS:
            raise ValueError(
                f"unknown algorithm {algorithm!r}: choose one of {', '.join(ALGORITHMS)}"
            )
        if table is None:
            table = algorithm not in ("minimax", "negamax")
        self.algorithm = algorithm
        self.table = TranspositionTable(table_size) if table else None
        self.symmetry = symmetry
        self.hints = hints
        self.evaluate = evaluate
        self.order = order
        self.rng = rng
        self.iterative = iterative
        self._game: tuple[type, object] | None = None

    def switch_game(self, state: State) -> None:
        """Empty the table when ``state`` belongs to another game than the last search's.

        The table is kept between searches of the same game only: keys need not tell games
        apart (tic-tac-toe and the 3,3,2 game share theirs). A game is the state's type and
        its ``game`` attribute, if it has one.
        """
        game = (type(state), getattr(state, "game", None))
        if self.table is not None and self._game is not None and game != self._game:
            self.table.clear()
        self._game = game

    def uses_solver(self, state: State) -> bool:
        """The one rule for handing a position to the game's own solver: the game has one
        (:attr:`State.has_solver`), the position is unfinished, and the searcher was not told
        which algorithm or evaluation to use."""
        return (
            state.has_solver
            and self.algorithm is None
            and self.evaluate is None
            and state.outcome() is None
        )

    def choose_algorithm(self, state: State) -> str:
        if self.algorithm is not None:
            return self.algorithm
        longest = state.max_plies
        if longest is not None and longest - state.ply <= RECURSION_SAFE_PLIES:
            return "alphabeta"
        return "alphabeta-stack"

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        *,
        analyse: bool = False,
        on_iteration: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search ``state`` within ``limits`` and return the result.

        ``analyse``: also give every legal move its own value (``move_scores``).
        ``on_iteration``: called with the result of every completed iteration.
        """
        result: SearchResult | None = None
        for result in self.iterate(state, limits, analyse=analyse):
            if on_iteration is not None:
                on_iteration(result)
        assert result is not None
        return result

    def iterate(
        self, state: State, limits: Limits | None = None, *, analyse: bool = False
    ) -> Iterator[SearchResult]:
        """Yield a result after every completed iteration; the last one is the answer.

        A search with no budget runs one iteration to the depth limit (or to the end of the
        game). With a time or node budget it deepens one ply at a time until the budget runs
        out or the value is exact; the last result yielded is then marked incomplete and holds
        the last completed iteration's answer, or a legal move if none completed.
        """
        limits = limits or Limits()
        if not isinstance(state, State):
            raise TypeError(f"search needs a State, not {type(state).__name__}")
        start = time.perf_counter()
        self.switch_game(state)
        algorithm = self.choose_algorithm(state)
        check_recursion(state, algorithm)
        engine = Engine(
            table=self.table,
            symmetry=self.symmetry,
            hints=self.hints and algorithm.startswith("alphabeta"),
            evaluate=self.evaluate,
            order=self.order,
            deadline=start + limits.time if limits.time is not None else None,
            max_nodes=limits.nodes,
        )
        outcome = state.outcome()
        if outcome is not None:
            value = engine.terminal_value(state, outcome.winner, 0)
            yield self._result(state, engine, algorithm, start, (), (), Score(value), None, 0)
            return
        if self.uses_solver(state) and limits == Limits():
            answer = state.solver_moves(SolveRequest())
            if answer is not None:
                yield self._from_game_solver(state, engine, start, answer.values, analyse)
                return
        max_depth = limits.depth if limits.depth is not None else UNLIMITED
        deepen = limits.bounded or self.iterative
        depths: Sequence[int] = range(1, max_depth + 1) if deepen else (max_depth,)
        last: SearchResult | None = None
        for depth in depths:
            try:
                best, value, pv, scores, exact = self._root(
                    state, engine, algorithm, depth, analyse
                )
            except SearchStopped:
                break
            except RecursionError:
                raise ValueError(
                    f"the game is deeper than Python's recursion allows for {algorithm!r}; "
                    "use algorithm='alphabeta-stack'"
                ) from None
            last = self._result(
                state, engine, algorithm, start, best, pv, Score(value, exact), scores, depth
            )
            yield last
            if exact or depth >= max_depth:
                return
        # The budget ran out: hand back the last completed iteration, or any legal move.
        if last is None:
            moves = engine.ordered(state, None)
            last = self._result(
                state, engine, algorithm, start, (moves[0],), (), Score(0, False), None, 0
            )
        yield interrupted(last, engine, start)

    def _from_game_solver(
        self,
        state: State,
        engine: Engine,
        start: float,
        solved: Mapping[Move, int],
        analyse: bool,
    ) -> SearchResult:
        """The result from the exact per-move scores of the game's own solver."""
        legal = list(state.legal_moves())
        values = {m: value_from_solve_score(state, solved[m]) for m in legal}
        best_value, best, scores = rank_moves(legal, values, True, analyse)
        pv = self._solver_line(state, best[0], time.perf_counter() - start)
        return self._result(state, engine, "solver", start, best, pv, Score(best_value), scores, 0)

    @staticmethod
    def _solver_line(state: State, move: Move, spent: float) -> tuple[Move, ...]:
        """The principal variation from the game's own solver: best moves followed one at a
        time while the game can answer quickly and that costs less than the search itself did
        (and at least 50 ms)."""
        line = [move]
        budget = time.perf_counter() + max(spent, 0.05)
        position = state.play(move)
        while position.outcome() is None and time.perf_counter() < budget:
            answer = position.solver_moves(SolveRequest(quick=True))
            if answer is None or not answer.values:
                break
            solved = answer.values
            top = max(solved.values())
            move = next(m for m in position.legal_moves() if solved.get(m) == top)
            line.append(move)
            position = position.play(move)
        return tuple(line)

    # --- the root -------------------------------------------------------------------------

    def _root(
        self, state: State, engine: Engine, algorithm: str, depth: int, analyse: bool
    ) -> tuple[tuple[Move, ...], int, tuple[Move, ...], dict[Move, Score] | None, bool]:
        """Search every root move; return the best moves (in move order), the value, the
        principal variation, the per-move scores if asked, and whether the value is exact."""
        horizon = engine.horizon
        legal = list(state.legal_moves())
        if algorithm in ("minimax", "negamax"):
            values, lines = self._root_plain(state, engine, algorithm, depth, legal)
        else:
            values, lines = self._root_alphabeta(state, engine, algorithm, depth, legal, analyse)
        exact = engine.horizon == horizon
        best_value, best, scores = rank_moves(legal, values, exact, analyse)
        if engine.table is not None and algorithm.startswith("alphabeta"):
            # The root's best move leads the next iteration, and its value answers a later
            # search of the same position.
            stored = RESOLVED if exact else depth
            engine.table.store(engine.key(state), to_table(best_value, 0), EXACT, stored, best[0])
        pv = self._pv(state, engine, lines.get(best[0], [best[0]]), depth, best_value)
        return best, best_value, pv, scores, exact

    @staticmethod
    def _root_plain(
        state: State, engine: Engine, algorithm: str, depth: int, legal: list[Move]
    ) -> tuple[dict[Move, int], dict[Move, list[Move]]]:
        engine.visit()
        values: dict[Move, int] = {}
        lines: dict[Move, list[Move]] = {}
        for move in legal:
            child = state.play(move)
            if algorithm == "minimax":
                value = engine.minimax(child, depth - 1, 1)
                if state.to_move != FIRST:
                    value = -value
            else:
                value = engine.negamax(child, depth - 1, 1)
                if child.to_move != state.to_move:
                    value = -value
            values[move] = value
            lines[move] = [move, *engine.line(1)]
        return values, lines

    @staticmethod
    def _root_alphabeta(
        state: State,
        engine: Engine,
        algorithm: str,
        depth: int,
        legal: list[Move],
        analyse: bool,
    ) -> tuple[dict[Move, int], dict[Move, list[Move]]]:
        """Exact values for the best moves (and for every move when analysing); for the
        others, an upper bound below the best value."""
        engine.visit()
        lines: dict[Move, list[Move]] = {}
        first = None
        if engine.table is not None:
            entry = engine.table.probe(engine.key(state))
            if entry is not None:
                first = entry.move
        values: dict[Move, int] = {}
        best = -INFINITY
        for move in engine.ordered(state, first):
            child = state.play(move)
            # Analysing: every move exactly. Otherwise a window one below the best so far, so
            # that a move as good as the best is told apart from a worse one.
            alpha = -INFINITY if analyse or best == -INFINITY else best - 1
            search = engine.alphabeta if algorithm == "alphabeta" else _stack(engine)
            if child.to_move == state.to_move:
                value = search(child, depth - 1, alpha, INFINITY, 1)
            else:
                value = -search(child, depth - 1, -INFINITY, -alpha, 1)
            values[move] = value
            if value > alpha:
                lines[move] = [move, *engine.line(1)]
            best = max(best, value)
        return values, lines

    @staticmethod
    def _pv(
        state: State, engine: Engine, line: list[Move], depth: int, value: int
    ) -> tuple[Move, ...]:
        """The principal variation: the best move's line as the search saw it, extended by the
        table's best moves where a table hit cut the line short.

        ``value`` is the root's value. A table move is only followed when the position it
        leads to holds an exact entry of just the value the line predicts: with symmetric keys
        an entry's move may belong to a mirror image, and is then not taken.
        """
        line = list(line)
        table = engine.table
        if table is None:
            return tuple(line)
        position = state
        for move in line:
            child = position.play(move)
            value = _child_value(value, position, child)
            position = child
        seen = set()
        while len(line) < depth and position.outcome() is None:
            key = engine.key(position)
            entry = table.probe(key)
            if entry is None or entry.move is None or key in seen:
                break
            seen.add(key)
            if entry.move not in position.legal_moves():
                break
            child = position.play(entry.move)
            expected = _child_value(value, position, child)
            outcome = child.outcome()
            if outcome is not None:
                if engine.terminal_value(child, outcome.winner, 0) != expected:
                    break
            else:
                found = table.probe(engine.key(child))
                if found is None or found.flag != EXACT or found.value != expected:
                    break
            line.append(entry.move)
            position, value = child, expected
        return tuple(line)

    def _result(
        self,
        state: State,
        engine: Engine,
        algorithm: str,
        start: float,
        best: tuple[Move, ...],
        pv: tuple[Move, ...],
        score: Score,
        scores: Mapping[Move, Score] | None,
        depth: int,
    ) -> SearchResult:
        return build_result(
            state, engine, algorithm, start, best, pv, score, scores, depth, self.rng
        )


class Counters(Protocol):
    """What a search counted (an :class:`~.engine.Engine`, or a parallel search's totals)."""

    nodes: int
    hits: int
    cutoffs: int
    horizon: int
    seldepth: int


def rank_moves(
    legal: Sequence[Move], values: Mapping[Move, int], exact: bool, analyse: bool
) -> tuple[int, tuple[Move, ...], dict[Move, Score] | None]:
    """From the root moves' values: the best value, the moves that reach it (in move order),
    and when analysing every move's score (exact if the search was; a win or loss always is).
    """
    best_value = max(values.values())
    best = tuple(m for m in legal if values[m] >= best_value)
    scores = None
    if analyse:
        scores = {m: Score(values[m], exact or abs(values[m]) >= WIN_MIN) for m in legal}
    return best_value, best, scores


def check_recursion(state: State, algorithm: str) -> None:
    """Refuse, before it starts, a recursive search of a game that may outlast the recursion
    limit."""
    longest = state.max_plies
    if (
        algorithm != "alphabeta-stack"
        and longest is not None
        and longest - state.ply > sys.getrecursionlimit() - 100
    ):
        raise ValueError(
            f"{algorithm!r} recurses once per ply and this game may last {longest - state.ply} "
            "more plies, beyond Python's recursion limit: use algorithm='alphabeta-stack'"
        )


def build_result(
    state: State,
    counters: Counters,
    algorithm: str,
    start: float,
    best: tuple[Move, ...],
    pv: tuple[Move, ...],
    score: Score,
    scores: Mapping[Move, Score] | None,
    depth: int,
    rng: random.Random | None,
) -> SearchResult:
    """The result of a completed iteration: the move is the first best move, or a random one
    of them with ``rng``; the principal variation starts with that move."""
    if not best:
        move = None
    elif rng is not None:
        move = rng.choice(best)
    else:
        move = best[0]
    if move is not None and (not pv or pv[0] != move):
        pv = (move,)
    return SearchResult(
        move=move,
        best_moves=best,
        score=score,
        pv=pv,
        move_scores=scores,
        depth=depth if depth != UNLIMITED else counters.seldepth,
        seldepth=counters.seldepth,
        nodes=counters.nodes,
        table_hits=counters.hits,
        cutoffs=counters.cutoffs,
        elapsed=time.perf_counter() - start,
        exact=score.exact,
        complete=True,
        algorithm=algorithm,
        to_move=state.to_move,
        evaluations=counters.horizon,
    )


def interrupted(last: SearchResult, counters: Counters, start: float) -> SearchResult:
    """The last completed iteration's answer, marked incomplete, with the figures so far."""
    return replace(
        last,
        complete=False,
        nodes=counters.nodes,
        table_hits=counters.hits,
        cutoffs=counters.cutoffs,
        elapsed=time.perf_counter() - start,
        evaluations=counters.horizon,
    )


def search(
    state: State,
    limits: Limits | None = None,
    *,
    algorithm: str | None = None,
    analyse: bool = False,
    table: bool | None = None,
    table_size: int = 1 << 20,
    symmetry: bool = True,
    hints: bool = True,
    evaluate: Evaluator | None = None,
    order: Orderer | None = None,
    rng: random.Random | None = None,
    iterative: bool = False,
) -> SearchResult:
    """Search ``state`` with a fresh :class:`Searcher` (see it for the options)."""
    searcher = Searcher(
        algorithm,
        table=table,
        table_size=table_size,
        symmetry=symmetry,
        hints=hints,
        evaluate=evaluate,
        order=order,
        rng=rng,
        iterative=iterative,
    )
    return searcher.search(state, limits, analyse=analyse)


def solve(state: State, *, weak: bool = False, searcher: Searcher | None = None) -> int:
    """The exact score of ``state`` in the solve convention (see :func:`.score.solve_score`).

    Uses the game's own solver when it has one, else an exact search (with ``searcher``, whose
    table then carries over between calls). ``weak``: only the sign is asked for (1, 0 or -1).
    """
    if (searcher or Searcher()).uses_solver(state):
        own = state.solver_value(SolveRequest(weak=weak))
        if own is not None:
            return (own > 0) - (own < 0) if weak else own
    result = (searcher or Searcher()).search(state)
    score = solve_score(state, result.score)
    return (score > 0) - (score < 0) if weak else score


def _stack(engine: Engine) -> Callable[[State, int, int, int, int], int]:
    """The explicit-stack search with the signature of :meth:`Engine.alphabeta`."""
    return lambda state, depth, alpha, beta, ply: alphabeta_stack(
        engine, state, depth, alpha, beta, ply
    )


def _child_value(value: int, parent: State, child: State) -> int:
    """The value, counted from ``child`` and from its side to move's view, of the child that
    keeps ``parent``'s ``value``."""
    if value >= WIN_MIN:
        value += 1
    elif value <= -WIN_MIN:
        value -= 1
    return value if child.to_move == parent.to_move else -value
