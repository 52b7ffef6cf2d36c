"""The root of a search whose values are numbers: games of chance (expectiminimax, *-minimax,
:mod:`.chance`) and of more than two players (max^n, paranoid, :mod:`.maxn`).

Such a search is not an iteration of the alpha-beta engine: its values are floats (an
expectation), or one per player. This module holds what these searches share, the way
:mod:`.deepening` holds it for alpha-beta: the deepening loop under the limits (depth 1, 2, ...
under a time or node budget, trusting only completed iterations), Ctrl-C turned into
:class:`~.result.SearchInterrupted` with the best result known, and the result built from
the root's values (:class:`Iteration`), with :attr:`~.score.Score.meaning` saying what the
value means. A searcher's *root* (:class:`Root`) searches one iteration: in this process
(:class:`SerialRoot`, with windows shared between the root moves), or split over worker
processes (the parallel searcher).

Values closer than :data:`TIE` are equal (an expectation summed in another order differs in
its last bits), so that ties go to the first move in order, as in every other search.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..game import Move, State
from .engine import SearchStopped
from .options import Limits, SearchOptions
from .result import UNLIMITED, Counters, SearchInterrupted, SearchResult, interrupted
from .score import Score

__all__ = ["TIE", "Iteration", "Root", "Subtree", "deepen", "ranked", "tied"]

#: Two values closer than this are equal (see the module's docstring).
TIE = 1e-9


def tied(value: float, best: float) -> bool:
    """Whether ``value`` is as good as ``best`` (within :data:`TIE`)."""
    return value >= best - TIE


@dataclass
class Iteration:
    """The root after one iteration: ``value`` from the root's side to move (at a chance node,
    the expectation over the outcomes); ``move_values`` each searched move's value from the
    same view (exact for the best moves, and for every move when analyzing; at a chance node,
    every outcome's); ``best`` the best moves in the order they tie in (none at a chance
    node); ``pv`` the line from the root; ``exact`` when no depth limit cut a line short.
    ``values`` and ``vectors``: the value to every player of the root and of each move (max^n,
    and the two players' ``v, -v``)."""

    value: float
    exact: bool
    move_values: dict[Move, float] = field(default_factory=dict)
    best: tuple[Move, ...] = ()
    pv: tuple[Move, ...] = ()
    values: tuple[float, ...] | None = None
    vectors: dict[Move, tuple[float, ...]] | None = None


class Root(Protocol):
    """How a numeric search searches its root, one iteration at a time."""

    @property
    def counters(self) -> Counters: ...

    def iteration(self, depth: int, analyze: bool) -> Iteration:
        """Search the root ``depth`` player moves deep (:data:`~.result.UNLIMITED`: to the end);
        raises :class:`~.engine.SearchStopped` when the budget runs out."""

    def partial(self) -> Iteration | None:
        """What the iteration under way knows, if any move's value is known."""

    def fallback(self) -> Move | None:
        """A move to play when nothing is known (None at a chance node)."""


def ranked(order: Sequence[Move], values: Mapping[Move, float]) -> tuple[float, tuple[Move, ...]]:
    """The best value of ``values`` and the moves that reach it (within :data:`TIE`), in
    ``order``."""
    known = [m for m in order if m in values]
    best = max(values[m] for m in known)
    return best, tuple(m for m in known if tied(values[m], best))


def deepen(
    state: State,
    limits: Limits,
    options: SearchOptions,
    root: Root,
    algorithm: str,
    meaning: str,
    start: float,
    analyze: bool,
) -> Iterator[SearchResult]:
    """Yield a result after every completed iteration; the last is the answer.

    Without a budget (and without ``options.iterative``) one iteration goes to the depth
    limit or to the end of the game; with a time or node budget the search deepens one player
    move at a time until the budget runs out or the value is exact, and the last result is
    the last completed iteration's, marked incomplete (or what the first iteration knew, or
    the first move in order)."""
    max_depth = limits.depth if limits.depth is not None else UNLIMITED
    repeat = limits.bounded or options.iterative
    depths: Sequence[int] = range(1, max_depth + 1) if repeat else (max_depth,)
    last: SearchResult | None = None
    rng = options.rng

    def from_partial() -> SearchResult | None:
        # what an unfinished first iteration knew, as an incomplete result
        known = root.partial()
        if known is None:
            return None
        return result(
            state,
            replace(known, exact=False),
            root.counters,
            algorithm,
            meaning,
            start,
            0,
            analyze,
            rng,
            options.tie_order(state),
        )

    try:
        for depth in depths:
            try:
                found = root.iteration(depth, analyze)
            except SearchStopped:
                break
            except RecursionError:
                raise ValueError(too_deep(algorithm, depth)) from None
            last = result(
                state,
                found,
                root.counters,
                algorithm,
                meaning,
                start,
                depth,
                analyze,
                rng,
                options.tie_order(state),
            )
            yield last
            if found.exact or depth >= max_depth:
                return
        if last is None:
            last = from_partial()
        if last is None:
            move = root.fallback()
            nothing = Iteration(0.0, False, best=() if move is None else (move,))
            last = result(
                state,
                nothing,
                root.counters,
                algorithm,
                meaning,
                start,
                0,
                False,
                None,
                options.tie_order(state),
            )
        yield interrupted(last, root.counters, start)
    except SearchInterrupted:
        raise
    except KeyboardInterrupt:
        known_result = last if last is not None else from_partial()
        raise SearchInterrupted(
            None if known_result is None else interrupted(known_result, root.counters, start)
        ) from None


def too_deep(algorithm: str, depth: int) -> str:
    """Why a search ran out of Python's recursion: the game is deeper than it allows, or goes
    round in circles (a position that comes back, as in Pig: a roll of 1 hands the turn on
    with the scores as they were)."""
    where = "to the end" if depth == UNLIMITED else f"{depth} moves deep"
    return (
        f"{algorithm!r} ran past Python's recursion limit searching {where}: the game is that "
        "deep, or goes round in circles (a position comes back): give the search a depth or "
        "a time limit"
    )


def result(
    state: State,
    found: Iteration,
    counters: Counters,
    algorithm: str,
    meaning: str,
    start: float,
    depth: int,
    analyze: bool,
    rng: random.Random | None,
    order: Sequence[Move],
) -> SearchResult:
    """The result of an iteration: the move is the first best one in ``order`` (or a random
    one of them with ``rng``), every score a number that means ``meaning``."""
    best = found.best
    move: Move | None = None
    if best:
        move = (
            rng.choice(best) if rng is not None else next((m for m in order if m in best), best[0])
        )
    pv = found.pv
    if move is not None and (not pv or pv[0] != move):
        pv = (move,)

    def score(value: float) -> Score:
        return Score(value, found.exact, True, meaning)  # type: ignore[arg-type]

    scores = None
    vectors = None
    if analyze or not best:  # at a chance node, every outcome's value is the point
        legal = list(state.legal_moves())
        scores = {m: score(found.move_values[m]) for m in legal if m in found.move_values}
        if found.vectors is not None:
            vectors = {m: found.vectors[m] for m in legal if m in found.vectors}
    return SearchResult(
        move=move,
        best_moves=tuple(m for m in state.legal_moves() if m in best),
        score=score(found.value),
        pv=pv,
        move_scores=scores,
        depth=depth if depth != UNLIMITED else counters.seldepth,
        seldepth=counters.seldepth,
        nodes=counters.nodes,
        table_hits=counters.hits,
        cutoffs=counters.cutoffs,
        elapsed=time.perf_counter() - start,
        exact=found.exact,
        complete=True,
        algorithm=algorithm,
        to_move=state.to_move,
        evaluations=counters.horizon,
        values=found.values,
        move_values=vectors,
        state=state,
    )


def finite(value: float) -> bool:
    """Whether ``value`` is a finite number (a bound that is known)."""
    return not math.isinf(value)


@dataclass(frozen=True)
class Subtree:
    """One position searched whole to a depth, for a root split over workers: its value
    (from its side to move's view; the paranoid search's root player's), its value to every
    player, its line, and what the search counted."""

    value: float
    vector: tuple[float, ...] | None
    line: tuple[Move, ...]
    nodes: int
    hits: int
    cutoffs: int
    horizon: int
    seldepth: int

    @classmethod
    def of(
        cls,
        value: float,
        vector: tuple[float, ...] | None,
        line: Sequence[Move],
        counters: Counters,
    ) -> Subtree:
        return cls(
            value,
            vector,
            tuple(line),
            counters.nodes,
            counters.hits,
            counters.cutoffs,
            counters.horizon,
            counters.seldepth,
        )
