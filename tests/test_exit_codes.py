"""Exit codes as the README promises them: a user error is one line and code 2 wherever it is
found, in a command or in a front end (issue 18, defect 4; Ctrl-C of `serve`, 130, is in
tests/test_web_server.py)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from tests.helpers import error_line, run
from unbeatable import cli
from unbeatable.messages import cut


@pytest.mark.parametrize("name", ["x.svg", "x.png", "x.dot"])
def test_a_tree_that_cannot_be_written_is_a_user_error(tmp_path: Path, name: str) -> None:
    missing = tmp_path / "no such folder" / name
    code, out, err = run("tree", "tictactoe", "5", "-o", str(missing))
    assert code == 2 and out == ""
    assert error_line(err) == f"cannot write {cut(str(missing))!r}: No such file or directory"
    assert not missing.parent.exists()


def test_a_drawn_tree_is_still_written(tmp_path: Path) -> None:
    if shutil.which("dot") is None:
        pytest.skip("Graphviz is not installed")
    path = tmp_path / "t.svg"
    code, out, err = run("tree", "tictactoe", "5", "-o", str(path))
    assert code == 0 and err == "" and out.startswith(f"wrote {path}: ")
    assert path.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_a_bad_option_of_uci_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run("uci", "--bogus")  # uci.main writes to the process's own streams
    captured = capsys.readouterr()
    assert code == 2 and out == err == captured.out == ""
    assert captured.err.splitlines() == [
        "unbeatable uci: error: unrecognized arguments: --bogus (see 'unbeatable uci --help')"
    ]


def test_uci_main_reports_a_bad_option_on_the_stream_given() -> None:
    from unbeatable import uci

    err = io.StringIO()
    assert uci.main(["--game", "go"], stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 2
    assert len(err.getvalue().splitlines()) == 1 and "invalid choice: 'go'" in err.getvalue()
    assert uci.main([], stdin=io.StringIO("quit\n"), stdout=io.StringIO()) == 0


def test_a_bad_option_of_serve_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    assert cli.main(["serve", "--bogus"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "unbeatable serve: error: unrecognized arguments: --bogus "
        "(see 'unbeatable serve --help')"
    ]
