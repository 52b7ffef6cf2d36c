"""BitBully's 12-stone Connect Four database (package ``bitbully-databases``, MIT), read with numpy.

The file ``book_12ply_distances.dat`` holds 4,200,899 records of 5 bytes, sorted by the first
field: a big-endian signed 32-bit key of the position (see ``_database_probe._huffman``: columns
left to right, each stone bottom up as ``10`` for the first player and ``11`` for the second, a
``0`` after each column, one more ``0``) and a signed byte, the value for the first player (who is
to move after 12 stones): 0 a draw, ``100 - d`` a win and ``d - 100`` a loss ``d`` plies from now.
A position or its mirror image is stored, not both. Positions where the side to move can win at
once are left out (our search never asks for them: it only enters positions where the side to
move cannot win at once; the solver's root checks an immediate win first).

The records are turned into two native arrays (keys ``int32``, values ``int8``) once per process
(about 0.1 s) and probed by binary search inside the compiled kernel.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["DATABASE_PLY", "Database", "decode", "load", "no_database", "score"]

DATABASE_PLY = 12
_RECORD = np.dtype([("key", ">i4"), ("value", "i1")])
_RECORDS = 4_200_899


@dataclass(frozen=True)
class Database:
    """The arrays the kernel probes; ``ply`` is -1 when there is no database."""

    keys: npt.NDArray[np.int32]
    values: npt.NDArray[np.int8]
    ply: int
    reason: str = ""

    @property
    def loaded(self) -> bool:
        return self.ply >= 0


def no_database(reason: str = "") -> Database:
    """An empty database: the solver then searches every position."""
    return Database(np.zeros(1, np.int32), np.zeros(1, np.int8), -1, reason)


def _path() -> str:
    from bitbully_databases import BitBullyDatabases

    path: str = BitBullyDatabases.get_database_path("12-ply-dist")
    return path


@functools.cache
def load() -> Database:
    """The 12-stone database of this process (read once); where it cannot be read, an empty
    database, and a warning that says why solving early positions is slower."""
    try:
        path = _path()
        records = np.fromfile(path, dtype=_RECORD)
        if records.shape[0] != _RECORDS:
            raise ValueError(f"{path}: {records.shape[0]} records, expected {_RECORDS}")
    except (ImportError, OSError, ValueError) as error:
        reason = f"Connect Four database not loaded ({error}); early positions are solved by "
        reason += "search alone, which can take minutes (pip install bitbully-databases)"
        warnings.warn(reason, RuntimeWarning, stacklevel=2)
        return no_database(reason)
    keys = np.ascontiguousarray(records["key"], dtype=np.int32)
    values = np.ascontiguousarray(records["value"], dtype=np.int8)
    return Database(keys, values, DATABASE_PLY)


def decode(key: int, width: int = 7, height: int = 6) -> tuple[int, int]:
    """The position of a database key as bitboards ``(first player's stones, all stones)``
    (the layout of :class:`~.game.Connect4State`: bit ``col * (height + 1) + row``)."""
    bits = key & 0xFFFFFFFF
    pos = 31
    first = mask = 0
    for col in range(width):
        row = 0
        while (bits >> pos) & 1:
            cell = 1 << (col * (height + 1) + row)
            mask |= cell
            if not (bits >> (pos - 1)) & 1:
                first |= cell
            pos -= 2
            row += 1
        pos -= 1
    return first, mask


def score(stored: int, width: int = 7, height: int = 6, stones: int = DATABASE_PLY) -> int:
    """The solve-convention score (side to move's view) of a stored value (first player's
    view; the first player is to move after an even number of stones)."""
    if stored == 0:
        return 0
    distance = 100 - abs(stored)
    value = (width * height + 2 - stones - distance) // 2
    value = value if stored > 0 else -value
    return value if stones % 2 == 0 else -value
