# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``solver.Solver``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""BitBully's 12-stone database inside the Connect Four kernels: a position's key in the file
and its binary search (:mod:`.database` reads the file into the two sorted arrays probed here).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitboard import U0, U1

NOT_FOUND = -10_000  # db_probe: the position is not in the database


@njit(cache=True)
def _huffman(p1, mask, width, height):
    """The database keys of a position and of its mirror image. A key: columns left to right
    (right to left for the mirror image), each stone bottom up as 2 bits (``10`` first player,
    ``11`` second), then a ``0`` ending the column, then one more ``0``; for 12 stones this
    fills exactly 32 bits, read as a signed 32-bit integer. One pass makes both: the mirror
    image's key has the same column codes in the reverse order."""
    code = np.int64(0)
    mirrored = np.int64(0)
    length = 0  # bits of the columns so far: where the next column goes in ``mirrored``
    for col in range(width):
        column = np.int64(0)
        bits = 1  # the 0 that ends the column
        for row in range(height):
            bit = U1 << np.uint64(col * (height + 1) + row)
            if (mask & bit) == U0:
                break
            column = (column << 2) | (2 if (p1 & bit) != U0 else 3)
            bits += 2
        column <<= 1
        code = (code << bits) | column
        mirrored |= column << length
        length += bits
    code <<= 1
    mirrored <<= 1
    if code >= (np.int64(1) << 31):
        code -= np.int64(1) << 32
    if mirrored >= (np.int64(1) << 31):
        mirrored -= np.int64(1) << 32
    return code, mirrored


@njit(cache=True)
def _bsearch(keys, key):
    """Index of ``key`` in the sorted array ``keys``, or -1."""
    lo = 0
    hi = keys.shape[0] - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        k = np.int64(keys[mid])
        if k == key:
            return mid
        if k < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@njit(cache=True)
def db_probe(current, mask, nb, width, height, db_keys, db_vals):
    """The exact score (side to move's view) of a position of the 12-stone database, or
    NOT_FOUND.  The database stores, from the first player's view, 0 for a draw and
    ``+-(100 - d)`` for a win or loss ``d`` plies from now (the winning stone included); a
    win whose winning stone is the ``d``-th from here scores ``(cells + 2 - nb - d) // 2``."""
    p1 = current if (nb & 1) == 0 else current ^ mask
    key, mirrored = _huffman(p1, mask, width, height)
    i = _bsearch(db_keys, key)
    if i < 0:
        i = _bsearch(db_keys, mirrored)
        if i < 0:
            return NOT_FOUND
    v = np.int64(db_vals[i])
    if v == 0:
        return 0
    d = 100 - abs(v)
    s = (width * height + 2 - nb - d) // 2
    if v < 0:
        s = -s
    if (nb & 1) == 1:
        s = -s
    return s
