"""The page beyond two players taking turns (issue 22), in a real headless Chromium: a game of
your own served with ``--game`` (its text and a button per move), the bear-off race (the
dice rolled by a button and shown, the AI rolling and playing by itself), m,n,k for three
players (people and AIs mixed), and AIs alone (no side for people). Skipped, and saying why,
without Chromium (see tests/test_web_browser.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.webdriver.common.by import By

from tests.browser import browser, click, no_script_errors, status, wait
from tests.own_sources import PIG, nim_source
from unbeatable.web.server import free_port, launch, stop

__all__ = ["browser"]  # a fixture, imported to be used here

pytestmark = pytest.mark.slow

NIM = nim_source((2, 3), "Nim on heaps of 2 and 3, served as a game of your own.")



@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("own")
    (folder / "servednim.py").write_text(NIM, encoding="utf-8")
    (folder / "servedpig.py").write_text(PIG, encoding="utf-8")
    port = free_port()
    games = ["servednim:Nim", "servedpig:Pig"]
    process = launch(port, workers=2, cap=20, games=games, cwd=str(folder))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


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
    wait(browser, lambda d: status(d) == "Your move, the first player")
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
    wait(browser, lambda d: status(d) == "Your move, the first player" or "Game over" in status(d))
    assert "moves=" in browser.current_url and "%280%2C" in browser.current_url
    browser.save_screenshot(str(tmp_path / "own-game.png"))
    no_script_errors(browser)


def test_the_bear_off_race_rolls_shows_the_dice_and_plays(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.get(f"{base_url}/?game=bearoff&moves=&human=first")
    wait(browser, lambda d: status(d) == "Your roll, the first player")
    roll = browser.find_element(By.ID, "roll")
    assert roll.is_displayed()
    wait(browser, lambda d: "% to win" in d.find_element(By.ID, "analysis-note").text)
    roll.click()
    wait(browser, lambda d: status(d) == "Your move, the first player")
    note = browser.find_element(By.ID, "ai-note")
    assert note.text.startswith("You rolled ")
    dice = note.find_element(By.CSS_SELECTOR, ".dice")
    assert dice.text and set(dice.text.replace(" ", "")) <= set("⚀⚁⚂⚃⚄⚅")
    assert "to play" in browser.find_element(By.CSS_SELECTOR, "pre.picture").text
    analyzed(browser)
    browser.save_screenshot(str(tmp_path / "bearoff-rolled.png"))
    for _ in range(10):  # play the first play each turn; the AI rolls and plays by itself
        if "Game over" in status(browser):
            break
        if status(browser) == "Your roll, the first player":
            # what the AI did since: its roll, then its play, in that order
            said = browser.find_element(By.ID, "ai-note").text
            assert said.startswith("The AI rolled ") and " The AI played " in said, said
            browser.find_element(By.ID, "roll").click()
            wait(browser, lambda d: status(d) == "Your move, the first player"
                 or "Game over" in status(d))
            continue
        analyzed(browser)
        buttons(browser)[0].click()
        wait(browser, lambda d: status(d) in ("Your roll, the first player",
                                              "Your move, the first player")
             or "Game over" in status(d))
    # the game's moves: a roll is the dice's, with no best to be measured against
    items = browser.execute_script(
        "return [...document.querySelectorAll('#move-list li')].map(e => e.textContent)")
    rolls = [text for text in items if text.startswith("dice")]
    assert rolls and not any("best" in text for text in rolls)
    browser.save_screenshot(str(tmp_path / "bearoff.png"))
    no_script_errors(browser)


def test_three_players_people_and_ais_mixed(browser: Any, base_url: str, tmp_path: Path) -> None:
    browser.get(f"{base_url}/?game=mnk:3,3,3,players=3&moves=&human=second")
    # a link: the AI (X, the first player) waits to be asked
    wait(browser, lambda d: "press \"Let the AI move\"" in status(d))
    options = browser.find_elements(By.CSS_SELECTOR, "#human option")
    sides = [o.get_attribute("value") for o in options]
    assert sides[:3] == ["first", "second", "third"] and "none" in sides
    rules = browser.find_element(By.ID, "rules").text
    assert rules.startswith("You play O (the second player); the AI plays X and V")
    browser.find_element(By.ID, "ai-move").click()
    wait(browser, lambda d: status(d) == "Your move, O")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".stone-x")) == 1
    analyzed(browser)
    # every player's value, after the mover's
    assert browser.find_element(By.ID, "analysis-note").text == "O to move: 0 (X 0, O 0, V 0)"
    click(browser, "#board [data-move]")  # the first free cell, found again if drawn anew
    wait(browser, lambda d: status(d) == "Your move, O" or "Game over" in status(d))
    # the third player's stone, V, read inside a wait (the board is drawn again as answers come)
    marks = wait(
        browser, lambda d: [m.text for m in d.find_elements(By.CSS_SELECTOR, ".stone-mark")]
    )
    assert marks == ["V"]
    # both AIs' moves since ours, in order
    said = browser.find_element(By.ID, "ai-note").text
    assert said.startswith("The AI (V) played ") and " The AI (X) played " in said, said
    # who made each move (read in one go: the list is drawn again as analyses arrive)
    wait(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#move-list .who')].map(e => e.textContent)"
    ) == ["X", "O", "V", "X"])
    browser.save_screenshot(str(tmp_path / "three.png"))
    browser.find_element(By.ID, "undo").click()  # back to before our move: V's and X's too
    wait(browser, lambda d: d.execute_script(
        "return document.querySelectorAll('#move-list .who').length") == 1)
    assert status(browser) == "Your move, O"
    no_script_errors(browser)


def test_the_ais_play_a_game_of_chance_alone(browser: Any, base_url: str) -> None:
    browser.get(f"{base_url}/?game=shutthebox:4&moves=&human=none&opponent=depth:2")
    wait(browser, lambda d: "press \"Let the AI move\"" in status(d))
    assert browser.find_element(By.ID, "rules").text.startswith("The AI plays every side")
    browser.find_element(By.ID, "ai-move").click()
    wait(browser, lambda d: "Game over" in status(d), seconds=90)
    assert re.fullmatch(r"Game over: (a draw|the (first|second) player won)\.", status(browser))
    no_script_errors(browser)


def test_a_dice_game_no_search_reaches_the_end_of_is_analysed_for_a_while(
    browser: Any, base_url: str
) -> None:
    """Pig goes round in circles: the exact analysis is refused, the page says so and shows
    what a short search found, and the person rolls and holds."""
    browser.get(f"{base_url}/?game=servedpig:Pig&moves=roll,5&human=both")
    wait(browser, lambda d: d.find_element(By.ID, "analysis-note").text
         == "no search reaches the end of this game: what a 2 s search found")
    scored = wait(browser, lambda d: {row.get_attribute("data-move") for row in
                                      d.find_elements(By.CSS_SELECTOR, "#scores tbody tr")})
    assert scored == {"roll", "hold"}
    assert browser.find_element(By.ID, "ai-note").text == "The dice: 5"  # as the game writes it
    assert status(browser) == "The first player to move"
    no_script_errors(browser)
