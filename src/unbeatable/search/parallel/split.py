"""The split search: one iteration of the tree shared out over the workers.

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
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from typing import Any

from ...game import Move, State
from ..engine import Engine, SearchStopped
from ..result import UNLIMITED
from ..score import INFINITY, from_table, value_from_solve_score
from .node import Node, Totals
from .pool import Done, Tasks, Where, WorkerPool
from .worker import Report, Task, TaskConfig, TaskStats

__all__ = ["MAX_HINTS", "Run", "Totals"]

#: The manager remembers the best moves of at most about this many split nodes.
MAX_HINTS = 1 << 16


class Run:
    """One search's traffic with the workers: the split tree of an iteration, the tasks out,
    and the totals.

    ``hints``: the best moves of split nodes, kept by the searcher from search to search;
    ``task_log``: where each task's cost is written.
    """

    def __init__(
        self,
        pool: WorkerPool,
        config: TaskConfig,
        *,
        hints: dict[Any, Move],
        task_log: list[TaskStats],
        split_depth: int,
        deadline: float | None,
        max_nodes: int | None,
        stop: threading.Event | None = None,
    ) -> None:
        self.stop = stop
        self.config = config
        self.hints = hints
        self.task_log = task_log
        self.split_depth = split_depth
        self.began = time.perf_counter()
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.totals = Totals()
        options = config.options
        self.use_hints = options.hints and config.algorithm.startswith("alphabeta")
        self.engine = Engine(
            table=None,
            symmetry=options.symmetry,
            hints=self.use_hints,
            evaluate=options.evaluate,
            order=options.order,
            deadline=None,
            max_nodes=None,
        )
        self.workers = pool.workers
        self.tasks: Tasks[tuple[Node, int]] = Tasks(pool, self._where)
        self.open: list[Node] = []  # split nodes with moves to hand out
        self.root: Node | None = None
        self.analyze = False
        self.depth = 0  # the iteration's depth, for the task log

    # --- one iteration --------------------------------------------------------------------

    def iteration(self, state: State, depth: int, analyze: bool) -> Node:
        """Search ``state`` to ``depth``; return the finished root (its moves' values)."""
        self.analyze = analyze
        self.depth = depth
        self.totals.nodes += 1
        root = Node(None, -1, state, (), depth, -INFINITY, INFINITY, 0)
        root.moves = list(self.engine.ordered(state, self.hints.get(self._key(state))))
        root.key = self._key(state)
        self.root = root
        self.open = [root]
        while not root.done:
            while len(self.tasks) < self.workers:
                if not self._hand_out():
                    break
            if root.done:
                break
            if not self.tasks:
                raise AssertionError("the split tree stalled")  # every node has work or is done
            timeout = None
            if self.deadline is not None:
                timeout = max(0.0, self.deadline - time.perf_counter()) + 0.5
            if self.stop is not None:  # look at the stop flag at least every 50 ms
                timeout = 0.05 if timeout is None else min(timeout, 0.05)
            finished = self.tasks.wait(timeout)
            if self.stop is not None and self.stop.is_set():
                raise SearchStopped
            if not finished:  # a wait cut short to look at the stop flag, or the deadline
                if self.deadline is not None and time.perf_counter() >= self.deadline + 0.5:
                    raise SearchStopped
                continue
            for done in finished:
                self._receive(done)
        top = max(root.values, key=lambda m: root.values[m])
        if len(self.hints) > MAX_HINTS:
            self.hints.clear()
        self.hints[root.key] = top
        return root

    def _key(self, state: State) -> Any:
        return self.engine.key(state)

    def line_engine(self) -> Engine:
        """An engine for completing an exact line in this process (see
        :func:`..pv.complete_line`): the search's options, deadline and stop flag."""
        options = self.config.options
        return Engine(
            table=None,
            symmetry=options.symmetry,
            hints=True,
            evaluate=None,
            order=None,
            deadline=self.deadline,
            max_nodes=None,
            stop=self.stop,
        )

    def _child_window(self, node: Node) -> tuple[int, int]:
        """The window of ``node``'s next move, from ``node``'s side to move."""
        if node.parent is None:
            if self.analyze or node.best == -INFINITY:
                return -INFINITY, INFINITY
            return node.best - 1, INFINITY
        return max(node.alpha, node.best), node.beta

    def _hand_out(self) -> bool:
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
            self._send(node, index, child, node.depth - 1, -beta, -alpha, node.ply + 1)
            return True

    def _ready(self) -> Node | None:
        """The deepest open node that may hand out its next move (young brothers wait)."""
        chosen = None
        for node in self.open:
            if node.done or node.next >= len(node.moves):
                continue
            if node.next > 0 and not node.first_done and not (self.analyze and node is self.root):
                continue
            if chosen is None or node.ply > chosen.ply:
                chosen = node
        return chosen

    def _splits(self, node: Node, child: State, index: int, remaining: int) -> bool:
        """Whether the move at ``index`` of ``node`` becomes a split node rather than a task."""
        if self.config.algorithm in ("minimax", "negamax") or child.outcome() is not None:
            return False
        left = node.depth - 1
        if child.max_plies is not None:
            left = min(left, child.max_plies - child.ply)
        elif node.depth >= UNLIMITED - 1000:
            return False  # no depth limit and no bound on the game's length: unknown size
        if left < self.split_depth:
            return False
        on_pv = index == 0 and (node.parent is None or node.index == 0 or node.parent.done)
        return on_pv or remaining < self.workers

    def _split(
        self, parent: Node, index: int, state: State, path: tuple[Move, ...], alpha: int, beta: int
    ) -> Node | None:
        """A split node for ``state``; None if its value was known at once (and reported)."""
        ply = parent.ply + 1
        depth = parent.depth - 1
        engine = self.engine
        self.totals.nodes += 1
        # the node's prologue is the engine's own (a finished game, mate distance, an
        # immediate win; the manager's engine has no table and its depth is never 0 here)
        value, _, _, _ = engine.enter(state, depth, alpha, beta, ply)
        self.totals.seldepth = max(self.totals.seldepth, engine.seldepth)
        if value is not None:
            self._child_done(parent, index, value, list(engine.line(ply)))
            return None
        node = Node(parent, index, state, path, depth, alpha, beta, ply)
        node.key = self._key(state)
        node.moves = list(engine.ordered(state, self.hints.get(node.key)))
        if not node.moves:
            raise ValueError(f"{state!r} has no legal moves but the game has not ended")
        self.open.append(node)
        return node

    def _send(
        self,
        node: Node,
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
                raise SearchStopped
        nodes = None
        if self.max_nodes is not None:
            nodes = self.max_nodes - self.totals.nodes
            if nodes <= 0:
                raise SearchStopped
        task = Task(self.config, state, depth, alpha, beta, ply, seconds, nodes, solver, weak)
        self.tasks.submit(task, (node, index))

    def _receive(self, done: Done[tuple[Node, int]]) -> None:
        if done.stray or done.tag is None:
            self._count(done.report, None)
            return
        node, index = done.tag
        report = done.report
        self._count(report, time.perf_counter() - done.sent, done.sent - self.began,
                    self._path(node, index))
        if report.stopped:
            raise SearchStopped
        if self.max_nodes is not None and self.totals.nodes >= self.max_nodes:
            raise SearchStopped
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchStopped
        self._child_done(node, index, report.value, list(report.line))

    def _where(self, tag: tuple[Node, int], task: Task) -> Where:
        """Where a task is, to name it in an error."""
        node, index = tag
        root = self.root.state if self.root is not None else task.state
        return Where(str(root), " ".join(self._path(node, index)), str(task.state))

    def _path(self, node: Node, index: int) -> tuple[str, ...]:
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
        report: Report,
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
        self.task_log.append(
            TaskStats(
                report.nodes,
                report.seconds,
                report.cpu,
                round_trip or math.nan,
                report.worker,
                sent,
                moves,
                self.depth,
                report.host,
                report.rank,
            )
        )

    def _child_done(self, node: Node, index: int, value: int, line: list[Move]) -> None:
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
    def _record(node: Node, index: int, value: int, line: list[Move]) -> bool:
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

    def _finish(self, node: Node) -> None:
        """``node`` has its value: cancel what is still out below it."""
        node.done = True
        if node in self.open:
            self.open.remove(node)
        if node.best_line:
            self.hints[node.key] = node.best_line[0]
        stack = list(node.children)
        while stack:
            child = stack.pop()
            if not child.done:
                child.done = True
                if child in self.open:
                    self.open.remove(child)
                stack.extend(child.children)
        below = {id(n) for n in self._subtree(node)}
        self.tasks.forget(lambda tag: id(tag[0]) in below)

    @staticmethod
    def _subtree(node: Node) -> Iterator[Node]:
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
        root = Node(None, -1, state, (), UNLIMITED, -INFINITY, INFINITY, 0)
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
            value = self.engine.terminal_value(child, outcome, 1)
            values[move] = value if child.to_move == state.to_move else -value
        while queue or self.tasks:
            while queue and len(self.tasks) < self.workers:
                index = queue.pop(0)
                child = state.play(root.moves[index])
                self._send(
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
            for done in self.tasks.wait():
                if done.tag is None or done.task is None:
                    continue
                _node, index = done.tag
                task, report = done.task, done.report
                self._count(report, time.perf_counter() - done.sent)
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
        self.tasks.drain()


