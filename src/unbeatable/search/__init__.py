"""The minimax family behind one API: :func:`search` and :class:`Searcher`."""

from .driver import ALGORITHMS, Limits, Searcher, SearchResult, search, solve
from .score import Score, solve_score
from .table import TranspositionTable

__all__ = [
    "ALGORITHMS",
    "Limits",
    "Score",
    "SearchResult",
    "Searcher",
    "TranspositionTable",
    "search",
    "solve",
    "solve_score",
]
