"""One search of the Connect Four solver on several threads: each thread's private arrays
(:class:`Worker`), the array the threads of one search share, the watch over them (the
deadline, Ctrl-C) and what they found together (:class:`Analysis`)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from . import _negamax as K
from ._columns import FULL_COLUMN

__all__ = ["Analysis", "Run", "Worker", "kernel_context", "merge", "run_threads", "shared_array"]


@dataclass(frozen=True)
class Analysis:
    """What a limited search knows: ``lower[i] <= value[i] <= upper[i]`` for each entry (one
    entry for :meth:`Solver.bounds`, one per column for :meth:`Solver.analyze`, None for a full
    column). ``complete``: every bound is exact (``lower == upper``); ``interrupted``: Ctrl-C
    came while the search ran (its callers raise KeyboardInterrupt again), also when the
    search completed all the same: a Ctrl-C that came as the last bound closed, or while
    :meth:`Solver.line` walked a line whose score was known from the start, is not lost."""

    lower: list[int | None]
    upper: list[int | None]
    complete: bool
    interrupted: bool
    nodes: int


class Worker:
    """One search thread's private arrays: its stack (the layout of ``fu``/``fi`` is in
    ``_negamax.negamax``), counters and control array."""

    def __init__(self, width: int, height: int) -> None:
        self.fu = np.zeros((width * height + 1, width + 5), dtype=np.uint64)
        self.fi = np.zeros((width * height + 1, width + 4), dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)
        self.ctrl = np.zeros(K.CTRL_SIZE, dtype=np.int64)
        self.lo = np.zeros(width, dtype=np.int64)
        self.hi = np.zeros(width, dtype=np.int64)
        self.res = np.zeros(2, dtype=np.int64)
        # what a search shows while it runs (see ``_columns.score_map``): the bounds of the
        # child of the column being searched, and that column (-1: none yet)
        self.live = np.zeros(3, dtype=np.int64)
        self.complete = False


#: ``run(worker, role, threads, shared)``: one thread's search (``role`` 0 is the main thread,
#: of ``threads``), True when it completed
Run = Callable[[Worker, int, int, npt.NDArray[np.int64]], bool]


def kernel_context() -> contextlib.AbstractContextManager[object]:
    """With numba disabled the kernels run on numpy scalars, whose hash multiply
    overflows on purpose: silence numpy's overflow warning then."""
    if getattr(numba.config, "DISABLE_JIT", False):
        return np.errstate(over="ignore")
    return contextlib.nullcontext()


def shared_array(threads: int) -> npt.NDArray[np.int64]:
    """The array that the ``threads`` threads of one search share: the score's bounds
    known so far, then (with several threads) the marks of the children being searched
    (see ``negamax``)."""
    n = 2 + (1 << K.BUSY_BITS if threads > 1 else 0)
    shared = np.zeros(n, dtype=np.int64)
    shared[0] = -K.SHARED_BIG
    shared[1] = K.SHARED_BIG
    return shared


def run_threads(
    run: Run,
    workers: list[Worker],
    shared: npt.NDArray[np.int64],
    deadline: float | None,
    poll: Callable[[], None] | None = None,
) -> bool:
    """Run ``run(worker, role, len(workers), shared)`` for each worker, each in a thread of its
    own (the first to finish stops the others), while this thread watches the deadline and
    Ctrl-C, and calls ``poll()`` about every 50 ms (Ctrl-C in it counts as Ctrl-C, any other
    error stops the search and is raised); return True on Ctrl-C. Every started thread has ended
    when this returns; an error of one is raised here."""
    n = len(workers)
    finished = threading.Event()
    errors: list[BaseException] = []

    def target(w: Worker, role: int) -> None:
        try:
            with kernel_context():
                w.complete = run(w, role, n, shared)
        except BaseException as error:  # raised again in the calling thread
            errors.append(error)
        finally:
            finished.set()

    jobs = [
        threading.Thread(target=target, args=(w, i), daemon=True) for i, w in enumerate(workers)
    ]
    interrupted = False
    try:
        for job in jobs:
            job.start()
        interrupted = _watch(jobs, workers, finished, deadline, poll)
    except KeyboardInterrupt:  # while the threads were starting
        interrupted = True
    finally:  # never leave a search running: stop and wait for every started thread
        for w in workers:
            w.ctrl[K.CTRL_STOP] = 1
        for job in jobs:
            if job.ident is not None:
                job.join()
    if errors:
        raise errors[0]
    return interrupted


def _watch(
    jobs: list[threading.Thread],
    workers: list[Worker],
    finished: threading.Event,
    deadline: float | None,
    poll: Callable[[], None] | None = None,
) -> bool:
    """Wait for the first complete worker, the deadline or Ctrl-C, calling ``poll()`` about
    every 50 ms meanwhile; stop the others; return True on Ctrl-C."""
    interrupted = False
    try:
        try:
            while any(job.is_alive() for job in jobs):
                wait = 0.05 if deadline is None else min(0.05, deadline - time.perf_counter())
                finished.wait(max(wait, 0.0))
                finished.clear()
                expired = deadline is not None and time.perf_counter() >= deadline
                if expired or any(w.complete for w in workers):
                    break
                if poll is not None:
                    poll()
        except KeyboardInterrupt:
            interrupted = True
    finally:  # also when poll raised: never leave a search running
        for w in workers:
            w.ctrl[K.CTRL_STOP] = 1
        for job in jobs:
            job.join()
    return interrupted


def merge(workers: list[Worker], entries: int, interrupted: bool, nodes: int) -> Analysis:
    """The first complete worker's answer, else the tightest bounds of all of them."""
    for w in workers:
        if w.complete:
            lo, hi = w.lo[:entries], w.hi[:entries]
            break
    else:
        lo = np.max([w.lo[:entries] for w in workers], axis=0)
        hi = np.min([w.hi[:entries] for w in workers], axis=0)
    lower = [None if v == FULL_COLUMN else int(v) for v in lo]
    upper = [None if v == FULL_COLUMN else int(v) for v in hi]
    complete = all(a == b for a, b in zip(lower, upper, strict=True))
    return Analysis(lower, upper, complete, interrupted, nodes)
