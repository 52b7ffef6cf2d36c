# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``searcher.Searcher``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The transposition table: a ``uint64`` array of buckets, each of ``BUCKET`` entries of two
words, shared by every thread of a search without locks.

An entry is ``(key ^ data, data)``: a reader takes it only when the two words XOR to its own
key, so an entry torn by two threads writing at once (one word from each) reads as a miss
instead of as another position's data. ``data`` packs the best move (16 bits), the score (16
bits, biased by 2**15), the static evaluation (16 bits, biased), the depth (8 bits; 0 for the
quiescence search), the bound (2 bits: ``UPPER``, ``LOWER``, ``EXACT``; 0 an empty entry) and
the search's generation (6 bits). A position's bucket is its key's low bits (the number of
buckets is a power of two).

Replacement rule: a position's own entry (whatever its bound) is overwritten, unless it is of
the current generation, more than two plies deeper than the new one, and the new one is not
exact (the deeper entry is kept; it gets the new best move if it had none); an overwritten entry
passes its move on to a new one that has none. Otherwise the bucket's least valuable entry makes
way: an empty one first, else the one with the lowest ``depth - 8 * age``, where age counts
generations since it was written (generations run 1..63 and then wrap to 1: modulo 63). Mate
scores are stored relative to the entry's own position (``to_tt``/``from_tt``), so an entry is
valid at any distance from the root.
"""

from __future__ import annotations

import numpy as np

from ...prefetch import prefetch
from ._tables import kernel

BUCKET = 4  # entries per bucket (8 words: 64 bytes, one cache line)
UPPER, LOWER, EXACT = np.int64(1), np.int64(2), np.int64(3)  # int64: see _tables.I0
MATE = 32_000
MAX_PLY = 128
MATE_BOUND = MATE - MAX_PLY  # scores at or beyond this are mates

_M16 = np.uint64(0xFFFF)
_M8 = np.uint64(0xFF)
_BIAS = 32_768
_SH_SCORE = np.uint64(16)
_SH_EVAL = np.uint64(32)
_SH_DEPTH = np.uint64(48)
_SH_BOUND = np.uint64(56)
_SH_GEN = np.uint64(58)
_M2 = np.uint64(3)
_M6 = np.uint64(63)


@kernel
def to_tt(score, ply):
    """A root-relative score as the table keeps it: mates counted from the entry's position."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


@kernel
def from_tt(score, ply):
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


@kernel
def _bucket(tt, key):
    """The first word of ``key``'s bucket: the key's low bits (the buckets are a power of two)."""
    return np.int64(key & np.uint64(tt.shape[0] // (2 * BUCKET) - 1)) * 2 * BUCKET


@kernel
def probe(tt, key):
    """The data of ``key``'s entry, or 0 when the table has none."""
    base = _bucket(tt, key)
    for i in range(BUCKET):
        data = tt[base + 2 * i + 1]
        if data != 0 and (tt[base + 2 * i] ^ data) == key:
            return data
    return np.uint64(0)


@kernel
def prefetch_entry(tt, key):
    """Start loading ``key``'s bucket into the cache (a hint: ``probe`` reads it later)."""
    prefetch(tt, _bucket(tt, key))


@kernel
def entry_move(data):
    return np.int64(data & _M16)


@kernel
def entry_score(data):
    return np.int64((data >> _SH_SCORE) & _M16) - _BIAS


@kernel
def entry_eval(data):
    return np.int64((data >> _SH_EVAL) & _M16) - _BIAS


@kernel
def entry_depth(data):
    return np.int64((data >> _SH_DEPTH) & _M8)


@kernel
def entry_bound(data):
    return np.int64((data >> _SH_BOUND) & _M2)


@kernel
def _entry_gen(data):
    return np.int64((data >> _SH_GEN) & _M6)


@kernel
def store(tt, key, move, score, static_eval, depth, bound, gen):
    """Keep what a search learnt of ``key``'s position (the replacement rule: the module's
    docstring). ``score`` as ``to_tt`` gives it; ``gen`` 1..63."""
    base = _bucket(tt, key)
    victim = 0
    worst = 1 << 30
    for i in range(BUCKET):
        data = tt[base + 2 * i + 1]
        if data == 0:
            if worst > -(1 << 20):
                victim = i
                worst = -(1 << 20)
            continue
        if (tt[base + 2 * i] ^ data) == key:
            if (
                bound != EXACT
                and _entry_gen(data) == gen
                and depth + 2 < entry_depth(data)
            ):
                if entry_move(data) == 0 and move != 0:
                    data = (data & ~_M16) | np.uint64(move)
                    tt[base + 2 * i] = key ^ data
                    tt[base + 2 * i + 1] = data
                return
            if move == 0:
                move = entry_move(data)
            victim = i
            break
        # generations run 1..63 and wrap to 1: the age is counted modulo 63
        worth = entry_depth(data) - 8 * ((gen - _entry_gen(data) + 63) % 63)
        if worth < worst:
            worst = worth
            victim = i
    depth = min(max(depth, 0), 255)
    data = (
        np.uint64(move & 0xFFFF)
        | (np.uint64(score + _BIAS) << _SH_SCORE)
        | (np.uint64(static_eval + _BIAS) << _SH_EVAL)
        | (np.uint64(depth) << _SH_DEPTH)
        | (np.uint64(bound) << _SH_BOUND)
        | (np.uint64(gen) << _SH_GEN)
    )
    tt[base + 2 * victim] = key ^ data
    tt[base + 2 * victim + 1] = data
