"""Where a worker is, and a watch on the workers of an executor that does not report a death.

A local :class:`~concurrent.futures.ProcessPoolExecutor` notices a worker process that died
(``BrokenProcessPool``). ``mpi4py.futures`` does not: MPICH, without fault tolerance, never
tells the manager that a rank has gone, and the task sent to it waits for ever. So, for such an
executor, the manager keeps a :class:`Watch`: a TCP port on the manager's host, and a *line*
from each worker process to it, which the worker opens with its first task (saying who it is:
host, MPI rank, process id) and on which it names every task it starts. When a worker process
dies, however it dies (killed, out of memory, a crash in native code), its host's kernel closes
the line: the manager then knows at once which worker died and which task it was running,
without any help from MPI, and the search raises :class:`~.pool.WorkerLostError` naming them.

The port listens on every interface of the manager's host (as MPICH's own ports do); a worker
reaches it by the name MPICH's launcher knows the manager's host by (``PMI_HOSTNAME``, the
host file's name for it), else the host name. Only a connection that first gives the watch's
random token is heard; any other is closed. A worker that cannot reach the port searches on
unwatched (its death would then not be seen).

With MPICH's ``mpiexec -disable-auto-cleanup`` (without it, MPICH kills every process of the
job, the manager included, the moment one dies, and prints its own report), MPICH sends SIGUSR1
to every surviving process when one dies; its default action would end them. The manager and
the workers therefore ignore it while a watch is in use: the manager reports the death, and the
job is then ended as a whole (:func:`end_mpi_job`).
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import json
import os
import secrets
import selectors
import signal
import socket
import sys
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["Line", "Loss", "Watch", "Worker", "announce", "end_mpi_job", "where_am_i"]

#: A worker keeps lines to at most this many watches (searchers) at once.
LINES = 8
#: Seconds a worker tries to reach a watch before it searches on unwatched.
CONNECT_TIMEOUT = 5.0
#: The longest line a watch reads (a hello is about a hundred bytes).
LONGEST = 4096


@dataclass(frozen=True)
class Worker:
    """A worker process: its host name, the host's name in the launcher's host file (when
    that differs), its MPI rank (None outside MPI) and its process id."""

    host: str
    listed: str | None
    rank: int | None
    pid: int

    def __str__(self) -> str:
        place = f"process {self.pid} on host {self.host}" + (
            f", {self.listed}" if self.listed else ""
        )
        if self.rank is None:
            return f"the worker ({place})"
        return f"MPI rank {self.rank} ({place})"


def where_am_i() -> Worker:
    """This process as a :class:`Worker` (its MPI rank if mpi4py has initialized MPI)."""
    host = socket.gethostname()
    listed = os.environ.get("PMI_HOSTNAME")
    rank = None
    mpi: Any = sys.modules.get("mpi4py.MPI")
    if mpi is not None:
        with contextlib.suppress(Exception):
            if mpi.Is_initialized() and not mpi.Is_finalized():
                rank = int(mpi.COMM_WORLD.Get_rank())
    return Worker(host, listed if listed and listed != host else None, rank, os.getpid())


@dataclass(frozen=True)
class Line:
    """Sent with each task of a watched executor: where the worker names the task it starts."""

    address: tuple[str, int]
    token: str
    key: int


# --- the worker's side --------------------------------------------------------------------------

#: This worker process's open lines, oldest first, by (address, token).
_LINES: collections.OrderedDict[tuple[tuple[str, int], str], socket.socket] = (
    collections.OrderedDict()
)


def announce(line: Line) -> None:
    """In a worker: name the task ``line.key`` on the line to its watch (opened the first time,
    with this process's hello). Never raises: a worker that cannot reach the watch searches."""
    where = (line.address, line.token)
    sock = _LINES.get(where)
    if sock is None:
        sock = _open(line)
        if sock is None:
            return
    try:
        sock.sendall(b"%d\n" % line.key)
    except OSError:
        _LINES.pop(where, None)
        sock.close()


def _open(line: Line) -> socket.socket | None:
    with contextlib.suppress(ValueError, OSError):  # ValueError: not the main thread
        # MPICH's notice that another process died: the manager reports it, not this worker
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    try:
        sock = socket.create_connection(line.address, timeout=CONNECT_TIMEOUT)
        sock.settimeout(CONNECT_TIMEOUT)
        me = where_am_i()
        hello = {"token": line.token, "host": me.host, "listed": me.listed,
                 "rank": me.rank, "pid": me.pid}
        sock.sendall(json.dumps(hello).encode() + b"\n")
    except OSError:
        return None
    _LINES[(line.address, line.token)] = sock
    while len(_LINES) > LINES:
        _old, oldest = _LINES.popitem(last=False)
        with contextlib.suppress(OSError):
            oldest.sendall(b"bye\n")  # a searcher's line closed on purpose, not a death
        oldest.close()
    return sock


# --- the manager's side -------------------------------------------------------------------------


@dataclass(frozen=True)
class Loss:
    """A worker whose line closed without a goodbye, and the last task it named (if any)."""

    worker: Worker
    key: int | None


class Watch:
    """The manager's port and a thread that reads the workers' lines (see the module).

    ``alarm`` is a future that completes (with the first :class:`Loss`) when a worker dies;
    wait on it beside the tasks' futures. :meth:`close` ends the thread and the port.
    """

    def __init__(self, host: str | None = None) -> None:
        self.token = secrets.token_hex(16)
        if socket.has_dualstack_ipv6():
            server = socket.create_server(("", 0), family=socket.AF_INET6, dualstack_ipv6=True)
        else:
            server = socket.create_server(("", 0))
        self._server = server
        name = host or os.environ.get("PMI_HOSTNAME") or socket.gethostname()
        self.address = (name, server.getsockname()[1])
        self.alarm: cf.Future[Loss] = cf.Future()
        self.losses: list[Loss] = []
        self._wake_read, self._wake = socket.socketpair()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="unbeatable-watch", daemon=True)
        self._thread.start()
        if threading.current_thread() is threading.main_thread():
            with contextlib.suppress(ValueError, OSError):
                if signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL:
                    signal.signal(signal.SIGUSR1, signal.SIG_IGN)

    def line(self, key: int) -> Line:
        return Line(self.address, self.token, key)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._wake.send(b"x")
        self._thread.join(5)
        self._wake.close()

    def _run(self) -> None:
        chooser = selectors.DefaultSelector()
        chooser.register(self._server, selectors.EVENT_READ, None)
        chooser.register(self._wake_read, selectors.EVENT_READ, None)
        lines: dict[socket.socket, _Reading] = {}
        try:
            while not self._closed:
                for found, _ in chooser.select(1.0):
                    sock = found.fileobj
                    if sock is self._wake_read:
                        return
                    if sock is self._server:
                        self._accept(chooser, lines)
                    else:
                        assert isinstance(sock, socket.socket)
                        self._read(chooser, lines, sock)
        finally:
            for sock in [*lines, self._server, self._wake_read]:
                with contextlib.suppress(Exception):
                    chooser.unregister(sock)
                sock.close()
            chooser.close()

    def _accept(
        self, chooser: selectors.BaseSelector, lines: dict[socket.socket, _Reading]
    ) -> None:
        try:
            sock, _peer = self._server.accept()
        except OSError:
            return
        sock.setblocking(False)
        lines[sock] = _Reading()
        chooser.register(sock, selectors.EVENT_READ, None)

    def _read(
        self, chooser: selectors.BaseSelector, lines: dict[socket.socket, _Reading],
        sock: socket.socket,
    ) -> None:
        reading = lines[sock]
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        ended = not data
        reading.buffer += data
        while b"\n" in reading.buffer and not reading.refused:
            text, _, reading.buffer = reading.buffer.partition(b"\n")
            reading.take(text, self.token)
        if len(reading.buffer) > LONGEST or reading.refused:
            ended, reading.said_bye = True, reading.said_bye or reading.refused
        if not ended:
            return
        chooser.unregister(sock)
        del lines[sock]
        sock.close()
        if reading.worker is not None and not reading.said_bye:
            loss = Loss(reading.worker, reading.key)
            self.losses.append(loss)
            if not self.alarm.done():
                self.alarm.set_result(loss)


class _Reading:
    """One line as the watch reads it."""

    def __init__(self) -> None:
        self.buffer = b""
        self.worker: Worker | None = None
        self.key: int | None = None
        self.said_bye = False
        self.refused = False

    def take(self, text: bytes, token: str) -> None:
        if self.worker is None:
            try:
                hello = json.loads(text)
                if not secrets.compare_digest(str(hello["token"]), token):
                    raise ValueError("not this watch's token")
                rank = hello["rank"]
                self.worker = Worker(
                    str(hello["host"]),
                    None if hello["listed"] is None else str(hello["listed"]),
                    None if rank is None else int(rank),
                    int(hello["pid"]),
                )
            except (ValueError, KeyError, TypeError):
                self.refused = True
            return
        if text == b"bye":
            self.said_bye = True
        elif text.isdigit():
            self.key = int(text)
        else:
            self.refused = True


def end_mpi_job(code: int) -> None:
    """End the whole MPI job now with exit code ``code`` (every rank, on every host), if this
    process is an MPI one; else return. After a worker died, MPI cannot shut down in order
    (the manager would wait for ever for the dead rank), so this is how the job ends."""
    mpi: Any = sys.modules.get("mpi4py.MPI")
    if mpi is None:
        return
    try:
        running = mpi.Is_initialized() and not mpi.Is_finalized()
    except Exception:
        return
    if running:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        mpi.COMM_WORLD.Abort(code)
