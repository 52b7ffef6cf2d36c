"""The Connect Four opening book: exact scores of the first positions, made by our own solver.

The book holds the solve-convention score of every position of the 7 x 6 game with at most
3 stones (mirror images once), keyed by :meth:`Connect4State.key`. It ships as a package
resource; :mod:`.book_build` makes it.
"""

from __future__ import annotations

import functools
from importlib import resources

from ._position import Position

__all__ = ["BOOK_RESOURCE", "load", "lookup"]

BOOK_RESOURCE = "connect4-book.txt"


@functools.cache
def load() -> dict[int, int]:
    """The shipped book (empty if the resource is missing)."""
    try:
        text = resources.files("unbeatable.data").joinpath(BOOK_RESOURCE).read_text("ascii")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    book = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, score = line.split()
            book[int(key)] = int(score)
    return book


def lookup(state: Position) -> int | None:
    """The book's score of ``state`` (7 x 6 only), or None."""
    game = state.game
    if (game.width, game.height) != (7, 6):
        return None
    key = state.key()
    assert isinstance(key, int)
    return load().get(key)
