"""Numba's on-disk cache of the chess core's kernels, kept in step with their sources.

Numba checks a cached kernel only against the file that defines it: a kernel of ``_search.py``
that has ``_movegen.gen_moves`` compiled into it stays cached when only ``_movegen.py`` changes
(an edit, a ``git pull``), and would go on running the old rules. So the cache directory carries a
digest of every kernel source (``kernels.sha256``), and a cache made from other sources is
dropped before the first kernel runs (``core`` calls :func:`drop_stale_cache` on import).

Only the cache beside the sources (``__pycache__``, numba's default where it can write) is
looked after; with ``NUMBA_CACHE_DIR`` set, or a read-only install, numba keeps its cache
elsewhere and nothing is done.
"""

from __future__ import annotations

from pathlib import Path

from ... import kernels
from ...kernels import KernelGroup

KERNEL_SOURCES = (
    "_tables.py",
    "_pesto.py",
    "_weights.py",
    "_movegen.py",
    "_make.py",
    "_rules.py",
    "_eval.py",
    "_order.py",
    "_tt.py",
    "_search.py",
)
STAMP = kernels.SOURCES_STAMP
PACKAGE = Path(__file__).resolve().parent

#: The chess core's kernels as :mod:`unbeatable.kernels` watches them: what a cold build writes
#: (rules, notation, perft and the engine: :func:`.warm.warm_up`) and about how long it takes
#: (CPU seconds: 28.8 s measured on 2026-12-03 beside a Connect Four solve on both cores;
#: ``benchmarks/kernel_build.py`` prints the figures of today's sources).
KERNELS = KernelGroup("chess", "the chess engine", Path(__file__).parent, KERNEL_SOURCES, 27, 81)


def kernel_digest(package: Path) -> str:
    """A digest of the kernel sources' names and contents."""
    return kernels.source_digest(package, KERNEL_SOURCES)


def drop_stale_cache(package: Path = PACKAGE) -> bool:
    """Delete the cached kernels in ``package/__pycache__`` unless they were made from the
    current sources (by the stamp); return True when the cache was dropped."""
    return kernels.drop_stale_cache(package, KERNEL_SOURCES)
