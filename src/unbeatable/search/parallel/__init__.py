"""Parallel search over local processes or MPI ranks: :class:`ParallelSearcher`.

The package: :mod:`.worker` (what a task is and how a worker runs it), :mod:`.pool` (the one
task pool every scheduling loop uses), :mod:`.watch` (where a worker is, and the watch on MPI
workers), :mod:`.split` (the split search of one iteration), :mod:`.searcher` (the public
searcher).

One driver serves both: it hands *tasks* (search this position with this window to this depth)
to any :class:`concurrent.futures.Executor`. By default it makes a
:class:`~concurrent.futures.ProcessPoolExecutor` of ``workers`` local processes; pass
``executor=mpi4py.futures.MPIPoolExecutor()`` to spread the same tasks over MPI ranks, on one
machine or many. States cross to the workers by pickling, so any game whose states are picklable
(every registered game, and a user's own) runs unchanged.

How the tree is split: see :mod:`.split`.

* A single depth-limited search at least ``split_depth + 2`` plies deep, from a root with at
  least :data:`PRESEARCH_MOVES` moves, is preceded by one :data:`PRESEARCH_PLIES` shallower,
  which orders the root moves and leaves best moves in the workers' tables. (The serial search
  has no such step: it is part of what a speed-up measured on a depth-limited search owes to
  ordering rather than to parallelism.)

Every worker process keeps one transposition table per :class:`ParallelSearcher` (created lazily
the first time that searcher's task reaches the process) across all the tasks it runs, and
across searches: a worker process thus holds module-level state, keyed by the searcher, and
keeps the tables of at most :data:`WORKER_TABLES` searchers.

The result is a :class:`~.driver.SearchResult` as the serial :class:`~.driver.Searcher` gives:
the same value, a move among the same best moves (the whole set of best moves is the same),
exact when the serial search is exact; ``nodes``, ``table_hits`` and ``cutoffs`` are summed over
all tasks, including those whose result a cut-off made useless. The principal variation may be
shorter than the serial one (no single table holds its tail).

Faults: an exception raised in a worker surfaces as :class:`ParallelSearchError` naming the
task (the root, the moves to the task's position, and that position); a worker process that
dies surfaces as :class:`WorkerLostError` instead of hanging the search (under MPI, whose
executor never reports a dead rank, a watch sees it: :mod:`.watch`; the error then names the
rank, its host and process too). Ctrl-C
(:class:`KeyboardInterrupt`) cancels every pending task and, for a pool this searcher made,
terminates its worker processes (which ignore SIGINT themselves) before the interrupt goes on.
Local workers run in sessions of their own (see :func:`init_worker`).
"""


from .pool import ParallelSearchError, WorkerLostError
from .searcher import (
    DEFAULT_SPLIT_DEPTH,
    PRESEARCH_MOVES,
    PRESEARCH_PLIES,
    ParallelSearcher,
    parallel_search,
    parallel_solve,
)
from .worker import WORKER_TABLES, TaskStats, init_worker

__all__ = [
    "DEFAULT_SPLIT_DEPTH",
    "PRESEARCH_MOVES",
    "PRESEARCH_PLIES",
    "WORKER_TABLES",
    "ParallelSearchError",
    "ParallelSearcher",
    "TaskStats",
    "WorkerLostError",
    "init_worker",
    "parallel_search",
    "parallel_solve",
]
