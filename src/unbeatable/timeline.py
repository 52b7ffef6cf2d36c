"""A parallel search's task log, explained: what each worker did and when, the speed-up over
the serial search of the same position and why it is what it is.

:func:`timeline` reads :attr:`~unbeatable.search.ParallelSearcher.task_log` (one
:class:`~unbeatable.search.parallel.TaskStats` per task: its moves from the root, when it was
sent, its time in the worker and its round trip, its nodes, its worker and iteration) and
derives, without searching: each worker's busy and idle time; the speed-up and the extra work
beside a serial search; and, for each task, the elder brother it waited for. The split search
(:mod:`unbeatable.search.parallel.split`) hands a node's later moves (its young brothers) out
only once its first move's value is back, to bound them; so a task whose siblings' first
subtree came back just before it was sent waited for that elder brother.

:func:`unbeatable.drawing.timeline_svg` and :func:`unbeatable.drawing.split_svg` draw it: the
web page's parallel view and the notebook show these pictures and :meth:`Timeline.explain`'s
sentences.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .display import show
from .search.parallel import TaskStats

__all__ = ["TaskBar", "Timeline", "timeline"]


@dataclass(frozen=True)
class TaskBar:
    """One task of the search: ``index`` in the order sent (its colour), ``lane`` its worker
    (0, 1, ... in the order the workers were first used), ``moves`` from the root, ``sent``
    and the times in seconds from the search's start, ``waited_for`` the moves of the elder
    brother whose result it waited for (None: none, or the first move of its node) and
    ``elder_done`` when that came back."""

    index: int
    lane: int
    moves: tuple[str, ...]
    sent: float
    seconds: float
    round_trip: float
    nodes: int
    waited_for: tuple[str, ...] | None = None
    elder_done: float | None = None

    @property
    def end(self) -> float:
        """When its result was back in the manager."""
        return self.sent + self.round_trip


@dataclass(frozen=True)
class Timeline:
    """A parallel search's tasks (its last iteration's; ``earlier``: the tasks of an iteration
    before it, a presearch ``earlier_iteration`` plies deep), its ``workers``, its time
    (``elapsed``) and nodes, and the serial search of the same position (``serial`` seconds and
    ``serial_nodes``; None when not measured). ``startup``: seconds spent starting the worker
    processes before the search (None when not measured)."""

    tasks: list[TaskBar]
    workers: int
    elapsed: float
    nodes: int
    depth: int
    earlier: list[TaskBar] = field(default_factory=list)
    serial: float | None = None
    serial_nodes: int | None = None
    startup: float | None = None
    earlier_iteration: int = 0

    def _repr_svg_(self) -> str | None:
        """The timeline as a picture, in Jupyter (:func:`unbeatable.drawing.timeline_svg`)."""
        return show("timeline", self)

    def busy(self) -> list[float]:
        """Each worker's time in its tasks, a presearch's included (seconds)."""
        found = [0.0] * self.workers
        for task in [*self.earlier, *self.tasks]:
            if task.lane < self.workers:
                found[task.lane] += task.seconds
        return found

    def idle(self) -> list[float]:
        """Each worker's time without a task during the search (seconds)."""
        return [max(0.0, self.elapsed - busy) for busy in self.busy()]

    @property
    def speedup(self) -> float | None:
        """The serial search's time over the parallel one's."""
        if self.serial is None or self.elapsed <= 0:
            return None
        return self.serial / self.elapsed

    @property
    def first_sent(self) -> float:
        return min((task.sent for task in self.tasks), default=0.0)

    def waited(self) -> list[TaskBar]:
        """The tasks that waited for an elder brother."""
        return [task for task in self.tasks if task.waited_for is not None]

    def explain(self) -> list[str]:
        """Why the picture looks as it does, in sentences."""
        ms = _ms
        said: list[str] = []
        head = (
            f"{self.workers} worker{'s' if self.workers != 1 else ''}, {len(self.tasks)} tasks, "
            f"{self.nodes:,} nodes in {ms(self.elapsed)}"
        )
        if self.serial is not None and self.serial_nodes is not None:
            speed = self.speedup or 0.0
            head += (
                f"; the serial search of the same position took {ms(self.serial)} "
                f"({self.serial_nodes:,} nodes): a speed-up of {speed:.2f}x"
            )
            if self.serial_nodes:
                head += f", with {self.nodes / self.serial_nodes:.2f} times the serial work"
        said.append(head + ".")
        if self.tasks and self.speedup is not None and self.speedup < 1:
            work = sum(task.seconds for task in self.tasks) / len(self.tasks)
            trip = sum(task.round_trip - task.seconds for task in self.tasks) / len(self.tasks)
            if work < trip:
                said.append(
                    f"The tasks are small ({ms(work)} of work each on average, against "
                    f"{ms(trip)} to send one and get its result back): here sending costs more "
                    "than sharing saves. A deeper search makes larger tasks."
                )
            else:
                said.append(
                    "Slower than the serial search: on a search this short, the extra work "
                    "(the workers' tables are not shared, and a bound reaches a task only once "
                    f"its elder brother is back), the waits and the {ms(trip)} each task spends "
                    "travelling outweigh what sharing saves. A deeper search gains more."
                )
        if self.startup is not None:
            said.append(
                f"Starting the {self.workers} worker processes took {ms(self.startup)} before "
                "the search (not in the chart: they are kept for the searches that follow)."
            )
        if self.earlier:
            said.append(
                f"First, in grey: a search {self.earlier_depth} plies deep "
                f"({len(self.earlier)} tasks, until {ms(max(t.end for t in self.earlier))}) "
                "to order the root moves and fill the workers' tables (a presearch); the "
                f"search to depth {self.depth} follows."
            )
        if self.tasks:
            first = min(self.tasks, key=lambda task: task.sent)
            start = "Then, until its first task" if self.earlier else "Until the first task"
            said.append(
                f"{start} ({ms(self.first_sent)}), the manager walks down "
                "the principal variation, splitting each node on it: young brothers wait, so "
                f"the first task is the first move deepest on that line ({' '.join(first.moves)})"
                ", and a node's other moves go out only once its first move's value is back to "
                "bound them."
            )
        waited = self.waited()
        if waited:
            example = waited[0]
            assert example.waited_for is not None and example.elder_done is not None
            said.append(
                f"{len(waited)} task{'s' if len(waited) != 1 else ''} waited for an elder "
                f"brother (marked in the table): {' '.join(example.moves)} was sent at "
                f"{ms(example.sent)}, once {' '.join(example.waited_for)} had come back "
                f"({ms(example.elder_done)})."
            )
        busy = self.busy()
        if self.elapsed > 0 and busy:
            shares = ", ".join(
                f"worker {lane + 1} {ms(value)} ({100 * value / self.elapsed:.0f} %)"
                for lane, value in enumerate(busy)
            )
            said.append(
                f"Busy: {shares} of the {ms(self.elapsed)}; the rest is idle, waiting while "
                "young brothers wait and while tasks travel."
            )
        return said

    @property
    def earlier_depth(self) -> int:
        return self.earlier_iteration


def _ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.1f} ms" if value < 100 else f"{value:,.0f} ms"


def timeline(
    task_log: Sequence[TaskStats],
    elapsed: float,
    *,
    workers: int,
    nodes: int,
    serial: float | None = None,
    serial_nodes: int | None = None,
    startup: float | None = None,
) -> Timeline:
    """The :class:`Timeline` of a parallel search: its task log, its time (``elapsed``), its
    ``workers`` and ``nodes``; ``serial`` and ``serial_nodes`` from a serial search of the
    same position; ``startup`` the seconds spent starting the workers beforehand."""
    known = sorted(
        (task for task in task_log if not math.isnan(task.sent)), key=lambda task: task.sent
    )
    depth = max((task.iteration for task in known), default=0)
    lanes: dict[int, int] = {}
    for task in known:
        lanes.setdefault(task.worker, len(lanes))

    def bars(tasks: list[TaskStats]) -> list[TaskBar]:
        return [
            TaskBar(
                index,
                lanes[task.worker],
                tuple(task.moves),
                task.sent,
                task.seconds,
                task.round_trip if not math.isnan(task.round_trip) else task.seconds,
                task.nodes,
            )
            for index, task in enumerate(tasks)
        ]

    last = [task for task in known if task.iteration == depth]
    earlier = [task for task in known if task.iteration != depth]
    return Timeline(
        _elders(bars(last)),
        max(workers, len(lanes)),
        elapsed,
        nodes,
        depth,
        bars(earlier),
        serial,
        serial_nodes,
        startup,
        max((task.iteration for task in earlier), default=0),
    )


def _elders(bars: list[TaskBar]) -> list[TaskBar]:
    """Each task with the elder brother it waited for: at the node its moves leave (its path
    less its last move), the subtree sent first is the elder; a later sibling's task sent after
    that subtree's last result came back waited for it."""
    found: list[TaskBar] = []
    for bar in bars:
        if not bar.moves:
            found.append(bar)
            continue
        node = bar.moves[:-1]
        depth = len(bar.moves)
        subtrees: dict[tuple[str, ...], list[TaskBar]] = {}
        for other in bars:
            if len(other.moves) >= depth and other.moves[: depth - 1] == node:
                subtrees.setdefault(other.moves[:depth], []).append(other)
        elder_key = min(subtrees, key=lambda key: min(t.sent for t in subtrees[key]))
        if elder_key == bar.moves[:depth]:
            found.append(bar)
            continue
        done = max(t.end for t in subtrees[elder_key])
        if bar.sent + 1e-9 >= done:
            found.append(
                TaskBar(
                    bar.index,
                    bar.lane,
                    bar.moves,
                    bar.sent,
                    bar.seconds,
                    bar.round_trip,
                    bar.nodes,
                    elder_key,
                    done,
                )
            )
        else:
            found.append(bar)
    return found
