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


@njit(cache=True, inline="always")
def _huffman(p1, mask, width, height, mirrored):
    """The database key of a position: columns left to right (right to left if ``mirrored``),
    each stone bottom up as 2 bits (``10`` first player, ``11`` second), then a ``0`` ending
    the column, then one more ``0``; for 12 stones this fills exactly 32 bits, read as a
    signed 32-bit integer."""
    code = np.int64(0)
    for i in range(width):
        col = width - 1 - i if mirrored else i
        for row in range(height):
            bit = U1 << np.uint64(col * (height + 1) + row)
            if (mask & bit) == U0:
                break
            code = (code << 2) | (2 if (p1 & bit) != U0 else 3)
        code <<= 1
    code <<= 1
    if code >= (np.int64(1) << 31):
        code -= np.int64(1) << 32
    return code


@njit(cache=True, inline="always")
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
    i = _bsearch(db_keys, _huffman(p1, mask, width, height, False))
    if i < 0:
        i = _bsearch(db_keys, _huffman(p1, mask, width, height, True))
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
