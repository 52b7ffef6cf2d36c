"""An analysis that the Connect Four solver takes a while over shows its progress: the solver
tells the bounds it has proven each time they narrow (``Solver.analyze(progress=...)``), the
library passes them on as results (``Searcher.search(progress=...)``, ``report.analyze``), the
command line shows them on stderr (a live line in a terminal; lines with ``--progress``;
nothing when piped), Ctrl-C keeps what was proven, and the web answers inside its cap with the
bounds the solver had then. Every bound is checked against the exact values (the solver's full
solve, and the published value of the empty board)."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from unbeatable import get_game
from unbeatable.games.connect4.published import first_player_score
from unbeatable.games.connect4.solver import Analysis, Solver
from unbeatable.render import LiveLine
from unbeatable.report import analyze, progress_text
from unbeatable.search import Limits, Searcher, SearchResult, policy, solve_score
from unbeatable.search.score import Score, value_from_solve_score

SCRIPT = Path(sys.executable).with_name("unbeatable")

#: a progress line: ``2.7 s: score [-3..+15]; moves 1 ?, 2 [-3..+2], ...``
PROGRESS = re.compile(r"^\d+\.\d s: score (\S+)(?:; moves (.*))?$")

#: a text of the live line in a terminal: written from the line's start, the rest erased
LIVE = re.compile(r"\r([^\r\n]*)\x1b\[K")

#: the one line said on Ctrl-C
INTERRUPTED = "unbeatable: interrupted: the best known so far follows"

#: the line said when compiled kernels must be built (``unbeatable.kernels``), cold cache only
NOTICE = re.compile(r"building .* once, about \d+ s; later runs start at once\r?\n")


def _exact_columns(width: int, height: int, moves: str = "") -> list[int | None]:
    solver = Solver(width=width, height=height, book=False, threads=1)
    return solver.score_map(moves)


def _nested(outer: tuple[int, int], inner: tuple[int, int]) -> bool:
    return outer[0] <= inner[0] <= inner[1] <= outer[1]


# --- the solver -----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
def test_the_solver_tells_narrowing_bounds_that_hold_the_exact_scores(threads: int) -> None:
    solver = Solver(width=6, height=5, book=False, threads=threads)
    told: list[Analysis] = []
    final = solver.analyze(*solver.position(""), progress=told.append)
    assert final.complete and not final.interrupted
    exact = final.lower
    assert exact == _exact_columns(6, 5)  # a second solve, one thread, a fresh table
    assert max(v for v in exact if v is not None) == first_player_score(6, 5)
    assert len(told) >= 2, "a search of about a second tells its progress more than once"
    last = [(-15, 15)] * 6  # the widest bounds there are: 30 empty cells
    for event in told:
        assert not event.complete and not event.interrupted
        now = list(zip(event.lower, event.upper, strict=True))
        assert now != last  # told only when something narrowed
        for col, (before, bounds, value) in enumerate(zip(last, now, exact, strict=True)):
            assert bounds[0] is not None and bounds[1] is not None and value is not None
            assert _nested(before, bounds), (col, before, bounds)  # type: ignore[arg-type]
            assert bounds[0] <= value <= bounds[1], (col, bounds, value)
        last = now  # type: ignore[assignment]


@pytest.mark.slow
def test_watching_the_search_does_not_change_it() -> None:
    # one thread searches the same nodes whether or not it is watched (a fresh table each)
    counts = []
    for progress in (None, lambda _: None):
        solver = Solver(width=6, height=5, book=False, threads=1)
        result = solver.analyze(*solver.position("4"), progress=progress)
        counts.append((result.lower, result.nodes))
    assert counts[0] == counts[1]


@pytest.mark.slow
def test_the_position_score_s_bounds_narrow_towards_the_published_score() -> None:
    # 7 x 5: a draw. The probe proving >= 0 ends after about 0.2 s of one free core, the one
    # proving <= 0 about 1.3 s later, so the 50 ms watch sees the first bound however fast the
    # machine (7 x 4, used before, ended both probes inside 0.5 s, at times inside one look)
    solver = Solver(width=7, height=5, book=False, threads=1)
    told: list[Analysis] = []
    final = solver.bounds(*solver.position(""), progress=told.append)
    assert final.complete and final.lower == [first_player_score(7, 5)] == [0]
    assert told, "the bound of the first probe is told while the second runs"
    widest = (-17, 18)
    for event in told:
        lo, hi = event.lower[0], event.upper[0]
        assert lo is not None and hi is not None
        assert _nested(widest, (lo, hi)) and lo <= 0 <= hi
        widest = (lo, hi)


def test_a_full_column_stays_full_and_nothing_is_told_when_nothing_narrows() -> None:
    from unbeatable.games.connect4.solver import _narrowed

    full = -1000
    known = ([full, -3, -5], [full, 4, 5])
    assert _narrowed(known, ([-7, -3, -5], [7, 4, 5])) is None
    assert _narrowed(known, ([-7, -1, -9], [7, 9, 2])) == ([full, -1, -5], [full, 4, 2])


# --- the library ----------------------------------------------------------------------------


@pytest.mark.slow
def test_the_search_tells_results_whose_bounds_narrow_and_hold_the_answer() -> None:
    game = get_game("connect4:width=6,height=5")
    state = game.initial()
    told: list[SearchResult] = []
    analysis = analyze(game, state, Searcher(threads=1), progress=told.append)
    result = analysis.result
    assert result is not None and result.complete and result.exact and not analysis.interrupted
    assert solve_score(state, result.score) == first_player_score(6, 5)
    finals = result.move_scores
    assert finals is not None and len(finals) == 6 and all(s.exact for s in finals.values())
    assert told and all(not r.complete and r.algorithm == "solver" for r in told)

    def ends(r: SearchResult, move: object) -> tuple[int, int]:
        bounds = (r.move_bounds or {}).get(move)
        low, high = bounds if bounds is not None else (r.move_scores[move],) * 2  # type: ignore[index]
        return low.value, high.value

    def score_ends(r: SearchResult) -> tuple[int, int]:
        low, high = r.score_bounds if r.score_bounds is not None else (r.score, r.score)
        return low.value, high.value

    previous: SearchResult | None = None
    for r in told:
        assert r.move_scores is not None and set(r.move_scores) == set(finals)
        assert score_ends(r)[0] <= result.score.value <= score_ends(r)[1]
        for move, final in finals.items():
            low, high = ends(r, move)
            assert low <= final.value <= high, (move, low, high, final)
            if previous is not None:
                assert _nested(ends(previous, move), (low, high))
        if previous is not None:
            assert _nested(score_ends(previous), score_ends(r))
            assert r.elapsed >= previous.elapsed and r.nodes >= previous.nodes
        text = progress_text(r, state)
        assert PROGRESS.match(text), text
        previous = r


def test_a_progress_line_says_each_move_s_bounds_short() -> None:
    # 4 x 4, empty: every column's widest bounds are -8 (the opponent wins at its next stone)
    # to +8 (a win with this stone)
    state = get_game("connect4:width=4,height=4").initial()
    loss, draw, win3, win = (Score(value_from_solve_score(state, v)) for v in (-8, 0, 3, 8))
    result = SearchResult(
        move=1, best_moves=(1,), score=draw, pv=(1,),
        move_scores={0: loss, 1: draw, 2: draw, 3: loss},
        depth=0, seldepth=0, nodes=10, table_hits=0, cutoffs=0, elapsed=1.25, exact=False,
        complete=False, algorithm="solver",
        move_bounds={0: (loss, win), 2: (draw, win3)}, score_bounds=(draw, win),
    )  # fmt: skip
    assert (
        progress_text(result, state) == "1.2 s: score [0..+8]; moves 1 ?, 2 [0], 3 [0..+3], 4 [-8]"
    )


def test_an_analysis_of_a_game_with_its_own_solver_is_held_inside_a_cap() -> None:
    small = get_game("connect4:width=6,height=5").initial()
    tictactoe = get_game("tictactoe").initial()
    assert policy.limits_for(small, Limits(), purpose="analysis", cap=10.0) == Limits(time=8.0)
    assert policy.limits_for(small, Limits(), purpose="analysis") == Limits()
    assert policy.limits_for(small, Limits(), purpose="search", cap=10.0) == Limits()
    assert policy.limits_for(small, Limits(depth=4), purpose="analysis", cap=10.0) == Limits(
        depth=4
    )
    assert policy.limits_for(tictactoe, Limits(), purpose="analysis", cap=10.0) == Limits()


# --- the command line -----------------------------------------------------------------------


def _bounds_of(text: str) -> tuple[int, int] | None:
    """``[a..b]`` or ``[a]`` as numbers; None for ``?`` (the widest bounds)."""
    if text == "?":
        return None
    ends = text.strip("[]").split("..")
    return int(ends[0]), int(ends[-1])


def _moves_of(line: str) -> dict[int, tuple[int, int] | None]:
    found = PROGRESS.match(line)
    assert found and found.group(2), line
    moves = {}
    for part in found.group(2).split(", "):
        column, text = part.split(" ")
        moves[int(column)] = _bounds_of(text)
    return moves


def _json_bounds(entry: dict[str, object]) -> tuple[int, int]:
    if entry["kind"] == "bounds":
        return entry["lower"]["solve_score"], entry["upper"]["solve_score"]  # type: ignore[index]
    return entry["solve_score"], entry["solve_score"]  # type: ignore[return-value]


def _analyze(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "analyze", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_piped_the_command_says_its_progress_only_when_asked() -> None:
    quiet = _analyze("connect4:width=6,height=5", "", "--threads", "1")
    assert quiet.returncode == 0, quiet.stderr
    assert not any(PROGRESS.match(line) for line in quiet.stderr.splitlines()), quiet.stderr
    told = _analyze("connect4:width=6,height=5", "", "--threads", "1", "--progress", "--json")
    assert told.returncode == 0, told.stderr
    lines = [line for line in told.stderr.splitlines() if PROGRESS.match(line)]
    assert lines, told.stderr
    report = json.loads(told.stdout)
    assert report["complete"] and report["score"]["solve_score"] == 0
    exact = {int(m["move"]): m["solve_score"] for m in report["moves"]}
    for line in lines:
        for column, bounds in _moves_of(line).items():
            if bounds is not None:
                assert bounds[0] <= exact[column] <= bounds[1], (line, column)


@pytest.mark.slow
def test_ctrl_c_in_a_terminal_keeps_what_was_proven_and_says_one_line() -> None:
    # 7 x 5 takes the solver tens of seconds: SIGINT comes once the live line has shown
    # progress (stderr is a terminal; the JSON goes to a pipe)
    main, side = pty.openpty()
    process = subprocess.Popen(
        [str(SCRIPT), "analyze", "connect4:width=7,height=5", "", "--json", "--threads", "1"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=side,
        env={**os.environ, "COLUMNS": "200"},
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(side)
    seen = b""
    try:
        deadline = time.monotonic() + 240
        while seen.count(b"\033[K") < 3 and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 1.0)
            if ready:
                seen += os.read(main, 65536)
        assert seen.count(b"\033[K") >= 3, seen
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        while True:
            ready, _, _ = select.select([main], [], [], 0.5)
            if not ready:
                break
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other end closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    assert process.returncode == 130
    err = NOTICE.sub("", seen.decode())
    assert "Traceback" not in err
    # the live line: each text written over the last (``\r`` ... erase to the end of the
    # line), then erased before the one line said on Ctrl-C
    shown = [text for text in LIVE.findall(err) if text]
    assert err.rstrip().endswith("\r\033[K" + INTERRUPTED) and shown, err
    assert LIVE.sub("", err).split() == INTERRUPTED.split(), err
    assert all(PROGRESS.match(text) for text in shown), shown
    report = json.loads(out)
    assert report["interrupted"] and not report["complete"]
    # what was proven is kept: every move's bounds inside the last ones shown
    last = _moves_of(shown[-1])
    moves = {int(m["move"]): _json_bounds(m) for m in report["moves"]}
    assert set(moves) == set(last) == set(range(1, 8))
    assert any(bounds is not None for bounds in last.values())
    for column, bounds in last.items():
        if bounds is not None:
            assert _nested(bounds, moves[column]), (column, bounds, moves[column])
    # and they hold the truth: the empty 7 x 5 board is a draw
    low, high = _json_bounds(report["score"])
    assert first_player_score(7, 5) == 0 and low <= 0 <= high


def _warm(client: object, game: str, moves: str) -> None:
    """Ask for an analysis of ``moves`` until the pool has warmed up; it must be exact."""
    for _ in range(240):
        warm = client.get("/api/analyze", params={"game": game, "moves": moves})  # type: ignore[attr-defined]
        if warm.status_code != 503:
            break
        time.sleep(0.5)
    assert warm.status_code == 200 and warm.json()["complete"], warm.text


def _late_position(spec: str, stones: int) -> str:
    """The moves of a position of ``stones`` stones whose game goes on (each move the first
    legal one that does not end it)."""
    state = get_game(spec).initial()
    moves = ""
    for _ in range(stones):
        move = next(m for m in state.legal_moves() if state.play(m).outcome() is None)
        moves += state.move_text(move)
        state = state.play(move)
    return moves


# --- the web --------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_web_answers_inside_its_cap_with_bounds_that_hold_the_exact_values() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from unbeatable.web.app import create_app

    exact = _exact_columns(5, 6)
    with TestClient(create_app(1, queue=2, cap=10)) as client:
        for width, height, timeout in ((5, 6, "0.5"), (5, 9, "5")):
            game = f"connect4:width={width},height={height}"
            # a late position first: the worker's solver for the size is loaded (503 while
            # the pool warms up), so that the empty board's search has the time limit to itself.
            # The answer comes at the time limit inside the cap (0.05 s of a 0.5 s cap, 4 s of
            # 5 s), the rest of the cap being room for its way back; a machine so busy that it
            # takes longer gets a 504 (not this test's matter), and a fresh worker: again, with
            # another late position (the server keeps the answers it gave)
            params = {"game": game, "moves": "", "timeout": timeout}
            for attempt in range(3):
                _warm(client, game, _late_position(game, width * height - 10 - attempt))
                reply = client.get("/api/analyze", params=params)
                if reply.status_code != 504:
                    break
            assert reply.status_code == 200, reply.text
            report = reply.json()
            # the empty board takes the solver about a second (5 x 6) or tens of seconds
            # (5 x 9, a size without opening data: 6 x 7's book now answers its empty board at once;
            # 7 x 5 was solved inside the 4 s once the search had the rules' bounds):
            # it answered at its limit with what it had proven
            assert not report["complete"] and report["algorithm"] == "solver", report
            low, high = _json_bounds(report["score"])
            truth = first_player_score(width, height)
            assert truth is not None and low <= truth <= high
            if width == 5:
                for entry in report["moves"]:
                    low, high = _json_bounds(entry)
                    value = exact[int(entry["move"]) - 1]
                    assert value is not None and low <= value <= high, (entry, value)


# --- the live line --------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_live_line_writes_over_itself_in_a_terminal_and_logs_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "20")
    terminal = _Terminal()
    line = LiveLine(terminal, every=3600.0)
    line.show("first")
    line.show("second, too soon: not shown")
    line.clear()
    line.clear()  # nothing more
    assert terminal.getvalue() == "\rfirst\033[K\r\033[K"
    line = LiveLine(terminal := _Terminal(), every=0.0)
    line.show("a text longer than the terminal is wide")
    assert terminal.getvalue() == "\ra text longer th...\033[K"  # 19 columns: the last is free
    log = io.StringIO()
    line = LiveLine(log)
    line.show("one")
    line.show("two")
    line.clear()
    assert log.getvalue() == "one\ntwo\n"
