"""Every parameter of every route of the web API, refused the same way when it is bad: a JSON
400 naming the parameter, one line, its echo cut; an unknown route or method a JSON 404 or 405
(issue 18, defect 7). Table-driven: a route's parameters are listed once, each kind of
parameter with its bad values."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from unbeatable.messages import MESSAGE_LIMIT
from unbeatable.web import pool
from unbeatable.web.app import create_app
from unbeatable.web.inputs import MAX_DEPTH, MAX_NODES

LONG = "1" * 30  # a number no parameter takes

#: Bad values for each kind of parameter (a value that is absent or empty means the default).
WHOLE = ["x", "1.5", LONG, "-1", "0", "１", "1_0", "+3", "nan", "1e3", "3 4", "0x10"]
SECONDS = ["x", "nan", "inf", "-inf", "-1", "0", "1e400", LONG, "1,5", "１", "1_0", "٣"]
BAD: dict[str, list[str]] = {
    "game": ["nosuch", "mnk:" + LONG, f"subtraction:{LONG},3", "x" * 200, "\x00", "mnk:3,3,3,3,3"],
    "moves": ["0", "10", "x", "1,1", "\x00", "5" * 3000, "x./...", "12345678"],
    "fen": ["8/8/8/8/8/8/8/8 w - - 0 1"],  # tic-tac-toe takes none
    "depth": WHOLE,
    "seed": ["x", "1.5", LONG, "-1", "１", "1_0", str(2**31 + 1)],
    "max_nodes": WHOLE,
    "workers": [*WHOLE, "5"],
    "time": SECONDS,
    "timeout": [*SECONDS, "11", "1e-300", "0.01"],  # the cap: 10 s; at least 0.1 s
    "hints": ["maybe", "2", "yes please", "１", "-1"],
    "opponent": [
        "depth:" + LONG,
        "nodes:" + LONG,
        f"depth:{MAX_DEPTH + 1}",
        f"nodes:{MAX_NODES + 1}",
        "depth:0",
        "depth:-1",
        "depth:１",
        "depth:1_0",
        "DEPTH:" + LONG,
        "depth: 3 4",
        "time:nan",
        "time:inf",
        "time:0",
        "time:-1",
        "time:1e400",
        "time:" + LONG,
        "time:１",
        "time:1_0",
        "wizard",
        "random:3",
        "depth:3,algorithm=x",
        "depth:3,x",
        "x" * 200,
    ],
    "algorithm": ["x", "x" * 5000, "minimax;", "1"],
}

#: Every route with parameters, and its parameters.
ROUTES = {
    "/api/position": ["game", "moves", "fen"],
    "/api/analyze": ["game", "moves", "fen", "depth", "time", "algorithm", "timeout"],
    "/api/move": ["game", "moves", "fen", "opponent", "seed", "timeout"],
    "/api/tree": ["game", "moves", "fen", "depth", "algorithm", "hints", "max_nodes", "timeout"],
    "/api/parallel": ["game", "moves", "fen", "depth", "workers", "algorithm", "timeout"],
}

CASES = [
    (route, name, value)
    for route, names in ROUTES.items()
    for name in names
    for value in BAD[name]
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(1, queue=2, cap=10, warm=False)) as test_client:
        yield test_client


def refused(client: TestClient, url: str, params: dict[str, str], status: int) -> dict[str, str]:
    reply = client.get(url, params=params)
    assert reply.status_code == status, (url, params, reply.text[:300])
    assert reply.headers["content-type"] == "application/json"
    body: dict[str, str] = reply.json()
    assert set(body) == {"error", "parameter", "text"}
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    assert 0 < len(body["error"]) <= MESSAGE_LIMIT
    return body


def test_every_route_and_parameter_is_in_the_table() -> None:
    assert set(BAD) == {name for names in ROUTES.values() for name in names}
    assert len(CASES) > 200


@pytest.mark.parametrize(("route", "name", "value"), CASES)
def test_a_bad_parameter_is_a_json_400_naming_it(
    client: TestClient, route: str, name: str, value: str
) -> None:
    body = refused(client, route, {name: value}, 400)
    assert body["parameter"] == name, body


@pytest.mark.parametrize(
    ("route", "params"),
    [
        ("/api/tree", {"hints": hints})
        for hints in ["1", "true", "on", "yes", "0", "false", "off", "no", "", "TRUE", " 1 "]
    ]
    + [
        ("/api/move", {"opponent": opponent, "timeout": "5"})
        for opponent in ["depth:2", f"depth:{MAX_DEPTH}", "nodes:50", "Depth:2", "time:0.1"]
    ]
    + [
        ("/api/analyze", {"depth": depth, "moves": "1234"}) for depth in ["3", " 3 ", "0003", ""]
    ]
    + [("/api/move", {"seed": seed}) for seed in ["0", str(2**31)]],
)
def test_good_values_are_still_taken(
    client: TestClient, route: str, params: dict[str, str]
) -> None:
    reply = client.get(route, params={"game": "tictactoe", **params})
    assert reply.status_code == 200, reply.text


def test_a_yes_or_no_parameter_means_what_it_says(client: TestClient) -> None:
    for hints, meant in [("1", True), ("yes", True), ("0", False), ("no", False), ("", False)]:
        reply = client.get("/api/tree", params={"moves": "5", "depth": "2", "hints": hints})
        assert reply.json()["tree"]["hints"] is meant


@pytest.mark.parametrize(
    "path", ["/api/nope", "/api/", "/api/games/x", "/api", "/nope", "/api/analyse"]
)
def test_an_unknown_route_is_a_json_404(client: TestClient, path: str) -> None:
    body = refused(client, path, {}, 404)
    assert body == {"error": f"no such route: {path!r}", "parameter": "path", "text": path}


def test_a_method_other_than_get_is_a_json_405(client: TestClient) -> None:
    for method in ("POST", "PUT", "DELETE"):
        reply = client.request(method, "/api/analyze")
        assert reply.status_code == 405 and reply.json()["parameter"] == "method"


def test_the_old_name_workerpool_still_works_and_says_it_is_deprecated() -> None:
    with pytest.warns(DeprecationWarning, match="JobPool"):
        old = pool.WorkerPool
    assert old is pool.JobPool
