# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``searcher.Searcher``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Move ordering of the search: each move gets a score and the search takes the best left.

Order: the table's move; captures and promotions that do not lose material by the static
exchange evaluation, most valuable victim first and, among those, least valuable attacker
first (a queen promotion counts as taking a queen); the two killer moves of the ply (quiet moves
that refuted a sibling); the counter-move (the quiet move that last refuted the opponent's
previous move, by that move's piece and square); the other quiet moves by their history
score; last, captures that lose material. A quiet move's history score is the sum of three:
its history (by side, from square and to square) and its continuation history after the
opponent's previous move and after our own move before that (by the piece and square of that
move and of this one). Each rises when the move refutes a position and falls when it is tried
before the one that does, with a "gravity" term that keeps it within +-HISTORY_MAX. Of two
moves with the same score, the one generated first comes first (each score is packed with the
move's place in the list: ``score_moves``).

The per-thread heuristics live in one ``int16`` array ``heur``: the killers of each ply
(``2 * MAX_PLY``), the history table (``2 * 4096``), the counter-moves (``12 * 64``), then the
continuation history (``(12 * 64) ** 2``). A move's "piece-to" index is ``piece * 64 + to``;
-1 stands for no move (the root, a null move). Every value fits 16 bits: the histories stay
within +-HISTORY_MAX (``_nudge``), and killers and counter-moves are quiet moves, whose flags
(below ``CAPTURE``) keep them under 2**14. Half the bytes of ``int32`` keep more of the
continuation history, 1.2 MB, in the cache.

A capture's score is below zero exactly when it loses material by SEE: one whose victim is
worth at least its taker never does (the taker is the most it can lose), and the others get
SEE's verdict. The quiescence search relies on it to skip losing captures without working out
the exchange again.
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
H_COUNTER = H_HISTORY + 2 * 4096
H_CONT = H_COUNTER + 12 * 64
HEUR_SIZE = H_CONT + (12 * 64) ** 2
COUNTER_SCORE = KILLER_SCORE - 2


@kernel
def history_index(side, move):
    return H_HISTORY + side * 4096 + (move & 4095)


@kernel
def quiet_score(heur, side, piece_to, move, prev1, prev2):
    """A quiet move's history score: its history and its two continuation histories."""
    h = np.int64(heur[history_index(side, move)])
    if prev1 >= 0:
        h += heur[H_CONT + prev1 * 768 + piece_to]
    if prev2 >= 0:
        h += heur[H_CONT + prev2 * 768 + piece_to]
    return h


@kernel
def piece_to(pos, move):
    """The piece-to index of ``move`` in ``pos`` (before it is made)."""
    return np.int64(pos[P_BOARD + (move & 63)]) * 64 + ((move >> 6) & 63)


@kernel
def score_moves(pos, tab, moves, scores, start, end, tt_move, heur, ply, gain, prev1, prev2):
    """Give each move of ``moves[start:end]`` its ordering score (``gain``: ``see``'s scratch;
    ``prev1``, ``prev2``: the piece-to indices of the last two moves, -1 for none), packed with
    its place: ``score * 256 + 255 - (i - start)``, so that every move's is different and, of
    two moves with the same score, the one generated first has the larger (``base_score``
    unpacks it). The order is then the same whichever moves are taken out of the list, which
    lets the search drop the moves it would prune without changing what it searches."""
    side = np.int64(pos[P_SIDE])
    k1 = heur[H_KILLERS + 2 * ply]
    k2 = heur[H_KILLERS + 2 * ply + 1]
    counter = heur[H_COUNTER + prev1] if prev1 >= 0 else 0
    for i in range(start, end):
        m = np.int64(moves[i])
        flag = m >> 12
        if m == tt_move:
            score = TT_MOVE_SCORE
        elif flag & (CAPTURE | PROMOTION):
            victim = SEE_VALUE[captured_kind(pos, m)]
            if flag & PROMOTION:
                victim += SEE_VALUE[(flag & 3) + 1]
            attacker = SEE_VALUE[np.int64(pos[P_BOARD + (m & 63)]) % 6]
            value = victim * 8 - attacker // 100
            if attacker > victim and see(pos, tab, m, gain) < 0:
                score = BAD_CAPTURE + value
            else:
                score = GOOD_CAPTURE + value
        elif m == k1:
            score = KILLER_SCORE
        elif m == k2:
            score = KILLER_SCORE - 1
        elif m == counter:
            score = COUNTER_SCORE
        else:
            score = quiet_score(heur, side, piece_to(pos, m), m, prev1, prev2)
        scores[i] = (score << 8) | (255 - (i - start))  # ties: the first generated first


@kernel
def base_score(packed):
    """The ordering score of a move without its place (``score_moves``)."""
    return packed >> 8


@kernel
def pick(moves, scores, i, end):
    """Swap the best-scored move of ``moves[i:end]`` into place ``i`` and return it, in one pass
    without a branch: the largest of ``score * 256 + 255 - (j - i)`` over ``j`` (a position has
    fewer than 256 moves) is the best score at its place (the first of the best, were two the
    same; ``score_moves``'s are all different)."""
    top = (scores[i] << 8) | 255
    for j in range(i + 1, end):
        top = max(top, (scores[j] << 8) | (255 - (j - i)))
    best = i + 255 - (top & 255)
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
def _nudge_all(heur, side, pos, move, prev1, prev2, bonus):
    """Nudge a quiet move's history and continuation histories by ``bonus``."""
    _nudge(heur, history_index(side, move), bonus)
    pt = piece_to(pos, move)
    if prev1 >= 0:
        _nudge(heur, H_CONT + prev1 * 768 + pt, bonus)
    if prev2 >= 0:
        _nudge(heur, H_CONT + prev2 * 768 + pt, bonus)


@kernel
def reward(heur, side, ply, move, depth, moves, tried_from, tried_to, pos, prev1, prev2):
    """A quiet ``move`` refuted its position ``pos`` at ``depth``: make it a killer of ``ply``
    and the counter-move of the previous move, raise its histories and lower those of the quiet
    moves tried before it (``moves[tried_from:tried_to]``, which include ``move`` itself
    last)."""
    if heur[H_KILLERS + 2 * ply] != move:
        heur[H_KILLERS + 2 * ply + 1] = heur[H_KILLERS + 2 * ply]
        heur[H_KILLERS + 2 * ply] = move
    if prev1 >= 0:
        heur[H_COUNTER + prev1] = move
    bonus = min(depth * depth, 400)
    _nudge_all(heur, side, pos, move, prev1, prev2, bonus)
    for i in range(tried_from, tried_to):
        other = np.int64(moves[i])
        if other != move:
            _nudge_all(heur, side, pos, other, prev1, prev2, -bonus)
