"""Connect Four on other board sizes: the solver's score of the empty board equals the published
result (Tromp's and Steininger's tables, stored in ``published``), and that data is coherent."""

from __future__ import annotations

import json
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


def test_a_saved_table_carries_what_was_proved_to_another_solver(tmp_path: Path) -> None:
    """``save_table`` / ``load_table``: a solve cut by a node budget resumes in a fresh solver
    from the table it saved, to the exact score; a solved board's table answers the next
    solver's root in a fraction of the nodes; a file of another board, another table size,
    no table, or cut short is refused with a message naming the difference, and leaves the
    solver clear."""
    fresh = Solver(1 << 22, 7, 4, book=False, guess=False)
    score = fresh.solve("")
    cut = Solver(1 << 22, 7, 4, book=False, guess=False)
    first = cut.bounds(0, 0, 0, max_nodes=fresh.nodes // 3)
    assert not first.complete
    cut.save_table(tmp_path / "cut.table")
    resumed = Solver(1 << 22, 7, 4, book=False, guess=False)
    resumed.load_table(tmp_path / "cut.table")
    assert resumed.solve("") == score
    assert resumed.nodes < fresh.nodes  # it did start from the table
    resumed.save_table(tmp_path / "solved.table")
    again = Solver(1 << 22, 7, 4, book=False, guess=False)
    again.load_table(tmp_path / "solved.table")
    assert again.solve("") == score
    assert again.nodes * 20 < fresh.nodes

    data = (tmp_path / "solved.table").read_bytes()
    (tmp_path / "short.table").write_bytes(data[: len(data) // 2])
    (tmp_path / "other.table").write_bytes(b"not a table at all, but long enough")
    (tmp_path / "gen0.table").write_bytes(data[:32] + bytes(8) + data[40:])  # generation 0
    refused = [
        (Solver(1 << 21, 7, 4, book=False), "solved.table", "of 524,288 slots, not 262,144"),
        (Solver(1 << 22, 6, 4, book=False), "solved.table", "a table of 7x4, not of this solver"),
        (Solver(1 << 22, 7, 4, book=False), "short.table", "the table is cut short"),
        (Solver(1 << 22, 7, 4, book=False), "other.table", "not a Connect Four table"),
        (Solver(1 << 22, 7, 4, book=False), "gen0.table", "not a Connect Four table"),
    ]
    for solver, name, message in refused:
        with pytest.raises(ValueError, match=message):
            solver.load_table(tmp_path / name)
        assert not solver.table.any() and solver.generation == 1
    assert refused[2][0].solve("") == score


@pytest.mark.slow
def test_the_sizes_benchmark_keeps_a_size_table_across_runs(tmp_path: Path) -> None:
    """``--keep-table``: a run cut at its cap saves the table, the next run reads it back and
    finishes, and the sittings are listed beside it."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    script = str(root / "benchmarks" / "connect4_sizes.py")
    runs = []
    for cap in ("0.05", "300"):
        done = subprocess.run(
            [sys.executable, script, "--size", "6x4", "--no-guess", "--table-mb", "4",
             "--cap", cap, "--keep-table", str(tmp_path)],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        runs.append(done)
    assert "table saved to" in runs[0].stderr
    assert "table read from" in runs[1].stderr and "1 sitting(s) before" in runs[1].stderr
    assert runs[1].stdout.splitlines()[2].endswith("equal")
    log = json.loads((tmp_path / "6x4-524288.json").read_text())["sittings"]
    assert len(log) == 2 and log[1]["complete"] and log[1]["bounds"] == [-1, -1]
    assert (tmp_path / "6x4-524288.table").stat().st_size == 8 * (5 + 524_288)
    # a table file that is none: one line naming it, exit 2
    (tmp_path / "6x4-524288.table").write_bytes(b"garbage")
    done = subprocess.run(
        [sys.executable, script, "--size", "6x4", "--table-mb", "4", "--keep-table", str(tmp_path)],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"connect4_sizes.py: --keep-table: {tmp_path / '6x4-524288.table'}: "
        "not a Connect Four table"
    ]


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
