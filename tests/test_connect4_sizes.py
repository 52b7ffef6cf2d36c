"""Connect Four on other board sizes: the solver's score of the empty board equals the published
result (Tromp's and Steininger's tables, stored in ``published``), and that data is coherent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from unbeatable.games.connect4 import Solver
from unbeatable.games.connect4.published import RESULTS, first_player_score


def test_published_tables_are_coherent() -> None:
    # a draw fills the board; the first player's stones are the odd moves, the second's the even
    assert len(RESULTS) == 51
    for (width, height), (winner, last) in RESULTS.items():
        cells = width * height
        assert winner in (0, 1, 2)
        if winner == 0:
            assert last == cells, (width, height)
        else:
            assert 7 <= last <= cells and last % 2 == winner % 2, (width, height)


def test_first_player_score_convention() -> None:
    assert first_player_score(7, 6) == 1  # the first player wins with the 41st stone
    assert first_player_score(6, 6) == -1  # the second player wins with the 36th (last)
    assert first_player_score(7, 7) == 0
    assert first_player_score(8, 7) == 2  # the 53rd of 56
    assert first_player_score(3, 3) is None  # not published


@pytest.fixture
def not_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """The published score is out of the solver's reach: a solver that looks it up fails."""
    from unbeatable.games.connect4 import solver as solver_module

    def told(width: int, height: int) -> int | None:
        raise AssertionError(f"the solver looked up {width}x{height}'s published score")

    monkeypatch.setattr(solver_module, "first_player_score", told)


# The solver is told nothing of the published score (``guess=False``; it orders the empty
# board's root probes when known): a comparison with the tables must not start from their answer.
@pytest.mark.parametrize(
    ("width", "height"), [(4, 4), (5, 4), (4, 5), (6, 4), (4, 6), (5, 5), (7, 4), (4, 7)]
)
def test_empty_board_score_as_published(width: int, height: int, not_told: None) -> None:
    solver = Solver(table_bytes=1 << 22, width=width, height=height, book=False, guess=False)
    assert solver.solve("") == first_player_score(width, height)


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(8, 4), (6, 5), (5, 6), (4, 8), (7, 5), (6, 6)])
def test_larger_empty_board_score_as_published(width: int, height: int, not_told: None) -> None:
    solver = Solver(
        table_bytes=1 << 24, width=width, height=height, book=False, threads=2, guess=False
    )
    assert solver.solve("") == first_player_score(width, height)


def test_the_guess_is_looked_up_only_when_allowed(not_told: None) -> None:
    with pytest.raises(AssertionError, match="looked up 5x4's published score"):
        Solver(table_bytes=1 << 20, width=5, height=4, book=False).solve("")


@pytest.mark.slow
def test_the_sizes_benchmark_checks_each_size_without_the_guess() -> None:
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    script = str(root / "benchmarks" / "connect4_sizes.py")
    done = subprocess.run(
        [sys.executable, script, "--max-sum", "9", "--no-guess", "--table-mb", "4"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "root's guess none (the published score withheld)" in out
    assert "all as published" in out
    # 4x4 and 5x4 (published) are checked, 3x3 (not published) only printed
    assert any(line.split()[0] == "4x4" and line.endswith("equal") for line in out.splitlines())
    assert any("3x3" in line and "no published result" in line for line in out.splitlines())


@pytest.mark.parametrize(("width", "height"), [(6, 4), (5, 5), (4, 6)])
def test_a_guess_orders_the_root_probes_but_never_changes_the_score(
    width: int, height: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The empty board's published score only orders the root's probes (``solve_position``'s
    ``guess``): any guess, right or wrong by up to 4, gives the same exact score, and the guess
    is used (the probes, and so the nodes, differ between guesses)."""
    from unbeatable.games.connect4 import solver as solver_module

    expected = first_player_score(width, height)
    assert expected is not None
    nodes = set()
    for guess in (None, *range(expected - 4, expected + 5)):
        monkeypatch.setattr(solver_module, "first_player_score", lambda w, h, g=guess: g)
        solver = Solver(table_bytes=1 << 22, width=width, height=height, book=False)
        assert solver.solve("") == expected, guess
        nodes.add(solver.nodes)
    assert len(nodes) >= 3, nodes


def test_a_board_wider_than_nine_columns_takes_the_empty_string_and_int_moves() -> None:
    """Every method's default position, ``""``, is the empty board on any width (it raised
    "boards wider than 9 columns take moves as a sequence of ints" on 10 columns and more); a
    non-empty string there still does, as a digit cannot name column 10."""
    solver = Solver(1 << 20, 12, 1, book=False)
    assert solver.solve() == solver.solve([]) == 0  # a 1-high board: a draw (pairing)
    assert solver.position("") == solver.position([]) == (0, 0, 0)
    assert solver.solve([1, 12]) == 0
    with pytest.raises(ValueError, match="sequence of ints"):
        solver.solve("12")
