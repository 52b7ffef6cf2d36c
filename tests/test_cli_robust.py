"""The command line under hostile input: bounds, bytes, broken streams, options anywhere, and
exact searches that cost what the library's do (issue 12, items 4, 5, 6, 8, 10 and 12)."""

from __future__ import annotations

import codecs
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import one_error_line, run
from unbeatable import cli, get_game
from unbeatable.game import SolveRequest
from unbeatable.games.connect4 import Connect4State
from unbeatable.search import Limits, Searcher, SearchInterrupted, SearchOptions

ROOT = Path(__file__).resolve().parent.parent
EXIT_CODES = ("0", "1", "2", "3", "130", "141")


def shell(command: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``command`` run by a shell, with ``unbeatable`` meaning this interpreter's module."""
    python = f"{sys.executable} -m unbeatable"
    return subprocess.run(
        ["sh", "-c", command.replace("unbeatable", python, 1)],
        input=stdin,
        capture_output=True,
        timeout=120,
        cwd=ROOT,
    )


# --- item 4: --workers is bounded -----------------------------------------------------------


@pytest.mark.parametrize("command", [["solve", "tictactoe"], ["analyze", "tictactoe", "5"]])
def test_too_many_workers_are_refused(command: list[str]) -> None:
    too_many = 4 * (os.cpu_count() or 1) + 1
    code, out, err = run(*command, "--workers", str(too_many))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert str(too_many) in line and "at most" in line


@pytest.mark.parametrize("command", [["analyze", "connect4", "4"], ["play", "connect4"]])
def test_too_many_solver_threads_are_refused(command: list[str]) -> None:
    too_many = 4 * (os.cpu_count() or 1) + 1
    code, out, err = run(*command, "--threads", str(too_many))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert f"{too_many} threads is too many" in line and "at most" in line
    with pytest.raises(ValueError, match="threads is too many"):
        SearchOptions(threads=too_many)


def test_a_solver_table_larger_than_memory_is_refused() -> None:
    code, out, err = run("analyze", "connect4", "5", "--table-size", "99999999999999")
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "70,368,744,177,664 entries" in line and "memory" in line  # rounded to 2**46


# --- item 5: batches never lose a line ------------------------------------------------------


def solve_bytes(data: bytes, tmp_path: Path) -> tuple[int, list[str], list[str]]:
    """Solve ``data`` from a file and from a byte stream on stdin; both must agree."""
    path = tmp_path / "positions.txt"
    path.write_bytes(data)
    code, out, err = run("solve", "tictactoe", str(path))
    piped = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    assert run("solve", "tictactoe", stdin=piped) == (code, out, err)
    assert "Traceback" not in err
    return code, out.splitlines(), err.splitlines()


def test_invalid_utf8_spoils_one_line_only(tmp_path: Path) -> None:
    code, out, err = solve_bytes(b"5\n1\xe92\n12\n", tmp_path)
    assert code == 2
    assert out == ["5 0", "12 2"]
    assert err[0] == "unbeatable: line 2: not UTF-8 text: byte 0xe9 at column 2"


def test_a_utf8_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    code, out, err = solve_bytes(codecs.BOM_UTF8 + b"5\n12\n", tmp_path)
    assert (code, out, err) == (0, ["5 0", "12 2"], [])


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_a_byte_order_mark_is_read(tmp_path: Path, encoding: str) -> None:
    mark = {"utf-16": b"", "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
    data = mark[encoding] + "5\r\n12\r\nzz\r\n9\r\n".encode(encoding)
    code, out, err = solve_bytes(data, tmp_path)
    assert code == 2
    assert out == ["5 0", "12 2", "9 0"]
    assert err[0].startswith("unbeatable: line 3: 'zz' is not a cell")


def test_a_number_too_long_for_python_is_one_bad_line() -> None:
    long = "1" * 5000  # a token of its own (before a comma): read as one number
    code, out, err = run("solve", "tictactoe", stdin=f"5\n{long},2\n12\n")
    assert code == 2
    assert out.splitlines() == ["5 0", "12 2"]
    line = err.splitlines()[0]
    assert line.startswith("unbeatable: line 2: ") and "5000 digits is too long" in line
    assert len(line) < 400


def test_digits_that_a_game_reads_one_at_a_time_are_moves_not_a_number() -> None:
    code, out, err = run("analyze", "connect4", "4" * 5000)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert line.startswith("unbeatable: error: column 4 is full") and "(move 7 of '4444" in line
    assert len(line) < 400


def test_a_number_too_long_in_play_is_asked_again() -> None:
    code, out, err = run("play", "tictactoe", stdin="1" * 5000 + "\nquit\n")
    assert code == 0 and err == ""
    assert "5000 digits is too long" in out and "try again" in out


def test_empty_lines_are_the_start_and_keep_lines_in_step() -> None:
    code, out, err = run("solve", "tictactoe", stdin="5\n\n   \n12\n")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["5 0", " 0", " 0", "12 2"]


# --- item 6: no tracebacks from the streams -------------------------------------------------


class Failing(io.StringIO):
    """A stream whose writes fail with ``error``."""

    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error


FULL = OSError(28, "No space left on device")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "tictactoe"],
        ["analyze", "tictactoe", "5"],
        ["analyze", "tictactoe", "5", "--json"],
        ["play", "tictactoe"],
        ["bench", "--json"],
    ],
)
def test_a_full_disk_is_one_line_and_exit_2(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from unbeatable.bench import BENCH_POSITIONS, run_bench

    monkeypatch.setattr(
        cli.bench, "run_bench", lambda on_result: run_bench(BENCH_POSITIONS[:1], on_result)
    )
    code, _, err = run(*argv, stdin="5\n", stdout=Failing(FULL))
    assert code == 2
    assert "No space left on device" in one_error_line(err)


def test_a_broken_pipe_stops_quietly_with_141() -> None:
    code, _, err = run("solve", "tictactoe", stdin="5\n", stdout=Failing(BrokenPipeError(32, "")))
    assert code == 141 and err == ""


def test_a_closed_stderr_does_not_change_the_exit_code() -> None:
    gone = Failing(BrokenPipeError(32, "Broken pipe"))
    code, out, _ = run("solve", "tictactoe", stdin="zz\n5\n", stderr=gone)
    assert code == 2 and out == "5 0\n"
    code, _, _ = run("analyze", "tictactoe", "55", stderr=gone)
    assert code == 2


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(  # each a process, 0.6 s (2026-12-02): one of them is slow
    "command",
    [
        "unbeatable analyze tictactoe 5",
        pytest.param("echo 5 | unbeatable solve tictactoe", marks=pytest.mark.slow),
    ],
)
def test_dev_full_as_a_process(command: str) -> None:
    done = shell(command + " > /dev/full")
    assert done.returncode == 2, done.stderr
    err = done.stderr.decode()
    assert "Traceback" not in err and "Exception ignored" not in err
    assert "No space left on device" in one_error_line(err)


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc/self/mem")
@pytest.mark.parametrize(
    "command",
    [  # each a process, 0.6 s (2026-12-02): the file and play's standard input stay quick
        "unbeatable solve tictactoe /proc/self/mem",
        pytest.param("unbeatable solve tictactoe < /proc/self/mem", marks=pytest.mark.slow),
        "unbeatable play tictactoe < /proc/self/mem",
    ],
)
def test_an_unreadable_input_is_one_line_and_exit_2(command: str) -> None:
    done = shell(command)
    assert done.returncode == 2, done.stderr
    assert "cannot read" in one_error_line(done.stderr.decode())


def test_closed_stderr_as_a_process() -> None:
    done = shell("unbeatable solve tictactoe 2>&-", stdin=b"zz\n5\n")
    assert done.returncode == 2 and done.stdout == b"5 0\n"


# --- item 8: exact searches cost what the library's do; Ctrl-C prints the best known --------


@pytest.mark.parametrize(("game", "position"), [("mnk:3,4,3", "1"), ("tictactoe", "")])
def test_an_exact_analysis_costs_what_the_library_does(game: str, position: str) -> None:
    code, out, _ = run("analyze", game, position, "--json")
    assert code == 0
    state = get_game(game).parse_position(position)
    library = Searcher().search(state, analyze=True)
    data = json.loads(out)
    assert data["nodes"] == library.nodes and data["exact"]
    assert data["depth"] == library.depth  # one iteration, not one per ply


def test_play_asks_the_library_for_one_exact_search(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Limits | None] = []
    real = Searcher.search

    def search(self: Searcher, state: Any, limits: Any = None, **kw: Any) -> Any:
        seen.append(limits)
        return real(self, state, limits, **kw)

    monkeypatch.setattr(Searcher, "search", search)
    monkeypatch.setattr(cli.play.Session, "warn_if_slow", lambda self: None)
    code, out, _ = run("play", "tictactoe", "--human", "second", stdin="quit\n")
    assert code == 0 and "AI plays" in out
    assert seen == [Limits()]


def test_ctrl_c_in_an_exact_search_prints_the_best_known(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Searcher.search

    def search(self: Searcher, state: Any, limits: Any = None, **kw: Any) -> Any:
        partial = real(self, state, Limits(depth=1), **kw)
        raise SearchInterrupted(replace(partial, complete=False))

    monkeypatch.setattr(Searcher, "search", search)
    code, out, err = run("analyze", "tictactoe", "5")
    assert code == 130
    assert "interrupted" in one_error_line(err)
    assert "interrupted" in out.splitlines()[-1] and "best so far:" in out
    code, out, _ = run("analyze", "tictactoe", "5", "--json")
    assert code == 130 and json.loads(out)["interrupted"]


# --- item 10: help and options that are right -----------------------------------------------


def test_options_before_the_position() -> None:
    code, out, err = run("analyze", "tictactoe", "--json", "5")
    assert code == 0, err
    assert json.loads(out)["position"] == ".../.x./..."
    code, out, err = run("tree", "tictactoe", "--depth", "2", "51", "--format", "text")
    assert code == 0, err
    assert "from '51'" in out
    code, _, err = run("solve", "tictactoe", "--weak", "-", stdin="5\n")
    assert code == 0, err


def test_nodes_help_says_exact_and_the_search_keeps_to_it() -> None:
    _, out, _ = run("analyze", "--help")
    assert "honoured exactly" in " ".join(out.split())
    for budget in (1, 7, 50):
        code, out, _ = run("analyze", "mnk:4,4,4", "6", "--nodes", str(budget), "--json")
        assert code == 0
        assert json.loads(out)["nodes"] <= budget
    # a game's own solver too (its threads share the budget), and a player after it
    for budget in (1, 777, 5_000):
        argv = ["analyze", "connect4", "4", "--no-book", "--nodes", str(budget), "--json"]
        code, out, _ = run(*argv)
        assert code == 0 and json.loads(out)["nodes"] <= budget
    state = get_game("connect4:width=8,height=7").parse_position("45")
    for budget in (100, 1_000, 20_000):
        result = Searcher().search(state, Limits(nodes=budget))
        assert result.nodes <= budget and result.depth >= 2  # the evaluation's half searched


def test_the_recursion_check_counts_depth() -> None:
    code, _, err = run("analyze", "subtraction:5000,1", "--algorithm", "alphabeta")
    assert code == 2 and "alphabeta-stack" in one_error_line(err)
    code, _, err = run("analyze", "subtraction:5000,1", "--algorithm", "alphabeta", "--depth", "5")
    assert code == 0, err


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[SolveRequest]:
    """The requests Connect Four's own solver receives (it still answers them)."""
    seen: list[SolveRequest] = []
    real = Connect4State.solver_moves

    def solver_moves(self: Connect4State, request: SolveRequest) -> Any:
        seen.append(request)
        return real(self, request)

    monkeypatch.setattr(Connect4State, "solver_moves", solver_moves)
    return seen


def test_table_size_reaches_the_games_own_solver(asked: list[SolveRequest]) -> None:
    code, _, err = run("analyze", "connect4", "4453", "--table-size", "4096", "--json")
    assert code == 0, err
    assert asked and asked[0].table_size == 4096
    asked.clear()
    assert run("analyze", "connect4", "4453", "--json")[0] == 0
    assert asked and asked[0].table_size is None  # the solver's own default


def test_every_exit_code_is_documented() -> None:
    docs = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| (\d+) \|", docs, re.M)
    assert tuple(table) == EXIT_CODES
    for code in EXIT_CODES:
        assert f"**{code}**" in readme, code


def test_docs_subtraction_positions_read_as_written() -> None:
    docs = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    written = re.search(r"`([^`]*)` in the subtraction game", docs)
    assert written is not None
    code, out, err = run("solve", "subtraction", stdin=written.group(1) + "\n")
    assert code == 0, err
    assert out.split()[0] == written.group(1)


# --- item 12: small things ------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["mnk:３,3,3", "subtraction:3_0", "subtraction:pile=٣"])
def test_game_specs_take_ascii_digits_only(spec: str) -> None:
    code, _, err = run("solve", spec)
    assert code == 2 and "whole number" in one_error_line(err)


def test_a_long_bad_line_is_cut() -> None:
    code, _, err = run("solve", "tictactoe", stdin="z" * 1_000_000 + "\n")
    assert code == 2
    line = one_error_line(err)
    assert len(line) < 400 and "z" * 80 + "..." in line


def test_counts_are_singular_for_one() -> None:
    _, _, err = run("solve", "tictactoe", stdin="5\nzz\n")
    assert err.splitlines()[-1] == "unbeatable: 1 position solved, 0 mismatched, 1 bad line"


def test_a_format_that_contradicts_the_suffix_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "t.svg"
    code, _, err = run("tree", "tictactoe", "51", "--format", "png", "-o", str(target))
    assert code == 2 and "--format png" in one_error_line(err)
    assert not target.exists()
    code, _, _ = run("tree", "tictactoe", "51", "--format", "text", "-o", str(tmp_path / "t.out"))
    assert code == 0


def test_an_unfinished_piped_game_exits_1() -> None:
    code, out, _ = run("play", "tictactoe", stdin="5\n1\n9\n")
    assert code == 1 and "game left unfinished" in out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"printf '([^']*)' \| unbeatable play tictactoe --human x", readme)
    assert example is not None
    code, out, _ = run("play", "tictactoe", stdin=example.group(1).replace("\\n", "\n"))
    assert code == 0 and "game over" in out


def test_pyproject_licence_is_an_spdx_string() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^license = "MIT"$', text, re.M)
    assert re.search(r"^license-files = ", text, re.M)


def test_threads_and_no_book_reach_the_games_own_solver(asked: list[SolveRequest]) -> None:
    code, _, err = run("analyze", "connect4", "44444433", "--threads", "1", "--no-book", "--json")
    assert code == 0, err
    assert asked and asked[0].threads == 1 and asked[0].book is False
    asked.clear()
    assert run("analyze", "connect4", "44444433", "--json")[0] == 0
    assert asked and asked[0].threads is None and asked[0].book is True  # every core, the book


def test_a_long_quote_in_a_solve_error_is_cut_and_the_reason_kept() -> None:
    code, out, err = run("solve", "connect4", stdin="x" * 5000 + "\n")
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert line.startswith("unbeatable: line 1: '" + "x" * 80 + "...'")
    assert line.endswith("has 1 rows; a 7x6 board has 6") and len(line) < 200
