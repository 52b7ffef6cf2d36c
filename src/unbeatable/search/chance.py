"""Games of chance: expectiminimax, and *-minimax (Ballard's Star1 and Star2).

A game of chance (:attr:`State.has_chance`) has chance nodes where the dice decide
(:attr:`State.is_chance`, :meth:`State.chance_outcomes`); a chance node is worth the
expectation of its outcomes' values. Values are floats from the side to move's view
(negamax form), changing sign where the side to move changes: a game that ends with an
:class:`~unbeatable.game.Outcome` is worth its expected score (a win 1, a draw 0, a loss
-1), one that ends with a :class:`~unbeatable.game.Payoff` its expected payoff (two players,
zero-sum: the payoff of the side to move).

* ``expectiminimax``: every node, no pruning (the textbook; with a table it memoizes exact
  values, which makes a game with few positions a dynamic programme).
* ``star1``: alpha-beta at the players' nodes, and at a chance node Ballard's Star1: the
  outcomes searched so far and the game's value bounds (:func:`value_bounds`: -1 and 1, or
  the ``value_bounds`` a game of payoffs declares) bound the expectation, so each outcome is
  searched with the window that could still move it out of the node's window, and the node
  is cut as soon as the expectation is known to lie outside.
* ``star2``: Star1 after a probing phase: each outcome's position is first searched for its
  first move only, which bounds its value from one side (a lower bound for the player to
  move there), and those bounds may cut the chance node before any full search.

Depth counts the players' moves; a chance node takes none (a depth-1 search of a position
looks at the positions after each move, before the opponent's roll, with the game's
evaluation, which in a game of chance estimates the value on the same scale and is held
within the bounds). The table holds exact values and bounds as for alpha-beta.
Contract of :meth:`ChanceEngine.search` for ``alpha < beta`` (``V`` the value at this depth,
``v`` the value returned): ``v <= alpha`` means ``V <= v``, ``v >= beta`` means ``V >= v``,
otherwise ``v == V`` (up to the rounding of a sum of floats).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from ..game import Move, Outcome, Payoff, State
from . import events as ev
from .engine import Engine
from .events import Observer, SearchEvent
from .numeric import Iteration, Subtree, deepen, ranked
from .options import Limits, SearchOptions
from .result import SearchResult
from .score import EXPECTED_PAYOFF, EXPECTED_SCORE
from .table import EXACT, LOWER, RESOLVED, UPPER, TranspositionTable

__all__ = [
    "CHANCE_ALGORITHMS",
    "RUNNERS",
    "ChanceEngine",
    "ChanceRunner",
    "meaning_of",
    "value_bounds",
]

#: The algorithms of this module.
CHANCE_ALGORITHMS = ("expectiminimax", "star1", "star2")

_INF = float("inf")


def value_bounds(state: State) -> tuple[float, float] | None:
    """The least and greatest value a position of ``state``'s game can have, for *-minimax:
    the game's declared :attr:`~unbeatable.game.State.value_bounds`, else -1 and 1 for a game
    that ends with wins and losses (its expected score); None when a game of payoffs
    declares none."""
    declared = state.value_bounds
    if declared is not None:
        low, high = declared
        return float(low), float(high)
    if not state.numeric_outcomes:
        return -1.0, 1.0
    return None


def meaning_of(state: State) -> str:
    """What a value of ``state``'s game means under these searches: an expected score, or an
    expected payoff (a game of payoffs); the same without chance (no expectation is taken)."""
    return EXPECTED_PAYOFF if state.numeric_outcomes else EXPECTED_SCORE


class ChanceEngine(Engine):
    """The engine of expectiminimax and *-minimax: the alpha-beta engine's counters, limits,
    table and move order, with float values and chance nodes. One per search."""

    def __init__(
        self,
        algorithm: str,
        bounds: tuple[float, float] | None,
        *,
        table: TranspositionTable | None,
        symmetry: bool,
        hints: bool,
        evaluate: Any,
        order: Any,
        deadline: float | None,
        max_nodes: int | None,
        stop: threading.Event | None = None,
        observer: Observer | None = None,
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
        self.prune = algorithm != "expectiminimax"
        self.probing = algorithm == "star2"
        if self.prune and bounds is None:
            raise ValueError(
                f"{algorithm} prunes chance nodes with the bounds of the game's values: this "
                "game ends with payoffs and declares no value_bounds (declare them, or use "
                "expectiminimax)"
            )
        self.low, self.high = bounds if bounds is not None else (-_INF, _INF)
        self.probes = 0  # Star2's probes of one move
        self.chance_cuts = 0  # chance nodes cut before every outcome was searched
        self.watch: Observer | None = observer
        self.path: list[Move] = []

    # --- values ---------------------------------------------------------------------------

    @staticmethod
    def terminal(state: State, outcome: Outcome | Payoff) -> float:
        """A finished game's value from its side to move's view: its payoff, or 1, 0, -1."""
        if isinstance(outcome, Payoff):
            return float(outcome.values[state.to_move])
        winner = outcome.winner
        return 0.0 if winner is None else 1.0 if winner == state.to_move else -1.0

    def estimate(self, state: State) -> float:
        """The evaluation at the depth limit, held within the bounds."""
        self.horizon += 1
        raw = self.evaluate_hook(state) if self.evaluate_hook is not None else state.evaluate()
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw != raw:
            raise TypeError(f"the evaluation of {state} must be a number, not {raw!r}")
        return min(self.high, max(self.low, float(raw)))

    def _span(self, same: bool) -> tuple[float, float]:
        """The bounds of a child's value seen from its parent: the bounds, negated where the
        side to move changes (and held within the bounds, which also hold the parent)."""
        if same:
            return self.low, self.high
        return max(self.low, -self.high), min(self.high, -self.low)

    # --- the search -----------------------------------------------------------------------

    def search(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        move: Move | None = None,
    ) -> float:
        """The value of ``state`` ``depth`` player moves deep, from its side to move's view,
        within the window (fail-soft; see the module's contract). ``move`` led here (for the
        events)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        self.clear_pv(ply)
        path = self._at(ply, move) if self.watch is not None else ()
        self._emit(ev.ENTER, path, alpha, beta, None, None)
        value, reason, key, first = self._before(state, depth, alpha, beta, ply)
        if value is not None:
            self._emit(ev.VALUE, path, alpha, beta, value, reason)
            return value
        horizon = self.horizon
        if state.is_chance:
            value, best_move = self._chance(state, depth, alpha, beta, ply), None
            reason = ev.CHANCE
        else:
            value, best_move = self._decision(state, depth, alpha, beta, ply, first)
            reason = ev.SEARCHED
        if self.table is not None:
            flag = UPPER if value <= alpha else LOWER if value >= beta else EXACT
            stored = RESOLVED if self.horizon == horizon else depth
            hint = first if flag == UPPER or best_move is None else best_move
            self.table.store(key, value, flag, stored, hint)  # type: ignore[arg-type]
        self._emit(ev.VALUE, path, alpha, beta, value, reason)
        return value

    def _before(
        self, state: State, depth: int, alpha: float, beta: float, ply: int
    ) -> tuple[float | None, str, Hashable, Move | None]:
        """The part of a node before its moves: (value, reason, key, first): its value when
        it needs no move searched (a finished game, the depth limit, a usable table entry),
        its table key, and the table's move to try first."""
        outcome = state.outcome()
        if outcome is not None:
            if ply > self.seldepth:
                self.seldepth = ply
            return self.terminal(state, outcome), ev.TERMINAL, None, None
        if depth <= 0:
            return self.estimate(state), ev.HORIZON, None, None
        if self.table is None:
            return None, "", None, None
        key = self.key(state)
        entry = self.table.probe(key)
        if entry is None:
            return None, "", key, None
        if entry.depth >= depth and (
            entry.flag == EXACT
            or (entry.flag == LOWER and entry.value >= beta)
            or (entry.flag == UPPER and entry.value <= alpha)
        ):
            self.hits += 1
            if entry.depth != RESOLVED:
                self.horizon += 1
            if self.watch is not None:
                self._emit(
                    ev.HIT, tuple(self.path[:ply]), alpha, beta, entry.value, str(entry.flag)
                )
            return entry.value, ev.TABLE, key, entry.move
        return None, "", key, entry.move

    def _decision(
        self, state: State, depth: int, alpha: float, beta: float, ply: int, first: Move | None
    ) -> tuple[float, Move | None]:
        """A player's node: the best child (alpha-beta unless expectiminimax)."""
        best = -_INF
        best_move: Move | None = None
        side = state.to_move
        moves = self.ordered(state, first, ply)
        for index, move in enumerate(moves):
            child = state.play(move)
            if child.to_move == side:
                value = self.search(child, depth - 1, alpha, beta, ply + 1, move)
            else:
                value = -self.search(child, depth - 1, -beta, -alpha, ply + 1, move)
            if value > best:
                best = value
                best_move = move
                self.set_pv(ply, move)
                if self.prune and value > alpha:
                    alpha = value
                    if value >= beta:
                        self.cutoffs += 1
                        if self.watch is not None:
                            self._cut(moves[index + 1 :], ply, value, beta, ev.BETA)
                        break
        return best, best_move

    def _chance(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """A chance node: the expectation of its outcomes (Star1, after Star2's probes)."""
        side = state.to_move
        outcomes = [(m, float(p), state.play(m)) for m, p in state.chance_outcomes()]
        if not self.prune:
            total = 0.0
            for move, probability, child in outcomes:
                value = self.search(child, depth, -_INF, _INF, ply + 1, move)
                total += probability * (value if child.to_move == side else -value)
            return total
        count = len(outcomes)
        lows = [0.0] * count
        highs = [0.0] * count
        for i, (_, _, child) in enumerate(outcomes):
            lows[i], highs[i] = self._span(child.to_move == side)
        if self.probing:
            cut = self._probe(outcomes, side, lows, highs, depth, alpha, beta, ply)
            if cut is not None:
                return cut
        total = 0.0
        for i, (move, probability, child) in enumerate(outcomes):
            rest_low = sum(p * lows[j] for j, (_, p, _) in enumerate(outcomes) if j > i)
            rest_high = sum(p * highs[j] for j, (_, p, _) in enumerate(outcomes) if j > i)
            fail_low = (alpha - total - rest_high) / probability
            fail_high = (beta - total - rest_low) / probability
            if highs[i] <= fail_low:  # even its best leaves the node at or below alpha
                return self._chance_cut(
                    min(alpha, total + probability * highs[i] + rest_high), outcomes, i, ply
                )
            if lows[i] >= fail_high:  # even its worst leaves the node at or above beta
                return self._chance_cut(
                    max(beta, total + probability * lows[i] + rest_low), outcomes, i, ply
                )
            low = max(fail_low, lows[i])
            high = min(fail_high, highs[i])
            same = child.to_move == side
            if same:
                value = self.search(child, depth, low, high, ply + 1, move)
            else:
                value = -self.search(child, depth, -high, -low, ply + 1, move)
            if value >= high:
                if fail_high < highs[i]:  # beyond what beta allows: the node fails high
                    return self._chance_cut(
                        max(beta, total + probability * value + rest_low), outcomes, i + 1, ply
                    )
                value = highs[i]  # at its bound: exactly the bound
            elif value <= low:
                if fail_low > lows[i]:
                    return self._chance_cut(
                        min(alpha, total + probability * value + rest_high), outcomes, i + 1, ply
                    )
                value = lows[i]
            total += probability * value
        return total

    def _probe(
        self,
        outcomes: list[tuple[Move, float, State]],
        side: int,
        lows: list[float],
        highs: list[float],
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
    ) -> float | None:
        """Star2's probing phase: each outcome's position searched for its first move only,
        a bound on its value from the side of the player to move there (a lower bound for it;
        seen from the chance node, whose side to move is ``side``, a lower bound where that
        player is the node's, an upper bound where it is the other). Narrows ``lows`` and
        ``highs``; the cut value when the bounds already put the node outside its window,
        else None."""
        for i, (move, probability, child) in enumerate(outcomes):
            if child.is_chance or child.outcome() is not None:
                continue
            other_low = sum(p * lows[j] for j, (_, p, _) in enumerate(outcomes) if j != i)
            other_high = sum(p * highs[j] for j, (_, p, _) in enumerate(outcomes) if j != i)
            if child.to_move == side:  # a lower bound: it may show the node at or above beta
                target = min(highs[i], (beta - other_low) / probability)
                if target <= lows[i]:
                    continue
                found = self._first_move(child, depth, lows[i], target, ply + 1, move)
                if found is not None:
                    lows[i] = max(lows[i], min(found, highs[i]))
            else:  # seen from the node, an upper bound: it may show it at or below alpha
                target = max(lows[i], (alpha - other_high) / probability)
                if target >= highs[i]:
                    continue
                found = self._first_move(child, depth, -highs[i], -target, ply + 1, move)
                if found is not None:
                    highs[i] = min(highs[i], max(-found, lows[i]))
            low_sum = sum(p * lows[j] for j, (_, p, _) in enumerate(outcomes))
            if low_sum >= beta:
                return self._chance_cut(low_sum, outcomes, len(outcomes), ply)
            high_sum = sum(p * highs[j] for j, (_, p, _) in enumerate(outcomes))
            if high_sum <= alpha:
                return self._chance_cut(high_sum, outcomes, len(outcomes), ply)
        return None

    def _first_move(
        self, state: State, depth: int, alpha: float, beta: float, ply: int, move: Move
    ) -> float | None:
        """A probe: ``state`` (a player's node) searched for its first move only, within the
        window seen from ``state``: a lower bound on its value when above ``alpha``."""
        self.probes += 1
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        first: Move | None = None
        if self.table is not None:
            entry = self.table.probe(self.key(state))
            if entry is not None:
                if entry.depth >= depth and entry.flag in (EXACT, LOWER):
                    self.hits += 1
                    return entry.value
                first = entry.move
        watching = self.watch is not None
        if watching:
            path = self._at(ply, move)
            self._emit(ev.ENTER, path, alpha, beta, None, ev.PROBE)
        probe = self.ordered(state, first, ply)[0]
        child = state.play(probe)
        if child.to_move == state.to_move:
            value = self.search(child, depth - 1, alpha, beta, ply + 1, probe)
        else:
            value = -self.search(child, depth - 1, -beta, -alpha, ply + 1, probe)
        if watching:
            self._emit(ev.VALUE, path, alpha, beta, value, ev.PROBE)
        return value if value > alpha else None

    def _chance_cut(
        self, value: float, outcomes: list[tuple[Move, float, State]], searched: int, ply: int
    ) -> float:
        """A chance node cut: the outcomes from ``searched`` on are never searched."""
        self.chance_cuts += 1
        self.cutoffs += 1
        if self.watch is not None:
            self._cut([m for m, _, _ in outcomes[searched:]], ply, value, value, ev.STAR)
        return value

    # --- observing ------------------------------------------------------------------------

    def _at(self, ply: int, move: Move | None) -> tuple[Move, ...]:
        del self.path[max(ply - 1, 0) :]
        if ply > 0:
            self.path.append(move)
        return tuple(self.path)

    def _emit(
        self,
        kind: str,
        path: tuple[Move, ...],
        alpha: float | None,
        beta: float | None,
        value: float | None,
        reason: str | None,
    ) -> None:
        if self.watch is None:
            return
        low = None if alpha is None or alpha == -_INF else alpha
        high = None if beta is None or beta == _INF else beta
        self.watch(SearchEvent(kind, path, low, high, value, reason))  # type: ignore[arg-type]

    def _cut(self, moves: Sequence[Move], ply: int, value: float, beta: float, reason: str) -> None:
        base = tuple(self.path[:ply])
        for move in moves:
            self._emit(ev.CUT, (*base, move), value, beta, value, reason)


class ChanceRoot:
    """The root of a serial search of a game of chance: every root move searched by the
    engine, the best so far bounding the others (every one exactly when analyzing); at a
    chance node, every outcome, and their expectation."""

    def __init__(self, engine: ChanceEngine, state: State, options: SearchOptions) -> None:
        self.engine = engine
        self.state = state
        self.order = options.tie_order(state)
        self.current: Iteration | None = None

    @property
    def counters(self) -> ChanceEngine:
        return self.engine

    def iteration(self, depth: int, analyze: bool) -> Iteration:
        engine, state = self.engine, self.state
        engine.visit()
        horizon = engine.horizon
        root = engine._at(0, None) if engine.watch is not None else ()
        if engine.watch is not None:
            engine._emit(ev.ENTER, root, None, None, None, None)
        self.current = None
        found = self._outcomes(depth) if state.is_chance else self._moves(depth, analyze)
        found.exact = engine.horizon == horizon
        if engine.table is not None and found.best:
            # the root's best move leads the next iteration, and its value answers a later
            # search of the same position
            stored = RESOLVED if found.exact else depth
            engine.table.store(engine.key(state), found.value, EXACT, stored, found.best[0])  # type: ignore[arg-type]
        if engine.watch is not None:
            reason = ev.CHANCE if state.is_chance else ev.SEARCHED
            engine._emit(ev.VALUE, root, None, None, found.value, reason)
        return found

    def _moves(self, depth: int, analyze: bool) -> Iteration:
        engine, state = self.engine, self.state
        first = None
        if engine.table is not None:
            entry = engine.table.probe(engine.key(state))
            first = entry.move if entry is not None else None
        values: dict[Move, float] = {}
        lines: dict[Move, tuple[Move, ...]] = {}
        best = -_INF
        side = state.to_move
        for move in engine.ordered(state, first, 0):
            child = state.play(move)
            # analyzing (or no pruning): every move exactly; else a window just below the
            # best so far, so that a move as good as the best is told from a worse one
            alpha = -_INF if analyze or not engine.prune or best == -_INF else best - 2 * TIE_WINDOW
            if child.to_move == side:
                value = engine.search(child, depth - 1, alpha, _INF, 1, move)
            else:
                value = -engine.search(child, depth - 1, -_INF, -alpha, 1, move)
            values[move] = value
            lines[move] = (move, *engine.line(1))
            best = max(best, value)
            self.current = self._found(values, lines)
        return self._found(values, lines)

    def _found(self, values: dict[Move, float], lines: dict[Move, tuple[Move, ...]]) -> Iteration:
        value, best = ranked(self.order, values)
        pv = lines[best[0]] if best else ()
        return Iteration(value, False, dict(values), best, pv, _pair(self.state, value))

    def _outcomes(self, depth: int) -> Iteration:
        engine, state = self.engine, self.state
        side = state.to_move
        values: dict[Move, float] = {}
        total = 0.0
        for move, probability in state.chance_outcomes():
            child = state.play(move)
            value = engine.search(child, depth, -_INF, _INF, 1, move)
            values[move] = value if child.to_move == side else -value
            total += float(probability) * values[move]
        return Iteration(total, False, values, (), (), _pair(state, total))

    def partial(self) -> Iteration | None:
        return self.current

    def fallback(self) -> Move | None:
        if self.state.is_chance:
            return None
        return self.engine.ordered(self.state, None)[0]


#: A window this far below the best root value so far tells a move as good as it (a tie
#: within :data:`~.numeric.TIE`) from a worse one.
TIE_WINDOW = 1e-9


def _pair(state: State, value: float) -> tuple[float, ...]:
    """The value to each of the two players: ``value`` to the side to move, its negation to
    the other (a zero-sum game)."""
    return tuple(value if p == state.to_move else -value for p in range(2))


class ChanceRunner:
    """A search of a game of chance by one of :data:`CHANCE_ALGORITHMS`, as the searchers
    run it (see :data:`.policy.RUNNERS`): iterative deepening under the limits, a result per
    completed iteration. Observed searches emit the engine's events (a chance node's value
    has the reason ``chance``, an outcome never searched is cut with the reason ``star``, a
    Star2 probe enters and leaves with the reason ``probe``)."""

    observes = True
    #: Its table entries are exact values and bounds of positions, whatever the search: a
    #: searcher's table serves all its searches of one game.
    shares_table = True

    def __init__(self, algorithm: str) -> None:
        self.algorithm = algorithm

    def subtree(self, state: State, depth: int, options: SearchOptions, **budget: Any) -> Subtree:
        """A worker's task: see :func:`subtree` (``me`` is the paranoid search's; unused)."""
        budget.pop("me", None)
        return subtree(self.algorithm, state, depth, options, **budget)

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
        start = time.perf_counter()
        if state.players != 2:
            raise ValueError(
                f"{self.algorithm} searches games of two players; this one has "
                f"{state.players}: use maxn or paranoid"
            )
        engine = ChanceEngine(
            self.algorithm,
            value_bounds(state),
            table=_table(options, table),
            symmetry=options.symmetry,
            hints=options.hints and self.algorithm != "expectiminimax",
            evaluate=options.evaluate,
            order=options.order,
            deadline=start + limits.time if limits.time is not None else None,
            max_nodes=limits.nodes,
            stop=stop,
            observer=observer,
        )
        meaning = meaning_of(state)
        outcome = state.outcome()
        if outcome is not None:
            value = engine.terminal(state, outcome)
            yield from deepen(
                state,
                limits,
                options,
                _Finished(engine, value, state),
                self.algorithm,
                meaning,
                start,
                analyze,
            )
            return
        yield from deepen(
            state,
            limits,
            options,
            ChanceRoot(engine, state, options),
            self.algorithm,
            meaning,
            start,
            analyze,
        )


def _table(options: SearchOptions, given: TranspositionTable | None) -> TranspositionTable | None:
    """The table a search uses: the searcher's (``given``), else one of its own."""
    if not options.table:
        return None
    return given if given is not None else TranspositionTable(options.entries)


def subtree(
    algorithm: str,
    state: State,
    depth: int,
    options: SearchOptions,
    *,
    deadline: float | None,
    max_nodes: int | None,
    table: TranspositionTable | None,
) -> Subtree:
    """``state`` searched whole by ``algorithm`` to ``depth`` (a worker's task of a root
    split over workers): raises :class:`~.engine.SearchStopped` when the budget runs out."""
    engine = ChanceEngine(
        algorithm,
        value_bounds(state),
        table=_table(options, table),
        symmetry=options.symmetry,
        hints=options.hints and algorithm != "expectiminimax",
        evaluate=options.evaluate,
        order=options.order,
        deadline=deadline,
        max_nodes=max_nodes,
    )
    value = engine.search(state, depth, -_INF, _INF, 0)
    return Subtree.of(value, _pair(state, value), engine.line(0), engine)


class _Finished:
    """The root of a finished game: its value, at once."""

    def __init__(self, engine: ChanceEngine, value: float, state: State) -> None:
        self.engine, self.value, self.state = engine, value, state

    @property
    def counters(self) -> ChanceEngine:
        return self.engine

    def iteration(self, depth: int, analyze: bool) -> Iteration:
        return Iteration(self.value, True, values=_pair(self.state, self.value))

    def partial(self) -> Iteration | None:
        return None

    def fallback(self) -> Move | None:
        return None


#: The runners of this module, by algorithm (see :data:`.policy.RUNNERS`).
RUNNERS = {name: ChanceRunner(name) for name in CHANCE_ALGORITHMS}
