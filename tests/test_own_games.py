"""A game of your own, everywhere a GAME is taken (issue 22, item 1): ``module:attribute`` as
uvicorn takes an app, in a module beside the command; games that installed packages register
under the entry-point group ``unbeatable.games``; one clear line for every bad one; and a web
server that imports only the games it was started with."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import error_line, run
from tests.own_sources import nim_source
from unbeatable import check_game
from unbeatable.games import GameLoadError, UnknownGameError, get_game, load_game, loaded_games
from unbeatable.search import search

NIM = nim_source((1, 2), "Nim on small heaps, a learner's own game.") + '''


class NimGame(Game):
    """Nim as a Game of its own."""

    name = "nim"

    def initial(self):
        return Nim((2, 2))


GAME = NimGame()


def make_game():
    return NimGame()


def make_start():
    return Nim((3,))


class Holder:
    Inner = Nim


NOT_A_GAME = 42


def broken():
    raise RuntimeError("no game today")


class Abstract(State):
    pass
'''


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A module of games in a fresh directory, the current one; its unique name."""
    name = f"own_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(NIM, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # load_game puts the directory first
    yield name
    sys.modules.pop(name, None)


@pytest.mark.parametrize(
    ("attribute", "heaps"),
    [
        ("Nim", (1, 2)),  # a State subclass: Nim() is the start
        ("GAME", (2, 2)),  # a Game
        ("NimGame", (2, 2)),  # a Game subclass, made without arguments
        ("make_game", (2, 2)),  # a function returning a Game
        ("make_start", (3,)),  # a function returning the start
        ("Holder.Inner", (1, 2)),  # a dotted attribute
    ],
)
def test_every_kind_of_attribute_loads_as_a_game(module: str, attribute: str, heaps: Any) -> None:
    spec = f"{module}:{attribute}"
    game = load_game(spec)
    assert game.spec == spec and get_game(spec) is game  # known by its name from now on
    assert loaded_games()[spec] is game
    assert game.initial().heaps == heaps  # type: ignore[attr-defined]
    check_game(game, games=5)
    assert load_game(spec) is game  # imported once


def test_moves_with_spaces_and_commas_read_back(module: str) -> None:
    game = load_game(f"{module}:Nim")
    state = game.parse_position("(1, 1) (0, 1)")
    assert state.heaps == (0, 1) and state.outcome() is None  # type: ignore[attr-defined]
    assert game.split_moves("(1, 2),(0, 1)") == ["(1, 2)", "(0, 1)"]
    assert game.split_moves("(1,2)(0,1)") == ["(1, 2)", "(0, 1)"]
    with pytest.raises(ValueError, match=r"'\(1, 1\)' is not a legal move"):
        game.parse_position("(1, 2) (1, 1)")


@pytest.mark.parametrize(
    ("attribute", "message"),
    [
        ("Nimm", r"has no attribute 'Nimm' \(did you mean 'Nim'\?\)"),
        ("NOT_A_GAME", r"is not a game: it is an int; it must be a Game, a State subclass"),
        ("broken", r"failed: RuntimeError: no game today"),
        ("Abstract", r"does not define legal_moves, outcome, play, to_move"),
        ("Holder.Outer", r"'.*:Holder' has no attribute 'Outer'"),
    ],
)
def test_a_bad_attribute_is_one_line_with_exit_2(
    module: str, attribute: str, message: str
) -> None:
    code, out, err = run("analyze", f"{module}:{attribute}", "")
    assert code == 2 and out == ""
    line = error_line(err)
    assert f"{module}:{attribute}" in line
    assert re.search(message, line), line


def test_a_module_that_is_not_there_or_breaks_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "syntaxbad.py").write_text("def (:\n", encoding="utf-8")
    (tmp_path / "needsmore.py").write_text("import no_such_dependency_here\n", encoding="utf-8")
    (tmp_path / "exits.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    cases = {
        "nowhere_to_be_found:Nim": "no module named 'nowhere_to_be_found' (looked in the "
        "current directory",
        "syntaxbad:Nim": "importing 'syntaxbad' for the game 'syntaxbad:Nim' failed: "
        "SyntaxError",
        "needsmore:Nim": "failed: ModuleNotFoundError: No module named 'no_such_dependency_here'",
        "exits:Nim": "importing 'exits' for the game 'exits:Nim' failed: SystemExit: 3",
        "wizard": "unknown game 'wizard': choose one of",
        "my game:Nim": "unknown game 'my game:Nim'",
    }
    try:
        for spec, message in cases.items():
            for command in (["analyze", spec, ""], ["play", spec], ["match", "random", "random",
                            "--game", spec], ["solve", spec], ["tree", spec, ""]):
                code, out, err = run(*command, stdin="")
                assert code == 2 and out == "", (command, out)
                assert message in error_line(err), (command, err)
    finally:
        for name in ("syntaxbad", "needsmore", "exits"):
            sys.modules.pop(name, None)


def test_get_game_never_imports(module: str) -> None:
    with pytest.raises(UnknownGameError, match=r"unknown game .*loaded first") as caught:
        get_game(f"{module}:Nim")
    assert module not in sys.modules
    assert "serve --game" in str(caught.value)
    with pytest.raises(GameLoadError):
        load_game("os:path")  # a module that is not a game: refused by name
    assert isinstance(GameLoadError("x", "x"), ValueError)


def test_every_command_takes_a_game_of_your_own(module: str) -> None:
    spec = f"{module}:Nim"
    code, out, err = run("analyze", spec, "", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["game"] == spec and report["score"]["text"] == "win in 2"
    code, out, err = run("solve", spec, "--weak", stdin="\n(0,1)\n(1,1) -1\n")
    assert code == 0, err
    assert out.splitlines() == [" 1", "(0,1) 1", "(1,1) -1"]
    code, out, err = run("solve", spec, stdin="\n")  # no max_plies: no solve convention
    assert code == 2 and "Nim has no max_plies: no solve score" in error_line(err)
    code, out, err = run("play", spec, "--human", "second", stdin="(0, 1)\n")
    assert code == 0, err
    assert "game over: the AI wins" in out
    code, out, err = run("match", "perfect", "random", "--game", spec, "-n", "4", "--seed", "1")
    assert code == 0, err
    assert spec in out.splitlines()[0]
    code, out, err = run("tree", spec, "", "--depth", "2")
    assert code == 0, err


def test_an_installed_package_registers_games_by_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"own_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(NIM, encoding="utf-8")
    info = tmp_path / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[unbeatable.games]\n{name}-nim = {name}:Nim\n{name}-broken = {name}:NOT_A_GAME\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        game = load_game(f"{name}-nim")
        assert game.spec == f"{name}-nim" and get_game(f"{name}-nim") is game
        assert search(game.initial()).score.is_win
        code, out, err = run("analyze", f"{name}-nim", "")
        assert code == 0 and "first player to move: win in 2" in out, err
        code, out, err = run("analyze", f"{name}-broken", "")
        assert code == 2 and "is not a game" in error_line(err)
    finally:
        sys.modules.pop(name, None)


# --- the web server -------------------------------------------------------------------------


def fetch(port: int, path: str, params: dict[str, str]) -> tuple[int, Any]:
    query = "?" + urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}{query}", timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.slow
def test_serve_adds_games_and_imports_nothing_else(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    from unbeatable.web.server import free_port, launch, stop

    (tmp_path / "servednim.py").write_text(NIM, encoding="utf-8")
    (tmp_path / "trap.py").write_text(
        f"open({str(tmp_path / 'imported')!r}, 'w').close()\n", encoding="utf-8"
    )
    port = free_port()
    process = launch(port, workers=1, games=["servednim:Nim", "servednim:GAME"], cwd=str(tmp_path))
    try:
        status, data = fetch(port, "/api/games", {})
        listed = {g["name"]: g for g in data["games"]}
        assert status == 200 and {"servednim:Nim", "servednim:GAME", "tictactoe"} <= set(listed)
        assert listed["servednim:Nim"]["board"] == "list"
        assert listed["servednim:Nim"]["summary"] == "Nim on small heaps, a learner's own game."
        status, position = fetch(port, "/api/position", {"game": "servednim:Nim", "moves": ""})
        assert status == 200 and position["board"] == {"kind": "list"}
        assert position["picture"] == "Nim(heaps=(1, 2), turn=0)"
        assert position["legal"] == ["(0, 1)", "(1, 1)", "(1, 2)"]
        status, report = fetch(
            port, "/api/analyze", {"game": "servednim:Nim", "moves": "(1, 1)"}
        )
        assert status == 200 and report["score"]["text"] == "loss in 1", report
        status, reply = fetch(port, "/api/move", {"game": "servednim:GAME", "moves": ""})
        assert status == 200 and reply["move"] in ("(0, 1)", "(0, 2)", "(1, 1)", "(1, 2)")
        for spec in ("trap:anything", "servednim:Holder", "os:path"):
            status, body = fetch(port, "/api/position", {"game": spec, "moves": ""})
            assert status == 400 and body["parameter"] == "game", body
            assert body["error"].startswith(f"unknown game {spec!r}")
        assert not (tmp_path / "imported").exists()  # a request never imports a module
    finally:
        err = stop(process)
    assert "Traceback" not in err


def test_serve_refuses_a_bad_game_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable.web", "--game", "nosuchmodule:Nim", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "--game: cannot load the game 'nosuchmodule:Nim'" in lines[0]
    code, _, err = run("serve", "--game", "nosuchmodule:Nim", "--port", "1")
    assert code == 2 and err == ""  # the server's own line goes to the process's stderr


def test_the_page_shows_a_game_without_a_picture_as_text_and_buttons(module: str) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from unbeatable.web.app import create_app

    load_game(f"{module}:Nim")
    with TestClient(create_app(1, queue=2, cap=10)) as client:
        position = client.get("/api/position", params={"game": f"{module}:Nim", "moves": ""})
        assert position.status_code == 200
        data = position.json()
        assert data["board"] == {"kind": "list"} and data["picture"].startswith("Nim(")
        games = client.get("/api/games").json()["games"]
        assert any(g["name"] == f"{module}:Nim" for g in games)
        other = client.get("/api/position", params={"game": "elsewhere:Nim"})
        assert other.status_code == 400 and "unknown game" in other.json()["error"]
    assert "elsewhere" not in sys.modules


def test_the_readme_mentions_what_the_code_does() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "unbeatable analyze mygame:Nim" in readme
    assert '[project.entry-points."unbeatable.games"]' in readme
