"""Chess, on our own compiled rules and engine (numba; nothing of python-chess).

Too large to solve: the game's own searcher (:mod:`.searcher`, the compiled engine) answers a
search that asks for no algorithm; the generic engine searches it through the protocol when an
algorithm is asked for. The game's module is imported only when chess is asked for (loading the
compiled kernels takes a moment; compiling them the first time, some seconds).
"""

from __future__ import annotations

from ...game import Game
from . import warm as warm  # registers the compiled core with unbeatable warm

__all__ = ["chess_game"]


def chess_game() -> Game:
    """The game of chess (one game: no parameters)."""
    from .game import Chess

    return Chess.the()
