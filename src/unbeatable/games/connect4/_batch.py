# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Positions given by their moves, for the Connect Four solver: play a move string, solve a
batch of them in one call, step the table's generation between them."""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitboard import U0, board_mask, bottom_mask, column_mask, winning_cells
from ._negamax import CTRL_GEN, CTRL_SEARCHED, SHARED_BIG, solve_position_kernel

# status codes of play_moves (and STOPPED: a search cut short)
OK = 0
BAD_COLUMN = 1
COLUMN_FULL = 2
GAME_OVER = 3
STOPPED = 4


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
        done = solve_position_kernel(  # np.int64(0), not a literal: one compiled signature
            current, mask, nb, weak, width, height, table, stats, fu, fi,
            db_keys, db_vals, db_ply, ctrl, np.int64(0), shared, res,
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
