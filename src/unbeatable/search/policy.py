"""The search's policies, in one place: every front end and both searchers ask here.

* **A game's own solver** (Connect Four's): when it answers instead of the generic search
  (:func:`uses_solver`, :func:`solver_may_answer`), how a budget is shared with the game's
  evaluation when a player needs a move (:func:`by_solver`), how its answer becomes a result
  (:func:`solver_result`) with its line (:func:`solver_line`), and :func:`solve`.
* **A game's own searcher** (chess's compiled engine, a heuristic search): when it answers
  instead of the generic search (:func:`uses_searcher`) and how its answers become results
  (:func:`by_searcher`, :func:`searcher_result`).
* **How long a search runs** when nobody says: a game too large to solve thinks for the times it
  declares (:meth:`~unbeatable.game.State.thinking_time`: chess thinks 5 s for a search, 1 s for
  an opponent's move on the page, 2 s for an analysis there), and a front end with a time cap
  (the web server's) gets limits held inside it (:func:`limits_for`, :func:`within`).
* **A player stopped early** (Ctrl-C before anything was known): the move it plays
  (:func:`move_when_stopped`), and whether perfect play may take long enough to warn
  (:func:`may_take_long`).
* **Algorithms that are not iterations of the alpha-beta engine** (:data:`RUNNERS`: games of
  chance, of more than two players, Monte Carlo tree search, proof-number search): which
  algorithm may search which game (:func:`check_algorithm`), the one door both searchers run
  them through (:func:`run`), and those the parallel searcher runs once per worker and merges
  (:data:`ROOT_PARALLEL`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..game import Move, SearchAnswer, SearchLine, SearchRequest, SolveAnswer, SolveRequest, State
from . import mcts, pns
from .chance import CHANCE_ALGORITHMS
from .chance import RUNNERS as CHANCE_RUNNERS
from .chance import meaning_of as chance_meaning
from .events import Observer
from .maxn import RUNNERS as MAXN_RUNNERS
from .maxn import meaning_of as maxn_meaning
from .options import TWO_PLAYER_ALGORITHMS, Limits, SearchOptions
from .result import Line, SearchInterrupted, SearchResult, build_result, rank_moves
from .score import EVAL_LIMIT, WIN, Score, solve_score, value_from_solve_score

__all__ = [
    "PROBE_NODES",
    "PURPOSES",
    "QUICK_MOVE_SECONDS",
    "ROOT_PARALLEL",
    "RUNNERS",
    "TREE_SEARCHES",
    "Merger",
    "Runner",
    "by_searcher",
    "by_solver",
    "check_algorithm",
    "limits_for",
    "may_take_long",
    "meaning",
    "move_when_stopped",
    "recurses",
    "run",
    "searcher_result",
    "solve",
    "solver_line",
    "solver_may_answer",
    "solver_progress",
    "solver_result",
    "split_algorithm",
    "too_large",
    "unsolved",
    "uses_searcher",
    "uses_solver",
    "within",
]

#: What a search is for, which sets how long a game too large to solve thinks when no limit is
#: given: ``search`` (the library, the command line, UCI), ``move`` (an opponent's move in an
#: interactive front end), ``analysis`` (an analysis there).
PURPOSES = ("search", "move", "analysis")

#: A player stopped by Ctrl-C before it knew any move searches this long for one instead.
QUICK_MOVE_SECONDS = 1.0

#: Perfect play is said to take long when a search of this many nodes does not settle the
#: start's value (see :func:`may_take_long`).
PROBE_NODES = 20_000


# --- algorithms of their own ----------------------------------------------------------------


class Merger(Protocol):
    """How a parallel searcher makes one result of its workers' results of the same root
    (each run with ``analyze`` and its own random generator); ``counters``: their totals."""

    def __call__(
        self,
        state: State,
        results: Sequence[SearchResult],
        options: SearchOptions,
        analyze: bool,
        start: float,
        counters: Any,
    ) -> SearchResult: ...


#: Of :data:`RUNNERS`, those a parallel searcher runs once in every worker, on the same root
#: with its own random generator, and merges (root parallelism); it runs the others in its own
#: process, as a serial searcher would.
ROOT_PARALLEL: dict[str, Merger] = {"mcts": mcts.merge}


def recurses(algorithm: str) -> bool:
    """Whether ``algorithm`` recurses once per ply (and so cannot search games longer than
    Python's recursion allows): all but the explicit-stack alpha-beta and Monte Carlo tree
    search."""
    return algorithm not in ("alphabeta-stack", "mcts")


# --- a game's own solver ---------------------------------------------------------------------


def uses_solver(options: SearchOptions, state: State) -> bool:
    """The one rule for handing a position to the game's own solver: the game has one
    (:attr:`State.has_solver`), the position is unfinished, and no algorithm or evaluation
    was asked for."""
    return (
        state.has_solver
        and options.algorithm is None
        and options.evaluate is None
        and state.outcome() is None
    )


def solver_may_answer(limits: Limits) -> bool:
    """Whether a game's own solver answers under ``limits``: any search without a depth limit
    (a depth limit asks for the generic search with the game's evaluation). A time or node
    budget is the solver's to honour (it then answers with what it knows)."""
    return limits.depth is None


def hands_back(options: SearchOptions, state: State, limits: Limits) -> bool:
    """Whether a parallel searcher hands a search to a serial one in its own process: a
    game's own solver under a time or node budget (the solver's threads use the cores, and it
    honours the budget itself, answering with bounds when cut short), and any search that a
    game's own searcher answers (its threads are its parallel search)."""
    return (uses_solver(options, state) and solver_may_answer(limits) and limits.bounded) or (
        not uses_solver(options, state) and uses_searcher(options, state)
    )


def by_solver(
    state: State,
    options: SearchOptions,
    limits: Limits,
    counters: Any,
    start: float,
    analyze: bool,
    progress: Callable[[SearchResult], None] | None = None,
) -> SearchResult | None:
    """The result from the game's own solver's per-move scores (None if it declines, or when
    a player should let the evaluation choose). A time or node budget is the solver's to
    honour; cut short, it answers with the moves it has solved and bounds for the others, and
    the result is marked incomplete. Ctrl-C after it answered keeps its answer.

    ``progress`` (an analysis): called, while the solver works, with a result of what it has
    proven so far (:func:`solver_progress`) each time it knows more.

    A player (not ``analyze``) needs a move, which bounds that settle nothing do not give:
    under a budget, and where the game has an evaluation, the solver gets half of it, and
    when it has neither settled the best move by then (all moves placed, or a proven win)
    nor proven a move to hold at least a draw, None lets the generic search with the game's
    evaluation choose in what is left. Ctrl-C before the solver proved any move's value
    leaves a player no move (``SearchInterrupted(None)``: see :func:`move_when_stopped`).
    ``counters``: the search's counters (an engine), which the solver's nodes are added to.
    """
    fallback = not analyze and limits.bounded and state.has_evaluation
    share = 0.5 if fallback else 1.0
    deadline = start + share * limits.time if limits.time is not None else None
    nodes = limits.nodes
    if nodes is not None and fallback:
        nodes = max(nodes // 2, 1)
    told = None
    if progress is not None and analyze:
        told = solver_progress(state, counters, start, options, progress)
    request = options.solve_request(
        deadline=deadline, max_nodes=nodes, best_only=not analyze, progress=told
    )
    answer = state.solver_moves(request)
    if answer is None:
        return None
    counters.nodes += answer.nodes
    result = solver_result(state, counters, start, answer, analyze, options)
    settled = result is not None and (
        result.complete or (result.score.exact and result.score.is_win)
    )
    # a move proven to hold at least a draw is kept: the evaluation might choose one the
    # solver has not proven (the best lower end ranks the moves)
    holds = result is not None and result.score.value >= 0
    if answer.interrupted:  # a player keeps a result that holds some proven value
        raise SearchInterrupted(result if analyze or settled or answer.values else None)
    if fallback and not settled and not holds:
        return None
    if result is None or not result.complete:
        return result
    try:
        quick = options.solve_request(quick=True, deadline=deadline)
        pv = solver_line(state, result.best_moves[0], result.elapsed, quick)
    except KeyboardInterrupt:
        raise SearchInterrupted(result) from None
    return replace(result, pv=pv, depth=len(pv), elapsed=time.perf_counter() - start)


def solver_progress(
    state: State,
    counters: Any,
    start: float,
    options: SearchOptions,
    progress: Callable[[SearchResult], None],
) -> Callable[[SolveAnswer], None]:
    """What a game's own solver tells while it analyzes ``state`` (a
    :attr:`SolveRequest.progress`), passed on to ``progress`` as a result like the answer's
    (:func:`solver_result`): marked incomplete, every move's bounds or value, ``score_bounds``
    the position's, ``nodes`` those counted so far, ``elapsed`` the time since ``start``. Each
    result's bounds lie inside the last one's."""

    def tell(answer: SolveAnswer) -> None:
        found = solver_result(state, counters, start, answer, True, options)
        if found is not None:
            progress(replace(found, complete=False, nodes=counters.nodes + answer.nodes))

    return tell


def solver_result(
    state: State,
    counters: Any,
    start: float,
    answer: SolveAnswer,
    analyze: bool,
    options: SearchOptions,
) -> SearchResult | None:
    """The result from a game's own solver's answer (solve convention): the exact values, and
    for a move left open the lower end of its bounds (which ranks the moves), with both ends in
    ``move_bounds``. Incomplete (``complete`` False) when a move that might be better than the
    best known is still open; the score is then not exact, and ``score_bounds`` holds the best
    lower end and the greatest upper end (a legal move the answer leaves out could be anything:
    the upper end is then a win at once)."""
    legal = list(state.legal_moves())
    values = {m: value_from_solve_score(state, v) for m, v in answer.values.items() if m in legal}
    ceiling = {m: value_from_solve_score(state, hi) for m, (_, hi) in answer.bounds.items()}
    for move, (low, _) in answer.bounds.items():
        if move in legal and move not in values:
            values[move] = value_from_solve_score(state, low)
    if not values:
        return None
    best_value, best, scores = rank_moves(legal, values, True, analyze)
    open_moves = [m for m in answer.bounds if m not in answer.values]
    exact = all(ceiling[m] <= best_value for m in open_moves) and best[0] in answer.values
    if scores is not None:
        scores = {m: Score(v, m in answer.values) for m, v in values.items()}
    bounds = {m: (Score(values[m]), Score(ceiling[m])) for m in open_moves if m in values}
    score_bounds = None
    if not exact:
        tops = [bounds[m][1].value if m in bounds else values[m] for m in values]
        top = max(tops) if len(values) == len(legal) else WIN - 1
        score_bounds = (Score(best_value), Score(top))
    result = build_result(
        state, counters, "solver", start, best, (best[0],), Score(best_value, exact), scores, 0,
        options.rng, options.tie_order(state),
    )
    result = replace(result, move_bounds=bounds or None, score_bounds=score_bounds)
    # complete: every legal move placed, each open one (a best-only answer's) proven worse
    # than the best, so that the best moves are all known
    worse = all(ceiling[m] < best_value for m in open_moves)
    placed = len(values) == len(legal) and (not open_moves or (exact and worse))
    complete = answer.complete and placed and not (open_moves and scores is not None)
    return result if complete else replace(result, complete=False)


def solver_line(
    state: State, move: Move, spent: float, request: SolveRequest
) -> tuple[Move, ...]:
    """The principal variation from a game's own solver, starting with the best ``move``.

    The solver's own line (:meth:`State.solver_line`, asked with ``request``: a quick one
    stops where the solver's own budget ends) when it gives one; else best moves followed
    one at a time while the solver answers ``request`` quickly (its book, its database, or a
    small search), for no longer than the solve took (``spent`` seconds) and at least a
    second. A move is followed only when it is proven to keep the value; every line stops at
    the request's deadline (a search's time limit), and a line cut short is the part proven
    so far."""
    position = state.play(move)
    if position.outcome() is not None:
        return (move,)
    own = position.solver_line(request)
    if own is not None:
        return (move, *own)
    budget = time.perf_counter() + max(spent, 1.0)
    if request.deadline is not None:
        budget = min(budget, request.deadline)
    line = [move]
    while position.outcome() is None and time.perf_counter() < budget:
        best = _proven_best(position, position.solver_moves(request))
        if best is None:
            break
        line.append(best)
        position = position.play(best)
    return tuple(line)


def _proven_best(position: State, answer: SolveAnswer | None) -> Move | None:
    """The first legal move whose exact value no other move can beat, if the answer has one."""
    if answer is None or not answer.values:
        return None
    top = max(answer.values.values())
    if any(high > top for _, high in answer.bounds.values()):
        return None
    return next((m for m in position.legal_moves() if answer.values.get(m) == top), None)


def solver_values(state: State, options: SearchOptions, *, weak: bool) -> int | None:
    """The solve-convention score of ``state`` from the game's own solver, when it answers
    (with ``weak``, only the sign: 1, 0 or -1)."""
    if not uses_solver(options, state):
        return None
    own = state.solver_value(options.solve_request(weak=weak))
    if own is None:
        return None
    return (own > 0) - (own < 0) if weak else own


def unsolved(state: State) -> str:
    """Why an exact search of ``state`` came back inexact: its game is too large to solve."""
    name = state.game.spec if state.game is not None else type(state).__name__
    seconds = state.thinking_time("search")
    spent = f" in {seconds:g} s" if seconds is not None else ""
    return (
        f"{name} cannot be solved: the search did not reach the end of the game{spent}"
        " (search it with a depth or time limit instead)"
    )


def solve(
    state: State,
    options: SearchOptions,
    exact: Callable[[State], SearchResult],
    *,
    weak: bool = False,
    own: Callable[[State, bool], int | None] | None = None,
) -> int:
    """The exact score of ``state`` in the solve convention (see
    :func:`.score.solve_score`), as every searcher gives it: the game's own solver's when it
    answers (``own``, by default :func:`solver_values` in this process), else ``exact``'s
    search, refused when the game is too large to solve. ``weak``: only the sign (1, 0 or
    -1)."""
    if uses_solver(options, state):
        found = (own or (lambda s, w: solver_values(s, options, weak=w)))(state, weak)
        if found is not None:
            return (found > 0) - (found < 0) if weak else found
    result = exact(state)
    if not result.exact:
        raise ValueError(unsolved(state))
    if result.score_bounds is not None and not weak:
        low, high = result.score_bounds
        if low.value != high.value:  # proof-number and tree search prove classes
            raise ValueError(
                f"{result.algorithm} proved the position {'won' if low.is_win else 'lost'} but "
                "not in how many moves, which a solve score needs: solve it weakly (--weak) or "
                "with alpha-beta"
            )
    if weak:  # the sign needs no solve convention (a game without max_plies has none)
        value = result.score.value
        return (value > 0) - (value < 0)
    return solve_score(state, result.score)


# --- a game's own searcher -------------------------------------------------------------------


def uses_searcher(options: SearchOptions, state: State) -> bool:
    """The one rule for handing a search to the game's own heuristic searcher (chess's compiled
    engine): the game has one (:attr:`State.has_searcher`), the position is unfinished, and the
    options ask for nothing only the generic engine does: no algorithm (``alphabeta`` and the
    others force the generic engine, so that the two can be compared on one position), no
    evaluation or move order of the caller's, no search features. (An observed search, whose
    events are the generic engine's, never asks it either.) Every limit is the searcher's to
    honour: depth, time, nodes and the stop flag."""
    return (
        state.has_searcher
        and options.algorithm is None
        and options.evaluate is None
        and options.order is None
        and options.features is None
        and state.outcome() is None
    )


def before_clock(options: SearchOptions, state: State, observer: Observer | None) -> None:
    """What a search does before its clock starts: a search that goes to the game's own
    searcher (:func:`uses_searcher`) loads its kernels first (:meth:`State.warm_up`), so that
    a cold first use builds them (announced) and then searches its whole time limit. (A game's
    own solver counts its loading within a time limit instead: :func:`by_solver`'s deadline
    covers it, so that a server's cap holds; a caller that owns its clock loads it first:
    :func:`warm_for_own_clock`.)"""
    if observer is None and uses_searcher(options, state):
        state.warm_up()


def warm_for_own_clock(options: SearchOptions, state: State) -> None:
    """What a caller that owns its clock (the command line: a person's ``--time``, not a
    server's cap) loads before a search starts: the game's own solver's kernels where the
    search goes to it (:meth:`State.warm_up`; its own searcher's :func:`before_clock` loads
    anyway), so that a time limit is the solver's thinking, not its loading. Without it, a
    first search of a process under a limit shorter than the loading (Connect Four: about a
    second from numba's cache) got nothing from the solver and fell back to a search that had
    no time left: one node."""
    if uses_solver(options, state):
        state.warm_up()


def split_algorithm(options: SearchOptions, state: State) -> str | None:
    """The algorithm of a view of the parallel search's split (the web page's): the one asked
    for, else alpha-beta for a game with its own searcher (which splits nothing over the
    workers: the view shows the library's parallel search), else None (the default choice)."""
    if options.algorithm is None and uses_searcher(options, state):
        return "alphabeta"
    return options.algorithm


@dataclass
class _Counts:
    """A game's own searcher's figures, as :func:`.result.build_result` reads a search's."""

    nodes: int = 0
    hits: int = 0
    cutoffs: int = 0
    horizon: int = 0
    seldepth: int = 0


def by_searcher(
    state: State,
    options: SearchOptions,
    limits: Limits,
    start: float,
    analyze: bool,
    stop: threading.Event | None,
    memory: dict[str, Any],
) -> Iterator[SearchResult]:
    """The results of the game's own searcher (:meth:`State.searcher_answers`), one after each
    completed iteration, the last being the answer (marked incomplete when a limit or ``stop``
    cut the search short): as :func:`.deepening.deepen` yields them. Analyzing asks a line for
    every legal move (every move gets its score), else ``options.multipv`` lines. ``memory``:
    the searcher's own, kept by the library searcher between searches. Ctrl-C raises
    :class:`SearchInterrupted` with the last result known (None when no move was known)."""
    legal = list(state.legal_moves())
    request = SearchRequest(
        depth=limits.depth,
        deadline=start + limits.time if limits.time is not None else None,
        max_nodes=limits.nodes,
        stop=stop,
        lines=len(legal) if analyze else min(options.multipv, len(legal)),
        threads=options.threads,
        table_size=options.table_size,
        memory=memory,
    )
    answers = state.searcher_answers(request)
    last: SearchResult | None = None
    try:
        for answer in answers:
            result = searcher_result(state, answer, start, analyze, options)
            if answer.interrupted:
                raise SearchInterrupted(result if result.depth > 0 else last)
            last = result
            yield result
    except SearchInterrupted:
        raise
    except KeyboardInterrupt:
        raise SearchInterrupted(None if last is None else replace(last, complete=False)) from None
    finally:
        close = getattr(answers, "close", None)
        if close is not None:  # a generator left early stops its search now
            close()


def _line_value(line: SearchLine) -> int:
    """A line's value on the library's scale: ``WIN - d`` for a win ``d`` plies away, its
    negation for a loss, else the searcher's heuristic value (held inside the evaluation's
    range)."""
    if line.mate is not None:
        return WIN - line.mate if line.mate > 0 else -WIN - line.mate
    return max(-EVAL_LIMIT + 1, min(EVAL_LIMIT - 1, int(line.value)))


def searcher_result(
    state: State, answer: SearchAnswer, start: float, analyze: bool, options: SearchOptions
) -> SearchResult:
    """The result from a game's own searcher's answer: its best line's move, score and line;
    its lines' scores as ``move_scores`` when analyzing, and as ``lines``. Heuristic values
    are never exact (a win or loss the searcher found is shown as one, not proven)."""
    legal = list(state.legal_moves())
    lines = [line for line in answer.lines if line.moves and line.moves[0] in legal]
    if not lines:  # a searcher cut short before any iteration: its first legal move
        lines = [SearchLine((legal[0],), 0)]
    values: dict[Move, int] = {}
    for line in lines:
        values.setdefault(line.moves[0], _line_value(line))
    best_value, best, scores = rank_moves(legal, values, False, analyze)
    if scores is not None:
        scores = {m: Score(s.value, False) for m, s in scores.items()}
    counts = _Counts(nodes=answer.nodes, seldepth=answer.seldepth)
    order = [line.moves[0] for line in lines]
    result = build_result(
        state, counts, "searcher", start, best, lines[0].moves, Score(best_value, False), scores,
        answer.depth, options.rng, order,
    )
    chosen = next((line.moves for line in lines if line.moves[0] == result.move), result.pv)
    shown = tuple(Line(Score(_line_value(line), False), line.moves) for line in lines)
    return replace(
        result, pv=chosen, lines=shown, exact=False, complete=answer.complete
    )


# --- how long a search runs ------------------------------------------------------------------


def too_large(state: State) -> bool:
    """True for a game too large to search to its end (chess): one that declares how long it
    thinks (:meth:`State.thinking_time`). Every search of it gets a time limit."""
    return state.thinking_time("search") is not None


def within(cap: float) -> float:
    """A time limit that a search holds to well inside ``cap`` seconds (a front end stops its
    worker at the cap): room for starting, reporting and the answer's way back."""
    return max(0.05, min(cap - 0.5, cap * 0.8))


def limits_for(
    state: State,
    limits: Limits,
    *,
    purpose: str = "search",
    cap: float | None = None,
) -> Limits:
    """The limits a search of ``state`` runs under, for ``purpose`` (one of
    :data:`PURPOSES`), inside a front end's time ``cap`` (seconds; None: no cap).

    A game too large to solve (:func:`too_large`) is never searched to its end: with no limit
    at all it thinks for the time it declares for the purpose (chess: 5 s a search, 1 s an
    opponent's move, 2 s an analysis); under a cap, a depth or node limit gets a time limit too.
    A game searched to its end that declares a time for a front end's ``move`` or
    ``analysis`` all the same (5 x 5 Hex: it solves, but in minutes) thinks that long for it
    when no limit is given (within any cap): exact where that proves the value.
    Under a cap any time limit is held :func:`within` it, and for a ``move`` (a player that
    must answer) no limit at all becomes a time limit within the cap: the search is exact where
    it can be in that time, and a game's own solver gets half of it before the game's
    evaluation chooses (see :func:`by_solver`). So does an ``analysis`` of a game with its own
    solver (:attr:`State.has_solver`): the solver answers by then, exact where it finished, else
    with the values it settled and the bounds it proved (:func:`solver_result`), rather than
    running past the cap. Without a cap, other limits are kept as given.
    """
    if purpose not in PURPOSES:
        raise ValueError(f"unknown purpose {purpose!r}: choose one of {', '.join(PURPOSES)}")
    limit = within(cap) if cap is not None else None
    if too_large(state):
        seconds = limits.time
        if limits == Limits():
            seconds = state.thinking_time(purpose)
        elif seconds is None and limit is not None:
            seconds = limit
        if seconds is not None and limit is not None:
            seconds = min(seconds, limit)
        return replace(limits, time=seconds)
    own = state.thinking_time(purpose)
    if own is not None and limits == Limits():  # searched to its end, but not on the page
        return Limits(time=own if limit is None else min(own, limit))
    if limit is None:
        return limits
    if limits.time is not None and limits.time > limit:
        return replace(limits, time=limit)
    if limits == Limits() and (purpose == "move" or (purpose == "analysis" and state.has_solver)):
        return Limits(time=limit)
    return limits


# --- a player stopped early ------------------------------------------------------------------


def move_when_stopped(
    search: Callable[[State, Limits], SearchResult], state: State, result: SearchResult | None
) -> tuple[SearchResult, str]:
    """The move a player plays when Ctrl-C stopped its search: the best known, or when nothing
    was known a :data:`QUICK_MOVE_SECONDS` search's (run by ``search``); with a line for
    people saying which."""
    if result is not None and result.move is not None:
        return result, f"the best move of depth {result.depth}"
    found = search(state, Limits(time=QUICK_MOVE_SECONDS))
    return found, f"the best move of a {QUICK_MOVE_SECONDS:g} s search"


def may_take_long(
    search: Callable[[State, Limits], SearchResult],
    options: SearchOptions,
    state: State,
    limits: Limits,
) -> bool:
    """Whether perfect play of ``state`` under ``limits`` may take minutes a move (a front end
    then says so): no limit, and neither a quick question to the game's own solver (its book,
    its database, a short search) nor a :data:`PROBE_NODES` search (run by ``search``) settles
    its value."""
    if limits_for(state, limits) != Limits():
        return False  # a limit, or the game's own time a move
    if uses_solver(options, state):
        quick = options.solve_request(quick=True)
        return state.solver_value(quick) is None
    return not search(state, Limits(nodes=PROBE_NODES)).exact


# --- algorithms that are not iterations of the alpha-beta engine -----------------------------

#: A search that is not an iteration of the alpha-beta engine:
#: ``runner(state, limits, options, analyze, stop)`` yields a
#: :class:`~.result.SearchResult` after every completed iteration (the last one is the
#: answer), under the limits the searcher's checks and this module's policy gave. A runner
#: whose ``observes`` attribute is True also takes ``observer=`` (see :mod:`.events`); one
#: whose ``shares_table`` is True takes ``table=``, the searcher's table, kept between its
#: searches of the same game as the alpha-beta engine keeps it.
Runner = Callable[..., Iterator[SearchResult]]

#: The runners by algorithm: both searchers (and so the command line and the web page) run an
#: algorithm named here through :func:`run` instead of the alpha-beta engine.
RUNNERS: dict[str, Runner] = {**CHANCE_RUNNERS, **MAXN_RUNNERS, "mcts": mcts.run, "pns": pns.run}

#: Of :data:`RUNNERS`, the tree searches that prove a two-player game's value (Monte Carlo tree
#: search, proof-number search): a finished game is still answered by the searcher itself.
TREE_SEARCHES = ("mcts", "pns")


def check_algorithm(state: State, algorithm: str) -> None:
    """Refuse, before it starts, an algorithm that cannot search ``state``'s game: the
    alpha-beta engine's, Monte Carlo tree search and proof-number search on a game of chance
    (they would take chance for a player) or of more than two players; expectiminimax and
    *-minimax on more than two players."""
    if algorithm in TWO_PLAYER_ALGORITHMS or algorithm in TREE_SEARCHES:
        if state.has_chance:
            raise ValueError(
                f"{algorithm} cannot search a game of chance (it would take the dice for a "
                "player): use expectiminimax, star1 or star2"
            )
        if state.players > 2:
            raise ValueError(
                f"{algorithm} searches games of two players; this one has {state.players}: "
                "use maxn or paranoid"
            )
    if algorithm in CHANCE_ALGORITHMS and state.players > 2:
        raise ValueError(
            f"{algorithm} searches games of two players; this one has {state.players}: use "
            "maxn or paranoid (both take the expectation at chance nodes)"
        )


def run(
    algorithm: str,
    state: State,
    limits: Limits,
    options: SearchOptions,
    analyze: bool,
    stop: threading.Event | None,
    observer: Observer | None = None,
    table: Any = None,
) -> Iterator[SearchResult]:
    """The results of ``algorithm``'s runner (:data:`RUNNERS`) on ``state``: the one door
    for both searchers. An observed search needs a runner that emits events; ``table`` (a
    searcher's :class:`~.table.TranspositionTable`) goes to a runner that shares one."""
    runner = RUNNERS[algorithm]
    extra: dict[str, Any] = {}
    if observer is not None:
        if not getattr(runner, "observes", False):
            raise ValueError(f"{algorithm} emits no search events: search without an observer")
        extra["observer"] = observer
    if table is not None and getattr(runner, "shares_table", False):
        extra["table"] = table
    return runner(state, limits, options, analyze, stop, **extra)


def meaning(state: State, algorithm: str) -> str:
    """What the values of a search of ``state`` by ``algorithm`` (one of :data:`RUNNERS`)
    mean (see :data:`.score.MEANINGS`)."""
    if algorithm in CHANCE_ALGORITHMS:
        return chance_meaning(state)
    return maxn_meaning(state, algorithm)
