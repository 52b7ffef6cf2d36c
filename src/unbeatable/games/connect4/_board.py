# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Constants and bitboard helpers of the Connect Four kernels (see ``_kernel`` for the board
encoding, the scores and the table)."""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

U0 = np.uint64(0)
U1 = np.uint64(1)
U2 = np.uint64(2)
U3 = np.uint64(3)
U8 = np.uint64(8)
U16 = np.uint64(16)
U255 = np.uint64(255)
HASH_MUL = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it is a bijection

UPPER_CODE = 64
LOWER_CODE = 160
FULL_COLUMN = -1000  # score-map marker of a full column

# status codes of play_moves (and STOPPED: a search cut short)
OK = 0
BAD_COLUMN = 1
COLUMN_FULL = 2
GAME_OVER = 3
STOPPED = 4

# Positions with at most this many empty cells are searched without the table: their subtrees
# are so small that a table read (a cache miss, nearly always) costs more than it saves.
NO_TABLE_EMPTY = 4

# Positions with more than this many empty cells look their children up in the table before
# searching any (an enhanced transposition cut-off: a child's upper bound may fail the node
# high at once); nearer the end, that look-up costs more than the nodes it saves.
ETC_EMPTY = 16
# ... but only once this many nodes were searched in the table's generation: in a table just
# cleared the children's entries are missing or not in the CPU caches, and each look-up stalls
# the search for a memory read (Pons' protocol, a clear before each position: Test_L1_R1 took
# 290 us a position with these look-ups, 170 us without).
ETC_AFTER = 1 << 17

ABORTED = 10_000  # negamax's value when ``ctrl`` stopped it (outside every score range)
MOOT = 10_001  # negamax's value when other threads already answered its probe
SHARED_BIG = 1_000  # the starting bounds of a shared interval: wider than every score
NOT_FOUND = -10_000  # db_probe: the position is not in the database

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


if getattr(numba.config, "DISABLE_JIT", False):

    def prefetch(arr, index):
        """Hint that ``arr[index]`` will be read soon (a no-op without numba)."""

else:
    from llvmlite import ir  # type: ignore[import-untyped, unused-ignore]
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def prefetch(typingctx, arr, index):
        """Hint that ``arr[index]`` will be read soon (LLVM's prefetch, no fault)."""
        sig = types.void(arr, index)

        def codegen(context, builder, signature, args):
            arrty = signature.args[0]
            ary = context.make_array(arrty)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(
                context, builder, arrty, ary, [args[1]], wraparound=False
            )
            i8p = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
            # read access, high temporal locality, data cache
            builder.call(
                fn,
                [
                    builder.bitcast(ptr, i8p),
                    ir.Constant(i32, 0),
                    ir.Constant(i32, 3),
                    ir.Constant(i32, 1),
                ],
            )
            return context.get_dummy_value()

        return sig, codegen


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


@njit(cache=True, inline="always")
def column_mask(col, height):
    """The playable cells of column ``col`` (0-based)."""
    return ((U1 << np.uint64(height)) - U1) << (np.uint64(col) * np.uint64(height + 1))


@njit(cache=True, inline="always")
def _popcount_loop(x):
    """Number of set bits (short loop: the words counted here are sparse)."""
    n = 0
    while x != U0:
        x &= x - U1
        n += 1
    return n


if getattr(numba.config, "DISABLE_JIT", False):
    popcount = _popcount_loop
else:

    @intrinsic
    def _ctpop(typingctx, x):
        """LLVM's population count of a uint64 (one instruction where the CPU has one)."""
        sig = types.int64(types.uint64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic("llvm.ctpop", [i64])
            return builder.call(fn, [args[0]])

        return sig, codegen

    @njit(cache=True, inline="always")
    def popcount(x):
        """Number of set bits."""
        return _ctpop(np.uint64(x))  # type: ignore[call-arg, unused-ignore]


@njit(cache=True, inline="always")
def _line_cells(p, s):
    """Cells that complete a four of ``p`` along the direction of bit shift ``s``.

    A four spans three shifts; when they reach past the 64-bit word (a board 1 to 3 columns
    wide and very tall) no four fits that way, and shifting by 64 or more would wrap."""
    s2 = s + s
    s3 = s2 + s
    if s3 >= np.uint64(64):
        return U0
    pair = (p << s) & (p << s2)
    r = pair & (p << s3)
    r |= pair & (p >> s)
    pair = (p >> s) & (p >> s2)
    r |= pair & (p << s)
    r |= pair & (p >> s3)
    return r


@njit(cache=True, inline="always")
def winning_cells(p, mask, height, board):
    """Empty cells (playable now or later) where a stone of ``p`` would make four."""
    h = np.uint64(height)
    r = (p << U1) & (p << U2) & (p << U3)  # vertical: three stones just below
    r |= _line_cells(p, h + U1)  # horizontal
    r |= _line_cells(p, h)  # diagonal going down to the right
    r |= _line_cells(p, h + U2)  # diagonal going up to the right
    return r & (board ^ mask)


@njit(cache=True, inline="always")
def possible_moves(mask, bottom, board):
    """One bit per non-full column: the cell a stone dropped there lands on."""
    return (mask + bottom) & board


@njit(cache=True)
def can_win_next(current, mask, height, bottom, board):
    """True if the side to move can make four with its next stone."""
    return (winning_cells(current, mask, height, board) & possible_moves(mask, bottom, board)) != U0


@njit(cache=True, inline="always")
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


# Tables of at least 2**18 slots (2 MiB) are split by depth: positions with at most
# SHALLOW_EMPTY empty cells (the bulk of the nodes, each a small subtree) use only the first
# 2**18 slots, a region small enough to stay in the CPU caches; deeper positions use the whole
# table, where the shallow ones no longer overwrite them (see ``_kernel``).
SHALLOW_EMPTY = 18
SHALLOW_SHIFT = np.uint64(46)  # the shallow region's slot is h >> 46: 2**18 slots
SHALLOW_SLOTS = 1 << 18
SHALLOW_FLAG = np.uint64(1 << 16)  # entry bit: a shallow position's entry
U17 = np.uint64(17)

# Positions with at most this many stones share their table entry with their mirror image
# (both are filed under the smaller of the two keys): near the root, where each subtree is
# large, the search often meets both (in the empty board's tree, every line has its twin).
MIRROR_STONES = 16


@njit(cache=True, inline="always")
def mirror(key, width, height):
    """The key of the mirror image of the position of key ``key`` (columns in reverse order;
    the key's columns never carry into each other)."""
    h1 = np.uint64(height + 1)
    col = (U1 << h1) - U1
    m = U0
    for c in range(width):
        m |= ((key >> (np.uint64(c) * h1)) & col) << (np.uint64(width - 1 - c) * h1)
    return m


@njit(cache=True, inline="always")
def table_key(key, stones, width, height):
    """The key that the table files a position under: with at most ``MIRROR_STONES`` stones,
    the smaller of its key and its mirror image's (the two share an entry)."""
    if stones <= MIRROR_STONES:
        m = mirror(key, width, height)
        if m < key:
            return m
    return key


@njit(cache=True, inline="always")
def table_place(h, empty, shift, region):
    """The slot of the position of hash ``h`` with ``empty`` empty cells, and its entry's key
    bits (without generation and bound): see ``_kernel`` for the layout. ``region``: the first
    slot of the search thread's own shallow region (0 for one thread)."""
    if shift <= SHALLOW_SHIFT:
        if empty <= SHALLOW_EMPTY:
            return region + (h >> SHALLOW_SHIFT), (h << U17) | SHALLOW_FLAG
        return h >> shift, h << U17
    return h >> shift, h << U16


def _table_shift_loop(n_slots):
    """``64 - log2(n_slots)`` for a power-of-two table size."""
    bits = 0
    while (1 << (bits + 1)) <= n_slots:
        bits += 1
    return np.uint64(64 - bits)


if getattr(numba.config, "DISABLE_JIT", False):
    table_shift = _table_shift_loop
else:

    @intrinsic
    def _ctlz(typingctx, x):
        """LLVM's count of leading zeros of a uint64 (one instruction where the CPU has one)."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            i1 = ir.IntType(1)
            fnty = ir.FunctionType(i64, [i64, i1])
            fn = builder.module.declare_intrinsic("llvm.ctlz", [i64], fnty)
            return builder.call(fn, [args[0], ir.Constant(i1, 0)])

        return sig, codegen

    @njit(cache=True, inline="always")
    def table_shift(n_slots):
        """``64 - log2(n_slots)`` for a power-of-two table size (one count of leading zeros:
        every search calls it)."""
        return _ctlz(np.uint64(n_slots)) + U1  # type: ignore[call-arg, unused-ignore]
