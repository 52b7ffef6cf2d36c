"""unbeatable: perfect play for two-player, zero-sum games of perfect information.

>>> from unbeatable import get_game, search
>>> result = search(get_game("tictactoe").initial())
>>> str(result.score)
'draw'

``import unbeatable`` is cheap: the API is imported when a name is first taken from the package
(``from unbeatable import search``, ``unbeatable.get_game``), and with it :mod:`.drawing`, which
registers the pictures Jupyter shows (:mod:`.display`). So the command line's entry point
(:mod:`.__main__`) runs, and hears Ctrl-C, before anything heavy is imported.
"""

from ._interrupt import hear_early as _hear_early

_hear_early()  # ``python -m unbeatable.X``: Ctrl-C ends it at once while the packages import

TYPE_CHECKING = False  # importing typing would cost tens of milliseconds on a busy machine
if TYPE_CHECKING:
    from typing import Any

    from . import drawing as drawing
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
    from .games import (
        GameLoadError,
        UnknownGameError,
        get_game,
        load_game,
        register,
        registered,
    )
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
    "GameLoadError",
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
    "load_game",
    "parallel_search",
    "parallel_solve",
    "register",
    "registered",
    "search",
    "solve",
    "solve_score",
]


#: where each name of ``__all__`` lives (``search`` is the subpackage, callable)
_HOMES = {
    "check": ("CheckReport", "GameCheckError", "check_game"),
    "game": (
        "FIRST", "SECOND", "Game", "GameError", "IllegalMoveError", "InvalidMoveError",
        "InvalidPositionError", "Move", "Outcome", "Payoff", "State",
    ),
    "games": (
        "GameLoadError", "UnknownGameError", "get_game", "load_game", "register", "registered",
    ),
    "search": (
        "ALGORITHMS", "Limits", "ParallelSearcher", "ParallelSearchError", "Score", "Searcher",
        "SearchInterrupted", "SearchOptions", "SearchResult", "TaskStats", "TranspositionTable",
        "WorkerLostError", "parallel_search", "parallel_solve", "solve", "solve_score",
    ),
}  # fmt: skip


def _load_api() -> None:
    """Import the API into the package: the modules that hold the names of ``__all__``, and
    :mod:`.drawing` first (it registers the pictures Jupyter shows)."""
    import importlib

    importlib.import_module(f"{__name__}.drawing")
    for home, names in _HOMES.items():
        module = importlib.import_module(f"{__name__}.{home}")
        for name in names:
            globals()[name] = getattr(module, name)


def __getattr__(name: str) -> "Any":
    if name in __all__ or name == "drawing":
        _load_api()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
