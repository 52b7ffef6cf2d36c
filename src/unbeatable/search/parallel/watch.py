"""Where a worker is, and a watch on the workers of an executor that does not report a death.

A local :class:`~concurrent.futures.ProcessPoolExecutor` notices a worker process that died
(``BrokenProcessPool``). ``mpi4py.futures`` does not: MPICH, without fault tolerance, never
tells the manager that a rank has gone, and the task sent to it waits for ever. So, for such an
executor, there is a :class:`Watch`: a TCP port, and a *line* from each worker process to it,
which the worker opens with its first task (saying who it is: host, MPI rank, process id) and
on which it names every task it starts. When a worker process dies, however it dies (killed,
out of memory, a crash in native code), its host's kernel closes the line: the watch then knows
at once which worker died and which task it was running, without any help from MPI.

Who keeps the watch depends on who outlives the dead rank:

* MPICH's ``mpiexec`` (hydra) by default kills every process of the job, the manager included,
  the moment one dies. ``unbeatable mpi`` (the command that starts such jobs) keeps the watch
  then: it outlives the job, and names the dead rank and its task (environment variable
  :data:`WATCH_VARIABLE`, which the manager finds and hands on to the workers).
* Otherwise the manager keeps its own (a launcher that lets the job go on, e.g. hydra's
  ``-disable-auto-cleanup``): the search raises :class:`~.pool.WorkerLostError` naming the
  worker and the task, and the job is then ended as a whole (:func:`end_mpi_job`). With
  ``-disable-auto-cleanup`` hydra sends SIGUSR1 to every process left whenever one ends (even
  normally, in MPICH 5), whose default action would end them; the manager and the workers
  ignore it while a watch is in use.

The port listens on every interface (as MPICH's own ports do); a worker reaches it by the
address the watch gives (the manager's: the name MPICH's launcher knows its host by,
``PMI_HOSTNAME``, else the host name). Only a connection that first gives the watch's random
token is heard; any other is closed. A worker that cannot reach the port searches on unwatched
(its death would then not be seen).
"""

from __future__ import annotations

import atexit
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
import time
from dataclasses import dataclass
from typing import Any

__all__ = [
    "WATCH_VARIABLE",
    "Line",
    "Loss",
    "Watch",
    "Worker",
    "announce",
    "end_mpi_job",
    "finished",
    "join",
    "watch_elsewhere",
    "where_am_i",
]

#: ``HOST:PORT:TOKEN`` of a watch kept by the process that started the job (``unbeatable mpi``).
WATCH_VARIABLE = "UNBEATABLE_WATCH"

#: A worker keeps lines to at most this many watches (searchers) at once.
LINES = 8
#: Seconds the watch's thread waits for a line to read before it counts a round as idle.
IDLE_ROUND = 0.2
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
    """Sent with each task of a watched executor: where the worker names the task it starts
    (``key``, the manager's number for it, and ``what``, its description)."""

    address: tuple[str, int]
    token: str
    key: int
    what: str = ""


# --- the worker's side --------------------------------------------------------------------------

#: This worker process's open lines, oldest first, by (address, token).
_LINES: collections.OrderedDict[tuple[tuple[str, int], str], socket.socket] = (
    collections.OrderedDict()
)


def announce(line: Line) -> None:
    """In a worker: name the task ``line.key`` on the line to its watch (opened the first time,
    with this process's hello). Never raises: a worker that cannot reach the watch searches."""
    sock = join(line.address, line.token)
    if sock is None:
        return
    what = " ".join(line.what.split())[: LONGEST // 2]  # one line
    try:
        sock.sendall(f"{line.key} {what}\n".encode())
    except OSError:
        _LINES.pop((line.address, line.token), None)
        sock.close()


def finished(line: Line) -> None:
    """In a worker: say on the line that the task is over (the worker is between tasks)."""
    sock = _LINES.get((line.address, line.token))
    if sock is not None:
        try:
            sock.sendall(b"-\n")
        except OSError:
            _LINES.pop((line.address, line.token), None)
            sock.close()


def join(address: tuple[str, int], token: str) -> socket.socket | None:
    """This process's line to the watch at ``address`` (opened with its hello the first time;
    None when the watch cannot be reached). The line says goodbye when the process ends
    normally, so that only a death leaves it closed without one."""
    sock = _LINES.get((address, token))
    if sock is not None:
        return sock
    with contextlib.suppress(ValueError, OSError):  # ValueError: not the main thread
        # hydra's notice that another process ended: the watch reports deaths, not this one
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    try:
        sock = socket.create_connection(address, timeout=CONNECT_TIMEOUT)
        sock.settimeout(CONNECT_TIMEOUT)
        me = where_am_i()
        hello = {"token": token, "host": me.host, "listed": me.listed,
                 "rank": me.rank, "pid": me.pid}
        sock.sendall(json.dumps(hello).encode() + b"\n")
    except OSError:
        return None
    if not _LINES:
        atexit.register(_goodbye)
    _LINES[(address, token)] = sock
    while len(_LINES) > LINES:
        _old, oldest = _LINES.popitem(last=False)
        _bye(oldest)  # a line closed on purpose (its searcher long gone), not a death
    return sock


def _bye(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.sendall(b"bye\n")
    sock.close()


def _goodbye() -> None:
    """At a normal exit: say goodbye on every line."""
    while _LINES:
        _bye(_LINES.popitem()[1])


# --- the manager's side -------------------------------------------------------------------------


@dataclass(frozen=True)
class Loss:
    """A worker whose line closed without a goodbye, and the last task it named (if any: its
    key and description)."""

    worker: Worker
    key: int | None
    what: str = ""
    tasks: int = 0  #: how many tasks it had named (none: the manager's line, or a new worker)

    def __str__(self) -> str:
        if self.key is not None:
            return f"{self.worker} died in {self.what}" if self.what else f"{self.worker} died"
        return f"{self.worker} died between tasks" if self.tasks else f"{self.worker} died"


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
        #: how the lines ended, in order: a :class:`Loss`, or the :class:`Worker` that said bye
        self.ended: list[Loss | Worker] = []
        self._wake_read, self._wake = socket.socketpair()
        self._closed = False
        self._open = 0  # lines accepted and not ended yet
        self._idle = 0  # rounds of the thread that found nothing to read or accept
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="unbeatable-watch", daemon=True)
        self._thread.start()
        if threading.current_thread() is threading.main_thread():
            with contextlib.suppress(ValueError, OSError):
                if signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL:
                    signal.signal(signal.SIGUSR1, signal.SIG_IGN)

    def line(self, key: int, what: str = "") -> Line:
        return Line(self.address, self.token, key, what)

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
                ready = chooser.select(IDLE_ROUND)
                if not ready:
                    with self._changed:
                        self._idle += 1
                        self._changed.notify_all()
                for found, _ in ready:
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
        with self._changed:
            self._open += 1

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
        try:
            self._ended(reading)
        finally:
            with self._changed:
                self._open -= 1
                self._changed.notify_all()

    def _ended(self, reading: _Reading) -> None:
        if reading.worker is None:
            return
        if reading.said_bye:
            self.ended.append(reading.worker)
            return
        loss = Loss(reading.worker, reading.key, reading.what, reading.tasks)
        self.ended.append(loss)
        self.losses.append(loss)
        if not self.alarm.done():
            self.alarm.set_result(loss)

    def settle(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until the thread has accepted every line that
        reached the port and read every one to its end: True once none is open and a round
        of the thread has found nothing left to do. Once a job is over every rank's line is
        closed, but on a busy machine this thread may not have read them yet: ask this before
        :meth:`first_death`."""
        with self._changed:
            start = self._idle
            return self._changed.wait_for(
                lambda: self._idle > start and self._open == 0, timeout
            )

    def first_death(self) -> Loss | None:
        """The death that began the end of a job: the first line to end, if it ended without a
        goodbye (after a normal end, or an abort, the others are killed: no cause of theirs)."""
        first = self.ended[0] if self.ended else None
        return first if isinstance(first, Loss) else None


class _Reading:
    """One line as the watch reads it."""

    def __init__(self) -> None:
        self.buffer = b""
        self.worker: Worker | None = None
        self.key: int | None = None
        self.what = ""
        self.tasks = 0
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
            return
        if text == b"-":  # the task is over
            self.key, self.what = None, ""
            return
        number, _, what = text.partition(b" ")
        if number.isdigit():
            self.key = int(number)
            self.what = what.decode("utf-8", "replace")
            self.tasks += 1
        else:
            self.refused = True


class Elsewhere:
    """A watch kept by another process (``unbeatable mpi``): tasks name themselves on its lines;
    this process never hears of a death (its alarm never rings: the launcher ends the job)."""

    def __init__(self, address: tuple[str, int], token: str) -> None:
        self.address = address
        self.token = token
        self.alarm: cf.Future[Loss] = cf.Future()
        self.losses: list[Loss] = []
        join(address, token)  # the manager's own line: its death, too, is seen

    def line(self, key: int, what: str = "") -> Line:
        return Line(self.address, self.token, key, what)

    def close(self) -> None:
        pass


def watch_elsewhere() -> Elsewhere | None:
    """The watch named by :data:`WATCH_VARIABLE`, if set (and well formed)."""
    parts = os.environ.get(WATCH_VARIABLE, "").rsplit(":", 2)
    if len(parts) != 3 or not parts[0] or not parts[1].isdigit() or not parts[2]:
        return None
    return Elsewhere((parts[0], int(parts[1])), parts[2])


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
        _forwarded(FORWARD_SECONDS)
        mpi.COMM_WORLD.Abort(code)


#: How long :func:`end_mpi_job` waits at most for the launcher to read what this process wrote.
FORWARD_SECONDS = 2.0


def _forwarded(seconds: float) -> None:
    """Wait until the launcher's proxy has read everything this process wrote on its standard
    output and error (pipes to it: hydra's), at most ``seconds``. MPI_Abort makes the proxy
    kill every process and exit, and what it had not read yet was lost: a test starved of CPU
    saw the job end with exit code 3 and not a word on stderr, the manager's line included."""
    import array
    import fcntl
    import termios

    ends = time.monotonic() + seconds
    for fd in (1, 2):
        while True:
            unread = array.array("i", [0])
            try:
                fcntl.ioctl(fd, termios.FIONREAD, unread, True)
            except OSError:  # not a pipe (a file, a terminal): nothing waits to be read
                break
            if unread[0] <= 0 or time.monotonic() >= ends:
                break
            time.sleep(0.01)
