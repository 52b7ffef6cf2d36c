"""Exact Connect Four solver: a thin Python wrapper over the numba kernels.

Scores use Pascal Pons' convention (see ``_kernel``): from the side to move's
view, 0 is a draw, a win whose winning stone is placed when ``n`` stones are
already on the board scores ``(width * height + 1 - n) // 2``, a loss the
negation.  Weak mode only tells win/draw/loss and returns exactly 1/0/-1.

Moves are given as a string of 1-based column digits (``"4455"``) or as a
sequence of 1-based column numbers.

The transposition table is kept from one call to the next (it only holds
bounds that are true for any search, so keeping it is safe and makes later
solves faster); :meth:`Solver.reset` clears it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from unbeatable.games.connect4 import _kernel as K

__all__ = ["DEFAULT_TABLE_BYTES", "BatchResult", "Solver", "compile_kernels", "encode_moves"]

DEFAULT_TABLE_BYTES = 64 * 1024 * 1024
"""Default transposition-table size: 64 MiB, i.e. 2**23 = 8,388,608 slots of 8 bytes."""

_MIN_SLOTS = 1024
_STATUS_TEXT = {
    K.BAD_COLUMN: "not a column",
    K.COLUMN_FULL: "column already full",
    K.GAME_OVER: "game already over (a move made four in a row)",
}

Moves = str | Sequence[int]


def _kernel_context() -> contextlib.AbstractContextManager[object]:
    """With numba disabled the kernels run on numpy scalars, whose hash multiply
    overflows on purpose: silence numpy's overflow warning then."""
    if getattr(numba.config, "DISABLE_JIT", False):
        return np.errstate(over="ignore")
    return contextlib.nullcontext()


def encode_moves(moves: Moves, width: int = 7) -> npt.NDArray[np.int8]:
    """0-based columns of a move string (``"4455"``) or of a sequence of 1-based columns.

    Raises ValueError for a character or number that is not a column of the board.
    """
    if isinstance(moves, str):
        raw = np.frombuffer(moves.encode("ascii", "replace"), dtype=np.uint8).astype(np.int16)
        cols = raw - ord("1")
        bad = np.flatnonzero((raw < ord("1")) | (raw > ord("9")) | (cols >= width))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"move {i + 1} ({moves[i]!r}) is not a column 1..{width}")
        return cols.astype(np.int8)
    out = np.empty(len(moves), dtype=np.int8)
    for i, c in enumerate(moves):
        if not 1 <= int(c) <= width:
            raise ValueError(f"move {i + 1} ({c!r}) is not a column 1..{width}")
        out[i] = int(c) - 1
    return out


@dataclass(frozen=True)
class BatchResult:
    """Scores of :meth:`Solver.solve_many`, with the nodes searched for each position."""

    scores: npt.NDArray[np.int64]
    nodes: npt.NDArray[np.int64]


class Solver:
    """Strong (exact score) or weak (win/draw/loss) Connect Four solver.

    ``table_bytes`` sets the transposition-table memory (8 bytes a slot; the
    number of slots is the largest power of two that fits, at least 1024).
    ``width`` x ``height`` is the board; any size with ``(height + 1) * width <= 64``
    works (the string form of moves needs ``width <= 9``).

    The table persists across calls (never cleared unless :meth:`reset` is
    called, or ``solve_many(..., reset_each=True)``); its replacement rule is
    "always replace" (see ``_kernel``).

    ``nodes`` is the number of search nodes visited by the last call of
    :meth:`solve`, :meth:`score_map` or :meth:`solve_many`.
    """

    def __init__(
        self, table_bytes: int = DEFAULT_TABLE_BYTES, width: int = 7, height: int = 6
    ) -> None:
        if width < 1 or height < 1 or (height + 1) * width > 64:
            raise ValueError(f"board {width}x{height} does not fit a 64-bit word")
        self.width = width
        self.height = height
        slots = 1 << (max(table_bytes // 8, _MIN_SLOTS).bit_length() - 1)
        self.table: npt.NDArray[np.uint64] = np.zeros(slots, dtype=np.uint64)
        self.table.fill(0)  # touch every page now, not during the first searches
        self._stats = np.zeros(4, dtype=np.int64)
        # the search stack of the kernel: one row per ply
        self._fu = np.zeros((width * height + 1, width + 4), dtype=np.uint64)
        self._fi = np.zeros((width * height + 1, width + 4), dtype=np.int64)
        self.nodes = 0

    @property
    def table_slots(self) -> int:
        """Number of transposition-table slots (a power of two)."""
        return int(self.table.shape[0])

    def reset(self) -> None:
        """Clear the transposition table and the node counter."""
        self.table.fill(0)
        self.nodes = 0

    def _cols(self, moves: Moves) -> npt.NDArray[np.int8]:
        """0-based columns; a string is checked by the kernel (bad characters become
        out-of-range columns)."""
        if isinstance(moves, str):
            if self.width > 9:
                raise ValueError("boards wider than 9 columns take moves as a sequence of ints")
            raw = np.frombuffer(moves.encode("ascii", "replace"), dtype=np.int8)
            cols: npt.NDArray[np.int8] = (raw - np.int8(ord("1"))).astype(np.int8)
            return cols
        return encode_moves(moves, self.width)

    def _error(self, moves: Moves, status: int, index: int) -> ValueError:
        if status == K.BAD_COLUMN:
            return ValueError(
                f"move {index + 1} ({moves[index]!r}) is not a column 1..{self.width}"
            )
        return ValueError(f"illegal move {index + 1} in {moves!r}: {_STATUS_TEXT[status]}")

    def _position(self, moves: Moves) -> tuple[np.uint64, np.uint64, int]:
        cols = self._cols(moves)
        current, mask, nb, status = K.play_moves(cols, 0, cols.shape[0], self.width, self.height)
        if status != K.OK:
            raise self._error(moves, int(status), int(nb))
        return np.uint64(current), np.uint64(mask), int(nb)

    def solve(self, moves: Moves = "", weak: bool = False) -> int:
        """Score of the position after ``moves`` for the side to move (weak: 1/0/-1)."""
        cols = self._cols(moves)
        before = int(self._stats[0])
        with _kernel_context():
            status, nb, score = K.solve_moves(
                cols, weak, self.width, self.height, self.table, self._stats, self._fu, self._fi
            )
        self.nodes = int(self._stats[0]) - before
        if status != K.OK:
            raise self._error(moves, int(status), int(nb))
        return int(score)

    def score_map(self, moves: Moves = "", weak: bool = False) -> list[int | None]:
        """Score of each column's move for the side to move; None for a full column.

        The position's own score is the maximum of the map.  In a position whose
        game is over already, ValueError is raised.
        """
        current, mask, nb = self._position(moves)
        out = np.zeros(self.width, dtype=np.int64)
        before = int(self._stats[0])
        with _kernel_context():
            K.score_map(
                current, mask, nb, weak, self.width, self.height, self.table, self._stats,
                self._fu, self._fi, out,
            )  # fmt: skip
        self.nodes = int(self._stats[0]) - before
        return [None if v == K.FULL_COLUMN else int(v) for v in out]

    def solve_bitboards(self, current: int, mask: int, moves: int, weak: bool = False) -> int:
        """Score of the position given as bitboards (the side to move's stones, all stones,
        the number of stones): the layout of :class:`~.game.Connect4State`."""
        before = int(self._stats[0])
        with _kernel_context():
            score = K.solve_position(
                np.uint64(current), np.uint64(mask), moves, weak, self.width, self.height,
                self.table, self._stats, self._fu, self._fi,
            )  # fmt: skip
        self.nodes = int(self._stats[0]) - before
        return int(score)

    def score_map_bitboards(self, current: int, mask: int, moves: int) -> list[int | None]:
        """Every column's exact score in the position given as bitboards; None if full."""
        out = np.zeros(self.width, dtype=np.int64)
        before = int(self._stats[0])
        with _kernel_context():
            K.score_map(
                np.uint64(current), np.uint64(mask), moves, False, self.width, self.height,
                self.table, self._stats, self._fu, self._fi, out,
            )  # fmt: skip
        self.nodes = int(self._stats[0]) - before
        return [None if v == K.FULL_COLUMN else int(v) for v in out]

    def best_moves(self, moves: Moves = "") -> list[int]:
        """The 1-based columns that reach the position's exact score."""
        scores = self.score_map(moves)
        top = max((s for s in scores if s is not None), default=None)
        return [i + 1 for i, s in enumerate(scores) if s is not None and s == top]

    def _encode_many(
        self, positions: Sequence[Moves]
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Concatenated 0-based columns of all positions, and the offsets of each."""
        offsets = np.zeros(len(positions) + 1, dtype=np.int64)
        if all(isinstance(p, str) for p in positions):
            text = "".join(positions)  # type: ignore[arg-type]
            if text.isascii():  # one vectorised pass over every string
                try:
                    flat_all = encode_moves(text, self.width)
                except ValueError:
                    pass  # redo it string by string for a precise message
                else:
                    offsets[1:] = np.cumsum([len(p) for p in positions])
                    return flat_all, offsets
        encoded = [encode_moves(m, self.width) for m in positions]
        offsets[1:] = np.cumsum([e.shape[0] for e in encoded])
        flat = np.concatenate(encoded) if encoded else np.zeros(0, dtype=np.int8)
        return flat, offsets

    def solve_many(
        self, positions: Sequence[Moves], weak: bool = False, reset_each: bool = False
    ) -> BatchResult:
        """Solve many positions inside one compiled call (no per-position Python overhead).

        The table is kept between positions unless ``reset_each`` (which clears the
        whole table before every position; costly for a big table).
        """
        flat, offsets = self._encode_many(positions)
        n = len(positions)
        scores = np.zeros(n, dtype=np.int64)
        nodes = np.zeros(n, dtype=np.int64)
        status = np.zeros(n, dtype=np.int64)
        with _kernel_context():
            K.solve_batch(
                flat, offsets, weak, reset_each, self.width, self.height, self.table, self._stats,
                self._fu, self._fi, scores, nodes, status,
            )  # fmt: skip
        self.nodes = int(nodes.sum())
        bad = np.flatnonzero(status != K.OK)
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"position {i} {positions[i]!r}: {_STATUS_TEXT[int(status[i])]}")
        return BatchResult(scores=scores, nodes=nodes)


def compile_kernels() -> float:
    """Compile (or load from numba's cache) every kernel; return the seconds it took."""
    import time

    t0 = time.perf_counter()
    s = Solver(table_bytes=8 * _MIN_SLOTS, width=4, height=4)
    s.solve("")
    s.score_map("1")
    s.solve_many(["12", "21"])
    return time.perf_counter() - t0
