# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``core.Position``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Make and unmake: playing a move on the position array and taking it back, with the Zobrist
key, the evaluation sums and the phase updated as pieces come and go (``refresh`` recomputes
them from scratch, for a position read from a FEN and for the tests)."""

from __future__ import annotations

import numpy as np

from ._movegen import ep_legal
from ._tables import (
    BLACK,
    CAPTURE,
    CASTLE_K,
    CASTLE_Q,
    DOUBLE_PUSH,
    EMPTY,
    EN_PASSANT,
    NO_SQUARE,
    P_ALL,
    P_BB,
    P_BOARD,
    P_CASTLE,
    P_EG,
    P_EP,
    P_FULL,
    P_HALF,
    P_KEY,
    P_MG,
    P_OCC,
    P_PHASE,
    P_SIDE,
    PAWN,
    PROMOTION,
    ROOK,
    T_CASTLE_MASK,
    T_PAWN,
    T_PHASE,
    T_PST_EG,
    T_PST_MG,
    T_Z_CASTLE,
    T_Z_EP,
    T_Z_PIECE,
    T_Z_SIDE,
    U0,
    U1,
    UNDO_FROM,
    WHITE,
    bit,
    kernel,
    lsb,
)


@kernel
def _put(pos, piece, square):
    """Place ``piece`` on the empty ``square`` (bitboards and mailbox only)."""
    b = bit(square)
    pos[P_BB + piece] |= b
    pos[P_OCC + piece // 6] |= b
    pos[P_ALL] |= b
    pos[P_BOARD + square] = piece


@kernel
def _lift(pos, piece, square):
    """Take ``piece`` off ``square`` (bitboards and mailbox only)."""
    b = bit(square)
    pos[P_BB + piece] ^= b
    pos[P_OCC + piece // 6] ^= b
    pos[P_ALL] ^= b
    pos[P_BOARD + square] = EMPTY


@kernel
def _add(pos, tab, piece, square):
    """Place ``piece`` and count it in the key and the evaluation sums."""
    _put(pos, piece, square)
    i = piece * 64 + square
    pos[P_KEY] ^= tab[T_Z_PIECE + i]
    pos[P_MG] += tab[T_PST_MG + i]
    pos[P_EG] += tab[T_PST_EG + i]
    pos[P_PHASE] += tab[T_PHASE + piece]


@kernel
def _remove(pos, tab, piece, square):
    """Take ``piece`` off and out of the key and the evaluation sums."""
    _lift(pos, piece, square)
    i = piece * 64 + square
    pos[P_KEY] ^= tab[T_Z_PIECE + i]
    pos[P_MG] -= tab[T_PST_MG + i]
    pos[P_EG] -= tab[T_PST_EG + i]
    pos[P_PHASE] -= tab[T_PHASE + piece]


@kernel
def make(pos, tab, move, undo, u):
    """Play the legal ``move``, saving what ``unmake`` needs in ``undo[u]``."""
    for i in range(8):
        undo[u, i] = pos[UNDO_FROM + i]
    frm = move & 63
    to = (move >> 6) & 63
    flag = move >> 12
    us = np.int64(pos[P_SIDE])
    them = 1 - us
    piece = np.int64(pos[P_BOARD + frm])
    ep = np.int64(pos[P_EP])
    if ep != NO_SQUARE:
        pos[P_KEY] ^= tab[T_Z_EP + (ep & 7)]
        pos[P_EP] = NO_SQUARE
    captured = EMPTY
    if flag == EN_PASSANT:
        captured = them * 6 + PAWN
        _remove(pos, tab, captured, to - 8 if us == WHITE else to + 8)
    elif flag & CAPTURE:
        captured = np.int64(pos[P_BOARD + to])
        _remove(pos, tab, captured, to)
    _remove(pos, tab, piece, frm)
    if flag & PROMOTION:
        _add(pos, tab, us * 6 + (flag & 3) + 1, to)
    else:
        _add(pos, tab, piece, to)
        if flag == CASTLE_K:
            _remove(pos, tab, us * 6 + ROOK, to + 1)
            _add(pos, tab, us * 6 + ROOK, to - 1)
        elif flag == CASTLE_Q:
            _remove(pos, tab, us * 6 + ROOK, to - 2)
            _add(pos, tab, us * 6 + ROOK, to + 1)
    if piece == us * 6 + PAWN or captured != EMPTY:
        pos[P_HALF] = 0
    else:
        pos[P_HALF] += U1
    rights = pos[P_CASTLE]
    kept = rights & tab[T_CASTLE_MASK + frm] & tab[T_CASTLE_MASK + to]
    if kept != rights:
        pos[P_KEY] ^= tab[T_Z_CASTLE + np.int64(rights)] ^ tab[T_Z_CASTLE + np.int64(kept)]
        pos[P_CASTLE] = kept
    if us == BLACK:
        pos[P_FULL] += U1
    pos[P_SIDE] = them
    pos[P_KEY] ^= tab[T_Z_SIDE]
    undo[u, 8] = captured
    if flag == DOUBLE_PUSH:
        target = (frm + to) >> 1
        takers = tab[T_PAWN + us * 64 + target] & pos[P_BB + them * 6 + PAWN]
        while takers:
            s = lsb(takers)
            takers &= takers - U1
            if ep_legal(pos, tab, them, s, target):
                pos[P_EP] = target
                pos[P_KEY] ^= tab[T_Z_EP + (target & 7)]
                break


@kernel
def unmake(pos, tab, move, undo, u):
    """Take back ``move``, played by ``make`` with the same ``undo[u]``."""
    frm = move & 63
    to = (move >> 6) & 63
    flag = move >> 12
    them = np.int64(pos[P_SIDE])
    us = 1 - them
    pos[P_SIDE] = us
    piece = np.int64(pos[P_BOARD + to])
    _lift(pos, piece, to)
    if flag & PROMOTION:
        _put(pos, us * 6 + PAWN, frm)
    else:
        _put(pos, piece, frm)
        if flag == CASTLE_K:
            _lift(pos, us * 6 + ROOK, to - 1)
            _put(pos, us * 6 + ROOK, to + 1)
        elif flag == CASTLE_Q:
            _lift(pos, us * 6 + ROOK, to + 1)
            _put(pos, us * 6 + ROOK, to - 2)
    captured = np.int64(undo[u, 8])
    if flag == EN_PASSANT:
        _put(pos, captured, to - 8 if us == WHITE else to + 8)
    elif captured != EMPTY:
        _put(pos, captured, to)
    for i in range(8):
        pos[UNDO_FROM + i] = undo[u, i]


@kernel
def make_null(pos, tab, undo, u):
    """Pass the move to the other side (for null-move pruning; never when in check)."""
    for i in range(8):
        undo[u, i] = pos[UNDO_FROM + i]
    ep = np.int64(pos[P_EP])
    if ep != NO_SQUARE:
        pos[P_KEY] ^= tab[T_Z_EP + (ep & 7)]
        pos[P_EP] = NO_SQUARE
    pos[P_HALF] = 0  # no repetition reaches back across a pass
    pos[P_SIDE] = 1 - np.int64(pos[P_SIDE])
    pos[P_KEY] ^= tab[T_Z_SIDE]


@kernel
def unmake_null(pos, undo, u):
    pos[P_SIDE] = 1 - np.int64(pos[P_SIDE])
    for i in range(8):
        pos[UNDO_FROM + i] = undo[u, i]


@kernel
def refresh(pos, tab):
    """Recompute everything derived from the bitboards (occupancy, mailbox, key, evaluation
    sums and phase) from scratch; the side, castling rights and en-passant square as they are
    (the en-passant square is kept only if a pawn may legally take there)."""
    pos[P_OCC] = U0
    pos[P_OCC + 1] = U0
    for sq in range(64):
        pos[P_BOARD + sq] = EMPTY
    key = U0
    mg = U0
    eg = U0
    phase = U0
    for piece in range(12):
        bb = pos[P_BB + piece]
        pos[P_OCC + piece // 6] |= bb
        while bb:
            sq = lsb(bb)
            bb &= bb - U1
            pos[P_BOARD + sq] = piece
            i = piece * 64 + sq
            key ^= tab[T_Z_PIECE + i]
            mg += tab[T_PST_MG + i]
            eg += tab[T_PST_EG + i]
            phase += tab[T_PHASE + piece]
    pos[P_ALL] = pos[P_OCC] | pos[P_OCC + 1]
    us = np.int64(pos[P_SIDE])
    ep = np.int64(pos[P_EP])
    if ep != NO_SQUARE:
        takers = tab[T_PAWN + (1 - us) * 64 + ep] & pos[P_BB + us * 6 + PAWN]
        legal = False
        while takers:
            s = lsb(takers)
            takers &= takers - U1
            legal = legal or ep_legal(pos, tab, us, s, ep)
        if legal:
            key ^= tab[T_Z_EP + (ep & 7)]
        else:
            pos[P_EP] = NO_SQUARE
    key ^= tab[T_Z_CASTLE + np.int64(pos[P_CASTLE])]
    if us == BLACK:
        key ^= tab[T_Z_SIDE]
    pos[P_KEY] = key
    pos[P_MG] = mg
    pos[P_EG] = eg
    pos[P_PHASE] = phase
