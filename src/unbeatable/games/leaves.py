"""Your own textbook tree: a game tree typed as nested lists of leaf values.

``leaves:[[3,5],[6,[9,1]],[1,2]]`` is a tree whose root is a MAX node with three moves; a list
is a node, MAX and MIN in turn from the root (a list inside a MAX node is a MIN node, and so on
down), and a number is a leaf: a finished game worth that many points to MAX (the first
player), and their negation to MIN (a :class:`~unbeatable.game.Payoff`). So the textbook's
exercise trees are searched by the very engine that plays every other game, and drawn and
stepped like them.

Moves are numbered from 1, left to right: ``2`` is a node's second branch; a position is the
moves from the root (``2 1``). Without a tree, ``leaves`` is the three-by-three tree of Russell
and Norvig's figure 5.2 (minimax value 3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..game import FIRST, Game, IllegalMoveError, Move, Payoff, State, parse_numbered_move

__all__ = ["DEFAULT_TREE", "Leaves", "LeavesError", "LeavesState"]

#: The tree of Russell and Norvig's figure 5.2: MAX's best move is the first, worth 3.
DEFAULT_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"

#: The most leaves and the deepest nesting a typed tree may have.
MAX_LEAVES = 5000
MAX_DEPTH = 30
#: The longest text read as a tree, in characters.
MAX_TEXT = 20_000
#: The largest leaf, in size (a payoff must stay far inside the engine's win scores).
MAX_LEAF = 999_999

_TOKEN = re.compile(r"\s*(?:(\[)|(\])|(,)|(-?(?:\d+(?:\.\d*)?|\.\d+)))")

Tree = Any  # a leaf's number, or a tuple of trees


class LeavesError(ValueError):
    """A tree's text that cannot be read; the message names the text and where it goes
    wrong."""


def _where(text: str, at: int) -> str:
    shown = text if len(text) <= 60 else text[:60] + "..."
    return f"{shown!r}" + (f" at character {at + 1}" if at < len(text) else " at its end")


class _Reader:
    """Reads a tree's text token by token (see :func:`parse_tree`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.stack: list[list[Tree]] = []
        self.root: Tree = None
        self.leaves = 0
        self.expect_item = True  # after '[' or ',': an item; after an item: ',' or ']'
        self.at = 0

    def fail(self, why: str) -> LeavesError:
        return LeavesError(f"leaves: {_where(self.text, self.at)}: {why}")

    def opened(self) -> None:
        if not self.expect_item:
            raise self.fail("',' or ']' expected")
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(f"deeper than {MAX_DEPTH} levels")
        self.stack.append([])

    def closed(self) -> None:
        if not self.stack:
            raise self.fail("']' without its '['")
        if not self.stack[-1]:
            raise self.fail("an empty list is a node without moves")
        if self.expect_item:
            raise self.fail("a number or '[' expected")
        node = tuple(self.stack.pop())
        if self.stack:
            self.stack[-1].append(node)
        else:
            self.root = node
        self.expect_item = False

    def comma(self) -> None:
        if self.expect_item or not self.stack:
            raise self.fail("a number or '[' expected")
        self.expect_item = True

    def number(self, token: str) -> None:
        if not self.stack:
            raise self.fail("a leaf must be inside a list")
        if not self.expect_item:
            raise self.fail("',' or ']' expected")
        value = float(token) if "." in token else int(token)
        if abs(value) > MAX_LEAF:
            raise self.fail(f"{token} is too large (at most {MAX_LEAF:,} in size)")
        self.leaves += 1
        if self.leaves > MAX_LEAVES:
            raise self.fail(f"more than {MAX_LEAVES:,} leaves")
        self.stack[-1].append(value)
        self.expect_item = False

    def read(self) -> Tree:
        text = self.text
        position = 0
        while text[position:].strip():
            found = _TOKEN.match(text, position)
            bad = text[position:].lstrip()
            self.at = len(text) - len(bad)
            if found is None:
                raise self.fail(
                    f"{bad[0]!r} is not part of a tree (lists of numbers, such as "
                    "[[3,5],[6,[9,1]]])"
                )
            position = found.end()
            if self.root is not None:
                raise self.fail("the tree has already ended")
            opened, closed, comma, number = found.groups()
            if opened:
                self.opened()
            elif closed:
                self.closed()
            elif comma:
                self.comma()
            else:
                self.number(number)
        self.at = len(text)
        if self.stack:
            raise self.fail(f"{len(self.stack)} '[' not closed")
        if self.root is None:
            self.at = 0
            raise self.fail(f"no tree: write lists of numbers, such as {DEFAULT_TREE}")
        return self.root


def parse_tree(text: str) -> Tree:
    """The tree that ``text`` writes as nested lists of numbers (``[[3,5],[6,[9,1]]]``), as
    nested tuples; raises :class:`LeavesError` naming the text and the place it goes wrong."""
    if not isinstance(text, str):
        raise LeavesError(f"a tree is given as text such as {DEFAULT_TREE}, not {text!r}")
    if len(text) > MAX_TEXT:
        raise LeavesError(f"a tree of {len(text):,} characters is too long (at most {MAX_TEXT:,})")
    return _Reader(text).read()


def tree_text(tree: Tree) -> str:
    """The text of a tree, as :func:`parse_tree` reads it back (no spaces)."""
    if isinstance(tree, tuple):
        return "[" + ",".join(tree_text(t) for t in tree) + "]"
    return f"{tree:g}" if isinstance(tree, float) else str(tree)


def _depth(tree: Tree) -> int:
    return 1 + max(_depth(t) for t in tree) if isinstance(tree, tuple) else 0


class Leaves(Game):
    """A typed game tree (see the module's docstring)."""

    name = "leaves"

    def __init__(self, tree: str = DEFAULT_TREE) -> None:
        self.tree = parse_tree(tree)
        self.text = tree_text(self.tree)
        self.depth = _depth(self.tree)

    @property
    def params(self) -> dict[str, Any]:
        return {"tree": self.text}

    @property
    def spec(self) -> str:
        return f"{self.name}:{self.text}"

    def initial(self) -> LeavesState:
        return LeavesState(self, ())

    def node(self, path: Sequence[int]) -> Tree:
        node = self.tree
        for move in path:
            node = node[move]
        return node

    def format_position(self, state: State) -> str:
        assert isinstance(state, LeavesState)
        return " ".join(str(m + 1) for m in state.path)

    def picture(self, state: State) -> str:
        assert isinstance(state, LeavesState)
        where = "the root" if not state.path else "after " + self.format_position(state)
        node = state.node
        if not isinstance(node, tuple):
            return f"{where}: a leaf worth {tree_text(node)} to MAX"
        who = "MAX" if state.to_move == FIRST else "MIN"
        return f"{where}: {who} to move in {tree_text(node)}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Leaves) and other.text == self.text

    def __hash__(self) -> int:
        return hash((Leaves, self.text))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Leaves, (self.text,))


class LeavesState(State):
    """A node of a typed tree: the moves from the root (0-based)."""

    __slots__ = ("_leaves", "_node", "game", "path")

    numeric_outcomes = True

    def __init__(self, game: Leaves, path: tuple[int, ...]) -> None:
        self.game = game
        self._leaves = game
        self.path = path
        self._node = game.node(path)

    @property
    def node(self) -> Tree:
        return self._node

    @property
    def to_move(self) -> int:
        return len(self.path) % 2  # MAX (the first player) at the root, then MIN, ...

    @property
    def ply(self) -> int:
        return len(self.path)

    @property
    def max_plies(self) -> int:
        return self._leaves.depth

    def legal_moves(self) -> list[int]:
        node = self._node
        return list(range(len(node))) if isinstance(node, tuple) else []

    def play(self, move: Move) -> LeavesState:
        return LeavesState(self._leaves, (*self.path, int(move)))  # type: ignore[call-overload]

    def outcome(self) -> Payoff | None:
        node = self._node
        return None if isinstance(node, tuple) else Payoff.zero_sum(node)

    def move_text(self, move: Move) -> str:
        return str(int(move) + 1)  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        node = self._node
        if not isinstance(node, tuple):
            raise IllegalMoveError(
                f"move {text.strip()!r} after the game ended ({self.outcome()}) in {self}",
                text=text.strip(),
                position=str(self),
            )
        return parse_numbered_move(self, text, len(node), "branch")

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, LeavesState)
            and other.path == self.path
            and other._leaves == self._leaves
        )

    def __hash__(self) -> int:
        return hash((self._leaves.text, self.path))

    def __reduce__(self) -> tuple[Any, ...]:
        return (LeavesState, (self._leaves, self.path))

    def __repr__(self) -> str:
        return f"LeavesState({self._leaves.text!r}, {self.path!r})"

    def __str__(self) -> str:
        return self._leaves.picture(self)


def leaves(tree: str = DEFAULT_TREE) -> Leaves:
    """The game of the tree ``tree`` (text, see :func:`parse_tree`)."""
    return Leaves(tree)

