"""The public parallel searcher: :class:`ParallelSearcher`, :func:`parallel_search` and
:func:`parallel_solve`. Same options and results as the serial :class:`~..driver.Searcher`;
the deepening loop is the same (:func:`~..deepening.deepen`), only the root's step differs."""

from __future__ import annotations

import concurrent.futures as cf
import random
import threading
import time
import uuid
import warnings
from collections.abc import Iterable, Iterator
from typing import Any

from ...game import Move, State
from .. import policy
from ..deepening import Root, Searching, check_state, deepen, renamed
from ..driver import Searcher
from ..events import Observer
from ..numeric import deepen as numeric_deepen
from ..options import Limits, SearchOptions, max_threads
from ..pv import complete_line
from ..result import UNLIMITED, Progress, SearchResult, build_result, rank_moves
from ..score import INFINITY, Score
from .node import Totals
from .numeric import ParallelNumericRoot
from .pool import Tasks, Where, WorkerLostError, WorkerPool
from .split import Run
from .worker import Task, TaskConfig, TaskStats

__all__ = [
    "DEFAULT_SPLIT_DEPTH",
    "PRESEARCH_MOVES",
    "PRESEARCH_PLIES",
    "ParallelSearcher",
    "parallel_search",
    "parallel_solve",
]

#: Nodes with fewer plies than this left below them are searched whole, as one task.
DEFAULT_SPLIT_DEPTH = 5

#: A single depth-limited search first searches this many plies shallower, to order the moves.
PRESEARCH_PLIES = 2

#: ... and only with at least this many root moves: with fewer, the alpha-beta tree is narrow
#: and two plies less are too large a part of the work (Connect Four's 7 columns: about 25%).
PRESEARCH_MOVES = 10


class ParallelSearcher(Searching):
    """A :class:`~..driver.Searcher` whose work runs in worker processes or MPI ranks.

    ``workers``: how many tasks run at once (default: the executor's worker count, or the
    number of cores for the local pool). ``executor``: any :class:`concurrent.futures.Executor`
    whose workers can import this package and the game, e.g.
    :class:`mpi4py.futures.MPIPoolExecutor`; without one, a pool of ``workers`` local processes
    is made on first use and kept (with the workers' tables) until :meth:`close`.
    ``own_executor``: shut a given executor down in :meth:`close` and on Ctrl-C.
    ``split_depth``: nodes with fewer plies than this below them are searched whole by one task.
    ``presearch``: precede a single deep depth-limited search by one :data:`PRESEARCH_PLIES`
    shallower (to order the root moves).
    ``options`` and the keywords: the :class:`~..options.SearchOptions`, as for the serial
    searcher (``evaluate`` and ``order`` must be picklable: module-level functions).

    Use it as a context manager, or call :meth:`close`, to release the workers.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        executor: cf.Executor | None = None,
        own_executor: bool = False,
        split_depth: int = DEFAULT_SPLIT_DEPTH,
        presearch: bool = True,
        options: SearchOptions | None = None,
        **kw: Any,
    ) -> None:
        if workers is not None and (
            not isinstance(workers, int) or isinstance(workers, bool) or workers < 1
        ):
            raise ValueError(f"workers must be a whole number >= 1, not {workers!r}")
        if not isinstance(split_depth, int) or isinstance(split_depth, bool) or split_depth < 2:
            raise ValueError(f"split_depth must be a whole number >= 2, not {split_depth!r}")
        self.options = SearchOptions.make(options, **kw)
        self.split_depth = split_depth
        self.presearch = presearch
        self._pool = WorkerPool(workers, executor, own_executor)
        self._session = uuid.uuid4().hex
        self._hints: dict[Any, Move] = {}  # best moves of split nodes, for the next iteration
        #: The cost of every task of the last search, in the order the results came back.
        self.task_log: list[TaskStats] = []

    algorithm = property(lambda self: self.options.algorithm)
    #: Whether the workers keep transposition tables (each worker has its own; this searcher
    #: has none, unlike :attr:`.Searcher.table`, which is the table itself).
    uses_table = property(lambda self: self.options.table)
    table_size = property(lambda self: self.options.entries)

    @property
    def table(self) -> bool:
        """Deprecated: :attr:`uses_table` (a bool here, where :attr:`.Searcher.table` is the
        table itself)."""
        warnings.warn(
            "ParallelSearcher.table is now uses_table (Searcher.table is a table)",
            DeprecationWarning,
            stacklevel=2,
        )
        return bool(self.options.table)
    evaluate = property(lambda self: self.options.evaluate)
    rng = property(lambda self: self.options.rng)

    # --- the pool -------------------------------------------------------------------------

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        return self._pool.workers

    def executor(self) -> cf.Executor:
        """The executor, made now if this searcher makes its own."""
        return self._pool.executor()

    def close(self) -> None:
        """Shut the pool down if this searcher owns it (a later search makes a new one)."""
        self._pool.close()

    def __enter__(self) -> ParallelSearcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ParallelSearcher {self._pool!r}>"

    # --- searching ------------------------------------------------------------------------

    # search(): see Searching.search. A time limit applies to the whole search; a node budget
    # is shared out, each task getting what remains when it is sent, so the total may
    # overshoot it by up to one task's worth per worker.

    def _iterate(
        self, state: State, limits: Limits, algorithm: str, analyze: bool,
        stop: threading.Event | None, observer: Observer | None = None,
        progress: Progress | None = None,
    ) -> Iterator[SearchResult]:
        if observer is not None:
            raise ValueError(
                "the parallel searcher emits no search events: observe a serial Searcher "
                "(its task log and timeline show the workers)"
            )
        options = self.options
        if state.outcome() is not None:
            yield Searcher(options=SearchOptions.make(options, table=False)).search(state)
            return
        if algorithm in policy.RUNNERS and algorithm not in policy.TREE_SEARCHES:
            # a game of chance or of more players: not an iteration of the alpha-beta engine
            yield from self._numeric(state, limits, algorithm, analyze, stop)
            return
        if policy.hands_back(options, state, limits):
            # A time or node budget is the game's solver's to honour, as in a serial search:
            # the solver (its own threads) answers in this process, cut short with bounds. A
            # game's own searcher runs here too, its threads as many as the workers.
            serial_options = SearchOptions.make(options, table=False)
            if options.threads is None and not policy.uses_solver(options, state):
                threads = min(self.workers, max_threads())
                serial_options = SearchOptions.make(serial_options, threads=threads)
            serial = Searcher(options=serial_options)
            yield from serial.iterate(
                state, limits, analyze=analyze, stop=stop, progress=progress
            )
            return
        if algorithm in policy.RUNNERS:
            merge = policy.ROOT_PARALLEL.get(algorithm)
            if merge is None:  # an algorithm of its own that does not split: this process
                serial = Searcher(options=SearchOptions.make(options, table=False))
                yield from serial.iterate(state, limits, analyze=analyze, stop=stop)
            else:
                yield self._root_parallel(state, limits, algorithm, merge, analyze)
            return
        start = time.perf_counter()
        self.task_log = []
        run = Run(
            self._pool,
            TaskConfig(self._session, options, algorithm),
            hints=self._hints,
            task_log=self.task_log,
            split_depth=self.split_depth,
            deadline=start + limits.time if limits.time is not None else None,
            max_nodes=limits.nodes,
            stop=stop,
        )
        try:
            if policy.uses_solver(options, state) and limits == Limits():
                yield self._by_solver(run, state, start, analyze)
                return
            step = _ParallelStep(self, run, state)
            yield from deepen(state, limits, options, step, algorithm, start, analyze)
        except (KeyboardInterrupt, WorkerLostError):
            self._pool.abort()
            raise
        finally:
            run.drain()

    def _root_parallel(
        self,
        state: State,
        limits: Limits,
        algorithm: str,
        merge: policy.Merger,
        analyze: bool,
    ) -> SearchResult:
        """One search of ``state`` in every worker, each with its own random generator (seeds
        drawn from the options' generator, or from 0), a node limit shared out, the same time
        limit; their results merged (see :data:`.policy.ROOT_PARALLEL`)."""
        start = time.perf_counter()
        self.task_log = []
        options = self.options
        base = options.rng.getrandbits(32) if options.rng is not None else 0
        count = self.workers
        tasks: Tasks[int] = Tasks(
            self._pool, lambda _n, task: Where(str(task.state), "", str(task.state))
        )
        totals = Totals()
        results: list[SearchResult] = []
        try:
            for index in range(count):
                nodes = None
                if limits.nodes is not None:
                    nodes = limits.nodes // count + (1 if index < limits.nodes % count else 0)
                    if nodes == 0:
                        continue
                own = SearchOptions.make(options, rng=random.Random(base * 7919 + index))
                task = Task(
                    TaskConfig(self._session, own, algorithm), state, UNLIMITED, -INFINITY,
                    INFINITY, 0, limits.time, nodes,
                )
                tasks.submit(task, index)
            while tasks:
                for finished in tasks.wait():
                    report = finished.report
                    if finished.tag is None or report.result is None:
                        continue
                    self.task_log.append(
                        TaskStats(report.nodes, report.seconds, report.cpu,
                                  time.perf_counter() - finished.sent, report.worker)
                    )
                    totals.nodes += report.nodes
                    totals.horizon += report.horizon
                    totals.seldepth = max(totals.seldepth, report.seldepth)
                    results.append(report.result)
        except (KeyboardInterrupt, WorkerLostError):
            self._pool.abort()
            raise
        finally:
            tasks.drain()
        return merge(state, results, options, analyze, start, totals)

    def _numeric(
        self, state: State, limits: Limits, algorithm: str, analyze: bool,
        stop: threading.Event | None,
    ) -> Iterator[SearchResult]:
        """A search of a game of chance or of more players: the root's moves (or outcomes)
        split over the workers, one task each (see :mod:`.numeric`)."""
        start = time.perf_counter()
        self.task_log = []
        root = ParallelNumericRoot(
            self._pool,
            TaskConfig(self._session, self.options, algorithm),
            state,
            self.options,
            deadline=start + limits.time if limits.time is not None else None,
            max_nodes=limits.nodes,
            stop=stop,
            task_log=self.task_log,
            start=start,
        )
        meaning = policy.meaning(state, algorithm)
        try:
            yield from numeric_deepen(
                state, limits, self.options, root, algorithm, meaning, start, analyze
            )
        except (KeyboardInterrupt, WorkerLostError):
            self._pool.abort()
            raise

    def presearches(self, state: State, depth: int, analyze: bool) -> bool:
        """Whether a single depth-limited search first searches :data:`PRESEARCH_PLIES`
        shallower (when it is deep enough and the root has at least :data:`PRESEARCH_MOVES`
        moves): that orders the root moves (and fills the workers' tables with best moves)
        so that the first root move, whose value bounds the young brothers, is likely the
        best; it costs a small fraction of the deeper search.
        """
        if not self.presearch or analyze or depth == UNLIMITED or depth - PRESEARCH_PLIES < 2:
            return False
        left = depth if state.max_plies is None else min(depth, state.max_plies - state.ply)
        return (
            left >= self.split_depth + PRESEARCH_PLIES
            and len(state.legal_moves()) >= PRESEARCH_MOVES
        )

    def _by_solver(self, run: Run, state: State, start: float, analyze: bool) -> SearchResult:
        """Every move's exact score from the game's solver, one task per move."""
        values = run.solve_children(state, weak=False)
        legal = list(state.legal_moves())
        best_value, best, scores = rank_moves(legal, values, True, analyze)
        spent = time.perf_counter() - start
        try:
            pv = policy.solver_line(
                state, best[0], spent, self.options.solve_request(quick=True)
            )
        except KeyboardInterrupt:
            pv = (best[0],)
        return build_result(
            state, run.totals, "solver", start, best, pv, Score(best_value), scores, 0,
            self.options.rng,
        )

    # --- solving --------------------------------------------------------------------------

    def solve(self, state: State, *, weak: bool = False) -> int:
        """The exact score of ``state`` in the solve convention, as :func:`..driver.solve`
        (the rule is :func:`..policy.solve`).

        A game with a solver of its own has the position solved whole by that solver in one
        worker: split by moves, it would be more work than the solver's one solve (which needs
        only the best move's score), so one position gains nothing. Many positions do: see
        :meth:`solve_many`. Other games are searched in parallel (:meth:`search`).
        """
        check_state(state)
        return policy.solve(
            state,
            self.options,
            self.search,
            weak=weak,
            own=lambda s, w: next(iter(self.solve_many([s], weak=w))),
        )

    def solve_many(self, states: Iterable[State], *, weak: bool = False) -> Iterator[int]:
        """The solve-convention score of every position, in order: one task per position,
        each solved whole in a worker as :func:`..driver.solve` would (the game's own solver,
        or an exact search with the worker's table).

        For many positions this is the efficient split (no bound to share, no extra nodes); to
        make one hard position faster, use :meth:`solve`. Scores are yielded as soon as they
        and every earlier one are known; at most twice ``workers`` positions are out at once.
        """
        self.task_log = []
        tasks: Tasks[int] = Tasks(
            self._pool, lambda _n, task: Where(str(task.state), "", str(task.state))
        )
        done: dict[int, int] = {}
        todo = iter(enumerate(states))
        following = 0
        exhausted = False
        try:
            while True:
                while not exhausted and len(tasks) < 2 * self.workers:
                    item = next(todo, None)
                    if item is None:
                        exhausted = True
                        break
                    number, state = item
                    if not isinstance(state, State):
                        raise TypeError(f"solve_many needs States, not {type(state).__name__}")
                    config = TaskConfig(
                        self._session, self.options, self.options.choose_algorithm(state)
                    )
                    task = Task(
                        config, state, UNLIMITED, -INFINITY, INFINITY, 0, None, None, weak=weak,
                        whole=True,
                    )
                    tasks.submit(task, number)
                while following in done:
                    yield done.pop(following)
                    following += 1
                if not tasks:
                    return
                for finished in tasks.wait():
                    if finished.tag is None:
                        continue
                    report = finished.report
                    round_trip = time.perf_counter() - finished.sent
                    self.task_log.append(
                        TaskStats(report.nodes, report.seconds, report.cpu, round_trip,
                                  report.worker, host=report.host, rank=report.rank)
                    )
                    done[finished.tag] = report.value
        except (KeyboardInterrupt, WorkerLostError):
            self._pool.abort()
            raise
        finally:
            tasks.drain()


class _ParallelStep:
    """The parallel root: each iteration split over the workers (see :mod:`.split`)."""

    def __init__(self, searcher: ParallelSearcher, run: Run, state: State) -> None:
        self.searcher = searcher
        self.run = run
        self.state = state
        self.order = searcher.options.tie_order(state)

    @property
    def counters(self) -> Totals:
        return self.run.totals

    def iteration(self, depth: int, analyze: bool, alone: bool) -> Root:
        run, state = self.run, self.state
        if alone and self.searcher.presearches(state, depth, analyze):
            run.iteration(state, depth - PRESEARCH_PLIES, False)
        horizon = run.totals.horizon
        node = run.iteration(state, depth, analyze)
        exact = run.totals.horizon == horizon  # no depth limit cut this iteration
        return Root(node.values, node.lines, self.order, exact)

    def partial(self) -> Root | None:
        node = self.run.root
        if node is None or not node.values:
            return None
        return Root(dict(node.values), dict(node.lines), self.order, False)

    def line(self, root: Root, move: Move, value: int, depth: int | None) -> tuple[Move, ...]:
        line = tuple(root.lines.get(move, [move]))
        if depth is not None:
            return line
        return complete_line(self.state, line, value, self.run.line_engine())

    def fallback(self) -> Move:
        first: Move = self.run.engine.ordered(self.state, None)[0]
        return first


def parallel_search(
    state: State,
    limits: Limits | None = None,
    *,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    analyze: bool = False,
    analyse: bool | None = None,
    **options: Any,
) -> SearchResult:
    """Search ``state`` with a fresh :class:`ParallelSearcher` (see it for the options;
    ``analyse``: the old spelling of ``analyze``, deprecated)."""
    with ParallelSearcher(workers, executor=executor, **options) as searcher:
        return searcher.search(state, limits, analyze=renamed(analyze, analyse))


def parallel_solve(
    state: State,
    *,
    weak: bool = False,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    **options: Any,
) -> int:
    """The exact solve-convention score of ``state``, searched in parallel."""
    with ParallelSearcher(workers, executor=executor, **options) as searcher:
        return searcher.solve(state, weak=weak)
