"""The minimax family behind one API: :func:`search` and :class:`Searcher`."""

from .driver import ALGORITHMS, Limits, SearchResult, Searcher, search
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
    "solve_score",
]
