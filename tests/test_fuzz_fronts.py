"""Bad input by the hundred, at random, into every front end: the command line in-process
(``cli.main``), the web API (Starlette's test client) and a UCI session. Whatever comes, the
answer is an exit code the README lists, a JSON answer (400 with one line naming a parameter
the route takes, never 500), a ``bestmove`` for every ``go``; never a traceback.

Seeded: a failure names its seed and its input, and the same run repeats it. ``make test-fast``
runs a few hundred inputs (about a second each part); the slow runs many more seeds. Every
search a valid input may start is bounded (``--nodes``, a small game, a short web cap), so
that only bad input is what is measured.
"""

from __future__ import annotations

import io
import random
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.helpers import run
from unbeatable.messages import MESSAGE_LIMIT, cut

#: The longest stderr line a user error may print: the message and its prefix.
LINE_LIMIT = MESSAGE_LIMIT + len("unbeatable: line 1000: error: ")

#: Pieces of garbage: numbers too long, of the wrong kind or script, quotes, escapes, control
#: characters, option look-alikes, and the games' own tokens (so that some input gets deep).
PIECES = [
    "", " ", "  ", "\t", "0", "1", "-1", "+3", "1.5", "1e400", "nan", "inf", "-inf", "1_0",
    "１", "٣", "0x10", "9" * 30, "9" * 5000, "'", '"', "\\", "\\x00", "\x00", "\x7f", "\u2028",
    "é", "🂡", ",", ":", "=", "/", "--", "-", "--x", "--help", "x", "o", "X", ".", "xo./...",
    "pile=7", "fen", "moves", "startpos", "e2e4", "e7e8q", "Nf3", "O-O", "5", "12", "4453",
    "44444444", "3,1", "10,11", "8/8/8/8/8/8/8/8 w - - 0 1", "tictactoe", "connect4",
    "mnk:3,4,3", "subtraction:12,3", "chess", "perfect", "random", "depth:2", "time:0.01",
    "nodes:30", "depth:", "time:x", "wizard", "minimax", "alphabeta", "negamax", "solver",
]


#: The longest garbage, in characters (a URL of more than 64 kB is refused before the app).
LONGEST = 6000


def garbage(rng: random.Random, longest: int = 6) -> str:
    """A text of a few random pieces, joined by nothing, spaces or commas; now and then one
    piece repeated hundreds of times."""
    pieces = [rng.choice(PIECES) for _ in range(rng.randint(1, longest))]
    if rng.random() < 0.05:
        pieces = [rng.choice(PIECES)] * rng.randint(100, 1500)
    return rng.choice(["", " ", ","]).join(pieces)[:LONGEST]


# --- the command line --------------------------------------------------------------------------

#: Games whose searches stay small under the limits below (exact ones included).
SMALL_GAMES = ["tictactoe", "mnk:3,4,3", "subtraction:12,3", "connect4", "chess"]
OPTIONS = {
    "analyze": ["--depth", "--time", "--nodes", "--algorithm", "--table-size", "--threads",
                "--workers", "--json", "--no-book"],
    "tree": ["--depth", "--algorithm", "--max-nodes", "--format", "--hints", "--boards"],
    # (not --no-book: an empty line is Connect Four's start, 30 s for the bare solver)
    "solve": ["--weak", "--algorithm", "--table-size", "--threads"],
    "play": ["--human", "--position", "--delay", "--seed", "--depth", "--nodes"],
    "match": ["--game", "-n", "--seed", "--position"],
}
#: Appended last, so that it wins over a random one: what bounds a valid input's search.
BOUNDS = {
    "analyze": ["--nodes", "300", "--workers", "1"],
    "tree": ["--max-nodes", "60"],
    "solve": [],
    "play": ["--nodes", "200", "--delay", "0"],
    "match": ["-n", "1"],
}
#: Exit codes the README lists for each command (2 a user error, 1 a piped game unfinished).
EXITS = {"analyze": {0, 2}, "tree": {0, 1, 2}, "solve": {0, 1, 2}, "play": {0, 1, 2},
         "match": {0, 2}}


def cli_case(rng: random.Random) -> tuple[list[str], str]:
    """A random command line and its standard input."""
    command = rng.choice(sorted(OPTIONS))
    game = rng.choice(SMALL_GAMES) if rng.random() < 0.7 else garbage(rng, 2)
    if command == "match":
        argv = [command, rng.choice(PIECES[-10:-3]), garbage(rng, 2), "--game",
                rng.choice(["tictactoe", "subtraction:12,3", garbage(rng, 2)])]
    else:
        argv = [command, game]
    if command in ("analyze", "tree") and rng.random() < 0.8:
        argv.append(garbage(rng))
    for _ in range(rng.randint(0, 3)):
        option = rng.choice(OPTIONS[command])
        argv.append(option)
        if option not in ("--json", "--no-book", "--weak", "--demo", "--hints", "--boards"):
            argv.append(garbage(rng, 2))
    if command == "solve" and game not in ("tictactoe", "subtraction:12,3", "connect4"):
        argv[1] = "tictactoe"  # an exact solve of anything larger is not bounded
    if command == "analyze" and "--workers" in argv[:-1]:
        argv += ["--workers", "1"]  # not a process pool a case
    stdin = "\n".join(garbage(rng, 3) for _ in range(rng.randint(0, 6)))
    return argv + BOUNDS[command], stdin


def check_cli(argv: list[str], stdin: str) -> None:
    code, out, said = run(*argv, stdin=stdin)
    assert code in EXITS[argv[0]], (code, said)
    assert "Traceback" not in said and "Traceback" not in out
    lines = said.splitlines()
    for line in lines:
        assert len(line) <= LINE_LIMIT, line
    if code == 2 and argv[0] in ("analyze", "tree", "match"):
        assert len(lines) == 1 and lines[0].startswith("unbeatable: error: "), said


def cli_run(seed: int, cases: int) -> None:
    rng = random.Random(seed)
    for case in range(cases):
        argv, stdin = cli_case(rng)
        try:
            check_cli(argv, stdin)
        except BaseException as failure:
            shown = [cut(word) for word in argv]
            raise AssertionError(
                f"seed {seed}, case {case}: unbeatable {shown!r} < {cut(stdin, 300)!r}"
            ) from failure


def test_random_command_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a random -o would write here
    cli_run(18, 120)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
def test_random_command_lines_by_the_thousand(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cli_run(seed, 600)


# --- the web API -------------------------------------------------------------------------------

ROUTES = {
    "/api/games": [],
    "/api/health": [],
    "/api/position": ["game", "moves", "fen"],
    "/api/analyze": ["game", "moves", "fen", "depth", "time", "algorithm", "timeout"],
    "/api/move": ["game", "moves", "fen", "opponent", "seed", "timeout"],
    "/api/tree": ["game", "moves", "fen", "depth", "algorithm", "hints", "max_nodes", "timeout"],
    "/api/parallel": ["game", "moves", "fen", "depth", "workers", "algorithm", "timeout"],
}


@pytest.fixture(scope="module")
def client() -> Iterator[Callable[..., object]]:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from unbeatable.web.app import create_app

    # a short cap: a valid request's search ends within it (504 past it)
    with TestClient(create_app(1, queue=4, cap=1.0, warm=False)) as test_client:
        yield test_client.get


def web_case(rng: random.Random) -> tuple[str, dict[str, str]]:
    route = rng.choice(sorted(ROUTES)) if rng.random() < 0.95 else "/api/" + quote(garbage(rng, 1))
    names = ROUTES.get(route, [])
    params: dict[str, str] = {}
    if names and rng.random() < 0.6:
        params["game"] = rng.choice(SMALL_GAMES)
    for _ in range(rng.randint(0, 3)):
        name = rng.choice([*names, "x", "depth"]) if names else garbage(rng, 1) or "x"
        params[name] = garbage(rng)
    if route == "/api/parallel" and params.get("game") == "connect4":
        params["game"] = "tictactoe"  # a real parallel search forks processes: not a case
    return route, params


def check_web(get: Callable[..., object], route: str, params: dict[str, str]) -> None:
    reply = get(route, params=params)
    status = reply.status_code  # type: ignore[attr-defined]
    assert status in (200, 400, 404, 504), (status, reply.text[:500])  # type: ignore[attr-defined]
    assert reply.headers["content-type"] == "application/json"  # type: ignore[attr-defined]
    body = reply.json()  # type: ignore[attr-defined]
    if status == 400:
        assert set(body) == {"error", "parameter", "text"}
        assert body["parameter"] in ROUTES.get(route, []), body
        assert "\n" not in body["error"] and len(body["error"]) <= MESSAGE_LIMIT, body
    if status == 404:
        assert body["parameter"] == "path" and route not in ROUTES


def web_run(get: Callable[..., object], seed: int, cases: int) -> None:
    rng = random.Random(seed)
    for case in range(cases):
        route, params = web_case(rng)
        try:
            check_web(get, route, params)
        except BaseException as failure:
            shown = {name: cut(value) for name, value in params.items()}
            raise AssertionError(f"seed {seed}, case {case}: GET {route} {shown!r}") from failure


@pytest.mark.slow
def test_random_web_requests(client: Callable[..., object]) -> None:
    web_run(client, 18, 100)


#: Requests a seed of the slow run sends: 2,000 in all, between the other front ends' slow runs
#: (3,000 command lines, 1,800 UCI commands). It was 1,000 a seed: 5,000, the most cases of the
#: three and the costliest (a valid request searches in the app's worker process, chess for
#: half a second): about 56 s of CPU and 75 s of wall of make test's run.
WEB_CASES = 400


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
def test_random_web_requests_by_the_thousand(client: Callable[..., object], seed: int) -> None:
    web_run(client, seed, WEB_CASES)


# --- a UCI session -----------------------------------------------------------------------------

UCI_WORDS = [
    "uci", "isready", "ucinewgame", "setoption", "name", "value", "Hash", "Threads", "MultiPV",
    "position", "startpos", "fen", "moves", "go", "depth", "nodes", "movetime", "wtime", "btime",
    "winc", "binc", "movestogo", "infinite", "ponder", "stop", "debug", "e2e4", "e7e5", "g1f3",
    "e2e5", "a7a8q", "0000", "1", "0", "-5", "20", "x", "9" * 30, "８",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "b", "KQkq", "-",
]


def uci_command(rng: random.Random) -> str:
    words = [rng.choice(UCI_WORDS) for _ in range(rng.randint(0, 8))]
    if rng.random() < 0.5 and words:
        words[0] = rng.choice(["position", "go", "setoption"])
    if words[:1] == ["go"]:
        words += ["nodes", "150"]  # bounded; `infinite` waits for the next command's stop
    return " ".join(words) if rng.random() < 0.97 else garbage(rng)


def uci_run(seed: int, commands: int) -> None:
    from unbeatable.uci import UCISession

    rng = random.Random(seed)
    out = io.StringIO()
    session = UCISession(out)
    sent = [uci_command(rng) for _ in range(commands)]
    for command in sent:
        assert session.handle(command.strip()), command
    session.finish()
    lines = out.getvalue().splitlines()
    asked = sum(1 for command in sent if command.split()[:1] == ["go"])
    answered = sum(1 for line in lines if line.startswith("bestmove "))
    assert answered == asked, f"seed {seed}: {asked} go, {answered} bestmove"
    for line in lines:
        assert line.split()[0] in ("id", "option", "uciok", "readyok", "info", "bestmove"), line
        assert len(line) <= 2 * MESSAGE_LIMIT, line


def test_random_uci_commands() -> None:
    uci_run(18, 120)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 4))
def test_random_uci_commands_by_the_thousand(seed: int) -> None:
    uci_run(seed, 600)
