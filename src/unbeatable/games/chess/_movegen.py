# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``core.Position``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The rules, compiled: attacks, legal move generation, make/unmake and perft.

Every function takes the position array ``pos`` and the tables array ``tab`` (see ``_tables``
for both layouts) and works on integers only, so numba compiles it and it also runs as plain
Python with ``NUMBA_DISABLE_JIT=1``.

Move generation is legal, not pseudo-legal: it finds the pieces giving check and the pieces
pinned to their king first, and then produces only moves that leave the king safe. A king
steps only to squares that no enemy piece attacks with the king itself taken off the board (so
it cannot step back along the line of a slider's check); in double check only the king moves;
in single check the other pieces may only take the checker or block its line; a pinned piece
moves only along the line through its king and its pinner. En passant is the one move whose
legality this does not settle (taking two pawns off one rank can uncover a rook's check on the
king, and the pawn that just moved may be the checker), so it is tried on the occupancy and
the king's attackers are counted again (``ep_legal``).
"""

from __future__ import annotations

import numpy as np

from ._tables import (
    ALL_BITS,
    BISHOP,
    CAPTURE,
    CASTLE_K,
    CASTLE_Q,
    DOUBLE_PUSH,
    EN_PASSANT,
    KING,
    KNIGHT,
    NO_SQUARE,
    P_ALL,
    P_BB,
    P_BOARD,
    P_CASTLE,
    P_EP,
    P_OCC,
    P_SIDE,
    PAWN,
    PROMOTION,
    QUEEN,
    QUIET,
    ROOK,
    T_BETWEEN,
    T_BISHOP_MAGIC,
    T_BISHOP_MASK,
    T_BISHOP_OFFSET,
    T_BISHOP_SHIFT,
    T_KING,
    T_KNIGHT,
    T_LINE,
    T_PAWN,
    T_ROOK_MAGIC,
    T_ROOK_MASK,
    T_ROOK_OFFSET,
    T_ROOK_SHIFT,
    U0,
    U1,
    WHITE,
    bit,
    kernel,
    lsb,
    popcount,
)

# What gen_moves produces.
# (numpy scalars, so that numba compiles gen_moves once: _tables.I0)
GEN_ALL = np.int64(0)  # every legal move
GEN_NOISY = np.int64(1)  # captures, en passant, promotions to a queen (not for a side in check)

KING_SIDE_EMPTY = np.uint64(0x60)  # f1, g1 (shifted by 56 for Black)
QUEEN_SIDE_EMPTY = np.uint64(0x0E)  # b1, c1, d1


@kernel
def rook_attacks(tab, square, occ):
    """The squares a rook on ``square`` attacks, given the occupied squares ``occ``."""
    m = occ & tab[T_ROOK_MASK + square]
    index = (m * tab[T_ROOK_MAGIC + square]) >> tab[T_ROOK_SHIFT + square]
    return tab[tab[T_ROOK_OFFSET + square] + index]


@kernel
def bishop_attacks(tab, square, occ):
    """The squares a bishop on ``square`` attacks, given the occupied squares ``occ``."""
    m = occ & tab[T_BISHOP_MASK + square]
    index = (m * tab[T_BISHOP_MAGIC + square]) >> tab[T_BISHOP_SHIFT + square]
    return tab[tab[T_BISHOP_OFFSET + square] + index]


@kernel
def attackers(pos, tab, square, by, occ):
    """The pieces of colour ``by`` that attack ``square`` when ``occ`` are the occupied squares
    (a piece of ``by`` off ``occ`` still attacks through it: callers take it off when they
    mean it)."""
    b = by * 6
    queens = pos[P_BB + b + QUEEN]
    return (
        (tab[T_PAWN + (1 - by) * 64 + square] & pos[P_BB + b + PAWN])
        | (tab[T_KNIGHT + square] & pos[P_BB + b + KNIGHT])
        | (tab[T_KING + square] & pos[P_BB + b + KING])
        | (bishop_attacks(tab, square, occ) & (pos[P_BB + b + BISHOP] | queens))
        | (rook_attacks(tab, square, occ) & (pos[P_BB + b + ROOK] | queens))
    )


@kernel
def attacked(pos, tab, square, by, occ):
    """Whether a piece of colour ``by`` attacks ``square`` (``occ`` as in ``attackers``)."""
    b = by * 6
    if tab[T_PAWN + (1 - by) * 64 + square] & pos[P_BB + b + PAWN]:
        return True
    if tab[T_KNIGHT + square] & pos[P_BB + b + KNIGHT]:
        return True
    if tab[T_KING + square] & pos[P_BB + b + KING]:
        return True
    queens = pos[P_BB + b + QUEEN]
    if bishop_attacks(tab, square, occ) & (pos[P_BB + b + BISHOP] | queens):
        return True
    return (rook_attacks(tab, square, occ) & (pos[P_BB + b + ROOK] | queens)) != U0


@kernel
def king_square(pos, side):
    return lsb(pos[P_BB + side * 6 + KING])


@kernel
def checkers(pos, tab):
    """The enemy pieces that give check to the side to move."""
    us = np.int64(pos[P_SIDE])
    return attackers(pos, tab, king_square(pos, us), 1 - us, pos[P_ALL])


@kernel
def in_check(pos, tab):
    us = np.int64(pos[P_SIDE])
    return attacked(pos, tab, king_square(pos, us), 1 - us, pos[P_ALL])


@kernel
def gives_check(pos, tab, move):
    """Whether the legal ``move`` gives check, found before it is made (what ``in_check`` says
    once it is made). A legal position has the side to move's king out of check, so afterwards
    only the piece that moved (a pawn or a knight on its new square, or what a pawn promotes to)
    and the side's sliders can attack the enemy king: the sliders on the new occupancy, the
    moved one (and castling's rook) on its new square, so that discovered checks count too."""
    flag = move >> 12
    us = np.int64(pos[P_SIDE])
    frm = move & 63
    to = (move >> 6) & 63
    ksq = king_square(pos, 1 - us)
    kind = np.int64(pos[P_BOARD + frm]) % 6
    if flag & PROMOTION:
        kind = (flag & 3) + 1
    if kind == PAWN and tab[T_PAWN + us * 64 + to] & bit(ksq):
        return True
    if kind == KNIGHT and tab[T_KNIGHT + to] & bit(ksq):
        return True
    if (
        flag != EN_PASSANT
        and flag != CASTLE_K
        and flag != CASTLE_Q
        and tab[T_LINE + frm * 64 + ksq] == U0
        and tab[T_LINE + to * 64 + ksq] == U0
    ):
        return False  # neither square shares a line with the king: no slider can check
    b = P_BB + us * 6
    queens = pos[b + QUEEN]
    on_to = bit(to)
    diagonal = (pos[b + BISHOP] | queens) & ~bit(frm)
    straight = (pos[b + ROOK] | queens) & ~bit(frm)
    if kind in (BISHOP, QUEEN):
        diagonal |= on_to
    if kind in (ROOK, QUEEN):
        straight |= on_to
    occ = (pos[P_ALL] & ~bit(frm)) | on_to
    if flag == EN_PASSANT:
        occ &= ~bit(to - 8 if us == WHITE else to + 8)
    elif flag in (CASTLE_K, CASTLE_Q):
        rook_from = to + 1 if flag == CASTLE_K else to - 2
        rook_to = to - 1 if flag == CASTLE_K else to + 1
        occ = (occ & ~bit(rook_from)) | bit(rook_to)
        straight = (straight & ~bit(rook_from)) | bit(rook_to)
    if bishop_attacks(tab, ksq, occ) & diagonal:
        return True
    return (rook_attacks(tab, ksq, occ) & straight) != U0


@kernel
def ep_legal(pos, tab, side, frm, ep):
    """Whether the pawn of ``side`` on ``frm`` may take en passant on ``ep`` without leaving its
    king attacked (tried on the occupancy with both pawns gone and the capturer arrived)."""
    them = 1 - side
    cap = ep - 8 if side == WHITE else ep + 8
    ksq = king_square(pos, side)
    occ = (pos[P_ALL] ^ bit(frm) ^ bit(cap)) | bit(ep)
    b = them * 6
    queens = pos[P_BB + b + QUEEN]
    if bishop_attacks(tab, ksq, occ) & (pos[P_BB + b + BISHOP] | queens):
        return False
    if rook_attacks(tab, ksq, occ) & (pos[P_BB + b + ROOK] | queens):
        return False
    if tab[T_KNIGHT + ksq] & pos[P_BB + b + KNIGHT]:
        return False
    return (tab[T_PAWN + side * 64 + ksq] & pos[P_BB + b + PAWN] & ~bit(cap)) == U0


@kernel
def _add_pawn_moves(moves, n, frm, to, flag, noisy):
    """A pawn's move to ``to``; four moves (or the queen's alone when ``noisy``) when it
    reaches the last rank."""
    if to >= 56 or to < 8:
        base = frm | (to << 6) | ((flag | PROMOTION) << 12)
        moves[n] = base | (3 << 12)
        n += 1
        if not noisy:
            for k in range(3):
                moves[n] = base | (k << 12)
                n += 1
        return n
    moves[n] = frm | (to << 6) | (flag << 12)
    return n + 1


@kernel
def _add_targets(moves, n, frm, targets, opp):
    while targets:
        to = lsb(targets)
        targets &= targets - U1
        flag = CAPTURE if opp & bit(to) else QUIET
        moves[n] = frm | (to << 6) | (flag << 12)
        n += 1
    return n


@kernel
def gen_moves(pos, tab, moves, n, mode):
    """Write the legal moves of the side to move into ``moves[n:]`` and return the index after
    the last one. ``mode``: ``GEN_ALL`` every move, ``GEN_NOISY`` only captures, en passant and
    promotions to a queen (none of the other promotions)."""
    noisy = mode == GEN_NOISY
    us = np.int64(pos[P_SIDE])
    them = 1 - us
    occ = pos[P_ALL]
    own = pos[P_OCC + us]
    opp = pos[P_OCC + them]
    b = them * 6
    king = pos[P_BB + us * 6 + KING]
    ksq = lsb(king)
    checks = attackers(pos, tab, ksq, them, occ)

    # the king: to squares no enemy attacks once the king has left its own
    targets = tab[T_KING + ksq] & ~own
    if noisy:
        targets &= opp
    occ_nk = occ ^ king
    while targets:
        to = lsb(targets)
        targets &= targets - U1
        if not attacked(pos, tab, to, them, occ_nk):
            flag = CAPTURE if opp & bit(to) else QUIET
            moves[n] = ksq | (to << 6) | (flag << 12)
            n += 1
    n_checks = popcount(checks)
    if n_checks > 1:
        return n
    if n_checks == 1:
        mask = checks | tab[T_BETWEEN + ksq * 64 + lsb(checks)]
    else:
        mask = ALL_BITS
        if not noisy:
            n = _castles(pos, tab, moves, n, us, occ)

    # pins: an enemy slider that would see the king through exactly one of our pieces
    queens = pos[P_BB + b + QUEEN]
    snipers = (rook_attacks(tab, ksq, opp) & (pos[P_BB + b + ROOK] | queens)) | (
        bishop_attacks(tab, ksq, opp) & (pos[P_BB + b + BISHOP] | queens)
    )
    pinned = U0
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - U1
        between = tab[T_BETWEEN + ksq * 64 + s] & occ
        if between and (between & (between - U1)) == U0:
            pinned |= between

    target = mask & ~own
    if noisy:
        target &= opp
    a = us * 6
    pieces = pos[P_BB + a + KNIGHT] & ~pinned  # a pinned knight never moves
    while pieces:
        s = lsb(pieces)
        pieces &= pieces - U1
        n = _add_targets(moves, n, s, tab[T_KNIGHT + s] & target, opp)
    ours_q = pos[P_BB + a + QUEEN]
    pieces = pos[P_BB + a + BISHOP] | ours_q
    while pieces:
        s = lsb(pieces)
        pieces &= pieces - U1
        t = bishop_attacks(tab, s, occ) & target
        if pinned & bit(s):
            t &= tab[T_LINE + ksq * 64 + s]
        n = _add_targets(moves, n, s, t, opp)
    pieces = pos[P_BB + a + ROOK] | ours_q
    while pieces:
        s = lsb(pieces)
        pieces &= pieces - U1
        t = rook_attacks(tab, s, occ) & target
        if pinned & bit(s):
            t &= tab[T_LINE + ksq * 64 + s]
        n = _add_targets(moves, n, s, t, opp)
    return _pawn_moves(pos, tab, moves, n, us, ksq, mask, pinned, noisy)


@kernel
def _castles(pos, tab, moves, n, us, occ):
    """Castling moves (the king is not in check: the caller knows)."""
    rights = np.int64(pos[P_CASTLE]) >> (2 * us)
    them = 1 - us
    e = 4 + 56 * us
    if (
        rights & 1
        and (occ & (KING_SIDE_EMPTY << np.uint64(56 * us))) == U0
        and not attacked(pos, tab, e + 1, them, occ)
        and not attacked(pos, tab, e + 2, them, occ)
    ):
        moves[n] = e | ((e + 2) << 6) | (CASTLE_K << 12)
        n += 1
    if (
        rights & 2
        and (occ & (QUEEN_SIDE_EMPTY << np.uint64(56 * us))) == U0
        and not attacked(pos, tab, e - 1, them, occ)
        and not attacked(pos, tab, e - 2, them, occ)
    ):
        moves[n] = e | ((e - 2) << 6) | (CASTLE_Q << 12)
        n += 1
    return n


@kernel
def _pawn_moves(pos, tab, moves, n, us, ksq, mask, pinned, noisy):
    occ = pos[P_ALL]
    opp = pos[P_OCC + 1 - us]
    up = 8 if us == WHITE else -8
    start_lo = 8 if us == WHITE else 48
    last_lo = 48 if us == WHITE else 8  # a push from this rank promotes
    ep = np.int64(pos[P_EP])
    pawns = pos[P_BB + us * 6 + PAWN]
    while pawns:
        s = lsb(pawns)
        pawns &= pawns - U1
        allowed = mask
        if pinned & bit(s):
            allowed &= tab[T_LINE + ksq * 64 + s]
        to = s + up
        if not occ & bit(to):
            promotes = last_lo <= s < last_lo + 8
            if allowed & bit(to) and (not noisy or promotes):
                n = _add_pawn_moves(moves, n, s, to, np.int64(QUIET), noisy)
            if not noisy and start_lo <= s < start_lo + 8:
                to2 = to + up
                if not occ & bit(to2) and allowed & bit(to2):
                    moves[n] = s | (to2 << 6) | (DOUBLE_PUSH << 12)
                    n += 1
        hits = tab[T_PAWN + us * 64 + s]
        caps = hits & opp & allowed
        while caps:
            to = lsb(caps)
            caps &= caps - U1
            n = _add_pawn_moves(moves, n, s, to, np.int64(CAPTURE), noisy)
        if ep != NO_SQUARE and hits & bit(ep) and ep_legal(pos, tab, us, s, ep):
            moves[n] = s | (ep << 6) | (EN_PASSANT << 12)
            n += 1
    return n
