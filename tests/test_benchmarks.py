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


SETS = ROOT.parent / "shared" / "benchmarks" / "connect4"


@pytest.mark.slow
def test_the_connect4_benchmark_times_a_pons_binary_beside_ours(tmp_path: Path) -> None:
    # a stand-in for Pons' c4solver (never in the tests): after a start-up of 0.5 s it answers
    # each line of stdin with the line and its score as it reads it, one of them wrong, taking
    # 50 ms a line
    source = SETS / "Test_L1_R1"
    if not source.is_file():
        pytest.skip(f"Pons' sets are not at {SETS}")
    lines = source.read_text().splitlines()[:5]
    data = tmp_path / "data"
    data.mkdir()
    (data / "Test_L1_R1").write_text("".join(line + "\n" for line in lines))
    answers = {m: int(s) for m, s in (line.split() for line in lines)}
    wrong = lines[2].split()[0]
    answers[wrong] += 1
    fake = tmp_path / "c4solver"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import sys, time\n"
        f"answers = {answers!r}\n"
        "time.sleep(0.5)\n"
        "for line in sys.stdin:\n"
        "    time.sleep(0.05)\n"
        "    print(line.strip(), answers[line.strip()], flush=True)\n"
    )
    fake.chmod(0o755)
    done = subprocess.run(
        [
            sys.executable, str(ROOT / "benchmarks" / "connect4_solve.py"), "Test_L1_R1",
            "--pons", "--sample", "5", "--data", str(data), "--pons-binary", str(fake),
        ],
        capture_output=True, text=True, timeout=300, env={"PYTHONPATH": str(ROOT / "src")},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["Test_L1_R1"][1] == "5"
    pons = rows["Pons"]
    assert pons[1] == "5" and pons[6] == "1", pons  # five lines, the wrong score counted
    assert "ours / Pons" in " ".join(pons)
    # about 50 ms a line: with the start-up timed it would be 150 ms (0.5 s over 5 lines)
    assert 40 <= float(pons[2]) < 90 and pons[3] == "ms", pons


@pytest.mark.parametrize("option", ["--pons-binary", "--peer-binary"])
def test_the_connect4_benchmark_refuses_a_peer_binary_that_is_not_one(
    option: str, tmp_path: Path
) -> None:
    plain = tmp_path / "c4"
    plain.write_text("not a program\n")  # a file, but not executable
    for path in (tmp_path / "missing", plain):
        done = subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "connect4_solve.py"), option, str(path)],
            capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT / "src")},
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines()[-1].endswith(f"{option} {path}: not an executable file")
        assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.slow
def test_the_ctrl_c_sweep_sorts_its_runs() -> None:
    """Two runs of a command that outlasts its delay: each ends quietly on Ctrl-C (or, sent in
    Python's own first instants, dies of it), nothing is loud, and the counts add up."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "ctrl_c.py"),
            "--runs",
            "2",
            "--max-delay",
            "0.4",
            "--command",
            "analyze mnk:4,4,4",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.splitlines()[-1]
    counts = dict(part.split(" ") for part in last.split(", "))
    assert counts["loud"] == "0" and counts["finished"] == "0", last
    assert int(counts["quiet"]) + int(counts["python"]) == 2, last
