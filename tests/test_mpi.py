"""A real MPI job: ``mpiexec -n 3 python -m mpi4py.futures`` (one manager, two workers)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unbeatable.games import get_game
from unbeatable.search import Limits, Searcher, solve

MPIEXEC = Path(sys.executable).parent / "mpiexec"
TIMEOUT = 120


def _mpi_ready() -> str | None:
    """Why MPI cannot run here, or None."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return "mpi4py is not installed (pip install 'unbeatable[mpi]')"
    if not MPIEXEC.exists():
        return f"no mpiexec next to {sys.executable} (the mpich wheel provides one)"
    return None


pytestmark = [
    pytest.mark.skipif(_mpi_ready() is not None, reason=str(_mpi_ready())),
    pytest.mark.slow,  # MPI jobs: separate processes, seconds each
]

JOB = textwrap.dedent(
    """
    import json, os
    from mpi4py.futures import MPIPoolExecutor
    from unbeatable.game import Outcome, State
    from unbeatable.games import get_game
    from unbeatable.search import Limits, Searcher
    from unbeatable.search.parallel import ParallelSearcher


    class Race(State):
        # A user's game, defined in the job script: count to 21 adding 1 to 3; reaching 21 wins.

        __slots__ = ("total", "turn")

        def __init__(self, total=0, turn=0):
            self.total, self.turn = total, turn

        @property
        def to_move(self):
            return self.turn

        def legal_moves(self):
            return [n for n in (1, 2, 3) if self.total + n <= 21] if self.total < 21 else []

        def play(self, move):
            return Race(self.total + move, 1 - self.turn)

        def outcome(self):
            return Outcome.win_for(1 - self.turn) if self.total == 21 else None

        def __eq__(self, other):
            return isinstance(other, Race) and (self.total, self.turn) == (other.total, other.turn)

        def __hash__(self):
            return hash((self.total, self.turn))


    def main():
        cases = [("mnk:4,3,3", "", None), ("tictactoe", "5", None), ("mnk:5,5,4", "13", 4)]
        out = []
        with MPIPoolExecutor() as executor:
            with ParallelSearcher(executor=executor, split_depth=3) as searcher:
                for start in (0, 2, 7):
                    got = searcher.search(Race(start))
                    serial = Searcher().search(Race(start))
                    assert got.score == serial.score, start
                    assert got.best_moves == serial.best_moves, start
                    assert {task.worker for task in searcher.task_log} - {os.getpid()}
            for spec, text, depth in cases:
                state = get_game(spec).parse_position(text)
                with ParallelSearcher(executor=executor, split_depth=3) as searcher:
                    result = searcher.search(state, Limits(depth=depth))
                    workers = sorted({task.worker for task in searcher.task_log})
                out.append({
                    "workers": searcher.workers,
                    "pids": workers,
                    "manager": os.getpid(),
                    "score": result.score.value,
                    "exact": result.exact,
                    "move": result.move,
                    "best": list(result.best_moves),
                })
        print(json.dumps(out))


    if __name__ == "__main__":
        main()
    """
)


def _mpiexec(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    command = [str(MPIEXEC), "-n", "3", sys.executable, "-m", "mpi4py.futures", *args]
    return subprocess.run(
        command, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=TIMEOUT
    )


def test_mpi_job_matches_serial(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(JOB)
    done = _mpiexec(str(script), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.strip().splitlines()[-1])
    cases = [("mnk:4,3,3", "", None), ("tictactoe", "5", None), ("mnk:5,5,4", "13", 4)]
    for (spec, text, depth), got in zip(cases, results, strict=True):
        serial = Searcher().search(get_game(spec).parse_position(text), Limits(depth=depth))
        assert got["workers"] == 2
        assert got["manager"] not in got["pids"]  # the work ran on the worker ranks
        assert got["score"] == serial.score.value
        assert got["exact"] == serial.exact
        assert got["move"] in serial.best_moves
        assert got["best"] == list(serial.best_moves)


def test_mpi_command_line(tmp_path: Path) -> None:
    game = get_game("mnk:4,3,3")
    lines = ["", "5", "2,5", "1,12,7"]
    (tmp_path / "positions.txt").write_text("\n".join(f"{line} " for line in lines[1:]) + "\n")
    done = _mpiexec(
        "-m", "unbeatable", "solve", "mnk:4,3,3", "--mpi", "positions.txt", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    expected = [f"{line} {solve(game.parse_position(line))}" for line in lines[1:]]
    assert done.stdout.split("\n")[:-1] == expected
