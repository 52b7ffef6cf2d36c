# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The search of the exact Connect Four solver: null-window alpha-beta without recursion
(:func:`negamax`) and the probes that solve a position (:func:`solve_position`).

Everything here is a pure function over ``uint64``/``int64`` scalars and numpy
arrays, so it compiles with ``numba.njit`` and also runs as plain Python when
``NUMBA_DISABLE_JIT=1`` (slowly: only for tiny searches). Only :func:`negamax` is compiled for
the questions one position asks (:func:`solve_position` and the callers in ``_columns`` and
``_line`` are Python around it: a probe costs microseconds of Python, while every compiled
caller of ``negamax`` cost about a second of the cold build, numba optimising the search's code
again inside it); :func:`solve_position_kernel` is the same probes compiled, for the kernels
that solve many positions in one call. The board is encoded as ``_bitboard``
says, the transposition table laid out as ``_table`` says.

Scores follow Pons' convention: 0 is a draw; a side that wins by placing a
stone when ``n`` stones are already on the board scores ``(cells + 1 - n) // 2``
and the loser the negation; scores are from the side to move's view.

Threads that search one position together (lazy SMP: one shared table, each its own probes;
see ``solve_position``) also share an array of marks, ``shared[2:]``: at a node with more than
``BUSY_EMPTY`` (20) empty cells a thread marks the child it searches, and a child after the
first that another thread has marked is searched after the node's other moves (once; ABDADA's
deferral), so that the threads split a node's moves instead of searching the same subtree side
by side (measured, two threads, Test_L1_R3 first 20 lines: the busiest thread's nodes 1.59x
fewer than one thread's without the marks, 1.76x with them, 2026-11-23). Every 4,096 nodes a
thread also looks up the nodes of its path with more than ``BUSY_EMPTY`` empty cells in the
table: one that another thread has answered meanwhile (a bound that settles it) is answered so
at once, the search below it given up (``_answered_row``). With that, and a helper that joins
the main thread's probe unless the score is known within 2 (see ``probe_score``), two threads
on those 20 lines: the busiest thread's nodes 1.67x, 1.65x, 1.68x fewer than one thread's,
against 1.47x, 1.57x, 1.50x before, alternated position by position in the same three passes
(1.49-1.63x before in seven earlier passes; 2026-11-28, a machine busy with other work); the
empty board 1.89x against 1.62x, one pass each.

Positions with at most ``NO_TABLE_EMPTY`` empty cells neither read nor write the table (their
subtrees cost less than a cache miss).  Positions with more than ``ETC_EMPTY`` empty cells
(``ETC_EMPTY_LOW`` on boards 1 or 2 high, ``ETC_EMPTY_THREE`` on boards 3 high) first look
up their children's entries (enhanced transposition cut-off): a child's upper bound ``u``
with ``-u >= beta`` fails the node high at once; only once ``ETC_AFTER`` nodes were searched
in the table's generation (``ctrl[CTRL_SEARCHED]``), as in a table just cleared those
look-ups are mostly memory stalls that find nothing.

In :data:`negamax_rules` (the same code compiled with ``RULES``; :func:`solve_position` picks it
for a deep solve with no database position below it and for the openings of boards of 22
cells or more: ``_depth.uses_rules``), positions with more
than ``RULES_EMPTY`` empty cells searched with a window whose top is at most 1 ask ``_rules`` for
each child's upper bound (0 or -1, proven by claimeven-style follow-up strategies): a child whose
bound fails the node high answers it before any child is searched. Plain :func:`negamax` (what
loading the solver compiles, and what analyses backed by the database and the batch kernels
run) never asks: numba prunes the branch before typing it, so ``_rules`` is not compiled then.
:data:`negamax_rules` also weighs the threats that order the moves (a threat right above one of
the opponent's is dead, not counted; one right above a cell the opponent could play next counts
twice) and answers a move that leaves the opponent no move that does not lose at once with the
best score left (``hi``), without entering the child (the empty 7 x 6 board: 337,581,116 nodes
before, 208,618,289 so). Plain :func:`negamax` keeps one count per threat: there the dead
threats and the wins at once cut the nodes of Pons' sets but not their CPU (Test_L2_R2 and
Test_L3_R1 took more), and the near threats took Test_L1_R1 from 3,457 nodes a position to 4,896.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit

from ...prefetch import prefetch
from . import _bits, _depth
from ._bitboard import (
    U0,
    U1,
    U2,
    U3,
    U8,
    U255,
    board_mask,
    bottom_mask,
    can_win_next,
    column_mask,
    has_four,
    non_losing_among,
    non_losing_moves,
    popcount,
    possible_moves,
    winning_cells,
)
from ._database_probe import NOT_FOUND, db_probe
from ._rules import NONE, fail_high
from ._table import (
    HASH_MUL,
    LOW_HEIGHT,
    LOWER_CODE,
    UPPER_CODE,
    shallow_empty,
    table_key,
    table_place,
    table_shift,
)

# Positions with at most this many empty cells are searched without the table: their subtrees
# are so small that a table read (a cache miss, nearly always) costs more than it saves.
NO_TABLE_EMPTY = 4

# Positions with more than this many empty cells look their children up in the table before
# searching any (an enhanced transposition cut-off: a child's upper bound may fail the node
# high at once); nearer the end, that look-up costs more than the nodes it saves.
ETC_EMPTY = 16
# ... on boards 1 or 2 high (``_table.LOW_HEIGHT``), more than ETC_EMPTY_LOW: there a position
# of 9 to 16 empty cells is a large subtree (the empty 13 x 2 board, one thread, 64 MiB, the
# nodes and CPU against 16: 8 0.75x and 0.81x; 5 0.68x and 0.87x; 11 0.84x and 0.83x).
ETC_EMPTY_LOW = 8
# ... on boards 3 high, more than ETC_EMPTY_THREE (with _table.SHALLOW_EMPTY_THREE; the empty
# 11 x 3 board, one thread, 1 GiB, against 16: 0.93x the CPU and 0.92x the nodes alone, 0.71x
# and 0.73x with the shallow region's 12).
ETC_EMPTY_THREE = 12
# ... but only once this many nodes were searched in the table's generation: in a table just
# cleared the children's entries are missing or not in the CPU caches, and each look-up stalls
# the search for a memory read (Pons' protocol, a clear before each position: Test_L1_R1 took
# 290 us a position with these look-ups, 170 us without).
ETC_AFTER = 1 << 17

# A position with at most SCAN_STONES stones whose score is known to lie in an interval at most
# SCAN_WIDTH wide is probed from 0 outwards, one step at a time (see solve_position): the empty
# board of every size solved so far scores between -2 and 5, most of them 0 or +-1, and the
# proof of a score needs only the two probes next to it (empty 7 x 6 board: 1,059,120,189 nodes
# by halving the interval, 867,988,260 so). Not further in: with up to 8 stones, the first 10
# positions of Pons' Test_L1_R3 (scores -3 to 4) took 15 % more nodes.
SCAN_STONES = 2
SCAN_WIDTH = 8

# Positions with more than RULES_EMPTY empty cells whose window's top is at most 1 ask, of each
# child, the upper bound (0 or -1) that the follow-up strategies of ``_rules`` prove without
# search (``_rules.fail_high``, inlined, one question a node): one that fails the node high
# answers it at once (empty 7 x 6 board: 867,988,260 nodes without, 337,581,116 with). From 10
# empty cells on, Test_L1_R2 cost about 10 % less CPU but the empty board 408,659,692 nodes in the
# same time; from 8 or from 4 (fail_high inlined), six 3-4-stone positions no faster.
RULES_EMPTY = 6
# Positions with more than TILES_EMPTY empty cells on boards 2 or 3 high whose window's bottom
# is under 0 ask, of each child, whether a tiling holds the opponent to 0 (``tiled_off``);
# nearer the end a search finds it soon enough.
TILES_EMPTY = 20
# Whether the search asks the rules at all: False in ``negamax``, where numba prunes the branch
# before typing it (``_rules`` is not compiled with it), True in ``negamax_rules`` (the same
# code compiled again: see ``_variant``). Only ``solve_position`` picks the latter.
RULES = False
# Which roots ``solve_position`` searches with the rules: ``_depth.uses_rules``.

# On boards at most LINES_SIDE high or wide, every node asks whether each side can still make
# four (a line of four cells, none of them the other side's): a side that cannot scores at most
# 0. Same run, CPU after/before, nodes after/before, from the empty board: 12x2 0.58, 0.55;
# 10x3 0.69, 0.58; 9x3 0.67, 0.54; 24x1 0.90, 0.93; 9x4 0.88, 0.94; 4x9 0.93, 0.93; on taller
# boards the rules (``_rules``) already find most of it: 7x6 1.01, 1.00; 7x5 0.90, 0.93; 6x5
# 1.01, 0.94 (2026-12-02, beside two chess matches, load 7).
LINES_SIDE = 4

ABORTED = 10_000  # negamax's value when ``ctrl`` stopped it (outside every score range)
MOOT = 10_001  # negamax's value when other threads already answered its probe
SHARED_BIG = 1_000  # the starting bounds of a shared interval: wider than every score

# the control array (int64) shared by a search and whoever watches it
CTRL_STOP = 0  # set non-zero to stop every search reading this array within 4,096 nodes
CTRL_MAX_NODES = 1  # stop when a search's node count (stats[0]) reaches this
CTRL_GEN = 2  # the table generation, 1..255
CTRL_SEARCHED = 3  # nodes searched in this generation so far (by the searches of this array)
CTRL_REGION = 4  # first slot of this search thread's own shallow region (see table_place)
CTRL_SIZE = 5
# Threads that search one position together mark the children they are searching in a small
# shared array of marks (``shared[2:]``, 2**BUSY_BITS keys; see negamax): a thread that meets a
# marked child among a node's later moves searches it after the others (ABDADA's deferral), so
# that the threads split a node's moves instead of searching the same subtree side by side.
# Only nodes with more than BUSY_EMPTY empty cells mark and look (few nodes, large subtrees).
BUSY_BITS = 14
BUSY_SHIFT = np.uint64(64 - BUSY_BITS)
BUSY_EMPTY = 20


@njit(cache=True, inline="always")
def _mark_index(key):
    """Where the position of key ``key`` (``current + mask``) is marked in ``shared``."""
    return 2 + np.int64((key * HASH_MUL) >> BUSY_SHIFT)


@njit(cache=True)
def _unmark(shared, key):
    """Take back the mark of the position of key ``key``, if it still holds it."""
    i = _mark_index(key)
    if shared[i] == np.int64(key):
        shared[i] = 0


@njit(cache=True, inline="always")
def _answered_row(table, fu, fi, d, empty):
    """The shallowest row above ``d`` whose position, with ``empty`` empty cells at row 0 and
    more than ``BUSY_EMPTY`` at that row, the table now answers (a lower bound ``>= beta`` or an
    upper bound ``<= alpha`` of that row: another thread searched it to the end meanwhile),
    and that answer; ``(-1, NOT_FOUND)`` if none."""
    for dd in range(d):
        if empty - dd <= BUSY_EMPTY:
            break  # deeper rows neither mark nor share their positions much
        tag = fu[dd, 3]
        if tag == U0:
            continue
        entry = table[fu[dd, 2]]
        if ((entry ^ tag) >> U8) == U0:
            code = np.int64(entry & U255)
            if code < 128:
                if code - UPPER_CODE <= fi[dd, 0]:
                    return dd, code - UPPER_CODE
            elif code - LOWER_CODE >= fi[dd, 1]:
                return dd, code - LOWER_CODE
    return -1, NOT_FOUND


@njit(cache=True, inline="always")
def pair_columns(width, height, offset):
    """The pairing of columns ``(offset, offset + 1), (offset + 2, offset + 3), ...`` of a board
    at most 3 high: the cells of each pair's left column, and the bottom cells of the columns
    outside a pair (at most one at each edge)."""
    left = U0
    single = U0
    c = 0
    while c < width:
        if c >= offset and (c - offset) % 2 == 0 and c + 1 < width:
            left |= column_mask(c, height)
            c += 2
        else:
            single |= column_mask(c, height)
            c += 1
    return left, single & bottom_mask(width, height)


@njit(cache=True, inline="always")
def paired_off(own, mask, height, board, left, lows):
    """True when the side with stones ``own`` (``mask``: every stone) can never make four on a
    board at most 3 high (where every four lies in a row) while the other side answers each of
    its stones with the other cell of its pair: the same row of the paired column (``left``:
    the pairs' left columns, see ``pair_columns``), or in a column outside a pair (``lows``:
    those columns' bottom cells) the cell above it. Every four in a row of this side's (its
    stones and empty cells) must hold a pair whose two cells are empty; 2 or 3 high, each
    pair's columns must be equally full and each column outside a pair must have an even
    number of empty cells (2 high: empty or full; 3 high: full or one stone), so that every
    answer is playable (1 high, any cell is: an answer without a pair goes anywhere)."""
    s = np.uint64(height + 1)  # one column to the right
    if height >= 2:
        if (mask & left) != ((mask >> s) & left):
            return False
        if height == 2 and (mask & lows) != ((mask >> U1) & lows):
            return False
        if height == 3 and (((mask >> U2) | (mask & ~(mask >> U1))) & lows) != lows:
            return False
    empty = board ^ mask
    starts = empty & (empty >> s) & left  # pairs with both cells empty, at their left cell
    covered = starts | (starts >> s) | (starts >> (s + s))  # the fours that hold one
    free = own | empty
    fours = free & (free >> s) & (free >> (s + s)) & (free >> (s + s + s))
    return (fours & ~covered) == U0


@njit(cache=True, inline="always")
def tiled_off(own, mask, width, height, board):
    """``paired_off`` over every pairing at once, on a board 2 or 3 high: True when some tiling
    of the columns into pairs of neighbours (equally full) and columns alone (an even number of
    empty cells) gives each four in a row of this side's (its stones and empty cells) a pair
    whose two cells in that row are empty. ``paired_off`` tries two tilings (pairs from the
    first column or the second); this one also finds those with a column alone inside the
    board, or several (an odd width, 3 high: a column of one stone in the middle).

    Dynamic programming over the columns, left to right. At the boundary before column ``j``
    the last tile is a column alone at ``j - 1`` (``alone``; also the left edge) or a pair at
    ``(j - 2, j - 1)`` (``paired``); the fours that start at ``j - 2`` and ``j - 1`` may still
    be covered by a pair at ``j`` (and one at ``j + 1`` for the latter), each in the rows it
    has not yet got: every row after a column alone, and the rows under the pair's first empty
    row after a pair. A pair whose columns have stones in rows ``v`` covers its fours' rows
    outside ``v``; every four that starts before ``j - 2`` must be covered by then."""
    s = np.uint64(height + 1)
    rows = (U1 << np.uint64(height)) - U1
    free = own | (board ^ mask)
    fours = free & (free >> s) & (free >> (s + s)) & (free >> (s + s + s))
    alone = True  # reachable at this boundary with a column alone last (the left edge too)
    paired = False  # ... with a pair last
    paired_next = False  # the next boundary, with a pair last (started at j - 1)
    o2 = U0  # rows of the fours that start at j - 2 (those at j - 1: o1)
    o1 = U0
    v2 = U0  # the stones of column j - 2 (one bit a row; column j - 1: v1)
    v1 = U0
    for j in range(width):
        at = np.uint64(j) * s
        vj = (mask >> at) & rows
        after_alone = False
        if (vj == rows) or (vj == U0 if height == 2 else vj == U1):  # even number empty
            after_alone = (alone and o2 == U0) or (paired and (o2 & v2) == U0)
        after_pair = False
        if j + 1 < width and ((mask >> (at + s)) & rows) == vj and (o1 & vj) == U0:
            after_pair = (alone and (o2 & vj) == U0) or (paired and (o2 & v2 & vj) == U0)
        alone = after_alone
        paired = paired_next
        paired_next = after_pair
        if not (alone or paired or paired_next):
            return False
        o2 = o1
        o1 = (fours >> at) & rows
        v2 = v1
        v1 = vj
    return alone or paired


@njit(cache=True, inline="always")
def singleton_off(own, mask, width, board):
    """On a board 2 high with an odd number of empty cells, True when the side with stones
    ``own`` (to move) can never make four while the other side answers by a tiling with one
    cell left over: columns of one stone paired with a neighbour of one stone (``P``: their top
    cells), empty columns paired with an empty neighbour (``D``: both rows) or alone, the other
    columns of one stone alone (their top cells paired among themselves anyhow, one left: the
    spare). Every four open to this side must hold both cells of a ``P`` or ``D`` pair in its
    row, and each ``D`` pair must be safe to give up: each four of the top row holding its two
    top cells is closed (the one straddling it) or holds a ``P`` pair (the ones beside it).

    The answers: a stone in a pair, the other cell of it (a ``D`` pair so becomes a ``P``); in
    a column alone, the cell above; on the spare, a stone of ours that leaves a new spare and
    keeps every condition: the top of a ``P`` or other pair (its partner the spare), the bottom
    of an empty column alone (its top the spare: the pairs cover its fours) or of a ``D`` pair
    (its partner column then alone; the fours of both top cells are closed or held by a ``P``
    pair). So the other side scores at least 0 (the first player's draw at least on N x 2, the
    bound no pairing of both sides gives: the second player has one stone more to place).

    Dynamic programming over the columns: the states at a boundary are the last tile, a column
    alone (``1``), a ``D`` pair (``2``; ``4``: one that needs a ``P`` pair next) or a ``P`` pair
    (``8``)."""
    s = np.uint64(3)
    free = own | (board ^ mask)
    fours = free & (free >> s) & (free >> (s + s)) & (free >> (s + s + s))
    cur = 1  # the boundary before column j (the left edge: as after a column alone)
    n1 = 0  # ... before j + 1
    n2 = 0  # ... before j + 2
    o2 = 0  # rows (bits) in which the four starting at j - 2 is open (j - 1: o1)
    o1 = 0
    for j in range(width):
        at = np.uint64(j) * s
        o0 = np.int64((fours >> at) & U3)
        fj = (mask >> at) & U3
        kind = 0  # the pair (j, j + 1) there can be: 2 (D), 8 (P) or none
        if j + 1 < width and ((mask >> (at + s)) & U3) == fj and fj != U3:
            kind = 2 if fj == U0 else 8
        for state in (1, 2, 4, 8):
            if (cur & state) == 0:
                continue
            r_last = 3 if state == 2 or state == 4 else 2 if state == 8 else 0
            if state != 4 and (o2 & ~r_last) == 0:
                n1 |= 1  # column j alone
            if kind == 0 or (state == 4 and kind != 8):
                continue
            r_new = 3 if kind == 2 else 2
            if (o2 & ~(r_last | r_new)) != 0 or (o1 & ~r_new) != 0:
                continue
            if kind == 2:
                if (o1 & 2) != 0 or ((o2 & 2) != 0 and state != 8):
                    continue
                n2 |= 4 if (o0 & 2) != 0 else 2
            else:
                n2 |= 8
        cur = n1
        n1 = n2
        n2 = 0
        if cur == 0 and n1 == 0:
            return False
        o2 = o1
        o1 = o0
    return (cur & 11) != 0


# negamax and probe_score are long (the 60-line rule's exception for the numba kernel): each
# search keeps its explicit stack in local arrays inside one loop; split into helpers, that
# state would be passed through a call at every node. Whether a split costs time here has not
# been measured: measure before splitting.
@njit(cache=True, nogil=True)
def negamax(
    root_current, root_mask, root_nb, root_alpha, root_beta, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, shared,
):  # fmt: skip
    """Alpha-beta negamax value of a position (fail-hard bounds), without recursion.

    Returns ``v`` with: ``v <= alpha`` => true score <= v; ``v >= beta`` => true
    score >= v; otherwise ``v`` is the exact score; or ABORTED when ``ctrl`` said stop, or
    MOOT when the bounds ``shared[0] <= score <= shared[1]`` (which other threads may tighten)
    already answer a null-window probe ``root_alpha + 1 == root_beta`` (the table then holds only
    bounds of subtrees searched to the end, true for any later search).
    Preconditions: ``alpha < beta`` and the side to move cannot win with its next stone.
    ``stats[0]`` counts the nodes, ``stats[1]`` the database hits, ``stats[2]`` the deferred moves,
    ``stats[3]`` the nodes answered by another thread (below).

    ``shared`` has 2 entries (one thread), or ``2 + 2**BUSY_BITS`` (threads that search together;
    zero beyond the bounds at the start): then ``shared[2 + (h >> BUSY_SHIFT)]``, ``h`` the hash
    of a position's key ``current + mask``, is that key while a thread searches the position as
    a child of a node with more than ``BUSY_EMPTY`` empty cells. The thread sets it when it goes
    into the child and clears it (if it still holds that key) when it comes back or stops; a
    node's move other than its first and its last whose child holds a mark is moved to the end
    of the move list, once (``stats[2]`` counts those). Marks only change the order of moves:
    whatever another thread does to them, the value is exact. With marks, every 4,096 nodes the
    search also asks ``_answered_row`` whether the table now answers a node of its path (with
    more than ``BUSY_EMPTY`` empty cells): if so it takes back the marks below that node and
    passes the table's bound up as that node's value (a true bound that another thread stored,
    ``stats[3]`` counts those), as if it had searched the node to that end itself.

    Positions of ``db_ply`` stones are looked up in the database (``db_keys``/``db_vals``,
    sorted; ``db_ply < 0``: none).  Every 4,096 nodes the search reads ``ctrl``: it stops if
    ``ctrl[CTRL_STOP] != 0``; it stops at the node that brings its count to
    ``ctrl[CTRL_MAX_NODES]``.  Table
    entries carry the generation ``ctrl[CTRL_GEN]`` (1..255): entries of older generations
    are misses, so clearing the table costs one increment.

    The search keeps its own stack, one row per ply ``d`` below the root:
    ``fu[d]`` = (current, mask, table slot, table tag, ordered moves...) and
    ``fi[d]`` = (alpha, beta, number of moves, next move index, move scores...).
    Both arrays need ``width * height + 1`` rows, ``fi`` ``width + 4`` columns and ``fu``
    ``width + 5`` (column ``width + 4``: the moves deferred at that ply; see ``_Worker``).

    One long function on purpose: numba compiles the explicit-stack loop far better than
    recursion or helper calls that pass the stack around.
    """
    cells = width * height
    bottom = bottom_mask(width, height)
    board = board_mask(width, height)
    shift = table_shift(table.shape[0])
    gen = np.uint64(ctrl[CTRL_GEN]) << U8
    region = np.uint64(ctrl[CTRL_REGION])
    shallow = shallow_empty(height, shift)
    etc_empty = (
        ETC_EMPTY_LOW if height <= LOW_HEIGHT
        else ETC_EMPTY_THREE if height == LOW_HEIGHT + 1
        else ETC_EMPTY
    )  # fmt: skip
    max_nodes = ctrl[CTRL_MAX_NODES] - stats[0]
    centre = width // 2
    nodes = 0
    etc_on = ctrl[CTRL_SEARCHED] >= ETC_AFTER
    lines_on = height <= LINES_SIDE or width <= LINES_SIDE  # can each side still make four?
    # boards 1 to 3 high: the pairing strategies (``paired_off``). 1 high they answer the empty
    # board of any width at once (31 x 1 and 32 x 1: 2 nodes, cut at 2,400 s without); 2 and 3
    # high only the side to move's upper bound holds (the other side's needs a spare stone,
    # which gravity forbids), and the nodes fell little 2 high (9 x 2 0.81x, 12 x 2 0.99x,
    # 2026-12-02); 3 high, the side to move's on an even width (every column paired): 8 x 3
    # 0.51x, 10 x 3 0.81x, 6 x 3 0.21x; odd widths 1.00x (7 x 3 0.98x), 2026-12-02
    pairs_on = height <= 3
    # 2 and 3 high, a position that neither of those two pairings answers asks ``tiled_off``
    # for any other, when its bound (at most 0) can cut (a window above 0) and the side to move
    # has an even number of empty cells left (each tile has an even number). On boards of an
    # odd number of cells (3 high, an odd width) that side is the second player: its bound is
    # the first player's draw at least (13 x 3: proven at its root in 2 nodes; -3 after
    # 1,500 s on two threads without). 2 high, the side to move with an odd number of empty
    # cells asks ``singleton_off`` (a tiling with a spare cell): the first player's draw on
    # N x 2 (told nothing, one thread: 13 x 2 0.39x the nodes, 14 x 2 0.38x; 2026-12-03)
    tiles_on = height >= 2 and pairs_on
    left0, lows0 = pair_columns(width, height, 0)
    left1, lows1 = pair_columns(width, height, 1)
    # marks of the children being searched (several threads; every index in range)
    busy = shared.shape[0] >= 2 + (1 << BUSY_BITS)
    dcol = width + 4  # fu[d, dcol]: the moves deferred at ply d
    answer = NOT_FOUND  # a node's value that another thread found (see _answered_row)
    d = 0
    fu[0, 0] = root_current
    fu[0, 1] = root_mask
    fi[0, 0] = root_alpha
    fi[0, 1] = root_beta
    v = 0
    while True:
        # ---- enter the node of ply d: either its value is known at once, or its
        # ---- ordered move list is set up in row d
        nodes += 1
        if (nodes & 4095) == 0 or nodes >= max_nodes:  # the node budget holds exactly
            stop = ctrl[CTRL_STOP] != 0 or nodes >= max_nodes
            if stop or shared[0] > root_alpha or shared[1] <= root_alpha:
                stats[0] += nodes
                ctrl[CTRL_SEARCHED] += nodes
                if busy:  # take back this search's marks
                    for dd in range(d):
                        if cells - root_nb - dd <= BUSY_EMPTY:
                            break  # no deeper row was marked
                        _unmark(shared, fu[dd + 1, 0] + fu[dd + 1, 1])
                return ABORTED if stop else MOOT
            etc_on = ctrl[CTRL_SEARCHED] + nodes >= ETC_AFTER
            if busy:
                # a node on this search's path that another thread answered meanwhile (see
                # _answered_row): take back the marks below it and pass its answer up
                row, answer = _answered_row(table, fu, fi, d, cells - root_nb)
                if row >= 0:
                    for dd in range(row, d):
                        if cells - root_nb - dd <= BUSY_EMPTY:
                            break  # no deeper row was marked
                        _unmark(shared, fu[dd + 1, 0] + fu[dd + 1, 1])
                    d = row
                    stats[3] += 1
        current = fu[d, 0]
        mask = fu[d, 1]
        nb = root_nb + d
        alpha = fi[d, 0]
        beta = fi[d, 1]
        done = True
        nxt = non_losing_moves(current, mask, height, bottom, board)
        if answer != NOT_FOUND:
            v = answer  # another thread's answer of this node (above)
            answer = NOT_FOUND
        elif nxt == U0:
            v = -((cells - nb) // 2)  # the opponent wins with its next stone
        elif nb >= cells - 2:
            v = 0  # neither side can make four before the board is full
        else:
            v = NOT_FOUND
            if nb == db_ply:
                v = db_probe(current, mask, nb, width, height, db_keys, db_vals)
                if v != NOT_FOUND:
                    stats[1] += 1
        if v == NOT_FOUND:
            lo = -((cells - 2 - nb) // 2)  # the opponent cannot win at its next stone
            if alpha < lo:
                alpha = lo
            hi = (cells - 1 - nb) // 2  # we cannot win with our next stone
            if lines_on:
                # a side that no longer has four empty-or-own cells in a line can never win
                free = board ^ mask
                if hi > 0 and not has_four(current | free, height):
                    hi = 0
                if alpha < 0 and not has_four((current ^ mask) | free, height):
                    alpha = 0
            if pairs_on:
                # the opponent, answering each of our stones by a pairing, keeps us from four
                if hi > 0 and (
                    paired_off(current, mask, height, board, left0, lows0)
                    or paired_off(current, mask, height, board, left1, lows1)
                    or (
                        tiles_on
                        and beta > 0
                        and (cells - nb) % 2 == 0
                        and tiled_off(current, mask, width, height, board)
                    )
                    or (
                        height == 2
                        and beta > 0
                        and (cells - nb) % 2 == 1
                        and singleton_off(current, mask, width, board)
                    )
                ):
                    hi = 0
                # 1 high (any cell playable), we can do the same to the opponent after a
                # stone of ours anywhere
                if (
                    alpha < 0
                    and height == 1
                    and (
                        paired_off(current ^ mask, mask, height, board, left0, lows0)
                        or paired_off(current ^ mask, mask, height, board, left1, lows1)
                    )
                ):
                    alpha = 0
                # 2 and 3 high, we can too when after one of our moves some tiling answers
                # every four the opponent could make (our stone must leave it an even number
                # of empty cells: a tiling has no other): 15 x 3's lower bound 0 at its root
                # (a first stone left or right of the middle column leaves an even number of
                # columns each side to pair; -10 after 60 s without). From the empty board,
                # one thread, 1 GiB, the published score told: 7 x 3 0.82x the nodes, 11 x 3
                # 0.98x, 8 x 3 to 10 x 3 and 11 x 2 to 13 x 2 the same (2026-12-03)
                if tiles_on and alpha < 0 and (cells - nb) % 2 == 1 and cells - nb > TILES_EMPTY:
                    f = nxt
                    while f != U0:
                        m = f & (U0 - f)
                        f ^= m
                        if tiled_off(current ^ mask, mask | m, width, height, board):
                            alpha = 0
                            break
            slot = U0
            tag = U0  # no table entry (near the end of the game)
            if cells - nb > NO_TABLE_EMPTY:
                key = table_key(current + mask, nb, width, height)
                slot, tag = table_place(key * HASH_MUL, cells - nb, shift, region, shallow)
                tag |= gen
            if alpha < beta and tag != U0:
                entry = table[slot]
                if ((entry ^ tag) >> U8) == U0:
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
                v = alpha
            elif beta > hi and alpha >= hi:
                v = hi
            else:
                if beta > hi:
                    beta = hi
                # move ordering: more threats first, ties centre-first (stable insertion)
                count = 0
                etc = NOT_FOUND
                # a child's upper bound from the rules (0 or -1) may fail this node high
                if RULES and beta <= 1 and cells - nb > RULES_EMPTY:
                    etc = fail_high(current, mask, nxt, beta, cells - nb, height, bottom, board)
                    if etc == NONE:
                        etc = NOT_FOUND
                if etc == NOT_FOUND and (nxt & (nxt - U1)) == U0:  # a single (forced) move
                    if cells - nb > NO_TABLE_EMPTY + 1:  # the child uses the table
                        ck = table_key((current ^ mask) + (mask | nxt), nb + 1, width, height)
                        cs, _ = table_place(ck * HASH_MUL, cells - nb - 1, shift, region, shallow)
                        prefetch(table, cs)
                    fu[d, 4] = nxt
                    count = 1
                # the search of deep solves (RULES) weighs the threats (see below), and answers
                # a move that leaves the opponent no move that does not lose at once without
                # entering the child (plain negamax: every threat counts one, every child is
                # entered)
                dead = U0  # (RULES) the cells right above the opponent's winning cells
                if RULES and count == 0 and etc == NOT_FOUND:
                    dead = winning_cells(current ^ mask, mask, height, board) << U1
                for i in range(width if count == 0 and etc == NOT_FOUND else 0):
                    col = centre + i // 2 if i % 2 == 0 else centre - (i + 1) // 2
                    m = nxt & column_mask(col, height)
                    if m != U0:
                        # fetch the child's table slot while this node is busy
                        if cells - nb > NO_TABLE_EMPTY + 1:
                            ck = table_key((current ^ mask) + (mask | m), nb + 1, width, height)
                            cs, _ = table_place(
                                ck * HASH_MUL, cells - nb - 1, shift, region, shallow
                            )
                            prefetch(table, cs)
                        w = winning_cells(current | m, mask | m, height, board)
                        sc = popcount(w)
                        if RULES:
                            replies = possible_moves(mask | m, bottom, board)  # the child's
                            if w != U0 and non_losing_among(replies, w) == U0:
                                # the child has no move that does not lose to our threats w: m
                                # wins with our next stone (the best score left, hi)
                                etc = hi
                                break
                            # a threat right above one of the opponent's is dead (only we can
                            # fill that cell under it, and the opponent then blocks ours): not
                            # counted; one right above a cell the opponent could play next
                            # (which it now must not play) counts twice
                            live = w & ~dead
                            sc = popcount(live) + popcount(live & (replies << U1))
                        j = count
                        while j > 0 and fi[d, 3 + j] < sc:
                            fu[d, 4 + j] = fu[d, 3 + j]
                            fi[d, 4 + j] = fi[d, 3 + j]
                            j -= 1
                        fu[d, 4 + j] = m
                        fi[d, 4 + j] = sc
                        count += 1
                if etc != NOT_FOUND:
                    if tag != U0:
                        table[slot] = tag | np.uint64(etc + LOWER_CODE)
                elif etc_on and cells - nb > etc_empty and count > 1:
                    # enhanced transposition cut-off: a child whose stored upper bound
                    # already fails this node high (their slots were prefetched above)
                    for j in range(count):
                        m = fu[d, 4 + j]
                        ck = table_key((current ^ mask) + (mask | m), nb + 1, width, height)
                        cs, ct = table_place(ck * HASH_MUL, cells - nb - 1, shift, region, shallow)
                        e = table[cs]
                        if ((e ^ (ct | gen)) >> U8) == U0:
                            code = np.int64(e & U255)
                            if code < 128 and UPPER_CODE - code >= beta:
                                etc = UPPER_CODE - code
                                table[slot] = tag | np.uint64(etc + LOWER_CODE)
                                break
                if etc != NOT_FOUND:
                    v = etc  # a lower bound >= beta
                else:
                    fu[d, 2] = slot
                    fu[d, 3] = tag
                    fu[d, dcol] = U0
                    fi[d, 0] = alpha
                    fi[d, 1] = beta
                    fi[d, 2] = count
                    fi[d, 3] = 0
                    done = False
        # ---- pass values up and go down to the next child to search
        while True:
            if done:
                if d == 0:
                    stats[0] += nodes
                    ctrl[CTRL_SEARCHED] += nodes
                    return v
                d -= 1
                if busy and cells - root_nb - d > BUSY_EMPTY:
                    _unmark(shared, fu[d + 1, 0] + fu[d + 1, 1])
                v = -v
                if v >= fi[d, 1]:  # fail high: v is a lower bound of row d too
                    if fu[d, 3] != U0:
                        table[fu[d, 2]] = fu[d, 3] | np.uint64(v + LOWER_CODE)
                    continue
                if v > fi[d, 0]:
                    fi[d, 0] = v
            k = fi[d, 3]
            count = fi[d, 2]
            if k < count:
                fi[d, 3] = k + 1
                m = fu[d, 4 + k]
                if busy and cells - root_nb - d > BUSY_EMPTY:
                    ck = (fu[d, 0] ^ fu[d, 1]) + (fu[d, 1] | m)
                    bi = _mark_index(ck)
                    marked = k > 0 and k + 1 < count and shared[bi] == np.int64(ck)
                    if marked and (fu[d, dcol] & m) == U0:
                        # another thread searches this child: search it last (once)
                        fu[d, dcol] |= m
                        stats[2] += 1
                        for j in range(k, count - 1):
                            fu[d, 4 + j] = fu[d, 5 + j]
                        fu[d, 3 + count] = m
                        fi[d, 3] = k
                        done = False
                        continue
                    shared[bi] = np.int64(ck)
                fu[d + 1, 0] = fu[d, 0] ^ fu[d, 1]
                fu[d + 1, 1] = fu[d, 1] | m
                fi[d + 1, 0] = -fi[d, 1]
                fi[d + 1, 1] = -fi[d, 0]
                d += 1
                break
            # every move searched without reaching beta: alpha is an upper bound
            v = fi[d, 0]
            if fu[d, 3] != U0:
                table[fu[d, 2]] = fu[d, 3] | np.uint64(v + UPPER_CODE)
            done = True


def probe_score(
    current, mask, nb, weak, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, role, shared, b, centre=0, guessed=False,
):  # fmt: skip
    """The probes of :func:`solve_position`, from the bounds ``b[0] <= score <= b[1]`` known
    so far (the side to move cannot win with its next stone): ``b`` then holds the score, or
    its bounds when ``ctrl`` stopped the search; True when complete. Plain Python that calls
    only :func:`negamax`, so that it also compiles as it is (:func:`solve_position_kernel`).

    The interval ``[lo, hi]`` known to hold the score shrinks with each probe
    ``negamax(med, med + 1)``; ``med`` first goes half-way towards the
    bounds, where probes are cheap (they only have to look at quick wins or
    losses), then closes in on the score.  The bounds of a weak solve are signs.  A position
    with at most ``SCAN_STONES`` stones, once its interval is at most ``SCAN_WIDTH`` wide, is
    probed at ``centre`` (0 unless the caller expects the score near ``centre + 1`` or
    ``centre``: see :func:`solve_position`) first and then one step at a time away from it,
    towards the score; with a guess (``guessed``, or a ``centre`` other than 0), at once (no
    far probes first).

    Several threads may solve the same position with the same ``shared`` array (its bounds
    start ``[-BIG, BIG]``, its marks zero: see ``negamax``): each reads and tightens the bounds
    around every probe, and a probe that the others answered first stops (MOOT).  The main
    thread (``role`` 0) probes where a lone search would. A helper (``role`` > 0) joins that
    probe (the marks split it: see ``negamax``) while the interval is more than 2 wide; once it
    is at most 2 wide, or while scanning, it probes next to it, so that the last two (the
    costliest) probes around the score run at the same time (a helper next to the main thread
    at every width: two threads on Test_L1_R3's first 20 lines, the busiest thread's nodes
    1.47-1.63x fewer than one thread's in ten passes, joining while wider than 2: 1.53-1.70x in
    six, same sessions; with the answered nodes of ``negamax`` too: see the module's docstring).
    """

    def probe(med):
        """One null-window probe ``negamax(med, med + 1)``: tighten ``b`` (this search's
        ``[lo, hi]``) and ``shared`` (every thread's) with its answer; negamax's value."""
        r = negamax(
            current, mask, nb, med, med + 1, width, height, table, stats, fu, fi,
            db_keys, db_vals, db_ply, ctrl, shared,
        )  # fmt: skip
        if r >= ABORTED:  # ABORTED or MOOT
            return r
        if r <= med:
            b[1] = min(b[1], r)
            shared[1] = min(shared[1], r)
        else:
            b[0] = max(b[0], r)
            shared[0] = max(shared[0], r)
        return r

    aborted = False
    if weak:
        # two cheap probes first: a quick win?  a quick loss?  (the score bounds make the
        # deep lines irrelevant to them, and a plain [-1, 1] search can get lost in slow
        # wins); then the [-1, 1] window (clipping the bounds there keeps their signs)
        med = b[1] // 2
        if med > 0 and b[0] < med:
            aborted = probe(med) == ABORTED
        med = -((-b[0]) // 2)
        if not aborted and b[0] < 1 and med < 0 and b[1] > med:
            aborted = probe(med) == ABORTED
        if b[0] < 1 and b[1] > -1:
            b[0] = max(b[0], -1)
            b[1] = min(b[1], 1)
    while not aborted:
        b[0] = max(b[0], shared[0])
        b[1] = min(b[1], shared[1])
        lo = b[0]
        hi = b[1]
        if lo >= hi or (weak and (lo > 0 or hi < 0)):
            break
        med = lo + (hi - lo) // 2
        half_lo = -((-lo) // 2)  # lo / 2 rounded towards 0
        half_hi = hi // 2
        if med <= 0 and half_lo < med:
            med = half_lo
        elif med >= 0 and half_hi > med:
            med = half_hi
        # a caller's guess is scanned from at once: the far probes cost (the empty 9 x 5 board,
        # 4 GiB: the probe at 5 187 M nodes, at -2 854 M; the empty 7 x 6 board, whose guess 1
        # gives the default centre 0: 8.2 M nodes of 208.6 M)
        scan = nb <= SCAN_STONES and (hi - lo <= SCAN_WIDTH or centre != 0 or guessed)
        if scan:
            # near the start, once the score is known to lie near a draw (or near the
            # caller's guess): from ``centre`` outwards, one step at a time (the proof of the
            # score needs the probes on both sides of it)
            if lo > centre:
                med = lo
            elif hi <= centre:
                med = hi - 1
            else:
                med = centre
        if role > 0 and (scan or hi - lo <= 2):
            if med + 1 < hi:
                med += 1
            elif med - 1 >= lo and not scan:
                med -= 1
            # else (scanning) the helper joins the main thread's probe: their marks split it
        # wider and not scanning: the helper joins the main thread's probe too
        aborted = probe(med) == ABORTED
    lo = b[0]
    hi = b[1]
    if weak:
        # signs (not a difference of comparisons: without numba those are numpy booleans,
        # which do not subtract)
        lo = 1 if lo > 0 else (-1 if lo < 0 else 0)
        hi = 1 if hi > 0 else (-1 if hi < 0 else 0)
        if lo > hi:  # hi < 0 was found after lo was clipped to -1
            lo = hi
    b[0] = lo
    b[1] = hi
    return lo == hi or not aborted


_probe_score_kernel = njit(cache=True, nogil=True)(probe_score)


def solve_position(
    current, mask, nb, weak, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, role, shared, out, guess=None,
):  # fmt: skip
    """Score of a position (weak: -1/0/1 only) by null-window probes: ``out[0] <= score <=
    out[1]``, equal unless ``ctrl`` stopped the search; returns True when complete.
    ``current`` and ``mask``: the position's words, as Python or numpy integers (see
    :func:`probe_score` for the probes).

    Python around the compiled search: the position's own cases (a full board, a win at the
    next stone, the database's score), then a handful of probes, each one call of
    :func:`negamax` (the compiled kernels that solve many positions in one call use
    :func:`solve_position_kernel`, the same steps compiled).

    ``guess``: a score expected for the position (None: none), which only changes the order
    of the probes, never the answer: a position with at most ``SCAN_STONES`` stones is probed
    from ``guess - 1`` outwards (``probe_score``'s ``centre``; the proof of a score ``s``
    needs the probes at ``s - 1`` and ``s``), at once (no far probes first); with no guess,
    from 0 once the interval is at most ``SCAN_WIDTH`` wide."""
    current, mask = int(current), int(mask)
    cells = width * height
    if nb >= cells:
        out[0] = 0
        out[1] = 0
        return True
    bottom = _bits.bottom_mask(width, height)
    if _bits.can_win_next(current, mask, height, bottom, _bits.board_mask(width, height)):
        s = 1 if weak else (cells + 1 - nb) // 2
        out[0] = s
        out[1] = s
        return True
    out[0] = -((cells - nb) // 2)
    out[1] = (cells + 1 - nb) // 2
    word, stones = np.uint64(current), np.uint64(mask)
    if nb == db_ply:
        v = db_probe(word, stones, nb, width, height, db_keys, db_vals)
        if v != NOT_FOUND:
            out[0] = v
            out[1] = v
    # a deep search with no database under it asks the rules (``_depth``)
    probes = probe_score_rules if _depth.uses_rules(cells, nb, db_ply >= nb) else probe_score
    guessed = guess is not None and not weak
    centre = guess - 1 if guessed else 0
    return probes(
        word, stones, nb, weak, width, height, table, stats, fu, fi,
        db_keys, db_vals, db_ply, ctrl, role, shared, out, centre, guessed,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def solve_position_kernel(
    current_in, mask_in, nb, weak, width, height, table, stats, fu, fi,
    db_keys, db_vals, db_ply, ctrl, role, shared, out,
):  # fmt: skip
    """:func:`solve_position` compiled, on ``uint64`` words, for the kernels that solve many
    positions in one call (``_batch.solve_batch``): compiled only with them."""
    current = np.uint64(current_in)
    mask = np.uint64(mask_in)
    cells = width * height
    if nb >= cells:
        out[0] = 0
        out[1] = 0
        return True
    if can_win_next(current, mask, height, bottom_mask(width, height), board_mask(width, height)):
        s = 1 if weak else (cells + 1 - nb) // 2
        out[0] = s
        out[1] = s
        return True
    out[0] = -((cells - nb) // 2)
    out[1] = (cells + 1 - nb) // 2
    if nb == db_ply:
        v = db_probe(current, mask, nb, width, height, db_keys, db_vals)
        if v != NOT_FOUND:
            out[0] = v
            out[1] = v
    return _probe_score_kernel(
        current, mask, nb, weak, width, height, table, stats, fu, fi,
        db_keys, db_vals, db_ply, ctrl, role, shared, out, 0,
    )  # fmt: skip


def _variant(function, name, **constants):
    """``function`` (plain Python) with some of its module's names bound to other values: the
    same code, under its own name (numba caches a kernel by its file and qualified name, so a
    variant compiled is cached beside the original, not over it). The variant's names are a
    copy of the module's as they are now: a later change to a module name does not reach it."""
    names = {**function.__globals__, **constants}
    variant = types.FunctionType(
        function.__code__, names, name, function.__defaults__, function.__closure__
    )
    variant.__qualname__ = name
    variant.__doc__ = function.__doc__
    return variant


#: :func:`negamax` with ``RULES``: compiled (with ``_rules``) on the first deep solve only.
negamax_rules = njit(cache=True, nogil=True)(
    _variant(getattr(negamax, "py_func", negamax), "negamax_rules", RULES=True)
)  # (with NUMBA_DISABLE_JIT, njit hands back the Python function itself)
#: :func:`probe_score` on :data:`negamax_rules` (plain Python, as ``probe_score``).
probe_score_rules = _variant(probe_score, "probe_score_rules", negamax=negamax_rules)
