"""The search's policies, in one module (search/policy.py), and the front ends asking it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from unbeatable import Limits, Outcome, Searcher, SearchOptions, State, get_game, solve
from unbeatable.search import SearchResult, policy
from unbeatable.web import jobs


@dataclass(frozen=True)
class Endless(State):
    """A game that declares thinking times, as chess does (a pile nobody can finish)."""

    default_time: ClassVar[float | None] = 5.0
    thinking_times: ClassVar[dict[str, float]] = {"move": 1.0, "analysis": 2.0}
    pile: int = 10**6
    turn: int = 0

    @property
    def to_move(self) -> int:
        return self.turn

    def legal_moves(self) -> list[int]:
        return [1, 2]

    def play(self, move: Any) -> Endless:
        return Endless(self.pile - move, 1 - self.turn)

    def outcome(self) -> Outcome | None:
        return None


SOLVABLE = get_game("tictactoe").initial()
ENDLESS = Endless()


@pytest.mark.parametrize(
    ("state", "limits", "purpose", "cap", "expected"),
    [
        # a game searched to its end: limits kept, a cap holds times inside it
        (SOLVABLE, Limits(), "search", None, Limits()),
        (SOLVABLE, Limits(), "analysis", 10.0, Limits()),
        (SOLVABLE, Limits(time=30), "analysis", 10.0, Limits(time=8.0)),
        (SOLVABLE, Limits(time=3), "move", 10.0, Limits(time=3)),
        (SOLVABLE, Limits(depth=3), "move", 10.0, Limits(depth=3)),
        # an opponent's move under a cap is one search with a time limit inside it
        (SOLVABLE, Limits(), "move", 10.0, Limits(time=8.0)),
        (SOLVABLE, Limits(), "move", 1.0, Limits(time=0.5)),
        # a game too large to solve: its own times, by purpose; never past the cap
        (ENDLESS, Limits(), "search", None, Limits(time=5.0)),
        (ENDLESS, Limits(), "move", 10.0, Limits(time=1.0)),
        (ENDLESS, Limits(), "analysis", 10.0, Limits(time=2.0)),
        (ENDLESS, Limits(), "analysis", 1.0, Limits(time=0.5)),
        (ENDLESS, Limits(depth=4), "search", None, Limits(depth=4)),
        (ENDLESS, Limits(depth=4), "analysis", 10.0, Limits(depth=4, time=8.0)),
        (ENDLESS, Limits(time=0.3), "move", 10.0, Limits(time=0.3)),
        (ENDLESS, Limits(nodes=100), "move", 10.0, Limits(nodes=100, time=8.0)),
    ],
)
def test_limits_for_every_purpose_and_cap(
    state: State, limits: Limits, purpose: str, cap: float | None, expected: Limits
) -> None:
    assert policy.limits_for(state, limits, purpose=purpose, cap=cap) == expected


def test_a_purpose_is_checked_by_name() -> None:
    with pytest.raises(ValueError, match="unknown purpose 'lunch'"):
        policy.limits_for(SOLVABLE, Limits(), purpose="lunch")


def test_chess_declares_its_times_in_one_place() -> None:
    chess = get_game("chess").initial()
    times = [chess.thinking_time(purpose) for purpose in policy.PURPOSES]
    assert times == [5.0, 1.0, 2.0]
    assert SOLVABLE.thinking_time("move") is None
    assert policy.too_large(chess) and not policy.too_large(SOLVABLE)


def test_a_search_without_limits_of_a_game_too_large_thinks_its_own_time() -> None:
    seen: list[Limits] = []

    class Spy(Searcher):
        def _iterate(self, state: State, limits: Limits, *args: Any) -> Any:
            seen.append(limits)
            return super()._iterate(state, limits, *args)

    result = Spy().search(ENDLESS, Limits(depth=2))
    assert seen == [Limits(depth=2)] and not result.exact
    with pytest.raises(ValueError, match=r"cannot be solved: .* in 5 s"):
        policy.solve(ENDLESS, SearchOptions(), lambda s: _inexact(s))


def _inexact(state: State) -> SearchResult:
    return Searcher().search(state, Limits(depth=1))


def test_the_web_opponent_is_one_library_call_with_a_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No second try in the front end: the library shares the time with the solver."""
    calls: list[Limits] = []
    real = Searcher.search

    def search(self: Searcher, state: State, limits: Limits | None = None, **kw: Any) -> Any:
        calls.append(limits or Limits())
        return real(self, state, limits, **kw)

    monkeypatch.setattr(Searcher, "search", search)
    for spec in ("connect4", "tictactoe", "connect4:width=8,height=7"):
        calls.clear()
        found = jobs.choose(jobs.Job("move", spec, "", 1.0))
        assert found["move"] and calls == [Limits(time=0.5)], (spec, calls)


def test_the_serial_and_parallel_solve_share_one_rule() -> None:
    from unbeatable import ParallelSearcher

    states = [
        get_game("tictactoe").parse_position("5"),
        get_game("connect4:width=4,height=4").parse_position("1 2"),
        get_game("subtraction").initial(),
    ]
    with ParallelSearcher(workers=2) as parallel:
        for state in states:
            for weak in (False, True):
                assert parallel.solve(state, weak=weak) == solve(state, weak=weak)


def test_a_player_stopped_before_knowing_anything_plays_a_short_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(policy, "QUICK_MOVE_SECONDS", 0.05)
    state = get_game("mnk:4,4,4").initial()
    searcher = Searcher()
    result, how = policy.move_when_stopped(searcher.search, state, None)
    assert result.move in state.legal_moves() and how == "the best move of a 0.05 s search"
    known = searcher.search(state, Limits(depth=2))
    again, how = policy.move_when_stopped(searcher.search, state, known)
    assert again is known and how == "the best move of depth 2"


def test_perfect_play_may_take_long_only_where_a_short_search_settles_nothing() -> None:
    searcher = Searcher()
    tic = get_game("tictactoe").initial()
    big = get_game("mnk:5,5,4").initial()
    assert not policy.may_take_long(searcher.search, searcher.options, tic, Limits())
    assert policy.may_take_long(searcher.search, searcher.options, big, Limits())
    assert not policy.may_take_long(searcher.search, searcher.options, big, Limits(depth=2))
    assert not policy.may_take_long(searcher.search, searcher.options, ENDLESS, Limits())


@pytest.mark.parametrize(
    ("options", "uses"),
    [
        (SearchOptions(), True),
        (SearchOptions(algorithm="alphabeta"), False),
        (SearchOptions(evaluate=lambda s: 0), False),
    ],
)
def test_the_rule_for_a_games_own_solver(options: SearchOptions, uses: bool) -> None:
    state = get_game("connect4").parse_position("44")
    assert policy.uses_solver(options, state) is uses
    assert not policy.uses_solver(SearchOptions(), get_game("tictactoe").initial())
    assert policy.solver_may_answer(Limits(time=1)) and not policy.solver_may_answer(
        Limits(depth=3)
    )
    assert policy.hands_back(SearchOptions(), state, Limits(time=1))
    assert not policy.hands_back(SearchOptions(), state, Limits())


FORK_WHILE_LOADING = """
from unbeatable import Limits, ParallelSearcher, Searcher, get_game
state = get_game("connect4").parse_position("44")
Searcher().search(state, Limits(time=0.01))  # its deadline leaves the solver loading
small = get_game("connect4:width=4,height=4").parse_position("1 2")
with ParallelSearcher(workers=2) as parallel:  # forks its workers now
    print(parallel.solve(small))
"""


@pytest.mark.slow
def test_a_pool_forked_while_the_solver_loads_gets_it_whole() -> None:
    """A worker forked while a loading thread was importing the solver inherited a module
    half imported: the task failed ('partially initialized module'), or hung on its lock."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    src = str(Path(__file__).resolve().parent.parent / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(
        [sys.executable, "-c", FORK_WHILE_LOADING],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "0"


def test_a_first_search_with_a_deadline_does_not_wait_for_the_solver_to_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 13's second defect: the first Connect Four search of a process paid the loading
    of the compiled solver (0.2 s and more) outside a 0.03 s limit. The loading runs in a
    thread of its own; a search with a deadline gives up on it at the deadline and moves by
    the game's evaluation. Here the loading never ends until the test says so: a search that
    waited for it would not come back."""
    import threading

    from unbeatable.games.connect4 import hooks

    release = threading.Event()
    monkeypatch.setattr(hooks, "_load", lambda game, table_size: release.wait(60))
    state = get_game("connect4:width=5,height=4").parse_position("3")
    found: list[SearchResult] = []
    searching = threading.Thread(
        target=lambda: found.append(Searcher(table_size=4099).search(state, Limits(time=0.05)))
    )
    try:
        searching.start()
        searching.join(30)
        assert not searching.is_alive(), "the search waited for the solver to load"
        assert found and found[0].move in state.legal_moves()
        assert found[0].algorithm != "solver" and not found[0].complete
    finally:
        release.set()
        searching.join(30)
