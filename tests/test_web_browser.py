"""The page as a person uses it, in a real headless Chromium (Debian's chromium and
chromium-driver, through Selenium; nothing downloads a browser). ``make test`` installs them
where it can; without them these tests are skipped, and say why.

Screenshots are saved in each test's temporary folder.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tests.browser import browser, click, no_script_errors, shown_error, status, wait
from unbeatable import cli, get_game
from unbeatable.web.server import free_port, launch, stop

__all__ = ["base_url", "browser", "no_script_errors", "shown_error", "status", "wait"]

# A real server and browser: seconds each; `make test-fast` leaves them out.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    port = free_port()
    process = launch(port, workers=2, cap=20)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


def test_a_whole_tic_tac_toe_game_by_clicking_and_the_ai_never_loses(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    rng = random.Random(2026)
    for human in ("first", "second"):
        for game in range(2):
            browser.get(f"{base_url}/?game=tictactoe&moves=&human={human}")
            if human == "second":  # a link does not make the AI move: it waits to be asked
                button = wait(
                    browser,
                    lambda d: (
                        d.find_element(By.ID, "ai-move")
                        if d.find_element(By.ID, "ai-move").is_displayed()
                        else False
                    ),
                )
                assert status(browser).startswith("It is the AI's turn (X)")
                button.click()
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
                # read in one go inside a wait (a list in a tuple: an empty one is an answer)
                (cells,) = wait(
                    browser,
                    lambda d: (
                        [
                            c.get_attribute("data-move")
                            for c in d.find_elements(By.CSS_SELECTOR, "#board [data-move]")
                        ],
                    ),
                )
                assert cells, "no playable cell on the human's turn"
                before = browser.current_url
                click(browser, f'#board [data-move="{rng.choice(cells)}"]')
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
    # (read inside the waits: the table and the board are drawn again as answers come)
    shown = wait(
        browser,
        lambda d: {
            row.get_attribute("data-move"): (
                row.find_element(By.CSS_SELECTOR, ".score-text").text,
                "best" in (row.get_attribute("class") or ""),
            )
            for row in d.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
        },
    )
    expected = cli_report("connect4", moves)
    assert shown == {m["move"]: (m["text"], m["best"]) for m in expected["moves"]}
    labels = wait(
        browser,
        lambda d: [
            (e.get_attribute("data-score-move"), e.get_attribute("class") or "", e.text)
            for e in d.find_elements(By.CSS_SELECTOR, "#board text.score")
        ],
    )
    assert len(labels) == len(expected["moves"])
    for move, kind, text in labels:
        entry = next(m for m in expected["moves"] if m["move"] == move)
        assert entry["kind"] in kind
        assert text.endswith(str(entry.get("moves_to_end", "draw")))
    # (the figures sit folded under "Search figures": read their text, shown or not)
    figures = browser.find_element(By.CSS_SELECTOR, '[data-figure="algorithm"]')
    figures = figures.get_attribute("textContent")
    assert figures.startswith(expected["algorithm"])
    # the solver's figures are its nodes and time (the generic search's counters would be 0)
    shown_figures = [
        e.get_attribute("data-figure")
        for e in browser.find_elements(By.CSS_SELECTOR, "#figures dd")
    ]
    assert shown_figures == ["nodes", "time", "algorithm"]
    browser.save_screenshot(str(tmp_path / "connect4.png"))
    no_script_errors(browser)


def test_connect_four_score_labels_fit_their_columns(browser: Any, base_url: str) -> None:
    # three best moves labelled "★ loss 18": wider, unsqueezed, than a column (80 units)
    browser.get(f"{base_url}/?game=connect4&moves=4453&human=both")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board text.score")) == 7)
    widths = browser.execute_script(
        "return [...document.querySelectorAll('#board text.score')]"
        ".map((t) => [t.textContent, t.getBBox().width])"
    )
    assert sum(text.startswith("★ loss") for text, _ in widths) == 3, widths
    assert all(width <= 74.5 for _, width in widths), widths
    no_script_errors(browser)


#: Draws the board of the position given by its moves with the scores of a report, as the page
#: does, and answers each score label: its move, shown text, tooltip and classes.
DRAW_WITH_REPORT = """
const [report, moves, done] = arguments;
Promise.all([
  import("/static/board.js"),
  fetch(`/api/position?game=connect4&moves=${moves}`).then((r) => r.json()),
]).then(([board, position]) => {
  const box = document.createElement("div");
  document.body.appendChild(box);
  const scores = new Map(report.moves.map((m) => [m.move, m]));
  board.drawBoard(box, position, { scores, hint: false, onMove: null });
  done([...box.querySelectorAll("text.score")].map((t) => [
    t.getAttribute("data-score-move"), t.firstChild.nodeValue,
    t.querySelector("title") ? t.querySelector("title").textContent : null,
    t.getAttribute("class"),
  ]));
}).catch((error) => done(String(error)));
"""


def test_bounds_of_a_solver_cut_short_are_labelled_as_such(browser: Any, base_url: str) -> None:
    out = io.StringIO()
    argv = ["analyze", "connect4", "", "--no-book", "--threads", "1", "--nodes", "300000"]
    assert cli.main([*argv, "--json"], stdout=out) == 0
    report = json.loads(out.getvalue())
    assert any(m["kind"] == "bounds" for m in report["moves"])
    browser.get(f"{base_url}/?game=tictactoe&moves=5&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    labels = browser.execute_async_script(DRAW_WITH_REPORT, report, "")
    assert isinstance(labels, list) and len(labels) == 7, labels
    entries = {m["move"]: m for m in report["moves"]}
    for move, text, title, classes in labels:
        entry = entries[move]
        assert title == entry["text"] and entry["kind"] in classes.split()
        if entry["kind"] == "bounds":
            assert text.removeprefix("★ ") == "?"
            bounds = title.startswith("between ") or title.endswith((" or better", " or worse"))
            assert bounds or title == "unknown"
        else:
            assert text.endswith(str(entry.get("moves_to_end", "draw")))
    no_script_errors(browser)


def test_a_bad_position_in_the_url_shows_the_error(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.get(f"{base_url}/?game=connect4&moves=4458")
    box = shown_error(browser)
    assert "column 8 does not exist (1-7)" in box.text
    assert "The link's move 4 (\"8\") cannot be played" in box.text
    # the game up to the bad move: three discs, and the URL holds those three moves
    discs = wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board circle.disc")))
    assert discs == 3 and "moves=445" in browser.current_url
    assert status(browser).startswith("It is the AI's turn")  # a link: the AI waits
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


def shot(driver: Any, element: str, path: str) -> None:
    """A screenshot of the element ``element`` (an id), scrolled into sight first (a
    screenshot holds only what the window shows)."""
    found = driver.find_element(By.ID, element)
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", found)
    driver.save_screenshot(path)


def steps_of(*args: str) -> list[dict[str, Any]]:
    """``unbeatable tree ... --steps``: one event a line."""
    out = io.StringIO()
    assert cli.main(["tree", *args, "--steps"], stdout=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


#: What the page shows after each step: the three numbers, the words, and every node's state
#: (its classes among unseen, open, done, cut and now).
SHOWN = """
const nodes = {};
for (const g of document.querySelectorAll('#tree g.tn')) {
  nodes[g.dataset.node] = ['unseen', 'open', 'done', 'cut', 'now']
    .filter((name) => g.classList.contains(name)).join(' ');
}
return [document.getElementById('step-alpha').textContent,
        document.getElementById('step-beta').textContent,
        document.getElementById('step-value').textContent,
        document.getElementById('step-text').textContent, nodes];
"""


def draw_tree(browser: Any, depth: int, algorithm: str, textbook: bool) -> None:
    field = browser.find_element(By.ID, "tree-depth")
    field.clear()
    field.send_keys(str(depth))
    Select(browser.find_element(By.ID, "tree-algorithm")).select_by_value(algorithm)
    box = browser.find_element(By.ID, "tree-textbook")
    if box.is_selected() != textbook:
        box.click()
    before = browser.find_element(By.ID, "tree").get_attribute("data-drawn")
    browser.find_element(By.CSS_SELECTOR, "#tree-form button[type=submit]").click()
    wait(browser, lambda d: d.find_element(By.ID, "tree").get_attribute("data-drawn") != before)


@pytest.mark.parametrize(
    ("moves", "depth", "algorithm", "textbook"),
    [("5137", 2, "alphabeta", False), ("5137", 2, "alphabeta", True), ("513", 2, "negamax", False)],
)
def test_stepping_the_search_shows_every_window_and_value_of_tree_steps(
    browser: Any, base_url: str, tmp_path: Path, moves: str, depth: int, algorithm: str,
    textbook: bool,
) -> None:
    """Every step of the page is the command line's: the same numbers and words, and the
    nodes in the states the library's own step picture gives them (drawing.node_states)."""
    from unbeatable.drawing import node_states
    from unbeatable.tree import build_tree

    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=tictactoe&moves={moves}&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    draw_tree(browser, depth, algorithm, textbook)
    args = ["tictactoe", moves, "--depth", str(depth), "--algorithm", algorithm]
    expected = steps_of(*args, *(["--textbook"] if textbook else []))
    tree = build_tree(
        get_game("tictactoe").parse_position(moves), depth, algorithm, textbook=textbook
    )
    assert browser.find_element(By.ID, "step-count").text == str(len(expected))
    assert len(tree.events) == len(expected)
    for index, step in enumerate(expected, start=1):
        if index % 2:
            browser.find_element(By.ID, "step-next").click()  # the button ...
        else:
            browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)  # ... a key
        wait(browser, lambda d, i=index: d.find_element(By.ID, "step-index").text == str(i))
        alpha, beta, value, text, nodes = browser.execute_script(SHOWN)
        shown = step["shown"]
        assert (alpha, beta, value) == (
            shown["alpha"] or "–",
            shown["beta"] or "–",
            shown["value"] or "–",
        ), (index, step)
        assert text == step["text"]
        states = node_states(tree, index)
        assert nodes == {str(k): v for k, v in states.items()}, index
        if index in (1, len(expected) // 2, len(expected)):
            shot(browser, "stepper", str(tmp_path / f"step-{algorithm}-{index}.png"))
    # back, and to the start, by key
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: d.find_element(By.ID, "step-index").text == str(len(expected) - 1))
    body.send_keys(Keys.HOME)
    wait(browser, lambda d: d.find_element(By.ID, "step-index").text == "0")
    nodes = browser.execute_script(SHOWN)[4]
    assert set(nodes.values()) == {"unseen"}
    no_script_errors(browser)


def test_play_runs_the_steps_by_itself_and_pauses(browser: Any, base_url: str) -> None:
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=tictactoe&moves=5137&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    draw_tree(browser, 2, "alphabeta", True)
    speed = browser.find_element(By.ID, "step-speed")
    browser.execute_script(
        "arguments[0].value = 40; arguments[0].dispatchEvent(new Event('input'))", speed
    )
    browser.find_element(By.ID, "step-play").click()
    total = browser.find_element(By.ID, "step-count").text
    wait(browser, lambda d: d.find_element(By.ID, "step-index").text == total, 10)
    assert browser.find_element(By.ID, "step-play").text == "▶ play"  # paused at the end
    assert "finished" in (browser.find_element(By.ID, "tree").get_attribute("class") or "")
    no_script_errors(browser)


def test_the_quiz_checks_the_branches_against_alpha_beta(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    from unbeatable.tree import PRUNED, build_tree

    browser.set_window_size(1366, 900)
    browser.get(f"{base_url}/?game=tictactoe&moves=5137&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    browser.find_element(By.ID, "quiz-start").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tree.quiz g.tn"))
    # the answer, from the library: the moves the textbook's alpha-beta never searches
    state = get_game("tictactoe").parse_position("5137")
    pruned = build_tree(state, 2, "alphabeta", textbook=True)
    paths = pruned.paths()
    cuts = [" ".join(paths[n.id]) for n in pruned.walk() if n.kind == PRUNED]
    minimax = build_tree(state, 2, "minimax")
    by_path = {" ".join(p): i for i, p in minimax.paths().items()}
    # inner values are hidden until the check
    hidden = browser.execute_script(
        "return getComputedStyle(document.querySelector('#tree g.tn.inner .tv')).visibility"
    )
    assert hidden == "hidden"
    for path in cuts[:-1]:  # all but one, and one wrong branch
        browser.find_element(By.CSS_SELECTOR, f'#tree g.te[data-node="{by_path[path]}"]').click()
    wrong = next(p for p in by_path if p and p not in cuts and " " in p)
    browser.find_element(By.CSS_SELECTOR, f'#tree g.te[data-node="{by_path[wrong]}"]').click()
    shot(browser, "quiz-bar", str(tmp_path / "quiz-marked.png"))
    browser.find_element(By.ID, "quiz-check").click()
    verdict = browser.find_element(By.ID, "quiz-text")
    assert verdict.get_attribute("data-right") == str(len(cuts) - 1)
    assert verdict.get_attribute("data-wrong") == "1"
    assert verdict.get_attribute("data-missed") == "1"
    assert f"{len(cuts) - 1} of {len(cuts)} cut-offs found" in verdict.text
    missed = browser.find_element(By.CSS_SELECTOR, f'#tree g.te[data-node="{by_path[cuts[-1]]}"]')
    assert "missed" in (missed.get_attribute("class") or "")
    shot(browser, "quiz-bar", str(tmp_path / "quiz-checked.png"))
    no_script_errors(browser)


def test_your_own_tree_is_drawn_stepped_and_a_bad_one_named(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=tictactoe&moves=5&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    browser.find_element(By.CSS_SELECTOR, "#own-tree button[type=submit]").click()
    wait(browser, lambda d: "value +6 for MAX" in d.find_element(By.ID, "tree-summary").text)
    expected = steps_of("leaves:[[3,5],[6,[9,1]],[1,2]]", "--depth", "3", "--textbook")
    assert browser.find_element(By.ID, "step-count").text == str(len(expected))
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    wait(browser, lambda d: d.find_element(By.ID, "step-text").text == expected[-1]["text"])
    shot(browser, "stepper", str(tmp_path / "own-tree.png"))
    field = browser.find_element(By.ID, "own-leaves")
    field.clear()
    field.send_keys("[[3,5],[6")
    browser.find_element(By.CSS_SELECTOR, "#own-tree button[type=submit]").click()
    wait(browser, lambda d: "not closed" in d.find_element(By.ID, "tree-summary").text)
    assert "'[[3,5],[6' at its end" in browser.find_element(By.ID, "tree-summary").text
    no_script_errors(browser)


def test_a_2000_node_tree_is_drawn_and_a_node_clicked(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=tictactoe&moves=5&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    field = browser.find_element(By.ID, "tree-max")
    field.clear()
    field.send_keys("2500")
    draw_tree(browser, 4, "minimax", True)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#tree g.tn")) == 2081
    assert browser.find_element(By.ID, "tree-summary").get_attribute("data-nodes") == "2081"
    browser.save_screenshot(str(tmp_path / "tree-2081.png"))
    browser.find_element(By.ID, "zoom-fit").click()
    shot(browser, "stepper", str(tmp_path / "tree-2081-fit.png"))
    browser.find_element(By.ID, "zoom-in").click()
    # a click on a node: its board and numbers
    browser.execute_script(
        "document.querySelector('#tree g.tn[data-node=\"1\"]')"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    )
    wait(browser, lambda d: d.find_element(By.ID, "node-title").text == "After 1")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#node-board svg .stone-x"))
    assert browser.find_element(By.CSS_SELECTOR, '[data-fact="to move"]').text.startswith("MAX")
    no_script_errors(browser)


def test_the_parallel_view_explains_itself(browser: Any, base_url: str, tmp_path: Path) -> None:
    browser.set_window_size(1366, 900)
    browser.get(f"{base_url}/?game=mnk:4,4,4&moves=6,7,10&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"), 60)
    browser.find_element(By.CSS_SELECTOR, '[data-tab="parallel-view"]').click()
    field = browser.find_element(By.ID, "parallel-depth")
    field.clear()
    field.send_keys("5")
    browser.find_element(By.CSS_SELECTOR, "#parallel-form button[type=submit]").click()
    bars = wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#timeline g.task")), 60)
    assert browser.find_elements(By.CSS_SELECTOR, "#split-tree g.task")
    said = browser.find_element(By.ID, "parallel-explain").text
    assert "speed-up of" in said and "serial search of the same position" in said
    assert "Starting the 2 worker processes took" in said and "young brothers wait" in said
    assert "busy" in said.lower()
    rows = browser.find_elements(By.CSS_SELECTOR, "#parallel-tasks tbody tr")
    assert len(rows) >= bars
    # the last tick label is inside the picture (it was cut: "35 m")
    inside = browser.execute_script(
        "const svg = document.querySelector('#timeline svg');"
        "const box = svg.getBoundingClientRect();"
        "return [...svg.querySelectorAll('.tick-label')].every((t) => {"
        " const r = t.getBoundingClientRect(); return r.right <= box.right + 0.5; });"
    )
    assert inside
    shot(browser, "parallel-view", str(tmp_path / "parallel.png"))
    no_script_errors(browser)


def test_the_tree_counts_match_the_command_line(browser: Any, base_url: str) -> None:
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=tictactoe&moves=5137&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    draw_tree(browser, 3, "alphabeta", False)
    summary = browser.find_element(By.ID, "tree-summary").get_attribute("data-nodes")
    out = io.StringIO()
    cli.main(["tree", "tictactoe", "5137", "--depth", "3", "--format", "text"], stdout=out)
    assert f"{summary} nodes searched" in out.getvalue()
    counts = browser.find_elements(By.CSS_SELECTOR, "#counts tbody tr")
    assert len(counts) == 8
    no_script_errors(browser)


@pytest.mark.parametrize("spec", ["tictactoe", "connect4", "chess"])
def test_at_1366_by_768_the_board_its_buttons_and_the_tabs_need_no_scrolling(
    browser: Any, base_url: str, tmp_path: Path, spec: str
) -> None:
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game={spec}&moves=&human=both")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"), 60)
    height = browser.execute_script("return window.innerHeight")
    for selector in ("#board svg", "#undo", "#hint", '[data-tab="parallel-view"]'):
        box = browser.find_element(By.CSS_SELECTOR, selector).rect
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box, height)
    assert browser.find_element(By.ID, "rules").text.startswith("You play both sides. Rules:")
    browser.save_screenshot(str(tmp_path / f"fold-{spec}.png"))


def test_on_a_phone_the_board_the_controls_and_the_steps_fit(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(390, 844)
    try:
        browser.get(f"{base_url}/?game=tictactoe&moves=5&human=second")
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
        browser.save_screenshot(str(tmp_path / "phone-start.png"))
        wide = browser.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1"
        )
        assert wide, "the page scrolls sideways on a phone"
        board = browser.find_element(By.CSS_SELECTOR, "#board svg").rect
        assert board["width"] <= 390 and board["y"] + board["height"] < 844
        draw_tree(browser, 2, "alphabeta", True)
        for _ in range(6):
            browser.find_element(By.ID, "step-next").click()
        shot(browser, "stepper", str(tmp_path / "phone-steps.png"))
        viewport = browser.find_element(By.ID, "tree-viewport").rect
        assert viewport["width"] <= 390
        no_script_errors(browser)
    finally:
        browser.set_window_size(1280, 1000)


#: Makes the page's next request fail as ``arguments[0]`` says ("busy": a 503 with Retry-After
#: 1, "gone": no answer at all), once; every later request goes through.
FAIL_ONCE = """
const [how] = arguments;
const real = window.fetch;
window.fetch = (...args) => {
  window.fetch = real;
  if (how === "gone") return Promise.reject(new TypeError("Failed to fetch"));
  const body = JSON.stringify({error: "the server is busy", parameter: "", text: ""});
  return Promise.resolve(new Response(body, {status: 503, headers: {"Retry-After": "1"}}));
};
"""


def test_errors_keep_the_board_and_offer_a_retry(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=tictactoe&moves=5&human=second")
    wait(browser, lambda d: status(d) == "Your move, O")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    # the server out of reach: the board stays, the message says so, Retry plays the move
    browser.execute_script(FAIL_ONCE, "gone")
    browser.find_element(By.CSS_SELECTOR, '#board [data-move="1"]').click()
    box = shown_error(browser)
    assert "cannot be reached" in box.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell")) == 9  # the board stays
    browser.save_screenshot(str(tmp_path / "error-gone.png"))
    browser.find_element(By.ID, "retry").click()
    wait(browser, lambda d: "moves=51" in d.current_url and status(d) == "Your move, O")
    assert not browser.find_element(By.ID, "error").is_displayed()
    # a busy server: the page waits its Retry-After (a countdown) and asks again by itself
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tbody tr"))
    cell = browser.find_elements(By.CSS_SELECTOR, "#board [data-move]")[0]
    played = browser.current_url.split("moves=")[1].split("&")[0] + str(
        cell.get_attribute("data-move")
    )
    browser.execute_script(FAIL_ONCE, "busy")
    cell.click()
    box = shown_error(browser)
    assert "trying again in" in box.text and browser.find_element(By.ID, "retry").is_displayed()
    browser.save_screenshot(str(tmp_path / "error-busy.png"))
    wait(browser, lambda d: not d.find_element(By.ID, "error").is_displayed(), 10)
    wait(
        browser,
        lambda d: f"moves={played}" in d.current_url
        and status(d).startswith(("Your move", "Game over")),
    )
    no_script_errors(browser)


def test_a_game_you_lose_says_so_and_marks_the_move_that_turned_it(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=tictactoe&moves=5&human=second")
    wait(browser, lambda d: status(d) == "Your move, O")
    moves = ["2"]  # after X in the centre, an edge loses
    while True:
        cell = moves.pop(0) if moves else None
        if cell is None:  # the first free cell, read again if the board is drawn anew
            cell = wait(
                browser,
                lambda d: [
                    c.get_attribute("data-move")
                    for c in d.find_elements(By.CSS_SELECTOR, "#board [data-move]")
                ][:1],
            )[0]
        before = browser.current_url
        click(browser, f'#board [data-move="{cell}"]')
        wait(browser, lambda d, url=before: d.current_url != url)
        text = wait(
            browser,
            lambda d: (
                status(d) if status(d).startswith(("Your move", "Game over")) else False
            ),
        )
        if text.startswith("Game over"):
            break
    assert text == "Game over: you lost."
    # read inside the wait: the move list is drawn again as answers come (an element kept
    # from one drawing to the next goes stale)
    turning = wait(
        browser,
        lambda d: [
            (li.get_attribute("data-ply"), li.text)
            for li in d.find_elements(By.CSS_SELECTOR, "#move-list li.turning")
        ],
    )
    assert turning[0][0] == "2"  # O's edge, move 2
    assert "turned the game" in turning[0][1]
    assert "The game turned on your move 2 (2)" in browser.find_element(By.ID, "ai-note").text
    browser.save_screenshot(str(tmp_path / "lost.png"))
    # a move of the list shows its position
    browser.find_element(By.CSS_SELECTOR, '#move-list li[data-ply="1"] button').click()
    wait(browser, lambda d: status(d) == "After 5")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .stone-x")) == 1
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
    wait(browser, lambda d: "moves=1592" in d.current_url and status(d) == "Your move, O")
    assert browser.find_element(By.ID, "ai-note").text.startswith("The AI played ")
    # the AI's move is ringed on the board (asked again when the board is drawn anew)
    wait(
        browser,
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "#board .last-cell").get_attribute("data-last") == "ai"
        ),
    )
    browser.find_element(By.ID, "undo").click()  # takes back the AI's reply and our move
    wait(browser, lambda d: d.current_url.endswith("moves=159&human=second"))
    browser.back()  # the position lives in the URL: history works
    wait(browser, lambda d: "moves=1592" in d.current_url and status(d) == "Your move, O")
    browser.find_element(By.ID, "new-game").click()  # pressed by hand: the AI opens at once
    wait(browser, lambda d: status(d) == "Your move, O" and "moves=&" not in d.current_url)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .stone-x")) == 1  # AI opened
    no_script_errors(browser)


# --- chess ------------------------------------------------------------------------------------


def square(driver: Any, name: str) -> Any:
    return driver.find_element(By.CSS_SELECTOR, f'#board [data-square="{name}"]')


def piece_on(driver: Any, name: str) -> str:
    pieces = square(driver, name).find_elements(By.CSS_SELECTOR, "text.piece")
    return str(pieces[0].get_attribute("data-piece")) if pieces else ""


def moves_in_url(driver: Any) -> list[str]:
    query = driver.execute_script("return new URLSearchParams(location.search).get('moves')")
    return [m for m in (query or "").split(",") if m]


def your_move(driver: Any) -> Any:
    return wait(
        driver,
        lambda d: (
            status(d).startswith("Your move")
            and d.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
        ),
    )


def test_chess_picked_in_the_menu_played_by_clicking_squares(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1280, 1000)
    browser.get(f"{base_url}/?game=tictactoe")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#game option[value="chess"]'))
    browser.find_element(By.CSS_SELECTOR, '#game option[value="chess"]').click()
    # chess cannot be solved: its "perfect" opponent thinks for chess's own move time (the
    # library's, 1 s), and says so; a shorter time is asked for here
    kind = browser.find_element(By.ID, "opponent-kind")
    assert kind.get_attribute("value") == "perfect"
    assert kind.find_elements(By.TAG_NAME, "option")[0].text == "strongest in 1 s a move"
    browser.find_element(By.CSS_SELECTOR, '#opponent-kind option[value="time"]').click()
    field = browser.find_element(By.ID, "opponent-arg")
    field.clear()
    field.send_keys("0.3")
    browser.find_element(By.ID, "new-game").click()
    your_move(browser)
    assert "game=chess" in browser.current_url and moves_in_url(browser) == []
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board g.square")) == 64
    assert piece_on(browser, "e1") == "K" and piece_on(browser, "d8") == "q"
    assert piece_on(browser, "e4") == ""
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#board .coord")]
    assert labels[:2] == ["a", "8"]  # White at the bottom: a on the left, 8 at the top
    rows = browser.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
    assert len(rows) == 20 and "Nf3" in [r.find_element(By.TAG_NAME, "td").text for r in rows]
    browser.save_screenshot(str(tmp_path / "chess-start.png"))

    # an illegal move is refused on the page: nothing is sent, the position stays
    square(browser, "e2").click()
    targets = {
        t.get_attribute("data-square")
        for t in browser.find_elements(By.CSS_SELECTOR, "#board g.target")
    }
    assert targets == {"e3", "e4"}
    square(browser, "e5").click()
    note = browser.find_element(By.ID, "chess-note").text
    assert "cannot move to e5" in note and "pawn on e2" in note
    assert moves_in_url(browser) == [] and piece_on(browser, "e2") == "P"
    assert not browser.find_elements(By.CSS_SELECTOR, "#board g.target")  # nothing selected

    # a legal move: the page sends it, the AI replies, and the reply is drawn
    square(browser, "e2").click()
    square(browser, "e4").click()
    wait(browser, lambda d: len(moves_in_url(d)) == 2)
    your_move(browser)
    mine, reply = moves_in_url(browser)
    assert mine == "e2e4" and piece_on(browser, "e4") == "P"
    assert piece_on(browser, reply[2:4]).islower() and piece_on(browser, reply[:2]) == ""
    highlighted = {
        e.find_element(By.XPATH, "..").get_attribute("data-square")
        for e in browser.find_elements(By.CSS_SELECTOR, "#board rect.last-move")
    }
    assert highlighted == {reply[:2], reply[2:4]}
    assert browser.find_element(By.ID, "ai-note").text.startswith("The AI played ")
    listed = browser.find_element(By.ID, "chess-moves").text
    assert listed.startswith("1. e4 ") and len(listed.split()) == 3  # "1. e4 Nf6", in SAN

    # two more moves: d2-d4 is legal whatever Black answered
    square(browser, "d2").click()
    square(browser, "d4").click()
    wait(browser, lambda d: len(moves_in_url(d)) == 4)
    your_move(browser)
    assert browser.find_element(By.ID, "chess-moves").text.startswith("1. e4 ")
    assert " 2. d4 " in browser.find_element(By.ID, "chess-moves").text
    assert browser.find_element(By.ID, "pv").text  # the line, numbered, in SAN
    # the compiled searcher's figures: its nodes and depth (it counts no cut-offs or table hits)
    shown_figures = [
        e.get_attribute("data-figure")
        for e in browser.find_elements(By.CSS_SELECTOR, "#figures dd")
    ]
    assert shown_figures == ["nodes", "depth", "time", "algorithm"], shown_figures
    browser.find_element(By.ID, "hint").click()
    assert browser.find_elements(By.CSS_SELECTOR, "#board .hint-arrow")
    browser.save_screenshot(str(tmp_path / "chess-after-moves.png"))
    browser.find_element(By.ID, "undo").click()  # takes back the AI's reply and d2-d4
    wait(browser, lambda d: len(moves_in_url(d)) == 2 and piece_on(d, "d2") == "P")
    no_script_errors(browser)


def test_chess_check_mate_stalemate_and_promotion(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1280, 1000)
    browser.get(f"{base_url}/?game=chess&moves=e2e4,f7f6,d1h5&human=both")
    wait(browser, lambda d: status(d).startswith("Black to move"))
    assert status(browser) == "Black to move (check)"
    # one query from the page (the board may be drawn again meanwhile: no stale element)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#board [data-square="e8"] .in-check'))
    # the only legal reply, g7-g6: the king cannot move, and no other piece may
    square(browser, "e8").click()
    assert "has no legal move" in browser.find_element(By.ID, "chess-note").text
    square(browser, "g7").click()
    assert {
        t.get_attribute("data-square")
        for t in browser.find_elements(By.CSS_SELECTOR, "#board g.target")
    } == {"g6"}
    browser.save_screenshot(str(tmp_path / "chess-check.png"))

    browser.get(f"{base_url}/?game=chess&moves=f2f3,e7e5,g2g4,d8h4&human=both")
    wait(browser, lambda d: status(d).startswith("Game over"))
    assert status(browser) == "Game over. Checkmate: Black wins."
    assert square(browser, "e1").find_elements(By.CSS_SELECTOR, ".in-check")
    assert browser.find_element(By.ID, "chess-moves").text == "1. f3 e5 2. g4 Qh4#"
    assert not browser.find_elements(By.CSS_SELECTOR, "#board g.playable")
    browser.save_screenshot(str(tmp_path / "chess-mate.png"))

    browser.get(f"{base_url}/?game=chess&fen=7k/5Q2/6K1/8/8/8/8/8+b+-+-+0+1&moves=")
    wait(browser, lambda d: status(d).startswith("Game over"))
    assert status(browser) == "Game over: you drew. Draw by stalemate."

    # a promotion: the page asks which piece (the queen first), and plays the one chosen
    fen = "8/4P2p/8/8/8/8/k7/4K3 w - - 0 1"  # (Black's pawn: a knight does not end it)
    browser.get(f"{base_url}/?game=chess&fen={fen.replace(' ', '+')}&opponent=time:0.3")
    your_move(browser)
    square(browser, "e7").click()
    square(browser, "e8").click()
    choices = browser.find_elements(By.CSS_SELECTOR, "#board .promotion-choice")
    assert [c.get_attribute("data-promotion") for c in choices] == ["q", "r", "b", "n"]
    browser.save_screenshot(str(tmp_path / "chess-promotion.png"))
    assert moves_in_url(browser) == []  # nothing played until a piece is chosen
    choices[3].click()
    wait(browser, lambda d: len(moves_in_url(d)) == 2)
    assert moves_in_url(browser)[0] == "e7e8n" and piece_on(browser, "e8") == "N"
    assert browser.find_element(By.ID, "chess-moves").text.startswith("1. e8=N ")
    no_script_errors(browser)


def test_chess_as_black_the_board_is_flipped_and_the_ai_opens(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.set_window_size(1280, 1000)
    browser.get(f"{base_url}/?game=chess&moves=&human=second&opponent=time:0.3")
    wait(browser, lambda d: d.find_element(By.ID, "ai-move").is_displayed())
    assert status(browser).startswith("It is the AI's turn (White)")
    browser.find_element(By.ID, "ai-move").click()
    your_move(browser)
    (opening,) = moves_in_url(browser)
    assert piece_on(browser, opening[2:4]).isupper()  # White's first move, on the board
    svg = browser.find_element(By.CSS_SELECTOR, "#board svg.chess")
    assert svg.get_attribute("data-orientation") == "black"
    a1, h8 = square(browser, "a1").rect, square(browser, "h8").rect
    assert a1["y"] < h8["y"] and a1["x"] > h8["x"]  # Black at the bottom: a1 top right
    assert browser.find_element(By.CSS_SELECTOR, "#human").get_attribute("value") == "second"
    browser.save_screenshot(str(tmp_path / "chess-flipped.png"))
    browser.find_element(By.ID, "flip").click()  # turned by hand: White at the bottom again
    a1, h8 = square(browser, "a1").rect, square(browser, "h8").rect
    assert a1["y"] > h8["y"]
    browser.find_element(By.ID, "flip").click()
    # the principal variation, numbered in SAN, step by step on the (still flipped) board
    line = browser.find_element(By.ID, "pv").text.split()
    assert line[0] == "1..." and not any(len(m) == 4 and m[1].isdigit() for m in line)
    before = browser.find_element(By.CSS_SELECTOR, "#board svg.chess").get_attribute("data-fen")
    browser.find_element(By.ID, "pv-play").click()
    wait(browser, lambda d: status(d) == f"After {line[1]}")
    svg = browser.find_element(By.CSS_SELECTOR, "#board svg.chess")
    assert svg.get_attribute("data-fen") != before
    assert svg.get_attribute("data-orientation") == "black"
    browser.find_element(By.ID, "pv-close").click()
    wait(browser, lambda d: status(d).startswith("Your move"))
    # a bad move in the URL: the error, as for every game
    browser.get(f"{base_url}/?game=chess&moves=e2e4,e2e5")
    box = shown_error(browser)
    assert "'e2e5' is not a legal move" in box.text
    no_script_errors(browser)


def test_chess_shows_the_engines_three_lines_in_its_own_order(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    """The three lines are the engine's MultiPV, each a whole line (moves tied in score once
    showed the third as its first move alone: the moves table's order is not the lines')."""
    browser.set_window_size(1366, 768)
    browser.get(f"{base_url}/?game=chess&moves=&human=both")
    items = wait(
        browser,
        lambda d: [
            (item.get_attribute("data-move"), item.text)
            for item in d.find_elements(By.CSS_SELECTOR, "#lines li.line")
        ],
        90,
    )
    assert len(items) == 3
    assert len({move for move, _ in items}) == 3
    for _, text in items:
        assert text.count(".") >= 2, text  # "1. Nf3 d5 2. ...": more than the move itself
    browser.save_screenshot(str(tmp_path / "chess-lines.png"))
