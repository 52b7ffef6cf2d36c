"""The board's bit operations and the table's slots in Python's integers, for the parts of the
solver written in Python around the compiled search (``_columns``, ``_line``, ``_moves``).

Each function here does what the compiled function of the same name in ``_bitboard`` or
``_table`` does (the layouts are described there), on Python integers instead of ``uint64``
words: calling a compiled helper from Python would cost a compile of its own (numba compiles
one for Python's argument types) and hand back a Python integer anyway.
``tests/test_connect4_bits.py`` checks each against the compiled one.
"""

from __future__ import annotations

from . import _table
from .fours import winning_cells as _fours

__all__ = [
    "WORD",
    "board_mask",
    "bottom_mask",
    "can_win_next",
    "column_mask",
    "first_column",
    "non_losing_moves",
    "possible_moves",
    "table_place",
    "winning_cells",
]

WORD = (1 << 64) - 1
_HASH_MUL = int(_table.HASH_MUL)
_SHALLOW_SHIFT = int(_table.SHALLOW_SHIFT)
_SHALLOW_FLAG = int(_table.SHALLOW_FLAG)
# the kernel's own rule, run as Python (no compile: it only compares constants)
_shallow_empty = getattr(_table.shallow_empty, "py_func", _table.shallow_empty)


def bottom_mask(width: int, height: int) -> int:
    """One bit on the bottom cell of every column."""
    return sum(1 << (c * (height + 1)) for c in range(width))


def board_mask(width: int, height: int) -> int:
    """Every playable cell (sentinels excluded)."""
    return bottom_mask(width, height) * ((1 << height) - 1)


def column_mask(col: int, height: int) -> int:
    """The playable cells of column ``col`` (0-based)."""
    return ((1 << height) - 1) << (col * (height + 1))


def winning_cells(p: int, mask: int, height: int, board: int) -> int:
    """Empty cells (playable now or later) where a stone of ``p`` would make four."""
    return _fours(p, height, board) & ~mask


def possible_moves(mask: int, bottom: int, board: int) -> int:
    """One bit per non-full column: the cell a stone dropped there lands on."""
    return (mask + bottom) & board


def can_win_next(current: int, mask: int, height: int, bottom: int, board: int) -> bool:
    """True if the side to move can make four with its next stone."""
    return bool(winning_cells(current, mask, height, board) & possible_moves(mask, bottom, board))


def non_losing_moves(current: int, mask: int, height: int, bottom: int, board: int) -> int:
    """Moves after which the opponent cannot win at once (0 if every move loses).
    Precondition: the side to move cannot win with its next stone."""
    possible = possible_moves(mask, bottom, board)
    opp_win = winning_cells(current ^ mask, mask, height, board)
    forced = possible & opp_win
    if forced:
        if forced & (forced - 1):
            return 0  # two immediate threats: cannot parry both
        possible = forced
    return possible & ~(opp_win >> 1)  # never play just below an opponent's winning cell


def first_column(moves: int, width: int, height: int) -> int:
    """The first column, from the centre out, holding a bit of ``moves`` (-1: none)."""
    centre = width // 2
    for i in range(width):
        col = centre + i // 2 if i % 2 == 0 else centre - (i + 1) // 2
        if moves & column_mask(col, height):
            return col
    return -1


def _mirror(key: int, width: int, height: int) -> int:
    h1 = height + 1
    col = (1 << h1) - 1
    return sum(((key >> (c * h1)) & col) << ((width - 1 - c) * h1) for c in range(width))


def table_place(
    key: int, stones: int, width: int, height: int, slots: int, region: int
) -> tuple[int, int]:
    """The slot and the entry's key bits (without generation and bound) of the position of key
    ``key`` (``current + mask``) with ``stones`` stones, in a table of ``slots`` slots:
    ``_table.table_key``, the hash, ``table_shift`` and ``table_place`` in one."""
    if stones <= _table.MIRROR_STONES:
        key = min(key, _mirror(key, width, height))
    h = key * _HASH_MUL & WORD
    shift = 64 - (slots.bit_length() - 1)
    if shift <= _SHALLOW_SHIFT:
        if width * height - stones <= _shallow_empty(height, shift):
            return region + (h >> _SHALLOW_SHIFT), (h << 17) & WORD | _SHALLOW_FLAG
        return h >> shift, (h << 17) & WORD
    return h >> shift, (h << 16) & WORD
