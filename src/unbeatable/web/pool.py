"""A pool of forked worker processes that run the searches, never the event loop.

* ``workers`` processes, forked when the app starts (after the server registered its games,
  so a user's own games are known to them), each running one job at a time.
* At most ``queue`` requests wait for a free worker; past that :meth:`JobPool.run` raises
  :class:`Overloaded` at once (the app answers 503 with Retry-After), never a pile-up.
* The compiled games' kernels (:mod:`unbeatable.kernels`) are loaded in the server's process
  before workers are forked from it, so that every worker has them at once: before serving
  (``warm=True``), or in the background while the pool already serves (``warm="background"``,
  the server's choice: it answers at once). Until a game's kernels are loaded,
  :meth:`JobPool.warming` names what is being built and the app answers that game with 503
  "warming up"; once they are, the idle workers are forked again (busy ones when they finish).
* A forked worker lets go at once of the sockets it inherited from the server (the listening
  one, the clients' connections), keeping only its own pipe: else a connection the server
  closed stays open in the worker, and the client's next request on it is never read.
* Each job has a time cap: past it the worker is stopped, a fresh one forked in its place, and
  :class:`TimedOut` raised. A request cancelled while its job runs (the client went away, or
  the server is stopping) stops its worker the same way.
* :meth:`JobPool.cancel_all` (safe in a signal handler) stops every worker at once;
  :meth:`JobPool.close` stops them and waits until they are gone.

A worker is stopped with SIGTERM, which it turns into KeyboardInterrupt so that a parallel
search inside it ends its own pool cleanly, then with SIGKILL after :data:`GRACE` seconds
(a compiled solver does not look at signals). Workers ignore SIGINT (Ctrl-C is the server's to
handle) and end themselves if the server dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing as mp
import os
import signal
import stat
import threading
import time
import traceback
import warnings
from collections import deque
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Literal

from .. import kernels
from ..search.parallel import init_worker
from .jobs import Job, run_job, warm_up

__all__ = ["GRACE", "JobPool", "Overloaded", "PoolClosed", "TimedOut"]

#: Seconds a stopped worker has to end by itself before it is killed.
GRACE = 1.0


class Overloaded(Exception):
    """Every worker is busy and the queue is full."""


class TimedOut(Exception):
    """A job ran past its time cap and was stopped."""


class PoolClosed(Exception):
    """The server is stopping: the job was cancelled or never started."""


class JobFailed(Exception):
    """The job raised an error in the worker: ``kind`` is ``bad`` for a ValueError (the
    library's refusal of an input; ``parameter`` names the input, ``text`` the offending text),
    else ``error``."""

    def __init__(
        self, kind: str, message: str, text: str, trace: str = "", parameter: str = "moves"
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.text = text
        self.trace = trace
        self.parameter = parameter


#: Set in a worker once it has been told to stop (SIGTERM): whatever its job then returns (a
#: search may turn the interrupt into a result of its own), the worker ends without answering.
_STOPPING = {"now": False}


def _interrupt(signum: int, frame: object) -> None:
    # one stop is enough: a second SIGTERM (the server may ask again while it shuts down)
    # must not raise again inside the worker's own ending, where it would print a traceback.
    # The handler stays installed (replacing it while signals are pending makes Python raise
    # "signal ignored due to race condition") and does nothing after the first time.
    if _STOPPING["now"]:
        return
    _STOPPING["now"] = True
    raise KeyboardInterrupt


def _drop_inherited_sockets(keep: int) -> None:
    """Let go of every socket a forked worker inherited from the server but ``keep`` (its own
    pipe to the server): the listening socket, the clients' connections, the other workers'
    pipes. A worker holding a client's connection keeps it open after the server closed it
    (an idle keep-alive connection, after 5 s), so the client never sees it end and sends its
    next request there, which nobody reads: a browser then waits forever for the files of the
    next page it loads. Each socket's descriptor is pointed at ``/dev/null`` rather than
    closed, so that the number stays taken (the server's objects copied into this process
    still name it)."""
    folder = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
    try:
        names = os.listdir(folder)
    except OSError:
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for name in names:
            fd = int(name)
            if fd <= 2 or fd in (keep, null):
                continue
            try:
                if stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.dup2(null, fd)
            except OSError:  # the folder's own descriptor, gone by now
                continue
    finally:
        os.close(null)


def _worker_main(conn: Connection) -> None:
    """A worker's loop: receive a job, run it, send back ``(status, payload)``; stopped
    quietly by SIGTERM at any point."""
    try:
        signal.signal(signal.SIGTERM, _interrupt)
        _drop_inherited_sockets(conn.fileno())
        init_worker()
        _serve(conn)
    except KeyboardInterrupt:
        pass
    finally:
        # ending: a stop that comes now (the server stops every worker as it shuts down) has
        # nothing left to interrupt; once _STOPPING is set the handler ignores it. A plain try
        # (not a context manager, whose set-up could itself be interrupted) covers the step.
        try:  # noqa: SIM105 - suppress()'s own set-up could be interrupted
            _STOPPING["now"] = True
        except KeyboardInterrupt:
            pass


def _serve(conn: Connection) -> None:
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            reply: tuple[str, Any] = ("ok", run_job(job))
        except KeyboardInterrupt:
            return
        except ValueError as error:
            text = str(getattr(error, "text", "") or "")
            parameter = str(getattr(error, "parameter", "") or "moves")
            reply = ("bad", (" ".join(str(error).split()), text, parameter))
        except Exception as error:  # reported to the client as a 500, with the trace logged
            reply = ("error", (f"{type(error).__name__}: {error}", traceback.format_exc()))
        if _STOPPING["now"]:
            return
        try:
            conn.send(reply)
        except (OSError, KeyboardInterrupt):
            return


class _Worker:
    def __init__(self, context: Any, generation: int = 0) -> None:
        self.generation = generation  # forked after this many warmings ended
        self.conn, child = mp.Pipe()
        self.process: BaseProcess = context.Process(
            target=_worker_main, args=(child,), name="unbeatable-web-worker"
        )
        self.process.start()
        child.close()
        self.ended = False

    def alive(self) -> bool:
        """Whether the process still runs. Not ``Process.is_alive``: where the server's
        children are reaped by someone else (SIGCHLD ignored), that takes a process that has
        gone for a live one. Once it has ended, its pid is never signalled again (it may
        belong to another process by then)."""
        pid = self.process.pid
        if self.ended or pid is None or self.process.exitcode is not None:
            self.ended = True
            return False
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else: gone
            done = pid
        self.ended = done == pid
        return not self.ended

    def stop(self) -> None:
        """Ask the process to end (SIGTERM); safe in a signal handler."""
        if self.process.pid is not None and not self.ended:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGTERM)

    def reap(self, grace: float = GRACE) -> None:
        """Wait for the process to end, killing it after ``grace`` seconds."""
        self.stop()
        for seconds, kill in ((grace, False), (5.0, True)):
            if kill and self.alive() and self.process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.process.pid, signal.SIGKILL)
            deadline = time.monotonic() + seconds
            while self.alive() and time.monotonic() < deadline:
                time.sleep(0.01)
        self.conn.close()


class JobPool:
    """The web app's jobs (:class:`~.jobs.Job`) run in ``workers`` forked processes, each
    within its time cap, with a waiting line of at most ``queue`` requests. Not the parallel
    search's pool of workers (:class:`unbeatable.search.parallel.pool.WorkerPool`): this one
    runs whole requests, one at a time per process."""

    def __init__(self, workers: int, queue: int) -> None:
        if workers < 1 or queue < 0:
            raise ValueError(f"a pool needs workers >= 1 and queue >= 0, not {workers}, {queue}")
        self.size = workers
        self.queue = queue
        self._context = mp.get_context("fork")
        self._idle: deque[_Worker] = deque()
        self._all: set[_Worker] = set()
        self._dying: set[_Worker] = set()  # stopped, being reaped
        self._waiters: deque[asyncio.Future[_Worker]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._generation = 0
        self._warming: dict[str, tuple[kernels.KernelGroup, float]] = {}
        self.closed = False
        self.started = False

    # --- figures --------------------------------------------------------------------------

    @property
    def busy(self) -> int:
        return len(self._all) - len(self._idle)

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def pids(self) -> list[int]:
        return sorted(w.process.pid for w in self._all if w.process.pid is not None)

    # --- life -----------------------------------------------------------------------------

    def start(self, warm: bool | Literal["background"] = True) -> None:
        """Fork the workers (in the event loop's thread, before serving). ``warm=True``: first
        load the compiled Connect Four solver in this process, so that every worker forked
        from it has it at once (instead of each loading it on its first Connect Four
        request). ``"background"``: fork them now and load every compiled game's kernels in a
        thread (:meth:`warming` says which are not ready yet), then fork them again."""
        self._loop = asyncio.get_running_loop()
        if warm is True:
            warm_up()
        for _ in range(self.size):
            self._add()
        self.started = True
        if warm == "background":
            now = time.monotonic()
            self._warming = {name: (g, now) for name, g in kernels.groups().items()}
            threading.Thread(target=self._warm, name="unbeatable-web-warm", daemon=True).start()

    def warming(self, game: str) -> tuple[str, float] | None:
        """None when ``game`` (a spec: ``connect4``, ``mnk:4,4,4``) can be searched now; else
        what is being built for it and about how many seconds are left."""
        found = self._warming.get(game.split(":", 1)[0].strip().lower())
        if found is None:
            return None
        group, since = found
        return group.title, max(1.0, group.estimate() - (time.monotonic() - since))

    def _warm(self) -> None:
        """Load every compiled game's kernels, the quickest first (the warming thread); after
        each game, hand over to the loop (:meth:`_warmed`) and wait while it forks the
        workers again: a fork in the middle of a build would copy numba's lock held."""
        order = sorted(self._warming.items(), key=lambda item: item[1][0].seconds)
        for name, _ in order:
            try:
                kernels.warm(name)
            except Exception:  # the game's workers load it themselves on their first request
                logging.getLogger("unbeatable.web").exception("loading %s failed", name)
            forked = threading.Event()
            loop = self._loop
            if loop is None or loop.is_closed():
                return
            try:
                loop.call_soon_threadsafe(self._warmed, name, forked)
            except RuntimeError:  # the loop has closed
                return
            while not forked.wait(0.5):
                if self.closed or loop.is_closed():
                    return

    def _warmed(self, name: str, forked: threading.Event) -> None:
        """``name``'s kernels are loaded in this process: fork every idle worker again from it
        (a busy one is forked again when its job ends), then answer that game."""
        try:
            self._generation += 1
            for worker in list(self._idle):
                self._idle.remove(worker)
                self._replace(worker)
            self._warming.pop(name, None)
        finally:
            forked.set()

    def _add(self) -> None:
        worker = _Worker(self._context, self._generation)
        self._all.add(worker)
        self._give(worker)

    def _give(self, worker: _Worker) -> None:
        if worker.generation < self._generation and not self.closed:
            self._replace(worker)  # forked before the kernels were loaded
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def cancel_all(self) -> None:
        """Stop every worker now and refuse new jobs. Safe in a signal handler: it only sends
        signals and schedules the waiters' wake-up on the loop."""
        self.closed = True
        for worker in list(self._all):
            worker.stop()
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._fail_waiters)
                self._loop.call_soon_threadsafe(self._loop.call_later, GRACE, self._kill_all)

    def _kill_all(self) -> None:
        """SIGKILL to every worker still running :data:`GRACE` seconds after
        :meth:`cancel_all`, so that no request waits on one (a worker in a compiled search
        does not see SIGTERM until the search returns)."""
        for worker in list(self._all | self._dying):
            if worker.alive() and worker.process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.process.pid, signal.SIGKILL)

    def _fail_waiters(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(PoolClosed())

    def close(self) -> None:
        """Stop every worker and wait until each has ended."""
        self.closed = True
        self._fail_waiters()
        workers, self._all = list(self._all | self._dying), set()
        self._idle.clear()
        for worker in workers:
            worker.stop()
        deadline = time.monotonic() + GRACE
        for worker in workers:
            worker.reap(max(0.0, deadline - time.monotonic()))

    # --- jobs -----------------------------------------------------------------------------

    async def run(self, job: Job, timeout: float) -> Any:
        """Run ``job`` in a worker within ``timeout`` seconds; its result.

        Raises :class:`Overloaded` at once when every worker is busy and ``queue`` requests
        already wait, :class:`TimedOut` past the cap (time spent waiting counts),
        :class:`JobFailed` for an error in the job, :class:`PoolClosed` when stopping.
        """
        if self.closed or not self.started:
            raise PoolClosed()
        start = time.monotonic()
        while self._idle and not self._idle[0].alive():
            self._replace(self._idle.popleft())  # ended by someone else while idle
        if self._idle:
            worker = self._idle.popleft()
        elif len(self._waiters) >= self.queue:
            raise Overloaded()
        else:
            waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                worker = await asyncio.wait_for(asyncio.shield(waiter), timeout)
            except BaseException:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
                if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                    self._give(waiter.result())  # handed a worker just as we gave up
                if self.closed:
                    raise PoolClosed() from None
                raise TimedOut() from None
        return await self._call(worker, job, timeout - (time.monotonic() - start))

    async def _call(self, worker: _Worker, job: Job, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        healthy = False
        try:
            worker.conn.send(job)
            await asyncio.wait_for(ready, max(timeout, 0.001))
            status, payload = worker.conn.recv()
            healthy = True
        except asyncio.TimeoutError:
            raise TimedOut() from None
        except (EOFError, OSError):
            if self.closed:
                raise PoolClosed() from None
            code = worker.process.exitcode
            raise JobFailed("error", f"the worker process died (exit code {code})", "") from None
        finally:
            loop.remove_reader(fd)
            if healthy and not self.closed:
                self._give(worker)
            else:
                self._replace(worker)
        if status == "ok":
            return payload
        if status == "bad":
            raise JobFailed("bad", payload[0], payload[1], parameter=payload[2])
        raise JobFailed("error", payload[0], "", payload[1])

    def _replace(self, worker: _Worker) -> None:
        """Stop a worker whose job was abandoned, and fork a fresh one in its place."""
        self._all.discard(worker)
        worker.stop()
        self._dying.add(worker)
        with contextlib.suppress(RuntimeError):  # the loop is shutting down: close() reaps it
            asyncio.get_running_loop().run_in_executor(None, self._reap, worker)
        if not self.closed:
            self._add()

    def _reap(self, worker: _Worker) -> None:
        worker.reap()
        self._dying.discard(worker)


def __getattr__(name: str) -> type[JobPool]:
    """``WorkerPool``, the old name of :class:`JobPool`, with a DeprecationWarning."""
    if name == "WorkerPool":
        warnings.warn(
            "unbeatable.web.pool.WorkerPool is deprecated: it is the web's pool of jobs, now "
            "JobPool (the parallel search's is unbeatable.search.parallel.pool.WorkerPool)",
            DeprecationWarning,
            stacklevel=2,
        )
        return JobPool
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
