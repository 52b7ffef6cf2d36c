"""A real MPI job: ``mpiexec -n 3 python -m mpi4py.futures`` (one manager, two workers), on this
machine; a rank killed in it; ``unbeatable mpi``'s check and run."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers import communicate_rest
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
    pytest.mark.usefixtures("mpi_jobs_one_at_a_time"),
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


# --- faults on one host (tests/test_mpi_hosts.py: across hosts) -------------------------------

#: m,n,k positions of a second or so each, then two of one stone (several seconds each, tens
#: at a load of 10): the batch is still running when the test kills a worker, however slowly
#: the test itself gets there (a test starved of CPU once killed it after the last answer: the
#: job ended without a word of ours, hydra's exit code 9). Those two are never answered.
SLOW = ["1,6", "1,16", "6,11", "2,3", "1,2,3", "6,7,10", "1,7", "2,7", "1", "16"]


#: The first line of hydra's report of a process killed by a signal (on standard output).
HYDRA_REPORT = "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)"


def _rank_of(pid: int) -> int | None:
    """The MPI rank of process ``pid`` (hydra puts it in the environment), if it is one."""
    try:
        environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    if b"mpi4py.futures" not in command:
        return None
    for item in environment:
        if item.startswith(b"PMI_RANK="):
            return int(item.split(b"=", 1)[1])
    return None


def _children(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == parent:
                found.append(int(entry.name))
                todo.append(int(entry.name))
    return found


def _kill_rank_one(
    directory: Path,
) -> tuple[int, str, str, str, list[int], list[int]]:
    """One job of the SLOW positions with rank 1 killed once it has answered: the job's exit
    code, its first line, the rest of its stdout, its stderr, the killed pid and the family."""
    directory.mkdir()
    (directory / "positions.txt").write_text("\n".join(SLOW) + "\n")
    command = [
        str(MPIEXEC), "-disable-auto-cleanup", "-n", "3", sys.executable, "-m", "mpi4py.futures",
        "-m", "unbeatable", "solve", "mnk:4,4,4", "--mpi", "positions.txt",
    ]
    job = subprocess.Popen(
        command, cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    try:
        assert job.stdout is not None
        first = job.stdout.readline()
        assert first.strip()
        family = _children(job.pid)
        victims = [pid for pid in family if _rank_of(pid) == 1]
        assert len(victims) == 1, family
        os.kill(victims[0], signal.SIGKILL)
        rest, err = communicate_rest(job, TIMEOUT)  # keeps what readline read ahead
    finally:
        if job.poll() is None:
            os.killpg(job.pid, signal.SIGKILL)
            job.communicate()
    return job.returncode, first, rest, err, victims, family


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
def test_a_killed_rank_is_named_and_the_job_ends(tmp_path: Path) -> None:
    """With -disable-auto-cleanup the manager outlives a dead worker rank: it names the rank,
    its process and host, and the task; the answers printed before stay; the job ends by
    MPI_Abort and nothing is left. Its exit code is hydra's: the abort's 3, or 9 (the killed
    rank's signal) when hydra's proxy hears that death first (seen at a load of 11: 2 of 12
    runs). (``unbeatable mpi``, which starts such jobs, says 3 either way: test_mpi_hosts.)

    hydra itself at times ends before it has passed our line on, with nothing on stderr at all
    (stop 29: 1 run in 18 at load 2-11; a clean-clone run on 2026-11-28): a job that ends so is
    run again, at most three times in all; our line missing from a stderr that says anything
    else fails at once."""
    game = get_game("mnk:4,4,4")
    everyone: list[int] = []  # the processes of every try: none may be left
    for attempt in range(3):
        returncode, first, rest, err, victims, family = _kill_rank_one(tmp_path / f"try{attempt}")
        everyone += family
        if err.strip():
            break
    assert returncode in (3, 9), err
    errors = [line for line in err.splitlines() if line.startswith("unbeatable:")]
    assert len(errors) == 1, err
    assert errors[0].startswith(
        f"unbeatable: error: MPI rank 1 (process {victims[0]} on host {socket.gethostname()}"
    ), errors[0]
    assert re.search(r"\) died (in|between tasks, with) the task solving '[^']+'$", errors[0])
    lines = [first.rstrip("\n"), *rest.splitlines()]
    if returncode == 9:  # hydra's own report of the killed rank follows the answers
        lines = lines[: lines.index(HYDRA_REPORT)]
    answered = [line for line in lines if line]
    assert 1 <= len(answered) < len(SLOW)
    for text, line in zip(SLOW, answered, strict=False):
        assert line == f"{text} {solve(game.parse_position(text))}"
    assert not [pid for pid in everyone if Path(f"/proc/{pid}").exists() and not _zombie(pid)]


def test_the_rest_of_a_job_keeps_what_readline_read_ahead() -> None:
    """The killed-rank tests read the first answer with readline and the rest when the job
    ends: two answers written in one chunk must both be seen (``communicate`` reads the pipe's
    descriptor and lost the second, buffered by readline: an answer seemed skipped)."""
    job = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdout.write('1,6 0\\n1,16 0\\n'); "
         "sys.stdout.flush(); sys.stderr.write('done\\n')"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert job.stdout is not None
    assert job.stdout.readline() == "1,6 0\n"
    rest, err = communicate_rest(job, 30)
    assert (rest, err, job.returncode) == ("1,16 0\n", "done\n", 0)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def test_unbeatable_mpi_checks_the_hosts_then_runs(tmp_path: Path) -> None:
    """``unbeatable mpi``: a host file of this machine passes the check and the job runs; a
    host the launcher cannot reach, and one whose launcher never returns (ssh to a host that
    drops packets), are one line each and exit code 2, within --timeout."""
    launcher = tmp_path / "launcher"
    launcher.write_text(
        "#!/bin/sh\n"
        'for arg; do [ "$arg" = silent ] && exec sleep 600; done\n'
        'for arg; do case $arg in -*) ;; *) echo "ssh: Could not resolve hostname $arg" >&2;'
        " exit 255;; esac; done\n"
    )
    launcher.chmod(0o755)
    environment = {**os.environ, "HYDRA_LAUNCHER": "ssh", "HYDRA_LAUNCHER_EXEC": str(launcher)}
    (tmp_path / "positions.txt").write_text("5\n2,5\n1,12,7\n3\n")
    (tmp_path / "hosts").write_text("localhost:3  # this machine\n")
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable", "mpi", "hosts", "--", "solve", "mnk:4,3,3",
         "positions.txt"],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT, env=environment,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("localhost: ready (host name ")
    game = get_game("mnk:4,3,3")
    positions = ("5", "2,5", "1,12,7", "3")
    assert lines[1:] == [f"{p} {solve(game.parse_position(p))}" for p in positions]

    (tmp_path / "hosts").write_text("localhost\nnosuchhost.invalid:2\nsilent\n")
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable", "mpi", "hosts", "--timeout", "3"],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT, env=environment,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "unbeatable: error: host nosuchhost.invalid cannot be reached: ssh: Could not resolve "
        "hostname nosuchhost.invalid",
        "unbeatable: error: host silent cannot be reached: no answer in 3 s",
    ]
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["localhost"]
