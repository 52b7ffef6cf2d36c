"""Chess, through python-chess (an optional extra: ``pip install 'unbeatable[chess]'``).

python-chess is GPL-3.0 and only imported when this game is asked for; the package itself stays
MIT. Too large to solve: the search looks a few moves ahead, judges positions with
:mod:`.evaluation` and extends the depth limit with captures (quiescence).
"""

from __future__ import annotations

from ...game import Game
from . import warm as warm  # registers the compiled core with unbeatable warm

__all__ = ["chess_game"]

EXTRA_MISSING = (
    "chess needs python-chess, an optional extra: pip install 'unbeatable[chess]' "
    "(python-chess is GPL-3.0; unbeatable imports it only for this game)"
)


def chess_game() -> Game:
    """The game of chess (one game: no parameters)."""
    try:
        from .game import Chess
    except ImportError as err:
        if err.name == "chess" or (err.name or "").startswith("chess."):
            raise ValueError(EXTRA_MISSING) from None
        raise
    return Chess.the()
