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


def shown_error(driver: Any) -> Any:
    """The page's error box, once it shows."""
    return wait(
        driver,
        lambda d: (
            d.find_element(By.ID, "error")
            if d.find_element(By.ID, "error").is_displayed()
            else False
        ),
    )


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
            assert title.startswith("between ") or title == "unknown"
        else:
            assert text.endswith(str(entry.get("moves_to_end", "draw")))
    no_script_errors(browser)


def test_a_bad_position_in_the_url_shows_the_error(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    browser.get(f"{base_url}/?game=connect4&moves=4458")
    box = shown_error(browser)
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
    assert square(browser, "e8").find_elements(By.CSS_SELECTOR, ".in-check")
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
    assert status(browser) == "Game over. Draw by stalemate."

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
    wait(browser, lambda d: status(d) == "Your move")
    # a bad move in the URL: the error, as for every game
    browser.get(f"{base_url}/?game=chess&moves=e2e4,e2e5")
    box = shown_error(browser)
    assert "'e2e5' is not a legal move" in box.text
    no_script_errors(browser)
