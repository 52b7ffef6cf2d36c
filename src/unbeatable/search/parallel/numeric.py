"""The parallel root of the searches that are not iterations of the alpha-beta engine (games
of chance, of more than two players: :data:`..policy.RUNNERS`): each iteration hands every
root move (every outcome, at a chance node) to the workers as one task, searched whole by the
runner's own search (:meth:`subtree`) with the full window and the worker's table, and puts
the answers together as the serial root does: the best move (the first in order among equal
ones), or the expectation. The values are the serial search's; the root's moves share no
window (each is searched exactly), so a player's search may visit more nodes than the serial
one, and an analysis (every move exactly) the same."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from ...game import Move, State
from ..engine import SearchStopped
from ..numeric import Iteration, ranked
from ..options import SearchOptions
from ..result import UNLIMITED
from .pool import Tasks, Where, WorkerPool
from .worker import Task, TaskConfig, TaskStats

__all__ = ["NumericCounters", "ParallelNumericRoot"]


class NumericCounters:
    """What a split numeric search counted, summed over its tasks."""

    def __init__(self) -> None:
        self.nodes = 0
        self.hits = 0
        self.cutoffs = 0
        self.horizon = 0
        self.seldepth = 0


class ParallelNumericRoot:
    """A numeric search's root (see :class:`..numeric.Root`) split over the workers."""

    def __init__(
        self,
        pool: WorkerPool,
        config: TaskConfig,
        state: State,
        options: SearchOptions,
        *,
        deadline: float | None,
        max_nodes: int | None,
        stop: threading.Event | None,
        task_log: list[TaskStats],
        start: float,
    ) -> None:
        self.pool = pool
        self.config = config
        self.state = state
        self.order = options.tie_order(state)
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.stop = stop
        self.task_log = task_log
        self.start = start
        self.totals = NumericCounters()
        self.current: Iteration | None = None

    @property
    def counters(self) -> NumericCounters:
        return self.totals

    def _left(self) -> tuple[float | None, int | None]:
        """The time and nodes a task may still take; SearchStopped when none are left."""
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - time.perf_counter()
            if seconds <= 0:
                raise SearchStopped
        nodes = None
        if self.max_nodes is not None:
            nodes = self.max_nodes - self.totals.nodes
            if nodes <= 0:
                raise SearchStopped
        if self.stop is not None and self.stop.is_set():
            raise SearchStopped
        return seconds, nodes

    def iteration(self, depth: int, analyze: bool) -> Iteration:
        state = self.state
        self.totals.nodes += 1  # the root
        self.current = None
        moves: Sequence[Move] = list(state.legal_moves())
        below = depth if state.is_chance or depth == UNLIMITED else depth - 1
        tasks: Tasks[Move] = Tasks(
            self.pool, lambda move, task: Where(str(state), state.move_text(move), str(task.state))
        )
        found: dict[Move, tuple[float, tuple[float, ...] | None, tuple[Move, ...]]] = {}
        horizon = self.totals.horizon
        try:
            seconds, nodes = self._left()
            for move in moves:
                task = Task(self.config, state.play(move), below, 0, 0, 1, seconds, nodes,
                            me=state.to_move)
                tasks.submit(task, move)
            while tasks:
                timeout = 0.05 if self.stop is not None else None
                for done in tasks.wait(timeout):
                    report = done.report
                    self._count(done.sent, report, done.task, done.tag)
                    if report.stopped:
                        raise SearchStopped
                    assert done.tag is not None
                    found[done.tag] = (report.number, report.vector, report.line)
                if self.stop is not None and self.stop.is_set():
                    raise SearchStopped
                if self.deadline is not None and time.perf_counter() > self.deadline + 0.5:
                    raise SearchStopped
        finally:
            tasks.drain()
        exact = self.totals.horizon == horizon
        return self._put_together(found, exact)

    def _count(self, sent: float, report: object, task: Task | None, move: Move | None) -> None:
        totals = self.totals
        totals.nodes += report.nodes  # type: ignore[attr-defined]
        totals.hits += report.hits  # type: ignore[attr-defined]
        totals.cutoffs += report.cutoffs  # type: ignore[attr-defined]
        totals.horizon += report.horizon  # type: ignore[attr-defined]
        totals.seldepth = max(totals.seldepth, report.seldepth + 1)  # type: ignore[attr-defined]
        moves = () if move is None else (self.state.move_text(move),)
        self.task_log.append(
            TaskStats(
                report.nodes, report.seconds, report.cpu,  # type: ignore[attr-defined]
                time.perf_counter() - sent, report.worker,  # type: ignore[attr-defined]
                sent - self.start, moves,
            )
        )

    def _put_together(
        self,
        found: dict[Move, tuple[float, tuple[float, ...] | None, tuple[Move, ...]]],
        exact: bool,
    ) -> Iteration:
        state = self.state
        me = state.to_move
        values: dict[Move, float] = {}
        vectors: dict[Move, tuple[float, ...]] = {}
        for move, (number, vector, _) in found.items():
            child = state.play(move)
            if self.config.algorithm == "paranoid":
                values[move] = number
            elif self.config.algorithm == "maxn" and vector is not None:
                values[move] = vector[me]
            else:
                values[move] = number if child.to_move == me else -number
            if vector is not None:
                vectors[move] = vector
        if state.is_chance:
            value = sum(float(p) * values[m] for m, p in state.chance_outcomes())
            vector = None
            if len(vectors) == len(values):
                width = len(next(iter(vectors.values())))
                vector = tuple(
                    sum(float(p) * vectors[m][i] for m, p in state.chance_outcomes())
                    for i in range(width)
                )
            return Iteration(value, exact, values, (), (), vector, vectors or None)
        value, best = ranked(self.order, values)
        line = (best[0], *found[best[0]][2])
        return Iteration(value, exact, values, best, line, vectors.get(best[0]), vectors or None)

    def partial(self) -> Iteration | None:
        return self.current

    def fallback(self) -> Move | None:
        if self.state.is_chance:
            return None
        return next(iter(self.state.legal_moves()))
