"""The minimax family behind one API.

``unbeatable.search`` is this package; it can also be called, ``search(state, limits)``, as a
shorthand for :func:`.driver.search` (so that ``from unbeatable import search`` keeps working).
Layout: :mod:`.options` (what a search may do), :mod:`.engine` (one position at one depth),
:mod:`.stack` (the explicit-stack alpha-beta), :mod:`.table`, :mod:`.score`, :mod:`.pv`,
:mod:`.deepening` (the one deepening loop), :mod:`.driver` (the serial searcher),
:mod:`.parallel` (the parallel searcher), :mod:`.result`, :mod:`.policy` (the policies: a game's
own solver and own searcher, thinking times, limits inside a front end's cap), :mod:`.events`
(what an observed search emits).
"""

import sys
import types
from typing import Any

from . import events, policy
from .deepening import check_state
from .driver import Searcher, search, solve
from .options import ALGORITHMS, DEFAULT_TABLE_SIZE, Limits, SearchOptions
from .parallel import (
    ParallelSearcher,
    ParallelSearchError,
    TaskStats,
    WorkerLostError,
    init_worker,
    parallel_search,
    parallel_solve,
)
from .result import Line, SearchInterrupted, SearchResult
from .score import Score, solve_score
from .table import TranspositionTable

__all__ = [
    "ALGORITHMS",
    "DEFAULT_TABLE_SIZE",
    "Limits",
    "Line",
    "ParallelSearchError",
    "ParallelSearcher",
    "Score",
    "SearchInterrupted",
    "SearchOptions",
    "SearchResult",
    "Searcher",
    "TaskStats",
    "TranspositionTable",
    "WorkerLostError",
    "check_state",
    "events",
    "init_worker",
    "parallel_search",
    "parallel_solve",
    "policy",
    "search",
    "solve",
    "solve_score",
]


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`.driver.search`."""

    def __call__(self, *args: Any, **kw: Any) -> SearchResult:
        return search(*args, **kw)


sys.modules[__name__].__class__ = _CallableModule
