"""The worker side of the parallel search: what a task is, and how a worker process runs it.

Every worker process keeps one transposition table per searcher (a *session*), created the
first time that searcher's task reaches the process, across all the tasks it runs and across
searches; it keeps the tables of at most :data:`WORKER_TABLES` sessions.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass, replace

from ...game import FIRST, Move, SolveRequest, State
from .. import policy
from ..driver import Searcher
from ..engine import Engine, SearchStopped
from ..numeric import too_deep
from ..options import Limits, SearchOptions
from ..pv import principal_variation
from ..result import SearchResult
from ..score import solve_score, to_table
from ..stack import alphabeta_stack
from .watch import Line, announce, finished, where_am_i

__all__ = [
    "WORKER_TABLES",
    "Report",
    "Task",
    "TaskConfig",
    "TaskFailed",
    "TaskStats",
    "init_worker",
    "run_task",
]

#: A worker process keeps the transposition tables of at most this many searchers.
WORKER_TABLES = 2


@dataclass(frozen=True)
class TaskConfig:
    """What every task of one search shares: the searcher's session and options, and the
    algorithm chosen for the position."""

    session: str
    options: SearchOptions
    algorithm: str


@dataclass(frozen=True)
class Task:
    """Search ``state`` with this window to this depth (or solve it whole)."""

    config: TaskConfig
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
    me: int = 0  # a numeric search's split root's side to move (the paranoid search's player)


@dataclass(frozen=True)
class TaskStats:
    """What one task cost (see :attr:`.ParallelSearcher.task_log`)."""

    nodes: int
    seconds: float  #: wall-clock time spent on the task in the worker
    cpu: float  #: processor time spent on it in the worker
    round_trip: float  #: from sending the task to receiving its result, in the manager
    worker: int  #: the worker's process id (MPI: the process id on its host)
    sent: float = math.nan  #: when the task was sent, in seconds from the search's start
    moves: tuple[str, ...] = ()  #: the task's position: its moves from the root, in notation
    iteration: int = 0  #: the depth of the iteration it belongs to (0: not a split search's)
    host: str = ""  #: the worker's host name
    rank: int | None = None  #: the worker's MPI rank (None outside MPI)


@dataclass(frozen=True)
class Report:
    """A task's answer: its value (counted from the manager's root) and what it cost."""

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
    number: float = 0.0  # a numeric search's value (policy.RUNNERS: chance, more players)
    vector: tuple[float, ...] | None = None  # ... and its value to every player
    host: str = ""
    rank: int | None = None
    result: SearchResult | None = None  # an algorithm of its own's answer (policy.RUNNERS)


class TaskFailed(Exception):
    """A task raised in its worker: the summary and the worker's traceback."""

    def __init__(self, summary: str, trace: str) -> None:
        super().__init__(summary, trace)  # the arguments are what pickling carries back
        self.summary = summary
        self.trace = trace


#: Per worker process: the searchers (one per session), least recently used first.
_SEARCHERS: OrderedDict[str, Searcher] = OrderedDict()


def _searcher(config: TaskConfig, state: State) -> Searcher:
    """This worker's searcher for the session, its table emptied if ``state`` is of another
    game than the last task's."""
    searcher = _SEARCHERS.pop(config.session, None)
    if searcher is None:
        searcher = Searcher(options=config.options)
    searcher.switch_game(state)
    _SEARCHERS[config.session] = searcher
    while len(_SEARCHERS) > WORKER_TABLES:
        _SEARCHERS.popitem(last=False)
    return searcher


def init_worker(manager: int | None = None) -> None:
    """Initializer of the local pool's processes (pass it to a pool of your own too).

    Ctrl-C is the manager's to handle (it terminates the workers), so a worker ignores SIGINT.
    A worker whose manager has died exits within a second: ``manager`` is the manager's
    process id, handed over when the pool is made (read here with :func:`os.getppid` it could
    already be that of the process that adopted an orphan). A worker also starts a session of
    its own, as MPI ranks do: where Linux groups the scheduling of a session's processes
    (autogroup), the workers would otherwise share one process's part of a busy machine.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.setsid()
    parent = manager if manager is not None else os.getppid()
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    """End this worker process once its parent has gone."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def run_task(task: Task, line: Line | None = None) -> Report:
    """Run one task in a worker. Any exception comes back as :class:`TaskFailed`. ``line``: a
    watched executor's (see :mod:`.watch`), where the worker names the task it starts."""
    if line is not None:
        announce(line)
    try:
        report = _run(task)
    except Exception as err:
        raise TaskFailed(f"{type(err).__name__}: {err}", traceback.format_exc()) from None
    finally:
        if line is not None:
            finished(line)
    me = where_am_i()
    return replace(report, host=me.host, rank=me.rank)


def _run(task: Task) -> Report:
    start = time.perf_counter()
    cpu = time.process_time()
    state = task.state
    options = task.config.options
    if task.whole:
        return _solve_whole(task, start, cpu)
    if task.config.algorithm in policy.ROOT_PARALLEL:
        return _run_own(task, start, cpu)
    if task.config.algorithm in policy.RUNNERS:
        return _run_numeric(task, start, cpu)
    if task.solver:
        score = state.solver_value(_one_thread(options, task.weak))
        if score is not None:
            return Report(
                score, (), 1, 0, 0, 0, 0, time.perf_counter() - start,
                time.process_time() - cpu, False, os.getpid(), True,
            )
        task = replace(task, solver=False)
    algorithm = task.config.algorithm
    engine = Engine(
        table=_searcher(task.config, state).table,
        symmetry=options.symmetry,
        hints=options.hints and algorithm.startswith("alphabeta"),
        evaluate=options.evaluate,
        order=options.order,
        deadline=start + task.seconds if task.seconds is not None else None,
        max_nodes=task.max_nodes,
        features=options.features_for(state, algorithm),
    )
    stopped = False
    value = 0
    try:
        value = _search(engine, algorithm, task)
    except SearchStopped:
        stopped = True
    line: tuple[Move, ...] = ()
    if not stopped:
        own = to_table(value, task.ply)  # the value counted from the task's position
        line = principal_variation(state, engine, engine.line(task.ply), task.depth, own)
    return Report(
        value, line, engine.nodes, engine.hits, engine.cutoffs, engine.horizon, engine.seldepth,
        time.perf_counter() - start, time.process_time() - cpu, stopped, os.getpid(),
    )


def _run_own(task: Task, start: float, cpu: float) -> Report:
    """An algorithm of its own (:data:`.policy.RUNNERS`) run whole on the task's position under
    the task's time and node limits, every move analyzed (for the merge)."""
    limits = Limits(time=task.seconds, nodes=task.max_nodes)
    run = policy.RUNNERS[task.config.algorithm]
    *_, result = run(task.state, limits, task.config.options, True, None)
    return Report(
        0, result.pv, result.nodes, result.table_hits, result.cutoffs, result.evaluations,
        result.seldepth, time.perf_counter() - start, time.process_time() - cpu, False,
        os.getpid(), result=result,
    )


def _run_numeric(task: Task, start: float, cpu: float) -> Report:
    """A task of a numeric search (games of chance, of more players): its position searched
    whole by the runner's own search, with this worker's table where the runner shares one."""
    runner = policy.RUNNERS[task.config.algorithm]
    table = None
    if getattr(runner, "shares_table", False):
        table = _searcher(task.config, task.state).table
    stopped = False
    found = None
    try:
        found = runner.subtree(  # type: ignore[attr-defined]
            task.state,
            task.depth,
            task.config.options,
            deadline=start + task.seconds if task.seconds is not None else None,
            max_nodes=task.max_nodes,
            table=table,
            me=task.me,
        )
    except SearchStopped:
        stopped = True
    except RecursionError:
        raise ValueError(too_deep(task.config.algorithm, task.depth)) from None
    seconds, used = time.perf_counter() - start, time.process_time() - cpu
    if found is None:
        return Report(0, (), 0, 0, 0, 0, 0, seconds, used, stopped, os.getpid())
    return Report(
        0, found.line, found.nodes, found.hits, found.cutoffs, found.horizon, found.seldepth,
        seconds, used, stopped, os.getpid(), number=found.value, vector=found.vector,
    )


def _one_thread(options: SearchOptions, weak: bool) -> SolveRequest:
    """A request to a game's own solver in a worker: one thread unless told otherwise (the
    workers already use every core)."""
    return replace(options.solve_request(weak=weak), threads=options.threads or 1)


def _search(engine: Engine, algorithm: str, task: Task) -> int:
    state = task.state
    if algorithm == "alphabeta":
        return engine.alphabeta(state, task.depth, task.alpha, task.beta, task.ply)
    if algorithm == "alphabeta-stack":
        return alphabeta_stack(engine, state, task.depth, task.alpha, task.beta, task.ply)
    if algorithm == "negamax":
        return engine.negamax(state, task.depth, task.ply)
    value = engine.minimax(state, task.depth, task.ply)
    return value if state.to_move == FIRST else -value


def _solve_whole(task: Task, start: float, cpu: float) -> Report:
    """The solve-convention score of the task's position, as :func:`.driver.solve` gives it
    (the game's own solver, else an exact search with this worker's table)."""
    state, weak = task.state, task.weak
    options = task.config.options
    score = None
    nodes = hits = cutoffs = 0
    if policy.uses_solver(options, state):
        score = state.solver_value(_one_thread(options, weak))
    if score is None:
        searcher = Searcher(options=options.__class__.make(options, table=False))
        searcher.table = _searcher(task.config, state).table  # this worker's session table
        result = searcher.search(state)
        score = solve_score(state, result.score)
        nodes, hits, cutoffs = result.nodes, result.table_hits, result.cutoffs
    if weak:
        score = (score > 0) - (score < 0)
    return Report(
        score, (), nodes, hits, cutoffs, 0, 0, time.perf_counter() - start,
        time.process_time() - cpu, False, os.getpid(), True,
    )
