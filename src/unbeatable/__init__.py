"""unbeatable: perfect play for two-player, zero-sum games of perfect information.

>>> from unbeatable import get_game, search
>>> result = search(get_game("tictactoe").initial())
>>> str(result.score)
'draw'
"""

from . import drawing as drawing  # registers the pictures Jupyter shows (display.py)
from . import search
from .check import CheckReport, GameCheckError, check_game
from .game import (
    FIRST,
    SECOND,
    Game,
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Payoff,
    State,
)
from .games import UnknownGameError, get_game, register, registered
from .search import (
    ALGORITHMS,
    Limits,
    ParallelSearcher,
    ParallelSearchError,
    Score,
    Searcher,
    SearchInterrupted,
    SearchOptions,
    SearchResult,
    TaskStats,
    TranspositionTable,
    WorkerLostError,
    parallel_search,
    parallel_solve,
    solve,
    solve_score,
)

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS",
    "FIRST",
    "SECOND",
    "CheckReport",
    "Game",
    "GameCheckError",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Limits",
    "Move",
    "Outcome",
    "ParallelSearchError",
    "ParallelSearcher",
    "Payoff",
    "Score",
    "SearchInterrupted",
    "SearchOptions",
    "SearchResult",
    "Searcher",
    "State",
    "TaskStats",
    "TranspositionTable",
    "UnknownGameError",
    "WorkerLostError",
    "check_game",
    "get_game",
    "parallel_search",
    "parallel_solve",
    "register",
    "registered",
    "search",
    "solve",
    "solve_score",
]
