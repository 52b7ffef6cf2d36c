"""Start-up, cold and warm: how long a new user waits before the first answer.

Each row is one real process (the ``unbeatable`` command, or the server until its first
answers), timed whole: wall seconds, and the CPU seconds (user + system) of the process and
every process it started. *Cold* rows each run with ``NUMBA_CACHE_DIR`` pointing at an empty
folder (the first run after an install: the compiled kernels are built), *warm* rows with the
same folder once ``unbeatable warm`` has filled it (the kernels load from numba's cache). The
commands are printed, so that the next change can be compared with the same ones.

- ``analyze`` of each compiled game (Connect Four's solver; the chess engine through
  ``unbeatable warm chess``, since the chess game's own searcher is its compiled engine only once
  issue 20 lands; then ``analyze chess`` times the same kernels);
- a worker pool (``solve connect4 --workers 2``) on two easy positions: its start-up;
- ``serve``: until the health check answers, until tic-tac-toe answers, and until Connect Four
  answers (the server warms the compiled games in the background, Connect Four first), with
  the CPU of the server and its workers until then;
- with ``--batch``: the 24 hardest positions of a Pons set (by the solver's own time, single
  thread, no book, among the first ``--pool`` lines) solved by ``solve connect4 --no-book
  --threads 1`` on 1 and 2 workers, whole process, warm (issue 24, item 5: at least 1.6x on
  2 free cores).

The machine is shared: the load average is printed beside the figures; compare ratios from one
run rather than absolute times across runs.

    PYTHONPATH=src python benchmarks/startup.py [--skip-cold] [--batch | --batch-only] [--pool 300]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from connect4_solve import default_data_dir

SCRIPT = str(Path(sys.executable).with_name("unbeatable"))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: Sequence[str], env: dict[str, str], stdin: str = "") -> tuple[float, float]:
    """Wall and CPU seconds (user + system, with every process it started) of ``command``."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        list(command), input=stdin, capture_output=True, text=True, env=env, timeout=1800
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr}")
    return wall, _children_cpu() - cpu


def _get(port: int, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def serve_times(env: dict[str, str]) -> tuple[float, float, float, float]:
    """Seconds from the server's start until the health check, tic-tac-toe and Connect Four
    first answer 200, and the CPU seconds of the server and its workers until then (stopped
    at once after)."""
    from unbeatable.web.server import free_port

    port = free_port()
    command = [sys.executable, "-m", "unbeatable.web", "--port", str(port), "--workers", "2"]
    cpu = _children_cpu()
    start = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    marks: list[float] = []
    try:
        for path in (
            "/api/health",
            "/api/analyze?game=tictactoe&moves=5",
            "/api/analyze?game=connect4&moves=4453",
        ):
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"the server exited: {process.communicate()[1]}")
                try:
                    if _get(port, path) == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.02)
            marks.append(time.perf_counter() - start)
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=60)
    return marks[0], marks[1], marks[2], _children_cpu() - cpu


def hardest(count: int, pool: int, data: Path) -> list[str]:
    """The ``count`` positions of Test_L1_R2's first ``pool`` lines that the bare solver
    (single thread, no book, a cleared table) takes longest on."""
    from unbeatable.games.connect4.solver import Solver

    solver = Solver(threads=1)
    costs: list[tuple[float, str]] = []
    for line in (data / "Test_L1_R2").read_text().splitlines()[:pool]:
        moves = line.split()[0]
        solver.clear()
        start = time.process_time()
        solver.solve(moves, book=False)
        costs.append((time.process_time() - start, moves))
    return [moves for _, moves in sorted(costs, reverse=True)[:count]]


def row(label: str, command: str, wall: float, cpu: float) -> None:
    print(f"{label:<34} {wall:8.2f} {cpu:8.2f}   {command}", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--skip-cold", action="store_true", help="only the warm rows (seconds)")
    p.add_argument("--batch", action="store_true", help="also the 24 hardest on 1 and 2 workers")
    p.add_argument("--batch-only", action="store_true", help="only the 24 hardest")
    p.add_argument("--pool", type=int, default=300, help="lines the 24 hardest are chosen from")
    p.add_argument("--repeat", type=int, default=1, help="runs of each warm row (best kept)")
    args = p.parse_args(argv)

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'':<34} {'wall s':>8} {'CPU s':>8}   command (CPU: user + system, children too)")
    if args.batch_only:
        batch(args.pool, args.repeat)
        return 0
    cache = Path(tempfile.mkdtemp(prefix="unbeatable-startup-"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    easy = "32751571231557\n335662333565\n"  # Test_L1_R2 lines: milliseconds each
    rows: list[tuple[str, list[str], str]] = [
        ("analyze connect4 4453", [SCRIPT, "analyze", "connect4", "4453"], ""),
        ("chess engine (warm chess)", [SCRIPT, "warm", "chess"], ""),
        (
            "worker pool: solve --workers 2",
            [SCRIPT, "solve", "connect4", "--no-book", "--threads", "1", "--workers", "2"],
            easy,
        ),
        ("import unbeatable", [sys.executable, "-c", "import unbeatable"], ""),
        ("unbeatable --version", [SCRIPT, "--version"], ""),
    ]
    try:
        for phase in ["warm"] if args.skip_cold else ["cold", "warm"]:
            if phase == "warm":  # every kernel in the cache first (not timed)
                timed([SCRIPT, "warm"], env)
            for label, command, stdin in rows:
                if phase == "cold":
                    if label.startswith(("import", "unbeatable --")):
                        continue
                    shutil.rmtree(cache)  # each cold row from an empty cache
                    cache.mkdir()
                runs = 1 if phase == "cold" else args.repeat
                best = min(timed(command, env, stdin) for _ in range(runs))
                row(f"{phase}: {label}", " ".join(command[1:]), *best)
            if phase == "cold":
                shutil.rmtree(cache)
                cache.mkdir()
            health, tictactoe, connect4, cpu = serve_times(env)
            served = "python -m unbeatable.web --workers 2"
            row(f"{phase}: serve, health answers", served, health, float("nan"))
            row(f"{phase}: serve, tic-tac-toe answers", served, tictactoe, float("nan"))
            row(f"{phase}: serve, Connect Four answers", served, connect4, cpu)
        if args.batch:
            batch(args.pool, args.repeat)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


#: ``unbeatable`` with the parallel pool's warm-up turned off: each worker loads the solver
_COLD_WORKERS = (
    "import sys; from unbeatable.search.parallel.pool import WorkerPool; "
    "WorkerPool.prepare = lambda self, state: None; "
    "from unbeatable.__main__ import run; sys.argv[0] = 'unbeatable'; run()"
)


def batch(pool: int, repeat: int) -> None:
    positions = hardest(24, pool, default_data_dir())
    text = "".join(f"{moves}\n" for moves in positions)
    env = dict(os.environ)
    base = [SCRIPT, "solve", "connect4", "--no-book", "--threads", "1"]
    commands = {
        1: [*base, "--workers", "1"],
        2: [*base, "--workers", "2"],
        # the same, with the workers forked before the solver is loaded (each loads it: before)
        0: [sys.executable, "-c", _COLD_WORKERS, *base[1:], "--workers", "2"],
    }
    labels = {1: "24 hardest, 1 worker", 2: "24 hardest, 2 workers", 0: "24 hardest, 2, before"}
    runs: dict[int, list[tuple[float, float]]] = {key: [] for key in commands}
    for _ in range(repeat):  # interleaved, so that a change of the load hits every one
        for key, command in commands.items():
            runs[key].append(timed(command, env, text))
    results = {key: min(found) for key, found in runs.items()}
    for key, command in commands.items():
        shown = " ".join(command[1:] if key else ["(workers load it)", *base[1:], "--workers 2"])
        row(labels[key], shown + " < 24", *results[key])
    ratio: Callable[[int], float] = lambda w: results[1][0] / results[w][0]  # noqa: E731
    print(
        f"speed-up on 2 workers (wall, whole process): {ratio(2):.2f}x; "
        f"with workers loading the solver themselves: {ratio(0):.2f}x"
    )
    print(json.dumps({"positions": positions}))


if __name__ == "__main__":
    sys.exit(main())
