"""Several MPI "hosts" on one Linux machine: network namespaces joined by a bridge.

Used by ``tests/test_mpi_hosts.py`` and ``benchmarks/parallel.py --hosts``. Needs root (or
CAP_NET_ADMIN and CAP_SYS_ADMIN), ``ip`` (iproute2) and ``unshare`` (util-linux);
:class:`Unavailable` says why when namespaces cannot be made here.

The layout, for ``Cluster(3)``: a switch and three hosts, each in a namespace of its own::

    namespace <prefix>-sw: bridge "mpi0" (no address: a switch)
        |-- veth <prefix>-p0 === "mpi0" in namespace <prefix>-0 (host h0, 10.77.0.1)
        |-- veth <prefix>-p1 === "mpi0" in namespace <prefix>-1 (host h1, 10.77.0.2)
        `-- veth <prefix>-p2 === "mpi0" in namespace <prefix>-2 (host h2, 10.77.0.3)

Every host's interface is called ``mpi0``, so one ``UCX_NET_DEVICES=mpi0`` serves all, as one
``eth1`` would on a real cluster. Nothing is made in the machine's own namespace (a veth is
created there and moved at once): the hosts reach each other and nothing else, and each one's
loopback is its own. The namespaces share the file system, so every host has the same checkout
and virtual environment, as a cluster with a shared home would.

MPICH's hydra starts a proxy on each host through its ``ssh`` launcher; ``-launcher-exec``
points it at :meth:`Cluster.launcher`, a script that takes ssh's place: it enters the host's
namespace (``ip netns exec``) with a host name of its own (``unshare --uts``, then Python's
``socket.sethostname``)
and runs the command there. ``mpiexec`` itself runs in host 0's namespace (:meth:`command`).

:meth:`Cluster.close` (also on failure, and from ``with``) kills every process still in the
namespaces and deletes them (which deletes their interfaces and the bridge).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["INTERFACE", "Cluster", "Host", "Unavailable", "mpi_environment"]

#: The name of every host's network interface (the switch's bridge has it too).
INTERFACE = "mpi0"
SUBNET = "10.77.0"
MPIEXEC = Path(sys.executable).parent / "mpiexec"
#: ``NAMED + [name, *command]``: run ``command`` under the host name ``name`` (in a UTS namespace
#: of its own; no ``hostname`` program needed).
NAMED = [
    sys.executable,
    "-c",
    "import os, socket, sys; socket.sethostname(sys.argv[1]); os.execvp(sys.argv[2], sys.argv[2:])",
]


class Unavailable(Exception):
    """Namespaces cannot be made here (the reason is the message)."""


@dataclass(frozen=True)
class Host:
    name: str  #: its host name inside its namespace (h0, h1, ...)
    namespace: str
    address: str
    index: int


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if done.returncode != 0:
        raise Unavailable(f"'ip {' '.join(args)}' failed: {done.stderr.strip() or done.returncode}")


def mpi_environment(*, network: bool = True) -> dict[str, str]:
    """The environment for MPICH over these hosts: UCX on the ``mpi0`` interfaces only, and
    (``network``) TCP even between ranks of one machine, because the namespaces are one machine
    to UCX, which would otherwise meet them in shared memory."""
    env = {"UCX_NET_DEVICES": INTERFACE, "HYDRA_IFACE": INTERFACE}
    if network:
        env["UCX_TLS"] = "tcp,self"
    return env


class Cluster:
    """``count`` hosts in namespaces; a context manager (made on entry, torn down on exit)."""

    def __init__(self, count: int, directory: Path, *, prefix: str | None = None) -> None:
        if not 1 <= count <= 200:
            raise ValueError(f"count must be 1 to 200, not {count}")
        self.prefix = prefix or f"ub{os.getpid() % 100000}"
        self.directory = directory
        self.hosts = [
            Host(f"h{i}", f"{self.prefix}-{i}", f"{SUBNET}.{i + 1}", i) for i in range(count)
        ]
        self._namespaces: list[str] = []
        self._root_links: list[str] = []  # veths made in the machine's namespace, until moved

    # --- making and tearing down -----------------------------------------------------------

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def why_not() -> str | None:
        """Why namespaces surely cannot be made here (None: try)."""
        if not sys.platform.startswith("linux"):
            return "network namespaces are Linux only"
        if os.geteuid() != 0:
            return "network namespaces need root"
        for tool in ("ip", "unshare"):
            if shutil.which(tool) is None:
                return f"no '{tool}' command"
        if not MPIEXEC.exists():
            return f"no mpiexec next to {sys.executable} (pip install 'unbeatable[mpi]')"
        return None

    def start(self) -> None:
        """Make the namespaces, the bridge and the links; :class:`Unavailable` (everything made
        so far deleted) when it cannot."""
        why = self.why_not()
        if why:
            raise Unavailable(why)
        try:
            self._make()
        except BaseException:
            self.close()
            raise

    def _make(self) -> None:
        switch = f"{self.prefix}-sw"
        for namespace in (switch, *(host.namespace for host in self.hosts)):
            _ip("netns", "add", namespace)
            self._namespaces.append(namespace)
            _ip("-n", namespace, "link", "set", "lo", "up")
        _ip("-n", switch, "link", "add", INTERFACE, "type", "bridge")
        _ip("-n", switch, "link", "set", INTERFACE, "up")
        for host in self.hosts:
            port, end = f"{self.prefix}-p{host.index}", f"{self.prefix}-e{host.index}"
            self._root_links.append(port)
            _ip("link", "add", port, "type", "veth", "peer", "name", end)
            _ip("link", "set", end, "netns", host.namespace)
            _ip("link", "set", port, "netns", switch)
            self._root_links.remove(port)
            _ip("-n", switch, "link", "set", port, "master", INTERFACE)
            _ip("-n", switch, "link", "set", port, "up")
            _ip("-n", host.namespace, "link", "set", end, "name", INTERFACE)
            _ip("-n", host.namespace, "addr", "add", f"{host.address}/24", "dev", INTERFACE)
            _ip("-n", host.namespace, "link", "set", INTERFACE, "up")

    def close(self) -> None:
        """Kill every process left in the namespaces, then delete them (and any veth still in
        the machine's namespace). Safe to call twice."""
        for _ in range(3):
            pids = [pid for group in self.pids().values() for pid in group]
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.2)
        for namespace in self._namespaces:
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, timeout=20)
        self._namespaces = []
        for link in self._root_links:
            subprocess.run(["ip", "link", "delete", link], capture_output=True, timeout=20)
        self._root_links = []

    # --- looking in ------------------------------------------------------------------------

    def pids(self) -> dict[str, list[int]]:
        """The processes in each namespace this cluster made (zombies left out)."""
        found: dict[str, list[int]] = {}
        for namespace in self._namespaces:
            done = subprocess.run(
                ["ip", "netns", "pids", namespace], capture_output=True, text=True, timeout=20
            )
            pids = [int(word) for word in done.stdout.split()]
            found[namespace] = [pid for pid in pids if not _zombie(pid)]
        return found

    def traffic(self) -> tuple[int, int]:
        """Bytes and packets all hosts have sent on their ``mpi0`` so far: everything that
        crossed the switch."""
        total_bytes = total_packets = 0
        base = Path("/sys/class/net") / INTERFACE / "statistics"
        for host in self.hosts:
            done = subprocess.run(
                ["ip", "netns", "exec", host.namespace, "cat",
                 str(base / "tx_bytes"), str(base / "tx_packets")],
                capture_output=True, text=True, timeout=20,
            )
            words = done.stdout.split()
            if len(words) == 2:
                total_bytes += int(words[0])
                total_packets += int(words[1])
        return total_bytes, total_packets

    # --- running MPI -------------------------------------------------------------------------

    def launcher(self) -> Path:
        """The script hydra runs in ssh's place: ``launcher [-options] HOST COMMAND...``."""
        path = self.directory / "enter-host"
        table = {h.address: (h.namespace, h.name) for h in self.hosts}
        table.update({h.name: (h.namespace, h.name) for h in self.hosts})
        path.write_text(
            f"#!{sys.executable}\n"
            + textwrap.dedent(
                f'''
                """hydra's ssh launcher, for the namespaces of one machine."""
                import os, sys
                HOSTS = {table!r}
                args = sys.argv[1:]
                while args and args[0].startswith("-"):  # ssh's options: hydra passes -x
                    args.pop(0)
                if not args or args[0] not in HOSTS:
                    host = args[0] if args else "(none)"
                    sys.stderr.write(f"enter-host: {{host}}: no such host\\n")
                    sys.exit(255)
                namespace, name = HOSTS[args[0]]
                command = " ".join(args[1:])  # as ssh does: one line for the remote shell
                os.execvp("ip", ["ip", "netns", "exec", namespace, "unshare", "--uts",
                                 *{NAMED!r}, name, "sh", "-c", command])
                '''
            )
        )
        path.chmod(0o755)
        return path

    def hostfile(self, ranks: Sequence[int], name: str = "hosts") -> Path:
        """An MPICH host file: ``ranks[i]`` processes on host i (hosts with 0 left out)."""
        lines = [f"{h.address}:{n}" for h, n in zip(self.hosts, ranks, strict=False) if n > 0]
        path = self.directory / name
        path.write_text("\n".join(lines) + "\n")
        return path

    def in_host(self, host: Host, command: Sequence[str]) -> list[str]:
        """``command`` run in ``host``'s namespace, under its host name."""
        return [
            "ip", "netns", "exec", host.namespace, "unshare", "--uts", *NAMED, host.name,
            *command,
        ]

    def command(
        self,
        ranks: Sequence[int],
        program: Sequence[str],
        *,
        hostfile: Path | None = None,
        keep_going: bool = False,
    ) -> list[str]:
        """``mpiexec`` in host 0 starting ``program`` with ``ranks[i]`` processes on host i,
        hydra's ssh launcher through :meth:`launcher`. ``keep_going``: hydra's
        ``-disable-auto-cleanup`` (a rank that dies leaves the others running; see
        docs/parallel.md for what else it does)."""
        hosts = hostfile or self.hostfile(ranks)
        mpiexec = [
            str(MPIEXEC), "-f", str(hosts), "-launcher", "ssh",
            "-launcher-exec", str(self.launcher()),
            *(["-disable-auto-cleanup"] if keep_going else []),
            "-n", str(sum(ranks)), *program,
        ]
        return self.in_host(self.hosts[0], mpiexec)

    def run(
        self,
        ranks: Sequence[int],
        program: Sequence[str],
        *,
        timeout: float,
        env: Mapping[str, str] | None = None,
        hostfile: Path | None = None,
        cwd: Path | None = None,
        network: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        """Run :meth:`command` to its end, or kill it (its whole process group, and whatever is
        left in the namespaces) after ``timeout`` seconds and raise ``TimeoutExpired``.
        ``network``: see :func:`mpi_environment`."""
        command = self.command(ranks, program, hostfile=hostfile)
        environment = {
            key: value for key, value in os.environ.items() if not key.startswith("UCX_")
        }
        environment.update({**mpi_environment(network=network), **(env or {})})
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=environment, cwd=cwd, start_new_session=True,
        )
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            for pid in [pid for group in self.pids().values() for pid in group]:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            process.communicate()
            raise
        return subprocess.CompletedProcess(command, process.returncode, out, err)


def _zombie(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return True  # gone
    return fields[0] == "Z"
