"""The web API through an HTTP test client: the same numbers as the command line, every bad
input refused with the library's message, the pool's limits (503, time cap) and the page's
security headers."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.helpers import run
from unbeatable import FIRST, Game, Outcome, State, check_game, cli, get_game
from unbeatable import games as registry
from unbeatable.search import Limits, Searcher
from unbeatable.tree import EXACT, INNER, LOWER, PRUNED, UPPER, build_tree
from unbeatable.web.app import CSP, create_app
from unbeatable.web.treeview import windows

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@dataclass(frozen=True)
class Nim(State):
    """The README's Nim, with a small default (a user's own game, registered in Python)."""

    heaps: tuple[int, ...] = (1, 2)
    turn: int = 0

    @property
    def to_move(self) -> int:
        return self.turn

    def legal_moves(self) -> list[tuple[int, int]]:
        return [(h, n) for h, size in enumerate(self.heaps) for n in range(1, size + 1)]

    def play(self, move: Any) -> Nim:
        heap, taken = move
        heaps = list(self.heaps)
        heaps[heap] -= taken
        return Nim(tuple(heaps), 1 - self.turn)

    def outcome(self) -> Outcome | None:
        return None if any(self.heaps) else Outcome.win_for(1 - self.turn)

    def move_text(self, move: Any) -> str:
        return f"{move[0] + 1}-{move[1]}"


class NimGame(Game):
    name = "webnim"

    def initial(self) -> State:
        return Nim()


def test_the_users_game_keeps_the_protocol() -> None:
    assert check_game(NimGame(), games=10).longest >= 2


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    registry.register("webnim", NimGame, (), "Nim on heaps of 1 and 2 (a test's own game)")
    try:
        with TestClient(create_app(2, queue=2, cap=10)) as test_client:
            yield test_client
    finally:
        registry._REGISTRY.pop("webnim", None)


def cli_json(*args: str) -> dict[str, Any]:
    code, out, err = run("analyze", *args, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def cli_error(*args: str) -> str:
    code, _, err = run(*args)
    assert code == 2
    return err.strip().removeprefix("unbeatable: error: ")


def without_time(report: dict[str, Any]) -> dict[str, Any]:
    """The report without what depends on the moment: the time, and for a game's own solver
    (whose table stays warm in a worker from one request to the next) the nodes it visited."""
    warm = {"nodes"} if report.get("algorithm") == "solver" else set()
    return {k: v for k, v in report.items() if k != "seconds" and k not in warm}


# --- the same numbers as the command line ---------------------------------------------------


@pytest.mark.parametrize(
    ("game", "moves"),
    [("tictactoe", "5"), ("tictactoe", "51"), ("connect4", "44444433"), ("subtraction", "3,1")],
)
def test_the_analysis_is_the_report_of_analyze_json(
    client: TestClient, game: str, moves: str
) -> None:
    response = client.get("/api/analyze", params={"game": game, "moves": moves})
    assert response.status_code == 200, response.text
    assert without_time(response.json()) == without_time(cli_json(game, moves))


@pytest.mark.slow
def test_the_analysis_of_a_size_with_a_book_comes_from_its_book(client: TestClient) -> None:
    """The empty 8 x 5 board takes tens of seconds of CPU to solve, more than the test server's
    10 s cap; its opening book scores every first move at once, and the page shows them."""
    from unbeatable import get_game
    from unbeatable.games.connect4.book import load

    spec = "connect4:width=8,height=5"
    response = client.get("/api/analyze", params={"game": spec, "moves": ""})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["complete"] and data["exact"] and data["score"]["solve_score"] == load(8, 5)[0]
    start = get_game(spec).initial()
    for entry in data["moves"]:
        child = start.play(int(entry["move"]) - 1)
        assert entry["solve_score"] == -load(8, 5)[child.key()], entry  # type: ignore[index]


def test_depth_and_algorithm_give_the_numbers_of_analyze_json(client: TestClient) -> None:
    params = {"game": "mnk:4,4,4", "moves": "6,7", "depth": "3", "algorithm": "negamax"}
    response = client.get("/api/analyze", params=params)
    assert response.status_code == 200, response.text
    expected = cli_json("mnk:4,4,4", "6,7", "--depth", "3", "--algorithm", "negamax")
    assert without_time(response.json()) == without_time(expected)


def test_a_repeated_analysis_comes_from_the_cache_unchanged(client: TestClient) -> None:
    params = {"game": "tictactoe", "moves": "19"}
    first = client.get("/api/analyze", params=params)
    second = client.get("/api/analyze", params=params)
    assert second.headers.get("x-cache") == "hit"
    assert second.json() == first.json()


def test_the_position_describes_the_board_and_the_legal_moves(client: TestClient) -> None:
    data = client.get("/api/position", params={"game": "connect4", "moves": "4,4,5,3"}).json()
    assert data["moves"] == ["4", "4", "5", "3"] and data["moves_text"] == "4453"
    assert data["board"]["kind"] == "columns" and data["to_move"] == "first"
    assert data["board"]["cells"][-1] == ["", "", "o", "x", "x", "", ""]
    assert data["legal"] == [str(c) for c in range(1, 8)]
    won = client.get("/api/position", params={"game": "tictactoe", "moves": "14253"}).json()
    assert won["over"] and won["winner"] == "first"
    assert won["board"]["win"] == [[0, 0], [0, 1], [0, 2]]  # x took 1, 2 and 3


def test_a_game_registered_in_python_is_served_with_a_move_list(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) >= {"tictactoe", "mnk", "connect4", "subtraction", "webnim"}
    assert games["webnim"]["board"] == "list"
    assert [p["name"] for p in games["mnk"]["params"]] == ["m", "n", "k", "players"]
    assert games["mnk"]["players"] == 2 and games["bearoff"]["chance"]
    data = client.get("/api/position", params={"game": "webnim", "moves": "2-1"}).json()
    assert data["board"] == {"kind": "list"} and data["legal"] == ["1-1", "2-1"]
    report = client.get("/api/analyze", params={"game": "webnim", "moves": "2-1"}).json()
    assert report["best_moves"] and {m["move"] for m in report["moves"]} == {"1-1", "2-1"}
    assert report["score"]["text"] == "loss in 1"  # 1 and 1 left: the mover loses


# --- the AI's move, the tree, the parallel view ------------------------------------------------


def test_the_perfect_opponent_plays_a_best_move(client: TestClient) -> None:
    for moves in ["", "5", "51", "1"]:
        reply = client.get("/api/move", params={"game": "tictactoe", "moves": moves}).json()
        best = client.get("/api/analyze", params={"game": "tictactoe", "moves": moves})
        if moves:
            assert reply["move"] in best.json()["best_moves"]
    weak = client.get(
        "/api/move", params={"game": "connect4", "moves": "44", "opponent": "depth:2"}
    )
    assert weak.status_code == 200 and weak.json()["report"]["depth"] == 2


def test_when_the_solver_cannot_finish_in_time_the_ai_still_moves(client: TestClient) -> None:
    # With its database the solver mostly answers at once; when it cannot within half the
    # search's time a search with the game's evaluation moves, and the reply says so. A cap of
    # 5 s (the search holds to 4 s) leaves the worker's answer a second to come back: with 1 s
    # (0.5 s of room) it came back too late at load 15 (504).
    params = {"game": "connect4", "moves": "445", "timeout": "5"}
    reply = client.get("/api/move", params=params)
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["move"] in [str(c) for c in range(1, 8)]
    if "note" in data:
        assert "did not finish within 4 s" in data["note"] and not data["report"]["exact"]


def test_a_move_the_solver_cannot_settle_comes_from_the_evaluation_and_says_so(
    client: TestClient,
) -> None:
    # 8 x 7: no book, no database; the solver settles nothing from the empty board in 4 s. A
    # cap of 5 s, as above: with 1 s (0.5 s of room) a clean clone's first run came back too
    # late (504, 2026-12-05)
    params = {"game": "connect4:width=8,height=7", "moves": "", "timeout": "5"}
    reply = client.get("/api/move", params=params)
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["move"] in [str(c) for c in range(1, 9)]
    assert "did not finish within 4 s" in data["note"]
    assert "search with the game's evaluation" in data["note"]
    report = data["report"]
    assert report["algorithm"] != "solver" and not report["exact"]
    assert report["score"]["kind"] == "heuristic"


def test_an_error_quoting_a_long_position_quotes_80_characters(client: TestClient) -> None:
    reply = client.get("/api/analyze", params={"game": "connect4", "moves": "4" * 1500})
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error.startswith("column 4 is full") and "'" + "4" * 80 + "...'" in error
    assert len(error) < 200


@pytest.mark.parametrize(
    "url",
    [  # each searches to the cap, 0.5 s (2026-12-02): a move and an analysis stay quick
        "/api/move?game=mnk:4,4,4&moves=&opponent=time:1&timeout=1",
        pytest.param(
            "/api/move?game=connect4:width=8,height=7&moves=45&opponent=time:5&timeout=1",
            marks=pytest.mark.slow,
        ),
        pytest.param("/api/analyze?game=mnk:4,4,4&moves=&time=3&timeout=1", marks=pytest.mark.slow),
        "/api/analyze?game=connect4:width=8,height=7&moves=45&time=5&timeout=1",
    ],
)
def test_a_time_limit_at_or_past_the_cap_is_held_inside_it(client: TestClient, url: str) -> None:
    # at the cap itself the worker was stopped as the search ended: a 504 for an answer found
    reply = client.get(url)
    assert reply.status_code == 200, reply.text
    report = reply.json().get("report", reply.json())
    assert report["best_moves"] and not report["exact"]


def test_the_tree_counts_the_nodes_of_unbeatable_tree(client: TestClient) -> None:
    for algorithm in ("alphabeta", "minimax"):
        params = {"game": "tictactoe", "moves": "5137", "depth": "3", "algorithm": algorithm}
        data = client.get("/api/tree", params=params).json()
        out = io.StringIO()
        args = ["tree", "tictactoe", "5137", "--depth", "3", "--algorithm", algorithm]
        assert cli.main([*args, "--format", "text"], stdout=out) == 0
        searched = int(re.search(r"(\d+) nodes searched", out.getvalue()).group(1))  # type: ignore[union-attr]
        assert data["tree"]["nodes"] == searched
    counts = {row["algorithm"]: row for row in data["counts"]}
    assert counts["minimax (max/min)"]["nodes"] == searched
    assert counts["negamax"]["nodes"] == searched
    assert counts["alpha-beta"]["nodes"] < searched
    root = data["tree"]["root"]
    assert "alpha" not in root  # minimax has no window


def test_every_alpha_beta_node_keeps_the_fail_soft_contract_with_its_window() -> None:
    game = get_game("tictactoe")
    for moves, depth, hints in [
        ("", 3, False),
        ("5", 4, True),
        ("51", 5, False),
        ("5137", 4, True),
    ]:
        tree = build_tree(
            game.parse_position(moves), depth, "alphabeta", hints=hints, max_nodes=None
        )
        found = windows(tree)
        for node in tree.walk():
            if node.kind == PRUNED:
                assert node.id not in found
                continue
            alpha, beta = found[node.id]
            assert alpha < beta
            assert node.value is not None
            own = node.value if node.state.to_move == FIRST else -node.value
            bound = node.bound
            if node.state.to_move != FIRST:
                bound = {EXACT: EXACT, LOWER: UPPER, UPPER: LOWER}[bound]
            if node is tree.root or node.kind != INNER:
                continue  # leaves are valued as they are, whatever the window
            if bound == EXACT:
                assert alpha < own < beta, (moves, node.id)
            elif bound == LOWER:
                assert own >= beta
            else:
                assert own <= alpha


def test_the_tree_view_is_the_librarys_picture_steps_and_quiz(client: TestClient) -> None:
    from unbeatable.drawing import tree_svg
    from unbeatable.steps import explain
    from unbeatable.web.treeview import steps_table

    params = {"game": "tictactoe", "moves": "5137", "depth": "2", "textbook": "1"}
    data = client.get("/api/tree", params=params).json()
    tree = build_tree(get_game("tictactoe").parse_position("5137"), 2, "alphabeta", textbook=True)
    assert data["svg"] == str(tree_svg(tree, legend=False, title="", tooltips=False))
    assert data["steps"] == steps_table(explain(tree))
    assert data["tree"]["textbook"] and data["tree"]["key"].startswith("values from MAX's view")
    quiz = client.get("/api/tree", params={**params, "quiz": "1"}).json()
    assert quiz["tree"]["algorithm"] == "minimax" and quiz["tree"]["nodes"] == 26
    paths = tree.paths()
    assert quiz["cuts"] == [list(paths[n.id]) for n in tree.walk() if n.kind == PRUNED]
    own = client.get(
        "/api/tree", params={"game": "leaves:[[3,5],[6,[9,1]],[1,2]]", "depth": "3"}
    ).json()
    assert own["tree"]["root"]["value"] == "+6"


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"textbook": "1", "hints": "1"}, "hints"),
        ({"view": "sideways"}, "view"),
        ({"table": "maybe"}, "table"),
        ({"algorithm": "negascout"}, "algorithm"),
    ],
)
def test_a_bad_tree_option_is_a_400_naming_it(
    client: TestClient, params: dict[str, str], parameter: str
) -> None:
    response = client.get("/api/tree", params={"game": "tictactoe", "moves": "5", **params})
    assert response.status_code == 400 and response.json()["parameter"] == parameter


def test_the_parallel_view_returns_the_task_log(client: TestClient) -> None:
    params = {"game": "mnk:4,4,4", "moves": "6,7,10", "depth": "5", "workers": "2"}
    data = client.get("/api/parallel", params=params).json()
    assert data["tasks"] and all(0 <= t["worker"] < 2 for t in data["tasks"])
    assert 0 < sum(t["nodes"] for t in data["tasks"]) <= data["report"]["nodes"]
    state = get_game("mnk:4,4,4").parse_position("6,7,10")
    serial = Searcher().search(state, Limits(depth=5))
    assert data["report"]["score"]["value"] == serial.score.value
    # the view explains itself: the serial search beside it, the workers' time, the pictures
    assert data["serial"]["nodes"] == serial.nodes and data["speedup"] > 0
    assert len(data["busy"]) == 2 and data["startup"] > 0
    assert any("speed-up of" in sentence for sentence in data["explain"])
    assert data["timeline_svg"].startswith("<svg") and data["split_svg"].startswith("<svg")
    last = max(t["iteration"] for t in data["tasks"])
    shown = [t for t in data["tasks"] if t["index"] is not None]
    assert shown and all(t["iteration"] == last for t in shown)


# --- bad input: 400 with the command line's message ---------------------------------------------


@pytest.mark.parametrize(
    ("params", "cli_args", "parameter", "text"),
    [
        ({"game": "nope"}, ["analyze", "nope"], "game", "nope"),
        ({"game": "mnk:4,x,4"}, ["analyze", "mnk:4,x,4"], "game", "mnk:4,x,4"),
        ({"game": "connect4", "moves": "4458"}, ["analyze", "connect4", "4458"], "moves", "8"),
        ({"game": "tictactoe", "moves": "55"}, ["analyze", "tictactoe", "55"], "moves", "5"),
        (
            {"game": "tictactoe", "moves": "14253"},
            ["analyze", "tictactoe", "14253"],
            "moves",
            "14253",
        ),
    ],
)
def test_a_bad_position_gets_the_message_of_the_command_line(
    client: TestClient, params: dict[str, str], cli_args: list[str], parameter: str, text: str
) -> None:
    response = client.get("/api/analyze", params=params)
    assert response.status_code == 400
    body = response.json()
    assert body == {"error": cli_error(*cli_args), "parameter": parameter, "text": text}


@pytest.mark.parametrize(
    ("path", "params", "parameter", "text"),
    [
        ("/api/analyze", {"depth": "x"}, "depth", "x"),
        ("/api/analyze", {"depth": "0"}, "depth", "0"),
        ("/api/analyze", {"time": "-1"}, "time", "-1"),
        ("/api/analyze", {"time": "nan"}, "time", "nan"),
        ("/api/analyze", {"algorithm": "magic"}, "algorithm", "magic"),
        ("/api/analyze", {"timeout": "99"}, "timeout", "99"),
        ("/api/move", {"opponent": "genius"}, "opponent", "genius"),
        ("/api/tree", {"depth": "2", "algorithm": "negascout"}, "algorithm", "negascout"),
        ("/api/tree", {"max_nodes": "100000"}, "max_nodes", "100000"),
        ("/api/parallel", {"workers": "99"}, "workers", "99"),
        ("/api/position", {"moves": "x.o/.../..."}, "moves", "x.o/.../..."),
        ("/api/position", {"game": "connect4", "moves": "...x..."}, "moves", "...x..."),
        ("/api/position", {"game": "mnk:30,30,5"}, "game", "mnk:30,30,5"),
        ("/api/position", {"game": "mnk:k=5,m=16,n=16"}, "game", "mnk:k=5,m=16,n=16"),
        ("/api/position", {"moves": "1" * 3000}, "moves", "1" * 80),
    ],
)
def test_every_bad_input_is_a_400_naming_the_text(
    client: TestClient, path: str, params: dict[str, str], parameter: str, text: str
) -> None:
    response = client.get(path, params={"game": "tictactoe", **params})
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["parameter"] == parameter and body["text"] == text
    assert text[:20] in body["error"] or parameter in body["error"]


def test_a_tree_too_large_says_how_to_shrink_it(client: TestClient) -> None:
    params = {"game": "tictactoe", "depth": "9", "algorithm": "minimax"}
    response = client.get("/api/tree", params=params)
    assert response.status_code == 400
    assert response.json() == {
        "error": "the minimax tree from the start at depth 9 has more than 500 nodes: lower the "
        "depth, start from a later position, or raise the node limit",
        "parameter": "depth",
        "text": "9",
    }


# --- the pool's limits -----------------------------------------------------------------------


def test_past_the_cap_a_search_is_stopped_and_its_worker_replaced() -> None:
    with TestClient(create_app(1, queue=0, cap=5, warm=False)) as test_client:
        before = test_client.app.state.pool.pids()
        params = {"game": "connect4", "depth": "24", "timeout": "0.3"}
        response = test_client.get("/api/analyze", params=params)
        assert response.status_code == 504 and "0.3 s" in response.json()["error"]
        after = test_client.app.state.pool.pids()
        assert len(after) == 1 and after != before
        again = test_client.get("/api/analyze", params={"game": "tictactoe", "moves": "5"})
        assert again.status_code == 200


def ended(pid: int) -> bool:
    """True once process ``pid`` and every thread of it have ended (a zombie whose threads
    are gone). A worker runs a watcher thread: killed, its main thread shows as a zombie
    while that thread is still exiting, and ``waitpid`` does not report the process (so the
    pool rightly takes it for alive) until the last thread is gone."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True
    return state in ("Z", "X") and threads in ([], [str(pid)])


def test_a_worker_killed_while_idle_is_replaced_before_its_next_job() -> None:
    with TestClient(create_app(1, queue=0, cap=5, warm=False)) as test_client:
        pool = test_client.app.state.pool
        (pid,) = pool.pids()
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not ended(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        response = test_client.get("/api/analyze", params={"game": "tictactoe", "moves": "5"})
        assert response.status_code == 200
        assert pool.pids() != [pid]


@pytest.mark.slow
def test_a_full_queue_answers_503_with_retry_after_at_once() -> None:
    with TestClient(create_app(1, queue=0, cap=5, warm=False)) as test_client:
        slow: list[int] = []
        params = {"game": "connect4", "depth": "24", "timeout": "1.5"}
        thread = threading.Thread(
            target=lambda: slow.append(test_client.get("/api/analyze", params=params).status_code)
        )
        thread.start()
        deadline = time.monotonic() + 5
        while test_client.get("/api/health").json()["busy"] < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        refused = test_client.get("/api/analyze", params={"game": "tictactoe", "moves": "1"})
        assert refused.status_code == 503 and refused.headers["retry-after"].isdigit()
        assert thread.is_alive()  # refused while the search still runs: it did not wait
        thread.join()
        assert slow == [504]


# --- the page's files and headers -------------------------------------------------------------


def test_the_page_has_a_strict_csp_and_no_inline_script(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page.text, re.S)
    assert scripts and all('src="' in attrs and not body.strip() for attrs, body in scripts)
    assert not re.search(r"<[^>]+\son[a-z]+=", page.text)  # no inline event handlers
    assert not re.search(r"<[^>]+\sstyle=", page.text)
    for name in ("main.js", "board.js", "tree.js", "timeline.js", "api.js", "svg.js", "style.css"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
    js = client.get("/static/main.js")
    assert js.headers["content-type"].startswith("text/javascript")


def test_no_request_reads_a_file_by_path(client: TestClient) -> None:
    for path in [
        "/static/..%2Fapp.py",
        "/static/%2E%2E%2F__init__.py",
        "/static/app.py",
        "/static/../../pyproject.toml",
    ]:
        response = client.get(path)
        assert response.status_code == 404, path


def test_python_m_unbeatable_web_has_help_and_refuses_a_bad_option() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable.web", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "--host" in done.stdout and "--port" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "unbeatable.web", "--port", "http"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "unbeatable serve: error: argument --port: 'http' is not a whole number "
        "(see 'unbeatable serve --help')"
    ]


def test_without_the_web_extra_the_server_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['starlette'] = sys.modules['uvicorn'] = None\n"
        "from unbeatable.web.server import main\n"
        "sys.exit(main(['--port', '1']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("pip install 'unbeatable[web]'")


# --- chess: the board's data, SAN, FEN, time-limited searches -----------------------------------


def needs_chess() -> Any:
    return pytest.importorskip("chess", reason="python-chess (a test-only oracle) is not installed")


def test_the_chess_position_has_the_squares_the_legal_moves_and_their_san(
    client: TestClient,
) -> None:
    chess = needs_chess()
    data = client.get("/api/position", params={"game": "chess", "moves": "e2e4,e7e5,g1f3"}).json()
    assert data["moves"] == ["e2e4", "e7e5", "g1f3"] and data["labels"] == ["e4", "e5", "Nf3"]
    assert data["moves_text"] == "e2e4,e7e5,g1f3" and data["to_move"] == "second"
    board = data["board"]
    expected = chess.Board()
    for uci in data["moves"]:
        expected.push_uci(uci)
    assert board["kind"] == "chess" and board["fen"] == expected.fen() and board["turn"] == "black"
    assert board["squares"][0] == list("rnbqkbnr")  # rank 8 first, a to h
    assert board["squares"][5][5] == "N" and board["squares"][4][4] == "P"  # f3 and e4
    assert board["last"] == {"from": "g1", "to": "f3"} and board["check"] is None
    assert board["end"] is None and board["fullmove"] == 2
    moves = {m["move"]: m for m in board["moves"]}
    assert set(moves) == {m.uci() for m in expected.legal_moves} == set(data["legal"])
    assert moves["b8c6"] == {
        "move": "b8c6", "from": "b8", "to": "c6", "promotion": None, "san": "Nc6",
    }  # fmt: skip
    assert data["legal_labels"] == [moves[m]["san"] for m in data["legal"]]


def test_chess_check_mate_stalemate_and_promotion_are_in_the_board_data(
    client: TestClient,
) -> None:
    needs_chess()
    check = client.get("/api/position", params={"game": "chess", "moves": "e2e4,f7f6,d1h5"})
    assert check.json()["board"]["check"] == "e8" and not check.json()["over"]
    mate = client.get("/api/position", params={"game": "chess", "moves": "f2f3,e7e5,g2g4,d8h4"})
    data = mate.json()
    assert data["over"] and data["winner"] == "second" and data["labels"][-1] == "Qh4#"
    assert data["board"]["end"] == "checkmate" and data["board"]["check"] == "e1"
    assert data["board"]["moves"] == [] and data["legal"] == []
    stalemate = {"game": "chess", "fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}
    data = client.get("/api/position", params=stalemate).json()
    assert data["over"] and data["winner"] is None and data["board"]["end"] == "stalemate"
    assert data["start"] == stalemate["fen"] and data["moves"] == []
    promote = {"game": "chess", "fen": "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "moves": "e7e8n"}
    data = client.get("/api/position", params=promote).json()
    assert data["labels"] == ["e8=N"] and data["board"]["squares"][0][4] == "N"
    before = client.get("/api/position", params={**promote, "moves": ""}).json()
    pushes = [m for m in before["board"]["moves"] if m["from"] == "e7"]
    assert sorted(m["promotion"] for m in pushes) == ["b", "n", "q", "r"]
    assert {m["to"] for m in pushes} == {"e8"}
    draw = {"game": "chess", "moves": "g1f3,g8f6,f3g1,f6g8,g1f3,g8f6,f3g1,f6g8"}
    assert client.get("/api/position", params=draw).json()["board"]["end"] == (
        "threefold repetition"
    )


@pytest.mark.parametrize(
    ("params", "cli_position", "parameter", "text"),
    [
        ({"moves": "e2e4,e2e5"}, "e2e4 e2e5", "moves", "e2e5"),
        ({"moves": "e2e4,Zz9"}, "e2e4 Zz9", "moves", "Zz9"),
        (
            {"fen": "8/8/8/8/8/8/8/9 w - - 0 1"},
            "8/8/8/8/8/8/8/9 w - - 0 1",
            "fen",
            "8/8/8/8/8/8/8/9 w - - 0 1",
        ),
        (
            {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"},  # parses, but no kings: not a position
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ),
    ],
)
def test_a_bad_chess_move_or_fen_is_a_400_with_the_message_of_the_command_line(
    client: TestClient, params: dict[str, str], cli_position: str, parameter: str, text: str
) -> None:
    needs_chess()
    for path in ("/api/position", "/api/analyze", "/api/move"):
        response = client.get(path, params={"game": "chess", **params})
        assert response.status_code == 400, response.text
        assert response.headers["content-type"] == "application/json"
        assert response.json() == {
            "error": cli_error("analyze", "chess", cli_position),
            "parameter": parameter,
            "text": text,
        }


def test_a_fen_is_refused_for_any_other_game_and_moves_do_not_hide_a_fen(
    client: TestClient,
) -> None:
    needs_chess()
    response = client.get("/api/position", params={"game": "tictactoe", "fen": "x"})
    assert response.status_code == 400
    assert response.json()["parameter"] == "fen" and "only a chess game" in response.json()["error"]
    response = client.get("/api/position", params={"game": "chess", "moves": "fen,8/8/8,w"})
    assert response.status_code == 400 and response.json()["parameter"] == "moves"


@pytest.mark.slow
def test_every_chess_search_is_time_limited_and_speaks_san(client: TestClient) -> None:
    chess = needs_chess()
    moves = "e2e4,e7e5"
    board = chess.Board()
    for uci in moves.split(","):
        board.push_uci(uci)
    started = time.monotonic()
    # no limit asked for: chess cannot be solved, so the analysis gets a few seconds
    report = client.get("/api/analyze", params={"game": "chess", "moves": moves}).json()
    assert time.monotonic() - started < 8
    assert not report["exact"] and report["depth"] >= 1 and report["seconds"] < 3
    assert report["labels"] == {m.uci(): board.san(m) for m in board.legal_moves}
    line, expected = board.copy(), []
    for uci in report["pv"]:
        expected.append(line.san(chess.Move.from_uci(uci)))
        line.push_uci(uci)
    assert report["pv_labels"] == expected and report["pv"]
    # a depth too deep for the cap, or the "perfect" opponent: stopped by time, not by a 504
    deep = client.get(
        "/api/analyze", params={"game": "chess", "moves": moves, "depth": "30", "timeout": "1.5"}
    )
    assert deep.status_code == 200, deep.text
    assert not deep.json()["complete"] and deep.json()["depth"] < 30
    reply = client.get("/api/move", params={"game": "chess", "moves": moves, "timeout": "1.5"})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert chess.Move.from_uci(data["move"]) in board.legal_moves
    assert data["label"] == board.san(chess.Move.from_uci(data["move"]))
    assert data["report"]["seconds"] < 1.5 and not data["report"]["exact"]
    # a mate is shown as one: mate in 1 for the side to move
    mate = client.get("/api/analyze", params={"game": "chess", "moves": "f2f3,e7e5,g2g4"}).json()
    best = next(m for m in mate["moves"] if m["move"] == "d8h4")
    assert best["kind"] == "win" and best["moves_to_end"] == 1 and best["best"]
    assert mate["labels"]["d8h4"] == "Qh4#" and mate["pv_labels"] == ["Qh4#"]


def test_a_chess_analysis_shows_the_engines_best_lines(client: TestClient) -> None:
    chess = needs_chess()
    moves = "e2e4,e7e5,g1f3"
    report = client.get(
        "/api/analyze", params={"game": "chess", "moves": moves, "depth": "4"}
    ).json()
    assert report["algorithm"] == "searcher" and report["depth"] == 4
    board = chess.Board()
    for uci in moves.split(","):
        board.push_uci(uci)
    assert {line["pv"][0] for line in report["lines"]} == {m.uci() for m in board.legal_moves}
    values = [line["score"]["value"] for line in report["lines"]]
    assert values == sorted(values, reverse=True) and report["lines"][0]["pv"] == report["pv"]
    assert len(report["lines_labels"]) == 3
    for line, labels in zip(report["lines"], report["lines_labels"], strict=False):
        replay = board.copy()
        for uci, san in zip(line["pv"], labels, strict=True):
            assert replay.san(chess.Move.from_uci(uci)) == san
            replay.push_uci(uci)


@pytest.mark.slow
def test_the_parallel_view_of_chess_is_time_limited(client: TestClient) -> None:
    needs_chess()
    params = {"game": "chess", "moves": "e2e4,e7e5", "depth": "30", "workers": "2"}
    parallel = client.get("/api/parallel", params={**params, "timeout": "2"})
    assert parallel.status_code == 200, parallel.text
    data = parallel.json()
    assert not data["report"]["complete"] and data["report"]["depth"] < 30
    assert data["report"]["pv_labels"] and data["tasks"]


def test_the_analysis_of_other_games_has_no_labels(client: TestClient) -> None:
    report = client.get("/api/analyze", params={"game": "tictactoe", "moves": "5"}).json()
    assert "labels" not in report and "pv_labels" not in report


@pytest.mark.slow
def test_without_python_chess_the_page_plays_chess() -> None:
    code = (
        "import sys, json, warnings; sys.modules['chess'] = None\n"
        "warnings.simplefilter('ignore')\n"
        "from starlette.testclient import TestClient\n"
        "from unbeatable.web.app import create_app\n"
        "with TestClient(create_app(1, cap=5, warm=False)) as client:\n"
        "    games = client.get('/api/games').json()['games']\n"
        "    chess = client.get('/api/position', params={'game': 'chess', 'moves': 'e2e4'})\n"
        "    move = client.get('/api/move', params={'game': 'chess', 'moves': 'e2e4'})\n"
        "    print(json.dumps([games, chess.status_code, chess.json(), move.json()]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    games, status, body, move = json.loads(done.stdout)
    assert all(g["available"] for g in games)
    assert status == 200 and body["board"]["turn"] == "black" and len(body["board"]["moves"]) == 20
    assert move["move"] in {m["move"] for m in body["board"]["moves"]}
    assert move["report"]["algorithm"] == "searcher"


def test_the_chess_tree_names_its_moves_in_san(client: TestClient) -> None:
    chess = needs_chess()
    params = {"game": "chess", "moves": "e2e4,e7e5", "depth": "1", "max_nodes": "100"}
    response = client.get("/api/tree", params=params)
    assert response.status_code == 200, response.text
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    children = response.json()["tree"]["root"]["children"]
    assert len(children) == board.legal_moves.count()
    for child in children:
        assert child["label"] == board.san(chess.Move.from_uci(child["move"]))
    tictactoe = client.get("/api/tree", params={"game": "tictactoe", "moves": "5", "depth": "1"})
    assert all("label" not in c for c in tictactoe.json()["tree"]["root"]["children"])
