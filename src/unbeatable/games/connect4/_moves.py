"""Positions given by their moves, for the Connect Four solver: a string of 1-based column
digits (``"4455"``) or a sequence of 1-based column numbers, checked, then turned into the
kernels' 0-based columns or into bitboards (see ``_batch.play_moves``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from . import _batch as B

__all__ = ["STATUS_TEXT", "Moves", "columns", "encode_many", "encode_moves", "position"]

Moves = str | Sequence[int]

STATUS_TEXT = {
    B.BAD_COLUMN: "not a column",
    B.COLUMN_FULL: "column already full",
    B.GAME_OVER: "game already over (a move made four in a row)",
    B.STOPPED: "search stopped",
}


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


def columns(moves: Moves, width: int) -> npt.NDArray[np.int8]:
    """0-based columns; a string is checked by the kernel (bad characters become
    out-of-range columns)."""
    if isinstance(moves, str):
        if width > 9 and moves:  # "" (the empty board, every method's default) is no digit
            raise ValueError("boards wider than 9 columns take moves as a sequence of ints")
        raw = np.frombuffer(moves.encode("ascii", "replace"), dtype=np.int8)
        cols: npt.NDArray[np.int8] = (raw - np.int8(ord("1"))).astype(np.int8)
        return cols
    return encode_moves(moves, width)


def _error(moves: Moves, status: int, index: int, width: int) -> ValueError:
    if status == B.BAD_COLUMN:
        return ValueError(f"move {index + 1} ({moves[index]!r}) is not a column 1..{width}")
    return ValueError(f"illegal move {index + 1} in {moves!r}: {STATUS_TEXT[status]}")


def position(moves: Moves, width: int, height: int) -> tuple[int, int, int]:
    """The position after ``moves`` as ``(current, mask, stones)`` (see :meth:`.Solver.position`).
    Raises ValueError for a move that is not a column, into a full column or after four in a
    row."""
    cols = columns(moves, width)
    current, mask, nb, status = B.play_moves(cols, 0, cols.shape[0], width, height)
    if status != B.OK:
        raise _error(moves, int(status), int(nb), width)
    return int(current), int(mask), int(nb)


def encode_many(
    positions: Sequence[Moves], width: int
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Concatenated 0-based columns of all positions, and the offsets of each."""
    offsets = np.zeros(len(positions) + 1, dtype=np.int64)
    if all(isinstance(p, str) for p in positions):
        text = "".join(positions)  # type: ignore[arg-type]
        if text.isascii():  # one vectorised pass over every string
            try:
                flat_all = encode_moves(text, width)
            except ValueError:
                pass  # redo it string by string for a precise message
            else:
                offsets[1:] = np.cumsum([len(p) for p in positions])
                return flat_all, offsets
    encoded = [encode_moves(m, width) for m in positions]
    offsets[1:] = np.cumsum([e.shape[0] for e in encoded])
    flat = np.concatenate(encoded) if encoded else np.zeros(0, dtype=np.int8)
    return flat, offsets
