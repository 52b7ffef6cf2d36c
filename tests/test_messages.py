"""Messages about bad input: one line naming the offending text, long echoes cut, the reason
and the place kept, no Python internals (issue 18, defect 3)."""

from __future__ import annotations

import io
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import error_line, run
from unbeatable.messages import ECHO_LIMIT, MESSAGE_LIMIT, cut_echoes

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#: the 15 x 15 board after moves 1 to 9
BOARD_15 = "/".join(["xoxoxoxox" + "." * 6] + ["." * 15] * 14)

# --- the cutter --------------------------------------------------------------------------


def test_two_short_quotes_around_a_long_text_are_left_whole() -> None:
    message = f"'e2e5' is not a legal move in {START} (move 1 of 'e2e5')"
    assert cut_echoes(message) == message


def test_a_long_quote_is_cut_inside_its_quotes_and_the_rest_kept() -> None:
    message = f"{'x' * 5000!r} is not a cell (move 1 of {'1 ' * 3000!r}) in 3x3"
    cut = cut_echoes(message)
    assert cut == f"'{'x' * ECHO_LIMIT}...' is not a cell (move 1 of '{'1 ' * 40}...') in 3x3"


def test_a_quote_is_cut_between_escapes_and_keeps_its_kind_of_quote() -> None:
    cut = cut_echoes(f"bad {chr(0) * 100!r}: it's {'a' * 100 + chr(39)!r}")
    assert cut == "bad '" + "\\x00" * 20 + "...': it's \"" + "a" * 80 + '..."'


def test_a_long_board_is_cut_and_the_place_of_the_move_kept() -> None:
    board = "/".join(["xo" + "." * 18] + ["." * 20] * 19)
    message = f"cell 1 is taken in {board} (move 10 of '1 2 3 4 5 6 7 8 9 1 2 3')"
    cut = cut_echoes(message)
    place = "(move 10 of '1 2 3 4 5 6 7 8 9 1 2 3')"
    assert cut == f"cell 1 is taken in {board[:ECHO_LIMIT]}... {place}"


def test_a_message_still_too_long_loses_its_middle() -> None:
    message = "first " + "word " * 200 + "(move 7 of 'last')"
    cut = cut_echoes(message)
    assert len(cut) <= MESSAGE_LIMIT and " ... " in cut
    assert cut.startswith("first word") and cut.endswith("word (move 7 of 'last')")


TEXT = st.text(st.sampled_from("ab '\"\\/x.0 \n"), max_size=1500)


@given(TEXT)
def test_any_message_is_bounded_and_cut_once_for_all(message: str) -> None:
    cut = cut_echoes(message)
    assert len(cut) <= max(len(message), MESSAGE_LIMIT)
    assert len(cut) <= MESSAGE_LIMIT
    assert cut_echoes(cut) == cut


@given(st.lists(st.text(st.sampled_from("abc'/. "), max_size=ECHO_LIMIT // 3), max_size=4))
def test_a_short_message_is_left_whole(words: list[str]) -> None:
    message = " ".join(repr(word) for word in words)
    assert cut_echoes(message) == message


# --- the command line and the page say it ----------------------------------------------------


def test_an_illegal_chess_move_is_named_once_with_its_position() -> None:
    code, out, err = run("analyze", "chess", "e2e5")
    assert code == 2 and out == ""
    assert error_line(err) == f"'e2e5' is not a legal move in {START} (move 1 of 'e2e5')"


def test_a_long_mnk_error_keeps_the_number_of_the_move() -> None:
    moves = "1 2 3 4 5 6 7 8 9 1 2 3"
    code, _, err = run("analyze", "mnk:20,20,5", moves)
    line = error_line(err)
    assert code == 2 and line.startswith("cell 1 is taken in xoxoxoxox")
    assert line.endswith(f"(move 10 of '{moves}')") and len(line) <= MESSAGE_LIMIT


def test_a_game_parameter_too_long_for_python_is_named() -> None:
    code, _, err = run("analyze", "subtraction:" + "9" * 5000 + ",3")
    line = error_line(err)
    assert code == 2 and "set_int_max_str_digits" not in line
    spec = "subtraction:" + "9" * (ECHO_LIMIT - len("subtraction:"))
    assert line == f"'{spec}...': a number of 5000 digits is too long (at most 4300)"


def test_an_impossible_fen_is_told_in_words() -> None:
    code, _, err = run("analyze", "chess", "fen 8/8/8/8/8/8/8/8 w - - 0 1")
    line = error_line(err)
    assert code == 2 and "Status" not in line and "2051" not in line
    assert line == (
        "not a legal chess position: '8/8/8/8/8/8/8/8 w - - 0 1' "
        "(White has 0 kings)"
    )


def test_the_page_says_the_same() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from unbeatable.web.app import create_app

    with TestClient(create_app(1, queue=1, warm=False)) as client:
        for params, message in [
            (
                {"game": "chess", "moves": "e2e5"},
                f"'e2e5' is not a legal move in {START} (move 1 of 'e2e5')",
            ),
            (
                {"game": "chess", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"},
                "not a legal chess position: '8/8/8/8/8/8/8/8 w - - 0 1' "
                "(White has 0 kings)",
            ),
            (
                {"game": "mnk:15,15,5", "moves": "1,2,3,4,5,6,7,8,9,1"},
                f"cell 1 is taken in {BOARD_15[:ECHO_LIMIT]}... (move 10 of '1,2,3,4,5,6,7,8,9,1')",
            ),
        ]:
            reply = client.get("/api/analyze", params=params)
            assert reply.status_code == 400 and reply.json()["error"] == message


# --- numbers in options (found by tests/test_fuzz_fronts.py) ----------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["analyze", "tictactoe", "--depth", "9" * 5000],
            f"argument --depth: '{'9' * ECHO_LIMIT}...': a number of 5000 digits is too long "
            "(at most 4300) (see 'unbeatable analyze --help')",
        ),
        (
            ["analyze", "tictactoe", "--time", "１"],  # float reads it as 1
            "argument --time: '１' is not a number of seconds (see 'unbeatable analyze --help')",
        ),
        (
            ["analyze", "tictactoe", "--time", "1_0"],
            "argument --time: '1_0' is not a number of seconds (see 'unbeatable analyze --help')",
        ),
        (
            ["match", "random", "random", "--seed", "１"],  # int reads it as 1
            "argument --seed: '１' is not a whole number (see 'unbeatable match --help')",
        ),
    ],
)
def test_a_number_option_is_ascii_and_not_too_long(argv: list[str], message: str) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == "" and error_line(err) == message


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "８０"], "argument --port: '８０' is not a whole number"),
        (["--queue", "9" * 5000], f"argument --queue: '{'9' * ECHO_LIMIT}...' must be from 0 to"),
        (["--time-cap", "３"], "argument --time-cap: '３' is not a number of seconds"),
    ],
)
def test_a_number_option_of_serve_is_ascii_and_not_too_long(
    argv: list[str], message: str
) -> None:
    from unbeatable.web import server

    err = io.StringIO()
    # --workers 0 after it: a server that took the number would refuse that, not serve
    assert server.main([*argv, "--workers", "0"], stderr=err) == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"unbeatable serve: error: {message}")
    assert len(lines[0]) <= MESSAGE_LIMIT + len("unbeatable serve: error: ")
