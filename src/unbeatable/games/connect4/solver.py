"""Exact Connect Four solver: the Python API over the numba kernels.

Scores use Pascal Pons' convention (see ``_negamax``): from the side to move's
view, 0 is a draw, a win whose winning stone is placed when ``n`` stones are
already on the board scores ``(width * height + 1 - n) // 2``, a loss the
negation.  Weak mode only tells win/draw/loss and returns exactly 1/0/-1.

A position comes through one of two doors:

* its moves, checked: a string of 1-based column digits (``"4455"``) or a sequence of 1-based
  column numbers. :meth:`Solver.solve`, :meth:`Solver.score_map`, :meth:`Solver.best_moves`
  and :meth:`Solver.solve_many` answer exactly (Ctrl-C raises KeyboardInterrupt);
* its bitboards ``(current, mask, stones)``, as a :class:`~.game.Connect4State` holds them
  (the side to move's stones, every stone, how many; :meth:`Solver.position` makes them from
  moves), not checked. :meth:`Solver.solve_bitboards` answers exactly; :meth:`Solver.bounds`
  (the score), :meth:`Solver.analyze` (every column's score), :meth:`Solver.best` (the best
  columns) and :meth:`Solver.line` (a principal variation) take limits (threads, a deadline,
  a node budget) and say how far they got (:class:`Analysis`).

The transposition table is kept from one call to the next (it only holds
bounds that are true for any search, so keeping it is safe and makes later
solves faster); :meth:`Solver.reset` clears it.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from . import _batch as B
from . import _columns as C
from . import _moves, _threads
from . import _negamax as K
from ._cache import drop_stale_cache
from ._depth import has_database
from ._memory import MIN_SLOTS, allocate_table, table_slots
from ._moves import Moves, encode_moves
from ._table import SHALLOW_SLOTS
from ._threads import Analysis, Run, Worker
from .database import load as load_database
from .database import no_database
from .published import first_player_score

drop_stale_cache()  # before any kernel runs: a cache of other kernel sources would run them

__all__ = [
    "DEFAULT_TABLE_BYTES",
    "Analysis",
    "BatchResult",
    "Moves",
    "Progress",
    "Solver",
    "compile_kernels",
    "encode_moves",
    "load_rules_search",
]

DEFAULT_TABLE_BYTES = 64 * 1024 * 1024
"""Default transposition-table size: 64 MiB, i.e. 2**23 = 8,388,608 slots of 8 bytes."""

TABLE_FILE_MAGIC = int.from_bytes(b"c4table1", "little")
"""The first word of a file of :meth:`Solver.save_table` (its format's name and version)."""


@dataclass(frozen=True)
class BatchResult:
    """Scores of :meth:`Solver.solve_many`, with the nodes searched for each position."""

    scores: npt.NDArray[np.int64]
    nodes: npt.NDArray[np.int64]


def _exact(result: Analysis) -> list[int | None]:
    """The entries of a search without limits (Ctrl-C: KeyboardInterrupt, raised again once
    the compiled search has stopped)."""
    if result.interrupted:
        raise KeyboardInterrupt
    return result.lower


class Solver:
    """Strong (exact score) or weak (win/draw/loss) Connect Four solver.

    ``table_bytes`` sets the transposition-table memory (8 bytes a slot; the
    number of slots is the largest power of two that fits, at least 65,536).
    ``width`` x ``height`` is the board; any size with ``(height + 1) * width <= 64``
    works (the string form of moves needs ``width <= 9``).

    ``book`` (7 x 6 only): positions of 12 stones come from BitBully's database
    (:mod:`.database`), so that every earlier position is a short search; False solves by
    search alone. ``threads``: how many threads search one position (sharing the table;
    None: every core). ``guess``: the empty board's published score (:mod:`.published`), where
    there is one, orders its root's probes (they still prove the score); False withholds it,
    so that a comparison with the published tables does not start from their answer.

    The table persists across calls (never cleared unless :meth:`reset` is
    called, or ``solve_many(..., reset_each=True)``); its replacement rule is
    "always replace" (see ``_table``); clearing it costs one generation step.

    ``nodes`` is the number of search nodes visited by the last call (by all its threads;
    ``thread_nodes``: by each thread).
    """

    def __init__(
        self,
        table_bytes: int = DEFAULT_TABLE_BYTES,
        width: int = 7,
        height: int = 6,
        book: bool = True,
        threads: int | None = 1,
        guess: bool = True,
    ) -> None:
        if width < 1 or height < 1 or (height + 1) * width > 64:
            raise ValueError(f"board {width}x{height} does not fit a 64-bit word")
        self.width = width
        self.height = height
        self.table = allocate_table(table_slots(table_bytes))
        self.table.fill(0)  # touch every page now, not during the first searches
        self.generation = 1
        self._read_searched = 0  # nodes counted for a table read in (load_table)
        self.threads = threads
        self.guess = guess
        self.database = no_database()
        if book and has_database(width, height):
            self.database = load_database()
        self._workers = [Worker(width, height)]
        self._lock = threading.Lock()
        self.nodes = 0
        self.thread_nodes: list[int] = []
        mid = width // 2
        self._centre = [mid + i // 2 if i % 2 == 0 else mid - (i + 1) // 2 for i in range(width)]

    @property
    def table_slots(self) -> int:
        """Number of transposition-table slots (a power of two)."""
        return int(self.table.shape[0])

    @property
    def book(self) -> bool:
        """True when the 12-stone database is in use."""
        return self.database.loaded

    def reset(self) -> None:
        """Clear the transposition table (a new generation: no memory is touched, except a
        real clear once in 255 generations) and the node counter."""
        self.generation += 1
        self._read_searched = 0
        if self.generation > 255:
            self.clear()
        self.nodes = 0

    @property
    def resets_left(self) -> int:
        """How many more generation steps before :meth:`reset` (or ``solve_many(...,
        reset_each=True)``) has to zero the whole table."""
        return 255 - self.generation

    def clear(self) -> None:
        """Zero the whole table now (a memory-bound pass: milliseconds for 64 MiB), so that
        the next 254 clears cost nothing."""
        self.table.fill(0)
        self.generation = 1
        self._read_searched = 0
        for w in self._workers:
            w.ctrl[K.CTRL_SEARCHED] = 0

    def save_table(self, path: str | os.PathLike[str]) -> None:
        """Write the transposition table to ``path`` (with the board size and the table's
        generation), for :meth:`load_table` in another process: a long solve cut by a limit
        resumes later from what it proved, as the next call in this process would (the table
        holds only bounds true for any search). Written beside ``path`` and renamed over it,
        so that a crash never leaves half a table there."""
        header = np.array(
            [TABLE_FILE_MAGIC, self.width, self.height, self.table_slots, self.generation],
            dtype=np.uint64,
        )
        part = f"{os.fspath(path)}.part"
        with open(part, "wb") as f:
            header.tofile(f)
            self.table.tofile(f)
        os.replace(part, path)

    def load_table(self, path: str | os.PathLike[str]) -> None:
        """Read into this solver a table that :meth:`save_table` wrote, replacing its own: the
        board and the number of slots must be this solver's (ValueError says which differs)."""
        with open(path, "rb") as f:
            header = np.fromfile(f, dtype=np.uint64, count=5)
            if len(header) < 5 or int(header[0]) != TABLE_FILE_MAGIC:
                raise ValueError(f"{os.fspath(path)}: not a Connect Four table")
            width, height, slots, generation = (int(x) for x in header[1:])
            if not 1 <= generation <= 255:
                raise ValueError(f"{os.fspath(path)}: not a Connect Four table")
            if (width, height) != (self.width, self.height):
                raise ValueError(
                    f"{os.fspath(path)}: a table of {width}x{height}, "
                    f"not of this solver's {self.width}x{self.height}"
                )
            if slots != self.table_slots:
                raise ValueError(
                    f"{os.fspath(path)}: a table of {slots:,} slots, not {self.table_slots:,}"
                )
            view, got = self.table.view(np.uint8).data, 0
            while got < len(view):  # one read may return less (over 2 GiB, always)
                n = f.readinto(view[got : got + (1 << 28)])
                if not n:
                    self.clear()
                    raise ValueError(f"{os.fspath(path)}: the table is cut short")
                got += n
        self.generation = generation
        self._read_searched = K.ETC_AFTER  # a table read in counts as one long used

    def _searched(self, ctrl: npt.NDArray[np.int64]) -> int:
        """The nodes that searches of ``ctrl`` made in the table's current generation."""
        own = int(ctrl[K.CTRL_SEARCHED]) if int(ctrl[K.CTRL_GEN]) == self.generation else 0
        return max(own, self._read_searched)

    def _regions(self, threads: int) -> list[int]:
        """The first slot of each search thread's own shallow region (see ``_table.table_place``):
        one region after the other when the table holds them all, so that the threads of one
        search share the deep positions but not the shallow ones, whose slots each thread's
        core then keeps in its own cache (shared, every store of one thread evicts the line
        from the other's cache); else all at slot 0 (shared)."""
        size = int(self.table.shape[0])
        if threads > 1 and size >= threads * SHALLOW_SLOTS:
            return [i * SHALLOW_SLOTS for i in range(threads)]
        return [0] * threads

    def _db(self, book: bool | None) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8], int]:
        db = self.database if book is None or book else no_database()
        return db.keys, db.values, db.ply

    # ---- positions given by their moves ---------------------------------------------------

    def position(self, moves: Moves) -> tuple[int, int, int]:
        """The position after ``moves`` as bitboards: ``(current, mask, stones)``, the side to
        move's stones, every stone and how many there are (the layout of
        :class:`~.game.Connect4State`), as :meth:`bounds` and the other searches take it.
        Raises ValueError for a move that is not a column, into a full column or after four
        in a row."""
        return _moves.position(moves, self.width, self.height)

    def solve(self, moves: Moves = "", weak: bool = False, book: bool | None = None) -> int:
        """Score of the position after ``moves`` for the side to move (weak: 1/0/-1)."""
        return self.solve_bitboards(*self.position(moves), weak=weak, book=book)

    def score_map(
        self, moves: Moves = "", weak: bool = False, book: bool | None = None
    ) -> list[int | None]:
        """Score of each column's move for the side to move; None for a full column.

        The position's own score is the maximum of the map.  In a position whose
        game is over already, ValueError is raised.
        """
        return _exact(self.analyze(*self.position(moves), weak=weak, book=book))

    def best_moves(self, moves: Moves = "") -> list[int]:
        """The 1-based columns that reach the position's exact score (from every column's
        score: :meth:`best` asks less, on bitboards)."""
        scores = self.score_map(moves)
        top = max((s for s in scores if s is not None), default=None)
        return [i + 1 for i, s in enumerate(scores) if s is not None and s == top]

    def solve_many(
        self,
        positions: Sequence[Moves],
        weak: bool = False,
        reset_each: bool = False,
        book: bool | None = None,
    ) -> BatchResult:
        """Solve many positions inside one compiled call (no per-position Python overhead).

        The table is kept between positions unless ``reset_each`` (which clears the
        table before every position: a new generation, a fixed cost whatever its size).
        """
        flat, offsets = _moves.encode_many(positions, self.width)
        n = len(positions)
        scores = np.zeros(n, dtype=np.int64)
        nodes = np.zeros(n, dtype=np.int64)
        status = np.zeros(n, dtype=np.int64)
        w = self._workers[0]
        w.ctrl[:] = (0, 1 << 62, self.generation, self._searched(w.ctrl), 0)
        with _threads.kernel_context():
            B.solve_batch(
                flat, offsets, weak, reset_each, self.width, self.height, self.table, w.stats,
                w.fu, w.fi, *self._db(book), w.ctrl, scores, nodes, status,
            )  # fmt: skip
        self.generation = int(w.ctrl[K.CTRL_GEN])
        self.nodes = int(nodes.sum())
        bad = np.flatnonzero(status != B.OK)
        if bad.size:
            i = int(bad[0])
            text = _moves.STATUS_TEXT[int(status[i])]
            raise ValueError(f"position {i} {positions[i]!r}: {text}")
        return BatchResult(scores=scores, nodes=nodes)

    # ---- positions given as bitboards ------------------------------------------------------

    def solve_bitboards(
        self, current: int, mask: int, stones: int, weak: bool = False, book: bool | None = None
    ) -> int:
        """Score of the position given as bitboards (the side to move's stones, all stones,
        the number of stones): the layout of :class:`~.game.Connect4State`."""
        value = _exact(self.bounds(current, mask, stones, weak=weak, book=book))[0]
        assert value is not None
        return value

    def score_map_bitboards(
        self, current: int, mask: int, stones: int, book: bool | None = None
    ) -> list[int | None]:
        """Deprecated: :meth:`analyze` (``.lower`` once complete) gives every column's score."""
        warnings.warn(
            "Solver.score_map_bitboards is deprecated: use Solver.analyze",
            DeprecationWarning,
            stacklevel=2,
        )
        return _exact(self.analyze(current, mask, stones, book=book))

    def bounds(
        self, current: int, mask: int, stones: int, *, weak: bool = False,
        book: bool | None = None, threads: int | None = None,
        deadline: float | None = None, max_nodes: int | None = None,
        progress: Progress | None = None,
    ) -> Analysis:  # fmt: skip
        """The position's score, or bounds of it when ``deadline`` (a :func:`time.perf_counter`
        reading), ``max_nodes`` or Ctrl-C stopped the search first (see :class:`Analysis`).
        ``progress``: called (in this thread) with the bounds proven so far each time they
        narrow while the search runs (see :meth:`_search`)."""
        db = self._db(book)
        args = (np.uint64(current), np.uint64(mask), stones, weak, self.width, self.height)
        # the empty board's published score, where there is one, orders the root's probes (a
        # guess: the probes still prove the score; see solve_position)
        guess = first_player_score(self.width, self.height) if stones == 0 and self.guess else None

        def run(w: Worker, role: int, _: int, shared: npt.NDArray[np.int64]) -> bool:
            done: bool = K.solve_position(  # type: ignore[no-untyped-call]
                *args, self.table, w.stats, w.fu, w.fi, *db, w.ctrl, role, shared, w.res, guess
            )
            w.lo[0], w.hi[0] = w.res
            return done

        def live(workers: list[Worker], shared: npt.NDArray[np.int64]) -> Bounds:
            # each probe narrows its thread's ``res`` and every thread's ``shared`` interval
            lo = max([int(shared[0])] + [int(w.res[0]) for w in workers])
            hi = min([int(shared[1])] + [int(w.res[1]) for w in workers])
            return [_signed(lo, weak)], [_signed(hi, weak)]

        trivial = self._score_bounds(stones, weak)
        return self._search(run, trivial, threads, deadline, max_nodes, progress, live)

    def _score_bounds(self, stones: int, weak: bool = False) -> tuple[list[int], list[int]]:
        """Bounds of a position's score that hold before any search (``solve_position``'s
        starting bounds; a weak score's: -1 and 1)."""
        if weak:
            return [-1], [1]
        cells = self.width * self.height
        return [-((cells - stones) // 2)], [(cells + 1 - stones) // 2]

    def _column_bounds(self, mask: int, stones: int) -> tuple[list[int], list[int]]:
        """Bounds of each column's score that hold before any search (the kernels' own
        starting bounds; FULL_COLUMN for a full column)."""
        reach = (self.width * self.height - stones) // 2
        lower, upper = [], []
        for col in range(self.width):
            full = mask >> (col * (self.height + 1) + self.height - 1) & 1
            lower.append(C.FULL_COLUMN if full else -reach)
            upper.append(C.FULL_COLUMN if full else reach)
        return lower, upper

    def analyze(
        self, current: int, mask: int, stones: int, *, weak: bool = False,
        book: bool | None = None, threads: int | None = None,
        deadline: float | None = None, max_nodes: int | None = None,
        progress: Progress | None = None,
    ) -> Analysis:  # fmt: skip
        """Every column's score (None: a full column), or bounds of them when a limit or Ctrl-C
        stopped the search first. Raises ValueError when the game is over already.
        ``progress``: called (in this thread) with every column's bounds proven so far each
        time they narrow while the search runs: a column's as each probe of it ends, the solved
        columns' exact scores (see :meth:`_search`)."""
        db = self._db(book)
        args = (np.uint64(current), np.uint64(mask), stones, weak, self.width, self.height)

        def run(w: Worker, role: int, threads: int, _: npt.NDArray[np.int64]) -> bool:
            order = self._start_order(role, threads)
            done: bool = C.score_map(  # type: ignore[no-untyped-call]
                *args, self.table, w.stats, w.fu, w.fi, *db, w.ctrl, w.lo, w.hi, order, w.live
            )
            return done

        trivial = self._column_bounds(mask, stones)
        entries = len(trivial[0])

        def live(workers: list[Worker], _: npt.NDArray[np.int64]) -> Bounds:
            lo = [max(int(w.lo[i]) for w in workers) for i in range(entries)]
            hi = [min(int(w.hi[i]) for w in workers) for i in range(entries)]
            for w in workers:
                col = int(w.live[2])  # read before the bounds: see ``_columns.score_map``
                child_lo, child_hi = int(w.live[0]), int(w.live[1])
                if 0 <= col < entries and trivial[0][col] != C.FULL_COLUMN:
                    lo[col] = max(lo[col], _signed(-child_hi, weak))
                    hi[col] = min(hi[col], _signed(-child_lo, weak))
            return lo, hi

        return self._search(run, trivial, threads, deadline, max_nodes, progress, live)

    def best(
        self, current: int, mask: int, stones: int, *, book: bool | None = None,
        threads: int | None = None, deadline: float | None = None,
        max_nodes: int | None = None,
    ) -> Analysis:  # fmt: skip
        """Which columns are best, for a player that needs no other score (see
        ``_columns.best_map``): a best column gets the position's exact score, another an upper
        bound below it (or its exact score when it loses at once), a full column None.
        ``complete`` here means every column was placed so; a limit or Ctrl-C that came first
        leaves the columns not reached with trivial bounds. Strong scores."""
        db = self._db(book)
        args = (np.uint64(current), np.uint64(mask), stones, self.width, self.height)
        placed: list[bool] = []

        def run(w: Worker, role: int, threads: int, shared: npt.NDArray[np.int64]) -> bool:
            order = self._start_order(role, threads)
            done = bool(C.best_map(  # type: ignore[no-untyped-call]
                *args, self.table, w.stats, w.fu, w.fi, *db, w.ctrl, role, shared, w.lo, w.hi,
                order,
            ))  # fmt: skip
            if done:
                placed.append(True)
            return done

        result = self._search(run, self._column_bounds(mask, stones), threads, deadline, max_nodes)
        done = bool(placed)
        return replace(result, complete=done)

    def line(
        self, current: int, mask: int, stones: int, *, book: bool | None = None,
        deadline: float | None = None, max_nodes: int | None = None,
    ) -> tuple[list[tuple[int, int, int]], Analysis, bool]:  # fmt: skip
        """A principal variation of the position (one thread; see :mod:`._line`): the
        ``(column, nodes, probes)`` of each move proven to keep the exact score, to the end of
        the game or as far as ``deadline``, ``max_nodes`` or Ctrl-C let it go; the search's
        :class:`Analysis`; and False when no move kept the score (the solver contradicted
        itself)."""
        from ._line import LINE_INCONSISTENT, principal_line

        db = self._db(book)
        cells = self.width * self.height
        out = np.zeros(cells + 1, dtype=np.int64)
        trace = np.zeros((cells + 1, 2), dtype=np.int64)
        found = [LINE_INCONSISTENT, 0]

        def run(w: Worker, _role: int, _threads: int, _: npt.NDArray[np.int64]) -> bool:
            status, count = principal_line(  # type: ignore[no-untyped-call]
                np.uint64(current), np.uint64(mask), stones, self.width, self.height,
                self.table, w.stats, w.fu, w.fi, *db, w.ctrl, w.res, out, trace,
            )  # fmt: skip
            w.lo[0], w.hi[0] = w.res
            found[:] = [int(status), int(count)]
            return bool(status != LINE_INCONSISTENT)

        result = self._search(run, self._score_bounds(stones), 1, deadline, max_nodes)
        status, count = found
        proven = [(int(out[k]), int(trace[k, 0]), int(trace[k, 1])) for k in range(count)]
        return proven, result, status != LINE_INCONSISTENT

    def _thread_count(self, threads: int | None) -> int:
        wanted = threads if threads is not None else self.threads
        return max(1, wanted if wanted is not None else os.cpu_count() or 1)

    def _start_order(self, role: int, threads: int) -> npt.NDArray[np.int64]:
        """The column order of thread ``role`` of ``threads``: the threads start at columns
        spread over the centre-first order, so that they first solve different columns (a
        column another thread solved is then a few table hits)."""
        first = role * self.width // threads
        return np.array(self._centre[first:] + self._centre[:first], dtype=np.int64)

    def _search(
        self,
        run: Run,
        trivial: tuple[list[int], list[int]],
        threads: int | None,
        deadline: float | None,
        max_nodes: int | None,
        progress: Progress | None = None,
        live: Live | None = None,
    ) -> Analysis:
        """Run ``run(worker, role, threads, shared)`` on ``threads`` workers sharing the table
        and the array ``shared`` (see :func:`._threads.shared_array`), each in a thread of its
        own (:func:`._threads.run_threads`: the first to finish stops the others, this thread
        watches the deadline and Ctrl-C); then merge what they know. ``trivial``: the lower and
        upper bounds of each entry known before any search, which every worker holds until its
        kernel writes its own (a worker whose thread never ran, Ctrl-C having come while the
        threads were starting, must not pass its last search's bounds, or zeros, for news).

        ``live(workers, shared)``: the bounds of each entry that the running threads have
        proven so far (read while they write: each number it reads is a true bound). Every
        50 ms this thread reads them and, when they are narrower than the last it passed,
        calls ``progress`` with an incomplete :class:`Analysis` of them, each one's intervals
        inside the last one's (the intersection of true bounds; once every entry is settled
        nothing is told, the answer coming next); the answer is narrowed by them too. Ctrl-C
        inside ``progress`` stops the search as Ctrl-C does."""
        entries = len(trivial[0])
        n = self._thread_count(threads)
        if max_nodes is not None:
            n = max(1, min(n, max_nodes))  # each thread's share of the budget is at least 1
        with self._lock:  # one search at a time on this solver's table and workers
            while len(self._workers) < n:
                self._workers.append(Worker(self.width, self.height))
            workers = self._workers[:n]
            budget = max_nodes // n if max_nodes is not None else 1 << 62
            regions = self._regions(n)
            for w, region in zip(workers, regions, strict=True):
                searched = self._searched(w.ctrl)
                w.ctrl[:] = (0, int(w.stats[0]) + max(budget, 1), self.generation, searched, region)
                w.complete = False
                w.lo[:entries] = trivial[0]
                w.hi[:entries] = trivial[1]
                w.res[:] = (trivial[0][0], trivial[1][0])
                w.live[:] = (-K.SHARED_BIG, K.SHARED_BIG, -1)
            before = [int(w.stats[0]) for w in workers]
            shared = _threads.shared_array(n)
            known = (list(trivial[0]), list(trivial[1]))

            def poll() -> None:
                found = _narrowed(known, live(workers, shared)) if live is not None else None
                if found is None:
                    return
                known[0][:], known[1][:] = found
                nodes = sum(int(w.stats[0]) - b for w, b in zip(workers, before, strict=True))
                told = _analysis(known, False, nodes)
                if progress is not None and not told.complete:  # else the answer comes next
                    progress(told)

            watch = poll if progress is not None and live is not None else None
            interrupted = _threads.run_threads(run, workers, shared, deadline, watch)
            self.thread_nodes = [int(w.stats[0]) - b for w, b in zip(workers, before, strict=True)]
            self.nodes = sum(self.thread_nodes)
            result = _threads.merge(workers, entries, interrupted, self.nodes)
            if live is None:
                return result
            final = _narrowed(known, live(workers, shared)) or known
            narrowed = _narrowed(final, _entries(result)) or final
            return _analysis(narrowed, interrupted, self.nodes)


#: Each entry's lower bounds, then its upper bounds (C.FULL_COLUMN in both for a full column).
Bounds = tuple[list[int], list[int]]

#: ``progress(analysis)``: what a search has proven so far (see :meth:`Solver._search`).
Progress = Callable[[Analysis], None]

#: ``live(workers, shared)``: the bounds that a search's running threads have proven so far.
Live = Callable[[list[Worker], npt.NDArray[np.int64]], Bounds]


def _signed(value: int, weak: bool) -> int:
    """A bound of a score as a bound of its sign when ``weak`` (a weak search's probes narrow
    bounds of the score before it keeps only their signs)."""
    return (value > 0) - (value < 0) if weak else value


def _entries(result: Analysis) -> Bounds:
    """An analysis's bounds with C.FULL_COLUMN for None."""
    lower = [C.FULL_COLUMN if v is None else v for v in result.lower]
    upper = [C.FULL_COLUMN if v is None else v for v in result.upper]
    return lower, upper


def _narrowed(known: Bounds, found: Bounds) -> Bounds | None:
    """The intersection of two true bounds of each entry, when it is narrower than ``known``
    anywhere (else None); a full column stays full."""
    full = C.FULL_COLUMN
    lower = [a if a == full else max(a, b) for a, b in zip(known[0], found[0], strict=True)]
    upper = [a if a == full else min(a, b) for a, b in zip(known[1], found[1], strict=True)]
    if lower == known[0] and upper == known[1]:
        return None
    return lower, upper


def _analysis(bounds: Bounds, interrupted: bool, nodes: int) -> Analysis:
    """The :class:`Analysis` of entries known within ``bounds``."""
    lower = [None if v == C.FULL_COLUMN else v for v in bounds[0]]
    upper = [None if v == C.FULL_COLUMN else v for v in bounds[1]]
    complete = all(a == b for a, b in zip(lower, upper, strict=True))
    return Analysis(lower, upper, complete, interrupted, nodes)


def compile_kernels() -> float:
    """Compile (or load from numba's cache) every kernel; return the seconds it took."""
    t0 = time.perf_counter()
    s = Solver(table_bytes=8 * MIN_SLOTS, width=4, height=4)
    s.solve("")
    s.score_map("1")
    s.best(*s.position("1"))
    s.solve_many(["12", "21"])
    load_rules_search()
    return time.perf_counter() - t0


def load_rules_search() -> None:
    """Compile (or load from numba's cache) the search with the rules, which only a deep solve
    without a database uses: one such solve (38 empty cells), 3 nodes."""
    Solver(table_bytes=8 * MIN_SLOTS, book=False).solve("2233")
