"""A game's own heuristic searcher (issue 20): the protocol's hook (`State.has_searcher`,
`State.searcher_answers`) and the policy that hands it a search (`policy.uses_searcher`,
`policy.by_searcher`), checked on a small game whose searcher answers from an exact search, so
that every value it gives is known."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from unbeatable.game import SearchAnswer, SearchLine, SearchRequest
from unbeatable.games.subtraction import SubtractionState
from unbeatable.search import (
    Limits,
    ParallelSearcher,
    Searcher,
    SearchInterrupted,
    SearchOptions,
    policy,
    search,
)
from unbeatable.search.score import WIN


class Guided(SubtractionState):
    """The subtraction game with a searcher of its own: each iteration gives the moves' exact
    values (from the generic exact search), as mates, best first, ``request.lines`` of them;
    it records every request, counts its calls in the request's memory, and stops at the
    request's depth (or after three iterations), at once when ``stop`` is set."""

    __slots__ = ()
    has_searcher = True
    requests: ClassVar[list[SearchRequest]] = []
    interrupt_after: ClassVar[int | None] = None

    def searcher_answers(self, request: SearchRequest) -> Iterator[SearchAnswer]:
        Guided.requests.append(request)
        request.memory["calls"] = request.memory.get("calls", 0) + 1
        lines = []
        for move in self.legal_moves():
            child = self.play(move)
            if child.outcome() is not None:
                lines.append(SearchLine((move,), 0, 1))
                continue
            found = search(child, algorithm="alphabeta")
            plies = found.score.plies
            assert plies is not None
            mate = -(plies + 1) if found.score.is_win else plies + 1
            lines.append(SearchLine((move, *found.pv), 0, mate))
        lines.sort(key=lambda line: -value(line))
        lines = lines[: request.lines]
        last = request.depth or 3
        for depth in range(1, last + 1):
            if request.stop is not None and request.stop.is_set():
                yield SearchAnswer(tuple(lines), depth - 1, depth - 1, depth, complete=False)
                return
            if Guided.interrupt_after is not None and depth > Guided.interrupt_after:
                yield SearchAnswer(tuple(lines), depth - 1, depth - 1, depth, False, True)
                return
            yield SearchAnswer(tuple(lines), depth, depth, 10 * depth)


def value(line: SearchLine) -> int:
    """A line's value on the library's scale (its mate: a win or a loss that many plies
    away)."""
    assert line.mate is not None
    return WIN - line.mate if line.mate > 0 else -WIN - line.mate


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    Guided.requests.clear()
    Guided.interrupt_after = None
    yield


def guided(pile: int = 10, take: int = 3) -> Guided:
    return Guided(pile, take, 0, pile)


def test_a_search_with_no_algorithm_asks_the_games_own_searcher() -> None:
    state = guided()
    result = Searcher().search(state, Limits(depth=2))
    assert result.algorithm == "searcher" and result.depth == 2 and result.complete
    assert not result.exact and not result.score.exact
    # 10 tokens, take 1 to 3: taking 2 leaves 8, a multiple of 4: a win in 3 (plies 5)
    assert result.move == 2 and result.score.is_win and result.score.value == WIN - 5
    assert result.pv[0] == 2 and result.lines[0].pv == result.pv
    assert result.nodes == 20 and result.seldepth == 2
    [request] = Guided.requests
    assert request.depth == 2 and request.lines == 1 and request.deadline is None


def test_an_explicit_algorithm_searches_with_the_generic_engine() -> None:
    state = guided()
    for algorithm in ("alphabeta", "negamax", "alphabeta-stack"):
        result = Searcher(algorithm).search(state)
        assert result.algorithm == algorithm and result.exact and result.move == 2
    asked: list[dict[str, Any]] = [
        {"features": frozenset()},
        {"evaluate": lambda s: 0},
        {"order": lambda s, moves: moves},
    ]
    for options in asked:
        assert not policy.uses_searcher(SearchOptions(**options), state)
    assert Guided.requests == []
    assert policy.uses_searcher(SearchOptions(), state)
    assert not policy.uses_searcher(SearchOptions(), guided(0))  # the game is over


def test_analyzing_asks_every_move_and_scores_each() -> None:
    state = guided()
    result = Searcher().search(state, Limits(depth=1), analyze=True)
    assert Guided.requests[0].lines == 3
    assert result.move_scores is not None and set(result.move_scores) == {1, 2, 3}
    exact = search(state, analyze=True, algorithm="alphabeta").move_scores
    assert exact is not None
    assert {m: s.value for m, s in result.move_scores.items()} == {
        m: s.value for m, s in exact.items()
    }
    assert all(not s.exact for s in result.move_scores.values())
    assert len(result.lines) == 3 and result.lines[0].move == 2
    assert [line.score for line in result.lines] == sorted(
        (line.score for line in result.lines), reverse=True
    )


def test_multipv_asks_that_many_lines() -> None:
    result = Searcher(multipv=2).search(guided(), Limits(depth=1))
    assert Guided.requests[0].lines == 2 and len(result.lines) == 2
    assert result.lines[0].score >= result.lines[1].score
    with pytest.raises(ValueError, match="multipv must be a whole number >= 1"):
        SearchOptions(multipv=0)


def test_the_limits_reach_the_searcher() -> None:
    searcher = Searcher(threads=2, table_size=1000)
    result = searcher.search(guided(), Limits(time=30, nodes=500))
    [request] = Guided.requests
    assert request.depth is None and request.max_nodes == 500
    assert request.deadline is not None and request.deadline - time.perf_counter() > 25
    assert request.threads == 2 and request.table_size == 1000
    assert result.complete and result.depth == 3


def test_the_searchers_kernels_load_before_the_clock_starts(monkeypatch: Any) -> None:
    """A cold first search builds the game's kernels (its warm_up) before its clock starts:
    the request's deadline is the whole limit after the loading ended, not after it began."""
    loaded: list[float] = []

    def warm_up(self: Guided) -> None:
        time.sleep(0.05)  # a build (its length does not matter: only the order is asserted)
        loaded.append(time.perf_counter())

    monkeypatch.setattr(Guided, "warm_up", warm_up)
    Searcher().search(guided(), Limits(time=0.5))
    [request] = Guided.requests
    assert len(loaded) == 1 and request.deadline is not None
    assert request.deadline >= loaded[0] + 0.5
    # the generic engine and an observed search do not ask the game's searcher: no loading
    Searcher("alphabeta").search(guided(), Limits(time=0.5))
    assert len(loaded) == 1


def test_a_game_too_large_to_solve_gets_its_thinking_time(monkeypatch: Any) -> None:
    monkeypatch.setattr(Guided, "default_time", 7.0)
    Searcher().search(guided())
    [request] = Guided.requests
    assert request.deadline is not None  # no limit: the game's own 7 s


def test_the_stop_flag_cuts_the_search_short() -> None:
    stop = threading.Event()
    stop.set()
    results = list(Searcher().iterate(guided(), Limits(depth=3), stop=stop))
    assert [r.complete for r in results] == [False]
    assert results[-1].move in (1, 2, 3)


def test_every_completed_iteration_is_a_result() -> None:
    results = list(Searcher().iterate(guided(), Limits(depth=3)))
    assert [r.depth for r in results] == [1, 2, 3] and all(r.complete for r in results)


def test_ctrl_c_raises_with_the_last_result() -> None:
    Guided.interrupt_after = 2
    with pytest.raises(SearchInterrupted) as stopped:
        Searcher().search(guided(), Limits(depth=5))
    assert stopped.value.result is not None and stopped.value.result.move == 2
    assert not stopped.value.result.complete
    Guided.interrupt_after = 0
    with pytest.raises(SearchInterrupted) as nothing:
        Searcher().search(guided(), Limits(depth=5))
    assert nothing.value.result is None  # nothing was known: a player searches again


def test_the_memory_lives_with_the_searcher_and_goes_with_the_game() -> None:
    searcher = Searcher()
    searcher.search(guided(), Limits(depth=1))
    searcher.search(guided(9), Limits(depth=1))
    assert searcher.memory["calls"] == 2 and Guided.requests[1].memory is searcher.memory
    searcher.search(SubtractionState(5, 3, 0, 5), Limits(depth=1))  # another game
    assert "calls" not in searcher.memory
    assert Searcher().memory == {}


def test_a_parallel_searcher_hands_the_search_to_the_games_searcher() -> None:
    with ParallelSearcher(2) as parallel:
        result = parallel.search(guided(), Limits(depth=2))
    assert result.algorithm == "searcher" and result.move == 2
    assert Guided.requests[0].threads == 2  # its workers become the searcher's threads
    assert policy.split_algorithm(SearchOptions(), guided()) == "alphabeta"
    assert policy.split_algorithm(SearchOptions(algorithm="negamax"), guided()) == "negamax"
    assert policy.split_algorithm(SearchOptions(), SubtractionState(5, 3, 0, 5)) is None


def test_a_game_without_a_searcher_answers_nothing() -> None:
    plain = SubtractionState(5, 3, 0, 5)
    assert not plain.has_searcher and list(plain.searcher_answers(SearchRequest())) == []
    assert not policy.uses_searcher(SearchOptions(), plain)
