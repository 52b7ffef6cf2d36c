"""Connect Four through the library's API: the solver behind search/solve, published scores
through the command line, and perfect play that never gives away the position's value."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest

from unbeatable import Limits, Searcher, State, get_game, solve
from unbeatable.cli import main
from unbeatable.search import search

REPO = Path(__file__).resolve().parents[1]


def _data_dir() -> Path | None:
    for candidate in (
        os.environ.get("UNBEATABLE_C4_DATA"),
        REPO.parent / "shared" / "benchmarks" / "connect4",
    ):
        if candidate and (Path(candidate) / "Test_L3_R1").is_file():
            return Path(candidate)
    return None


DATA = _data_dir()
needs_data = pytest.mark.skipif(
    DATA is None, reason="Pons' Connect Four test sets not found beside the repository"
)


def sample(name: str, every: int, limit: int) -> list[tuple[str, int]]:
    assert DATA is not None
    lines = (DATA / name).read_text().splitlines()[::every][:limit]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


@needs_data
@pytest.mark.parametrize(
    ("name", "every", "limit"),
    [
        ("Test_L3_R1", 40, 25),
        ("Test_L2_R1", 40, 25),
        ("Test_L2_R2", 100, 10),
        # the deepest searches: 0.8 s (2026-12-02); the bare solver's sample of it stays in
        # test-fast (tests/test_connect4_solver.py)
        pytest.param("Test_L1_R1", 100, 10, marks=pytest.mark.slow),
    ],
)
def test_search_and_solve_give_the_published_scores(name: str, every: int, limit: int) -> None:
    game = get_game("connect4")
    for moves, expected in sample(name, every, limit):
        state = game.parse_position(moves)
        assert solve(state) == expected, moves
        assert solve(state, weak=True) == (expected > 0) - (expected < 0)
        result = search(state, analyze=True)
        assert result.algorithm == "solver" and result.exact
        assert result.move_scores is not None
        assert max(result.move_scores.values()) == result.score
        assert result.move in result.best_moves


@needs_data
def test_the_solve_command_reproduces_a_test_set_and_reports_mismatches() -> None:
    assert DATA is not None
    lines = (DATA / "Test_L2_R1").read_text().splitlines()[:60]
    out, err = io.StringIO(), io.StringIO()
    code = main(["solve", "connect4"], stdout=out, stderr=err, stdin=io.StringIO("\n".join(lines)))
    assert code == 0 and err.getvalue() == ""
    assert out.getvalue().splitlines() == lines
    broken = lines[0].rsplit(" ", 1)[0] + " 99"
    code = main(["solve", "connect4"], stdout=io.StringIO(), stderr=err, stdin=io.StringIO(broken))
    assert code == 1 and "expected 99" in err.getvalue()


def keeps_value(state: State, move: object) -> bool:
    child = state.play(move)
    if child.outcome() is not None:
        return child.outcome().winner == state.to_move or solve(state) == 0  # type: ignore[union-attr]
    return -solve(child) == solve(state)


@needs_data
@pytest.mark.parametrize("opponent", ["random", "depth-3"])
def test_the_perfect_player_never_gives_away_the_value(opponent: str) -> None:
    rng = random.Random(11 if opponent == "random" else 12)
    game = get_game("connect4")
    perfect = Searcher()
    starts = [moves for moves, _ in sample("Test_L2_R1", 1, 1000)]
    for moves in rng.sample(starts, 4):
        state = game.parse_position(moves)
        ai = state.to_move
        value_at_start = solve(state)
        while state.outcome() is None:
            if state.to_move == ai:
                move = perfect.search(state).move
                assert keeps_value(state, move), (moves, str(state))
            elif opponent == "random":
                move = rng.choice(state.legal_moves())
            else:
                move = search(state, Limits(depth=3)).move
            state = state.play(move)
        winner = state.outcome().winner  # type: ignore[union-attr]
        # the AI gets at least what the position was worth at the start
        if value_at_start > 0:
            assert winner == ai
        elif value_at_start == 0:
            assert winner in (ai, None)


@pytest.mark.parametrize("size", ["2,31", "3,20", "1,63", "4,12"])
def test_the_compiled_solver_agrees_with_the_generic_search_on_tall_boards(size: str) -> None:
    """Narrow, tall boards put a four's three strides past 64 bits (a shift that would wrap)."""
    game = get_game(f"connect4:{size}")
    rng = random.Random(size)
    cells = game.params["width"] * game.params["height"]
    checked = 0
    while checked < 12:
        state = game.initial()
        while state.outcome() is None and state.ply < cells - 12:
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome() is not None:
            continue
        generic = search(state, algorithm="alphabeta")
        assert solve(state) == solve(state, searcher=Searcher("alphabeta")), str(state)
        assert search(state).score == generic.score, str(state)
        checked += 1
