"""Games where a player may move twice in a row: every algorithm gets them right."""

from __future__ import annotations

import random

import pytest

from tests.brute import move_value, truth
from tests.dots import Dots
from unbeatable import Limits, Searcher
from unbeatable.search import search
from unbeatable.search.parallel import ParallelSearcher

VARIANTS: list[dict[str, object]] = [
    {"algorithm": "minimax"},
    {"algorithm": "negamax"},
    {"algorithm": "negamax", "table": True},
    {"algorithm": "alphabeta", "table": False},
    {"algorithm": "alphabeta", "table": False, "hints": False},
    {"algorithm": "alphabeta"},
    {"algorithm": "alphabeta", "table_size": 3},
    {"algorithm": "alphabeta-stack"},
    {"algorithm": "alphabeta-stack", "table": False},
]


def positions(rows: int, cols: int, count: int, seed: int, least: int = 0) -> list[Dots]:
    """``count`` random positions with at least ``least`` edges drawn."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        state = Dots(rows, cols)
        for _ in range(rng.randrange(least, state.edges)):
            state = state.play(rng.choice(state.legal_moves()))
        found.append(state)
    return found


def test_the_one_row_of_two_boxes_is_a_draw_kept_only_by_the_middle_edge() -> None:
    state = Dots(1, 2)
    assert truth(state) == 0
    for variant in VARIANTS:
        result = search(state, analyze=True, **variant)  # type: ignore[arg-type]
        assert result.score.is_draw, (variant, result.score)
        # the middle vertical edge (number 5) keeps the draw; every other edge loses
        assert result.best_moves == (5,), (variant, result.best_moves)


@pytest.mark.parametrize(
    ("rows", "cols", "count"),
    [
        pytest.param(1, 2, 60, marks=pytest.mark.slow),
        pytest.param(1, 3, 60, marks=pytest.mark.slow),
        pytest.param(2, 2, 25, marks=pytest.mark.slow),
    ],
)
def test_every_algorithm_agrees_with_brute_force(rows: int, cols: int, count: int) -> None:
    for state in positions(rows, cols, count, seed=rows * 10 + cols):
        if state.outcome() is not None:
            continue
        expected = truth(state)
        for variant in VARIANTS:
            plain = variant["algorithm"] in ("minimax", "negamax") or variant.get("table") is False
            plain = plain or variant.get("table_size") == 3
            if plain and state.ply < state.edges - 7:
                continue  # no table and a long game: too many nodes for a unit test
            result = search(state, analyze=True, **variant)  # type: ignore[arg-type]
            assert result.score.value == expected, (variant, state, result.score)
            assert result.move_scores is not None
            for move, score in result.move_scores.items():
                assert score.value == move_value(state, move), (variant, state, move)


@pytest.mark.slow  # 0.8 s (2026-12-02)
def test_depth_limited_and_deepening_searches_agree_across_algorithms() -> None:
    for state in positions(2, 2, 12, seed=3, least=4):
        if state.outcome() is not None:
            continue
        for depth in (1, 2, 3):
            values = {
                search(state, Limits(depth=depth), **v).score.value  # type: ignore[arg-type]
                for v in VARIANTS
            }
            assert len(values) == 1, (state, depth, values)
        deepened = Searcher(iterative=True).search(state)
        assert deepened.score.value == truth(state)


@pytest.mark.slow
def test_the_principal_variation_reaches_the_value() -> None:
    for state in positions(2, 2, 10, seed=5):
        if state.outcome() is not None:
            continue
        result = search(state)
        position = state
        for move in result.pv:
            position = position.play(move)
        assert position.outcome() is not None, (state, result.pv)
        winner = position.outcome().winner  # type: ignore[union-attr]
        kind = "draw" if winner is None else "win" if winner == state.to_move else "loss"
        assert result.score.kind == kind


def test_parallel_search_agrees() -> None:
    with ParallelSearcher(workers=2, split_depth=2) as searcher:
        for state in positions(2, 2, 6, seed=7):
            if state.outcome() is not None:
                continue
            result = searcher.search(state, analyze=True)
            assert result.score.value == truth(state), state
