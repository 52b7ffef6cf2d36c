"""The Connect Four opening books: exact scores of the first positions, made by our own solver.

A book holds the solve-convention score of every position of one board size with at most its
number of plies of stones (mirror images once, finished positions left out), keyed by
:meth:`Connect4State.key`. The 7 x 6 book (3 plies, ``connect4-book.txt``) is the oldest; the
other sizes whose first moves are slow to solve have one of their own,
``connect4-book-WxH.txt`` (:data:`PLIES` says which and how deep). They ship as package
resources; :mod:`.book_build` makes them. Each file is read once a process, when a position of
its size is first looked up.
"""

from __future__ import annotations

import functools
from importlib import resources

from ._position import Position

__all__ = ["BOOK_RESOURCE", "PLIES", "load", "lookup", "resource_name"]

BOOK_RESOURCE = "connect4-book.txt"

#: The board sizes that ship a book, with its depth (the most stones of a position it holds):
#: every size whose empty board takes more than a few seconds to solve here, each as deep as
#: makes the first move after the book quick and the build fit (see docs/connect4.md).
PLIES: dict[tuple[int, int], int] = {
    (7, 6): 3,
    (6, 6): 2,
    (5, 8): 2,
    (8, 5): 2,
    (9, 4): 2,
    (6, 7): 3,
}


def resource_name(width: int, height: int) -> str:
    """The file name of the ``width`` x ``height`` book among the package's data."""
    if (width, height) == (7, 6):
        return BOOK_RESOURCE
    return f"connect4-book-{width}x{height}.txt"


@functools.cache
def load(width: int = 7, height: int = 6) -> dict[int, int]:
    """The shipped book of a board size (7 x 6 by default), read once a process; empty when the
    size has none (or the resource is missing)."""
    if (width, height) not in PLIES:
        return {}
    try:
        data = resources.files("unbeatable.data").joinpath(resource_name(width, height))
        text = data.read_text("ascii")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    book = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, score = line.split()
            book[int(key)] = int(score)
    return book


def lookup(state: Position) -> int | None:
    """The book's score of ``state`` (a size with a book: :data:`PLIES`), or None."""
    game = state.game
    plies = PLIES.get((game.width, game.height))
    if plies is None or state.moves > plies:
        return None
    key = state.key()
    assert isinstance(key, int)
    return load(game.width, game.height).get(key)
