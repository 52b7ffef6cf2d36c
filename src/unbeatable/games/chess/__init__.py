"""Chess, on our own compiled rules and engine (numba; nothing of python-chess).

Too large to solve: the game's own searcher (:mod:`.searcher`, the compiled engine) answers a
search that asks for no algorithm; the generic engine searches it through the protocol when an
algorithm is asked for. The game's module is imported only when chess is asked for (loading the
compiled kernels takes a moment; compiling them the first time, some seconds).
"""

from __future__ import annotations

from ...game import Game
from . import warm as warm  # registers the compiled core with unbeatable warm

__all__ = ["check_network", "chess_game"]


def chess_game() -> Game:
    """The game of chess (one game: no parameters)."""
    from .game import Chess

    return Chess.the()


def check_network() -> None:
    """Read the learned evaluation the engine will play with (``UNBEATABLE_CHESS_NET``'s file,
    or the package's) without building anything: a front end calls it before it serves, so
    that a bad file is one line at the start (:class:`._tables.NetworkFileError`, a
    ``ValueError`` naming the variable and the file) rather than an error on the first move."""
    import numpy as np

    from . import _tables

    found = _tables.read_net()
    if found is not None:
        _tables._load_net(np.zeros(_tables.T_SIZE, dtype=np.uint64), *found)
