"""The page beyond two players taking turns (issue 22), in a real headless Chromium: a game of
your own served with ``--game`` (its text and a button per move), the bear-off race (the
dice rolled by a button and shown, the AI rolling and playing by itself), m,n,k for three
players (people and AIs mixed), and AIs alone (no side for people). Skipped, and saying why,
without Chromium (see tests/test_web_browser.py)."""

from __future__ import annotations

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

from unbeatable.web.server import free_port, launch, stop  # noqa: E402

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
    pytest.skip(
        "Chromium and chromedriver are not installed (make chromium, or apt-get install "
        "chromium chromium-driver): the browser tests of the web page are skipped",
        allow_module_level=True,
    )

NIM = '''
from dataclasses import dataclass

from unbeatable import Outcome, State


@dataclass(frozen=True)
class Nim(State):
    """Nim on heaps of 2 and 3, served as a game of your own."""

    heaps: tuple = (2, 3)
    turn: int = 0

    @property
    def to_move(self):
        return self.turn

    def legal_moves(self):
        return [(h, n) for h, size in enumerate(self.heaps) for n in range(1, size + 1)]

    def play(self, move):
        heap, taken = move
        heaps = list(self.heaps)
        heaps[heap] -= taken
        return Nim(tuple(heaps), 1 - self.turn)

    def outcome(self):
        return None if any(self.heaps) else Outcome.win_for(1 - self.turn)
'''


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("own")
    (folder / "servednim.py").write_text(NIM, encoding="utf-8")
    port = free_port()
    process = launch(port, workers=2, cap=20, games=["servednim:Nim"], cwd=str(folder))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,1000"):
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


def wait(driver: Any, condition: Any, seconds: float = 40) -> Any:
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition)


def status(driver: Any) -> str:
    return str(driver.find_element(By.ID, "status").text)


def no_script_errors(driver: Any) -> None:
    log = driver.get_log("browser")
    errors = [e for e in log if e["level"] == "SEVERE" and e.get("source") != "network"]
    assert errors == [], errors


def analyzed(driver: Any) -> None:
    """Wait for the analysis of the position shown (the board is drawn again with it)."""
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
         and d.find_element(By.ID, "analysis-note").text not in ("", "searching…"))


def buttons(driver: Any) -> list[Any]:
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "button.move-button")
            if b.is_enabled()]


def test_a_game_of_your_own_is_its_text_and_a_button_per_move(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.get(f"{base_url}/?game=servednim:Nim&moves=")
    wait(browser, lambda d: status(d) == "Your move")
    analyzed(browser)
    picture = browser.find_element(By.CSS_SELECTOR, "pre.picture").text
    assert picture == "Nim(heaps=(2, 3), turn=0)"
    assert [b.get_attribute("data-move") for b in buttons(browser)] == [
        "(0, 1)", "(0, 2)", "(1, 1)", "(1, 2)", "(1, 3)"
    ]
    options = browser.find_elements(By.CSS_SELECTOR, "#game option")
    games = [o.get_attribute("value") for o in options]
    assert "servednim:Nim" in games
    assert browser.find_element(By.ID, "game").get_attribute("value") == "servednim:Nim"
    buttons(browser)[0].click()  # (0, 1): the AI answers, and it is our move again
    wait(browser, lambda d: status(d) in ("Your move",) or "Game over" in status(d))
    assert "moves=" in browser.current_url and "%280%2C" in browser.current_url
    browser.save_screenshot(str(tmp_path / "own-game.png"))
    no_script_errors(browser)


def test_the_bear_off_race_rolls_shows_the_dice_and_plays(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.get(f"{base_url}/?game=bearoff&moves=&human=first")
    wait(browser, lambda d: status(d) == "first player to roll")
    roll = browser.find_element(By.ID, "roll")
    assert roll.is_displayed()
    wait(browser, lambda d: "% to win" in d.find_element(By.ID, "analysis-note").text)
    roll.click()
    wait(browser, lambda d: status(d) == "Your move")
    dice = browser.find_element(By.CSS_SELECTOR, "#ai-note .dice")
    assert dice.text and set(dice.text.replace(" ", "")) <= set("⚀⚁⚂⚃⚄⚅")
    assert "to play" in browser.find_element(By.CSS_SELECTOR, "pre.picture").text
    analyzed(browser)
    browser.save_screenshot(str(tmp_path / "bearoff-rolled.png"))
    for _ in range(10):  # play the first play each turn; the AI rolls and plays by itself
        if "Game over" in status(browser):
            break
        if status(browser) == "first player to roll":
            browser.find_element(By.ID, "roll").click()
            wait(browser, lambda d: status(d) == "Your move" or "Game over" in status(d))
            continue
        analyzed(browser)
        buttons(browser)[0].click()
        wait(browser, lambda d: status(d) in ("first player to roll", "Your move")
             or "Game over" in status(d))
    browser.save_screenshot(str(tmp_path / "bearoff.png"))
    no_script_errors(browser)


def test_three_players_people_and_ais_mixed(browser: Any, base_url: str, tmp_path: Path) -> None:
    browser.get(f"{base_url}/?game=mnk:3,3,3,players=3&moves=&human=second")
    wait(browser, lambda d: status(d) == "Your move")  # the AI played first
    options = browser.find_elements(By.CSS_SELECTOR, "#human option")
    sides = [o.get_attribute("value") for o in options]
    assert sides[:3] == ["first", "second", "third"] and "none" in sides
    assert len(browser.find_elements(By.CSS_SELECTOR, ".stone-x")) == 1
    analyzed(browser)
    browser.find_elements(By.CSS_SELECTOR, "#board [data-move]")[0].click()
    wait(browser, lambda d: status(d) == "Your move" or "Game over" in status(d))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".stone-mark")) == 1  # third: V
    assert browser.find_element(By.CSS_SELECTOR, ".stone-mark").text == "V"
    browser.save_screenshot(str(tmp_path / "three.png"))
    no_script_errors(browser)


def test_the_ais_play_a_game_of_chance_alone(browser: Any, base_url: str) -> None:
    browser.get(f"{base_url}/?game=shutthebox:4&moves=&human=none&opponent=depth:2")
    wait(browser, lambda d: "Game over" in status(d), seconds=90)
    assert "player" in status(browser)
    no_script_errors(browser)
