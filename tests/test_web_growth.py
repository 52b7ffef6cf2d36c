"""The page's tree view of Monte Carlo tree search and df-pn in a real headless Chromium: every
step shows the library's labels (unbeatable.growth, ``unbeatable tree --algorithm mcts|pns
--steps``), forwards and backwards; and Hex played on the page against both. Screenshots are
saved in each test's temporary folder."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tests.test_web_browser import (  # the same server and browser, or the same skip
    base_url,
    browser,
    no_script_errors,
    shot,
    status,
    wait,
)
from unbeatable import cli, get_game
from unbeatable.growth import grow_tree

__all__ = ["base_url", "browser"]  # fixtures, imported to be used here

pytestmark = pytest.mark.slow

#: Every node's label, mark and state as the page shows them now, and the stepper's figures.
SHOWN = """
const nodes = {};
for (const g of document.querySelectorAll('#tree g.tn')) {
  const state = ['unseen', 'done'].filter((name) => g.classList.contains(name)).join(' ');
  nodes[g.dataset.node] = [g.querySelector('text.tv').textContent,
                           g.querySelector('text.tm').textContent, state];
}
return [[document.getElementById('step-alpha').textContent,
         document.getElementById('step-beta').textContent,
         document.getElementById('step-value').textContent],
        document.getElementById('step-text').textContent, nodes];
"""

#: The stepper's next step, as its button's click, then what the page shows (the stepper
#: applies a step at once: the page's own handler, without a round trip per step).
NEXT_AND_SHOWN = "document.getElementById('step-next').click();\n" + SHOWN.replace(
    "return [", "return [document.getElementById('step-index').textContent, ", 1
)

#: The first steps are taken as a person does (a click, then the arrow key, in turn); the rest
#: by the button's own click in the page.
REAL_STEPS = 6

SYMBOLS = {"": "", "won": "W", "lost": "L", "drawn": "D", "proved": "✓", "disproved": "✗"}


def steps_of(*args: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    assert cli.main(["tree", *args, "--steps"], stdout=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def draw_growth(browser: Any, algorithm: str, budget: int) -> None:
    Select(browser.find_element(By.ID, "tree-algorithm")).select_by_value(algorithm)
    field = browser.find_element(By.ID, "tree-budget")
    assert field.is_displayed()
    field.clear()
    field.send_keys(str(budget))
    before = browser.find_element(By.ID, "tree").get_attribute("data-drawn")
    browser.find_element(By.CSS_SELECTOR, "#tree-form button[type=submit]").click()
    wait(browser, lambda d: d.find_element(By.ID, "tree").get_attribute("data-drawn") != before)


@pytest.mark.parametrize(
    ("game", "moves", "algorithm", "budget"),
    # df-pn proves 3x3 Hex in 32 expansions: the proof's marks are shown (tic-tac-toe's two
    # questions, for draws, are stepped in test_growth)
    [("hex:3", "", "mcts", 25), ("hex:3", "", "pns", 40)],
)
def test_a_growing_tree_is_stepped_with_the_librarys_labels(
    browser: Any, base_url: str, tmp_path: Path, game: str, moves: str, algorithm: str,
    budget: int,
) -> None:
    browser.set_window_size(1366, 900)
    browser.get(f"{base_url}/?game={game}&moves={moves}&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    draw_growth(browser, algorithm, budget)
    growth = grow_tree(get_game(game).parse_position(moves), algorithm, budget)
    expected = steps_of(game, moves, "--algorithm", algorithm, "--budget", str(budget))
    assert len(expected) == len(growth.steps)
    assert browser.find_element(By.ID, "step-count").text == str(len(expected))
    summary = browser.find_element(By.ID, "tree-summary").text
    assert growth.summary in summary
    # the whole tree first: every node with its final label
    nodes = browser.execute_script(SHOWN)[2]
    assert len(nodes) == len(growth.nodes)
    for node in growth.nodes:
        assert nodes[str(node.id)][:2] == [node.label, SYMBOLS[node.mark]]
    # step by step: the labels each step changes, its words and figures
    labels: dict[str, tuple[str, str]] = {}
    for index, step in enumerate(expected, start=1):
        if index <= REAL_STEPS:  # a person's click or key
            if index % 2:
                browser.find_element(By.ID, "step-next").click()
            else:
                browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
            wait(browser, lambda d, i=index: d.find_element(By.ID, "step-index").text == str(i))
            figures, text, nodes = browser.execute_script(SHOWN)
        else:  # the button's own click and what it shows, in one round trip
            now, figures, text, nodes = browser.execute_script(NEXT_AND_SHOWN)
            assert now == str(index)
        assert text == step["text"]
        assert figures == [f or "–" for f in step["figures"]]
        for ident, label, mark in step["changes"]:
            labels[str(ident)] = (label, SYMBOLS[mark])
        for ident, (label, symbol, state) in nodes.items():
            if ident in labels:
                assert (label, symbol, state) == (*labels[ident], "done"), (index, ident)
            elif ident != "0":
                assert state == "unseen" and label == "", (index, ident)
        if index in (1, len(expected) // 2, len(expected)):
            shot(browser, "stepper", str(tmp_path / f"{algorithm}-{index}.png"))
    # back one step, and to the start: the root alone
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: d.find_element(By.ID, "step-index").text == str(len(expected) - 1))
    body.send_keys(Keys.HOME)
    wait(browser, lambda d: d.find_element(By.ID, "step-index").text == "0")
    nodes = browser.execute_script(SHOWN)[2]
    assert {i for i, (_, _, state) in nodes.items() if state != "unseen"} == {"0"}
    # a click on a node: its board and numbers
    body.send_keys(Keys.END)
    wait(browser, lambda d: d.find_element(By.ID, "step-index").text == str(len(expected)))
    last = growth.nodes[growth.steps[-1].node]  # the node of the last step: in sight
    browser.find_element(By.CSS_SELECTOR, f'#tree g.tn[data-node="{last.id}"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "node-info").is_displayed())
    facts = browser.find_element(By.ID, "node-facts").text
    assert last.label in facts
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#node-board svg"))
    shot(browser, "tree-view", str(tmp_path / f"{algorithm}-node.png"))
    no_script_errors(browser)


def test_a_growing_tree_refuses_the_textbook_and_a_bad_budget(base_url: str) -> None:
    import urllib.error
    import urllib.request

    for query, parameter in (
        ("algorithm=mcts&textbook=1", "textbook"),
        ("algorithm=pns&budget=0", "budget"),
        ("algorithm=pns&budget=lots", "budget"),
    ):
        url = f"{base_url}/api/tree?game=hex:3&moves=&{query}"
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(url, timeout=30)
        assert caught.value.code == 400
        assert json.loads(caught.value.read())["parameter"] == parameter


@pytest.mark.parametrize(
    ("size", "opponent"),
    # each algorithm once, each size once: df-pn proves the end of a 5x5 game on the page
    # (its value shown), MCTS plays 7x7 on its statistics
    [(5, "time:0.5,algorithm=pns"), (7, "mcts:0.5")],
)
def test_hex_is_played_on_the_page_against_mcts_and_pns(
    browser: Any, base_url: str, tmp_path: Path, size: int, opponent: str
) -> None:
    """A person (clicking the hexagons the page offers, first one way across) plays Hex against
    the page's AI with ``opponent`` as its algorithm until the game ends."""
    browser.set_window_size(1366, 900)
    browser.get(f"{base_url}/?game=hex:{size}&moves=&human=first&opponent={opponent}")
    wait(browser, lambda d: opponent in d.find_element(By.ID, "rules").text)
    clicks = 0
    while True:
        text = wait(
            browser,
            lambda d: status(d) if status(d).startswith(("Your move", "Game over")) else False,
            60,
        )
        if text.startswith("Game over"):
            break
        # a hexagon per cell, every free one playable (each side has played ``clicks``)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#board polygon")) == size * size
        cells = browser.find_elements(By.CSS_SELECTOR, "#board [data-move]")
        assert len(cells) == size * size - 2 * clicks, "a free cell is not playable"
        before = browser.current_url
        try:
            cells[len(cells) // 2].click()
        except StaleElementReferenceException:  # the board drawn again meanwhile: ask again
            continue
        try:
            wait(browser, lambda d, url=before: d.current_url != url, 90)
        except Exception:
            browser.save_screenshot(str(tmp_path / "stuck.png"))
            raise AssertionError(f"the click did not play: {status(browser)!r}") from None
        clicks += 1
        assert clicks <= size * size
    shot(browser, "board", str(tmp_path / f"hex{size}-{opponent.split(':')[0]}.png"))
    no_script_errors(browser)
