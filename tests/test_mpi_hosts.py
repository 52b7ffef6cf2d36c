"""MPI across hosts: three network namespaces joined by a switch stand in for three machines
(``benchmarks/mpi_hosts.py``: each has its own address, host name and loopback; MPICH's hydra
starts its proxies there through a launcher that enters them, as ssh would on a cluster).

The manager runs on h0, one worker rank on each of h1 and h2, with UCX over TCP on the hosts'
``mpi0`` interfaces only (the namespaces are one machine to UCX, which would otherwise use
shared memory): every task and every answer crosses the switch, which counts the bytes.

Skipped, with the reason, where namespaces cannot be made (not root, no ``ip``, no permission:
a container without CAP_NET_ADMIN). Traffic stays between the namespaces made here; the module's
fixture deletes them (and kills anything left in them) after the last test, also on failure,
and every test checks that its job left no process behind on any host.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from tests.helpers import communicate_rest
from unbeatable.games import get_game
from unbeatable.search import Searcher, solve

if TYPE_CHECKING:
    from mpi_hosts import Cluster  # benchmarks/ (mypy_path); loaded below at run time

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
TIMEOUT = 180  # seconds any one job may take before it is killed (they take a few)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


hosts = _load("mpi_hosts")


def _why_not() -> str | None:
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return "mpi4py is not installed (pip install 'unbeatable[mpi]')"
    why: str | None = hosts.Cluster.why_not()
    return why


pytestmark = [
    pytest.mark.skipif(_why_not() is not None, reason=f"no MPI hosts here: {_why_not()}"),
    pytest.mark.slow,  # each test is an MPI job over three namespaces: seconds
    pytest.mark.usefixtures("mpi_jobs_one_at_a_time"),
]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    made = hosts.Cluster(3, tmp_path_factory.mktemp("hosts"))
    try:
        made.start()
    except hosts.Unavailable as why:
        pytest.skip(f"network namespaces cannot be made here: {why}")
    try:
        yield made
    finally:
        made.close()


def _environment(cluster: Cluster) -> dict[str, str]:
    """MPICH's variables for the namespaces, and hydra told to launch through them."""
    return {
        **os.environ,
        **hosts.mpi_environment(),
        "HYDRA_LAUNCHER": "ssh",
        "HYDRA_LAUNCHER_EXEC": str(cluster.launcher()),
    }


def _nothing_left(cluster: Cluster) -> None:
    """No process of the job is left on any host (zombies being reaped aside)."""
    left: dict[str, list[int]] = {}
    for _ in range(20):
        left = {ns: pids for ns, pids in cluster.pids().items() if pids}
        if not left:
            return
        time.sleep(0.25)
    described = {
        ns: [Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:80] for pid in pids]
        for ns, pids in left.items()
    }
    raise AssertionError(f"processes left on the hosts: {described}")


# --- the answers across hosts ---------------------------------------------------------------

#: Connect Four positions with their published scores (Test_L1_R2 and Test_L3_R1).
C4 = [
    ("32751571231557", -3),
    ("335662333565", -2),
    ("2416615552", 4),
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
]
MNK = [("mnk:4,3,3", ""), ("mnk:4,3,3", "5"), ("tictactoe", "5"), ("mnk:4,3,3", "2,5"),
       ("tictactoe", "1,5,9")]
ANALYZE = [("mnk:4,3,3", ""), ("connect4", "32751571231557")]

JOB = textwrap.dedent(
    """
    import json, sys
    from mpi4py.futures import MPIPoolExecutor
    from unbeatable.games import get_game
    from unbeatable.search.parallel import ParallelSearcher
    from unbeatable.search.parallel.watch import where_am_i

    def main():
        batch, analyze = json.loads(sys.argv[1])
        out = {"manager": where_am_i().host}
        with MPIPoolExecutor() as executor:
            with ParallelSearcher(executor=executor, split_depth=3) as searcher:
                states = [get_game(game).parse_position(text) for game, text in batch]
                out["batch"] = list(searcher.solve_many(states))
                out["batch_on"] = sorted({(t.host, t.rank) for t in searcher.task_log})
                out["analyses"] = []
                for game, text in analyze:
                    result = searcher.search(get_game(game).parse_position(text), analyze=True)
                    out["analyses"].append({
                        "scores": {str(m): s.value for m, s in result.move_scores.items()},
                        "best": [str(m) for m in result.best_moves],
                        "on": sorted({(t.host, t.rank) for t in searcher.task_log}),
                    })
        print(json.dumps(out))

    if __name__ == "__main__":
        main()
    """
)


def test_answers_across_hosts_equal_the_serial_search(cluster: Cluster, tmp_path: Path) -> None:
    batch = [("connect4", text) for text, _ in C4] + MNK
    # the serial answers first: in a fresh checkout this compiles the Connect Four kernels into
    # numba's cache, which the ranks (the same files) then load instead of compiling at once
    states = [get_game(game).parse_position(text) for game, text in batch]
    serial_batch = [solve(state) for state in states]
    serial_analyses = [
        Searcher().search(get_game(game).parse_position(text), analyze=True)
        for game, text in ANALYZE
    ]
    script = tmp_path / "job.py"
    script.write_text(JOB)
    sent_before = cluster.traffic()[0]
    done = cluster.run(
        [1, 1, 1],
        [PYTHON, "-m", "mpi4py.futures", str(script), json.dumps([batch, ANALYZE])],
        timeout=TIMEOUT,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    crossed = cluster.traffic()[0] - sent_before

    # the batch: the published Connect Four scores, and the serial solve of every position
    assert got["batch"] == serial_batch
    assert got["batch"][: len(C4)] == [score for _, score in C4]
    # the analyses: every move's value as the serial search gives it
    for serial, analysis in zip(serial_analyses, got["analyses"], strict=True):
        assert serial.move_scores is not None
        assert analysis["scores"] == {str(m): s.value for m, s in serial.move_scores.items()}
        assert analysis["best"] == [str(m) for m in serial.best_moves]
    # where it ran: the manager on h0, tasks on the ranks of both other hosts, over the switch
    assert got["manager"] == "h0"
    assert got["batch_on"] == [["h1", 1], ["h2", 2]]
    assert all(analysis["on"] for analysis in got["analyses"])
    assert crossed > 10_000  # at least the tasks and answers (a few hundred bytes each)
    _nothing_left(cluster)


# --- faults ------------------------------------------------------------------------------------

#: m,n,k positions of a second or so each, then two of one stone (several seconds each, tens
#: at a load of 10): the batch is still running when the test kills a worker, however slowly
#: the test itself gets there (a test starved of CPU once killed it after the last answer: the
#: job ended without a word of ours, hydra's exit code 9). Those two are never answered.
SLOW = [
    "1,6", "1,16", "6,11", "2,3", "1,2,3", "6,7,10", "1,7", "2,7", "1,11", "3,6", "1", "16",
]
LOST = re.compile(
    r"unbeatable: error: MPI rank 1 \(process (\d+) on host h1, 10\.77\.0\.2\) died "
    r"(in the task solving '([^']+)'|between tasks)"
)


def _worker_ranks(cluster: Cluster, namespace: str) -> list[int]:
    """The MPI worker processes running in ``namespace``."""
    found = []
    for pid in cluster.pids()[namespace]:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"mpi4py.futures" in command:
            found.append(pid)
    return found


def test_a_rank_killed_on_the_second_host(cluster: Cluster, tmp_path: Path) -> None:
    """``unbeatable mpi`` checks the hosts and starts ``solve --mpi``; once the first answer is
    out, the worker rank on h1 is killed (SIGKILL, as the kernel's OOM killer would). The
    manager names the host, the rank, its process and the task; exit code 3; the answers
    printed before stay; nothing is left running on any host."""
    game = get_game("mnk:4,4,4")
    positions = tmp_path / "positions.txt"
    positions.write_text("\n".join(SLOW) + "\n")
    hostfile = cluster.hostfile([1, 1, 1])
    command = cluster.in_host(
        cluster.hosts[0],
        [PYTHON, "-m", "unbeatable", "mpi", str(hostfile), "--timeout", "60", "--",
         "solve", "mnk:4,4,4", str(positions)],
    )
    job = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=_environment(cluster), start_new_session=True,
    )
    killed: list[int] = []
    try:
        assert job.stdout is not None
        checked = [job.stdout.readline() for _ in range(3)]  # the three hosts are ready
        assert all(": ready " in line for line in checked), checked
        first = job.stdout.readline()  # the first answer: the job runs on all three hosts
        assert first.strip(), job.stderr.read() if job.stderr else ""
        namespace = cluster.hosts[1].namespace
        killed = _worker_ranks(cluster, namespace)
        assert len(killed) == 1, killed
        os.kill(killed[0], signal.SIGKILL)
        rest, err = communicate_rest(job, TIMEOUT)  # keeps what readline read ahead
    finally:
        if job.poll() is None:
            os.killpg(job.pid, signal.SIGKILL)
            job.communicate()
    assert job.returncode == 3, err
    errors = [line for line in err.splitlines() if line.startswith("unbeatable:")]
    assert len(errors) == 1, err
    lost = LOST.fullmatch(errors[0])
    assert lost is not None, errors[0]
    assert int(lost.group(1)) == killed[0]
    answered = [line for line in [first, *rest.splitlines()] if line.strip()]
    answered = [line.rstrip("\n") for line in answered]
    assert 1 <= len(answered) < len(SLOW)
    for text, line in zip(SLOW, answered, strict=False):  # kept, and right
        assert line == f"{text} {solve(game.parse_position(text))}"
    # the task named is one the job had not answered (or h1 was between two tasks)
    unanswered = {str(game.parse_position(text)) for text in SLOW[len(answered):]}
    assert lost.group(3) in unanswered or lost.group(2) == "between tasks"
    assert "BAD TERMINATION" not in rest + err  # hydra's report is left out
    _nothing_left(cluster)


def test_an_unreachable_host_is_one_line_and_exit_2(cluster: Cluster, tmp_path: Path) -> None:
    """A host whose network is down (its link cut: hydra's proxy there cannot connect back), a
    host the launcher cannot reach (no such host), and one that never answers (its launcher
    hangs, as ssh does on a host that drops packets): one line each, exit code 2, within the
    timeout, and nothing left running."""
    silent = tmp_path / "launcher"
    silent.write_text(
        "#!/bin/sh\n"
        "for arg; do [ \"$arg\" = silent ] && exec sleep 600; done\n"
        f"exec {cluster.launcher()} \"$@\"\n"
    )
    silent.chmod(0o755)
    hostfile = tmp_path / "hosts"
    addresses = [h.address for h in cluster.hosts]
    hostfile.write_text("\n".join([*addresses, "10.77.0.9", "silent"]) + "\n")
    env = {**_environment(cluster), "HYDRA_LAUNCHER_EXEC": str(silent)}
    command = cluster.in_host(
        cluster.hosts[0],
        [PYTHON, "-m", "unbeatable", "mpi", str(hostfile), "--timeout", "4", "--",
         "solve", "tictactoe"],
    )
    cut = ["ip", "-n", cluster.hosts[2].namespace, "link", "set", hosts.INTERFACE]
    subprocess.run([*cut, "down"], check=True, timeout=20)
    try:
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=TIMEOUT)
        spent = time.perf_counter() - start
    finally:
        subprocess.run([*cut, "up"], check=True, timeout=20)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"unbeatable: error: host {addresses[2]} cannot be reached: unable to connect from "
        f'"h2" to "{addresses[0]}" (Network is unreachable)',
        "unbeatable: error: host 10.77.0.9 cannot be reached: enter-host: 10.77.0.9: no such host",
        "unbeatable: error: host silent cannot be reached: no answer in 4 s",
    ], done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == addresses[:2]
    assert spent < TIMEOUT  # bounded by --timeout: no hang (the time itself is not asserted)
    _nothing_left(cluster)


def test_the_benchmark_compares_one_host_with_three(cluster: Cluster) -> None:
    """``benchmarks/parallel.py --hosts --quick`` (a smoke test: figures are not checked, only
    that both modes ran, answered as the serial search, and that the hosts' traffic crossed the
    switch). It makes namespaces of its own, and removes them."""
    bench = subprocess.Popen(
        [PYTHON, str(ROOT / "benchmarks" / "parallel.py"), "--hosts", "--quick"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        out, err = bench.communicate(timeout=TIMEOUT)
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.communicate()
    assert bench.returncode == 0, err
    assert "'!' would mark" in out and "!\n" not in out and "! |" not in out
    sent = re.findall(r"^(1 host|3 hosts): (\d+) tasks sent and (\d+) answers", out, re.M)
    assert [mode for mode, _, _ in sent] == ["1 host", "3 hosts"]
    assert all(int(tasks) > 0 for _, tasks, _ in sent)
    crossed = re.findall(r"through the switch: (\d+) bytes .* nothing to do: (\d+) bytes", out)
    assert len(crossed) == 2 and int(crossed[1][0]) > int(crossed[1][1]) > 0
    # its namespaces (named after its process id) are gone
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert f"ub{bench.pid % 100000}-" not in listed
