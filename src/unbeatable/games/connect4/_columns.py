# Python over the compiled search: its arguments are numba's types (numpy scalars and arrays),
# so these carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Every column of a position, for the Connect Four solver: each column's score
(:func:`score_map`) or which columns are best (:func:`best_map`).

Plain Python around the compiled search (``_negamax.negamax``, through
``_negamax.solve_position``): a column costs one search or one probe, and the Python between
them a few microseconds, so compiling these loops would only cost time (a compiled caller of
``negamax`` takes a second of the cold build: numba optimises the search's code again inside
it)."""

from __future__ import annotations

import numpy as np

from ._bits import board_mask, bottom_mask, can_win_next, column_mask, winning_cells
from ._negamax import ABORTED, CTRL_MAX_NODES, CTRL_STOP, SHARED_BIG, negamax, solve_position

FULL_COLUMN = -1000  # score-map marker of a full column

# Before solving its columns one by one, ``score_map`` gives each column's two probes next to
# 0 this many nodes each: the bounds a column's first nodes prove (a pairing, a tiling) are
# known for every column at once, not only for those its first searches reach (the empty
# 15 x 3 board: the first column searched took all of a 3 s analysis, and every column stayed
# unknown)
GLANCE_NODES = 64


def _columns_of(current_in, mask_in, width, height):
    """What :func:`score_map` and :func:`best_map` need to try each column of a position:
    its words (Python integers), its cell count, the bottom and board masks, and the cells
    where the side to move wins at once."""
    current = int(current_in)
    mask = int(mask_in)
    board = board_mask(width, height)
    wins = winning_cells(current, mask, height, board)
    return current, mask, width * height, bottom_mask(width, height), board, wins


def score_map(
    current_in, mask_in, nb, weak, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, out_lo, out_hi, order, live=None,
):  # fmt: skip
    """``out_lo[col] <= score of playing column col <= out_hi[col]`` (side to move's view;
    equal once solved), or FULL_COLUMN in both for a full column.  Columns are solved in the
    order ``order`` (0-based columns), each after a glance at every column (``GLANCE_NODES``);
    returns True if every column was solved, False when ``ctrl`` stopped the search (the
    columns not reached keep the glance's bounds, or the trivial ones). ``live``
    (3 entries, for a watch in another thread): the bounds the solve of the column being
    searched has proven so far for its child (``live[:2]``, narrowing as each probe ends), then
    that column (``live[2]``), which is written after the bounds are reset.
    """
    current, mask, cells, bottom, board, wins = _columns_of(current_in, mask_in, width, height)
    res = np.zeros(2, dtype=np.int64) if live is None else live[:2]
    shared = np.zeros(2, dtype=np.int64)
    budget = ctrl[CTRL_MAX_NODES]
    moves = []  # (column, its stone) of the columns to solve
    for i in range(order.shape[0]):
        col = int(order[i])
        cm = column_mask(col, height)
        m = (mask + (bottom & cm)) & cm
        if not m:
            out_lo[col] = FULL_COLUMN
            out_hi[col] = FULL_COLUMN
        elif wins & m:
            out_lo[col] = 1 if weak else (cells + 1 - nb) // 2
            out_hi[col] = out_lo[col]
        else:
            out_lo[col] = -1 if weak else -((cells - nb) // 2)
            out_hi[col] = 1 if weak else (cells - nb) // 2
            moves.append((col, m))
    # a glance at each: the child's probes on either side of 0, GLANCE_NODES each, inside the
    # caller's budget (strong scores; a weak score's whole range is those two probes)
    for col, m in moves if not weak and nb + 2 < cells else ():
        if can_win_next(current ^ mask, mask | m, height, bottom, board):
            continue  # the opponent wins at once: the column's own solve says so at once
        for alpha in (0, -1):  # does the child score more than 0? at least 0?
            if ctrl[CTRL_STOP] != 0 or stats[0] >= budget:
                break
            ctrl[CTRL_MAX_NODES] = min(budget, stats[0] + GLANCE_NODES)
            shared[0] = -SHARED_BIG
            shared[1] = SHARED_BIG
            r = negamax(
                np.uint64(current ^ mask), np.uint64(mask | m), nb + 1, alpha, alpha + 1,
                width, height, table, stats, fu, fi, db_keys, db_vals, db_ply, ctrl, shared,
            )  # fmt: skip
            if r == ABORTED:
                continue
            if r <= alpha:  # the child scores at most r
                out_lo[col] = max(out_lo[col], -r)
            else:  # at least r
                out_hi[col] = min(out_hi[col], -r)
    ctrl[CTRL_MAX_NODES] = budget
    complete = True
    for col, m in moves:
        if ctrl[CTRL_STOP] != 0 or stats[0] >= budget:
            return False  # the columns not reached keep what the glance proved
        if out_lo[col] == out_hi[col]:
            continue  # the glance solved it
        shared[0] = -SHARED_BIG
        shared[1] = SHARED_BIG
        if live is not None:
            res[0], res[1], live[2] = -SHARED_BIG, SHARED_BIG, col
        done = solve_position(
            current ^ mask, mask | m, nb + 1, weak, width, height, table, stats, fu, fi,
            db_keys, db_vals, db_ply, ctrl, 0, shared, res,
        )  # fmt: skip
        out_lo[col] = max(out_lo[col], -res[1])
        out_hi[col] = min(out_hi[col], -res[0])
        if not done:
            complete = False
            break
    return complete


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
    v = int(res[0])
    target = -v
    loss = -((cells - nb) // 2)  # the opponent wins with its next stone
    for i in range(order.shape[0]):
        col = int(order[i])
        cm = column_mask(col, height)
        m = (mask + (bottom & cm)) & cm
        out_lo[col] = loss
        out_hi[col] = (cells - nb) // 2
        if not m:
            out_lo[col] = FULL_COLUMN
            out_hi[col] = FULL_COLUMN
        elif wins & m:
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
                np.uint64(current ^ mask), np.uint64(mask | m), nb + 1, target, target + 1,
                width, height, table, stats, fu, fi, db_keys, db_vals, db_ply, ctrl, own,
            )  # fmt: skip
            if r == ABORTED:
                complete = False
            elif r <= target:  # the child scores at most -v, so exactly -v: a best column
                out_lo[col] = v
                out_hi[col] = v
            else:  # the child scores at least r > -v
                out_hi[col] = -r
    return complete
