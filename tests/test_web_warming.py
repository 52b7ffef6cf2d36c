"""The server starts at once and warms the compiled games in the background: the health check
and tic-tac-toe answer at once, a compiled game answers 503 "warming up" with Retry-After until
its kernels are loaded, and then answers.

The fast tests hold a game "warming" in an app's pool; the slow one runs a real server process
on a numba cache without Connect Four's search with the rules (that kernel really built; the
others copied in from the tree's cache when it has them, to spare their build).
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from unbeatable import kernels
from unbeatable.games.connect4.hooks import KERNELS as CONNECT4
from unbeatable.web.app import RETRY_AFTER_WARMING, create_app
from unbeatable.web.server import free_port, launch, stop

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_game_still_warming_answers_503_with_retry_after_and_others_answer() -> None:
    app = create_app(1, queue=2, cap=10, warm=False)
    with TestClient(app) as client:
        pool = app.state.pool
        pool._warming = {"connect4": (CONNECT4, time.monotonic())}
        health = client.get("/api/health").json()
        assert health["warming"] == ["connect4"] and health["status"] == "ok"
        answer = client.get("/api/analyze", params={"game": "connect4", "moves": "4453"})
        assert answer.status_code == 503
        assert 1 <= int(answer.headers["Retry-After"]) <= RETRY_AFTER_WARMING
        body = answer.json()
        assert body["error"].startswith("warming up: loading the Connect Four solver")
        assert (body["parameter"], body["text"]) == ("game", "connect4")
        moved = client.get("/api/move", params={"game": "connect4", "moves": "44"})
        assert moved.status_code == 503
        assert client.get("/api/analyze", params={"game": "tictactoe"}).status_code == 200
        assert client.get("/api/position", params={"game": "connect4"}).status_code == 200
        pool._warming = {}
        assert client.get("/api/health").json()["warming"] == []
        answer = client.get("/api/analyze", params={"game": "connect4", "moves": "4453"})
        assert answer.status_code == 200 and answer.json()["score"]["solve_score"] == -2


def _get(port: int, path: str) -> tuple[int, dict[str, str], Any]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
            return r.status, dict(r.headers), json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.load(e)


@pytest.mark.slow
def test_a_real_server_on_a_cold_cache_answers_at_once_and_warms_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    chess = kernels.groups()["chess"]
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    trees = {group: kernels.cache_dir(group) for group in (chess, CONNECT4)}
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    for group, tree in trees.items():
        # spare the chess engine's build, and Connect Four's but for its largest kernel (the
        # search with the rules, which the warm-up builds: about half the build's time)
        files = list(tree.glob("*.nb[ic]")) if tree.is_dir() else []
        target = kernels.cache_dir(group)
        target.mkdir(parents=True)
        for cached in files:
            shutil.copy2(cached, target / cached.name)
        if group is CONNECT4:
            # the count a complete load leaves here (the files copied, rules and all); then
            # the rules' kernel taken out again (with none, the whole cache: cold from empty)
            kernels.remember(group)
            rules = list(target.glob("_negamax.negamax_rules-*.nb[ic]"))
            for cached in rules or list(target.iterdir()):
                cached.unlink()
    assert kernels.is_cold(CONNECT4)  # fewer kernels cached than a complete load leaves
    port = free_port()
    process = launch(port, workers=2, ready=False, timeout=120)
    try:
        status, _, health = _get(port, "/api/health")
        assert status == 200 and "connect4" in health["warming"]
        status, _, body = _get(port, "/api/analyze?game=tictactoe&moves=5")
        assert status == 200 and body["score"]["text"] == "draw"
        status, headers, body = _get(port, "/api/analyze?game=connect4&moves=4453")
        assert status == 503 and body["error"].startswith("warming up"), body
        assert int(headers["retry-after"]) >= 1
        deadline = time.monotonic() + 900
        while _get(port, "/api/health")[2]["warming"] and time.monotonic() < deadline:
            time.sleep(0.5)
        status, _, body = _get(port, "/api/analyze?game=connect4&moves=4453")
        assert status == 200 and body["score"]["solve_score"] == -2
    finally:
        err = stop(process)
    assert "building the Connect Four solver once, about " in err
    assert not kernels.is_cold(CONNECT4)
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path)
