"""The one deepening loop, shared by the serial and the parallel searcher.

A searcher supplies a :class:`Step`: how to search the root to one depth (in this process, or
split over workers). This module runs the iterations under the limits, builds every result,
falls back on what is known when a budget runs out, and turns Ctrl-C into
:class:`~.result.SearchInterrupted` carrying the best result known.
"""

from __future__ import annotations

import random
import sys
import threading
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..game import Move, Outcome, Payoff, State
from . import policy
from .engine import SearchStopped
from .events import Observer
from .options import RECURSION_SAFE_PLIES, Limits, SearchOptions
from .result import (
    UNLIMITED,
    Counters,
    Progress,
    SearchInterrupted,
    SearchResult,
    build_result,
    interrupted,
    rank_moves,
)
from .score import Score

__all__ = ["Root", "Searching", "Step", "check_recursion", "check_state", "deepen"]


@dataclass
class Root:
    """The root after one iteration (or part of one): each move's value, counted from the root
    and from its side to move (exact for the best moves, a bound below them for the others);
    the line each move's search saw; the order the moves were tried in; and whether no depth
    limit cut any line short."""

    values: dict[Move, int] = field(default_factory=dict)
    lines: dict[Move, list[Move]] = field(default_factory=dict)
    order: list[Move] = field(default_factory=list)
    exact: bool = False


class Step(Protocol):
    """How one searcher searches the root to one depth."""

    @property
    def counters(self) -> Counters: ...

    def iteration(self, depth: int, analyze: bool, alone: bool) -> Root:
        """Search every root move to ``depth`` (``alone``: the only iteration). Raises
        :class:`~.engine.SearchStopped` when the budget runs out."""

    def partial(self) -> Root | None:
        """The moves of the iteration under way whose values are known, if any."""

    def line(self, root: Root, move: Move, value: int, depth: int | None) -> tuple[Move, ...]:
        """The principal variation starting with ``move``, whose value is ``value``: at most
        ``depth`` moves, or (None, for an exact value) to the end of the game."""

    def fallback(self) -> Move:
        """A move to play when nothing at all is known: the first in the search's order."""


def deepen(
    state: State,
    limits: Limits,
    options: SearchOptions,
    step: Step,
    algorithm: str,
    start: float,
    analyze: bool,
) -> Iterator[SearchResult]:
    """Yield a result after every completed iteration; the last one is the answer.

    Without a budget (and without ``options.iterative``) one iteration goes straight to the
    depth limit or to the end of the game. With a time or node budget the search deepens one
    ply at a time until the budget runs out or the value is exact; the last result is then
    marked incomplete and holds the last completed iteration's answer, or the part of the
    first iteration that finished, or the first move in the search's order.
    """
    max_depth = limits.depth if limits.depth is not None else UNLIMITED
    longest = state.max_plies
    if (
        limits.bounded
        and algorithm != "alphabeta-stack"
        and (longest is None or longest - state.ply > RECURSION_SAFE_PLIES)
    ):
        # A recursive search of a long game under a budget deepens no further than recursion
        # allows (an exact one is refused up front, or fails with a clear error).
        max_depth = min(max_depth, RECURSION_SAFE_PLIES)
    repeat = limits.bounded or options.iterative
    depths: Sequence[int] = range(1, max_depth + 1) if repeat else (max_depth,)
    last: SearchResult | None = None
    try:
        for depth in depths:
            try:
                root = step.iteration(depth, analyze, not repeat)
            except SearchStopped:
                break
            last = _result(state, step, root, algorithm, start, depth, analyze, options.rng)
            yield last
            if last.exact or depth >= max_depth:
                return
        last = last or _known(state, step, algorithm, start, analyze, options.rng)
        if last is None:
            move = step.fallback()
            last = build_result(
                state, step.counters, algorithm, start, (move,), (), Score(0, False), None, 0,
                None,
            )
        yield interrupted(last, step.counters, start)
    except SearchInterrupted:
        raise
    except KeyboardInterrupt:
        known = last or _known(state, step, algorithm, start, analyze, options.rng)
        raise SearchInterrupted(
            interrupted(known, step.counters, start) if known is not None else None
        ) from None


def _known(
    state: State,
    step: Step,
    algorithm: str,
    start: float,
    analyze: bool,
    rng: random.Random | None,
) -> SearchResult | None:
    """The result of the part of an iteration that finished, if any move's value is known."""
    root = step.partial()
    if root is None or not root.values:
        return None
    result = _result(state, step, root, algorithm, start, 0, analyze, rng)
    return replace(result, score=Score(result.score.value, False), exact=False)


def _result(
    state: State,
    step: Step,
    root: Root,
    algorithm: str,
    start: float,
    depth: int,
    analyze: bool,
    rng: random.Random | None,
) -> SearchResult:
    legal = list(state.legal_moves())
    value, best, scores = rank_moves(legal, root.values, root.exact, analyze)
    if rng is not None:
        first = rng.choice(best)
    else:
        first = next((m for m in root.order if m in best), best[0])
    pv = step.line(root, first, value, None if root.exact else depth)
    if root.exact:
        # an exact result's depth is its line's length to the end of the game: the same
        # whatever the searcher's table held before (which can settle an iteration early)
        depth = len(pv)
    return build_result(
        state, step.counters, algorithm, start, best, pv, Score(value, root.exact), scores,
        depth, None, [first],
    )


class Searching(ABC):
    """What the serial and the parallel searcher share: their options, :meth:`iterate`'s
    checks and :meth:`search`; each supplies :meth:`_iterate`, its own way to run."""

    options: SearchOptions

    def iterate(
        self,
        state: State,
        limits: Limits | None = None,
        *,
        analyze: bool = False,
        stop: threading.Event | None = None,
        observer: Observer | None = None,
        analyse: bool | None = None,
        progress: Progress | None = None,
    ) -> Iterator[SearchResult]:
        """Yield a result after every completed iteration; the last one is the answer (see
        :func:`deepen`). ``analyze``: give every legal move its own value. ``stop``: set it
        (from another thread) to end the search as a spent budget does. ``observer``: called
        with every step of the search (see :mod:`.events`); the search is then the generic
        engine's, also for a game with a solver of its own. ``progress``: called, in this
        thread, with what the search has proven so far while it works, between its results:
        an analysis by a game's own solver tells every move's bounds and the position's
        (``score_bounds``) each time they narrow, each result's inside the last one's, all
        marked incomplete (see :func:`.policy.solver_progress`; other searches tell their
        progress by their iterations). (``analyse``: the old spelling of ``analyze``,
        deprecated.)"""
        analyze = renamed(analyze, analyse)
        check_state(state)
        if observer is not None and not callable(observer):
            raise TypeError(f"observer must be a function of one event, not {observer!r}")
        limits = policy.limits_for(state, Limits.of(limits))
        algorithm = self.options.choose_algorithm(state, limits)
        policy.check_algorithm(state, algorithm)
        if observer is not None or not policy.uses_searcher(self.options, state):
            check_recursion(state, algorithm, limits)  # a game's own searcher does not recurse
        return self._iterate(state, limits, algorithm, analyze, stop, observer, progress)

    @abstractmethod
    def _iterate(
        self, state: State, limits: Limits, algorithm: str, analyze: bool,
        stop: threading.Event | None, observer: Observer | None = None,
        progress: Progress | None = None,
    ) -> Iterator[SearchResult]:
        """:meth:`iterate` once the arguments are checked and the algorithm chosen."""

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        *,
        analyze: bool = False,
        on_iteration: Callable[[SearchResult], None] | None = None,
        stop: threading.Event | None = None,
        observer: Observer | None = None,
        analyse: bool | None = None,
        progress: Progress | None = None,
    ) -> SearchResult:
        """Search ``state`` within ``limits`` and return the result.

        ``analyze``: also give every legal move its own value (``move_scores``).
        ``on_iteration``: called with the result of every completed iteration.
        ``observer``: called with every step of the search (see :mod:`.events`).
        ``progress``: called with what the search has proven so far while it works (see
        :meth:`iterate`).
        Ctrl-C raises :class:`~.result.SearchInterrupted` with the best result known (also when
        it comes between iterations, in ``on_iteration``). (``analyse``: the old spelling of
        ``analyze``, deprecated.)
        """
        analyze = renamed(analyze, analyse)
        result: SearchResult | None = None
        try:
            for result in self.iterate(
                state, limits, analyze=analyze, stop=stop, observer=observer, progress=progress
            ):
                if on_iteration is not None:
                    on_iteration(result)
        except SearchInterrupted:
            raise
        except KeyboardInterrupt:
            raise SearchInterrupted(
                None if result is None else replace(result, complete=False)
            ) from None
        assert result is not None
        return result


def renamed(analyze: bool, analyse: bool | None) -> bool:
    """``analyze``, or the value given under its old spelling ``analyse`` (with a
    :class:`DeprecationWarning`)."""
    if analyse is None:
        return analyze
    warnings.warn(
        "the keyword 'analyse' is now spelled 'analyze'", DeprecationWarning, stacklevel=3
    )
    return analyse


def check_state(state: object) -> None:
    """Refuse what is not a position the search can start from, naming the problem."""
    if not isinstance(state, State):
        raise TypeError(f"search needs a State, not {type(state).__name__} {state!r}")
    outcome = state.outcome()
    if outcome is not None and not isinstance(outcome, (Outcome, Payoff)):
        raise TypeError(
            f"{type(state).__name__}.outcome() must return an Outcome, a Payoff or None, "
            f"not {outcome!r}"
        )
    if outcome is None and not list(state.legal_moves()):
        raise ValueError(
            f"{type(state).__name__} {str(state)!r} has no legal moves but outcome() says the "
            "game goes on: a finished game must return its Outcome"
        )


def check_recursion(state: State, algorithm: str, limits: Limits | None = None) -> None:
    """Refuse, before it starts, a recursive search of a game that may outlast the recursion
    limit within the search's depth."""
    longest = state.max_plies
    left = None if longest is None else longest - state.ply
    if limits is not None and limits.depth is not None:
        left = limits.depth if left is None else min(left, limits.depth)
    if policy.recurses(algorithm) and left is not None and left > sys.getrecursionlimit() - 100:
        raise ValueError(
            f"{algorithm!r} recurses once per ply and this game may last {left} "
            "more plies, beyond Python's recursion limit: use the algorithm alphabeta-stack (an "
            "explicit stack, no recursion)"
        )
