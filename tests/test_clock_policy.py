"""The clock policy (``unbeatable.clock``): a move's budget from the clock, and the soft limit's
scale from how the best move behaved. Pure functions: no engine, no python-chess."""

from __future__ import annotations

import itertools

import pytest

from unbeatable.clock import (
    HARD_SHARE,
    HORIZON_MOVES,
    INCREMENT_SHARE,
    OVERHEAD,
    SOFT_SHARE,
    Stability,
    TimeBudget,
    time_for_move,
)


def test_the_time_for_a_move_is_a_share_of_the_clock() -> None:
    budget = time_for_move(60.0)
    share = (60 - 2 * OVERHEAD) / HORIZON_MOVES
    assert budget == TimeBudget(soft=SOFT_SHARE * share, hard=HARD_SHARE * share)
    with_increment = time_for_move(60.0, 1.0, 10)
    share = (60 - 2 * OVERHEAD) / 10 + INCREMENT_SHARE * (1.0 - OVERHEAD)
    assert with_increment.soft == pytest.approx(SOFT_SHARE * share)
    assert with_increment.hard == pytest.approx(min(HARD_SHARE * share, (60 - 2 * OVERHEAD) / 3))
    assert time_for_move(60.0, 1.0, 10, reserve=0.5).soft < with_increment.soft


def test_the_increment_counts_beyond_what_a_move_costs() -> None:
    # at 10 s + 0.1 s, a lag of 0.1 s leaves nothing of the increment; a measured 20 ms most of it
    assumed = time_for_move(10.0, 0.1)
    measured = time_for_move(10.0, 0.1, reserve=0.05, lag=0.02)
    assert assumed.soft == pytest.approx(SOFT_SHARE * (10 - 0.2) / HORIZON_MOVES)
    assert measured.soft == pytest.approx(
        SOFT_SHARE * ((10 - 0.1) / HORIZON_MOVES + INCREMENT_SHARE * 0.08)
    )
    # with only the increment left, a move still gets most of it
    low = time_for_move(0.3, 0.1, reserve=0.05, lag=0.02)
    assert 0.05 < low.soft <= low.hard <= 0.2 / 3 + 1e-12 or low.hard == pytest.approx(0.2 / 3)


def test_the_budget_always_leaves_the_reserve_on_the_clock() -> None:
    cases = itertools.product(
        [0.0, 0.01, 0.05, 0.1, 0.3, 1.0, 2.0, 10.0, 300.0],  # the clock
        [0.0, 0.1, 1.0, 5.0],  # the increment
        [None, 1, 2, 3, 40],  # the moves to go
        [OVERHEAD, 0.05],  # the reserve
    )
    for remaining, increment, moves_to_go, reserve in cases:
        case = (remaining, increment, moves_to_go, reserve)
        budget = time_for_move(remaining, increment, moves_to_go, reserve=reserve, lag=reserve / 2)
        assert 0 <= budget.soft <= budget.hard and budget.hard > 0, case
        assert budget.soft_after(2.0) <= budget.hard, case
        if remaining > reserve:  # a clock above the reserve keeps it whole
            assert budget.hard <= remaining - reserve, case
        else:  # a clock under it gets an answer at once
            assert budget.hard <= 0.01, case
        if moves_to_go != 1:
            assert budget.hard <= max((remaining - reserve) / 2, 0.01), case


def test_a_whole_game_on_the_clock_never_runs_out() -> None:
    # the worst case: every move takes its whole hard limit, and the lag on top; with an
    # increment the clock never runs out, without one it lasts 30 such moves
    cases = ((10.0, 0.1, 300), (1.0, 0.05, 300), (3.0, 1.0, 300), (60.0, 0.0, 30))
    for base, inc, moves in cases:
        clock = base
        for _ in range(moves):
            budget = time_for_move(clock, inc, reserve=0.05, lag=0.02)
            clock += inc - budget.hard - 0.02
            assert clock > 0, (base, inc)


def test_the_soft_limit_follows_the_best_move() -> None:
    stable = Stability()
    for depth in range(1, 9):
        stable.add("e2e4", 30)
        assert stable.scale == (1.0 if depth < 5 else 0.75)
    changing = Stability()
    for move in ("a", "b", "a", "b", "a"):
        changing.add(move, 0)
    assert changing.scale == pytest.approx(min(0.75 + 0.35 * 4, 2.0))
    falling = Stability()
    for score in (50, 50, 50, 50, 0):  # 50 centipawns lost since two iterations before
        falling.add("e2e4", score)
    assert falling.scale == pytest.approx(0.75 * 1.25)
    mated = Stability()
    for score, proven in ((50, False), (50, False), (-999, True), (-999, True), (-1000, True)):
        mated.add("e2e4", score, proven)
    assert mated.scale == 0.75  # a proven loss is no fall to think longer about
    budget = TimeBudget(soft=1.0, hard=1.5)
    assert budget.soft_after(changing.scale) == 1.5
    assert budget.soft_after(stable.scale) == 0.75
