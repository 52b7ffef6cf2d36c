"""The chess benchmarks against real UCI engines run, read odd suites and report why games end
(a smoke test: our engine as its own opponent; figures are checked, never times)."""

from __future__ import annotations

import importlib.util
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("chess", reason="python-chess (a test-only oracle) is not installed")

from tests.helpers import STOCKFISH

ROOT = Path(__file__).resolve().parents[1]
OURS = f"{sys.executable} -m unbeatable.uci"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_the_elo_of_a_score_and_its_error_bar() -> None:
    elo = load("chess_match").elo
    scores = [1.0, 0.0] * 10
    diff, bar, low, high = elo(scores)
    slope = 400 / (math.log(10) * 0.25)  # d(Elo)/d(score) at an even score
    assert diff == 0 and low == pytest.approx(-high)
    assert bar == pytest.approx(1.96 * statistics.stdev(scores) / math.sqrt(20) * slope)
    diff, _, low, high = elo([1.0, 1.0, 0.5, 0.0])
    assert diff == pytest.approx(-400 * math.log10(1 / 0.625 - 1)) and low < diff < high
    assert elo([1.0, 1.0])[0] == math.inf
    # every game won: no spread, so the exact binomial bound (100 of 100: a win at least 96.4 %)
    diff, bar, low, high = elo([1.0] * 100)
    assert diff == high == bar == math.inf
    assert low == pytest.approx(-400 * math.log10(1 / 0.025**0.01 - 1)) and 560 < low < 580
    diff, bar, low, high = elo([0.0] * 100)
    assert diff == low == -math.inf and bar == math.inf and high == pytest.approx(-576, abs=10)


def test_odd_epd_lines_are_read_or_reported() -> None:
    wac = load("chess_wac")
    good = wac.read_position(1, 'k7/8/1K6/8/8/8/8/7R w - - bm Rh8#!; id "mate";')
    assert good.name == "mate" and not good.problem and good.key() == "Rh8#"
    assert good.solved(good.best[0]) and not good.solved(None)
    avoid = wac.read_position(2, "k7/8/1K6/8/8/8/8/7R w - - am Rh7; c0 \"a; b\"")
    assert avoid.name == "line 2" and avoid.key() == "not Rh7" and not avoid.problem
    assert avoid.solved(avoid.board.parse_san("Rh8")) and not avoid.solved(avoid.avoid[0])
    problems = {
        "garbage": "not an EPD position",
        "k7/8/1K6/8/8/8/8/7Z w - - bm Rh8": "unreadable position",
        "k7/8/1K6/8/8/8/8/7R w - - bm Qh8": "not legal here: Qh8",
        "k7/8/1K6/8/8/8/8/7R w - - id \"x\"": "no bm or am",
        "7k/5Q2/6K1/8/8/8/8/8 b - - bm Kh8": "the game is over",
        "kK6/8/8/8/8/8/8/8 w - - bm Kb7": "illegal position",
    }
    for text, problem in problems.items():
        assert problem in wac.read_position(3, text).problem, text


@pytest.mark.slow
def test_the_wac_benchmark_reports_every_position(tmp_path: Path) -> None:
    suite = tmp_path / "odd.epd"
    suite.write_text(
        "# a comment\n"
        'k7/8/1K6/8/8/8/8/7R w - - bm Rh8; id "mate";\r\n'
        "\n"
        'k7/8/1K6/8/8/8/8/7R w - - bm Qh8; id "bad";\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "chess_wac.py"), "--suite", str(suite),
         "--seconds", "0.2"],
        capture_output=True, text=True, timeout=120, check=True,
    )
    assert "bad        line 4: skipped, moves that are not legal here: Qh8" in done.stdout
    assert "mate       Rh8#             unbeatable Rh8#     yes" in done.stdout
    assert "unbeatable   solved    1 / 2" in done.stdout and "0 errors" in done.stdout


@pytest.mark.slow
def test_the_match_benchmark_says_why_each_game_ended_and_resumes(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    command = [
        sys.executable, str(ROOT / "benchmarks" / "chess_match.py"), "--opponent", OURS,
        "--base", "1", "--inc", "0.05", "--max-plies", "10", "--record", str(record),
    ]  # fmt: skip
    first = subprocess.run(
        [*command, "--games", "1"], capture_output=True, text=True, timeout=300, check=True
    ).stdout
    assert first.count("draw by ply cap (adjudicated draw), 10 plies") == 1
    done = subprocess.run(
        [*command, "--games", "2"], capture_output=True, text=True, timeout=300, check=True
    )
    out = done.stdout
    assert "resuming after the 1 games recorded" in out
    assert out.count("draw by ply cap (adjudicated draw), 10 plies") == 1  # game 2 only
    assert "ply cap (adjudicated draw)                    0                0        2" in out
    assert "unbeatable: 3 moves in this sitting" in out
    assert "+0 =2 -0 of 2, score 50.0%, Elo +0" in out and "load average (1 min)" in out
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert games[0]["base"] == 1 and [g["game"] for g in games[1:]] == [1, 2]
    capped = "ply cap (adjudicated draw)"
    assert all(len(g["load"]) == 3 and g["reason"] == capped for g in games[1:])
    report = subprocess.run(
        [*command, "--report", "--sprt", "0", "20"], capture_output=True, text=True,
        timeout=300, check=True,
    ).stdout  # fmt: skip
    assert "+0 =2 -0 of 2" in report and "SPRT 0 vs 20 Elo: LLR 0.00" in report
    other = subprocess.run(
        [*command[:-2], "--record", str(record), "--games", "3", "--inc", "0.1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert other.returncode != 0 and "records another match" in other.stderr


def test_the_sprt_decides_only_on_enough_evidence() -> None:
    match = load("chess_match")
    low, high = match.sprt_bounds()
    assert low == pytest.approx(math.log(0.05 / 0.95)) and high == pytest.approx(-low)
    assert match.sprt(0, 0, 0, 0, 20) == 0.0 and match.sprt(0, 10, 0, 0, 20) == 0.0
    even = match.sprt(100, 100, 100, 0, 20)
    assert low < even < 0  # an even score leans to H0, not yet decided
    assert match.sprt(300, 200, 100, 0, 20) > high  # a 66% score decides for H1
    assert match.sprt(100, 200, 300, 0, 20) < low
    assert match.decided([{"score": 1.0}] * 200 + [{"score": 0.0}] * 20, [0, 20])


@pytest.mark.slow  # three runs of the script: 1.0 s (2026-12-02)
def test_a_record_is_reported_from_its_own_settings(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    settings: dict[str, object] = {"opponent": "x", "options": {}, "ours": None}
    settings.update(our_options={}, base=1.0, inc=0.0, max_plies=300)
    game = {"white": "unbeatable", "black": "x", "opening": "e2e4 e7e5 g1f3 b8c6",
            "winner": "us", "reason": "checkmate", "detail": "", "plies": 40,
            "seconds": 3.0, "ended": "2026-11-24 18:00:00", "load": [1.0, 1.0, 1.0]}  # fmt: skip
    lines = [settings, {**game, "game": 1, "score": 1.0}, {**game, "game": 2, "score": 1.0}]
    record.write_text("".join(json.dumps(line) + "\n" for line in lines))
    script = str(ROOT / "benchmarks" / "chess_match.py")
    done = subprocess.run(
        [sys.executable, script, "--record", str(record), "--report"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert "+2 =0 -0 of 2" in done.stdout
    again = tmp_path / "again.jsonl"  # a second sitting of the same match: counted as one
    drawn = {**game, "game": 1, "score": 0.5, "winner": None}
    again.write_text(json.dumps({**settings, "ours": "elsewhere"}) + "\n" + json.dumps(drawn))
    both = subprocess.run(
        [sys.executable, script, "--record", str(record), "--report", "--also", str(again)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert "+2 =1 -0 of 3" in both.stdout
    other = tmp_path / "other.jsonl"  # another clock: another match
    other.write_text(json.dumps({**settings, "base": 10.0}) + "\n")
    refused = subprocess.run(
        [sys.executable, script, "--record", str(record), "--report", "--also", str(other)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode != 0 and f"--also {other}: another match's" in refused.stderr
    missing = subprocess.run(
        [sys.executable, script, "--record", str(tmp_path / "none.jsonl"), "--report"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert missing.returncode != 0 and "--report wants an existing --record" in missing.stderr
    bare = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=60)
    assert bare.returncode != 0 and "--opponent is needed" in bare.stderr


@pytest.mark.slow
def test_a_match_plays_openings_of_a_file_two_games_at_a_time(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\ne2e4 e7e5\n\nd2d4 d7d5 c2c4\n", encoding="utf-8")
    record = tmp_path / "match.jsonl"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "chess_match.py"), "--opponent", OURS,
         "--nodes", "300", "--max-plies", "8", "--games", "4", "--jobs", "2", "--openings",
         str(openings), "--record", str(record)],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert "the 2 openings of openings.txt" in done.stdout and "2 games at a time" in done.stdout
    games = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    assert sorted(g["game"] for g in games) == [1, 2, 3, 4]
    by_game = {g["game"]: g["opening"] for g in games}
    assert by_game[1] == by_game[2] == "e2e4 e7e5" and by_game[3] == "d2d4 d7d5 c2c4"
    assert json.loads(record.read_text().splitlines()[0])["openings"] == "openings.txt"
    bad = tmp_path / "bad.txt"
    bad.write_text("e2e4 e2e4\n", encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "chess_match.py"), "--opponent", OURS,
         "--openings", str(bad)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode != 0 and "line 1: not legal moves: e2e4 e2e4" in refused.stderr


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed: no review is run")
def test_the_review_evaluates_each_game_from_our_side(tmp_path: Path) -> None:
    """A won game (a fool's mate we give as Black) and a drawn one: the review's evaluations
    are from our side, so the won game stands at a mate for us, and the draw is reported."""
    pgn = tmp_path / "two.pgn"
    pgn.write_text(
        '[Round "1"]\n[White "Stockfish 15.1"]\n[Black "unbeatable"]\n[Result "0-1"]\n'
        '[Termination "checkmate"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n'
        '[Round "2"]\n[White "unbeatable"]\n[Black "Stockfish 15.1"]\n[Result "1/2-1/2"]\n'
        '[Termination "threefold repetition"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 '
        "1/2-1/2\n\n"
    )  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "chess_review.py"), str(pgn), "--depth", "6",
         "--plies", "3", "4"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    first = next(line for line in lines if line.startswith("game   1"))
    assert first.split()[1] == "1" and "3:+" in first  # after 2. g4 mate is ours to give
    assert any("drawn: 20, 10 and 0 plies before its end" in line for line in lines)
    assert any("drawn by threefold repetition: 1, of which 0" in line for line in lines)
    missing = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "chess_review.py"), str(tmp_path / "none.pgn")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert missing.returncode != 0
    said = f"chess_review: {tmp_path / 'none.pgn'}: No such file or directory"
    assert missing.stderr.splitlines() == [said]
