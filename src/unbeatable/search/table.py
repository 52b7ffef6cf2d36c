"""A bounded transposition table that stores bounds, depths and best moves."""

from __future__ import annotations

import enum
from collections.abc import Hashable
from typing import NamedTuple

from ..game import Move

__all__ = ["EXACT", "LOWER", "RESOLVED", "UPPER", "Bound", "Entry", "TranspositionTable", "mix"]


class Bound(enum.IntEnum):
    """What a value is: the exact value, a lower bound (the true value is at least this), or an
    upper bound (at most this). The one spelling for the table, the tree and every report; its
    text form is the lower-case name (``str(Bound.LOWER) == "lower"``)."""

    EXACT = 0
    LOWER = 1
    UPPER = 2

    def __str__(self) -> str:
        return self.name.lower()

    @property
    def flipped(self) -> Bound:
        """The same bound seen from the other side (a lower bound becomes an upper one)."""
        return _FLIPPED[self]


EXACT = Bound.EXACT
LOWER = Bound.LOWER
UPPER = Bound.UPPER
_FLIPPED = {EXACT: EXACT, LOWER: UPPER, UPPER: LOWER}

#: The depth stored for a result that no depth limit touched (every leaf was a finished game):
#: such an entry answers a search of any depth.
RESOLVED = 1 << 30


class Entry(NamedTuple):
    key: Hashable
    value: int  #: counted from this entry's position (see :func:`~.score.to_table`)
    flag: Bound
    depth: int  #: the remaining depth it was searched to, or RESOLVED
    move: Move | None  #: the best move found, or None


_M64 = (1 << 64) - 1


def mix(key: Hashable) -> int:
    """``hash(key)`` mixed so that every bit of it moves every bit of the result (the
    splitmix64 finaliser). Integer keys hash to themselves, so without mixing a table of 2^20
    slots would be chosen by the low 20 bits of a bitboard alone."""
    h = hash(key) & _M64
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & _M64
    return h ^ (h >> 31)


class TranspositionTable:
    """A direct-mapped table of at most ``capacity`` entries.

    A key maps to slot ``mix(key) % capacity`` (see :func:`mix`). **Replacement rule:** a store
    always replaces what the slot held (the newest result is the one most likely to be asked
    for again); a probe returns an entry only when its key equals the probed key, so a
    collision costs a miss, never a wrong value. Memory is bounded by ``capacity`` entries.

    A value is *exact* (``EXACT``), a *lower bound* (``LOWER``: the search failed high) or an
    *upper bound* (``UPPER``: it failed low); win and loss scores are stored relative to the
    entry's own position.
    """

    __slots__ = ("_slots", "capacity", "stores")

    def __init__(self, capacity: int = 1 << 20) -> None:
        if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 1:
            raise ValueError(f"table capacity must be a positive integer, not {capacity!r}")
        self.capacity = capacity
        self._slots: dict[int, Entry] = {}
        self.stores = 0

    def slot(self, key: Hashable) -> int:
        """The slot that ``key`` maps to."""
        return mix(key) % self.capacity

    def probe(self, key: Hashable) -> Entry | None:
        entry = self._slots.get(self.slot(key))
        if entry is not None and entry.key == key:
            return entry
        return None

    def store(self, key: Hashable, value: int, flag: Bound, depth: int, move: Move | None) -> None:
        self.stores += 1
        self._slots[self.slot(key)] = Entry(key, value, flag, depth, move)

    def clear(self) -> None:
        self._slots.clear()
        self.stores = 0

    def __len__(self) -> int:
        return len(self._slots)

    def __repr__(self) -> str:
        return f"<TranspositionTable {len(self)}/{self.capacity} entries>"
