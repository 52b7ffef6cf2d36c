# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Upper bounds of a position's score that follow from strategies proven to work, without
search: the search (``_negamax``) asks them of a node's children, and a child's upper bound of
0 or -1 may fail the node high before any child is searched.

They rest on one idea (Allis' *claimeven* and *baseinverse*, 1988): a player who answers every
move of the other *on top of it*, in the same column, takes every second cell of each column,
and which cells those are is known in advance. Call ``odd_rows`` the rows whose parity differs
from the board's height (on 7 x 6: the 2nd, 4th and 6th rows from the bottom). A column holds an
odd number of empty cells exactly when its lowest empty cell, its *foot*, lies in ``odd_rows``.

* The side to move, **X**, faces an even number of odd columns (an even number of empty cells).
  Its opponent **O** pairs their feet (X takes one foot, O the other) and answers every other
  move of X on top of it. X then only ever gets the empty cells outside ``odd_rows`` and one
  foot of each pair: if some pairing lets X make four with none of those choices, X never wins
  (score <= 0); if O's own cells (its stones, the empty cells of ``odd_rows`` but the feet)
  then hold a four, O wins in the end (score <= -1).
* X faces an odd number of odd columns, and O has a winning cell in one of those columns, in a
  row outside ``odd_rows``: O answers on top in that column too, and pairs the other feet; O's
  stone lands on its winning cell in the end (every cell is played), so if that leaves X no
  four, X loses (score <= -1). Else, if X can make no four at all, X never wins (score <= 0).

(The lower bounds of the same strategies are those of the children: a side that follows the
other up after its own move is the O above, one ply down.) Every strategy is played to the end
of the game, so the bounds are facts about the position whatever its score; the search only
uses them as bounds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitboard import U0, U1, U2, U4, U8, U16, U32, bottom_mask, column_mask, has_four, popcount

NONE = 1_000  # rule_upper: no bound


@njit(cache=True)
def odd_rows_mask(width, height):
    """The cells of the rows whose parity differs from the height's (``odd_rows`` above: on
    7 x 6 the 2nd, 4th and 6th rows from the bottom)."""
    bottom = bottom_mask(width, height)
    rows = U0
    for r in range(1 - height % 2, height, 2):
        rows |= bottom << np.uint64(r)
    return rows


@njit(cache=True, inline="always")
def odd_columns(feet, board):
    """The cells of the columns whose foot (lowest empty cell) is in ``feet``, from the foot up
    (an occluded fill: it stops at the sentinel above each column)."""
    p = board
    x = feet
    x |= p & (x << U1)
    p &= p << U1
    x |= p & (x << U2)
    p &= p << U2
    x |= p & (x << U4)
    p &= p << U4
    x |= p & (x << U8)
    p &= p << U8
    x |= p & (x << U16)
    p &= p << U16
    x |= p & (x << U32)
    return x


@njit(cache=True, inline="always")
def _lowest(x):
    """The lowest set bit of ``x``."""
    return x & (U0 - x)


@njit(cache=True)
def pairs_block(base, feet, height):
    """True when the feet ``feet`` (one playable cell in each of an even number of columns) can
    be paired so that ``base`` plus one foot of each pair, whichever the other side takes,
    holds no four in a row. Exact for up to 4 feet; with more, only when no four is possible
    with every foot. Precondition: ``base`` alone holds no four."""
    if not has_four(base | feet, height):
        return True
    k = popcount(feet)
    if k == 0 or k > 4:
        return False
    f = feet
    while f != U0:
        b = _lowest(f)
        f ^= b
        if has_four(base | b, height):
            return False  # a four with at most one foot: no pairing blocks it
    if k == 2:
        return True
    a = _lowest(feet)
    rest = feet ^ a
    f = rest
    while f != U0:  # a paired with b, the other two together
        b = _lowest(f)
        f ^= b
        c = rest ^ b
        c1 = _lowest(c)
        c2 = c ^ c1
        if not (
            has_four(base | a | c1, height)
            or has_four(base | a | c2, height)
            or has_four(base | b | c1, height)
            or has_four(base | b | c2, height)
        ):
            return True
    return False


@njit(cache=True)
def rule_upper(current, mask, empty, height, bottom, board, odd_rows, opp_wins):
    """An upper bound of the side to move's score (``current``: its stones, ``mask``: every
    stone, ``empty``: the empty cells' count, ``opp_wins``: the cells where the opponent would
    make four, ``winning_cells(current ^ mask, mask, ...)``) that the strategies of the module
    docstring prove: 0 or -1, else ``NONE``."""
    free = board ^ mask
    feet = (mask + bottom) & board & odd_rows  # the feet of the odd columns
    if empty % 2 == 0:
        base = current | (free & ~odd_rows)
        if has_four(base, height) or not pairs_block(base, feet, height):
            return NONE
        if has_four((current ^ mask) | (free & odd_rows & ~feet), height):
            return -1
        return 0
    wins = opp_wins & free & ~odd_rows & odd_columns(feet, board)
    if wins != U0:
        f = feet
        while f != U0:
            b = _lowest(f)
            f ^= b
            col = column_mask(popcount(b - U1) // (height + 1), height)
            if (wins & col) == U0:
                continue
            mine = current | (free & ~odd_rows & ~col) | (free & odd_rows & col)
            if not has_four(mine, height) and pairs_block(mine, feet & ~col, height):
                return -1
    if not has_four(current | free, height):
        return 0  # we can never make four
    return NONE
