# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The transposition table of the Connect Four kernels: where a position's entry lives, what it
holds, and the memory hint that fetches it early.

A ``uint64`` array of ``2**b`` slots (``b >= 16``).  The key
``k`` (``current + mask``, see ``_bitboard``) is scrambled by ``h = k * HASH_MUL mod 2**64`` (a
bijection: the multiplier is odd).  A slot holds ``(key bits) | (gen << 8) | code`` and the slot
index gives the top bits of ``h`` that the key bits leave out, so a hit is never a false hit, for
any board size, and no division is needed:

* small tables (``b < 18``): the position lives in slot ``h >> (64 - b)`` (the top ``b``
  bits of ``h``) and the key bits are ``h << 16`` (the low 48 bits of ``h``);
* tables of ``2**18`` slots (2 MiB) or more are split by depth.  A position with more than
  ``SHALLOW_EMPTY`` (18; ``SHALLOW_EMPTY_BIG``, 16, in tables of ``2**27`` slots or more;
  ``SHALLOW_EMPTY_LOW``, 8, on boards 1 or 2 high, ``SHALLOW_EMPTY_THREE``, 12, on boards 3
  high: ``shallow_empty``) empty cells lives in
  slot ``h >> (64 - b)`` of the whole table; a shallower one in slot ``h >> 46``, i.e. in the
  first ``2**18`` slots only.  The shallow positions are most of the nodes but each is a
  small subtree: in their own region (2 MiB) they stay mostly in the CPU caches and no longer
  overwrite the costly entries of the deep positions.  The key bits are ``h << 17`` (the low 47 bits
  of ``h``: the slot index gives at least the top 18) with bit 16 set for a shallow position, so
  that a deep entry that lies in the shallow region is never taken for a shallow one, nor the
  reverse.  The threads of one search each have a shallow region of their own (thread ``i``: slots
  ``i * 2**18`` on, ``ctrl[CTRL_REGION]``, when the table holds them all): they share the deep
  positions, but a shallow slot written by one thread no longer evicts the other's cached copy
  (measured on the empty board, two threads: 21.5 M nodes/s a thread with one shared region, 26.0 M
  with two).

Positions with at most ``MIRROR_STONES`` (16) stones are filed under the smaller of their key
and their mirror image's (columns in reverse order; same score), so the two share an entry.

``gen`` (1..255) is
the table's generation: a slot of another generation (or 0, empty) is a miss, so the
table is cleared by moving to the next generation.  ``code = v + 64`` stores the upper
bound ``v`` (the search
failed low), ``code = v + 160`` the lower bound ``v`` (the search failed
high); scores lie in ``[-32, 32]``.  Replacement rule: always replace -- a
store overwrites whatever the slot held (another position, or an older bound
of the same position).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from ._bitboard import U0, U1, U16

HASH_MUL = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it is a bijection

UPPER_CODE = 64
LOWER_CODE = 160

# Tables of at least 2**18 slots (2 MiB) are split by depth: positions with at most
# SHALLOW_EMPTY empty cells (the bulk of the nodes, each a small subtree) use only the first
# 2**18 slots, a region small enough to stay in the CPU caches; deeper positions use the whole
# table, where the shallow ones no longer overwrite them (see the module docstring).
SHALLOW_EMPTY = 18
# ... but in tables of at least 2**27 slots (1 GiB: what searches of billions of nodes, such as
# the empty 9 x 5 or 8 x 6 board, are given), those with at most SHALLOW_EMPTY_BIG: there the
# positions with 17 or 18 empty cells are too many for the shallow region (five 8-stone 9 x 5
# positions solved with the rules, 2 GiB, two variants at a time, load 19-23: 530.2 M nodes and
# 39.6 s CPU with 18, 492.7 M and 40.3 s with 16, 476.6 M and 43.0 s with 15, 449.5 M and 49.7 s
# with 13: each deep look-up is a memory read).
SHALLOW_EMPTY_BIG = 16
# ... and on boards 1 or 2 high (at most LOW_HEIGHT), whatever the table's size, those with at
# most SHALLOW_EMPTY_LOW: there every column is open nearly to the end and a position of 9 to
# 18 empty cells is a large subtree, too many of them for the shallow region (the empty 13 x 2
# board, one thread, 16 MiB: 151.9 M nodes and 26.0 s CPU with 8 against 276.9 M and 46.1 s
# with 18, 164.4 M with 4; 64 MiB: 0.41x the nodes with 8, 0.46x with 12; 12 x 2 0.58x. On 3
# high, 8 took more: 11 x 3 1.30x the nodes, 64 MiB; 7 x 6 1.13x).
SHALLOW_EMPTY_LOW = 8
LOW_HEIGHT = 2
# ... and on boards 3 high, whatever the table's size, those with at most SHALLOW_EMPTY_THREE
# (with _negamax.ETC_EMPTY_THREE: the empty 11 x 3 board, one thread, 1 GiB, against 16: 0.71x
# the CPU and 0.73x the nodes with both at 12, 0.77x and 0.81x with this alone, 0.79x and 0.74x
# with 10; 10 x 3 0.87x; 64 MiB, against 18 and 16: 11 x 3 0.61x the CPU and 0.63x the
# nodes; benchmarks/results/connect4-sizes-3high-thresholds.txt).
SHALLOW_EMPTY_THREE = 12
BIG_SHIFT = np.uint64(64 - 27)
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


@njit(cache=True)
def table_key(key, stones, width, height):
    """The key that the table files a position under: with at most ``MIRROR_STONES`` stones,
    the smaller of its key and its mirror image's (the two share an entry)."""
    if stones <= MIRROR_STONES:
        m = mirror(key, width, height)
        if m < key:
            return m
    return key


@njit(cache=True, inline="always")
def shallow_empty(height, shift):
    """The most empty cells of a position filed in the shallow region of a table split by
    depth (``shift``: ``table_shift`` of its size), on a board ``height`` high."""
    if height <= LOW_HEIGHT:
        return SHALLOW_EMPTY_LOW
    if height == LOW_HEIGHT + 1:
        return SHALLOW_EMPTY_THREE
    return SHALLOW_EMPTY if shift > BIG_SHIFT else SHALLOW_EMPTY_BIG


@njit(cache=True)
def table_place(h, empty, shift, region, shallow):
    """The slot of the position of hash ``h`` with ``empty`` empty cells, and its entry's key
    bits (without generation and bound): see the module docstring for the layout. ``region``:
    the first slot of the search thread's own shallow region (0 for one thread); ``shallow``:
    ``shallow_empty`` of the board and the table."""
    if shift <= SHALLOW_SHIFT:
        if empty <= shallow:
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
    from llvmlite import ir  # type: ignore[import-untyped, unused-ignore]
    from numba.core import types
    from numba.extending import intrinsic

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
