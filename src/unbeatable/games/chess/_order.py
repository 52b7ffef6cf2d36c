# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``searcher.Searcher``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Move ordering of the search: each move gets a score and the search takes the best left.

Order: the table's move; captures and promotions that do not lose material by the static
exchange evaluation, most valuable victim first and, among those, least valuable attacker
first (a queen promotion counts as taking a queen); the two killer moves of the ply (quiet moves
that refuted a sibling); the other quiet moves by their history score; last, captures that lose
material. The history score of a quiet move (by side, from square and to square) rises when
the move refutes a position and falls when it is tried before the one that does, with a
"gravity" term that keeps it within +-HISTORY_MAX.

The per-thread heuristics live in one ``int32`` array ``heur``: the killers of each ply
(``2 * MAX_PLY``), then the history table (``2 * 4096``).
"""

from __future__ import annotations

import numpy as np

from ._eval import SEE_VALUE, captured_kind, see
from ._tables import CAPTURE, P_BOARD, P_SIDE, PROMOTION, kernel
from ._tt import MAX_PLY

TT_MOVE_SCORE = 1 << 30
GOOD_CAPTURE = 1 << 28
KILLER_SCORE = 1 << 27
BAD_CAPTURE = -(1 << 24)
HISTORY_MAX = 1 << 14
H_KILLERS = 0
H_HISTORY = 2 * MAX_PLY
HEUR_SIZE = H_HISTORY + 2 * 4096


@kernel
def history_index(side, move):
    return H_HISTORY + side * 4096 + (move & 4095)


@kernel
def score_moves(pos, tab, moves, scores, start, end, tt_move, heur, ply, gain):
    """Give each move of ``moves[start:end]`` its ordering score (``gain``: ``see``'s scratch)."""
    side = np.int64(pos[P_SIDE])
    k1 = heur[H_KILLERS + 2 * ply]
    k2 = heur[H_KILLERS + 2 * ply + 1]
    for i in range(start, end):
        m = np.int64(moves[i])
        flag = m >> 12
        if m == tt_move:
            scores[i] = TT_MOVE_SCORE
        elif flag & (CAPTURE | PROMOTION):
            victim = SEE_VALUE[captured_kind(pos, m)]
            if flag & PROMOTION:
                victim += SEE_VALUE[(flag & 3) + 1]
            attacker = SEE_VALUE[np.int64(pos[P_BOARD + (m & 63)]) % 6]
            value = victim * 8 - attacker // 100
            if attacker > victim and see(pos, tab, m, gain) < 0:
                scores[i] = BAD_CAPTURE + value
            else:
                scores[i] = GOOD_CAPTURE + value
        elif m == k1:
            scores[i] = KILLER_SCORE
        elif m == k2:
            scores[i] = KILLER_SCORE - 1
        else:
            scores[i] = heur[history_index(side, m)]


@kernel
def pick(moves, scores, i, end):
    """Swap the best-scored move of ``moves[i:end]`` into place ``i`` and return it."""
    best = i
    for j in range(i + 1, end):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        m = moves[i]
        moves[i] = moves[best]
        moves[best] = m
        s = scores[i]
        scores[i] = scores[best]
        scores[best] = s
    return np.int64(moves[i])


@kernel
def _nudge(heur, index, bonus):
    """Move a history score by ``bonus``, less the closer it already is to the bound."""
    h = np.int64(heur[index])
    heur[index] = h + bonus - h * abs(bonus) // HISTORY_MAX


@kernel
def reward(heur, side, ply, move, depth, moves, tried_from, tried_to):
    """A quiet ``move`` refuted its position at ``depth``: make it a killer of ``ply``, raise
    its history and lower that of the quiet moves tried before it (``moves[tried_from:
    tried_to]``, which include ``move`` itself last)."""
    if heur[H_KILLERS + 2 * ply] != move:
        heur[H_KILLERS + 2 * ply + 1] = heur[H_KILLERS + 2 * ply]
        heur[H_KILLERS + 2 * ply] = move
    bonus = min(depth * depth, 400)
    _nudge(heur, history_index(side, move), bonus)
    for i in range(tried_from, tried_to):
        other = np.int64(moves[i])
        if other != move:
            _nudge(heur, history_index(side, other), -bonus)
