"""The line an alpha-beta node reports is always playable from that node, whatever the
window: a node that fails low reports no line of its own, so that a parent's cut-off never
takes up a line left at that ply by another position's search (it did: the parallel search of
chess stopped on an illegal move in a worker's line)."""

from __future__ import annotations

import random

import pytest

from tests.helpers import random_position
from unbeatable.game import State
from unbeatable.games import get_game
from unbeatable.search.engine import Engine
from unbeatable.search.score import INFINITY
from unbeatable.search.table import TranspositionTable


def engine(features: frozenset[str] = frozenset(), table: bool = True) -> Engine:
    return Engine(
        table=TranspositionTable(1 << 12) if table else None,
        symmetry=False,
        hints=True,
        evaluate=None,
        order=None,
        deadline=None,
        max_nodes=None,
        features=features,
    )


def playable(state: State, line: list[object]) -> bool:
    for move in line:
        if state.outcome() is not None or move not in state.legal_moves():
            return False
        state = state.play(move)
    return True


@pytest.mark.parametrize(  # Connect Four: 0.8 s (2026-12-02)
    "spec", ["tictactoe", "mnk:4,4,3", pytest.param("connect4", marks=pytest.mark.slow)]
)
def test_lines_are_playable_under_any_window(spec: str) -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(150):
        state = random_position(spec, rng.randrange(0, 5), rng)
        if state.outcome() is not None:
            continue
        search = engine(table=rng.random() < 0.5)
        depth = rng.randrange(1, 5)
        for _ in range(4):  # several windows in a row on one engine, as iterations do
            low = rng.randrange(-60, 60)
            window = (low, low + 1) if rng.random() < 0.5 else (-INFINITY, INFINITY)
            search.alphabeta(state, depth, window[0], window[1], 0)
            assert playable(state, search.line(0)), (spec, state, search.line(0))
            checked += 1
    assert checked > 300


def test_chess_lines_are_playable_with_every_feature() -> None:
    rng = random.Random(3)
    features = frozenset({"quiescence", "killers", "history"})
    for _ in range(6):
        state = random_position("chess", rng.randrange(2, 12), rng)
        if state.outcome() is not None:
            continue
        search = engine(features)
        for depth in (1, 2, 3):
            for low in (-INFINITY, -50, 0, 50):
                high = INFINITY if low == -INFINITY else low + 1
                search.alphabeta(state, depth, low, high, 0)
                assert playable(state, search.line(0)), (state, search.line(0))


def test_the_parallel_search_of_chess_reports_legal_lines() -> None:
    """The failure that showed the bug: a worker's task line held another position's move."""
    from unbeatable.search import Limits
    from unbeatable.search.parallel import ParallelSearcher

    state = get_game("chess").parse_position("e2e4 e7e5")
    with ParallelSearcher(workers=2) as parallel:
        result = parallel.search(state, Limits(depth=4))
    assert result.complete and playable(state, list(result.pv))
