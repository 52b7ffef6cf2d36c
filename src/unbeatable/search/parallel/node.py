"""The manager's split tree: a :class:`Node` per position whose moves are shared out, and
the search's :class:`Totals`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...game import Move, State
from ..score import INFINITY

__all__ = ["Node", "Totals"]


class Node:
    """A position the manager splits: its moves go out as tasks or as further split nodes."""

    __slots__ = (
        "active",
        "alpha",
        "best",
        "best_line",
        "beta",
        "children",
        "depth",
        "done",
        "first_done",
        "followers",
        "index",
        "key",
        "known",
        "leaders",
        "lines",
        "moves",
        "next",
        "parent",
        "path",
        "ply",
        "same",
        "state",
        "values",
        "windows",
    )

    def __init__(
        self,
        parent: Node | None,
        index: int,
        state: State,
        path: tuple[Move, ...],
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> None:
        self.parent = parent
        self.index = index  # which of the parent's moves leads here
        self.state = state
        self.path = path
        self.depth = depth
        self.alpha = alpha
        self.beta = beta
        self.ply = ply
        self.moves: Sequence[Move] = ()
        self.next = 0  # the next move to hand out
        self.active = 0  # moves handed out and not yet back
        self.best = -INFINITY
        self.best_line: list[Move] = []
        self.first_done = False
        self.done = False
        self.children: list[Node] = []
        self.key: Any = None
        self.values: dict[Move, int] = {}  # root only: every move's value (or bound)
        self.lines: dict[Move, list[Move]] = {}  # root only
        self.windows: dict[Move, int] = {}  # root only: the alpha each move was searched with
        self.leaders: dict[Any, int] = {}  # table key of a child -> the first move reaching it
        self.followers: dict[int, list[int]] = {}  # move -> later moves reaching the same key
        self.known: dict[int, tuple[int, int]] = {}  # move -> (value, root window) once known
        self.same: set[int] = set()  # moves after which the same player moves again


class Totals:
    """A parallel search's figures, summed over its tasks."""

    def __init__(self) -> None:
        self.nodes = 0
        self.hits = 0
        self.cutoffs = 0
        self.horizon = 0
        self.seldepth = 0
