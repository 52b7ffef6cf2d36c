"""What a search found (:class:`SearchResult`), built the same way by every searcher."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..display import show
from ..game import FIRST, Move, State
from .score import WIN_MIN, Score

__all__ = [
    "UNLIMITED",
    "Counters",
    "Line",
    "MoveStats",
    "Progress",
    "SearchInterrupted",
    "SearchResult",
    "build_result",
    "interrupted",
    "rank_moves",
]

#: The depth of a search with no depth limit.
UNLIMITED = 1 << 29


@dataclass(frozen=True)
class MoveStats:
    """What a search that is not alpha-beta knows of one root move, beside its score.

    Monte Carlo tree search: ``visits`` (the simulations through the move) and ``mean`` (their
    mean reward, in [0, 1], to the side to move at the root: a win 1, a draw 1/2, a loss 0).
    Proof-number search: ``proof`` and ``disproof``, the move's proof and disproof numbers for
    the question the search answered last (does the side to move at the root win? or, once
    that is disproved, does it at least draw?): 0 proof for a move proven to do so, 0
    disproof for one proven not to. None where a figure does not apply.
    """

    visits: int | None = None
    mean: float | None = None
    proof: int | None = None
    disproof: int | None = None


@dataclass(frozen=True)
class Line:
    """One of a search's best lines: the ``score`` of its first move (from the view of the
    side to move at the root) and its moves (``pv``)."""

    score: Score
    pv: tuple[Move, ...]

    @property
    def move(self) -> Move:
        return self.pv[0]


@dataclass(frozen=True)
class SearchResult:
    """What a search found. Scores are from the view of the side to move at the root.

    ``move`` is the move to play: of ``best_moves`` (in legal order), the first in the
    ``order`` hook's order when one was given, else the first in legal order, or a random one
    of them when the searcher was given a random generator. ``exact`` is True when the score is the
    game-theoretic value (no depth limit cut any line short); ``complete`` is False when a time
    or node budget (or Ctrl-C) interrupted the search and the result is the best known then.

    A game's own solver cut short proves bounds rather than values. Then ``move_bounds`` holds,
    for each move it left open, the proven ``(lower, upper)`` ends of its value (exact
    :class:`~.score.Score` objects: a win, loss or draw each; a move with an exact value has
    none), and ``score_bounds`` those of the position's value when ``score`` is not exact:
    the best lower end over the moves, and the greatest upper end (an exact value counting as
    both). ``move_scores`` and ``score`` then hold only the lower ends, which rank the moves
    and choose the one to play; a value to show is the pair (see
    :func:`unbeatable.report.describe`). Both are None when nothing is open, and always for a
    depth-limited search (its heuristic values are estimates, not bounds).

    Monte Carlo tree search and proof-number search (algorithms ``mcts`` and ``pns``) prove
    which of a win, a draw or a loss a position is worth, not always in how many moves: an
    exact ``score`` of theirs may come with ``score_bounds`` (the two ends of the distance,
    both of the same kind), and ``move_stats`` holds their own figures per root move
    (:class:`MoveStats`: visits and mean rewards, proof and disproof numbers); None for
    the other algorithms.

    A search of a game of chance or of more than two players (expectiminimax, *-minimax,
    max^n, paranoid) gives numbers: ``score.meaning`` says what they mean (an expected score,
    an expected payoff, max^n's payoff, the payoff the paranoid search guarantees).
    ``values`` then holds the position's value to every player, by player (max^n's vector;
    for two players ``v, -v``), and ``move_values`` each analyzed move's. At a chance node
    (a roll to come) ``move`` is None and ``best_moves`` empty: the score is the expectation
    over the outcomes, whose values ``move_scores`` holds.
    ``lines``: the best moves' lines, best first, each with its score (a game's own searcher's
    MultiPV: :attr:`~.options.SearchOptions.multipv` of them, every move's when analyzing);
    empty when the searcher gave only ``pv``.
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
    move_bounds: Mapping[Move, tuple[Score, Score]] | None = None
    score_bounds: tuple[Score, Score] | None = None
    move_stats: Mapping[Move, MoveStats] | None = None
    values: tuple[float, ...] | None = None
    move_values: Mapping[Move, tuple[float, ...]] | None = None
    lines: tuple[Line, ...] = ()
    #: The position searched (for its notation and picture; not compared).
    state: State | None = field(default=None, compare=False, repr=False)

    def _repr_html_(self) -> str | None:
        """The result as a table in Jupyter: the board, every move's score, the line and the
        figures (:func:`unbeatable.drawing.result_html`)."""
        return show("result", self)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else math.inf

    @property
    def counts_cutoffs(self) -> bool:
        """Whether ``cutoffs`` and ``table_hits`` were counted: not by a game's own compiled
        searcher or solver (algorithms ``searcher`` and ``solver``), which count only nodes
        (their two fields are 0, not a count)."""
        return self.algorithm not in ("searcher", "solver")


#: ``progress(result)``: what a search has proven so far, told while it works (see
#: :meth:`.deepening.Searching.iterate`).
Progress = Callable[["SearchResult"], None]


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search. ``result`` is the best known when it came (marked incomplete),
    or None when nothing was known yet. A :class:`KeyboardInterrupt`, so that code that does
    not care still stops."""

    def __init__(self, result: SearchResult | None) -> None:
        super().__init__("search interrupted")
        self.result = result


class Counters(Protocol):
    """What a search counted (an :class:`~.engine.Engine`, or a parallel search's totals)."""

    nodes: int
    hits: int
    cutoffs: int
    horizon: int
    seldepth: int


def rank_moves(
    legal: Sequence[Move],
    values: Mapping[Move, int],
    exact: bool,
    analyze: bool,
) -> tuple[int, tuple[Move, ...], dict[Move, Score] | None]:
    """From the root moves' values: the best value, the moves that reach it (in legal order),
    and when analyzing every move's score (exact if the search was; a win or loss always is).
    Moves without a value (a search cut short) are left out."""
    known = [m for m in legal if m in values]
    best_value = max(values[m] for m in known)
    best = tuple(m for m in known if values[m] >= best_value)
    scores = None
    if analyze:
        scores = {
            m: Score(values[m], exact or abs(values[m]) >= WIN_MIN) for m in legal if m in values
        }
    return best_value, best, scores


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
    order: Sequence[Move] | None = None,
) -> SearchResult:
    """The result of a completed iteration: the move is the first best move in ``order`` (the
    order the search tried the moves; default: legal order), or a random one of them with
    ``rng``; the principal variation starts with that move."""
    if not best:
        move = None
    elif rng is not None:
        move = rng.choice(best)
    else:
        move = next((m for m in order or () if m in best), best[0])
    if move is not None and (not pv or pv[0] != move):
        pv = (move,)
    if state.numeric_outcomes:  # exact values are numbers, not wins, draws and losses
        score = replace(score, numeric=True)
        if scores is not None:
            scores = {m: replace(s, numeric=True) for m, s in scores.items()}
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
        state=state,
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
