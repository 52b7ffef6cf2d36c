# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``searcher.Searcher``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The evaluation and the static exchange evaluation of the search.

``evaluate``: a tapered evaluation (middle game and end game values blended by the material
left), in centipawns from the side to move's view: PeSTO's material and piece-square tables
(``_pesto``, read from the sums that make/unmake keep up to date) and the terms of ``terms``,
each a feature counted on the board times its weight (``_weights``): mobility by piece and
number of safe squares, attacks on the enemy king's zone and the pawn shield before a king,
passed pawns by rank (free to advance, the kings' distances), rooks on open and half-open files,
the bishop pair, knights and bishops on outposts, a bishop's own pawns on its colour, doubled
and isolated pawns, pieces attacked by pawns, the move's tempo, and threats (rooks and queens
attacked by knights or bishops, queens by rooks, pieces attacked and not defended, safe checks:
``_threats``). Each group of terms was kept because a match said it pays (docs/chess.md), but
the mop-up against a bare king (``_mop_up``), which a match cannot measure (it plays in few
games) and a test of mating at a small budget shows.

``see``: what a capture wins or loses once every piece that bears on its square has taken in
turn, least valuable first, each side free to stop taking when that suits it (the swap
algorithm; pieces uncovered behind a capturer join in; pins are ignored).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._movegen import bishop_attacks, rook_attacks
from ._tables import (
    BISHOP,
    CAPTURE,
    CASTLE_K,
    CASTLE_Q,
    EMPTY,
    EN_PASSANT,
    I0,
    I1,
    KING,
    KNIGHT,
    NET_HIDDEN,
    NET_OFF,
    NET_ONE,
    NET_OUT_ONE,
    NET_RESIDUAL,
    NET_WHOLE,
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
    T_NET,
    T_NET_MODE,
    T_NET_OUT,
    T_PAWN,
    T_SIZE,
    U0,
    U1,
    U7,
    U8,
    U16,
    bit,
    kernel,
    lsb,
    popcount,
)
from ._weights import (
    F_BISHOP_PAIR,
    F_BISHOP_PAWNS,
    F_DOUBLED,
    F_HANGING,
    F_ISOLATED,
    F_KING_ATTACK,
    F_KING_ATTACK_SQ,
    F_MOB_B,
    F_MOB_N,
    F_MOB_Q,
    F_MOB_R,
    F_MOPUP_EDGE,
    F_MOPUP_NEAR,
    F_OUTPOST_B,
    F_OUTPOST_N,
    F_PASSED,
    F_PASSED_FREE,
    F_PASSED_MY_KING,
    F_PASSED_THEIR_KING,
    F_PAWN_THREAT,
    F_ROOK_HALF,
    F_ROOK_OPEN,
    F_SAFE_CHECK,
    F_SHIELD_FAR,
    F_SHIELD_MISSING,
    F_SHIELD_NEAR,
    F_TEMPO,
    F_THREAT_MINOR,
    F_THREAT_ROOK,
    WEIGHTS,
)

PHASE_FULL = 24
# Piece values for captures' order and exchanges, by kind (pawn .. king).
SEE_VALUE = np.array([100, 320, 330, 500, 900, 20_000, 0], dtype=np.int64)


def _masks() -> tuple[npt.NDArray[np.uint64], ...]:
    """Per colour and square (``colour * 64 + square``): the squares ahead on the file; the
    king's zone (the king's square, the squares around it and the rank beyond those, toward the
    other side); and per pair of squares (``a * 64 + b``) their distance in king moves."""
    forward = np.zeros(128, dtype=np.uint64)
    zone = np.zeros(128, dtype=np.uint64)
    distance = np.zeros(4096, dtype=np.uint64)
    for colour in range(2):
        step = 1 if colour == 0 else -1
        for square in range(64):
            rank, file = divmod(square, 8)
            ahead = 0
            r = rank + step
            while 0 <= r < 8:
                ahead |= 1 << (r * 8 + file)
                r += step
            forward[colour * 64 + square] = ahead
            z = 0
            for dr in (-1, 0, 1, 2 * step):
                for df in (-1, 0, 1):
                    rr, ff = rank + dr, file + df
                    if 0 <= rr < 8 and 0 <= ff < 8:
                        z |= 1 << (rr * 8 + ff)
            zone[colour * 64 + square] = z
    for a in range(64):
        for b in range(64):
            distance[a * 64 + b] = max(abs(a // 8 - b // 8), abs(a % 8 - b % 8))
    return forward, zone, distance


FORWARD, KING_ZONE, DISTANCE = _masks()
FILE_A = np.uint64(0x0101010101010101)
FILES = np.array([0x0101010101010101 << f for f in range(8)], dtype=np.uint64)
NOT_A = ~FILE_A
NOT_H = ~(FILE_A << U7)
S7 = np.uint64(7)
S9 = np.uint64(9)
U32 = np.uint64(32)
U255 = np.uint64(255)

LIGHT = np.uint64(0x55AA55AA55AA55AA)  # the light squares (b1, a2, ...)
# the 4th to 6th ranks from each side's view (outposts), White's then Black's
OUTPOST_RANKS = np.array([0x0000FFFFFF000000, 0x000000FFFFFF0000], dtype=np.uint64)
ATTACK_WEIGHT = np.array([0, 2, 2, 3, 5, 0], dtype=np.int64)  # per square of the king's zone
EXTRAS = True  # False: PeSTO alone (to measure the terms against)
# ``_piece``'s arguments as numpy scalars, not literals: one compiled kernel for every call
MOB_N, MOB_B, MOB_R, MOB_Q = (np.int64(f) for f in (F_MOB_N, F_MOB_B, F_MOB_R, F_MOB_Q))
N_KIND, B_KIND, R_KIND, Q_KIND = (np.int64(k) for k in (KNIGHT, BISHOP, ROOK, QUEEN))


@kernel
def _add(out, trace, sign, index, count):
    """The weighted ``count`` of feature ``index`` for the side of ``sign`` (+1 White, -1
    Black) as (middle game, end game); with ``trace``, the count is also added to ``out``."""
    if trace:
        out[index] += sign * count
    return sign * count * WEIGHTS[0, index], sign * count * WEIGHTS[1, index]


@kernel
def _piece(out, trace, sign, attacks, free, zone, mobility, kind, mg, eg, attackers, units):
    """One piece of ``_pieces``: its mobility (feature ``mobility`` + its safe squares) added to
    (``mg``, ``eg``), and its attacks on the enemy king's ``zone`` to (``attackers``,
    ``units``); the four, updated."""
    m, e = _add(out, trace, sign, mobility + popcount(attacks & free), I1)
    near = attacks & zone
    if near:
        attackers += 1
        units += ATTACK_WEIGHT[kind] * popcount(near)
    return mg + m, eg + e, attackers, units


@kernel
def _pieces(pos, tab, side, out, trace):
    """Mobility, attacks on the enemy king, rooks on open files, the bishop pair and the
    pieces attacked by pawns of one side, as (middle game, end game) for White; then the
    squares the side attacks: with every piece (pawns and king included), with its knights,
    with its bishops, with its rooks, with its queens (for ``_threats``)."""
    sign = 1 - 2 * side
    other = 1 - side
    occ = pos[P_ALL]
    b = P_BB + side * 6
    pawns = pos[b + PAWN]
    theirs = pos[P_BB + other * 6 + PAWN]
    by_their_pawns = _pawn_attacks(theirs, other)
    free = ~(pos[P_OCC + side] | by_their_pawns)
    zone = KING_ZONE[other * 64 + lsb(pos[P_BB + other * 6 + KING])]
    mg = I0  # numpy scalars, not literals (``_piece`` is compiled once)
    eg = I0
    attackers = I0
    units = I0
    by_my_pawns = _pawn_attacks(pawns, side)
    every = by_my_pawns | tab[T_KING + lsb(pos[b + KING])]
    by_knight = U0
    by_bishop = U0
    straight = U0
    by_queen = U0
    # one loop a kind (no branch on the kind inside), each piece counted by ``_piece``
    x = pos[b + KNIGHT]
    while x:
        attacks = tab[T_KNIGHT + lsb(x)]
        x &= x - U1
        by_knight |= attacks
        mg, eg, attackers, units = _piece(out, trace, sign, attacks, free, zone, MOB_N, N_KIND,
                                          mg, eg, attackers, units)  # fmt: skip
    x = pos[b + BISHOP]
    while x:
        attacks = bishop_attacks(tab, lsb(x), occ)
        x &= x - U1
        by_bishop |= attacks
        mg, eg, attackers, units = _piece(out, trace, sign, attacks, free, zone, MOB_B, B_KIND,
                                          mg, eg, attackers, units)  # fmt: skip
    x = pos[b + ROOK]
    while x:
        square = lsb(x)
        x &= x - U1
        attacks = rook_attacks(tab, square, occ)
        straight |= attacks
        f = FILES[square & 7]
        if pawns & f == U0:
            m, e = _add(out, trace, sign, F_ROOK_OPEN if theirs & f == U0 else F_ROOK_HALF, I1)
            mg += m
            eg += e
        mg, eg, attackers, units = _piece(out, trace, sign, attacks, free, zone, MOB_R, R_KIND,
                                          mg, eg, attackers, units)  # fmt: skip
    x = pos[b + QUEEN]
    while x:
        square = lsb(x)
        x &= x - U1
        attacks = bishop_attacks(tab, square, occ) | rook_attacks(tab, square, occ)
        by_queen |= attacks
        mg, eg, attackers, units = _piece(out, trace, sign, attacks, free, zone, MOB_Q, Q_KIND,
                                          mg, eg, attackers, units)  # fmt: skip
    every |= by_knight | by_bishop | straight | by_queen
    if attackers >= 2 and pos[b + QUEEN]:
        units = min(units, 60)
        m, e = _add(out, trace, sign, np.int64(F_KING_ATTACK), units)
        mg += m
        eg += e
        m, e = _add(out, trace, sign, np.int64(F_KING_ATTACK_SQ), units * units // 16)
        mg += m
        eg += e
    threatened = pos[P_OCC + side] & ~pawns & by_their_pawns
    if threatened:
        m, e = _add(out, trace, sign, np.int64(F_PAWN_THREAT), popcount(threatened))
        mg += m
        eg += e
    # outposts: squares of the 4th to 6th ranks (from the side's view) its pawns defend and
    # no pawn of the other side can ever attack (their attacks now, and as they advance)
    holes = OUTPOST_RANKS[side] & by_my_pawns & ~_rearward(by_their_pawns, side)
    if holes:
        n = popcount(holes & pos[b + KNIGHT])
        if n:
            m, e = _add(out, trace, sign, np.int64(F_OUTPOST_N), n)
            mg += m
            eg += e
        n = popcount(holes & pos[b + BISHOP])
        if n:
            m, e = _add(out, trace, sign, np.int64(F_OUTPOST_B), n)
            mg += m
            eg += e
    bishops = pos[b + BISHOP]
    if bishops:  # its own pawns on its bishops' colours, a bishop at a time
        n = popcount(bishops & LIGHT) * popcount(pawns & LIGHT)
        n += popcount(bishops & ~LIGHT) * popcount(pawns & ~LIGHT)
        if n:
            m, e = _add(out, trace, sign, np.int64(F_BISHOP_PAWNS), n)
            mg += m
            eg += e
    if bishops & (bishops - U1):
        m, e = _add(out, trace, sign, np.int64(F_BISHOP_PAIR), I1)
        mg += m
        eg += e
    return mg, eg, every, by_knight, by_bishop, straight, by_queen


@kernel
def _threats(pos, tab, side, every, by_knight, by_bishop, straight, by_queen, defended, out,
             trace):  # fmt: skip
    """One side's threats on the other's pieces (``every``, ``by_knight``, ``by_bishop``,
    ``straight``, ``by_queen``: the squares it attacks, from ``_pieces``; ``defended``: the
    squares the other side attacks), as (middle game,
    end game) for White: rooks and queens attacked by a knight or bishop, queens by a rook, and
    pieces attacked and not defended; and each kind of piece that can give a check from a square
    the other side does not guard."""
    sign = 1 - 2 * side
    b = P_BB + (1 - side) * 6
    majors = pos[b + ROOK] | pos[b + QUEEN]
    minor = by_knight | by_bishop
    king = lsb(pos[b + KING])
    occ = pos[P_ALL]
    safe = ~(pos[P_OCC + side] | defended)
    diagonal = bishop_attacks(tab, king, occ)
    lines = rook_attacks(tab, king, occ)
    checks = 0
    for reach, squares in ((by_knight, tab[T_KNIGHT + king]), (by_bishop, diagonal),
                           (straight, lines), (by_queen, diagonal | lines)):  # fmt: skip
        if reach & squares & safe:
            checks += 1
    mg = 0
    eg = 0
    for index, count in (
        (F_THREAT_MINOR, popcount(minor & majors)),
        (F_THREAT_ROOK, popcount(straight & pos[b + QUEEN])),
        (F_HANGING, popcount(every & ~defended & (majors | pos[b + KNIGHT] | pos[b + BISHOP]))),
        (F_SAFE_CHECK, checks),
    ):
        if count:
            m, e = _add(out, trace, sign, np.int64(index), count)
            mg += m
            eg += e
    return mg, eg


@kernel
def _rearward(squares, side):
    """``squares`` and every square behind them on their files, from ``side``'s view (down
    the board for White, up for Black)."""
    if side == 0:
        squares |= squares >> U8
        squares |= squares >> U16
        return squares | (squares >> U32)
    squares |= squares << U8
    squares |= squares << U16
    return squares | (squares << U32)


@kernel
def _pawn_attacks(pawns, side):
    """The squares ``side``'s ``pawns`` attack."""
    if side == 0:
        return ((pawns << S9) & NOT_A) | ((pawns << S7) & NOT_H)
    return ((pawns >> S7) & NOT_A) | ((pawns >> S9) & NOT_H)


@kernel
def _pawns(pos, side, out, trace):
    """One side's pawn structure, passed pawns and king shelter, as (middle game, end game) for
    White."""
    sign = 1 - 2 * side
    other = 1 - side
    occ = pos[P_ALL]
    pawns = pos[P_BB + side * 6 + PAWN]
    theirs = pos[P_BB + other * 6 + PAWN]
    my_king = lsb(pos[P_BB + side * 6 + KING])
    their_king = lsb(pos[P_BB + other * 6 + KING])
    mg = 0
    eg = 0
    # the files with a pawn, one bit each (a): every rank folded onto the first
    files = pawns | (pawns >> U8)
    files |= files >> U16
    files = (files | (files >> U32)) & U255
    doubled = popcount(pawns) - popcount(files)  # the pawns beyond the first on each file
    alone = files & ~((files << U1) | (files >> U1))  # the files with none beside
    isolated = popcount(pawns & (alone * FILE_A))  # (the file bits spread to every rank)
    for index, count in ((F_DOUBLED, doubled), (F_ISOLATED, isolated)):
        if count:
            m, e = _add(out, trace, sign, index, count)
            mg += m
            eg += e
    # a pawn is passed when no pawn of theirs stands ahead of it on its file or the two beside
    # it, and counts when none of its own stands ahead of it on its file (the front one of a
    # file counts): the squares behind those pawns, filled down the board from the rank before
    # them (up the board for Black), are the pawns that do not count
    stops = theirs | ((theirs << U1) & NOT_A) | ((theirs >> U1) & NOT_H) | pawns
    behind = _rearward(stops >> U8 if side == 0 else stops << U8, side)
    x = pawns & ~behind
    while x:
        square = lsb(x)
        x &= x - U1
        rank = (square >> 3) if side == 0 else 7 - (square >> 3)
        m, e = _add(out, trace, sign, F_PASSED + rank, I1)
        mg += m
        eg += e
        if FORWARD[side * 64 + square] & occ == U0:
            m, e = _add(out, trace, sign, F_PASSED_FREE + rank, I1)
            mg += m
            eg += e
        front = square + 8 if side == 0 else square - 8
        m, e = _add(out, trace, sign, F_PASSED_THEIR_KING + rank,
                    np.int64(DISTANCE[front * 64 + their_king]))  # fmt: skip
        mg += m
        eg += e
        m, e = _add(out, trace, sign, F_PASSED_MY_KING + rank,
                    np.int64(DISTANCE[front * 64 + my_king]))  # fmt: skip
        mg += m
        eg += e
    # the pawn shield of a king on its first two ranks
    king_rank = (my_king >> 3) if side == 0 else 7 - (my_king >> 3)
    if king_rank <= 1:
        kf = my_king & 7
        step = 8 if side == 0 else -8
        for f in range(max(kf - 1, 0), min(kf + 2, 8)):
            here = my_king - kf + f
            if pawns & FORWARD[side * 64 + here] == U0:
                index = F_SHIELD_MISSING
            elif pawns & bit(here + step):
                index = F_SHIELD_NEAR
            elif pawns & bit(here + 2 * step):
                index = F_SHIELD_FAR
            else:
                continue
            m, e = _add(out, trace, sign, index, I1)
            mg += m
            eg += e
    return mg, eg


@kernel
def terms(pos, tab, out, trace):
    """The terms beyond PeSTO, (middle game, end game) for White in centipawns: the features
    of ``_weights`` weighted. With ``trace``, each feature's count (White's less Black's) is
    added to ``out`` (an ``int64`` array of ``N_FEATURES``: the tuner's); without, ``out`` is
    not touched (the search passes any ``int64`` array)."""
    mg, eg = _add(out, trace, 1 if pos[P_SIDE] == 0 else -1, np.int64(F_TEMPO), I1)
    m0, e0, every0, n0, b0, r0, q0 = _pieces(pos, tab, I0, out, trace)
    m1, e1, every1, n1, b1, r1, q1 = _pieces(pos, tab, I1, out, trace)
    mg += m0 + m1
    eg += e0 + e1
    m0, e0 = _threats(pos, tab, I0, every0, n0, b0, r0, q0, every1, out, trace)
    m1, e1 = _threats(pos, tab, I1, every1, n1, b1, r1, q1, every0, out, trace)
    mg += m0 + m1
    eg += e0 + e1
    for side in range(2):
        m, e = _pawns(pos, side, out, trace)
        mg += m
        eg += e
    m, e = _mop_up(pos, out, trace)
    return mg + m, eg + e


@kernel
def _mop_up(pos, out, trace):
    """Against a bare king, the side with a queen, a rook or two minor pieces: the bare king's
    distance from the centre and the kings' nearness, as (middle game, end game) for White."""
    for strong in range(2):
        weak = 1 - strong
        king = pos[P_BB + weak * 6 + KING]
        b = P_BB + strong * 6
        minors = pos[b + KNIGHT] | pos[b + BISHOP]
        if pos[P_OCC + weak] != king or (
            pos[b + QUEEN] | pos[b + ROOK] == U0 and minors & (minors - U1) == U0
        ):
            continue
        bare = lsb(king)
        mine = lsb(pos[b + KING])
        rank = bare >> 3
        file = bare & 7
        edge = max(3 - file, file - 4) + max(3 - rank, rank - 4)
        near = 14 - abs(rank - (mine >> 3)) - abs(file - (mine & 7))
        sign = 1 - 2 * strong
        m, e = _add(out, trace, sign, np.int64(F_MOPUP_EDGE), edge)
        m2, e2 = _add(out, trace, sign, np.int64(F_MOPUP_NEAR), near)
        return m + m2, e + e2
    return 0, 0


# the words of an evaluation's scratch array (the search's statistics) the network may use
S_NET = 48
S_NET_WORDS = NET_HIDDEN // 2  # two sides' units, int16
SCRATCH_WORDS = S_NET + S_NET_WORDS


@kernel
def _net_piece(w1, units, piece, square):
    """Add the rows of ``piece`` on ``square`` to both sides' units (White's first, then
    Black's: its own pieces first, the board turned over; ``_net_row``)."""
    for side in range(2):  # as net_move asks _net_row (one compiled signature)
        row = _net_row(piece, square, side)
        for h in range(NET_HIDDEN):
            units[side * NET_HIDDEN + h] += w1[row, h]


@kernel
def net_refresh(pos, tab, words):
    """Both sides' first-layer units of ``pos`` into ``words`` (``S_NET_WORDS`` of int64
    holding ``2 NET_HIDDEN`` int16), summed from the biases over every piece."""
    units = words.view(np.int16)
    first = tab[T_NET:T_NET_OUT].view(np.int16)
    w1 = first[: 768 * NET_HIDDEN].reshape((768, NET_HIDDEN))
    b1 = first[768 * NET_HIDDEN : 769 * NET_HIDDEN]
    for h in range(NET_HIDDEN):
        units[h] = b1[h]
        units[NET_HIDDEN + h] = b1[h]
    for piece in range(12):
        bb = pos[P_BB + piece]
        while bb:
            _net_piece(w1, units, piece, lsb(bb))
            bb &= bb - U1


@kernel
def _net_row(piece, square, side):
    """The first layer's row of ``piece`` on ``square`` as ``side`` (0 White, 1 Black) sees it:
    its own pieces first, the board turned over for Black."""
    colour = piece // 6
    kind = piece - 6 * colour
    if side == 0:
        return (colour * 6 + kind) * 64 + square
    return ((1 - colour) * 6 + kind) * 64 + (square ^ 56)


@kernel
def net_move(pos, tab, move, captured, words_before, words_after):
    """The units after a move from those before it (as ``net_refresh`` writes them), ``pos``
    being the position the move made, ``captured`` the piece it took (``EMPTY``: none): only
    the squares the move changed, in one pass over each side's units (a piece off a square and
    onto another, and a piece taken or a rook castled)."""
    before = words_before.view(np.int16)
    after = words_after.view(np.int16)
    w1 = tab[T_NET:T_NET_OUT].view(np.int16)[: 768 * NET_HIDDEN].reshape((768, NET_HIDDEN))
    frm = move & 63
    to = (move >> 6) & 63
    flag = move >> 12
    mover = 1 - np.int64(pos[P_SIDE])
    piece = np.int64(pos[P_BOARD + to])
    moved = mover * 6 + PAWN if flag & PROMOTION else piece
    rook = mover * 6 + ROOK
    for side in range(2):
        base = side * NET_HIDDEN
        off = _net_row(moved, frm, side)
        on = _net_row(piece, to, side)
        if flag == EN_PASSANT or captured != EMPTY:
            square = to if flag != EN_PASSANT else (to - 8 if mover == 0 else to + 8)
            taken = _net_row(captured, square, side)
            for h in range(NET_HIDDEN):
                after[base + h] = before[base + h] - w1[off, h] + w1[on, h] - w1[taken, h]
        elif flag in (CASTLE_K, CASTLE_Q):
            gone = _net_row(rook, to + 1 if flag == CASTLE_K else to - 2, side)
            come = _net_row(rook, to - 1 if flag == CASTLE_K else to + 1, side)
            for h in range(NET_HIDDEN):
                after[base + h] = (
                    before[base + h] - w1[off, h] + w1[on, h] - w1[gone, h] + w1[come, h]
                )
        else:
            for h in range(NET_HIDDEN):
                after[base + h] = before[base + h] - w1[off, h] + w1[on, h]


@kernel
def net_output(pos, tab, words):
    """The learned evaluation (``T_NET``), centipawns for the side to move, from both sides'
    units (as ``net_refresh`` writes them): clipped to [0, ``NET_ONE``], then weighted (in
    whole steps of 1/``NET_OUT_ONE`` centipawn), the side to move's first."""
    units = words.view(np.int16)
    if pos[P_SIDE] == 0:
        us, them = units[:NET_HIDDEN], units[NET_HIDDEN:]
    else:
        us, them = units[NET_HIDDEN:], units[:NET_HIDDEN]
    out = tab[T_NET_OUT:T_SIZE]
    w2 = out.view(np.int32)  # centipawns a unit step, in 1/NET_OUT_ONE (``_tables._load_net``)
    total = 0
    for h in range(NET_HIDDEN):  # whole numbers: the sum vectorizes, in any order the same
        a = min(max(np.int32(us[h]), np.int32(0)), np.int32(NET_ONE))
        b = min(max(np.int32(them[h]), np.int32(0)), np.int32(NET_ONE))
        total += a * w2[h] + b * w2[NET_HIDDEN + h]
    return np.int64(round(out.view(np.float32)[2 * NET_HIDDEN] + total / NET_OUT_ONE))


@kernel
def evaluate(pos, tab, scratch):
    """The position for the side to move, in centipawns: PeSTO and ``terms``, tapered, or
    the learned evaluation (``net_output``) alone or added to them, as ``tab[T_NET_MODE]``
    says (``scratch``: an ``int64`` array of at least ``SCRATCH_WORDS``, for ``terms``'s
    ``out``, untouched, and the network's units, counted afresh)."""
    if tab[T_NET_MODE] != NET_OFF:
        net_refresh(pos, tab, scratch[S_NET : S_NET + S_NET_WORDS])
    return evaluate_with(pos, tab, scratch, scratch[S_NET : S_NET + S_NET_WORDS])


@kernel
def evaluate_with(pos, tab, scratch, words):
    """``evaluate`` with the network's units of ``pos`` given (as ``net_refresh`` writes
    them; the search keeps them up to date move by move: ``net_move``)."""
    mode = tab[T_NET_MODE]
    if mode == NET_WHOLE:
        return net_output(pos, tab, words)
    extra = 0
    if mode == NET_RESIDUAL and (
        pos[P_OCC] != pos[P_BB + KING] and pos[P_OCC + 1] != pos[P_BB + 6 + KING]
    ):  # against a bare king the mop-up terms lead (the network saw few such positions)
        extra = net_output(pos, tab, words)
    mg = np.int64(pos[P_MG])
    eg = np.int64(pos[P_EG])
    if EXTRAS:
        more_mg, more_eg = terms(pos, tab, scratch, False)
        mg += more_mg
        eg += more_eg
    phase = min(np.int64(pos[P_PHASE]), PHASE_FULL)
    blend = mg * phase + eg * (PHASE_FULL - phase)
    # rounded toward zero, so that a position and its colour-swapped mirror score the same
    score = blend // PHASE_FULL if blend >= 0 else -(-blend // PHASE_FULL)
    return (score if pos[P_SIDE] == 0 else -score) + extra


@kernel
def features(pos, tab, out):
    """Add the position's feature counts to ``out`` (the tuner's view of ``terms``); return
    PeSTO's (middle game, end game) and the phase."""
    terms(pos, tab, out, True)
    return np.int64(pos[P_MG]), np.int64(pos[P_EG]), min(np.int64(pos[P_PHASE]), PHASE_FULL)


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
