"""Hex on the page: the position's board as data (cells, the winner's chain, the swap) and, in
a real browser, hexagons to click, every one of them a legal move, the AI answering."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


@pytest.mark.slow
def test_a_hex_game_is_played_by_clicking_hexagons(tmp_path: Path) -> None:
    browser_tests = pytest.importorskip("tests.test_web_browser")
    from selenium.webdriver.common.by import By

    from unbeatable.web.server import free_port, launch, stop

    port = free_port()
    process = launch(port, workers=2, cap=20)
    try:
        driver = _browser(browser_tests)
        try:
            driver.get(f"http://127.0.0.1:{port}/?game=hex:3&moves=&human=first")
            for _ in range(5):
                text = browser_tests.wait(
                    driver,
                    lambda d: browser_tests.status(d)
                    if browser_tests.status(d).startswith(("Your move", "Game over"))
                    else False,
                )
                if text.startswith("Game over"):
                    break
                cells = driver.find_elements(By.CSS_SELECTOR, "#board polygon")
                assert len(cells) == 9
                playable = driver.find_elements(By.CSS_SELECTOR, "#board [data-move]")
                assert playable
                before = driver.current_url
                playable[0].click()
                browser_tests.wait(driver, lambda d, url=before: d.current_url != url)
            driver.save_screenshot(str(tmp_path / "hex.png"))
            browser_tests.no_script_errors(driver)
        finally:
            driver.quit()
    finally:
        stop(process)


def _browser(browser_tests: Any) -> Any:
    webdriver = browser_tests.webdriver
    options = webdriver.ChromeOptions()
    options.binary_location = browser_tests.CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=webdriver.ChromeService(browser_tests.DRIVER),
                            options=options)
