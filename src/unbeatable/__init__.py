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

import os as _os
import sys as _sys

TYPE_CHECKING = False  # importing typing would cost tens of milliseconds on a busy machine
if TYPE_CHECKING:
    import signal as _signal
else:
    import _signal  # the C module, built in (the signal module imports enum)

# Ctrl-C before a command has started: one line and exit code 130. Written here, not imported,
# so that no import of a file of ours comes before the handler is in place.


def _module_run(argv: "list[str]") -> "str | None":
    """The module that ``python ... -m MODULE ...`` runs (``argv``: ``sys.orig_argv``), else
    None."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "-m":
            return argv[index + 1] if index + 1 < len(argv) else None
        if word.startswith("-m"):
            return word[2:]
        if word in ("-c", "-") or not word.startswith("-"):
            return None  # code, standard input or a script: what follows is its own
        index += 2 if word in ("-W", "-X") else 1  # the options that take the next word
    return None


def _stop(signum: int = 2, frame: object = None) -> "NoReturn":
    """End the process at once, as Ctrl-C ends a command: one line (``interrupted``) and exit
    code 130 (128 + SIGINT, as :data:`.cli.common.INTERRUPTED`). The entry points' handler
    while no command can hear Ctrl-C (:func:`.__main__.guarded`)."""
    try:  # noqa: SIM105 (contextlib would be an import)
        _os.write(_sys.stderr.fileno(), b"interrupted\n")
    except (OSError, ValueError, AttributeError):
        pass  # no stderr to say it on
    _os._exit(130)


# ``python -m unbeatable.X``: Python imports this package, then the ones between it and X
# (``unbeatable.games`` imports every game: 0.2 s on a quiet machine), before X's first line
# can hand over to ``guarded``; while Python looks for X, ``sys.argv[0]`` is ``-m``. Ctrl-C
# ends the process at once meanwhile, unless it was started with Ctrl-C ignored, or another
# program's ``-m`` (``mpi4py.futures``; a user's module that imports ours) runs.
if (
    getattr(_sys, "argv", [])[:1] == ["-m"]
    and (_module_run(getattr(_sys, "orig_argv", [])) or "").split(".", 1)[0] == "unbeatable"
    and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
):
    _signal.signal(_signal.SIGINT, _stop)

if TYPE_CHECKING:
    from typing import Any, NoReturn

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
