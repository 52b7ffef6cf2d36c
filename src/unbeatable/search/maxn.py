"""Games of more than two players: max^n and the paranoid search.

A game of ``n`` players (:attr:`State.players`) ends with a :class:`~unbeatable.game.Payoff`
of one value per player; a game of two players that ends with an
:class:`~unbeatable.game.Outcome` is worth 1 to the winner and -1 to the loser (0 each for a
draw). Chance nodes (:attr:`State.is_chance`) are worth the expectation of their outcomes.

* ``maxn`` (Luckhardt and Irani): a position is worth a vector, one value per player; the
  player to move takes the move whose vector is best for itself, the first in order among
  equals (the legal order, or the ``order`` hook's: as in every search here), so the value
  is well defined. No pruning (with a table, positions met again are not searched again).
  For two players it is negamax.
* ``paranoid`` (Sturtevant and Korf): the player to move at the root assumes every other
  player plays against it; that makes a two-sided game (the root player against a
  coalition), searched by alpha-beta in max/min form on the root player's value (the
  expectation at chance nodes, which are searched with the full window). The value is what
  the root player can make sure of (:data:`~.score.GUARANTEED_PAYOFF`); the vector reported
  is the one where the principal variation ends (or its expectation).

At a depth limit every player's value comes from :meth:`State.evaluate_players`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Iterator
from typing import Any

from ..game import Move, Outcome, Payoff, State
from .engine import Engine
from .events import Observer
from .numeric import TIE, Iteration, Subtree, deepen, ranked
from .options import Limits, SearchOptions
from .result import SearchResult
from .score import EXPECTED_PAYOFF, EXPECTED_SCORE, GUARANTEED_PAYOFF, PAYOFF
from .table import EXACT, LOWER, RESOLVED, UPPER, TranspositionTable

__all__ = ["MAXN_ALGORITHMS", "RUNNERS", "MaxnEngine", "MaxnRunner", "meaning_of"]

#: The algorithms of this module.
MAXN_ALGORITHMS = ("maxn", "paranoid")

_INF = float("inf")

Vector = tuple[float, ...]


def meaning_of(state: State, algorithm: str) -> str:
    """What a value means under ``algorithm``: max^n's payoff (expected in a game of chance;
    an expected score in a game of chance that ends with wins and losses), or the payoff the
    paranoid search guarantees."""
    if algorithm == "paranoid":
        return GUARANTEED_PAYOFF
    if state.has_chance:
        return EXPECTED_PAYOFF if state.numeric_outcomes else EXPECTED_SCORE
    return PAYOFF


class MaxnEngine(Engine):
    """The engine of max^n and the paranoid search: the alpha-beta engine's counters, limits,
    table and move order, with a value per player. One per search; ``me`` is the paranoid
    search's root player."""

    def __init__(
        self,
        algorithm: str,
        players: int,
        me: int,
        *,
        table: TranspositionTable | None,
        symmetry: bool,
        hints: bool,
        evaluate: Any,
        order: Any,
        deadline: float | None,
        max_nodes: int | None,
        stop: threading.Event | None = None,
    ) -> None:
        super().__init__(
            table=table,
            symmetry=symmetry,
            hints=hints,
            evaluate=evaluate,
            order=order,
            deadline=deadline,
            max_nodes=max_nodes,
            stop=stop,
        )
        self.algorithm = algorithm
        self.players = players
        self.me = me

    # --- values ---------------------------------------------------------------------------

    def vector(self, state: State, outcome: Outcome | Payoff) -> Vector:
        """A finished game's value to every player."""
        if isinstance(outcome, Payoff):
            return tuple(float(v) for v in outcome.values)
        winner = outcome.winner
        if winner is None:
            return (0.0,) * self.players
        return tuple(1.0 if p == winner else -1.0 for p in range(self.players))

    def estimate(self, state: State) -> Vector:
        """Every player's value at the depth limit (:meth:`State.evaluate_players`; a given
        ``evaluate`` hook counts for the side to move, as :meth:`State.evaluate_players`
        spreads it)."""
        self.horizon += 1
        if self.evaluate_hook is not None:
            value = float(self.evaluate_hook(state))
            others = -value / (self.players - 1) if value else 0.0
            return tuple(value if p == state.to_move else others for p in range(self.players))
        found = tuple(float(v) for v in state.evaluate_players())
        if len(found) != self.players:
            raise ValueError(
                f"evaluate_players() of {state} gives {len(found)} values for {self.players} "
                "players"
            )
        return found

    def _expected(self, state: State, depth: int, ply: int) -> Vector:
        """A chance node: the expectation of its outcomes' vectors."""
        total = [0.0] * self.players
        for move, probability in state.chance_outcomes():
            child = self.maxn(state.play(move), depth, ply + 1, move)
            for p in range(self.players):
                total[p] += float(probability) * child[p]
        return tuple(total)

    # --- max^n ----------------------------------------------------------------------------

    def maxn(self, state: State, depth: int, ply: int, move: Move | None = None) -> Vector:
        """Every player's value of ``state``, ``depth`` player moves deep (chance nodes take
        none): the player to move takes the first best vector for itself."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        self.clear_pv(ply)
        outcome = state.outcome()
        if outcome is not None:
            if ply > self.seldepth:
                self.seldepth = ply
            return self.vector(state, outcome)
        if depth <= 0:
            return self.estimate(state)
        key: Hashable = None
        if self.table is not None:
            key = self.key(state)
            entry = self.table.probe(key)
            if entry is not None and entry.depth >= depth:
                self.hits += 1
                if entry.depth != RESOLVED:
                    self.horizon += 1
                found: Vector = entry.value  # type: ignore[assignment]
                return found
        horizon = self.horizon
        best_move: Move | None = None
        if state.is_chance:
            best = self._expected(state, depth, ply)
        else:
            side = state.to_move
            best = ()
            for child_move in self.ordered(state, None, ply):
                value = self.maxn(state.play(child_move), depth - 1, ply + 1, child_move)
                if not best or value[side] > best[side] + TIE:
                    best, best_move = value, child_move
                    self.set_pv(ply, child_move)
        if self.table is not None:
            stored = RESOLVED if self.horizon == horizon else depth
            self.table.store(key, best, EXACT, stored, best_move)  # type: ignore[arg-type]
        return best

    # --- paranoid -------------------------------------------------------------------------

    def paranoid(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        move: Move | None = None,
    ) -> tuple[float, Vector]:
        """The root player's value of ``state`` when every other player plays against it
        (alpha-beta in max/min form, fail-soft, the root player's view), with the vector
        where that line ends."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        self.clear_pv(ply)
        outcome = state.outcome()
        if outcome is not None:
            if ply > self.seldepth:
                self.seldepth = ply
            vector = self.vector(state, outcome)
            return vector[self.me], vector
        if depth <= 0:
            vector = self.estimate(state)
            return vector[self.me], vector
        known, key, first = self._known(state, depth, alpha, beta)
        if known is not None:
            return known
        horizon = self.horizon
        alpha0, beta0 = alpha, beta
        best_move: Move | None = None
        if state.is_chance:
            best: tuple[float, Vector] = self._paranoid_chance(state, depth, ply)
        else:
            maximising = state.to_move == self.me
            best = (-_INF if maximising else _INF, ())
            for child_move in self.ordered(state, first, ply):
                found = self.paranoid(
                    state.play(child_move), depth - 1, alpha, beta, ply + 1, child_move
                )
                if (found[0] > best[0]) if maximising else (found[0] < best[0]):
                    best, best_move = found, child_move
                    self.set_pv(ply, child_move)
                if maximising:
                    alpha = max(alpha, found[0])
                else:
                    beta = min(beta, found[0])
                if alpha >= beta:
                    self.cutoffs += 1
                    break
        if self.table is not None:
            value = best[0]
            flag = UPPER if value <= alpha0 else LOWER if value >= beta0 else EXACT
            stored = RESOLVED if self.horizon == horizon else depth
            self.table.store(key, best, flag, stored, best_move or first)  # type: ignore[arg-type]
        return best

    def _known(
        self, state: State, depth: int, alpha: float, beta: float
    ) -> tuple[tuple[float, Vector] | None, Hashable, Move | None]:
        """A paranoid node's table entry: (its value when it answers, the key, the move to
        try first)."""
        if self.table is None:
            return None, None, None
        key = self.key(state)
        entry = self.table.probe(key)
        if entry is None:
            return None, key, None
        known: tuple[float, Vector] = entry.value  # type: ignore[assignment]
        if entry.depth >= depth and (
            entry.flag == EXACT
            or (entry.flag == LOWER and known[0] >= beta)
            or (entry.flag == UPPER and known[0] <= alpha)
        ):
            self.hits += 1
            if entry.depth != RESOLVED:
                self.horizon += 1
            return known, key, entry.move
        return None, key, entry.move

    def _paranoid_chance(self, state: State, depth: int, ply: int) -> tuple[float, Vector]:
        """A chance node of the paranoid search: the expectation, each outcome searched with
        the full window."""
        total = 0.0
        expected = [0.0] * self.players
        for move, probability in state.chance_outcomes():
            value, below = self.paranoid(state.play(move), depth, -_INF, _INF, ply + 1, move)
            total += float(probability) * value
            for p in range(self.players):
                expected[p] += float(probability) * below[p]
        return total, tuple(expected)


class MaxnRoot:
    """The root of a serial max^n or paranoid search: every root move (every outcome at a
    chance node) searched by the engine."""

    def __init__(self, engine: MaxnEngine, state: State, options: SearchOptions) -> None:
        self.engine = engine
        self.state = state
        self.order = options.tie_order(state)
        self.current: Iteration | None = None

    @property
    def counters(self) -> MaxnEngine:
        return self.engine

    def iteration(self, depth: int, analyze: bool) -> Iteration:
        engine, state = self.engine, self.state
        engine.visit()
        horizon = engine.horizon
        self.current = None
        values: dict[Move, float] = {}
        vectors: dict[Move, Vector] = {}
        lines: dict[Move, tuple[Move, ...]] = {}
        me = state.to_move
        if state.is_chance:
            total = [0.0] * engine.players
            for move, probability in state.chance_outcomes():
                vector = self._child(state.play(move), depth, move, -_INF)[1]
                vectors[move], values[move] = vector, vector[me]
                for p in range(engine.players):
                    total[p] += float(probability) * vector[p]
            return Iteration(
                total[me], engine.horizon == horizon, values, (), (), tuple(total), vectors
            )
        best = -_INF
        for move in engine.ordered(state, None, 0):
            # paranoid, not analyzing: a window just below the best so far
            alpha = -_INF if analyze or best == -_INF else best - 2 * TIE
            value, vector = self._child(state.play(move), depth - 1, move, alpha)
            values[move], vectors[move] = value, vector
            lines[move] = (move, *engine.line(1))
            best = max(best, value)
            self.current = self._found(values, vectors, lines, False)
        return self._found(values, vectors, lines, engine.horizon == horizon)

    def _child(self, child: State, depth: int, move: Move, alpha: float) -> tuple[float, Vector]:
        engine = self.engine
        if engine.algorithm == "paranoid":
            return engine.paranoid(child, depth, alpha, _INF, 1, move)
        vector = engine.maxn(child, depth, 1, move)
        return vector[self.state.to_move], vector

    def _found(
        self,
        values: dict[Move, float],
        vectors: dict[Move, Vector],
        lines: dict[Move, tuple[Move, ...]],
        exact: bool,
    ) -> Iteration:
        value, best = ranked(self.order, values)
        return Iteration(
            value, exact, dict(values), best, lines[best[0]], vectors[best[0]], dict(vectors)
        )

    def partial(self) -> Iteration | None:
        return self.current

    def fallback(self) -> Move | None:
        return None if self.state.is_chance else self.engine.ordered(self.state, None)[0]


class MaxnRunner:
    """A search by one of :data:`MAXN_ALGORITHMS`, as the searchers run it (see
    :data:`.policy.RUNNERS`). It emits no search events."""

    observes = False

    def __init__(self, algorithm: str) -> None:
        self.algorithm = algorithm
        #: max^n's entries are positions' vectors, whoever searches; the paranoid search's
        #: depend on its root player, so each search has a table of its own
        self.shares_table = algorithm == "maxn"

    def subtree(
        self,
        state: State,
        depth: int,
        options: SearchOptions,
        *,
        deadline: float | None,
        max_nodes: int | None,
        table: TranspositionTable | None,
        me: int,
    ) -> Subtree:
        """``state`` searched whole to ``depth`` (a worker's task of a root split over
        workers); ``me``: the paranoid search's root player (the split root's side to move).
        Raises :class:`~.engine.SearchStopped` when the budget runs out."""
        if table is None and options.table:
            table = TranspositionTable(options.entries)
        engine = MaxnEngine(
            self.algorithm,
            state.players,
            me,
            table=table
            if options.table and self.shares_table
            else (TranspositionTable(options.entries) if options.table else None),
            symmetry=options.symmetry,
            hints=options.hints and self.algorithm == "paranoid",
            evaluate=options.evaluate,
            order=options.order,
            deadline=deadline,
            max_nodes=max_nodes,
        )
        if self.algorithm == "paranoid":
            value, vector = engine.paranoid(state, depth, -_INF, _INF, 0)
        else:
            vector = engine.maxn(state, depth, 0)
            value = vector[state.to_move]
        return Subtree.of(value, vector, engine.line(0), engine)

    def __call__(
        self,
        state: State,
        limits: Limits,
        options: SearchOptions,
        analyze: bool,
        stop: threading.Event | None,
        observer: Observer | None = None,
        table: TranspositionTable | None = None,
    ) -> Iterator[SearchResult]:
        if observer is not None:
            raise ValueError(f"{self.algorithm} emits no search events")
        if table is None and options.table:
            table = TranspositionTable(options.entries)
        start = time.perf_counter()
        engine = MaxnEngine(
            self.algorithm,
            state.players,
            state.to_move,
            table=table if options.table else None,
            symmetry=options.symmetry,
            hints=options.hints and self.algorithm == "paranoid",
            evaluate=options.evaluate,
            order=options.order,
            deadline=start + limits.time if limits.time is not None else None,
            max_nodes=limits.nodes,
            stop=stop,
        )
        meaning = meaning_of(state, self.algorithm)
        outcome = state.outcome()
        if outcome is not None:
            vector = engine.vector(state, outcome)
            finished = _Finished(engine, Iteration(vector[state.to_move], True, values=vector))
            yield from deepen(
                state, limits, options, finished, self.algorithm, meaning, start, analyze
            )
            return
        yield from deepen(
            state,
            limits,
            options,
            MaxnRoot(engine, state, options),
            self.algorithm,
            meaning,
            start,
            analyze,
        )


class _Finished:
    """The root of a finished game: its value, at once."""

    def __init__(self, engine: MaxnEngine, found: Iteration) -> None:
        self.engine, self.found = engine, found

    @property
    def counters(self) -> MaxnEngine:
        return self.engine

    def iteration(self, depth: int, analyze: bool) -> Iteration:
        return self.found

    def partial(self) -> Iteration | None:
        return None

    def fallback(self) -> Move | None:
        return None


#: The runners of this module, by algorithm (see :data:`.policy.RUNNERS`).
RUNNERS = {name: MaxnRunner(name) for name in MAXN_ALGORITHMS}
