"""The minimax family behind one API: :func:`search` and :class:`Searcher`."""

from .driver import ALGORITHMS, Limits, Searcher, SearchResult, search, solve
from .parallel import ParallelSearcher, parallel_search, parallel_solve
from .score import Score, solve_score
from .table import TranspositionTable

__all__ = [
    "ALGORITHMS",
    "Limits",
    "ParallelSearcher",
    "Score",
    "SearchResult",
    "Searcher",
    "TranspositionTable",
    "parallel_search",
    "parallel_solve",
    "search",
    "solve",
    "solve_score",
]
