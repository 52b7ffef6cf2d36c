"""`unbeatable solve`: one line per position, checked scores, bad lines reported, exit codes."""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, cast

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


# --- line ends (issue 18, defect 6) -----------------------------------------------------------

#: Old Mac, Windows and Unix line ends, mixed; an empty line (the start) and a last line
#: without an end.
MIXED = "5\r12\r\n\n\r5193\r1"
SOLVED = ["5 0", "12 2", " 0", " 0", "5193 0", "1 0"]


def test_every_line_end_ends_a_line_of_a_text_stream() -> None:
    code, out, err = run("solve", "tictactoe", stdin="5\r12\r")
    assert code == 0 and err == "" and out.splitlines() == ["5 0", "12 2"]
    code, out, err = run("solve", "tictactoe", stdin=MIXED)
    assert code == 0 and err == "" and out.splitlines() == SOLVED


def test_every_line_end_ends_a_line_of_a_file(tmp_path: Path) -> None:
    for encoding, data in [
        ("utf-8", MIXED.encode()),
        ("utf-8 with its mark", b"\xef\xbb\xbf" + MIXED.encode()),
        ("utf-16", MIXED.encode("utf-16")),
    ]:
        path = tmp_path / "positions.txt"
        path.write_bytes(data)
        code, out, err = run("solve", "tictactoe", str(path))
        assert (code, err, out.splitlines()) == (0, "", SOLVED), encoding


class Trickle(io.RawIOBase):
    """Bytes that come a piece at a time, as from a pipe (see :func:`trickle`)."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        return self.pieces.pop(0) if self.pieces else b""


def trickle(*pieces: bytes) -> IO[bytes]:
    return cast(IO[bytes], Trickle(list(pieces)))


def test_a_line_end_split_between_two_reads_is_one_end() -> None:
    from unbeatable.cli.solve import decode, split_lines

    assert list(split_lines(trickle(b"5\r", b"\n12\r", b"\r", b"\n3"))) == [
        b"5",
        b"12",
        b"",
        b"3",
    ]
    lines = decode(trickle(b"\xef", b"\xbb", b"\xbf5\r", b"\n\xff\r"))
    assert [(line.number, line.text, bool(line.problem)) for line in lines] == [
        (1, "5", False),
        (2, "", True),  # not UTF-8: that line alone
    ]
