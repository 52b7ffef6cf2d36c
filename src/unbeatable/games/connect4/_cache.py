"""Numba's on-disk cache of the Connect Four kernels, kept in step with their sources.

Numba checks a cached kernel only against the file that defines it: a kernel of ``_columns.py``
that has ``_negamax.negamax`` compiled into it stays cached when only ``_negamax.py`` changes (an
edit, a ``git pull``), and would go on running the old search. So the cache directory carries a
digest of every kernel source (``kernels.sha256``), and a cache made from other sources is
dropped before the first kernel runs (``solver`` calls :func:`drop_stale_cache` on import).

Only the cache beside the sources (``__pycache__``, numba's default where it can write) is
looked after; with ``NUMBA_CACHE_DIR`` set, or a read-only install, numba keeps its cache
elsewhere and nothing is done.
"""

from __future__ import annotations

from pathlib import Path

from ... import kernels

#: every module that defines a numba kernel (tests/test_connect4_cache.py: none is missing)
KERNEL_SOURCES = (
    "_bitboard.py",
    "_table.py",
    "_database_probe.py",
    "_negamax.py",
    "_batch.py",
)
STAMP = kernels.SOURCES_STAMP
PACKAGE = Path(__file__).resolve().parent


def kernel_digest(package: Path) -> str:
    """A digest of the kernel sources' names and contents."""
    return kernels.source_digest(package, KERNEL_SOURCES)


def drop_stale_cache(package: Path = PACKAGE) -> bool:
    """Delete the cached kernels in ``package/__pycache__`` unless they were made from the
    current sources (by the stamp); return True when the cache was dropped."""
    return kernels.drop_stale_cache(package, KERNEL_SOURCES)
