"""The search tree as data, for pictures: an instrumented search that records every node.

:func:`build_tree` searches a position to a fixed depth the way the library does and keeps the
whole tree: every visited position with its value, the move on each edge, and, for alpha-beta,
the moves never searched after a cut-off. Two algorithms are mirrored node for node:

* ``minimax``: plain minimax in max/min form (:meth:`~unbeatable.search.engine.Engine.minimax`
  without a table): every node is visited, so the node count equals the library's.
* ``alphabeta``: fail-soft negamax with alpha-beta pruning
  (:meth:`~unbeatable.search.engine.Engine.alphabeta` without a table), including the root's
  window of one below the best value so far and the cut-off when no result can beat the window
  (mate distance). With ``hints`` the game's move order and immediate-win detection are used,
  as the default searcher does; without them the moves are tried in legal order (the textbook
  picture). The node count equals ``Searcher("alphabeta", table=False, hints=hints)``'s.

Values in the tree are from the **first player's** view (the first player is *max*), whatever
the algorithm, so that minimax and alpha-beta pictures read the same way; a value cut short by
a window is a bound (``>=`` or ``<=``). :func:`to_dot` draws the tree in Graphviz's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .game import FIRST, Move, State
from .graphviz import GRAPHVIZ_FORMATS, GraphvizError, GraphvizMissingError, render
from .search.score import EVAL_LIMIT, INFINITY, WIN, WIN_MIN, Score
from .search.table import Bound

__all__ = [
    "EXACT",
    "GRAPHVIZ_FORMATS",
    "HORIZON",
    "INNER",
    "LOWER",
    "MAX_TREE_DEPTH",
    "PRUNED",
    "SHORTCUT",
    "TERMINAL",
    "TREE_ALGORITHMS",
    "UPPER",
    "GraphvizError",
    "GraphvizMissingError",
    "SearchTree",
    "TreeNode",
    "TreeTooLargeError",
    "build_tree",
    "format_value",
    "render",
    "to_dot",
    "to_text",
]

TREE_ALGORITHMS = ("minimax", "alphabeta")

#: The deepest tree recorded (the recording recurses once per ply; no picture is that deep).
MAX_TREE_DEPTH = 100

#: How a node's value relates to its true value (from the first player's view).
# The bound kinds are the table's (one spelling): str(bound) is "exact", "lower" or "upper".
EXACT, LOWER, UPPER = Bound.EXACT, Bound.LOWER, Bound.UPPER

#: What a node is: searched below; a finished game; cut by the depth limit and evaluated; a move
#: never searched (alpha-beta); a node decided without searching its moves (a known win, or no
#: result that could beat the window).
INNER, TERMINAL, HORIZON, PRUNED, SHORTCUT = "inner", "terminal", "horizon", "pruned", "shortcut"


class TreeTooLargeError(ValueError):
    """The tree would have more nodes than the caller allowed."""


@dataclass(eq=False)
class TreeNode:
    """One position of the tree.

    ``value`` is from the first player's view, counted like the library's scores (a win ``d``
    plies below the root is ``WIN - d``); None for a pruned move. ``bound`` says whether it is
    exact or a lower or upper bound; ``best`` is the index in ``children`` of the move the search
    chose here, if any.
    """

    id: int
    state: State
    move: Move | None
    ply: int
    kind: str
    value: int | None = None
    bound: Bound = EXACT
    children: list[TreeNode] = field(default_factory=list)
    best: int | None = None
    on_pv: bool = False
    note: str = ""
    move_text: str = ""
    win: Move | None = None

    @property
    def maximising(self) -> bool:
        """True when the first player (max) is to move here."""
        return self.state.to_move == FIRST


@dataclass
class SearchTree:
    """A recorded search: the root node and the figures of the search.

    ``value`` and ``score`` are from the side to move at the root (like
    :class:`~unbeatable.search.SearchResult`); ``best_moves`` are the root moves with the best
    value, in the game's move order; ``nodes`` counts visited positions (not pruned moves).
    """

    root: TreeNode
    algorithm: str
    depth: int
    hints: bool
    value: int
    score: Score
    best_moves: tuple[Move, ...]
    pv: tuple[Move, ...]
    nodes: int
    pruned: int
    cutoffs: int

    def walk(self) -> list[TreeNode]:
        """Every node, parents before children, in search order."""
        return _walk(self.root)


def _walk(root: TreeNode) -> list[TreeNode]:
    found: list[TreeNode] = []
    stack = [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(reversed(node.children))
    return found


class _Builder:
    def __init__(self, algorithm: str, hints: bool, max_nodes: int | None) -> None:
        self.algorithm = algorithm
        self.hints = hints
        self.max_nodes = max_nodes
        self.count = 0  # nodes drawn, pruned ones included
        self.nodes = 0  # nodes visited
        self.pruned = 0
        self.cutoffs = 0
        self.exact = True

    def node(self, state: State, move: Move | None, ply: int, kind: str) -> TreeNode:
        if self.max_nodes is not None and self.count >= self.max_nodes:
            raise TreeTooLargeError(f"the tree has more than {self.max_nodes} nodes")
        self.count += 1
        if kind != PRUNED:
            self.nodes += 1
        else:
            self.pruned += 1
        return TreeNode(self.count - 1, state, move, ply, kind)

    def static_value(self, state: State) -> int:
        """The library's evaluation at the depth limit, from the side to move's view."""
        self.exact = False
        value = int(state.evaluate())
        if value >= EVAL_LIMIT:
            return EVAL_LIMIT - 1
        if value <= -EVAL_LIMIT:
            return 1 - EVAL_LIMIT
        return value

    # --- plain minimax, max/min form ---------------------------------------------------------

    def minimax(self, state: State, move: Move | None, depth: int, ply: int) -> TreeNode:
        outcome = state.outcome()
        if outcome is not None:
            node = self.node(state, move, ply, TERMINAL)
            winner = outcome.winner
            node.value = 0 if winner is None else WIN - ply if winner == FIRST else ply - WIN
            return node
        if depth <= 0:
            node = self.node(state, move, ply, HORIZON)
            value = self.static_value(state)
            node.value = value if state.to_move == FIRST else -value
            return node
        node = self.node(state, move, ply, INNER)
        maximising = state.to_move == FIRST
        best = -INFINITY if maximising else INFINITY
        for child_move in state.legal_moves():
            child = self.minimax(state.play(child_move), child_move, depth - 1, ply + 1)
            node.children.append(child)
            assert child.value is not None
            if (child.value > best) if maximising else (child.value < best):
                best = child.value
                node.best = len(node.children) - 1
        node.value = best
        return node

    # --- alpha-beta, fail-soft negamax ------------------------------------------------------

    def moves(self, state: State) -> Sequence[Move]:
        return state.ordered_moves() if self.hints else state.legal_moves()

    def prune(self, node: TreeNode, moves: Sequence[Move], note: str) -> None:
        for move in moves:
            child = self.node(node.state.play(move), move, node.ply + 1, PRUNED)
            child.note = note
            node.children.append(child)

    def alphabeta(
        self, state: State, move: Move | None, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[TreeNode, int]:
        """The node and its negamax value (side to move's view); the node's value is stored
        from the first player's view."""
        outcome = state.outcome()
        if outcome is not None:
            node = self.node(state, move, ply, TERMINAL)
            winner = outcome.winner
            value = 0 if winner is None else WIN - ply if winner == state.to_move else ply - WIN
            return self.finish(node, value, EXACT), value
        ceiling = WIN - ply - 1
        if ceiling <= alpha or -ceiling >= beta:
            node = self.node(state, move, ply, SHORTCUT)
            node.note = "cannot change the window"
            value, bound = (ceiling, UPPER) if ceiling <= alpha else (-ceiling, LOWER)
            self.prune(node, self.moves(state) if depth > 0 else (), "not searched")
            return self.finish(node, value, bound), value
        if depth <= 0:
            node = self.node(state, move, ply, HORIZON)
            value = self.static_value(state)
            return self.finish(node, value, EXACT), value
        if self.hints:
            win = state.winning_move()
            if win is not None:
                node = self.node(state, move, ply, SHORTCUT)
                node.note = f"wins at once with {state.move_text(win)}"
                node.win = win
                return self.finish(node, ceiling, EXACT), ceiling
        node = self.node(state, move, ply, INNER)
        alpha0 = alpha
        best = -INFINITY
        moves = list(self.moves(state))
        for index, child_move in enumerate(moves):
            child, value = self.child(state, child_move, depth - 1, alpha, beta, ply + 1)
            node.children.append(child)
            if value > best:
                best = value
                node.best = index
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        self.cutoffs += 1
                        self.prune(
                            node, moves[index + 1 :], f"cut-off after {state.move_text(child_move)}"
                        )
                        break
        bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        return self.finish(node, best, bound), best

    def child(
        self, state: State, move: Move, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[TreeNode, int]:
        """The child after ``move`` and its value from ``state``'s side to move: negated, with
        the window mirrored, only when the other player moves next (as the engine does)."""
        after = state.play(move)
        if after.to_move == state.to_move:  # the same player moves again
            return self.alphabeta(after, move, depth, alpha, beta, ply)
        node, value = self.alphabeta(after, move, depth, -beta, -alpha, ply)
        return node, -value

    @staticmethod
    def finish(node: TreeNode, value: int, bound: Bound) -> TreeNode:
        """Store a side-to-move value on the node from the first player's view."""
        if node.state.to_move == FIRST:
            node.value, node.bound = value, bound
        else:
            node.value = -value
            node.bound = bound.flipped
        return node


def build_tree(
    state: State,
    depth: int,
    algorithm: str = "minimax",
    *,
    hints: bool = False,
    max_nodes: int | None = 500,
) -> SearchTree:
    """Search ``state`` ``depth`` plies deep with ``algorithm`` and record the whole tree.

    ``algorithm``: ``minimax`` or ``alphabeta`` (see the module's docstring for exactly what is
    mirrored). ``hints``: alpha-beta tries the game's move order and spots immediate wins.
    ``max_nodes``: raise :class:`TreeTooLargeError` as soon as the tree (pruned moves included)
    would have more nodes; None for no limit. Depths beyond :data:`MAX_TREE_DEPTH` are refused
    the same way.
    """
    if algorithm not in TREE_ALGORITHMS:
        raise ValueError(
            f"unknown tree algorithm {algorithm!r}: choose one of {', '.join(TREE_ALGORITHMS)}"
        )
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be a whole number >= 1, not {depth!r}")
    if depth > MAX_TREE_DEPTH:
        raise TreeTooLargeError(f"depth {depth}: no tree deeper than {MAX_TREE_DEPTH} is drawn")
    if state.outcome() is not None:
        raise ValueError(f"the game is over in {state} ({state.outcome()}): there is no tree")
    builder = _Builder(algorithm, hints, max_nodes)
    legal = list(state.legal_moves())
    values: dict[Move, int] = {}
    if algorithm == "minimax":
        root = builder.minimax(state, None, depth, 0)
        sign = 1 if state.to_move == FIRST else -1
        for child in root.children:
            assert child.value is not None
            values[child.move] = sign * child.value
    else:
        root = _alphabeta_root(builder, state, depth, values)
    value = max(values.values())
    best_moves = tuple(m for m in legal if values[m] >= value)
    if algorithm == "alphabeta":
        root.best = next(i for i, c in enumerate(root.children) if c.move == best_moves[0])
    for node in _walk(root):
        for child in node.children:
            child.move_text = node.state.move_text(child.move)
    pv = _mark_pv(root)
    return SearchTree(
        root=root,
        algorithm=algorithm,
        depth=depth,
        hints=hints,
        value=value,
        score=Score(value, builder.exact or abs(value) >= WIN_MIN),
        best_moves=best_moves,
        pv=pv,
        nodes=builder.nodes,
        pruned=builder.pruned,
        cutoffs=builder.cutoffs,
    )


def _alphabeta_root(
    builder: _Builder, state: State, depth: int, values: dict[Move, int]
) -> TreeNode:
    """The library's root: no cut-off; each move is searched with a window one below the best
    value so far, so that a move as good as the best is told apart from a worse one. Fills
    ``values`` with each move's value from the side to move's view."""
    root = builder.node(state, None, 0, INNER)
    best = -INFINITY
    for move in builder.moves(state):
        alpha = -INFINITY if best == -INFINITY else best - 1
        child, value = builder.child(state, move, depth - 1, alpha, INFINITY, 1)
        root.children.append(child)
        values[move] = value
        best = max(best, value)
    builder.finish(root, best, EXACT)
    return root


def _mark_pv(root: TreeNode) -> tuple[Move, ...]:
    """Follow the chosen moves from the root through exactly valued nodes; mark them."""
    node = root
    node.on_pv = True
    line: list[Move] = []
    while node.best is not None and node.bound == EXACT:
        node = node.children[node.best]
        node.on_pv = True
        line.append(node.move)
    if node.win is not None:
        line.append(node.win)
    return tuple(line)


# --- pictures --------------------------------------------------------------------------------


def format_value(value: int | None, bound: Bound = EXACT) -> str:
    """A node's value (first player's view) as a short label: ``+23``, ``0``, ``max wins`` and
    ``ply 5`` on a second line, with ``≥``/``≤`` in front of a bound."""
    if value is None:
        return "pruned"
    if value >= WIN_MIN:
        text = f"max wins\nply {WIN - value}"
    elif value <= -WIN_MIN:
        text = f"min wins\nply {WIN + value}"
    else:
        text = f"{value:+d}" if value else "0"
    prefix = {EXACT: "", LOWER: "≥ ", UPPER: "≤ "}[bound]
    return prefix + text


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(
    tree: SearchTree,
    *,
    title: str = "",
    board: object = None,
) -> str:
    """The tree in Graphviz's DOT language.

    Max nodes (first player to move) are triangles pointing up, min nodes point down; finished
    games are boxes; positions at the depth limit are drawn with a dotted outline (their value is
    the evaluation). Each edge carries its move. Pruned moves are dashed and grey; the principal
    variation is red and bold. ``board``: a function ``state -> str`` to draw each position
    inside its node (e.g. the game's picture).
    """
    lines = [
        "digraph search_tree {",
        "  graph [ordering=out, nodesep=0.15, ranksep=0.45, fontname=Helvetica, fontsize=11, "
        f"labelloc=t, label={_quote(title)}];",
        "  node [fontname=Helvetica, fontsize=10, margin=0.02, height=0.3];",
        "  edge [fontname=Helvetica, fontsize=9, arrowsize=0.5];",
    ]
    draw = board if callable(board) else None
    for node in tree.walk():
        attrs: dict[str, str] = {}
        if node.kind == PRUNED:
            label = "pruned"
            attrs.update(shape="box", style="dashed", color="gray60", fontcolor="gray50")
        else:
            label = format_value(node.value, node.bound)
            if node.kind == TERMINAL and node.value == 0:
                label = "draw"
            if node.kind == TERMINAL:
                attrs["shape"] = "box"
                attrs["style"] = "rounded"
            else:
                attrs["shape"] = "triangle" if node.maximising else "invtriangle"
                if node.kind == HORIZON:
                    attrs["style"] = "dotted"
                elif node.kind == SHORTCUT:
                    attrs["style"] = "dashed"
            if node.note and node.kind == SHORTCUT:
                label += "\n" + node.note
        if draw is not None:
            label = str(draw(node.state)) + "\n" + label
        if node.on_pv:
            attrs["color"] = "red"
            attrs["penwidth"] = "2"
        attrs["label"] = label
        body = ", ".join(f"{k}={_quote(v)}" for k, v in attrs.items())
        lines.append(f"  n{node.id} [{body}];")
        for child in node.children:
            edge = {"label": child.move_text}
            if child.kind == PRUNED:
                edge.update(style="dashed", color="gray60", fontcolor="gray50")
            elif child.on_pv and node.on_pv:
                edge.update(color="red", penwidth="2.5", fontcolor="red")
            body = ", ".join(f"{k}={_quote(v)}" for k, v in edge.items())
            lines.append(f"  n{node.id} -> n{child.id} [{body}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_text(tree: SearchTree) -> str:
    """The tree as an indented outline, one node a line (``^`` max, ``v`` min, ``#`` finished,
    ``x`` pruned; ``*`` marks the principal variation)."""
    out: list[str] = []

    def visit(node: TreeNode, indent: str) -> None:
        if node.kind == PRUNED:
            mark = "x"
        elif node.kind == TERMINAL:
            mark = "#"
        else:
            mark = "^" if node.maximising else "v"
        move = "" if node.move is None else node.move_text + " "
        pv = "*" if node.on_pv else " "
        if node.kind == PRUNED:
            label = node.note
        else:
            label = format_value(node.value, node.bound).replace("\n", ", ")
            if node.kind == TERMINAL and node.value == 0:
                label = "draw"
        if node.kind == HORIZON:
            label += " (evaluated)"
        elif node.kind == SHORTCUT:
            label += f" ({node.note})"
        out.append(f"{pv}{indent}{move}{mark} {label}")
        for child in node.children:
            visit(child, indent + "  ")

    visit(tree.root, "")
    return "\n".join(out) + "\n"


