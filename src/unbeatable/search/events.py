"""What a search does, step by step: the events an observed search emits.

Pass ``observer=`` to :meth:`~.driver.Searcher.search` (or :func:`~.driver.search`) and the
engine calls it with one :class:`SearchEvent` at every step of its search, in the order they
happen: a node entered with its window, a table hit, a move cut off, a value returned. The
events are the engine's own: the tree pictures (:mod:`unbeatable.tree`), the page's step-through
and ``unbeatable tree --steps`` are all built from them, never from a second implementation.

Every event has the same six fields (None where one does not apply):

``kind``
    :data:`ENTER` (a node is entered), :data:`HIT` (a table entry answers the node),
    :data:`CUT` (a move is never searched), :data:`VALUE` (the node's value goes back up).
``path``
    The moves from the search's root to the node (for a cut: to the move cut off). A pass of
    null-move pruning is :data:`PASS`.
``alpha``, ``beta``
    The node's window, from the view of the side to move at the node (negamax and alpha-beta;
    None for minimax and negamax, which search without one). For a cut, the window at the cut:
    alpha has been raised to the value that made it.
``value``
    The engine's integer value (:mod:`.score`: a win ``d`` plies from the root is ``WIN - d``;
    a float in the searches of games of chance, :mod:`.chance`):
    from the side to move's view at the node for negamax and alpha-beta, from the **first
    player's** view for minimax (max/min form). For a hit, the table's value; for a cut, the
    value that made it.
``reason``
    Why, for ``hit``, ``cut`` and ``value`` (see the constants below); None for ``enter``
    (except :data:`PASS_SEARCH`, the search after a pass).

With no observer the engine emits nothing and costs what it cost before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import Move

__all__ = [
    "CUT",
    "ENTER",
    "EVENT_FIELDS",
    "HIT",
    "PASS",
    "VALUE",
    "Observer",
    "SearchEvent",
]

#: The kinds of event.
ENTER, HIT, CUT, VALUE = "enter", "hit", "cut", "value"

#: The six fields every event has, in this order.
EVENT_FIELDS = ("kind", "path", "alpha", "beta", "value", "reason")

# --- reasons ----------------------------------------------------------------------------------
#: value: the game is over at the node.
TERMINAL = "terminal"
#: value: the depth limit: the game's evaluation.
HORIZON = "horizon"
#: value: the depth limit, then quiescence search over the noisy moves (not shown as nodes).
QUIESCENCE = "quiescence"
#: value, and cut of each of the node's moves: no result below can change the window (a win
#: on the next move is the best there is, a loss on it the worst), so no move is searched.
MATE_DISTANCE = "mate-distance"
#: value: a table entry answered (a ``hit`` with the entry's bound comes first).
TABLE = "table"
#: value: the game's hint found a move that wins at once.
WIN_AT_ONCE = "win-at-once"
#: value: null-move pruning: even after a pass the node stays at or above beta.
NULL_MOVE = "null-move"
#: value: computed from the node's moves (the ordinary case).
SEARCHED = "searched"
#: cut: a move returned a value at or above beta (alpha >= beta): the node's remaining moves
#: cannot change the value above it.
BETA = "beta"
#: hit: the bound of the table entry that answered.
EXACT, LOWER, UPPER = "exact", "lower", "upper"
#: enter: the search after a pass (null-move pruning).
PASS_SEARCH = "pass"
#: value: a chance node's expectation over its outcomes (expectiminimax, *-minimax).
CHANCE = "chance"
#: cut: a chance node's outcome never searched: the outcomes searched so far and the bounds
#: of the game's values already put the expectation outside the window (Star1, Star2).
STAR = "star"
#: enter and value: Star2's probe of a position, its first move only (a bound on its value).
PROBE = "probe"


class _Pass:
    """The move of a pass (null-move pruning), in an event's path."""

    _instance: _Pass | None = None

    def __new__(cls) -> _Pass:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> str:
        return "PASS"


#: The pass of null-move pruning, as a move in a path.
PASS: Any = _Pass()


@dataclass(frozen=True)
class SearchEvent:
    """One step of a search (see the module's docstring for each field)."""

    __slots__ = ("alpha", "beta", "kind", "path", "reason", "value")

    kind: str
    path: tuple[Move, ...]
    alpha: int | None
    beta: int | None
    value: int | None
    reason: str | None


#: What an observer is: called with every event, in order.
Observer = Callable[[SearchEvent], None]
