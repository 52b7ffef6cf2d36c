"""Solving many positions: the library chooses how.

:func:`solve_positions` takes positions one after another and yields their scores in the same
order. Alone, a :class:`~.driver.Searcher` solves them one by one as they come (so a front end
can print each score before reading the next position), its table carried over. A
:class:`~.parallel.ParallelSearcher` reads them all first: with many positions (at least two per
worker) each worker solves whole positions (no bound to share, no extra nodes); with a few, all
the workers search each one in turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..game import State
from .driver import Searcher, solve
from .parallel import ParallelSearcher

__all__ = ["solve_positions"]

#: With at least this many positions per worker, a parallel batch gives each worker whole
#: positions instead of splitting every search over all of them.
POSITIONS_PER_WORKER = 2


def solve_positions(
    states: Iterable[State],
    *,
    weak: bool = False,
    searcher: Searcher | ParallelSearcher | None = None,
) -> Iterator[int]:
    """The exact score of every position of ``states``, in order (see :func:`.driver.solve`).

    ``searcher``: a :class:`Searcher` (default a fresh one) or a :class:`ParallelSearcher`,
    which the caller closes. ``weak``: only the sign of each score (1, 0 or -1).
    """
    if isinstance(searcher, ParallelSearcher):
        batch = list(states)
        if len(batch) >= POSITIONS_PER_WORKER * searcher.workers:
            yield from searcher.solve_many(batch, weak=weak)
        else:
            for state in batch:
                yield searcher.solve(state, weak=weak)
        return
    serial = searcher if searcher is not None else Searcher()
    for state in states:
        yield solve(state, weak=weak, searcher=serial)
