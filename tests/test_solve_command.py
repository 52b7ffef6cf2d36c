"""`unbeatable solve`: one line per position, checked scores, bad lines reported, exit codes."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import one_error_line, run


def test_positions_from_stdin_get_scores_in_the_solve_convention() -> None:
    code, out, err = run("solve", "tictactoe", stdin="5\n12\n5193\n12345\n\n14253\n")
    assert code == 0 and err == ""
    # 5: o to move draws. 12: x wins with its 4th stone, placed on 6 stones: (10-6)//2 = 2.
    # 12345: o to move loses to x's 4th stone. 14253: finished, x won with 5 stones on board.
    # The empty line is the start position (as in Pons' files): a draw, its line kept.
    assert out.splitlines() == ["5 0", "12 2", "5193 0", "12345 -2", " 0", "14253 -3"]


def test_pictures_and_a_file_argument(tmp_path: Path) -> None:
    path = tmp_path / "positions.txt"
    path.write_text("xx./oo./...\n.../.../...\n", encoding="utf-8")
    code, out, _ = run("solve", "tictactoe", str(path))
    assert code == 0
    assert out.splitlines() == ["xx./oo./... 3", ".../.../... 0"]


def test_given_scores_are_checked_and_mismatches_reported() -> None:
    code, out, err = run("solve", "tictactoe", "-", stdin="12 2\n12 3\n5 0\n")
    assert code == 1
    assert out.splitlines() == ["12 2", "12 2", "5 0"]
    assert "line 2: 12: expected 3, solved 2" in err


def test_bad_lines_are_named_and_the_others_still_solved() -> None:
    code, out, err = run("solve", "tictactoe", stdin="5\nzz\n11\n1 2 3\n12 x\n9\n")
    assert code == 2
    assert out.splitlines() == ["5 0", "9 0"]
    lines = err.splitlines()
    assert lines[0] == "unbeatable: line 2: 'zz' is not a cell (1-9) (move 1 of 'zz')"
    assert lines[1].startswith("unbeatable: line 3: cell 1 is taken")
    assert lines[2] == "unbeatable: line 4: expected POSITION or POSITION SCORE, got '1 2 3'"
    assert lines[3] == "unbeatable: line 5: score 'x' is not a whole number"
    assert "Traceback" not in err


def test_weak_prints_only_the_sign() -> None:
    code, out, _ = run("solve", "tictactoe", "--weak", stdin="12\n12345\n5\n12 2\n")
    assert code == 0  # a given score is compared by its sign
    assert out.splitlines() == ["12 1", "12345 -1", "5 0", "12 1"]


def test_other_games_and_algorithms() -> None:
    code, out, _ = run("solve", "mnk:3,4,3", "--algorithm", "alphabeta-stack", stdin="1,6\n")
    assert code == 0 and out.startswith("1,6 ")
    # piles that are multiples of 4 are lost for the player to move
    code, out, _ = run("solve", "subtraction:8,3", "--weak", stdin="1\n2\n1,3\npile=8\npile=5\n")
    assert code == 0
    assert out.splitlines() == ["1 1", "2 1", "1,3 -1", "pile=8 -1", "pile=5 1"]


def test_usage_errors_are_one_line_with_exit_code_2(tmp_path: Path) -> None:
    for argv in (
        ["solve", "checkers"],
        ["solve", "tictactoe", str(tmp_path / "missing.txt")],
        ["solve", "tictactoe", "--algorithm", "mtdf"],
        ["solve", "tictactoe", "--table-size", "0"],
        ["solve"],
    ):
        code, _, err = run(*argv)
        assert code == 2, argv
        one_error_line(err)
    _, _, err = run("solve", "checkers")
    assert "unknown game 'checkers': choose one of" in err and "tictactoe" in err
