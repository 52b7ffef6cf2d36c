# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Bit operations on the board, for the Connect Four kernels: masks, the moves, the cells that
make four.

Board encoding (``width`` columns of ``height`` cells, ``(height + 1) * width <= 64``):
bit ``col * (height + 1) + row`` is the cell of column ``col`` (0 = leftmost) and
row ``row`` (0 = bottom); the bit just above each column's top cell is a
sentinel that always stays 0.  A position is two words:

* ``mask``: every stone on the board;
* ``current``: the stones of the side to move.

``current + mask`` is a unique key of the position (within one column the
values of ``mask + stones`` for ``k`` stones lie in ``[2**k - 1, 2**(k+1) - 2]``,
so different columns contents never collide).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

U0 = np.uint64(0)
U1 = np.uint64(1)
U2 = np.uint64(2)
U3 = np.uint64(3)
U4 = np.uint64(4)
U8 = np.uint64(8)
U16 = np.uint64(16)
U32 = np.uint64(32)
U255 = np.uint64(255)


@njit(cache=True)
def bottom_mask(width, height):
    """One bit on the bottom cell of every column."""
    b = U0
    h1 = np.uint64(height + 1)
    for c in range(width):
        b |= U1 << (np.uint64(c) * h1)
    return b


@njit(cache=True, inline="always")
def board_mask(width, height):
    """Every playable cell (sentinels excluded)."""
    return bottom_mask(width, height) * ((U1 << np.uint64(height)) - U1)


@njit(cache=True, inline="always")
def column_mask(col, height):
    """The playable cells of column ``col`` (0-based)."""
    return ((U1 << np.uint64(height)) - U1) << (np.uint64(col) * np.uint64(height + 1))


@njit(cache=True)
def _popcount_loop(x):
    """Number of set bits (short loop: the words counted here are sparse)."""
    n = 0
    while x != U0:
        x &= x - U1
        n += 1
    return n


if getattr(numba.config, "DISABLE_JIT", False):
    popcount = _popcount_loop
else:
    from llvmlite import ir  # type: ignore[import-untyped, unused-ignore]
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx, x):
        """LLVM's population count of a uint64 (one instruction where the CPU has one)."""
        sig = types.int64(types.uint64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic("llvm.ctpop", [i64])
            return builder.call(fn, [args[0]])

        return sig, codegen

    @njit(cache=True, inline="always")
    def popcount(x):
        """Number of set bits."""
        return _ctpop(np.uint64(x))  # type: ignore[call-arg, unused-ignore]


@njit(cache=True, inline="always")
def _line_cells(p, s):
    """Cells that complete a four of ``p`` along the direction of bit shift ``s``.

    A four spans three shifts; when they reach past the 64-bit word (a board 1 to 3 columns
    wide and very tall) no four fits that way, and shifting by 64 or more would wrap."""
    s2 = s + s
    s3 = s2 + s
    if s3 >= np.uint64(64):
        return U0
    pair = (p << s) & (p << s2)
    r = pair & (p << s3)
    r |= pair & (p >> s)
    pair = (p >> s) & (p >> s2)
    r |= pair & (p << s)
    r |= pair & (p >> s3)
    return r


@njit(cache=True, inline="always")
def winning_cells(p, mask, height, board):
    """Empty cells (playable now or later) where a stone of ``p`` would make four."""
    h = np.uint64(height)
    r = (p << U1) & (p << U2) & (p << U3)  # vertical: three stones just below
    r |= _line_cells(p, h + U1)  # horizontal
    r |= _line_cells(p, h)  # diagonal going down to the right
    r |= _line_cells(p, h + U2)  # diagonal going up to the right
    return r & (board ^ mask)


@njit(cache=True, inline="always")
def possible_moves(mask, bottom, board):
    """One bit per non-full column: the cell a stone dropped there lands on."""
    return (mask + bottom) & board


@njit(cache=True)
def can_win_next(current, mask, height, bottom, board):
    """True if the side to move can make four with its next stone."""
    return (winning_cells(current, mask, height, board) & possible_moves(mask, bottom, board)) != U0


@njit(cache=True, inline="always")
def non_losing_moves(current, mask, height, bottom, board):
    """Moves after which the opponent cannot win at once (0 if every move loses).

    Precondition: the side to move cannot win with its next stone.
    """
    return non_losing_among(
        possible_moves(mask, bottom, board), winning_cells(current ^ mask, mask, height, board)
    )


@njit(cache=True, inline="always")
def non_losing_among(possible, opp_win):
    """The moves of ``possible`` (``possible_moves``) after which the opponent, whose winning
    cells are ``opp_win``, cannot win at once (0 if every move loses): ``non_losing_moves`` from
    its two parts, for a caller that has them already."""
    forced = possible & opp_win
    if forced != U0:
        if (forced & (forced - U1)) != U0:
            return U0  # two immediate threats: cannot parry both
        possible = forced
    return possible & ~(opp_win >> U1)  # never play just below an opponent's winning cell


@njit(cache=True, inline="always")
def has_four(p, height):
    """True when the cells ``p`` (no sentinel bit set) hold four in a row. Inlined: the rules
    (``_rules``) ask it, and the search on boards at most 4 high or wide (``_negamax``)."""
    h = np.uint64(height)
    for k in range(4):  # the shifts along a column, a row and the two diagonals
        s = U1 if k == 0 else h + np.uint64(k - 1)
        if s + s + s < np.uint64(64):  # a shift by 64 or more is undefined
            pair = p & (p >> s)
            if (pair & (pair >> (s + s))) != U0:
                return True
    return False
