"""Hex on the page: the position's board as data (cells, the winner's chain, the swap), and the
AI's time on 5 x 5 (the games played by clicking hexagons in a real browser are in
test_web_growth)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from unbeatable.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(2, queue=2, cap=10)) as test_client:
        yield test_client


def test_the_board_is_hexagons_with_moves_and_the_winning_chain(client: TestClient) -> None:
    data = client.get("/api/position", params={"game": "hex:3", "moves": "b2 a1"}).json()
    board = data["board"]
    assert board["kind"] == "hex" and board["rows"] == board["cols"] == 3
    assert board["cells"] == [["o", "", ""], ["", "x", ""], ["", "", ""]]
    assert board["cell_moves"][0] == [None, "b1", "c1"] and board["swap"] is None
    assert sorted(m for row in board["cell_moves"] for m in row if m) == sorted(data["legal"])
    won = client.get(
        "/api/position", params={"game": "hex:3", "moves": "b1 a1 b2 a2 b3"}
    ).json()
    assert won["over"] and won["winner"] == "first"
    assert won["board"]["win"] == [[0, 1], [1, 1], [2, 1]]
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["hex"]["board"] == "hex"


def test_the_swap_is_offered_while_it_is_legal(client: TestClient) -> None:
    board = client.get("/api/position", params={"game": "hex:4,swap", "moves": "b2"}).json()
    assert board["board"]["swap"] == "swap"
    after = client.get(
        "/api/position", params={"game": "hex:4,swap", "moves": "b2 swap"}
    ).json()
    assert after["board"]["swap"] is None and after["to_move"] == "first"
    assert after["board"]["cells"][1][1] == "o"  # b2 mirrored onto itself, now o's


@pytest.mark.slow
def test_5x5_perfect_opponent_answers_after_its_second_and_says_how(client: TestClient) -> None:
    """The page's perfect opponent on 5 x 5 Hex thinks 1 s a move (it tried a proof for the
    whole 20 s cap): an early position is not proven in that time, and the answer says its move
    comes from the evaluation; a late one is proven, and played as such. The page reads the
    time and that the game is not too large to solve."""
    position = client.get("/api/position", params={"game": "hex:5", "moves": "c3"}).json()
    assert position["move_time"] == 1.0 and position["too_large"] is False
    large = client.get("/api/position", params={"game": "hex:7"}).json()
    assert large["move_time"] == 1.0 and large["too_large"] is True
    early = client.get("/api/move", params={"game": "hex:5", "moves": "c3"}).json()
    assert early["note"] == (
        "perfect play did not finish within 1 s: this move comes from a search with the "
        "game's evaluation"
    )
    assert early["report"]["complete"] is False and early["move"] in position["legal"]
    late = client.get(
        "/api/move", params={"game": "hex:5", "moves": "c3 b4 b3 c2 d2 d1 e1 a5 b5 e4"}
    ).json()
    assert "note" not in late and late["report"]["exact"] is True
