# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver.line``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The numba kernel of a solved position's principal variation: best moves to the end of the
game (see ``_bitboard`` for the board encoding, ``_negamax`` for the scores and the search,
``_table`` for the table).

Along a principal variation only a move that *keeps* the position's known score ``v`` is
needed, not every move's score: every child's score (from its side to move's view) is at
least ``-v``, so one null-window probe ``negamax(child, -v, -v + 1)`` that fails low proves
that the child keeps the score. Candidates are tried in the search's own order (threats
first, then from the centre out), after a pass that accepts a child the table or the
database already proves at no cost; the line runs on the solver's table, so the positions
along it reuse each other's subtrees (and those of the analysis just done).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitboard import (
    U0,
    U1,
    U8,
    U255,
    board_mask,
    bottom_mask,
    column_mask,
    non_losing_moves,
    popcount,
    possible_moves,
    winning_cells,
)
from ._database_probe import NOT_FOUND, db_probe
from ._negamax import ABORTED, CTRL_GEN, CTRL_REGION, SHARED_BIG, negamax, solve_position
from ._table import HASH_MUL, UPPER_CODE, table_key, table_place, table_shift

__all__ = ["LINE_COMPLETE", "LINE_INCONSISTENT", "LINE_STOPPED", "principal_line"]

LINE_COMPLETE = 0  # the line reaches the end of the game
LINE_STOPPED = 1  # the control array stopped the search: the line so far
LINE_INCONSISTENT = 2  # no move kept the score (a bug: the score or a table entry is wrong)


@njit(cache=True, inline="always")
def _first_column(moves, width, height):
    """The first column, from the centre out, holding a bit of ``moves`` (-1: none)."""
    centre = width // 2
    for i in range(width):
        col = centre + i // 2 if i % 2 == 0 else centre - (i + 1) // 2
        if (moves & column_mask(col, height)) != U0:
            return col
    return -1


@njit(cache=True)
def _proven_by_table(child_current, child_mask, child_nb, target, width, height, table, gen,
                     region, db_keys, db_vals, db_ply):  # fmt: skip
    """True when the table (an upper bound) or the database (the exact score) already proves
    that the child's score is at most ``target``."""
    if child_nb == db_ply:
        v = db_probe(child_current, child_mask, child_nb, width, height, db_keys, db_vals)
        if v != NOT_FOUND:
            return v <= target
    key = table_key(child_current + child_mask, child_nb, width, height)
    h = key * HASH_MUL
    shift = table_shift(table.shape[0])
    slot, tag = table_place(h, width * height - child_nb, shift, region)
    entry = table[slot]
    if ((entry ^ (tag | gen)) >> U8) != U0:
        return False
    code = np.int64(entry & U255)
    return code < 128 and code - UPPER_CODE <= target


@njit(cache=True, nogil=True)
def principal_line(
    current_in, mask_in, nb_in, width, height, table, stats, fu, fi, db_keys, db_vals, db_ply,
    ctrl, res, out, trace,
):  # fmt: skip
    """A principal variation of the position: ``out[:count]`` (0-based columns), every move
    keeping the position's exact score ``res[0]``, to the end of the game. ``trace[k]`` gets
    what choosing move ``k`` cost: the nodes searched and the null-window probes run (the
    nodes of solving the start position go to the first move).

    Returns ``(status, count)``: LINE_COMPLETE, or LINE_STOPPED when ``ctrl`` stopped the
    search (``count`` moves are proven so far; ``res[0] <= score <= res[1]``, equal once the
    score is known), or LINE_INCONSISTENT (no move kept the score: never expected).
    Precondition: the game is not over in the position.
    """
    current = np.uint64(current_in)
    mask = np.uint64(mask_in)
    nb = nb_in
    cells = width * height
    bottom = bottom_mask(width, height)
    board = board_mask(width, height)
    gen = np.uint64(ctrl[CTRL_GEN]) << U8
    shared = np.zeros(2, dtype=np.int64)
    shared[0] = -SHARED_BIG
    shared[1] = SHARED_BIG
    before = stats[0]
    if not solve_position(  # typed, not literal, arguments: the one compiled solve_position
        current, mask, nb, np.bool_(False), width, height, table, stats, fu, fi,
        db_keys, db_vals, db_ply, ctrl, np.int64(0), shared, res,
    ):  # fmt: skip
        return LINE_STOPPED, 0
    value = res[0]
    count = 0
    cand = np.zeros(width, dtype=np.uint64)
    threats = np.zeros(width, dtype=np.int64)
    while nb < cells:
        possible = possible_moves(mask, bottom, board)
        wins = winning_cells(current, mask, height, board) & possible
        trace[count, 0] = 0
        trace[count, 1] = 0
        if wins != U0:  # the winning stone ends the game
            out[count] = _first_column(wins, width, height)
            trace[count, 0] = stats[0] - before
            return LINE_COMPLETE, count + 1
        nxt = non_losing_moves(current, mask, height, bottom, board)
        if nxt == U0:
            # every move lets the opponent win at once: all keep the score; block if possible
            forced = possible & winning_cells(current ^ mask, mask, height, board)
            col = _first_column(forced if forced != U0 else possible, width, height)
            m = possible & column_mask(col, height)
        else:
            m = _choose(current, mask, nb, value, nxt, width, height, table, stats, fu, fi,
                        db_keys, db_vals, db_ply, ctrl, gen, cand, threats, shared,
                        trace[count])  # fmt: skip
            if m == U0:
                return LINE_INCONSISTENT, count
            if m == U1 << np.uint64(63):
                return LINE_STOPPED, count
            col = _first_column(m, width, height)
        out[count] = col
        trace[count, 0] = stats[0] - before
        before = stats[0]
        count += 1
        current ^= mask
        mask |= m
        nb += 1
        value = -value
    return LINE_COMPLETE, count


@njit(cache=True)
def _choose(current, mask, nb, value, nxt, width, height, table, stats, fu, fi,
            db_keys, db_vals, db_ply, ctrl, gen, cand, threats, shared, trace):  # fmt: skip
    """The move (a bit) among ``nxt`` that keeps ``value``: first one the table or the
    database proves, else the first whose null-window probe fails low, in the search's order;
    0 when none does, bit 63 when ``ctrl`` stopped a probe. ``trace[1]`` counts the probes."""
    centre = width // 2
    count = 0
    for i in range(width):  # more threats first, ties centre-first (as the search orders)
        col = centre + i // 2 if i % 2 == 0 else centre - (i + 1) // 2
        m = nxt & column_mask(col, height)
        if m != U0:
            sc = popcount(winning_cells(current | m, mask | m, height, board_mask(width, height)))
            j = count
            while j > 0 and threats[j - 1] < sc:
                cand[j] = cand[j - 1]
                threats[j] = threats[j - 1]
                j -= 1
            cand[j] = m
            threats[j] = sc
            count += 1
    target = -value  # every child scores at least -value; the line's child scores exactly that
    for k in range(count):
        m = cand[k]
        if _proven_by_table(current ^ mask, mask | m, nb + 1, target, width, height, table, gen,
                            np.uint64(ctrl[CTRL_REGION]),
                            db_keys, db_vals, db_ply):  # fmt: skip
            return m
    for k in range(count):
        m = cand[k]
        shared[0] = -SHARED_BIG
        shared[1] = SHARED_BIG
        trace[1] += 1
        r = negamax(
            current ^ mask, mask | m, nb + 1, target, target + 1, width, height, table, stats,
            fu, fi, db_keys, db_vals, db_ply, ctrl, shared,
        )  # fmt: skip
        if r == ABORTED:
            return U1 << np.uint64(63)
        if r <= target:
            return m
    return U0
