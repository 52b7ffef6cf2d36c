# Python over the compiled search: its arguments are numba's types (numpy scalars and arrays),
# so these carry no annotations (the typed API is ``solver.Solver.line``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""A solved position's principal variation: best moves to the end of the game (see
``_bitboard`` for the board encoding, ``_negamax`` for the scores and the search, ``_table`` for
the table).

Along a principal variation only a move that *keeps* the position's known score ``v`` is
needed, not every move's score: every child's score (from its side to move's view) is at
least ``-v``, so one null-window probe ``negamax(child, -v, -v + 1)`` that fails low proves
that the child keeps the score. Candidates are tried in the search's own order (threats
first, then from the centre out), after a pass that accepts a child the table or the
database already proves at no cost; the line runs on the solver's table, so the positions
along it reuse each other's subtrees (and those of the analysis just done).

Plain Python around the compiled search, as ``_columns`` is: a move of the line costs a few
microseconds of Python beside its probes.
"""

from __future__ import annotations

import numpy as np

from ._bits import (
    board_mask,
    bottom_mask,
    column_mask,
    first_column,
    non_losing_moves,
    possible_moves,
    table_place,
    winning_cells,
)
from ._database_probe import NOT_FOUND, db_probe
from ._negamax import ABORTED, CTRL_GEN, CTRL_REGION, SHARED_BIG, negamax, solve_position
from ._table import UPPER_CODE

__all__ = ["LINE_COMPLETE", "LINE_INCONSISTENT", "LINE_STOPPED", "principal_line"]

LINE_COMPLETE = 0  # the line reaches the end of the game
LINE_STOPPED = 1  # the control array stopped the search: the line so far
LINE_INCONSISTENT = 2  # no move kept the score (a bug: the score or a table entry is wrong)

_STOPPED = 1 << 63  # _choose: a probe was stopped


def _proven_by_table(child_current, child_mask, child_nb, target, width, height, table, gen,
                     region, db_keys, db_vals, db_ply):  # fmt: skip
    """True when the table (an upper bound) or the database (the exact score) already proves
    that the child's score is at most ``target``."""
    if child_nb == db_ply:
        v = db_probe(
            np.uint64(child_current), np.uint64(child_mask), child_nb, width, height,
            db_keys, db_vals,
        )  # fmt: skip
        if v != NOT_FOUND:
            return v <= target
    slot, tag = table_place(
        child_current + child_mask, child_nb, width, height, table.shape[0], region
    )
    entry = int(table[slot])
    if (entry ^ (tag | gen)) >> 8:
        return False
    code = entry & 255
    return code < 128 and code - UPPER_CODE <= target


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
    current = int(current_in)
    mask = int(mask_in)
    nb = nb_in
    cells = width * height
    bottom = bottom_mask(width, height)
    board = board_mask(width, height)
    gen = int(ctrl[CTRL_GEN]) << 8
    shared = np.zeros(2, dtype=np.int64)
    shared[0] = -SHARED_BIG
    shared[1] = SHARED_BIG
    before = stats[0]
    if not solve_position(
        current, mask, nb, False, width, height, table, stats, fu, fi,
        db_keys, db_vals, db_ply, ctrl, 0, shared, res,
    ):  # fmt: skip
        return LINE_STOPPED, 0
    value = int(res[0])
    count = 0
    while nb < cells:
        possible = possible_moves(mask, bottom, board)
        wins = winning_cells(current, mask, height, board) & possible
        trace[count, 0] = 0
        trace[count, 1] = 0
        if wins:  # the winning stone ends the game
            out[count] = first_column(wins, width, height)
            trace[count, 0] = stats[0] - before
            return LINE_COMPLETE, count + 1
        nxt = non_losing_moves(current, mask, height, bottom, board)
        if not nxt:
            # every move lets the opponent win at once: all keep the score; block if possible
            forced = possible & winning_cells(current ^ mask, mask, height, board)
            col = first_column(forced or possible, width, height)
            m = possible & column_mask(col, height)
        else:
            m = _choose(current, mask, nb, value, nxt, width, height, table, stats, fu, fi,
                        db_keys, db_vals, db_ply, ctrl, gen, shared, trace[count])  # fmt: skip
            if not m:
                return LINE_INCONSISTENT, count
            if m == _STOPPED:
                return LINE_STOPPED, count
            col = first_column(m, width, height)
        out[count] = col
        trace[count, 0] = stats[0] - before
        before = stats[0]
        count += 1
        current ^= mask
        mask |= m
        nb += 1
        value = -value
    return LINE_COMPLETE, count


def _choose(current, mask, nb, value, nxt, width, height, table, stats, fu, fi,
            db_keys, db_vals, db_ply, ctrl, gen, shared, trace):  # fmt: skip
    """The move (a bit) among ``nxt`` that keeps ``value``: first one the table or the
    database proves, else the first whose null-window probe fails low, in the search's order;
    0 when none does, ``_STOPPED`` when ``ctrl`` stopped a probe. ``trace[1]`` counts the
    probes."""
    centre = width // 2
    board = board_mask(width, height)
    cand = []  # (threats, centre order, move): more threats first, ties centre-first
    for i in range(width):  # as the search orders
        col = centre + i // 2 if i % 2 == 0 else centre - (i + 1) // 2
        m = nxt & column_mask(col, height)
        if m:
            cand.append((-winning_cells(current | m, mask | m, height, board).bit_count(), i, m))
    cand.sort()
    target = -value  # every child scores at least -value; the line's child scores exactly that
    region = int(ctrl[CTRL_REGION])
    for _, _, m in cand:
        if _proven_by_table(current ^ mask, mask | m, nb + 1, target, width, height, table, gen,
                            region, db_keys, db_vals, db_ply):  # fmt: skip
            return m
    for _, _, m in cand:
        shared[0] = -SHARED_BIG
        shared[1] = SHARED_BIG
        trace[1] += 1
        r = negamax(
            np.uint64(current ^ mask), np.uint64(mask | m), nb + 1, target, target + 1, width,
            height, table, stats, fu, fi, db_keys, db_vals, db_ply, ctrl, shared,
        )  # fmt: skip
        if r == ABORTED:
            return _STOPPED
        if r <= target:
            return m
    return 0
