"""The benchmark scripts run (a smoke test: one repeat; figures are checked, never times)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_tictactoe_benchmark_runs_and_reports_every_algorithm() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "tictactoe.py"), "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    out = done.stdout
    for name in ("minimax (max/min)", "negamax", "alpha-beta + table + symmetry + hints"):
        assert name in out
    assert "549,946" in out and "    392" in out


def test_the_connect4_search_benchmark_runs() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "connect4_search.py"),
            "--depths",
            "3",
            "--positions",
            "4453",
            "--no-peers",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "unbeatable alpha-beta+table" in done.stdout


@pytest.mark.slow
def test_the_chance_benchmark_runs_and_the_algorithms_agree() -> None:
    """Star1 and Star2 against expectiminimax (the script asserts that the three agree on
    every value and move); node counts are exact, so the saving is checked too."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "chance.py"), "--depths", "2",
         "--positions", "2", "--trees", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    out = done.stdout
    assert "bear-off race" in out and "regular trees" in out and "399 positions" in out
    line = next(x for x in out.splitlines() if x.startswith("depth 2, 2 positions"))
    star2_saved = float(line.split()[-1].rstrip("%"))
    assert star2_saved > 50
