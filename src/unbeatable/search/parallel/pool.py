"""The one task pool every parallel scheduling loop uses.

:class:`WorkerPool` is the executor's life: made on first use (local processes) or given
(e.g. MPI), closed, or aborted on Ctrl-C. :class:`Tasks` is one search's traffic with it:
submit a task, wait for any to finish, turn a broken pool or a raising task into our errors
(naming the task), cancel what is no longer wanted.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os
import time
import traceback
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from ...game import State
from .watch import Elsewhere, Loss, Watch, Worker, watch_elsewhere
from .worker import Report, Task, TaskFailed, init_worker, run_task

__all__ = ["Done", "ParallelSearchError", "Tasks", "Where", "WorkerLostError", "WorkerPool"]

T = TypeVar("T")


class ParallelSearchError(RuntimeError):
    """A task failed in a worker: ``root`` (the searched position), ``moves`` (from the root
    to the task's position), ``position`` (the task's) and ``detail`` (the worker's
    traceback)."""

    def __init__(self, message: str, *, root: str, moves: str, position: str, detail: str) -> None:
        super().__init__(message)
        self.root = root
        self.moves = moves
        self.position = position
        self.detail = detail


class WorkerLostError(ParallelSearchError):
    """A worker process died (killed, out of memory) while the search needed it; ``worker``
    says which (its host, MPI rank and process id) when it is known (an executor watched by
    :class:`~.watch.Watch`, e.g. MPI), else None."""

    def __init__(
        self, message: str, *, root: str, moves: str, position: str, detail: str,
        worker: Worker | None = None,
    ) -> None:
        super().__init__(message, root=root, moves=moves, position=position, detail=detail)
        self.worker = worker


@dataclass(frozen=True)
class Where:
    """Where a task was in the search, to name it in an error."""

    root: str
    moves: str
    position: str

    def error(self, kind: type[ParallelSearchError], what: str, detail: str) -> ParallelSearchError:
        return kind(
            f"{what} in {self.place()}", root=self.root, moves=self.moves,
            position=self.position, detail=detail,
        )

    def place(self) -> str:
        if self.moves or self.root != self.position:
            return f"the task searching {self.position!r} (moves {self.moves} from {self.root!r})"
        return f"the task solving {self.position!r}"

    def lost(self, worker: Worker, idle: bool) -> WorkerLostError:
        """The error for ``worker``, dead in this task (``idle``: dead between tasks, this
        one among those it leaves waiting)."""
        what = f"{worker} died " + ("between tasks, with" if idle else "in")
        return WorkerLostError(
            f"{what} {self.place()}", root=self.root, moves=self.moves,
            position=self.position, detail="", worker=worker,
        )


class WorkerPool:
    """The executor: ``workers`` local processes made on first use, or one given."""

    def __init__(
        self, workers: int | None, executor: cf.Executor | None, own_executor: bool
    ) -> None:
        self._executor = executor
        self._own = executor is None or own_executor
        self._given = executor is not None  # the caller's executor: never replaced by a pool
        self._workers = workers
        self._watch: Watch | Elsewhere | None = None

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        if self._workers is None:
            self._workers = os.cpu_count() or 1
            for name in ("num_workers", "_max_workers"):
                count = getattr(self._executor, name, None)
                if isinstance(count, int) and count >= 1:
                    self._workers = count
                    break
        return self._workers

    def prepare(self, state: State) -> None:
        """Before this pool forks its own workers: load what searching ``state``'s game needs
        in this process (:meth:`~unbeatable.game.State.warm_up`, a compiled solver's
        kernels), so that every worker forked from it starts with it and a batch on N
        workers pays the loading once, not N times."""
        if self._executor is None and not self._given:
            state.warm_up()

    def executor(self) -> cf.Executor:
        """The executor, made now if this pool makes its own."""
        if self._executor is None:
            if self._given:
                raise RuntimeError("the executor given to this searcher has been shut down")
            self._executor = cf.ProcessPoolExecutor(
                self.workers, initializer=init_worker, initargs=(os.getpid(),)
            )
        return self._executor

    def watch(self) -> Watch | Elsewhere | None:
        """The watch on the workers, for an executor that does not report a worker's death
        (``mpi4py.futures``: see :mod:`.watch`): the one of the process that started the job
        (``unbeatable mpi``), else one of this process's, made on first use. None for others."""
        if self._watch is None and _unwatched(self._executor):
            self._watch = watch_elsewhere() or Watch()
        return self._watch

    def close(self) -> None:
        """Shut the executor down if this pool owns it (a later search makes a new one)."""
        self._close_watch()  # first: workers ending with the executor are no deaths
        if self._executor is not None and self._own:
            executor, self._executor = self._executor, None
            executor.shutdown(wait=True, cancel_futures=True)

    def _close_watch(self) -> None:
        if self._watch is not None:
            watch, self._watch = self._watch, None
            watch.close()

    def abort(self) -> None:
        """Stop every worker now: cancel what has not started and end the processes we own."""
        self._close_watch()
        executor = self._executor
        if executor is None or not self._own:
            return
        self._executor = None
        processes = dict(getattr(executor, "_processes", None) or {})
        # Tasks still queued for the workers sit in a pipe that no one will read once they are
        # ended: do not let the interpreter wait at exit for the thread that feeds it.
        call_queue = getattr(executor, "_call_queue", None)
        if call_queue is not None:
            call_queue.cancel_join_thread()
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():
            if process.is_alive():
                process.terminate()
        for process in processes.values():
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)

    def __repr__(self) -> str:
        return f"workers={self._workers} executor={self._executor!r}"


def _unwatched(executor: cf.Executor | None) -> bool:
    """Whether ``executor`` lets a task wait for ever on a worker that died (MPI's)."""
    return executor is not None and type(executor).__module__.startswith("mpi4py.")


@dataclass(frozen=True)
class Done(Generic[T]):
    """A finished task: its tag, the task, when it was sent, its report; ``stray`` when it
    was no longer wanted (its figures still count)."""

    tag: T | None
    task: Task | None
    sent: float
    report: Report
    stray: bool = False


class Tasks(Generic[T]):
    """One search's tasks in a :class:`WorkerPool`, each with a tag of the caller's."""

    def __init__(self, pool: WorkerPool, where: Callable[[T, Task], Where]) -> None:
        self.pool = pool
        self.where = where
        self.pending: dict[cf.Future[Report], tuple[T, Task, float]] = {}
        self.stray: set[cf.Future[Report]] = set()  # out, but no longer wanted
        self.keys: dict[int, cf.Future[Report]] = {}  # a watched pool's tasks out, by key
        self._key_of: dict[cf.Future[Report], int] = {}
        self._next_key = itertools.count()
        self._alarmed = False  # a watched worker died: the next wait raises

    def __len__(self) -> int:
        return len(self.pending)

    def submit(self, task: Task, tag: T) -> None:
        self.pool.prepare(task.state)
        try:
            executor = self.pool.executor()
            watch = self.pool.watch()
            if watch is None:
                future = executor.submit(run_task, task)
            else:
                key = next(self._next_key)
                line = watch.line(key, self.where(tag, task).place())
                future = executor.submit(run_task, task, line)
                self.keys[key] = future
                self._key_of[future] = key
        except BrokenProcessPool as err:  # a worker died since the last task was sent
            raise self.where(tag, task).error(
                WorkerLostError, "a worker process died", repr(err)
            ) from None
        self.pending[future] = (tag, task, time.perf_counter())

    def wait(self, timeout: float | None = None) -> list[Done[T]]:
        """The tasks that finished once any has (none if ``timeout`` passed first).

        A watched pool's dead worker raises :class:`WorkerLostError`, after one more call that
        returns the tasks already finished when the death was seen (their results are kept)."""
        watch = self.pool.watch()
        alarm: list[cf.Future[Any]] = [watch.alarm] if watch is not None else []
        if alarm and alarm[0].done():
            if self._alarmed:
                raise self._lost(alarm[0].result())
            self._alarmed, timeout = True, 0
        waiting: list[cf.Future[Any]] = [*self.pending, *self.stray, *alarm]
        finished, _ = cf.wait(waiting, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        done: list[Done[T]] = []
        for future in finished:
            if future in alarm:
                continue
            self.keys.pop(self._key_of.pop(future, -1), None)
            if future in self.stray:
                self.stray.discard(future)
                if not future.cancelled() and future.exception() is None:
                    done.append(Done(None, None, 0.0, future.result(), stray=True))
                continue
            tag, task, sent = self.pending.pop(future)
            done.append(Done(tag, task, sent, self._result(future, tag, task)))
        if not done and alarm and alarm[0].done():
            raise self._lost(alarm[0].result())
        return done

    def _lost(self, loss: Loss) -> WorkerLostError:
        """The error for a watched worker that died: in its task if that is still out, else
        between tasks (naming the oldest task still out, which can no longer be trusted)."""
        future = self.keys.get(loss.key) if loss.key is not None else None
        if future is not None and future in self.pending:
            tag, task, _sent = self.pending[future]
            return self.where(tag, task).lost(loss.worker, idle=False)
        if self.pending:
            tag, task, _sent = next(iter(self.pending.values()))
            return self.where(tag, task).lost(loss.worker, idle=True)
        return WorkerLostError(
            f"{loss.worker} died", root="", moves="", position="", detail="",
            worker=loss.worker,
        )

    def _result(self, future: cf.Future[Report], tag: T, task: Task) -> Report:
        """The task's report, or the error that names it."""
        kind: type[ParallelSearchError]
        try:
            return future.result()
        except BrokenProcessPool as err:
            kind, what, detail = WorkerLostError, "a worker process died", repr(err)
        except TaskFailed as err:
            kind, what, detail = ParallelSearchError, err.summary, err.trace
        except cf.CancelledError:
            raise
        except Exception as err:  # an executor's own failure, e.g. MPI
            kind, what = ParallelSearchError, f"{type(err).__name__}: {err}"
            detail = traceback.format_exc()
        raise self.where(tag, task).error(kind, what, detail) from None

    def forget(self, unwanted: Callable[[T], bool]) -> None:
        """Cancel the tasks whose tag is ``unwanted``; those already running become strays."""
        for future, (tag, _task, _sent) in list(self.pending.items()):
            if unwanted(tag):
                del self.pending[future]
                if future.cancel():
                    self.keys.pop(self._key_of.pop(future, -1), None)
                else:
                    self.stray.add(future)

    def drain(self) -> None:
        """Forget every task still out (cancelling those not started)."""
        for future in [*self.pending, *self.stray]:
            future.cancel()
        self.pending.clear()
        self.stray.clear()
        self.keys.clear()
        self._key_of.clear()
