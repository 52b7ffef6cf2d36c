# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Bounds of a position's score that follow from strategies proven to work, without search:
the search (``_negamax``) uses them to stop early.

They rest on one idea (Allis' *claimeven* and *baseinverse*, 1988): a player who answers every
move of the other *on top of it*, in the same column, takes every second cell of each column,
and which cells those are is known in advance. Call ``odd_rows`` the rows whose parity differs
from the board's height (on 7 x 6: the 2nd, 4th and 6th rows from the bottom). A column holds an
odd number of empty cells exactly when its lowest empty cell, its *foot*, lies in ``odd_rows``.

* The side to move, **X**, faces an even number of odd columns. Its opponent **O** pairs their
  feet (X takes one foot, O the other) and answers every other move of X on top of it. X then
  only ever gets the empty cells outside ``odd_rows`` and one foot of each pair: if no pairing
  lets X make four so, X never wins (score <= 0); if O's own cells (its stones, the empty cells
  of ``odd_rows`` but the feet) hold a four, O wins in the end (score <= -1).
* X faces an odd number of odd columns: X plays one foot itself, and is then O of the rule
  above for the other side: a lower bound (0 when the other side never wins, 1 when X's own
  cells hold a four).
* X faces an odd number, and O has a winning cell in one of those columns, in a row outside
  ``odd_rows``: O answers on top in that column too, and pairs the other feet; X has to play
  into that column in the end (every other cell goes in pairs), and O's stone lands on its
  winning cell before X can reach the top. If that leaves X no four, X loses (score <= -1).

Every strategy is played to the end of the game, so the bounds are exact facts about the
position whatever its score; the search only uses them as bounds. A bound of the side to move
here is ``lower <= score <= upper``; ``NONE`` leaves that side open.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitboard import U0, U1, bottom_mask, column_mask, has_four, popcount, winning_cells

NONE = 1_000  # rule_bounds: no bound on that side


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
def _lowest(x):
    """The lowest set bit of ``x``."""
    return x & (U0 - x)


@njit(cache=True)
def pairs_block(base, feet, height):
    """True when the feet ``feet`` (one playable cell in each of an even number of columns) can
    be paired so that ``base`` plus one foot of each pair, whichever the other side takes,
    holds no four in a row. Exact for up to 4 feet; with more, only when no four is possible
    with every foot."""
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
def rule_bounds(current, mask, empty, height, bottom, board, odd_rows, want_lo, want_hi):
    """``(lower, upper)`` bounds of the score of the side to move (``current``: its stones,
    ``mask``: every stone, ``empty``: the empty cells' count) that the strategies of the module
    docstring prove; ``NONE`` / ``-NONE`` where none. ``want_lo`` / ``want_hi``: whether a
    lower / upper bound is worth looking for (the search asks only for bounds that could cut)."""
    lo = -NONE
    hi = NONE
    free = board ^ mask
    opp = current ^ mask
    if want_hi and not has_four(current | free, height):
        hi = 0  # we can never make four
    if want_lo and not has_four(opp | free, height):
        lo = 0  # nor can the opponent
    feet = (mask + bottom) & board & odd_rows  # the feet of the odd columns
    if empty % 2 == 0:
        if want_hi and pairs_block(current | (free & ~odd_rows), feet, height):
            hi = 0
            if has_four(opp | (free & odd_rows & ~feet), height):
                hi = -1
        return lo, hi
    if want_lo:
        theirs = opp | (free & ~odd_rows)
        ours = current | (free & odd_rows & ~feet)
        f = feet
        while f != U0:
            b = _lowest(f)
            f ^= b
            if pairs_block(theirs, feet ^ b, height):
                lo = max(lo, 0)
                if has_four(ours | b, height):
                    lo = 1
                    break
    if want_hi:
        wins = winning_cells(opp, mask, height, board) & free & ~odd_rows
        f = feet
        while f != U0:
            b = _lowest(f)
            f ^= b
            col = column_mask(popcount(b - U1) // (height + 1), height)
            if (wins & col) == U0:
                continue
            mine = (free & ~odd_rows & ~col) | (free & odd_rows & col)
            if pairs_block(current | mine, feet & ~col, height):
                hi = -1
                break
    return lo, hi
