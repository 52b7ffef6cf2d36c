"""The chess core's benchmark scripts run (smoke tests: figures are checked, never times)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
        env=env,
    )
    return done.stdout


@pytest.mark.slow
def test_perft_divide_prints_each_root_move_and_the_total() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    out = _run("chess_perft.py", "--fen", fen, "--depth", "3", "--divide")
    assert "e1g1: " in out and "Nodes searched: 97862" in out


@pytest.mark.slow
def test_the_bench_signature_is_printed() -> None:
    out = _run("chess_nps.py", "--bench", "3")
    assert "bench depth 3: " in out and " nodes, " in out


@pytest.mark.slow
def test_perft_against_python_chess_checks_the_counts() -> None:
    pytest.importorskip("chess", reason="python-chess is not installed")
    out = _run("chess_perft.py", "--peer", "python-chess", "--max-depth", "3")
    assert "all positions: ours" in out and "counts differ" not in out
    assert "    3  start            8,902 " in out  # the published count at depth 3


@pytest.mark.slow
def test_the_wac_driver_runs_alone() -> None:
    pytest.importorskip("chess", reason="python-chess is not installed")
    suite = ROOT.parent / "shared" / "benchmarks" / "chess" / "wac.epd"
    if not suite.exists():
        pytest.skip(f"the Win at Chess suite is not beside the repository: {suite}")
    out = _run("chess_core_wac.py", "--alone", "--limit", "3", "--seconds", "0.05")
    assert "core        solved" in out
