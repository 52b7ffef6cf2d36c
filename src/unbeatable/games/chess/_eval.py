# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``searcher.Searcher``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The evaluation and the static exchange evaluation of the search.

``evaluate``: PeSTO's tapered evaluation (material and piece-square tables for the middle game
and the end game, blended by the material left: ``_pesto``), read from the sums that make/unmake
keep up to date, in centipawns from the side to move's view. Nothing else for now: each further
term (mobility, pawn structure, king safety, passed pawns) is to be added only when a measured
match says it pays.

``see``: what a capture wins or loses once every piece that bears on its square has taken in
turn, least valuable first, each side free to stop taking when that suits it (the swap
algorithm; pieces uncovered behind a capturer join in; pins are ignored).
"""

from __future__ import annotations

import numpy as np

from ._movegen import bishop_attacks, rook_attacks
from ._tables import (
    BISHOP,
    CAPTURE,
    CASTLE_K,
    CASTLE_Q,
    EN_PASSANT,
    KING,
    KNIGHT,
    P_ALL,
    P_BB,
    P_BOARD,
    P_EG,
    P_MG,
    P_OCC,
    P_PHASE,
    P_SIDE,
    PAWN,
    PROMOTION,
    QUEEN,
    ROOK,
    T_KING,
    T_KNIGHT,
    T_PAWN,
    U0,
    U1,
    bit,
    kernel,
    lsb,
)

PHASE_FULL = 24
# Piece values for captures' order and exchanges, by kind (pawn .. king).
SEE_VALUE = np.array([100, 320, 330, 500, 900, 20_000, 0], dtype=np.int64)


@kernel
def evaluate(pos):
    """The position for the side to move, in centipawns (PeSTO, tapered)."""
    mg = np.int64(pos[P_MG])
    eg = np.int64(pos[P_EG])
    phase = min(np.int64(pos[P_PHASE]), PHASE_FULL)
    score = (mg * phase + eg * (PHASE_FULL - phase)) // PHASE_FULL
    return score if pos[P_SIDE] == 0 else -score


@kernel
def captured_kind(pos, move):
    """The kind of piece ``move`` takes (6 when it takes nothing)."""
    flag = move >> 12
    if flag == EN_PASSANT:
        return PAWN
    if flag & CAPTURE:
        return np.int64(pos[P_BOARD + ((move >> 6) & 63)]) % 6
    return 6


@kernel
def _least_valuable(pos, attackers, side):
    """The square and kind of ``side``'s least valuable piece among ``attackers`` (-1 none)."""
    for kind in range(6):
        mine = attackers & pos[P_BB + side * 6 + kind]
        if mine:
            return lsb(mine), kind
    return -1, -1


@kernel
def see(pos, tab, move, gain):
    """What ``move`` wins in material once the exchange on its square has run its course
    (centipawns, ``SEE_VALUE``); 0 for castling. ``gain``: scratch space, 34 ``int64``."""
    frm = move & 63
    to = (move >> 6) & 63
    flag = move >> 12
    if flag in (CASTLE_K, CASTLE_Q):
        return 0
    occ = pos[P_ALL] ^ bit(frm)
    victim = captured_kind(pos, move)
    gain[0] = SEE_VALUE[victim]
    on_square = SEE_VALUE[np.int64(pos[P_BOARD + frm]) % 6]
    if flag & PROMOTION:
        promoted = SEE_VALUE[(flag & 3) + 1]
        gain[0] += promoted - SEE_VALUE[PAWN]
        on_square = promoted
    if flag == EN_PASSANT:
        occ ^= bit(to - 8 if pos[P_SIDE] == 0 else to + 8)
    diagonal = (
        pos[P_BB + BISHOP] | pos[P_BB + QUEEN] | pos[P_BB + 6 + BISHOP] | pos[P_BB + 6 + QUEEN]
    )
    straight = pos[P_BB + ROOK] | pos[P_BB + QUEEN] | pos[P_BB + 6 + ROOK] | pos[P_BB + 6 + QUEEN]
    attackers = (
        (tab[T_PAWN + 64 + to] & pos[P_BB + PAWN])
        | (tab[T_PAWN + to] & pos[P_BB + 6 + PAWN])
        | (tab[T_KNIGHT + to] & (pos[P_BB + KNIGHT] | pos[P_BB + 6 + KNIGHT]))
        | (tab[T_KING + to] & (pos[P_BB + KING] | pos[P_BB + 6 + KING]))
        | (bishop_attacks(tab, to, occ) & diagonal)
        | (rook_attacks(tab, to, occ) & straight)
    ) & occ
    side = 1 - np.int64(pos[P_SIDE])
    d = 0
    while d < 32:
        square, kind = _least_valuable(pos, attackers, side)
        if square < 0:
            break
        if kind == KING and attackers & pos[P_OCC + 1 - side]:
            break  # the king may not take on a square the other side still guards
        d += 1
        gain[d] = on_square - gain[d - 1]  # what ``side`` has if it takes and it ends there
        occ ^= bit(square)
        attackers &= ~bit(square)
        if kind in (PAWN, BISHOP, QUEEN):
            attackers |= bishop_attacks(tab, to, occ) & diagonal & occ
        if kind in (ROOK, QUEEN):
            attackers |= rook_attacks(tab, to, occ) & straight & occ
        on_square = SEE_VALUE[kind]
        side = 1 - side
    while d > 0:  # each side takes only when taking beats stopping
        gain[d - 1] = -max(-gain[d - 1], gain[d])
        d -= 1
    return gain[0]


@kernel
def is_quiet(move):
    """Neither a capture nor a promotion."""
    return (move >> 12) & (CAPTURE | PROMOTION) == 0


@kernel
def non_pawn_material(pos, side):
    """Whether ``side`` has a piece other than pawns and its king (null moves need one)."""
    b = P_BB + side * 6
    return (pos[b + KNIGHT] | pos[b + BISHOP] | pos[b + ROOK] | pos[b + QUEEN]) != U0


@kernel
def dead_draw(pos):
    """Neither side can mate by material: no pawn, rook or queen, at most one minor piece."""
    heavy = U0
    minors = U0
    for side in range(2):
        b = P_BB + side * 6
        heavy |= pos[b + PAWN] | pos[b + ROOK] | pos[b + QUEEN]
        minors |= pos[b + KNIGHT] | pos[b + BISHOP]
    return heavy == U0 and (minors & (minors - U1)) == U0

