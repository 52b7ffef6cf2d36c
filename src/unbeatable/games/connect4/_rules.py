# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Upper bounds of a position's score that follow from strategies proven to work, without
search: the search (``_negamax``) asks :func:`fail_high` of a node whose window's top is at
most 1, and a child's upper bound of 0 or -1 may fail the node high before any child is
searched.

They rest on one idea (Allis' *claimeven* and *baseinverse*, 1988): a player who answers every
move of the other *on top of it*, in the same column, takes every second cell of each column,
and which cells those are is known in advance. Call ``odd_rows`` the rows whose parity differs
from the board's height (on 7 x 6: the 2nd, 4th and 6th rows from the bottom). A column holds an
odd number of empty cells exactly when its lowest empty cell, its *foot*, lies in ``odd_rows``.

* The side to move, **X**, faces an even number of odd columns (an even number of empty cells).
  Its opponent **O** pairs their feet as it likes (X takes one foot of a pair, O the other) and
  answers every other move of X on top of it. X then only ever gets the empty cells outside
  ``odd_rows`` and some of the feet: if X makes no four even with every foot, X never wins
  (score <= 0); if O's own cells (its stones, the empty cells of ``odd_rows`` but the feet)
  then hold a four, O wins in the end (score <= -1).
* X faces an odd number of odd columns, and O has a winning cell in one of those columns, in a
  row outside ``odd_rows``: O answers on top in that column too, and pairs the other feet; O's
  stone lands on its winning cell in the end (every cell is played), so if X makes no four
  even with the other feet, X loses (score <= -1). Else, if X can make no four at all, X never
  wins (score <= 0).

(The lower bounds of the same strategies are those of the children: a side that follows the
other up after its own move is the O above, one ply down.) Every strategy is played to the end
of the game, so the bounds are facts about the position whatever its score; the search only
uses them as bounds. Pairing the feet so that X gets one of each pair (four feet or fewer,
every pairing tried) cut 3.5 % more nodes and cost a kernel of its own in the cold build: left
out.

:func:`fail_high` is inlined into the search that asks it (``_negamax.negamax_rules``, compiled
only for deep solves, never by the solver's loading): the empty 7 x 6 board took about 10 % less
CPU so than with a call at every node (24.3-25.0 s against 27.5-31.9 s, alternate runs at load
9-10); ``_bitboard.has_four`` inlined too: six positions of 3-4 stones 11.9-12.3 s against
12.8-13.1 s (alternate runs, load 11).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitboard import (
    U0,
    U1,
    U2,
    U4,
    U8,
    U16,
    U32,
    bottom_mask,
    has_four,
    winning_cells,
)

NONE = 1_000  # rule_upper: no bound


@njit(cache=True, inline="always")
def odd_rows_mask(width, height):
    """The cells of the rows whose parity differs from the height's (``odd_rows`` above: on
    7 x 6 the 2nd, 4th and 6th rows from the bottom): the top row and every second one below
    it, ``0b101010`` on a column of 6 (``2**(height + 1) // 3``), in each column."""
    return bottom_mask(width, height) * (np.uint64(1 << (height + 1)) // np.uint64(3))


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
def rule_upper(current, mask, empty, height, bottom, board, odd_rows, opp_wins, odd_cols):
    """An upper bound of the side to move's score (``current``: its stones, ``mask``: every
    stone, ``empty``: the empty cells' count) that the strategies of the module docstring
    prove: 0 or -1, else ``NONE``. With an odd ``empty`` only: ``opp_wins``, the cells where
    the opponent would make four (``winning_cells(current ^ mask, mask, ...)``), and
    ``odd_cols``, the free cells of the odd columns (``odd_columns`` of their feet)."""
    free = board ^ mask
    feet = (mask + bottom) & board & odd_rows  # the feet of the odd columns
    if empty % 2 == 0:
        if has_four(current | (free & ~odd_rows) | feet, height):
            return NONE
        if has_four((current ^ mask) | (free & odd_rows & ~feet), height):
            return -1
        return 0
    wins = opp_wins & free & ~odd_rows & odd_cols
    tops = bottom << np.uint64(height)  # the cell above each column
    f = feet
    while wins != U0 and f != U0:
        b = f & (U0 - f)
        f ^= b
        above = tops & ~(b - U1)
        col = (above & (U0 - above)) - b  # the free cells of b's column
        if (wins & col) != U0:
            mine = current | (free & ~odd_rows & ~col) | (free & odd_rows & col) | (feet & ~col)
            if not has_four(mine, height):
                return -1
    if not has_four(current | free, height):
        return 0  # we can never make four
    return NONE


@njit(cache=True, inline="always")
def fail_high(current, mask, moves, beta, empty, height, bottom, board):
    """A lower bound ``>= beta`` of the side to move's score (``empty`` empty cells, the
    children after ``moves``) that a child's upper bound from :func:`rule_upper` proves (the
    first child in ``moves`` found so), else ``NONE``. Cheap necessary conditions come before
    each child's question. With an odd ``empty``, the opponent, following us up after our move
    ``m``, must take no four (``claim``: its cells so with ``m`` still free); else we need a
    four-making cell of our rows' parity in a column that ``m`` leaves odd (``odd_cols``: the
    free cells of the odd columns before ``m``; those of ``m``'s column flip), or the
    opponent can never make four and ``beta <= 0``."""
    odd_rows = bottom * (np.uint64(1 << (height + 1)) // np.uint64(3))  # odd_rows_mask
    free = board ^ mask
    odd_e = empty % 2 == 1
    claim = (current ^ mask) | (free & ~odd_rows)
    claim_four = odd_e and has_four(claim, height)
    odd_cols = U0
    no_four = False
    reach = U0  # not odd_e: every cell where we could make four after any one of ``moves``
    if not odd_e:
        odd_cols = odd_columns((mask + bottom) & board & odd_rows, board)
        no_four = beta <= 0 and not has_four((current ^ mask) | free, height)
        reach = winning_cells(current | moves, mask, height, board) & ~odd_rows
    tops = bottom << np.uint64(height)  # the cell above each column
    f = moves
    while f != U0:
        m = f & (U0 - f)
        f ^= m
        wins = U0
        flipped = U0  # not odd_e: the free cells of the odd columns after m
        if odd_e:
            if claim_four and ((m & odd_rows) != U0 or has_four(claim ^ m, height)):
                continue
        else:
            above = tops & ~(m - U1)
            flipped = odd_cols ^ ((above & (U0 - above)) - m)  # m's column, from m up, flips
            if not no_four and (reach & flipped) == U0:
                continue  # (a necessary condition: one winning_cells for every move)
            wins = winning_cells(current | m, mask | m, height, board)
            if not no_four and (wins & ~odd_rows & flipped) == U0:
                continue
        chi = rule_upper(
            current ^ mask, mask | m, empty - 1, height, bottom, board, odd_rows, wins, flipped
        )
        if -chi >= beta:
            return -chi
    return NONE
