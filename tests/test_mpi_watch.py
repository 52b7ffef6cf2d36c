"""The watch on workers that do not report their own death (search/parallel/watch.py), and
``unbeatable mpi``'s reading of host files: no MPI needed, loopback only."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import unbeatable.search.parallel.watch as watch_module
from tests.helpers import error_line, run
from unbeatable.cli.common import UsageError
from unbeatable.cli.mpi import HostEntry, read_hostfile
from unbeatable.search.parallel.pool import Where, WorkerLostError
from unbeatable.search.parallel.watch import (
    WATCH_VARIABLE,
    Elsewhere,
    Loss,
    Watch,
    Worker,
    watch_elsewhere,
    where_am_i,
)


@pytest.fixture(autouse=True)
def _signals_and_lines() -> Iterator[None]:
    """A watch ignores SIGUSR1 (hydra's notice) in its process, and joining one opens a line:
    both are put back after each test."""
    saved = signal.getsignal(signal.SIGUSR1)
    yield
    signal.signal(signal.SIGUSR1, saved)
    watch_module._goodbye()


WORKER = textwrap.dedent(
    """
    import sys, time
    from unbeatable.search.parallel.watch import Line, announce
    host, port, token = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    for key in sys.argv[4:]:
        announce(Line((host, port), token, int(key), f"the task solving 'p{key}'"))
    print("announced", flush=True)
    time.sleep(60)
    """
)


def _worker(watch: Watch, *keys: int, token: str | None = None) -> subprocess.Popen[str]:
    """A process that names ``keys`` on the watch's line, then waits to be killed."""
    port = watch.address[1]
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, "127.0.0.1", str(port), token or watch.token,
         *map(str, keys)],
        stdout=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "announced\n"
    return process


def _end(process: subprocess.Popen[str]) -> None:
    """SIGKILL, as the kernel's OOM killer would."""
    process.send_signal(signal.SIGKILL)
    process.wait()
    if process.stdout is not None:
        process.stdout.close()


def test_a_killed_worker_is_named_with_its_last_task() -> None:
    watch = Watch()
    try:
        worker = _worker(watch, 3, 7)
        time.sleep(0.2)
        assert not watch.alarm.done()  # alive: no alarm
        _end(worker)
        loss = watch.alarm.result(timeout=10)
    finally:
        watch.close()
    assert loss.key == 7
    me = where_am_i()
    assert loss.worker == Worker(me.host, me.listed, None, worker.pid)
    assert watch.losses == [loss] and watch.first_death() == loss
    assert str(loss) == f"the worker (process {worker.pid} on host {me.host}" + (
        f", {me.listed}" if me.listed else ""
    ) + ") died in the task solving 'p7'"


def _say(watch: Watch, *lines: bytes, rank: int = 1, pid: int = 5) -> None:
    """A worker's line, by hand: its hello, then ``lines``; then it closes."""
    hello = {"token": watch.token, "host": "h", "listed": None, "rank": rank, "pid": pid}
    with socket.create_connection(("127.0.0.1", watch.address[1])) as sock:
        sock.sendall(json.dumps(hello).encode() + b"\n" + b"".join(line + b"\n" for line in lines))


def _settled(watch: Watch, count: int) -> None:
    for _ in range(100):
        if len(watch.ended) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{len(watch.ended)} lines ended, not {count}")


def test_a_line_closed_with_a_goodbye_is_no_death() -> None:
    """A process ending normally says bye; then a death after it caused nothing (hydra killing
    the rest of a job that had ended), and the first death is the one named."""
    watch = Watch()
    try:
        _say(watch, b"4 the task solving 'x'", b"-", b"bye", pid=5)
        _settled(watch, 1)
        _say(watch, b"5 the task solving 'y'", pid=6)
        assert watch.alarm.result(timeout=10) == Loss(
            Worker("h", None, 1, 6), 5, "the task solving 'y'", tasks=1
        )
        assert watch.ended[0] == Worker("h", None, 1, 5)
        assert watch.first_death() is None  # the first line to end said bye
    finally:
        watch.close()


def test_the_first_death_is_named_and_between_tasks_says_so() -> None:
    watch = Watch()
    try:
        _say(watch, b"3 the task solving 'z'", b"-", pid=7)
        _settled(watch, 1)
        _say(watch, b"4 the task solving 'w'", pid=8)
        _settled(watch, 2)
    finally:
        watch.close()
    first = watch.first_death()
    assert first == Loss(Worker("h", None, 1, 7), None, "", tasks=1)
    assert str(first) == "MPI rank 1 (process 7 on host h) died between tasks"
    assert [loss.worker.pid for loss in watch.losses] == [7, 8]


def test_a_manager_line_that_never_named_a_task_just_died() -> None:
    """The manager's own line (under unbeatable mpi) names no task: its death is just that."""
    watch = Watch()
    try:
        _say(watch, rank=0, pid=9)
        loss = watch.alarm.result(timeout=10)
    finally:
        watch.close()
    assert str(loss) == "MPI rank 0 (process 9 on host h) died"


def test_a_watch_elsewhere_is_found_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WATCH_VARIABLE, raising=False)
    assert watch_elsewhere() is None
    for bad in ("", "host", "host:port:token", "host:1:", ":1:token"):
        monkeypatch.setenv(WATCH_VARIABLE, bad)
        assert watch_elsewhere() is None, bad
    watch = Watch()
    try:
        monkeypatch.setenv(WATCH_VARIABLE, f"127.0.0.1:{watch.address[1]}:{watch.token}")
        found = watch_elsewhere()
        assert isinstance(found, Elsewhere)
        assert found.address == ("127.0.0.1", watch.address[1]) and found.token == watch.token
        assert found.line(3, "x").key == 3
        _settled(watch, 0)
        assert not found.alarm.done()  # this process never hears: the launcher ends the job
    finally:
        watch.close()


def test_strangers_are_not_heard() -> None:
    """A connection without the token, with junk, or with too long a line is closed and is
    no worker's death."""
    watch = Watch()
    try:
        _end(_worker(watch, 1, token="0" * 32))
        for junk in (b"hello\n", b"x" * 10_000, json.dumps({"token": watch.token}).encode()
                     + b"\n"):
            with socket.create_connection(("127.0.0.1", watch.address[1])) as sock:
                sock.sendall(junk)
        time.sleep(0.5)
        assert not watch.alarm.done()
        assert watch.losses == []
    finally:
        watch.close()


def test_closing_the_watch_ends_its_thread_and_port() -> None:
    watch = Watch()
    port = watch.address[1]
    watch.close()
    watch.close()  # twice is fine
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_the_lost_error_names_the_worker_and_the_task() -> None:
    worker = Worker("h1", "10.0.0.2", 3, 1234)
    where = Where("x../.../...", "", "x../.../...")
    error = where.lost(worker, idle=False)
    assert isinstance(error, WorkerLostError)
    assert error.worker == worker
    assert str(error) == (
        "MPI rank 3 (process 1234 on host h1, 10.0.0.2) died in the task solving 'x../.../...'"
    )
    assert str(where.lost(Worker("vm", None, None, 9), idle=True)) == (
        "the worker (process 9 on host vm) died between tasks, with the task solving "
        "'x../.../...'"
    )
    assert Loss(worker, None).key is None


# --- host files ---------------------------------------------------------------------------------


def test_host_files_are_read_as_mpich_reads_them(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_text("# the cluster\nnode1:4\n\n  node2   # two cores\n10.0.0.3:2\nnode-4.lan\n")
    assert read_hostfile(hosts) == [
        HostEntry("node1", 4), HostEntry("node2", 1), HostEntry("10.0.0.3", 2),
        HostEntry("node-4.lan", 1),
    ]


@pytest.mark.parametrize(
    ("text", "named"),
    [("node1:x\n", "node1:x"), ("node1:0\n", "node1:0"), ("a b\n", "a b"), ("# none\n", "no host")],
)
def test_bad_host_files_are_one_line(tmp_path: Path, text: str, named: str) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_text(text)
    with pytest.raises(UsageError, match=named):
        read_hostfile(hosts)
    code, out, err = run("mpi", str(hosts))
    assert code == 2 and out == ""
    assert named in error_line(err)


def test_a_command_needs_two_ranks(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_text("localhost\n")
    code, _, err = run("mpi", str(hosts), "--", "solve", "tictactoe")
    assert code == 2 and "2 ranks" in error_line(err)


def test_where_am_i_outside_mpi() -> None:
    me = where_am_i()
    assert me.pid == os.getpid() and me.rank is None and me.host == socket.gethostname()


def test_a_failed_start_is_said_in_the_launchers_words_first() -> None:
    """hydra's streams arrive in any order: ssh's own message beats hydra's generic ones."""
    from unbeatable.cli.mpi import _why

    hydra = "[mpiexec@vm] ui_cmd_cb (/src/pmiserv_pmci.c:51): Launch proxy failed.\n"
    proxy = (
        "[proxy:2@h2] HYDU_sock_connect (/src/sock.c:140): unable to connect from \"h2\" to "
        "\"10.0.0.1\" (Network is unreachable)\n"
    )
    ssh = "ssh: connect to host node3 port 22: No route to host\n"
    assert _why(hydra + ssh, 255) == (ssh.strip(), True)
    assert _why(hydra + proxy, 255) == (proxy.split("): ", 1)[1].strip(), False)
    assert _why(hydra, 255) == ("Launch proxy failed.", False)
    assert _why("", 7) == ("mpiexec exited with code 7", False)


def test_when_hydra_loses_the_launchers_words_the_launcher_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hydra sometimes ends with "Launch proxy failed." before it has passed ssh's message on
    (4 of 14 runs of test_mpi's host check here, quiet machine): the check then asks the
    launcher itself, as hydra runs it."""
    from unbeatable.cli.mpi import _launcher_words

    launcher = tmp_path / "launcher"
    launcher.write_text(
        "#!/bin/sh\n"
        'for arg; do case $arg in -*) ;; *) echo "ssh: Could not resolve hostname $arg" >&2;'
        " exit 255;; esac; done\n"
    )
    launcher.chmod(0o755)
    monkeypatch.setenv("HYDRA_LAUNCHER_EXEC", str(launcher))
    monkeypatch.delenv("HYDRA_LAUNCHER", raising=False)
    assert _launcher_words("nosuch.invalid", 10) == "ssh: Could not resolve hostname nosuch.invalid"
    monkeypatch.setenv("HYDRA_LAUNCHER", "fork")  # not ssh's words to ask for
    assert _launcher_words("nosuch.invalid", 10) is None
    monkeypatch.setenv("HYDRA_LAUNCHER", "ssh")
    monkeypatch.setenv("HYDRA_LAUNCHER_EXEC", "true")  # reaches the host: nothing to say
    assert _launcher_words("nosuch.invalid", 10) is None


# --- the namespaces' helper, where they cannot be made -------------------------------------------


def _hosts_module() -> Any:
    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("mpi_hosts", root / "benchmarks" / "mpi_hosts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mpi_hosts"] = module
    spec.loader.exec_module(module)
    return module


def test_hosts_that_cannot_be_made_say_why_and_leave_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ip`` refusing (no CAP_NET_ADMIN, as in a container) is a reason to skip, and what was
    made before is deleted (a fake ``ip`` records what it was asked)."""
    hosts = _hosts_module()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "ip.log"
    (bin_dir / "ip").write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> {log}\n'
        'case "$*" in "netns add ubtest-1") echo "RTNETLINK answers: Operation not permitted"'
        " >&2; exit 2;; esac\n"
    )
    (bin_dir / "ip").chmod(0o755)
    (bin_dir / "unshare").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "unshare").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(hosts, "MPIEXEC", Path(sys.executable))  # whether MPI is installed or not
    cluster = hosts.Cluster(2, tmp_path, prefix="ubtest")
    with pytest.raises(hosts.Unavailable, match="Operation not permitted"):
        cluster.start()
    asked = log.read_text().splitlines()
    assert "netns add ubtest-sw" in asked and "netns add ubtest-0" in asked
    assert asked[-2:] == ["netns delete ubtest-sw", "netns delete ubtest-0"]
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert hosts.Cluster.why_not() == "network namespaces need root"


@pytest.mark.slow
def test_settle_waits_until_every_line_is_read_to_its_end() -> None:
    watch = Watch()
    try:
        for pid in (11, 12, 13):
            _say(watch, b"1 the task solving 'v'", pid=pid)
        assert watch.settle(10)  # all three closed: read to their ends
        assert [loss.worker.pid for loss in watch.losses] == [11, 12, 13]
        worker = _worker(watch, 4)  # alive: its line stays open
        try:
            assert not watch.settle(0.3)
        finally:
            _end(worker)
        assert watch.settle(10) and watch.losses[-1].worker.pid == worker.pid
    finally:
        watch.close()


# A stand-in for mpiexec that shows the race seen on a busy machine: hydra's report of a dead
# rank is printed (and the job over) before the watch has read that rank's line to its end.
FAKE_MPIEXEC = textwrap.dedent(
    """
    import os, sys
    from unbeatable.search.parallel.watch import Line, announce
    host, port, token = os.environ["UNBEATABLE_WATCH"].rsplit(":", 2)
    announce(Line((host, int(port)), token, 5, "the task solving '4453'"))
    print("4453: win in 9", flush=True)
    for text in ("[proxy:0@h1] HYD_pmcd_pmip_control_cmd_cb: assert (!closed) failed",
                 "[mpiexec@h0] main: process manager error waiting for completion"):
        print(text, file=sys.stderr, flush=True)
    os._exit(255)  # no goodbye on the line: a rank that died
    """
)


@pytest.mark.slow
def test_a_death_is_named_even_when_hydra_reports_it_first(tmp_path: Path) -> None:
    import io

    from unbeatable.cli.common import Streams
    from unbeatable.cli.mpi import run_job

    launcher = tmp_path / "mpiexec"
    launcher.write_text(f"#!{sys.executable}\n{FAKE_MPIEXEC}")
    launcher.chmod(0o755)
    for _ in range(5):
        out, err = io.StringIO(), io.StringIO()
        code = run_job(
            str(launcher), [HostEntry("localhost", 1)], 1, ["solve", "connect4", "-"],
            Streams(out, err, io.StringIO()),
        )
        assert code == 3, err.getvalue()
        assert out.getvalue() == "4453: win in 9\n"  # the answers printed before stay
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and "[proxy:" not in lines[0], lines
        assert lines[0].startswith("unbeatable: error: ")
        assert lines[0].endswith("died in the task solving '4453'")
