"""Numba kernels of the exact Connect Four solver.

Everything here is a pure function over ``uint64``/``int64`` scalars and numpy
arrays, so it compiles with ``numba.njit`` and also runs as plain Python when
``NUMBA_DISABLE_JIT=1`` (slowly: only for tiny searches).

Board encoding (``width`` columns of ``height`` cells, ``(height + 1) * width <= 64``):
bit ``col * (height + 1) + row`` is the cell of column ``col`` (0 = leftmost) and
row ``row`` (0 = bottom); the bit just above each column's top cell is a
sentinel that always stays 0.  A position is two words:

* ``mask``: every stone on the board;
* ``current``: the stones of the side to move.

``current + mask`` is a unique key of the position (within one column the
values of ``mask + stones`` for ``k`` stones lie in ``[2**k - 1, 2**(k+1) - 2]``,
so different columns contents never collide).

Scores follow Pons' convention: 0 is a draw; a side that wins by placing a
stone when ``n`` stones are already on the board scores ``(cells + 1 - n) // 2``
and the loser the negation; scores are from the side to move's view.

Transposition table: a ``uint64`` array with a prime number ``N`` of slots.  A
position with key ``k`` lives in slot ``k % N`` and the slot holds
``(k // N) << 8 | code``; ``(k % N, k // N)`` identifies ``k`` exactly, so a hit
is never a false hit, for any board size.  ``code`` is never 0 (0 = empty
slot): ``code = v + 64`` stores the upper bound ``v`` (the search failed low),
``code = v + 160`` the lower bound ``v`` (the search failed high); scores lie in
``[-32, 32]``.  Replacement rule: always replace -- a store overwrites whatever
the slot held (another position, or an older bound of the same position).
"""

from __future__ import annotations

import numpy as np
from numba import njit

U0 = np.uint64(0)
U1 = np.uint64(1)
U2 = np.uint64(2)
U3 = np.uint64(3)
U8 = np.uint64(8)
U255 = np.uint64(255)

UPPER_CODE = 64
LOWER_CODE = 160
FULL_COLUMN = -1000  # score-map marker of a full column

# status codes of play_moves
OK = 0
BAD_COLUMN = 1
COLUMN_FULL = 2
GAME_OVER = 3


@njit(cache=True)
def bottom_mask(width, height):
    """One bit on the bottom cell of every column."""
    b = U0
    h1 = np.uint64(height + 1)
    for c in range(width):
        b |= U1 << (np.uint64(c) * h1)
    return b


@njit(cache=True)
def board_mask(width, height):
    """Every playable cell (sentinels excluded)."""
    return bottom_mask(width, height) * ((U1 << np.uint64(height)) - U1)


@njit(cache=True)
def column_mask(col, height):
    """The playable cells of column ``col`` (0-based)."""
    return ((U1 << np.uint64(height)) - U1) << (np.uint64(col) * np.uint64(height + 1))


@njit(cache=True)
def popcount(x):
    """Number of set bits (short loop: the words counted here are sparse)."""
    n = 0
    while x != U0:
        x &= x - U1
        n += 1
    return n


@njit(cache=True)
def _line_cells(p, s):
    """Cells that complete a four of ``p`` along the direction of bit shift ``s``."""
    s2 = s + s
    s3 = s2 + s
    pair = (p << s) & (p << s2)
    r = pair & (p << s3)
    r |= pair & (p >> s)
    pair = (p >> s) & (p >> s2)
    r |= pair & (p << s)
    r |= pair & (p >> s3)
    return r


@njit(cache=True)
def winning_cells(p, mask, height, board):
    """Empty cells (playable now or later) where a stone of ``p`` would make four."""
    h = np.uint64(height)
    r = (p << U1) & (p << U2) & (p << U3)  # vertical: three stones just below
    r |= _line_cells(p, h + U1)  # horizontal
    r |= _line_cells(p, h)  # diagonal going down to the right
    r |= _line_cells(p, h + U2)  # diagonal going up to the right
    return r & (board ^ mask)


@njit(cache=True)
def possible_moves(mask, bottom, board):
    """One bit per non-full column: the cell a stone dropped there lands on."""
    return (mask + bottom) & board


@njit(cache=True)
def can_win_next(current, mask, height, bottom, board):
    """True if the side to move can make four with its next stone."""
    return (winning_cells(current, mask, height, board) & possible_moves(mask, bottom, board)) != U0


@njit(cache=True)
def non_losing_moves(current, mask, height, bottom, board):
    """Moves after which the opponent cannot win at once (0 if every move loses).

    Precondition: the side to move cannot win with its next stone.
    """
    possible = possible_moves(mask, bottom, board)
    opp_win = winning_cells(current ^ mask, mask, height, board)
    forced = possible & opp_win
    if forced != U0:
        if (forced & (forced - U1)) != U0:
            return U0  # two immediate threats: cannot parry both
        possible = forced
    return possible & ~(opp_win >> U1)  # never play just below an opponent's winning cell


@njit(cache=True)
def negamax(
    current, mask, nb, alpha, beta, width, height, bottom, board, table, stats, move_buf, score_buf
):
    """Alpha-beta negamax value of a position (fail-hard bounds).

    Returns ``v`` with: ``v <= alpha`` => true score <= v; ``v >= beta`` => true
    score >= v; otherwise ``v`` is the exact score.  Preconditions: ``alpha < beta``
    and the side to move cannot win with its next stone.  ``stats[0]`` counts
    the nodes; ``move_buf``/``score_buf`` are scratch rows indexed by ``nb``.
    """
    stats[0] += 1
    cells = width * height
    nxt = non_losing_moves(current, mask, height, bottom, board)
    if nxt == U0:
        return -((cells - nb) // 2)  # the opponent wins with its next stone
    if nb >= cells - 2:
        return 0  # neither side can make four before the board is full

    lo = -((cells - 2 - nb) // 2)  # the opponent cannot win at its next stone
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (cells - 1 - nb) // 2  # we cannot win with our next stone

    key = current + mask
    n_slots = np.uint64(table.shape[0])
    slot = key % n_slots
    tag = key // n_slots
    entry = table[slot]
    if entry != U0 and (entry >> U8) == tag:
        code = np.int64(entry & U255)
        if code < 128:
            ub = code - UPPER_CODE
            if ub < hi:
                hi = ub
        else:
            lb = code - LOWER_CODE
            if alpha < lb:
                alpha = lb
                if alpha >= beta:
                    return alpha
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta

    # move ordering: more threats first, ties broken centre-first (stable insertion)
    count = 0
    centre = width // 2
    for i in range(width):
        col = centre + i // 2 if i % 2 == 0 else centre - (i + 1) // 2
        m = nxt & column_mask(col, height)
        if m != U0:
            s = popcount(winning_cells(current | m, mask | m, height, board))
            j = count
            while j > 0 and score_buf[nb, j - 1] < s:
                move_buf[nb, j] = move_buf[nb, j - 1]
                score_buf[nb, j] = score_buf[nb, j - 1]
                j -= 1
            move_buf[nb, j] = m
            score_buf[nb, j] = s
            count += 1

    child_current = current ^ mask
    for j in range(count):
        m = move_buf[nb, j]
        v = -negamax(
            child_current,
            mask | m,
            nb + 1,
            -beta,
            -alpha,
            width,
            height,
            bottom,
            board,
            table,
            stats,
            move_buf,
            score_buf,
        )
        if v >= beta:
            table[slot] = (tag << U8) | np.uint64(v + LOWER_CODE)
            return v
        if v > alpha:
            alpha = v
    table[slot] = (tag << U8) | np.uint64(alpha + UPPER_CODE)
    return alpha


@njit(cache=True)
def solve_position(current_in, mask_in, nb, weak, width, height, table, stats, move_buf, score_buf):
    """Exact score of a position (weak: -1/0/1 only) by null-window probes.

    The interval ``[lo, hi]`` known to hold the score shrinks with each probe
    ``negamax(med, med + 1)``; ``med`` is pulled towards 0 first, where
    probes are cheapest.
    """
    current = np.uint64(current_in)
    mask = np.uint64(mask_in)
    cells = width * height
    bottom = bottom_mask(width, height)
    board = board_mask(width, height)
    if nb >= cells:
        return 0
    if can_win_next(current, mask, height, bottom, board):
        if weak:
            return 1
        return (cells + 1 - nb) // 2
    lo = -((cells - nb) // 2)
    hi = (cells + 1 - nb) // 2
    if weak:
        lo = -1
        hi = 1
    while lo < hi:
        med = lo + (hi - lo) // 2
        half_lo = -((-lo) // 2)  # lo / 2 rounded towards 0
        half_hi = hi // 2
        if med <= 0 and half_lo < med:
            med = half_lo
        elif med >= 0 and half_hi > med:
            med = half_hi
        r = negamax(
            current,
            mask,
            nb,
            med,
            med + 1,
            width,
            height,
            bottom,
            board,
            table,
            stats,
            move_buf,
            score_buf,
        )
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        if lo > 0:
            return 1
        if lo < 0:
            return -1
        return 0
    return lo


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


@njit(cache=True)
def score_map(current_in, mask_in, nb, weak, width, height, table, stats, move_buf, score_buf, out):
    """``out[col]`` = score of playing column ``col`` (side to move's view), or
    FULL_COLUMN for a full column."""
    current = np.uint64(current_in)
    mask = np.uint64(mask_in)
    cells = width * height
    bottom = bottom_mask(width, height)
    board = board_mask(width, height)
    wins = winning_cells(current, mask, height, board)
    for col in range(width):
        cm = column_mask(col, height)
        m = (mask + (bottom & cm)) & cm
        if m == U0:
            out[col] = FULL_COLUMN
        elif (wins & m) != U0:
            out[col] = 1 if weak else (cells + 1 - nb) // 2
        else:
            out[col] = -solve_position(
                current ^ mask,
                mask | m,
                nb + 1,
                weak,
                width,
                height,
                table,
                stats,
                move_buf,
                score_buf,
            )


@njit(cache=True)
def solve_batch(
    cols,
    offsets,
    weak,
    reset_each,
    width,
    height,
    table,
    stats,
    move_buf,
    score_buf,
    out_scores,
    out_nodes,
    out_status,
):
    """Solve position ``i`` = moves ``cols[offsets[i]:offsets[i + 1]]`` for every ``i``.

    The table is kept from one position to the next unless ``reset_each``.
    Positions with a bad move sequence get ``out_status[i] != OK`` and score 0.
    """
    n = offsets.shape[0] - 1
    for i in range(n):
        current, mask, nb, status = play_moves(cols, offsets[i], offsets[i + 1], width, height)
        out_status[i] = status
        if status != OK:
            out_scores[i] = 0
            out_nodes[i] = 0
            continue
        if reset_each:
            table[:] = U0
        before = stats[0]
        out_scores[i] = solve_position(
            current, mask, nb, weak, width, height, table, stats, move_buf, score_buf
        )
        out_nodes[i] = stats[0] - before
