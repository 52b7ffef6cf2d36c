# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The Connect Four kernels called from Python: play a move string, score every column, find
the best columns, solve a batch of positions, step the table's generation (see ``_kernel``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernel import (
    ABORTED,
    BAD_COLUMN,
    COLUMN_FULL,
    CTRL_GEN,
    CTRL_SEARCHED,
    FULL_COLUMN,
    GAME_OVER,
    OK,
    SHARED_BIG,
    STOPPED,
    U0,
    board_mask,
    bottom_mask,
    can_win_next,
    column_mask,
    negamax,
    solve_position,
    winning_cells,
)


@njit(cache=True)
def play_moves(cols, start, end, width, height):
    """Play 0-based columns ``cols[start:end]`` from the empty board.

    Returns ``(current, mask, nb, status)``; ``status`` is OK, BAD_COLUMN,
    COLUMN_FULL or GAME_OVER (a move made four, or was played after one), and
    ``nb`` then is the index of the offending move.
    """
    bottom = bottom_mask(width, height)
    board = board_mask(width, height)
    current = U0
    mask = U0
    nb = 0
    for i in range(start, end):
        col = np.int64(cols[i])
        if col < 0 or col >= width:
            return current, mask, nb, BAD_COLUMN
        cm = column_mask(col, height)
        m = (mask + (bottom & cm)) & cm
        if m == U0:
            return current, mask, nb, COLUMN_FULL
        if (winning_cells(current, mask, height, board) & m) != U0:
            return current, mask, nb, GAME_OVER
        current ^= mask
        mask |= m
        nb += 1
    return current, mask, nb, OK


@njit(cache=True, inline="always")
def _columns_of(current_in, mask_in, width, height):
    """What :func:`score_map` and :func:`best_map` need to try each column of a position:
    its words, its cell count, the bottom and board masks, and the cells where the side to
    move wins at once."""
    current = np.uint64(current_in)
    mask = np.uint64(mask_in)
    board = board_mask(width, height)
    wins = winning_cells(current, mask, height, board)
    return current, mask, width * height, bottom_mask(width, height), board, wins


@njit(cache=True, nogil=True)
def score_map(
    current_in, mask_in, nb, weak, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, out_lo, out_hi, order,
):  # fmt: skip
    """``out_lo[col] <= score of playing column col <= out_hi[col]`` (side to move's view;
    equal once solved), or FULL_COLUMN in both for a full column.  Columns are solved in the
    order ``order`` (0-based columns); returns True if every column was solved, False when
    ``ctrl`` stopped the search (the columns not reached keep the trivial bounds).
    """
    current, mask, cells, bottom, _board, wins = _columns_of(current_in, mask_in, width, height)
    res = np.zeros(2, dtype=np.int64)
    shared = np.zeros(2, dtype=np.int64)
    complete = True
    for i in range(order.shape[0]):
        col = order[i]
        cm = column_mask(col, height)
        m = (mask + (bottom & cm)) & cm
        if m == U0:
            out_lo[col] = FULL_COLUMN
            out_hi[col] = FULL_COLUMN
        elif (wins & m) != U0:
            out_lo[col] = 1 if weak else (cells + 1 - nb) // 2
            out_hi[col] = out_lo[col]
        elif not complete:
            out_lo[col] = -1 if weak else -((cells - nb) // 2)
            out_hi[col] = 1 if weak else (cells - nb) // 2
        else:
            shared[0] = -SHARED_BIG
            shared[1] = SHARED_BIG
            done = solve_position(
                current ^ mask, mask | m, nb + 1, weak, width, height, table, stats, fu, fi,
                db_keys, db_vals, db_ply, ctrl, 0, shared, res,
            )  # fmt: skip
            out_lo[col] = -res[1]
            out_hi[col] = -res[0]
            if not done:
                complete = False
    return complete


@njit(cache=True, nogil=True)
def best_map(
    current_in, mask_in, nb, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, role, shared, out_lo, out_hi, order,
):  # fmt: skip
    """Which columns are best: the position's score ``v`` first (:func:`solve_position`, with
    ``role`` and ``shared`` as there), then one null-window probe per column, in the order
    ``order``, of whether its child keeps ``v`` (every child scores at least ``-v`` from its
    side's view; a probe that fails low proves it scores exactly that). A best column gets
    ``out_lo == out_hi == v``; another its exact score when the game ends at once, else an
    upper bound below ``v`` (``out_lo`` is then the trivial lower bound); a full column
    FULL_COLUMN in both. Cheaper than :func:`score_map`, which solves every column: each probe
    asks a child one question. Returns True when every column was placed; False when ``ctrl``
    stopped the search (the columns not reached keep the trivial bounds). Strong scores only.
    """
    current, mask, cells, bottom, board, wins = _columns_of(current_in, mask_in, width, height)
    res = np.zeros(2, dtype=np.int64)
    own = np.zeros(2, dtype=np.int64)
    complete = solve_position(
        current, mask, nb, False, width, height, table, stats, fu, fi,
        db_keys, db_vals, db_ply, ctrl, role, shared, res,
    )  # fmt: skip
    v = res[0]
    target = -v
    loss = -((cells - nb) // 2)  # the opponent wins with its next stone
    for i in range(order.shape[0]):
        col = order[i]
        cm = column_mask(col, height)
        m = (mask + (bottom & cm)) & cm
        out_lo[col] = loss
        out_hi[col] = (cells - nb) // 2
        if m == U0:
            out_lo[col] = FULL_COLUMN
            out_hi[col] = FULL_COLUMN
        elif (wins & m) != U0:
            out_lo[col] = (cells + 1 - nb) // 2
            out_hi[col] = out_lo[col]
        elif not complete:
            continue
        elif nb + 1 >= cells:  # the last stone, not a winning one: a draw
            out_lo[col] = 0
            out_hi[col] = 0
        elif can_win_next(current ^ mask, mask | m, height, bottom, board):
            out_hi[col] = loss
        else:
            own[0] = -SHARED_BIG
            own[1] = SHARED_BIG
            r = negamax(
                current ^ mask, mask | m, nb + 1, target, target + 1, width, height, table,
                stats, fu, fi, db_keys, db_vals, db_ply, ctrl, own,
            )  # fmt: skip
            if r == ABORTED:
                complete = False
            elif r <= target:  # the child scores at most -v, so exactly -v: a best column
                out_lo[col] = v
                out_hi[col] = v
            else:  # the child scores at least r > -v
                out_hi[col] = -r
    return complete


@njit(cache=True, nogil=True)
def solve_batch(
    cols, offsets, weak, reset_each, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, out_scores, out_nodes, out_status,
):  # fmt: skip
    """Solve position ``i`` = moves ``cols[offsets[i]:offsets[i + 1]]`` for every ``i``.

    The table is kept from one position to the next unless ``reset_each`` (then the
    generation ``ctrl[CTRL_GEN]`` moves on: a fixed cost, the slots are not touched, except
    a real clear every 255 generations).  Positions with a bad move sequence get
    ``out_status[i] != OK`` and score 0; a search stopped by ``ctrl`` gets STOPPED.
    """
    n = offsets.shape[0] - 1
    res = np.zeros(2, dtype=np.int64)
    shared = np.zeros(2, dtype=np.int64)
    for i in range(n):
        current, mask, nb, status = play_moves(cols, offsets[i], offsets[i + 1], width, height)
        out_status[i] = status
        out_scores[i] = 0
        out_nodes[i] = 0
        if status != OK:
            continue
        if reset_each:
            next_generation(table, ctrl)
        before = stats[0]
        shared[0] = -SHARED_BIG
        shared[1] = SHARED_BIG
        done = solve_position(
            current, mask, nb, weak, width, height, table, stats, fu, fi,
            db_keys, db_vals, db_ply, ctrl, 0, shared, res,
        )  # fmt: skip
        out_scores[i] = res[0]
        out_nodes[i] = stats[0] - before
        if not done:
            out_status[i] = STOPPED


@njit(cache=True, nogil=True)
def next_generation(table, ctrl):
    """Make every table entry stale: the next generation (1..255), or a real clear on wrap."""
    g = ctrl[CTRL_GEN] + 1
    if g > 255:
        table[:] = U0
        g = 1
    ctrl[CTRL_GEN] = g
    ctrl[CTRL_SEARCHED] = 0
