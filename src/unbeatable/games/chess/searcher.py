"""The chess core's engine, typed: :class:`Searcher` runs the compiled search (``_search``)
on one or more threads that share one transposition table, under :class:`Limits`, and returns
a :class:`SearchResult`.

Scores are from the side to move's view: centipawns, or a mate ``MATE - plies`` (the side to
move mates in that many plies; ``-(MATE - plies)`` it is mated). :meth:`SearchResult.value`
maps them onto an integer convention where a win ``d`` plies away is ``win - d`` (the library's
``search.score.WIN``).

Time: the search runs on worker threads (numba kernels that release the GIL); the calling
thread sleeps until an iteration completes, the search ends or the next limit falls due (a
caller's stop event is looked at every ``STOP_POLL`` seconds), sets the soft flag (start no new
iteration) at the soft limit and the stop flag at the hard limit, on ``stop`` and on Ctrl-C;
the kernels read the stop flag every 1,024 nodes, so a search stops within a few milliseconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from ...clock import Stability, time_for_move
from ._notation import uci
from ._order import H_CONT, H_COUNTER, H_HISTORY, HEUR_SIZE
from ._search import (
    ABORTED,
    C_GEN,
    C_NODE_LIMIT,
    C_SIZE,
    C_SOFT,
    C_STOP,
    INF,
    MAX_QUIETS,
    N_FIELDS,
    S_NODES,
    S_SELDEPTH,
    S_SIZE,
    S_THREAD,
    S_THREADS,
)
from ._search import search as _search
from ._tables import MAX_MOVES, UNDO_WORDS
from ._tt import BUCKET, MATE, MATE_BOUND, MAX_PLY
from .core import TABLES, Position, kernel_context

__all__ = [
    "BENCH_FENS",
    "ENTRY_BYTES",
    "MATE",
    "MATE_BOUND",
    "Limits",
    "Line",
    "SearchResult",
    "Searcher",
    "time_budget",
]

MAX_DEPTH = MAX_PLY - 8
#: Bytes of one transposition-table entry (a bucket of 4 entries is 64 bytes).
ENTRY_BYTES = 16
MOVE_OVERHEAD = 0.03  # seconds kept back from every clock-based budget (the GUI's lag)
ASPIRATION = 25  # centipawns each side of the previous value
STOP_POLL = 0.005  # seconds between looks at a caller's stop event while a search runs
IDLE_POLL = 0.05  # the longest wait otherwise (so that Ctrl-C is heard everywhere)


@dataclass(frozen=True)
class Limits:
    """When a search stops: after iteration ``depth``, after ``nodes`` nodes, after
    ``movetime`` seconds, or by a budget from the clocks (``wtime``/``btime`` seconds left,
    ``winc``/``binc`` increments, ``movestogo`` moves to the next time control). None of them
    (or ``infinite``): until :meth:`Searcher.stop` or Ctrl-C."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    wtime: float | None = None
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: int | None = None
    infinite: bool = False

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "movestogo"):
            v = getattr(self, name)
            if v is not None and v < 1:
                raise ValueError(f"{name} must be at least 1, not {v}")
        for name in ("movetime", "wtime", "btime", "winc", "binc"):
            v = getattr(self, name)
            if v is not None and v < 0:
                raise ValueError(f"{name} must not be negative, not {v}")


def time_budget(limits: Limits, turn: int) -> tuple[float, float] | None:
    """The (soft, hard) seconds of a search under ``limits`` for the side ``turn`` (0 White):
    past the soft limit no new iteration starts, at the hard limit the search stops. None when
    time does not limit it. A clock is budgeted by the library's one clock policy
    (:func:`unbeatable.clock.time_for_move`, :data:`MOVE_OVERHEAD` kept back)."""
    if limits.infinite:
        return None
    if limits.movetime is not None:
        return limits.movetime, limits.movetime
    left = limits.wtime if turn == 0 else limits.btime
    if left is None:
        return None
    inc = limits.winc if turn == 0 else limits.binc
    budget = time_for_move(left, inc, limits.movestogo, reserve=MOVE_OVERHEAD)
    return budget.soft, budget.hard


def stability(iterations: list[tuple[tuple[Line, ...], int, int]]) -> float:
    """How much of the soft time limit a clock-based search should use, after these completed
    iterations (:class:`unbeatable.clock.Stability`'s scale of their best moves and
    scores)."""
    rule = Stability()
    for lines, _, _ in iterations[-5:]:  # all the rule looks at
        rule.add(lines[0].move, lines[0].score, abs(lines[0].score) >= MATE_BOUND)
    return rule.scale


@dataclass(frozen=True)
class Line:
    """One principal variation: its first move, score, depth and moves."""

    score: int
    depth: int
    pv: tuple[int, ...]

    @property
    def move(self) -> int:
        return self.pv[0]

    def uci(self) -> str:
        return " ".join(uci(m) for m in self.pv)


@dataclass(frozen=True)
class SearchResult:
    """What a search found: ``best`` move (None: no legal move), ``score`` (the module's
    convention), ``pv``, the deepest completed ``depth`` and ``seldepth``, ``nodes`` of every
    thread, ``elapsed`` seconds, the MultiPV ``lines`` (best first), and whether every iteration
    asked for was ``complete`` (False when time, nodes, :meth:`Searcher.stop` or Ctrl-C cut it
    short: then the result is the last completed iteration's; ``interrupted``: Ctrl-C)."""

    best: int | None
    score: int
    pv: tuple[int, ...]
    depth: int
    seldepth: int
    nodes: int
    elapsed: float
    lines: tuple[Line, ...] = ()
    complete: bool = True
    interrupted: bool = False

    @property
    def mate(self) -> int | None:
        """Plies to mate: positive when the side to move mates, negative when it is mated."""
        if self.score >= MATE_BOUND:
            return MATE - self.score
        if self.score <= -MATE_BOUND:
            return -(MATE + self.score)
        return None

    def value(self, win: int) -> int:
        """The score where a win ``d`` plies away is ``win - d`` (a loss the negation) and a
        heuristic value is in centipawns."""
        m = self.mate
        if m is None:
            return self.score
        return win - m if m > 0 else -(win + m)

    @property
    def nps(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


class _Worker:
    """One thread's arrays: its copy of the position, its search stack and its heuristics
    (kept from one search to the next: the history)."""

    def __init__(self, tid: int) -> None:
        self.tid = tid
        self.stats = np.zeros(S_SIZE, dtype=np.int64)
        self.heur = np.zeros(HEUR_SIZE, dtype=np.int16)
        self.frames = np.zeros((MAX_PLY + 1, N_FIELDS), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 1) * MAX_MOVES, dtype=np.int32)
        self.scores = np.zeros((MAX_PLY + 1) * MAX_MOVES, dtype=np.int64)
        self.undo = np.zeros((MAX_PLY + 1, UNDO_WORDS), dtype=np.uint64)
        self.pv = np.zeros((MAX_PLY + 1, MAX_PLY + 1), dtype=np.int64)
        self.pv_len = np.zeros(MAX_PLY + 1, dtype=np.int64)
        self.quiets = np.zeros((MAX_PLY + 1) * MAX_QUIETS, dtype=np.int32)


@dataclass
class _Run:
    """One search's shared state: the control array, the threads' workers, and the completed
    iterations of the main thread (its lines, depth, seldepth)."""

    ctrl: npt.NDArray[np.int64]
    workers: list[_Worker]
    iterations: list[tuple[tuple[Line, ...], int, int]] = field(default_factory=list)
    done: bool = False  # the main thread completed every iteration asked for
    finished: bool = False  # the main thread has returned
    wake: threading.Event = field(default_factory=threading.Event)  # an iteration or the end

    def nodes(self) -> int:
        return sum(int(w.stats[S_NODES]) for w in self.workers)


def _thread(
    run: _Run,
    worker: _Worker,
    position: Position,
    table: npt.NDArray[np.uint64],
    max_depth: int,
    lines: int,
    stop_on_mate: bool,
) -> None:
    """A thread's body: ``_iterate``; the main thread then wakes the caller."""
    try:
        _iterate(run, worker, position, table, max_depth, lines, stop_on_mate)
    finally:
        if worker.tid == 0:
            run.finished = True
            run.wake.set()


def _iterate(
    run: _Run,
    worker: _Worker,
    position: Position,
    table: npt.NDArray[np.uint64],
    max_depth: int,
    lines: int,
    stop_on_mate: bool,
) -> None:
    """One thread's iterative deepening (the main thread's iterations go to ``run``).

    Each iteration searches one ply deeper than the last, each of the ``lines`` lines in turn
    (line ``k`` with the first moves of lines ``0..k-1`` excluded at the root), from depth 4
    on inside an aspiration window of +-25 centipawns around the line's previous value,
    widened (doubling) on the side that fails. Helper threads of odd number search one ply
    deeper at each iteration, so that the threads' trees differ; they publish nothing. With
    ``stop_on_mate`` (a search limited by time or nodes) a mate in ``n`` plies found by an
    iteration of depth ``2n + 2`` or more ends the search."""
    ctrl = run.ctrl
    w = worker
    w.stats[:] = 0
    w.stats[S_THREAD] = w.tid
    w.stats[S_THREADS] = len(run.workers)
    w.heur[:H_HISTORY] = 0  # killers belong to one search
    w.heur[H_HISTORY:H_COUNTER] //= 2  # history fades from one search to the next
    w.heur[H_CONT:] //= 2
    pos = position.array.copy()
    history = position.history
    keys = np.zeros(len(history) + MAX_PLY + 2, dtype=np.uint64)
    keys[: len(history)] = history
    excluded = np.zeros(lines, dtype=np.int64)
    previous = [0] * lines
    with kernel_context():
        for d in range(1, max_depth + 1):
            depth = d + (w.tid & 1)
            if d > 1 and ctrl[C_SOFT]:
                return
            found = []
            for k in range(lines):
                delta = ASPIRATION
                alpha, beta = -INF, INF
                if d >= 4 and abs(previous[k]) < MATE_BOUND:
                    alpha, beta = previous[k] - delta, previous[k] + delta
                while True:
                    v = int(
                        _search(
                            pos,
                            TABLES,
                            table,
                            keys,
                            len(history),
                            ctrl,
                            w.stats,
                            w.heur,
                            w.frames,
                            w.moves,
                            w.scores,
                            w.undo,
                            w.pv,
                            w.pv_len,
                            w.quiets,
                            depth,
                            alpha,
                            beta,
                            excluded,
                            k,
                        )
                    )
                    if v == ABORTED:
                        return
                    if v <= alpha:
                        alpha = max(v - delta, -INF)
                    elif v >= beta:
                        beta = min(v + delta, INF)
                    else:
                        break
                    delta *= 2
                    if abs(v) >= MATE_BOUND or delta > 1000:
                        alpha, beta = -INF, INF
                pv = tuple(int(m) for m in w.pv[0, : w.pv_len[0]])
                found.append(Line(v, depth, pv))
                excluded[k] = pv[0]
                previous[k] = v
            if w.tid == 0:
                found.sort(key=lambda line: -line.score)
                run.iterations.append((tuple(found), depth, int(w.stats[S_SELDEPTH])))
                run.wake.set()
                plies = MATE - abs(found[0].score)
                if stop_on_mate and lines == 1 and plies <= MAX_PLY and depth >= 2 * plies + 2:
                    break  # a mate, searched twice as deep as it is long: no shorter one
    if w.tid == 0:
        run.done = True


def _join_all(threads: list[threading.Thread]) -> bool:
    """Wait for every thread to end, through Ctrl-C (a second one must not leave a thread
    searching); return whether one came meanwhile (a first one, that came as the search ended,
    must not be lost either)."""
    heard = False
    for t in threads:
        while t.is_alive():
            try:
                t.join()
            except KeyboardInterrupt:
                heard = True
    return heard


def _wait(
    run: _Run,
    budget: tuple[float, float] | None,
    by_clock: bool,
    start: float,
    stop: threading.Event | None,
) -> None:
    """The caller's side of a running search: sleep until an iteration completes, the search
    ends or the next time limit falls due (a caller's ``stop`` is looked at every
    ``STOP_POLL`` seconds), then stop the search or end its iterations when that is due. (A
    wait that woke every millisecond cost 2-4 % of a core for as long as a search ran.)"""
    ctrl = run.ctrl
    if stop is not None and stop.is_set():
        ctrl[C_STOP] = 1
    timeout = STOP_POLL if stop is not None else IDLE_POLL
    soft = 0.0
    if budget is not None:
        soft = budget[0] * stability(run.iterations) if by_clock else budget[0]
        if not ctrl[C_STOP]:  # (once stopped, the search's end wakes us)
            due = budget[1] if ctrl[C_SOFT] else min(soft, budget[1])
            timeout = min(timeout, max(due - (time.perf_counter() - start), 0.0))
    if timeout > 0.0:
        run.wake.wait(timeout)
    run.wake.clear()
    elapsed = time.perf_counter() - start
    if stop is not None and stop.is_set():
        ctrl[C_STOP] = 1
    if budget is not None:
        if elapsed >= budget[1]:
            ctrl[C_STOP] = 1
        elif elapsed >= soft:
            ctrl[C_SOFT] = 1


class Searcher:
    """The compiled engine: ``hash_mb`` MiB of transposition table shared by ``threads``
    threads. The table and the history heuristics persist from one search to the next
    (:meth:`clear` forgets them, e.g. for a new game). One search at a time per searcher."""

    def __init__(self, hash_mb: int = 16, threads: int = 1) -> None:
        if hash_mb < 1:
            raise ValueError(f"hash must be at least 1 MiB, not {hash_mb}")
        if not 1 <= threads <= 256:
            raise ValueError(f"threads must be 1 to 256, not {threads}")
        buckets = 1 << max(int(hash_mb * (1 << 20) // (BUCKET * 16)).bit_length() - 1, 0)
        self.table = np.zeros(buckets * BUCKET * 2, dtype=np.uint64)
        self.threads = threads
        self.hash_mb = hash_mb
        self._workers = [_Worker(tid) for tid in range(threads)]
        self._generation = 0
        self._run: _Run | None = None
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget the table and the heuristics."""
        self.table[:] = 0
        for w in self._workers:
            w.heur[:] = 0

    def stop(self) -> None:
        """Stop the running search (from another thread); it returns what it has. A stop that
        comes before the search has set itself up may be missed: pass a ``stop`` event to
        :meth:`search` or :meth:`iterate` instead, which is looked at from the start."""
        run = self._run
        if run is not None:
            run.ctrl[C_STOP] = 1

    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        multipv: int = 1,
        on_iteration: Callable[[SearchResult], None] | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        """Search ``position`` under ``limits`` (default: depth 8) and return the result of the
        last completed iteration. ``multipv``: how many best root moves get their own line
        (the number of legal moves: every root move's score). ``on_iteration`` is called from
        this thread after each completed iteration. ``stop``: set it (from any thread) to end
        the search as :meth:`stop` does."""
        result = None
        for result in self.iterate(position, limits, multipv=multipv, stop=stop):
            if on_iteration is not None and result.complete:
                on_iteration(result)
        assert result is not None
        return result

    def iterate(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        multipv: int = 1,
        stop: threading.Event | None = None,
    ) -> Iterator[SearchResult]:
        """The search of :meth:`search`, one result after each completed iteration (marked
        ``complete``); when time, nodes, ``stop`` or Ctrl-C cut the search short, a last
        result follows: the last completed iteration's, marked incomplete (and
        ``interrupted`` for Ctrl-C, which ends the iteration without raising). The last
        result is the answer. Closing the iterator early stops the search."""
        limits = Limits(depth=8) if limits is None else limits
        if multipv < 1:
            raise ValueError(f"multipv must be at least 1, not {multipv}")
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("this searcher is already searching")
        try:
            yield from self._iterate(position, limits, multipv, stop)
        finally:
            self._run = None
            self._lock.release()

    def _iterate(
        self,
        position: Position,
        limits: Limits,
        multipv: int,
        stop: threading.Event | None,
    ) -> Iterator[SearchResult]:
        start = time.perf_counter()
        legal = position.legal_moves()
        if not legal:
            score = -MATE if position.is_check() else 0
            yield SearchResult(None, score, (), 0, 0, 0, 0.0)
            return
        self._generation = self._generation % 63 + 1
        ctrl = np.zeros(C_SIZE, dtype=np.int64)
        ctrl[C_GEN] = self._generation
        ctrl[C_NODE_LIMIT] = limits.nodes or 0
        run = _Run(ctrl, self._workers)
        self._run = run
        budget = time_budget(limits, position.turn)
        by_clock = budget is not None and limits.movetime is None
        depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        lines = min(multipv, len(legal))
        on_mate = limits.depth is None and (budget is not None or limits.nodes is not None)
        threads = [
            threading.Thread(
                target=_thread,
                args=(run, w, position, self.table, depth, lines if w.tid == 0 else 1, on_mate),
                daemon=True,
            )
            for w in self._workers
        ]
        for t in threads:
            t.start()
        interrupted = False
        seen = 0
        try:
            while True:
                alive = not run.finished
                if alive:
                    _wait(run, budget, by_clock, start, stop)
                while seen < len(run.iterations):
                    yield self._result(run, legal, start, complete=True, index=seen)
                    seen += 1
                if not alive:
                    break
        except KeyboardInterrupt:
            interrupted = True
        finally:
            ctrl[C_STOP] = 1  # the helpers stop with the main thread
            interrupted = _join_all(threads) or interrupted
        if run.done and not interrupted and seen == len(run.iterations):
            return  # every iteration asked for completed: the last one yielded is the answer
        result = self._result(run, legal, start, complete=False)
        yield replace(result, interrupted=interrupted)

    @staticmethod
    def _result(
        run: _Run, legal: tuple[int, ...], start: float, complete: bool, index: int = -1
    ) -> SearchResult:
        """The result of iteration ``index`` (the last by default)."""
        nodes = run.nodes()
        elapsed = time.perf_counter() - start
        if not run.iterations:  # not even the first iteration finished: any legal move
            return SearchResult(legal[0], 0, (legal[0],), 0, 0, nodes, elapsed, (), False)
        lines, depth, seldepth = run.iterations[index]
        top = lines[0]
        return SearchResult(
            top.move, top.score, top.pv, depth, seldepth, nodes, elapsed, lines, complete
        )


BENCH_FENS = (
    # the perft positions, then middle games, endings (no position is a quick mate or draw)
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "rn1q1rk1/p4ppp/b3pn2/2p3B1/Q7/P4N2/1P2PPPP/R3KB1R w KQ - 0 12",
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8",
    "r2qr1k1/1b1nbppp/p2p1n2/1p2p3/3PP3/1BN1BN1P/PP3PP1/R2QR1K1 w - - 0 14",
    "8/5pk1/6p1/R7/5P2/6PK/r7/8 w - - 0 1",
    "8/5p2/4k1p1/3p3p/3P3P/4K1P1/5P2/8 w - - 0 1",
)


def bench(depth: int = 10, hash_mb: int = 16) -> tuple[int, float]:
    """Search each of ``BENCH_FENS`` to ``depth`` on one thread with a fresh table: the total
    nodes (a signature: the same kernels give the same count on every machine) and seconds."""
    nodes = 0
    start = time.perf_counter()
    for fen in BENCH_FENS:
        searcher = Searcher(hash_mb=hash_mb, threads=1)
        nodes += searcher.search(Position.from_fen(fen), Limits(depth=depth)).nodes
    return nodes, time.perf_counter() - start


__all__ += ["bench"]
