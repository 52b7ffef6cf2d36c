"""Parallel search over local processes or MPI ranks: :class:`ParallelSearcher`.

One driver serves both: it hands *tasks* (search this position with this window to this depth)
to any :class:`concurrent.futures.Executor`. By default it makes a
:class:`~concurrent.futures.ProcessPoolExecutor` of ``workers`` local processes; pass
``executor=mpi4py.futures.MPIPoolExecutor()`` to spread the same tasks over MPI ranks, on one
machine or many. States cross to the workers by pickling, so any game whose states are picklable
(every registered game, and a user's own) runs unchanged.

How the tree is split (young brothers wait, at and below the root):

* The manager (the calling process) walks the *principal variation*: at the root, and at the
  first child of every node it splits, it searches the first, best-ordered move before any
  other, so that its value bounds the rest. Only then are the remaining moves (the "young
  brothers") handed out, in parallel, each with the best bound known when it is sent.
* Nodes are split while at least ``split_depth`` plies remain below them; below that a whole
  subtree is one task.
* When a node has fewer moves left to hand out than there are workers (a root with few moves,
  or the last moves of any split node), those moves are split one level deeper instead of being
  sent whole, so that no worker idles while one long task finishes.
* Scheduling is dynamic: at most ``workers`` tasks are out at a time; whenever one finishes,
  the next is made with the then-current bound and sent to the free worker. A node whose moves
  produce a cut-off cancels the tasks of its other moves that have not started.
* Sibling moves that reach positions with the same table key (mirror images, transpositions)
  are searched once.
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
dies surfaces as :class:`WorkerLostError` instead of hanging the search. Ctrl-C
(:class:`KeyboardInterrupt`) cancels every pending task and, for a pool this searcher made,
terminates its worker processes (which ignore SIGINT themselves) before the interrupt goes on.
Local workers run in sessions of their own (see :func:`init_worker`).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import math
import os
import random
import signal
import threading
import time
import traceback
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from ..game import FIRST, Move, SolveRequest, State
from .driver import (
    UNLIMITED,
    Limits,
    Searcher,
    SearchResult,
    build_result,
    check_recursion,
    interrupted,
    rank_moves,
)
from .engine import Engine, Evaluator, Orderer, SearchStopped
from .score import (
    INFINITY,
    WIN,
    Score,
    from_table,
    solve_score,
    value_from_solve_score,
)
from .stack import alphabeta_stack
from .table import EXACT

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

#: Nodes with fewer plies than this left below them are searched whole, as one task.
DEFAULT_SPLIT_DEPTH = 5

#: A single depth-limited search first searches this many plies shallower, to order the moves.
PRESEARCH_PLIES = 2

#: ... and only with at least this many root moves: with fewer, the alpha-beta tree is narrow
#: and two plies less are too large a part of the work (Connect Four's 7 columns: about 25%).
PRESEARCH_MOVES = 10

#: The manager remembers the best moves of at most about this many split nodes.
MAX_HINTS = 1 << 16

#: A worker process keeps the transposition tables of at most this many searchers.
WORKER_TABLES = 2


class ParallelSearchError(RuntimeError):
    """A task failed in a worker. ``root`` is the searched position, ``moves`` the moves from it
    to the task's position ``position``, and ``detail`` the worker's error and traceback."""

    def __init__(self, message: str, *, root: str, moves: str, position: str, detail: str) -> None:
        super().__init__(message)
        self.root = root
        self.moves = moves
        self.position = position
        self.detail = detail


class WorkerLostError(ParallelSearchError):
    """A worker process died (killed, or exited) while the search needed it."""


class _TaskFailed(Exception):
    """Raised in a worker in place of the task's own exception, which may not pickle."""

    def __init__(self, summary: str, trace: str) -> None:
        super().__init__(summary, trace)
        self.summary = summary
        self.trace = trace


# --- what crosses to the workers ------------------------------------------------------------


@dataclass(frozen=True)
class _Config:
    session: str  # which searcher: a worker keeps one table per session
    algorithm: str
    table: bool
    table_size: int
    symmetry: bool
    hints: bool
    evaluate: Evaluator | None
    order: Orderer | None
    algorithm_given: str | None = None  # the algorithm the user asked for, if any


@dataclass(frozen=True)
class _Task:
    config: _Config
    state: State
    depth: int
    alpha: int
    beta: int
    ply: int
    seconds: float | None  # time left when the task was sent
    max_nodes: int | None
    solver: bool = False  # ask the game's own solver (solver_value) instead of searching
    weak: bool = False
    whole: bool = False  # solve the position as solve() does; the value is the solve score


@dataclass(frozen=True)
class TaskStats:
    """What one task cost (see :attr:`ParallelSearcher.task_log`)."""

    nodes: int
    seconds: float  #: wall-clock time spent on the task in the worker
    cpu: float  #: processor time spent on it in the worker
    round_trip: float  #: from sending the task to receiving its result, in the manager
    worker: int  #: the worker's process id (MPI: the process id on its host)
    sent: float = math.nan  #: when the task was sent, in seconds from the search's start
    moves: tuple[str, ...] = ()  #: the task's position: its moves from the root, in notation


@dataclass(frozen=True)
class _Report:
    value: int
    line: tuple[Move, ...]
    nodes: int
    hits: int
    cutoffs: int
    horizon: int
    seldepth: int
    seconds: float
    cpu: float
    stopped: bool
    worker: int
    solved: bool = False  # the value is the game's own solver's score


#: Per worker process: the searchers (one per session), least recently used first.
_WORKER_SEARCHERS: OrderedDict[str, Searcher] = OrderedDict()


def _worker_searcher(config: _Config, state: State) -> Searcher:
    """This worker's searcher for the session, its table emptied if ``state`` is of another
    game than the last task's."""
    searcher = _WORKER_SEARCHERS.pop(config.session, None)
    if searcher is None:
        searcher = Searcher(
            config.algorithm,
            table=config.table,
            table_size=config.table_size,
            symmetry=config.symmetry,
            hints=config.hints,
            evaluate=config.evaluate,
            order=config.order,
        )
    searcher.switch_game(state)
    _WORKER_SEARCHERS[config.session] = searcher
    while len(_WORKER_SEARCHERS) > WORKER_TABLES:
        _WORKER_SEARCHERS.popitem(last=False)
    return searcher


def init_worker() -> None:
    """Initializer of the local pool's processes (pass it to a pool of your own too).

    Ctrl-C is the manager's to handle (it terminates the workers), so a worker ignores SIGINT;
    a worker whose manager has died exits within a second.
    And a worker starts a session of its own, as MPI ranks do: where Linux groups the
    scheduling of a session's processes (autogroup), the workers would otherwise share one
    process's part of a busy machine between them, and two workers would run no faster than
    one.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.setsid()
    # A manager killed outright (SIGKILL) cannot stop its workers: they stop themselves.
    parent = os.getppid()
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    """End this worker process once its parent has gone."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _run_task(task: _Task) -> _Report:
    """Run one task in a worker. Any exception comes back as :class:`_TaskFailed`."""
    try:
        return _run(task)
    except Exception as err:
        raise _TaskFailed(f"{type(err).__name__}: {err}", traceback.format_exc()) from None


def _run(task: _Task) -> _Report:
    start = time.perf_counter()
    cpu = time.process_time()
    state = task.state
    if task.whole:
        return _solve_whole(task, start, cpu)
    if task.solver:
        score = state.solver_value(SolveRequest(weak=task.weak))
        if score is not None:
            seconds = time.perf_counter() - start
            cpu = time.process_time() - cpu
            return _Report(score, (), 1, 0, 0, 0, 0, seconds, cpu, False, os.getpid(), True)
        task = replace(task, solver=False)
    config = task.config
    searcher = _worker_searcher(config, state)
    engine = Engine(
        table=searcher.table,
        symmetry=config.symmetry,
        hints=config.hints and config.algorithm.startswith("alphabeta"),
        evaluate=config.evaluate,
        order=config.order,
        deadline=start + task.seconds if task.seconds is not None else None,
        max_nodes=task.max_nodes,
    )
    algorithm = config.algorithm
    stopped = False
    value = 0
    try:
        if algorithm == "alphabeta":
            value = engine.alphabeta(state, task.depth, task.alpha, task.beta, task.ply)
        elif algorithm == "alphabeta-stack":
            value = alphabeta_stack(engine, state, task.depth, task.alpha, task.beta, task.ply)
        elif algorithm == "negamax":
            value = engine.negamax(state, task.depth, task.ply)
        else:
            value = engine.minimax(state, task.depth, task.ply)
            if state.to_move != FIRST:
                value = -value
    except SearchStopped:
        stopped = True
    line = () if stopped else tuple(_extend(engine, state, engine.line(task.ply), task.depth))
    return _Report(
        value,
        line,
        engine.nodes,
        engine.hits,
        engine.cutoffs,
        engine.horizon,
        engine.seldepth,
        time.perf_counter() - start,
        time.process_time() - cpu,
        stopped,
        os.getpid(),
    )


def _solve_whole(task: _Task, start: float, cpu: float) -> _Report:
    """The solve-convention score of the task's position, as :func:`.driver.solve` gives it
    (the game's own solver, else an exact search with this worker's searcher)."""
    state, weak = task.state, task.weak
    config = task.config
    searcher = Searcher(
        config.algorithm_given,
        table=False,
        symmetry=config.symmetry,
        hints=config.hints,
        evaluate=config.evaluate,
        order=config.order,
    )
    searcher.table = _worker_searcher(config, state).table  # this worker's table for the session
    score = None
    nodes = hits = cutoffs = 0
    if state.outcome() is None and config.algorithm_given is None:
        score = state.solver_value(SolveRequest(weak=weak))
    if score is None:
        result = searcher.search(state)
        score = solve_score(state, result.score)
        nodes, hits, cutoffs = result.nodes, result.table_hits, result.cutoffs
    if weak:
        score = (score > 0) - (score < 0)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return _Report(score, (), nodes, hits, cutoffs, 0, 0, seconds, cpu, False, os.getpid(), True)


def _extend(engine: Engine, state: State, line: list[Move], depth: int) -> list[Move]:
    """``line`` extended by the worker table's exact best moves where a table hit cut it."""
    line = list(line)
    table = engine.table
    if table is None:
        return line
    for move in line:
        state = state.play(move)
    seen = set()
    while len(line) < depth and state.outcome() is None:
        key = engine.key(state)
        entry = table.probe(key)
        if entry is None or entry.move is None or key in seen or entry.flag != EXACT:
            break
        seen.add(key)
        if entry.move not in state.legal_moves():
            break
        line.append(entry.move)
        state = state.play(entry.move)
    return line


# --- the manager ----------------------------------------------------------------------------


class _Stop(Exception):
    """The budget ran out during an iteration."""


class _Node:
    """A position the manager splits: its moves go out as tasks or as further split nodes."""

    __slots__ = (
        "active",
        "alpha",
        "best",
        "best_line",
        "beta",
        "children",
        "depth",
        "done",
        "first_done",
        "followers",
        "index",
        "key",
        "known",
        "leaders",
        "lines",
        "moves",
        "next",
        "parent",
        "path",
        "ply",
        "same",
        "state",
        "values",
        "windows",
    )

    def __init__(
        self,
        parent: _Node | None,
        index: int,
        state: State,
        path: tuple[Move, ...],
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> None:
        self.parent = parent
        self.index = index  # which of the parent's moves leads here
        self.state = state
        self.path = path
        self.depth = depth
        self.alpha = alpha
        self.beta = beta
        self.ply = ply
        self.moves: Sequence[Move] = ()
        self.next = 0  # the next move to hand out
        self.active = 0  # moves handed out and not yet back
        self.best = -INFINITY
        self.best_line: list[Move] = []
        self.first_done = False
        self.done = False
        self.children: list[_Node] = []
        self.key: Any = None
        self.values: dict[Move, int] = {}  # root only: every move's value (or bound)
        self.lines: dict[Move, list[Move]] = {}  # root only
        self.windows: dict[Move, int] = {}  # root only: the alpha each move was searched with
        self.leaders: dict[Any, int] = {}  # table key of a child -> the first move reaching it
        self.followers: dict[int, list[int]] = {}  # move -> later moves reaching the same key
        self.known: dict[int, tuple[int, int]] = {}  # move -> (value, root window) once known
        self.same: set[int] = set()  # moves after which the same player moves again


@dataclass
class _Totals:
    nodes: int = 0
    hits: int = 0
    cutoffs: int = 0
    horizon: int = 0
    seldepth: int = 0


class ParallelSearcher:
    """A :class:`~.driver.Searcher` whose work runs in worker processes or MPI ranks.

    ``workers``: how many tasks run at once (default: the executor's worker count, or the
    number of cores for the local pool). ``executor``: any :class:`concurrent.futures.Executor`
    whose workers can import this package and the game, e.g.
    :class:`mpi4py.futures.MPIPoolExecutor`; without one, a pool of ``workers`` local processes
    is made on first use and kept (with the workers' tables) until :meth:`close`.
    ``own_executor``: shut a given executor down in :meth:`close` and on Ctrl-C.
    ``split_depth``: nodes with fewer plies than this below them are searched whole by one task.
    ``presearch``: precede a deep depth-limited search by one :data:`PRESEARCH_PLIES` shallower
    (to order the root moves).
    The other options are those of :class:`~.driver.Searcher`; ``evaluate`` and ``order`` must
    then be picklable (module-level functions).

    Use it as a context manager, or call :meth:`close`, to release the workers.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        executor: cf.Executor | None = None,
        own_executor: bool = False,
        algorithm: str | None = None,
        table: bool | None = None,
        table_size: int = 1 << 20,
        symmetry: bool = True,
        hints: bool = True,
        evaluate: Evaluator | None = None,
        order: Orderer | None = None,
        rng: random.Random | None = None,
        split_depth: int = DEFAULT_SPLIT_DEPTH,
        presearch: bool = True,
    ) -> None:
        if workers is not None and (
            not isinstance(workers, int) or isinstance(workers, bool) or workers < 1
        ):
            raise ValueError(f"workers must be a whole number >= 1, not {workers!r}")
        if not isinstance(split_depth, int) or isinstance(split_depth, bool) or split_depth < 2:
            raise ValueError(f"split_depth must be a whole number >= 2, not {split_depth!r}")
        # The serial searcher checks the options and resolves the algorithm; its own table is
        # never filled (the workers hold the tables).
        self._serial = Searcher(
            algorithm,
            table=False,
            symmetry=symmetry,
            hints=hints,
            evaluate=evaluate,
            order=order,
            rng=rng,
        )
        if table is None:
            table = algorithm not in ("minimax", "negamax")
        if not isinstance(table_size, int) or isinstance(table_size, bool) or table_size < 1:
            raise ValueError(f"table capacity must be a positive integer, not {table_size!r}")
        self.algorithm = algorithm
        self.table = table
        self.table_size = table_size
        self.symmetry = symmetry
        self.hints = hints
        self.evaluate = evaluate
        self.order = order
        self.rng = rng
        self.split_depth = split_depth
        self.presearch = presearch
        self._session = uuid.uuid4().hex
        self._executor = executor
        self._own = executor is None or own_executor
        self._given = executor is not None  # the caller's executor: never replaced by a pool
        self._workers = workers
        self._hints: dict[Any, Move] = {}  # best moves of split nodes, for the next iteration
        #: The cost of every task of the last search, in the order the results came back.
        self.task_log: list[TaskStats] = []

    # --- the pool -------------------------------------------------------------------------

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        if self._workers is None:
            self._workers = self._executor_workers(self._executor)
        return self._workers

    @staticmethod
    def _executor_workers(executor: cf.Executor | None) -> int:
        if executor is not None:
            for name in ("num_workers", "_max_workers"):
                count = getattr(executor, name, None)
                if isinstance(count, int) and count >= 1:
                    return count
        return os.cpu_count() or 1

    def executor(self) -> cf.Executor:
        """The executor, made now if this searcher makes its own."""
        if self._executor is None:
            if self._given:
                raise RuntimeError("the executor given to this searcher has been shut down")
            self._executor = cf.ProcessPoolExecutor(self.workers, initializer=init_worker)
        return self._executor

    def close(self) -> None:
        """Shut the pool down if this searcher owns it (a later search makes a new one)."""
        executor, self._executor = self._executor, None
        if executor is not None and self._own:
            executor.shutdown(wait=True, cancel_futures=True)
        elif executor is not None:
            self._executor = executor

    def _abort(self) -> None:
        """Stop every worker now: cancel what has not started and end the processes we own."""
        executor = self._executor
        if executor is None or not self._own:
            return
        self._executor = None
        processes = dict(getattr(executor, "_processes", None) or {})
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():
            if process.is_alive():
                process.terminate()
        for process in processes.values():
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)

    def __enter__(self) -> ParallelSearcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ParallelSearcher workers={self._workers} executor={self._executor!r}>"

    # --- searching ------------------------------------------------------------------------

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        *,
        analyse: bool = False,
        on_iteration: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search ``state`` within ``limits``, in parallel; see :meth:`.Searcher.search`.

        A time limit applies to the whole search; a node budget is shared out, each task
        getting what remains when it is sent, so the total may overshoot it by up to one
        task's worth per worker.
        """
        result: SearchResult | None = None
        for result in self.iterate(state, limits, analyse=analyse):
            if on_iteration is not None:
                on_iteration(result)
        assert result is not None
        return result

    def iterate(
        self, state: State, limits: Limits | None = None, *, analyse: bool = False
    ) -> Iterator[SearchResult]:
        """Yield a result after every completed iteration, as :meth:`.Searcher.iterate`."""
        limits = limits or Limits()
        if not isinstance(state, State):
            raise TypeError(f"search needs a State, not {type(state).__name__}")
        serial = self._serial
        algorithm = serial.choose_algorithm(state)
        check_recursion(state, algorithm)
        if state.outcome() is not None:
            yield serial.search(state, limits, analyse=analyse)
            return
        start = time.perf_counter()
        self.task_log = []
        config = self._config(state)
        deadline = start + limits.time if limits.time is not None else None
        run = _Run(self, config, deadline, limits.nodes)
        try:
            if self._has_solver(state) and limits == Limits():
                yield self._by_solver(run, state, start, analyse)
                return
            max_depth = limits.depth if limits.depth is not None else UNLIMITED
            depths: Sequence[int] = range(1, max_depth + 1) if limits.bounded else (max_depth,)
            last: SearchResult | None = None
            for depth in depths:
                try:
                    if len(depths) == 1 and self._presearch(state, depth, analyse):
                        run.iteration(state, depth - PRESEARCH_PLIES, False)
                    horizon = run.totals.horizon
                    root = run.iteration(state, depth, analyse)
                except _Stop:
                    break
                exact = run.totals.horizon == horizon  # no depth limit cut this iteration
                last = self._result(state, run, algorithm, start, root, depth, analyse, exact)
                yield last
                if last.exact or depth >= max_depth:
                    return
            if last is None:
                moves = run.engine.ordered(state, None)
                last = self._make_result(
                    state, run, algorithm, start, (moves[0],), (), Score(0, False), None, 0
                )
            yield interrupted(last, run.totals, start)
        except (KeyboardInterrupt, WorkerLostError):
            self._abort()
            raise
        finally:
            run.drain()

    def _presearch(self, state: State, depth: int, analyse: bool) -> bool:
        """Whether a depth-limited search first searches :data:`PRESEARCH_PLIES` shallower
        (when it is deep enough and the root has at least :data:`PRESEARCH_MOVES` moves).

        The shallower search orders the root moves (and fills the workers' tables with best
        moves) so that the first root move, whose value bounds the young brothers, is likely
        the best; it costs a small fraction of the deeper search.
        """
        if analyse or depth == UNLIMITED or depth - PRESEARCH_PLIES < 2:
            return False
        left = depth if state.max_plies is None else min(depth, state.max_plies - state.ply)
        return (
            self.presearch
            and left >= self.split_depth + PRESEARCH_PLIES
            and len(state.legal_moves()) >= PRESEARCH_MOVES
        )

    def solve(self, state: State, *, weak: bool = False) -> int:
        """The exact score of ``state`` in the solve convention, as :func:`.driver.solve`.

        A game with a solver of its own has the position solved whole by that solver in one
        worker: split by moves, it would be more work than the solver's one solve (which needs
        only the best move's score), so one position gains nothing. Many positions do: see
        :meth:`solve_many`. Other games are searched in parallel (:meth:`search`).
        """
        if self._has_solver(state):
            return next(iter(self.solve_many([state], weak=weak)))
        result = self.search(state)
        score = solve_score(state, result.score)
        return (score > 0) - (score < 0) if weak else score

    def _config(self, state: State) -> _Config:
        algorithm = self._serial.choose_algorithm(state)
        return _Config(
            self._session,
            algorithm,
            self.table,
            self.table_size,
            self.symmetry,
            self.hints and algorithm.startswith("alphabeta"),
            self.evaluate,
            self.order,
            self.algorithm,
        )

    def solve_many(self, states: Iterable[State], *, weak: bool = False) -> Iterator[int]:
        """The solve-convention score of every position, in order: one task per position,
        each solved whole in a worker as :func:`.driver.solve` would (the game's own solver, or
        an exact search with the worker's table).

        For many positions this is the efficient split (no bound to share, no extra nodes); to
        make one hard position faster, use :meth:`solve`. Scores are yielded as soon as they
        and every earlier one are known; at most twice ``workers`` positions are out at once.
        """
        self.task_log = []
        executor = self.executor()
        waiting: dict[int, cf.Future[_Report]] = {}
        sent: dict[cf.Future[_Report], tuple[State, float]] = {}
        done: dict[int, int] = {}
        todo = iter(enumerate(states))
        following = 0
        exhausted = False
        try:
            while True:
                while not exhausted and len(sent) < 2 * self.workers:
                    item = next(todo, None)
                    if item is None:
                        exhausted = True
                        break
                    number, state = item
                    if not isinstance(state, State):
                        raise TypeError(f"solve_many needs States, not {type(state).__name__}")
                    task = _Task(
                        self._config(state),
                        state,
                        UNLIMITED,
                        -INFINITY,
                        INFINITY,
                        0,
                        None,
                        None,
                        weak=weak,
                        whole=True,
                    )
                    try:
                        future = executor.submit(_run_task, task)
                    except BrokenProcessPool as err:
                        raise _whole_error(
                            WorkerLostError, "a worker process died", state, repr(err)
                        ) from None
                    waiting[number] = future
                    sent[future] = (state, time.perf_counter())
                while following in done:
                    yield done.pop(following)
                    following += 1
                if not sent:
                    return
                finished, _ = cf.wait(list(sent), return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    state, start = sent.pop(future)
                    number = next(n for n, f in waiting.items() if f is future)
                    del waiting[number]
                    try:
                        report = future.result()
                    except BrokenProcessPool as err:
                        raise _whole_error(
                            WorkerLostError, "a worker process died", state, repr(err)
                        ) from None
                    except _TaskFailed as err:
                        raise _whole_error(
                            ParallelSearchError, err.summary, state, err.trace
                        ) from None
                    self.task_log.append(
                        TaskStats(
                            report.nodes,
                            report.seconds,
                            report.cpu,
                            time.perf_counter() - start,
                            report.worker,
                        )
                    )
                    done[number] = report.value
        except (KeyboardInterrupt, WorkerLostError):
            self._abort()
            raise
        finally:
            for future in sent:
                future.cancel()

    def _has_solver(self, state: State) -> bool:
        """The game has its own solver and this searcher may use it (as the serial one would)."""
        return (
            self.algorithm is None
            and self.evaluate is None
            and state.outcome() is None
            and state.has_solver
        )

    def _by_solver(self, run: _Run, state: State, start: float, analyse: bool) -> SearchResult:
        """Every move's exact score from the game's solver, one task per move."""
        values = run.solve_children(state, weak=False)
        legal = list(state.legal_moves())
        best_value, best, scores = rank_moves(legal, values, True, analyse)
        return self._make_result(
            state, run, "solver", start, best, (best[0],), Score(best_value), scores, 0
        )

    def _result(
        self,
        state: State,
        run: _Run,
        algorithm: str,
        start: float,
        root: _Node,
        depth: int,
        analyse: bool,
        exact: bool,
    ) -> SearchResult:
        legal = list(state.legal_moves())
        best_value, best, scores = rank_moves(legal, root.values, exact, analyse)
        pv = tuple(root.lines.get(best[0], [best[0]]))
        return self._make_result(
            state, run, algorithm, start, best, pv, Score(best_value, exact), scores, depth
        )

    def _make_result(
        self,
        state: State,
        run: _Run,
        algorithm: str,
        start: float,
        best: tuple[Move, ...],
        pv: tuple[Move, ...],
        score: Score,
        scores: Mapping[Move, Score] | None,
        depth: int,
    ) -> SearchResult:
        return build_result(
            state, run.totals, algorithm, start, best, pv, score, scores, depth, self.rng
        )


class _Run:
    """One search's traffic with the executor: the split tree of an iteration, the tasks out,
    and the totals."""

    def __init__(
        self,
        owner: ParallelSearcher,
        config: _Config,
        deadline: float | None,
        max_nodes: int | None,
    ) -> None:
        self.owner = owner
        self.config = config
        self.began = time.perf_counter()
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.totals = _Totals()
        self.engine = Engine(
            table=None,
            symmetry=config.symmetry,
            hints=config.hints,
            evaluate=config.evaluate,
            order=config.order,
            deadline=None,
            max_nodes=None,
        )
        self.workers = owner.workers
        self.pending: dict[cf.Future[_Report], tuple[_Node, int, _Task, float]] = {}
        self.stray: set[cf.Future[_Report]] = set()  # out, but no longer wanted
        self.open: list[_Node] = []  # split nodes with moves to hand out
        self.root: _Node | None = None
        self.analyse = False

    # --- one iteration --------------------------------------------------------------------

    def iteration(self, state: State, depth: int, analyse: bool) -> _Node:
        """Search ``state`` to ``depth``; return the finished root (its moves' values)."""
        self.analyse = analyse
        self.totals.nodes += 1
        root = _Node(None, -1, state, (), depth, -INFINITY, INFINITY, 0)
        root.moves = list(self.engine.ordered(state, self.owner._hints.get(self._key(state))))
        root.key = self._key(state)
        self.root = root
        self.open = [root]
        executor = self.owner.executor()
        while not root.done:
            while len(self.pending) < self.workers:
                if not self._hand_out(executor):
                    break
            if root.done:
                break
            if not self.pending:
                raise AssertionError("the split tree stalled")  # every node has work or is done
            timeout = None
            if self.deadline is not None:
                timeout = max(0.0, self.deadline - time.perf_counter()) + 0.5
            finished, _ = cf.wait(
                list(self.pending) + list(self.stray),
                timeout=timeout,
                return_when=cf.FIRST_COMPLETED,
            )
            if not finished:
                raise _Stop
            for future in finished:
                self._receive(future)
        top = max(root.values, key=lambda m: root.values[m])
        if len(self.owner._hints) > MAX_HINTS:
            self.owner._hints.clear()
        self.owner._hints[root.key] = top
        return root

    def _key(self, state: State) -> Any:
        return self.engine.key(state)

    def _child_window(self, node: _Node) -> tuple[int, int]:
        """The window of ``node``'s next move, from ``node``'s side to move."""
        if node.parent is None:
            if self.analyse or node.best == -INFINITY:
                return -INFINITY, INFINITY
            return node.best - 1, INFINITY
        return max(node.alpha, node.best), node.beta

    def _hand_out(self, executor: cf.Executor) -> bool:
        """Send one more task (making split nodes on the way); False when none is ready."""
        while True:
            node = self._ready()
            if node is None:
                return False
            index = node.next
            node.next += 1
            if node.next >= len(node.moves):
                self.open.remove(node)
            node.active += 1
            move = node.moves[index]
            child = node.state.play(move)
            path = (*node.path, move)
            alpha, beta = self._child_window(node)
            if child.to_move == node.state.to_move:
                node.same.add(index)  # no change of view: the child's window is the node's
                alpha, beta = -beta, -alpha
            key = self._key(child)
            leader = node.leaders.setdefault(key, index)
            if leader != index:
                # A sibling reaches the same position (by symmetry or transposition): its value
                # serves for this move too.
                if leader in node.known:
                    value, window = node.known[leader]
                    if node.parent is None:
                        node.windows[move] = window
                    self._child_done(node, index, value, [])
                else:
                    node.followers.setdefault(leader, []).append(index)
                continue
            if node.parent is None:
                node.windows[move] = alpha
            remaining = len(node.moves) - index
            if self._splits(node, child, index, remaining):
                sub = self._split(node, index, child, path, -beta, -alpha)
                if sub is None:
                    continue  # it finished at once and was reported
                node.children.append(sub)
                continue
            self._send(executor, node, index, child, node.depth - 1, -beta, -alpha, node.ply + 1)
            return True

    def _ready(self) -> _Node | None:
        """The deepest open node that may hand out its next move (young brothers wait)."""
        chosen = None
        for node in self.open:
            if node.done or node.next >= len(node.moves):
                continue
            if node.next > 0 and not node.first_done and not (self.analyse and node is self.root):
                continue
            if chosen is None or node.ply > chosen.ply:
                chosen = node
        return chosen

    def _splits(self, node: _Node, child: State, index: int, remaining: int) -> bool:
        """Whether the move at ``index`` of ``node`` becomes a split node rather than a task."""
        if self.config.algorithm in ("minimax", "negamax") or child.outcome() is not None:
            return False
        left = node.depth - 1
        if child.max_plies is not None:
            left = min(left, child.max_plies - child.ply)
        elif node.depth >= UNLIMITED - 1000:
            return False  # no depth limit and no bound on the game's length: unknown size
        if left < self.owner.split_depth:
            return False
        on_pv = index == 0 and (node.parent is None or node.index == 0 or node.parent.done)
        return on_pv or remaining < self.workers

    def _split(
        self, parent: _Node, index: int, state: State, path: tuple[Move, ...], alpha: int, beta: int
    ) -> _Node | None:
        """A split node for ``state``; None if its value was known at once (and reported)."""
        ply = parent.ply + 1
        depth = parent.depth - 1
        engine = self.engine
        self.totals.nodes += 1
        outcome = state.outcome()
        value: int | None = None
        line: list[Move] = []
        if outcome is not None:
            value = engine.terminal_value(state, outcome.winner, ply)
            self.totals.seldepth = max(self.totals.seldepth, ply)
        else:
            ceiling = WIN - ply - 1
            if ceiling <= alpha:
                value = ceiling
            elif -ceiling >= beta:
                value = -ceiling
            elif self.config.hints:
                win = state.winning_move()
                if win is not None:
                    value, line = ceiling, [win]
                    self.totals.seldepth = max(self.totals.seldepth, ply + 1)
        if value is not None:
            self._child_done(parent, index, value, line)
            return None
        node = _Node(parent, index, state, path, depth, alpha, beta, ply)
        node.key = self._key(state)
        node.moves = list(engine.ordered(state, self.owner._hints.get(node.key)))
        if not node.moves:
            raise ValueError(f"{state!r} has no legal moves but the game has not ended")
        self.open.append(node)
        return node

    def _send(
        self,
        executor: cf.Executor,
        node: _Node,
        index: int,
        state: State,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        *,
        solver: bool = False,
        weak: bool = False,
    ) -> None:
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - time.perf_counter()
            if seconds <= 0:
                raise _Stop
        nodes = None
        if self.max_nodes is not None:
            nodes = self.max_nodes - self.totals.nodes
            if nodes <= 0:
                raise _Stop
        task = _Task(self.config, state, depth, alpha, beta, ply, seconds, nodes, solver, weak)
        try:
            future = executor.submit(_run_task, task)
        except BrokenProcessPool as err:  # a worker died since the last task was sent
            raise self._error(
                WorkerLostError, "a worker process died", node, index, task, repr(err)
            ) from None
        self.pending[future] = (node, index, task, time.perf_counter())

    def _receive(self, future: cf.Future[_Report]) -> None:
        if future in self.stray:
            self.stray.discard(future)
            if not future.cancelled() and future.exception() is None:
                self._count(future.result(), None)
            return
        node, index, task, sent = self.pending.pop(future)
        report = self._report(future, node, index, task)
        self._count(report, time.perf_counter() - sent, sent - self.began, self._path(node, index))
        if report.stopped:
            raise _Stop
        if self.max_nodes is not None and self.totals.nodes >= self.max_nodes:
            raise _Stop
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Stop
        self._child_done(node, index, report.value, list(report.line))

    def _report(self, future: cf.Future[_Report], node: _Node, index: int, task: _Task) -> _Report:
        """The task's report, or the error that names it."""
        try:
            return future.result()
        except BrokenProcessPool as err:
            raise self._error(
                WorkerLostError, "a worker process died", node, index, task, repr(err)
            ) from None
        except _TaskFailed as err:
            raise self._error(
                ParallelSearchError, err.summary, node, index, task, err.trace
            ) from None
        except cf.CancelledError:
            raise
        except Exception as err:  # an executor's own failure, e.g. MPI
            raise self._error(
                ParallelSearchError,
                f"{type(err).__name__}: {err}",
                node,
                index,
                task,
                traceback.format_exc(),
            ) from None

    def _error(
        self,
        kind: type[ParallelSearchError],
        what: str,
        node: _Node,
        index: int,
        task: _Task,
        detail: str,
    ) -> ParallelSearchError:
        root = self.root.state if self.root is not None else task.state
        moves = " ".join(self._path(node, index))
        message = (
            f"{what} in the task searching {str(task.state)!r} (moves {moves} from {str(root)!r})"
        )
        return kind(message, root=str(root), moves=moves, position=str(task.state), detail=detail)

    def _path(self, node: _Node, index: int) -> tuple[str, ...]:
        """The moves from the root to the move at ``index`` of ``node``, in notation."""
        moves_list = [*node.path, node.moves[index]] if index >= 0 else list(node.path)
        position = self.root.state if self.root is not None else node.state
        texts = []
        for move in moves_list:
            texts.append(position.move_text(move))
            position = position.play(move)
        return tuple(texts)

    def _count(
        self,
        report: _Report,
        round_trip: float | None,
        sent: float = math.nan,
        moves: tuple[str, ...] = (),
    ) -> None:
        totals = self.totals
        totals.nodes += report.nodes
        totals.hits += report.hits
        totals.cutoffs += report.cutoffs
        totals.horizon += report.horizon
        totals.seldepth = max(totals.seldepth, report.seldepth)
        self.owner.task_log.append(
            TaskStats(
                report.nodes,
                report.seconds,
                report.cpu,
                round_trip or math.nan,
                report.worker,
                sent,
                moves,
            )
        )

    def _child_done(self, node: _Node, index: int, value: int, line: list[Move]) -> None:
        """The move at ``index`` of ``node`` has ``value`` (from the child's side to move);
        so have the moves waiting on it (siblings whose position has the same table key)."""
        while True:
            if node.done:
                node.active -= 1 + len(node.followers.pop(index, ()))
                return
            node.known[index] = (value, node.windows.get(node.moves[index], -INFINITY))
            cut = self._record(node, index, value, line)
            for other in node.followers.pop(index, ()):
                if not cut:
                    if node.parent is None:
                        node.windows[node.moves[other]] = node.windows[node.moves[index]]
                    cut = self._record(node, other, value, [])
                else:
                    node.active -= 1
            if not cut and (node.next < len(node.moves) or node.active > 0):
                return
            self._finish(node)
            if node.parent is None:
                return
            node, index, value, line = node.parent, node.index, node.best, node.best_line

    @staticmethod
    def _record(node: _Node, index: int, value: int, line: list[Move]) -> bool:
        """Note one move's value in ``node``; True on a cut-off."""
        node.active -= 1
        move = node.moves[index]
        score = value if index in node.same else -value
        if index == 0:
            node.first_done = True
        if node.parent is None:
            node.values[move] = score
            if score > node.windows[move]:
                node.lines[move] = [move, *line]
        if score > node.best:
            node.best = score
            node.best_line = [move, *line]
        return node.parent is not None and score >= node.beta

    def _finish(self, node: _Node) -> None:
        """``node`` has its value: cancel what is still out below it."""
        node.done = True
        if node in self.open:
            self.open.remove(node)
        if node.best_line:
            self.owner._hints[node.key] = node.best_line[0]
        stack = list(node.children)
        while stack:
            child = stack.pop()
            if not child.done:
                child.done = True
                if child in self.open:
                    self.open.remove(child)
                stack.extend(child.children)
        below = {id(n) for n in self._subtree(node)}
        for future, (owner, _index, _task, _sent) in list(self.pending.items()):
            if id(owner) in below:
                del self.pending[future]
                if not future.cancel():
                    self.stray.add(future)

    @staticmethod
    def _subtree(node: _Node) -> Iterator[_Node]:
        stack = [node]
        while stack:
            current = stack.pop()
            yield current
            stack.extend(current.children)

    # --- the game's own solver ------------------------------------------------------------

    def solve_children(self, state: State, *, weak: bool) -> dict[Move, int]:
        """Every move's exact value, from the root's side to move and counted from the root
        (with ``weak``, only its sign), each move solved in its own task by the game's own
        solver."""
        executor = self.owner.executor()
        root = _Node(None, -1, state, (), UNLIMITED, -INFINITY, INFINITY, 0)
        root.moves = list(state.legal_moves())
        self.root = root
        values: dict[Move, int] = {}
        queue: list[int] = []
        for index, move in enumerate(root.moves):
            child = state.play(move)
            outcome = child.outcome()
            if outcome is None:
                queue.append(index)
                continue
            value = self.engine.terminal_value(child, outcome.winner, 1)
            values[move] = value if child.to_move == state.to_move else -value
        while queue or self.pending:
            while queue and len(self.pending) < self.workers:
                index = queue.pop(0)
                child = state.play(root.moves[index])
                self._send(
                    executor,
                    root,
                    index,
                    child,
                    UNLIMITED,
                    -INFINITY,
                    INFINITY,
                    1,
                    solver=True,
                    weak=weak,
                )
            finished, _ = cf.wait(list(self.pending), return_when=cf.FIRST_COMPLETED)
            for future in finished:
                node, index, task, sent = self.pending.pop(future)
                report = self._report(future, node, index, task)
                self._count(report, time.perf_counter() - sent)
                value = report.value  # counted from the root (ply 1 is the child)
                if report.solved:
                    if weak:
                        value = (value > 0) - (value < 0)
                    else:
                        value = from_table(value_from_solve_score(task.state, value), 1)
                value = (value > 0) - (value < 0) if weak else value
                same = task.state.to_move == state.to_move
                values[root.moves[index]] = value if same else -value
        return values

    def drain(self) -> None:
        """Forget tasks still out (cancelling those not started)."""
        for future in [*self.pending, *self.stray]:
            future.cancel()
        self.pending.clear()
        self.stray.clear()


def _whole_error(
    kind: type[ParallelSearchError], what: str, state: State, detail: str
) -> ParallelSearchError:
    return kind(
        f"{what} in the task solving {str(state)!r}",
        root=str(state),
        moves="",
        position=str(state),
        detail=detail,
    )


def parallel_search(
    state: State,
    limits: Limits | None = None,
    *,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    analyse: bool = False,
    **options: Any,
) -> SearchResult:
    """Search ``state`` with a fresh :class:`ParallelSearcher` (see it for the options)."""
    with ParallelSearcher(workers, executor=executor, **options) as searcher:
        return searcher.search(state, limits, analyse=analyse)


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
