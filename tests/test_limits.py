"""Limits always hold: many short searches from many positions, the way the hangs were found."""

from __future__ import annotations

import random
import threading

import pytest

from tests.helpers import random_position
from unbeatable import Limits, Searcher, State, get_game
from unbeatable.search.engine import CHECK_EVERY


def run_bounded(states: list[State], limits: Limits, algorithm: str | None) -> list[int]:
    """Search every state in a thread; the node counts, or a failure if the thread hangs."""
    counts: list[int] = []

    def work() -> None:
        for state in states:
            result = Searcher(algorithm).search(state, limits)
            assert result.move in state.legal_moves()
            counts.append(result.nodes)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    # A hang ran forever; each of these searches is asked to stop within about 20 ms.
    thread.join(timeout=60)
    assert not thread.is_alive(), f"a search under {limits} never stopped"
    assert len(counts) == len(states)
    return counts


#: Each case is 30 searches of 20 ms, 0.6 s (2026-12-02): one a search routine stays in make
#: test-fast (the recursion on Connect Four, the explicit stack on 5 x 5), the rest are slow.
QUICK_LIMITS = {("alphabeta", "connect4"), ("alphabeta-stack", "mnk:5,5,4")}


@pytest.mark.parametrize(
    ("algorithm", "spec"),
    [
        (algorithm, spec)
        if (algorithm, spec) in QUICK_LIMITS
        else pytest.param(algorithm, spec, marks=pytest.mark.slow)
        for algorithm in ["alphabeta", "alphabeta-stack"]
        for spec in ["connect4", "mnk:4,4,4", "mnk:5,5,4"]
    ],
)
def test_many_short_time_limits_all_stop(spec: str, algorithm: str) -> None:
    rng = random.Random(f"{spec}/{algorithm}")
    states = [random_position(spec, rng.randrange(0, 8), rng) for _ in range(30)]
    run_bounded(states, Limits(time=0.02), algorithm)


@pytest.mark.parametrize(  # Connect Four's 120 searches: 0.7 s (2026-12-02)
    "spec", [pytest.param("connect4", marks=pytest.mark.slow), "mnk:4,4,4", "mnk:5,5,4"]
)
def test_node_budgets_are_honoured_to_the_node(spec: str) -> None:
    rng = random.Random(spec)
    states = [random_position(spec, rng.randrange(0, 8), rng) for _ in range(30)]
    for budget in (1, 5, CHECK_EVERY + 3, 1000):
        counts = run_bounded(states, Limits(nodes=budget), "alphabeta")
        assert max(counts) <= budget, (budget, counts)


def test_the_issue_position_stops_under_a_time_limit() -> None:
    state = get_game("connect4").parse_position("445")
    run_bounded([state], Limits(time=0.5), None)
