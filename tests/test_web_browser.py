"""The page as a person uses it, in a real headless Chromium (Debian's chromium and
chromium-driver, through Selenium; nothing downloads a browser). ``make test`` installs them
where it can; without them these tests are skipped, and say why.

Screenshots are saved in each test's temporary folder.
"""

from __future__ import annotations

import io
import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from unbeatable import cli  # noqa: E402
from unbeatable.web.server import free_port, launch, stop  # noqa: E402

# A real server and browser: seconds each; `make test-fast` leaves them out.
pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
    pytest.skip(
        "Chromium and chromedriver are not installed (make chromium, or apt-get install "
        "chromium chromium-driver): the browser tests of the web page are skipped",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    port = free_port()
    process = launch(port, workers=2, cap=20)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=webdriver.ChromeService(DRIVER), options=options)
    except WebDriverException as error:
        pytest.skip(f"Chromium does not start here: {error.msg}")
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver: Any, condition: Any, seconds: float = 30) -> Any:
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition)


def status(driver: Any) -> str:
    return str(driver.find_element(By.ID, "status").text)


def no_script_errors(driver: Any) -> None:
    log = driver.get_log("browser")  # an answer of 400 is logged as a network error: not ours
    errors = [e for e in log if e["level"] == "SEVERE" and e.get("source") != "network"]
    assert errors == [], errors


def test_a_whole_tic_tac_toe_game_by_clicking_and_the_ai_never_loses(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    rng = random.Random(2026)
    for human in ("first", "second"):
        for game in range(2):
            browser.get(f"{base_url}/?game=tictactoe&moves=&human={human}")
            clicks = 0
            while True:
                text = wait(
                    browser,
                    lambda d: (
                        status(d) if status(d).startswith(("Your move", "Game over")) else False
                    ),
                )
                if text.startswith("Game over"):
                    break
                wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
                cells = browser.find_elements(By.CSS_SELECTOR, "#board [data-move]")
                assert cells, "no playable cell on the human's turn"
                before = browser.current_url
                rng.choice(cells).click()
                wait(browser, lambda d, url=before: d.current_url != url)
                clicks += 1
                assert clicks <= 5
            browser.save_screenshot(str(tmp_path / f"tictactoe-{human}-{game}.png"))
            over = browser.execute_script(
                "return fetch('/api/position' + location.search).then(r => r.json())"
            )
            assert over["over"]
            assert over["winner"] != human, f"the AI lost as {human}: {over['moves']}"
            assert "moves=" in browser.current_url and over["moves_text"] in browser.current_url
    no_script_errors(browser)


def cli_report(game: str, moves: str) -> dict[str, Any]:
    out = io.StringIO()
    assert cli.main(["analyze", game, moves, "--json"], stdout=out) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def test_connect_four_score_labels_match_analyze_json(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    moves = "44444433"
    browser.get(f"{base_url}/?game=connect4&moves={moves}&human=both")
    rows = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    shown = {
        row.get_attribute("data-move"): (
            row.find_element(By.CSS_SELECTOR, ".score-text").text,
            "best" in (row.get_attribute("class") or ""),
        )
        for row in rows
    }
    expected = cli_report("connect4", moves)
    assert shown == {m["move"]: (m["text"], m["best"]) for m in expected["moves"]}
    labels = browser.find_elements(By.CSS_SELECTOR, "#board text.score")
    assert len(labels) == len(expected["moves"])
    for label in labels:
        entry = next(
            m for m in expected["moves"] if m["move"] == label.get_attribute("data-score-move")
        )
        assert entry["kind"] in (label.get_attribute("class") or "")
        assert label.text.endswith(str(entry.get("moves_to_end", "draw")))
    figures = browser.find_element(By.CSS_SELECTOR, '[data-figure="algorithm"]').text
    assert figures.startswith(expected["algorithm"])
    browser.save_screenshot(str(tmp_path / "connect4.png"))
    no_script_errors(browser)


def test_a_bad_position_in_the_url_shows_the_error(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.get(f"{base_url}/?game=connect4&moves=4458")
    box = wait(
        browser,
        lambda d: (
            d.find_element(By.ID, "error")
            if d.find_element(By.ID, "error").is_displayed()
            else False
        ),
    )
    assert "column 8 does not exist (1-7)" in box.text
    assert "cannot be shown" in status(browser)
    browser.save_screenshot(str(tmp_path / "bad-url.png"))
    browser.get(f"{base_url}/?game=checkers")
    box = wait(
        browser,
        lambda d: (
            d.find_element(By.ID, "error")
            if "checkers" in d.find_element(By.ID, "error").text
            else False
        ),
    )
    assert "unknown game 'checkers'" in box.text


def test_the_tree_view_and_the_parallel_timeline(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1280, 2400)  # tall enough for the whole tree in the screenshot
    browser.get(f"{base_url}/?game=tictactoe&moves=5137&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    depth = browser.find_element(By.ID, "tree-depth")
    depth.clear()
    depth.send_keys("3")
    browser.find_element(By.CSS_SELECTOR, "#tree-form button[type=submit]").click()
    summary = wait(
        browser, lambda d: d.find_element(By.ID, "tree-summary").get_attribute("data-nodes")
    )
    out = io.StringIO()
    cli.main(["tree", "tictactoe", "5137", "--depth", "3", "--format", "text"], stdout=out)
    assert f"{summary} nodes searched" in out.getvalue()
    assert browser.find_elements(By.CSS_SELECTOR, "#tree li.pruned")
    assert browser.find_elements(By.CSS_SELECTOR, "#tree .node-window")
    hidden = browser.find_elements(By.CSS_SELECTOR, "#tree li.collapsed")
    browser.find_element(By.ID, "tree-expand").click()
    assert hidden and not browser.find_elements(By.CSS_SELECTOR, "#tree li.collapsed")
    counts = browser.find_elements(By.CSS_SELECTOR, "#counts tbody tr")
    assert len(counts) == 5
    browser.find_element(By.ID, "tree-view").screenshot(str(tmp_path / "tree.png"))
    browser.find_element(By.CSS_SELECTOR, '[data-tab="parallel-view"]').click()
    field = browser.find_element(By.ID, "parallel-depth")
    field.clear()
    field.send_keys("4")
    browser.find_element(By.CSS_SELECTOR, "#parallel-form button[type=submit]").click()
    bars = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline g.task"))
    assert bars
    browser.find_element(By.ID, "parallel-view").screenshot(str(tmp_path / "parallel.png"))
    no_script_errors(browser)


def test_hint_undo_new_game_and_the_principal_variation_step_by_step(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1280, 1000)
    browser.get(f"{base_url}/?game=tictactoe&moves=159&human=second")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    browser.find_element(By.ID, "show-scores").click()  # scores off: the board is bare
    assert not browser.find_elements(By.CSS_SELECTOR, "#board text.score")
    browser.find_element(By.ID, "hint").click()  # the hint shows the best moves
    hinted = browser.find_elements(By.CSS_SELECTOR, "#board .hint-cell")
    assert len(hinted) == 4  # 2, 4, 6 and 8 draw; 3 and 7 lose
    browser.find_element(By.ID, "show-scores").click()
    pv = browser.find_element(By.ID, "pv").text.split()
    browser.find_element(By.ID, "pv-play").click()
    wait(browser, lambda d: status(d) == f"After {pv[0]}")
    browser.find_element(By.ID, "pv-next").click()
    wait(browser, lambda d: status(d) == f"After {pv[0]} {pv[1]}")
    assert browser.find_element(By.ID, "pv-step").text == "2"
    browser.save_screenshot(str(tmp_path / "pv.png"))
    browser.find_element(By.ID, "pv-close").click()
    browser.find_element(By.CSS_SELECTOR, '#board [data-move="2"]').click()
    wait(browser, lambda d: "moves=1592" in d.current_url and status(d) == "Your move")
    browser.find_element(By.ID, "undo").click()  # takes back the AI's reply and our move
    wait(browser, lambda d: d.current_url.endswith("moves=159&human=second"))
    browser.back()  # the position lives in the URL: history works
    wait(browser, lambda d: "moves=1592" in d.current_url and status(d) == "Your move")
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda d: status(d) == "Your move" and "moves=&" not in d.current_url)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .stone-x")) == 1  # AI opened
    no_script_errors(browser)
