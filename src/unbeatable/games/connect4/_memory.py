"""The memory of the Connect Four solver's transposition table: how many slots a size in bytes
buys, and a zeroed table in 2 MiB pages where the system gives them."""

from __future__ import annotations

import contextlib
import mmap
import os

import numpy as np
import numpy.typing as npt

__all__ = ["MIN_SLOTS", "allocate_table", "table_slots"]

MIN_SLOTS = 1 << 16  # the slot index must hold the top 16 bits of the hash

_HUGE_PAGE = 2 * 1024 * 1024


def _memory_bytes() -> int:
    """This machine's physical memory (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0


def table_slots(table_bytes: int) -> int:
    """The number of slots of a table of ``table_bytes`` (8 bytes a slot): the largest power of
    two that fits, at least :data:`MIN_SLOTS`. Raises ValueError when that needs more than half
    of this machine's memory."""
    slots = 1 << (max(table_bytes // 8, MIN_SLOTS).bit_length() - 1)
    memory = _memory_bytes()
    if memory and 8 * slots > memory // 2:
        raise ValueError(
            f"a table of {slots:,} entries needs {8 * slots / 2**30:.1f} GiB: more than half "
            f"of this machine's memory ({memory / 2**30:.1f} GiB)"
        )
    return slots


def allocate_table(slots: int) -> npt.NDArray[np.uint64]:
    """A zeroed table of ``slots`` uint64 slots, backed by 2 MiB pages where the system allows.

    The search reads one random slot per node: with 4 KiB pages nearly every read also misses
    the TLB (64 MiB span 16,384 pages); Linux's transparent huge pages, asked for by
    ``madvise``, make that 32 pages. The memory comes from an anonymous map aligned on 2 MiB
    (where ``madvise`` is missing, a plain numpy array)."""
    nbytes = slots * 8
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is None or nbytes < _HUGE_PAGE:
        return np.zeros(slots, dtype=np.uint64)
    # private (not shared) memory: only that gets transparent huge pages by default
    area = mmap.mmap(-1, nbytes + _HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    base = np.frombuffer(area, dtype=np.uint8)
    start = (-base.ctypes.data) % _HUGE_PAGE
    with contextlib.suppress(OSError):  # huge pages disabled: 4 KiB pages it is
        area.madvise(advice, start, nbytes)
    table: npt.NDArray[np.uint64] = base[start : start + nbytes].view(np.uint64)
    return table
