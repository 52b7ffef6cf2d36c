"""``unbeatable mpi HOSTFILE [-- COMMAND ...]``: check that an MPI job can start on every host
of an MPICH host file, then run a command (``solve`` or ``analyze``, with ``--mpi``) over them.

The check starts, for every host, a two-rank MPICH job on the file's first host (where the
manager will run) and that host, exactly as the real job will start (the launcher, the proxy's
connection back, MPI's own start-up between the two), running a probe there that reports the
host's Python, ``unbeatable``, mpi4py and MPI library, and whether the Connect Four kernels are
in numba's cache. A host that does not answer within ``--timeout`` seconds, or whose start
fails, is one line (``error: host NAME cannot be reached: WHY``) and exit code 2; the job is
not started.

The run is ``mpiexec -hosts HOSTS -n RANKS python -m mpi4py.futures -m unbeatable COMMAND``
(HOSTS: the file's, as ``NAME:COUNT,...``, since hydra refuses a comment after a host), under a
watch kept by this process (:mod:`unbeatable.search.parallel.watch`): every rank has a line to
it and names there the task it runs. When a rank dies, hydra ends the whole job at once (every
rank on every host); this process, which outlives it, then prints which rank died, on which
host, in which task (``error: MPI rank 2 (process 4242 on host node2) died in the task solving
'...'``), leaves out hydra's own report, and exits with code 3. The answers printed before stay.

MPICH's own environment variables apply (the launcher: ``HYDRA_LAUNCHER``,
``HYDRA_LAUNCHER_EXEC``; the interface: ``HYDRA_IFACE``, ``UCX_NET_DEVICES``, ...): see
docs/parallel.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from .. import __version__
from ..messages import cut
from ..search.parallel.watch import WATCH_VARIABLE, Watch
from . import common
from .common import Streams, UsageError

#: Probes of hosts at once.
PROBES = 16
#: The commands that search on MPI ranks with --mpi.
PARALLEL_COMMANDS = ("solve", "analyze")

PROBE = r"""
import importlib, json, platform
from mpi4py import MPI
import mpi4py, unbeatable
from unbeatable.search.parallel.watch import where_am_i
world = MPI.COMM_WORLD
if world.Get_rank() == world.Get_size() - 1:  # the host probed (one line: ranks' output mixes)
    me = where_am_i()
    try:
        cache = importlib.import_module("unbeatable.games.connect4._cache")
        folder = cache.PACKAGE / "__pycache__"
        digest = cache.kernel_digest(cache.PACKAGE)
        warm = (folder / cache.STAMP).read_text() == digest and any(folder.glob("*.nbi"))
    except Exception:
        warm = False
    library = " ".join(MPI.Get_library_version().splitlines()[0].split())
    print(json.dumps({"rank": me.rank, "host": me.host, "unbeatable": unbeatable.__version__,
                      "python": platform.python_version(), "mpi4py": mpi4py.__version__,
                      "mpi": library, "kernels": warm}), flush=True)
world.Barrier()
"""


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "mpi",
        help="check that an MPI job can start on every host of a host file; then run a command",
        description=(
            "Check that an MPI job can start on every host of an MPICH host file (NAME or "
            "NAME:COUNT per line; # starts a comment): each host is started beside the first "
            "one, as the job will be, and reports its versions. An unreachable host is one "
            "line and exit code 2. With a command after '--', run it over the hosts: "
            "mpiexec -hosts HOSTS -n RANKS python -m mpi4py.futures -m unbeatable COMMAND "
            "(--mpi is added to solve and analyze); a rank that dies is named (its host, "
            "process and task) and the exit code is 3."
        ),
        epilog="Example: unbeatable mpi hosts -- solve connect4 positions.txt",
        usage="%(prog)s [-h] [--timeout SECONDS] [-n N] hostfile [-- COMMAND ...]",
    )
    p.add_argument("hostfile", type=Path, help="the MPICH host file")
    p.add_argument(
        "--timeout",
        type=_timeout,
        default=20.0,
        metavar="SECONDS",
        help="how long to wait for each host (default 20)",
    )
    p.add_argument(
        "-n",
        "--ranks",
        type=common.positive_int,
        metavar="N",
        help="MPI processes of the job, the manager included (default: the host file's count)",
    )
    p.set_defaults(handler=run, forward=[])


def _timeout(text: str) -> float:
    return common.seconds(text, lambda s: 0 < s <= 3600, "more than 0 and at most 3600")


@dataclass(frozen=True)
class HostEntry:
    name: str
    count: int


_ENTRY = re.compile(r"([A-Za-z0-9_.\-]+)(?::(\d+))?")


def read_hostfile(path: Path) -> list[HostEntry]:
    """The hosts of an MPICH host file, in order; :class:`UsageError` naming a bad line."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UsageError(f"cannot read the host file {str(path)!r}: {why}") from None
    hosts: list[HostEntry] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _ENTRY.fullmatch(line)
        if match is None or (match.group(2) is not None and int(match.group(2)) < 1):
            raise UsageError(
                f"line {number} of the host file {str(path)!r}: expected NAME or NAME:COUNT, "
                f"got {cut(raw)!r}"
            )
        hosts.append(HostEntry(match.group(1), int(match.group(2) or 1)))
    if not hosts:
        raise UsageError(f"the host file {str(path)!r} names no host")
    return hosts


def mpiexec() -> str:
    """MPICH's mpiexec: the one beside this Python (the mpich wheel's), else on the PATH."""
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.exists():
        return str(beside)
    found = shutil.which("mpiexec")
    if found is None:
        raise UsageError("no mpiexec: pip install 'unbeatable[mpi]'")
    return found


@dataclass(frozen=True)
class Probe:
    host: str
    info: dict[str, object] | None  # what the host reported
    problem: str  # why it could not be reached ("" when it answered)


def probe(launcher: str, first: str, host: str, timeout: float) -> Probe:
    """Start a job on ``first`` and ``host`` (one rank each; one rank when they are the same)
    running :data:`PROBE`; its report, or why it failed. Never longer than ``timeout``."""
    hosts = [first] if host == first else [first, host]
    command = [
        launcher, "-hosts", ",".join(hosts), "-n", str(len(hosts)), sys.executable, "-c", PROBE,
    ]
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, start_new_session=True,
        )
    except OSError as error:
        return Probe(host, None, f"cannot start {launcher}: {error.strerror or error}")
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        return Probe(host, None, f"no answer in {timeout:g} s")
    reports = []
    for line in out.splitlines():
        with contextlib.suppress(ValueError):
            report = json.loads(line)
            if isinstance(report, dict):
                reports.append(report)
    mine = [r for r in reports if r.get("rank") == len(hosts) - 1]
    if process.returncode == 0 and mine:
        return Probe(host, mine[0], "")
    why, said = _why(err, process.returncode)
    if not said:  # hydra gave up before passing the launcher's words on (a race of its own)
        why = _launcher_words(host, timeout) or why
    return Probe(host, None, why)


def _launcher_words(host: str, timeout: float) -> str | None:
    """Why ssh, as hydra runs it (``HYDRA_LAUNCHER``, ``HYDRA_LAUNCHER_EXEC``), cannot reach
    ``host``: its first line, asked directly; None for another launcher, or when it says
    nothing or reaches the host."""
    if os.environ.get("HYDRA_LAUNCHER", "ssh") != "ssh":
        return None
    program = os.environ.get("HYDRA_LAUNCHER_EXEC") or "ssh"
    try:
        done = subprocess.run(
            [program, "-x", "-oBatchMode=yes", host, "true"], stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    return cut(lines[0], 300) if done.returncode != 0 and lines else None


def _kill(process: subprocess.Popen[str]) -> None:
    """End ``process`` and everything it started: its session, and the processes hydra put in
    sessions of their own (a launcher still trying to reach a host)."""
    family = _descendants(process.pid)
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)
    for pid in family:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    process.communicate()


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Linux: from /proc; elsewhere none)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


#: hydra's prefix on its messages: ``[proxy:1@node2] FUNCTION (file.c:140): ``
_HYDRA = re.compile(r"^\[[^\]]*\]\s+\S+\s+\([^)]*\):\s*")


def _why(stderr: str, code: int) -> tuple[str, bool]:
    """The telling line of a failed start: the launcher's own words (ssh's) first, then a
    proxy's, then mpiexec's (hydra's location prefix taken off); the streams arrive in any
    order. With it, whether the launcher's words were among them."""
    launcher: list[str] = []
    proxy: list[str] = []
    main: list[str] = []
    for line in stderr.splitlines():
        text = _HYDRA.sub("", line).strip()
        if not text or text.startswith("="):
            continue
        group = proxy if line.startswith("[proxy:") else main if line.startswith("[") else launcher
        group.append(text)
    for group in (launcher, proxy, main):
        if group:
            return cut(group[0], 300), group is launcher
    return f"mpiexec exited with code {code}", False


def _describe(found: Probe) -> str:
    info = found.info or {}
    host = str(info.get("host", found.host))
    kernels = (
        "Connect Four kernels cached"
        if info.get("kernels")
        else "Connect Four kernels NOT cached (run 'python -m unbeatable.games.connect4' there)"
    )
    return (
        f"{found.host}: ready (host name {host}; unbeatable {info.get('unbeatable')}, "
        f"Python {info.get('python')}, mpi4py {info.get('mpi4py')}, {info.get('mpi')}; "
        f"{kernels})"
    )


def run(args: argparse.Namespace, streams: Streams) -> int:
    hosts = read_hostfile(args.hostfile)
    command = list(args.forward)
    if command and command[0] in PARALLEL_COMMANDS and "--mpi" not in command:
        command.append("--mpi")
    ranks = args.ranks if args.ranks is not None else sum(h.count for h in hosts)
    if command and ranks < 2:
        raise UsageError(f"an MPI search needs 2 ranks or more (a manager, a worker), not {ranks}")
    launcher = mpiexec()
    names = list(dict.fromkeys(h.name for h in hosts))
    with ThreadPoolExecutor(min(PROBES, len(names))) as pool:
        found = list(
            pool.map(lambda name: probe(launcher, names[0], name, args.timeout), names)
        )
    failed = 0
    for one in found:
        if one.problem:
            failed += 1
            streams.error(f"error: host {one.host} cannot be reached: {one.problem}")
            continue
        streams.out.write(_describe(one) + "\n")
        version = one.info.get("unbeatable") if one.info else None
        if version != __version__:
            failed += 1
            streams.error(
                f"error: host {one.host} has unbeatable {version}, this one {__version__}"
            )
    streams.out.flush()
    if failed:
        return common.USAGE
    if not command:
        return common.OK
    return run_job(launcher, hosts, ranks, command, streams)


def run_job(
    launcher: str, hosts: list[HostEntry], ranks: int, command: list[str], streams: Streams
) -> int:
    """Run ``command`` over the hosts under a watch of this process (which outlives the job):
    a rank that dies is named here, after hydra has ended the job; its own report is left out."""
    watch = Watch(host=_address_toward([h.name for h in hosts]))
    host, port = watch.address
    environment = {**os.environ, WATCH_VARIABLE: f"{host}:{port}:{watch.token}"}
    listed = ",".join(f"{h.name}:{h.count}" for h in hosts)
    job = [
        launcher, "-hosts", listed, "-n", str(ranks),
        sys.executable, "-m", "mpi4py.futures", "-m", "unbeatable", *command,
    ]
    try:
        try:
            process = subprocess.Popen(
                job, env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as error:
            raise UsageError(f"cannot start {launcher}: {error.strerror or error}") from None
        assert process.stdout is not None and process.stderr is not None
        held: dict[IO[str], list[str]] = {streams.out: [], streams.err: []}
        copies = [
            threading.Thread(target=_copy, args=(process.stdout, streams.out, held), daemon=True),
            threading.Thread(target=_copy, args=(process.stderr, streams.err, held), daemon=True),
        ]
        for copy in copies:
            copy.start()
        try:
            code = process.wait()
        except KeyboardInterrupt:  # mpiexec had Ctrl-C too (the same terminal): let it end
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            raise
        finally:
            for copy in copies:
                copy.join(10)
            process.stdout.close()
            process.stderr.close()
        death = None
        if code != 0:
            watch.settle(SETTLE)  # every rank's line read, so that a death is known
            death = watch.first_death()
        for to, lines in held.items():  # hydra's report, left out once a death is named
            for text in lines:
                if death is None or not _HYDRA_REPORT.match(text):
                    _write(to, text)
    finally:
        watch.close()
    if death is not None:
        streams.error(f"error: {death}")
        return common.WORKER_DIED
    return code


#: hydra's report of a dead process and its clean-up, left out once the watch has named it
_HYDRA_REPORT = re.compile(
    r"^(\s*$|=+$|=   |\[proxy:|\[mpiexec@|YOUR APPLICATION TERMINATED|This typically refers|"
    r"Please see the FAQ)"
)


#: the first line of hydra's report of a dead process: from it on, a stream is held back until
#: the job has ended and the watch has said whether a rank died
_HYDRA_BEGINS = re.compile(
    r"^(=+$|\[proxy:|\[mpiexec@|YOUR APPLICATION TERMINATED|This typically refers|"
    r"Please see the FAQ)"
)

#: how long the watch may take, once the job has ended, to read its ranks' lines to the end
SETTLE = 10.0


def _copy(source: IO[bytes], to: IO[str], held: dict[IO[str], list[str]]) -> None:
    """Copy the job's output line by line as it comes, until hydra's report begins: the rest
    is held in ``held[to]`` (printed after the job, without the report if a rank died). On a
    busy machine hydra may report before the watch has read the dead rank's line."""
    holding = False
    for raw in iter(source.readline, b""):
        text = raw.decode("utf-8", "replace")
        holding = holding or bool(_HYDRA_BEGINS.match(text))
        if holding:
            held[to].append(text)
        else:
            _write(to, text)


def _write(to: IO[str], text: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        to.write(text)
        to.flush()


def _address_toward(hosts: list[str]) -> str:
    """This machine's address on the way to the hosts (the first that is not this machine;
    loopback when all are): where the ranks reach the watch. Asks the routing table only (a
    UDP socket connected sends nothing)."""
    for host in hosts:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
                probe_socket.connect((host, 9))
                address = str(probe_socket.getsockname()[0])
        except OSError:
            continue
        if not address.startswith("127."):
            return address
    return "127.0.0.1"
