"""The search tree as data, for pictures: the engine's own search, recorded from its events.

:func:`build_tree` searches a position to a fixed depth with the library's
:class:`~unbeatable.search.Searcher` and an observer (:mod:`unbeatable.search.events`), and
builds the whole tree from the events the engine emits: every visited position with the window
it was searched with and its value, the move on each edge, the moves cut off, the table hits.
Nothing here searches: the tree is what the engine did, node for node, for every algorithm it
draws (``minimax``, ``negamax``, ``alphabeta``, each with or without a table), so its node
count is the search's own.

Values in the tree are from the **first player's** view (the first player is *max*), whatever
the algorithm, so that minimax and alpha-beta pictures read the same way; a value cut short by
a window is a bound (``>=`` or ``<=``). Windows (``alpha``, ``beta``) are kept as the engine
had them, from the side to move's view at the node. :func:`to_dot` draws the tree in
Graphviz's language; :mod:`unbeatable.drawing` draws it as SVG (the web page's picture and the
notebook's).

Values are written one way everywhere (:func:`format_value`): as small numbers, a win ``d``
plies below the root read ``W - d`` and a loss ``-(W - d)`` for the tree's :attr:`~SearchTree.
scale` ``W`` (100 unless the evaluation's values are larger), a draw ``0``, an evaluation as
it is, and the window's ends ``-∞`` and ``+∞``. :func:`explain` says in words what each event
of the search did, with those numbers: the command line's ``--steps``, the page's step-through
and the notebook all read it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from .display import show
from .game import FIRST, Move, State
from .graphviz import GRAPHVIZ_FORMATS, GraphvizError, GraphvizMissingError, render
from .search import Limits, Searcher, SearchOptions
from .search import events as ev
from .search.engine import Engine
from .search.events import PASS, Observer, SearchEvent
from .search.score import INFINITY, WIN, WIN_MIN, Score
from .search.table import Bound, TranspositionTable

__all__ = [
    "EXACT",
    "GRAPHVIZ_FORMATS",
    "HORIZON",
    "INNER",
    "LOWER",
    "MAX_TREE_DEPTH",
    "PRUNED",
    "SCALE",
    "SHORTCUT",
    "TABLE",
    "TERMINAL",
    "TREE_ALGORITHMS",
    "UPPER",
    "GraphvizError",
    "GraphvizMissingError",
    "SearchTree",
    "TextbookResult",
    "TreeNode",
    "TreeTooLargeError",
    "build_tree",
    "event_bound",
    "format_value",
    "render",
    "small",
    "textbook_alphabeta",
    "to_dot",
    "to_text",
    "value_key",
    "value_scale",
    "value_words",
]

TREE_ALGORITHMS = ("minimax", "negamax", "alphabeta")

#: The deepest tree recorded (no picture is that deep).
MAX_TREE_DEPTH = 100

#: How a node's value relates to its true value (from the first player's view).
# The bound kinds are the table's (one spelling): str(bound) is "exact", "lower" or "upper".
EXACT, LOWER, UPPER = Bound.EXACT, Bound.LOWER, Bound.UPPER

#: What a node is: searched below; a finished game; cut by the depth limit and evaluated; a move
#: never searched (alpha-beta); a node decided without searching its moves (a known win, or no
#: result that could beat the window); a node answered by the table.
INNER, TERMINAL, HORIZON, PRUNED, SHORTCUT, TABLE = (
    "inner",
    "terminal",
    "horizon",
    "pruned",
    "shortcut",
    "table",
)

#: The kind of node that each reason of a ``value`` event makes.
_KIND = {
    ev.TERMINAL: TERMINAL,
    ev.HORIZON: HORIZON,
    ev.QUIESCENCE: HORIZON,
    ev.MATE_DISTANCE: SHORTCUT,
    ev.WIN_AT_ONCE: SHORTCUT,
    ev.NULL_MOVE: SHORTCUT,
    ev.TABLE: TABLE,
    ev.SEARCHED: INNER,
}


class TreeTooLargeError(ValueError):
    """The tree would have more nodes than the caller allowed."""


@dataclass(eq=False)
class TreeNode:
    """One position of the tree.

    ``value`` is from the first player's view, counted like the library's scores (a win ``d``
    plies below the root is ``WIN - d``); None for a pruned move. ``bound`` says whether it is
    exact or a lower or upper bound; ``best`` is the index in ``children`` of the move the search
    chose here, if any. ``alpha`` and ``beta`` are the window the node was searched with, as the
    engine had it (from the side to move's view; None for minimax and negamax, and for a pruned
    move); ``reason`` is the engine's reason for the value (:mod:`unbeatable.search.events`).
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
    alpha: int | None = None
    beta: int | None = None
    reason: str | None = None

    @property
    def maximising(self) -> bool:
        """True when the first player (max) is to move here."""
        return self.state.to_move == FIRST


@dataclass
class SearchTree:
    """A recorded search: the root node, the figures of the search and its events.

    ``value`` and ``score`` are from the side to move at the root (like
    :class:`~unbeatable.search.SearchResult`); ``best_moves`` are the root moves with the best
    value, in the game's move order; ``nodes`` counts visited positions (not pruned moves);
    ``events`` are the engine's events in order (see :mod:`unbeatable.search.events`) and
    ``event_nodes`` the id of the node each one is about (for a ``cut``: the move cut off; -1
    for an event of a subtree searched again and replaced). ``textbook``: searched as the
    textbook writes the algorithm (see :func:`build_tree`). ``scale``: the ``W`` of
    :func:`format_value` for this tree (:func:`value_scale`).
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
    table: bool = False
    table_hits: int = 0
    events: list[SearchEvent] = field(default_factory=list)
    textbook: bool = False
    event_nodes: list[int] = field(default_factory=list)
    scale: int = 100

    def walk(self) -> list[TreeNode]:
        """Every node, parents before children, in search order."""
        return _walk(self.root)

    @property
    def numeric(self) -> bool:
        """Whether the game ends in numbers (a typed tree's leaves) rather than wins."""
        return bool(getattr(self.root.state, "numeric_outcomes", False))

    def paths(self) -> dict[int, tuple[str, ...]]:
        """Every node's moves from the root, in the game's notation, by node id."""
        found: dict[int, tuple[str, ...]] = {self.root.id: ()}
        for node in self.walk():
            for child in node.children:
                found[child.id] = (*found[node.id], child.move_text)
        return found

    def nodes_by_id(self) -> dict[int, TreeNode]:
        """Every node of the tree by its id."""
        return {node.id: node for node in self.walk()}

    def _repr_svg_(self) -> str | None:
        """The tree as a picture, in Jupyter (:func:`unbeatable.drawing.tree_svg`)."""
        return show("tree", self)


def _walk(root: TreeNode) -> list[TreeNode]:
    found: list[TreeNode] = []
    stack = [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(reversed(node.children))
    return found


class _Recorder:
    """The observer that turns a search's events into its tree."""

    def __init__(self, root: State, algorithm: str, max_nodes: int | None) -> None:
        self.root_state = root
        self.minimax = algorithm == "minimax"
        self.max_nodes = max_nodes
        self.count = 0  # nodes drawn, pruned ones included
        self.events: list[SearchEvent] = []
        self.root: TreeNode | None = None
        self.stack: list[TreeNode] = []  # the nodes entered and not yet valued, root first
        self.best: dict[int, int] = {}  # node id -> best value so far, from its side's view
        self.event_nodes: list[int] = []  # the node each event is about
        self.replaced: set[int] = set()  # nodes searched again: their old subtree is dropped

    def __call__(self, event: SearchEvent) -> None:
        self.events.append(event)
        if event.kind == ev.ENTER:
            self.enter(event)
            self.event_nodes.append(self.stack[-1].id)
        elif event.kind == ev.CUT:
            self.event_nodes.append(self.cut(event).id)
        else:
            node = self.stack[len(event.path)]
            self.event_nodes.append(node.id)
            if event.kind == ev.VALUE:
                self.value(event)

    def node(self, state: State, move: Move | None, ply: int, kind: str) -> TreeNode:
        if self.max_nodes is not None and self.count >= self.max_nodes:
            raise TreeTooLargeError(f"the tree has more than {self.max_nodes} nodes")
        self.count += 1
        return TreeNode(self.count - 1, state, move, ply, kind)

    def enter(self, event: SearchEvent) -> None:
        path = event.path
        if not path:  # the root: a new iteration starts the tree again
            self.root = self.node(self.root_state, None, 0, INNER)
            self.stack = [self.root]
        else:
            del self.stack[len(path) :]
            parent = self.stack[-1]
            move = path[-1]
            if parent.children and parent.children[-1].move == move and move is not PASS:
                # searched again (a wider window): the new search counts
                self.replaced |= {n.id for n in _walk(parent.children.pop())}
            state = _after(parent.state, move)
            child = self.node(state, move, len(path), INNER)
            parent.children.append(child)
            self.stack.append(child)
        node = self.stack[-1]
        node.alpha, node.beta = event.alpha, event.beta

    def cut(self, event: SearchEvent) -> TreeNode:
        parent = self.stack[len(event.path) - 1]
        move = event.path[-1]
        child = self.node(_after(parent.state, move), move, len(event.path), PRUNED)
        child.alpha, child.beta = event.alpha, event.beta
        child.reason = event.reason
        if event.reason == ev.BETA:
            cutter = next((c for c in reversed(parent.children) if c.kind != PRUNED), None)
            after = f" after {_text(parent.state, cutter.move)}" if cutter is not None else ""
            child.note = f"cut-off{after}"
        else:
            child.note = "not searched"
        parent.children.append(child)
        return child

    def value(self, event: SearchEvent) -> None:
        node = self.stack[len(event.path)]
        assert event.value is not None
        own = event.value  # side to move's view (first player's for minimax)
        if self.minimax:
            own = own if node.state.to_move == FIRST else -own
        bound = event_bound(event)
        if node.state.to_move == FIRST:
            node.value, node.bound = own, bound
        else:
            node.value, node.bound = -own, bound.flipped
        node.reason = event.reason
        node.kind = _KIND.get(event.reason or "", INNER)
        if event.reason == ev.MATE_DISTANCE:
            node.note = "cannot change the window"
        elif event.reason == ev.WIN_AT_ONCE:
            node.win = node.state.winning_move()
            if node.win is not None:
                node.note = f"wins at once with {node.state.move_text(node.win)}"
        elif event.reason == ev.NULL_MOVE:
            node.note = "a pass keeps it at or above beta"
        elif event.reason == ev.TABLE:
            node.note = "from the table"
        if event.path:  # the parent's best move so far (the first of the best, as the engine)
            parent = self.stack[len(event.path) - 1]
            mine = own if node.state.to_move == parent.state.to_move else -own
            index = len(parent.children) - 1
            if parent.id not in self.best or mine > self.best[parent.id]:
                self.best[parent.id] = mine
                parent.best = index


#: The reasons of a ``value`` event whose value is exact whatever the window: a leaf's.
_LEAVES = (ev.TERMINAL, ev.HORIZON, ev.WIN_AT_ONCE)


def event_bound(event: SearchEvent) -> Bound:
    """How an event's value relates to the node's true value, from the side to move's view:
    a hit's entry bound; for a value, a lower bound at or above beta and an upper bound at or
    below alpha (the fail-soft contract), except at a leaf (a finished game, the depth limit, a
    win at once), whose value is exact whatever its window; exact without a window."""
    if event.kind == ev.HIT:
        return {ev.LOWER: LOWER, ev.UPPER: UPPER}.get(event.reason or "", EXACT)
    if event.alpha is None or event.beta is None or event.value is None:
        return EXACT
    if event.reason in _LEAVES:
        return EXACT
    if event.value <= event.alpha:
        return UPPER
    if event.value >= event.beta:
        return LOWER
    return EXACT


def _after(state: State, move: Move) -> State:
    """The position after ``move`` (a pass: the game's null move)."""
    if move is PASS:
        passed = state.null_move()
        assert passed is not None
        return passed
    return state.play(move)


def _text(state: State, move: Move) -> str:
    return "pass" if move is PASS else state.move_text(move)


def build_tree(
    state: State,
    depth: int,
    algorithm: str = "minimax",
    *,
    hints: bool = False,
    table: bool = False,
    textbook: bool = False,
    max_nodes: int | None = 500,
) -> SearchTree:
    """Search ``state`` ``depth`` plies deep with ``algorithm`` and record the whole tree.

    ``algorithm``: ``minimax``, ``negamax`` or ``alphabeta`` (one of :data:`TREE_ALGORITHMS`),
    searched by ``Searcher(algorithm, table=table, hints=hints)`` with an observer: the tree is
    that search's, node for node (its figures are the search's). ``hints``: alpha-beta tries
    the game's move order and spots immediate wins. ``table``: with a transposition table
    (memoization for minimax and negamax); a node it answers is drawn as a ``table`` node.

    ``textbook``: alpha-beta as the textbook writes it, without what the library adds to it:
    the root is an ordinary node of the engine's alpha-beta, whose window rises to the best
    value so far (so it finds one best move; the library's root keeps the window one below
    the best to find them all), and no mate-distance cut (a node is not skipped for the sole
    reason that no result could change its window). The tree's ``best_moves`` is then that
    one move. Not with ``hints``; minimax and negamax are the textbook's already.

    ``max_nodes``: raise :class:`TreeTooLargeError` as soon as the tree (pruned moves
    included) would have more nodes; None for no limit. Depths beyond :data:`MAX_TREE_DEPTH`
    are refused the same way.
    """
    if algorithm not in TREE_ALGORITHMS:
        raise ValueError(
            f"unknown tree algorithm {algorithm!r}: choose one of {', '.join(TREE_ALGORITHMS)}"
        )
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be a whole number >= 1, not {depth!r}")
    if depth > MAX_TREE_DEPTH:
        raise TreeTooLargeError(f"depth {depth}: no tree deeper than {MAX_TREE_DEPTH} is drawn")
    if textbook and hints:
        raise ValueError("the textbook's alpha-beta has no move hints: ask for one or the other")
    if state.outcome() is not None:
        raise ValueError(f"the game is over in {state} ({state.outcome()}): there is no tree")
    recorder = _Recorder(state, algorithm, max_nodes)
    if textbook and algorithm == "alphabeta":
        found = textbook_alphabeta(state, depth, table=table, observer=recorder)
        score, best_moves, pv = found.score, found.pv[:1], found.pv
        nodes, cutoffs, hits = found.nodes, found.cutoffs, found.table_hits
    else:
        searcher = Searcher(algorithm, table=table, hints=hints and algorithm == "alphabeta")
        result = searcher.search(state, Limits(depth=depth), observer=recorder)
        score, best_moves, pv = result.score, result.best_moves, result.pv
        nodes, cutoffs, hits = result.nodes, result.cutoffs, result.table_hits
    root = recorder.root
    assert root is not None
    for node in _walk(root):
        for child in node.children:
            child.move_text = _text(node.state, child.move)
    if pv:  # the root's chosen move is the result's (ties: the first in legal order)
        root.best = next(i for i, c in enumerate(root.children) if c.move == pv[0])
    line = _mark_pv(root)
    present = {node.id for node in _walk(root)}
    return SearchTree(
        root=root,
        algorithm=algorithm,
        depth=depth,
        hints=hints,
        value=score.value,
        score=score,
        best_moves=best_moves,
        pv=line,
        nodes=nodes,
        pruned=sum(1 for e in recorder.events if e.kind == ev.CUT),
        cutoffs=cutoffs,
        table=table,
        table_hits=hits,
        events=recorder.events,
        textbook=textbook,
        event_nodes=[i if i in present else -1 for i in recorder.event_nodes],
        scale=value_scale(recorder.events, depth),
    )


@dataclass(frozen=True)
class TextbookResult:
    """What :func:`textbook_alphabeta` found: the root's ``score`` (side to move's view), its
    line (``pv``), and the search's figures."""

    score: Score
    pv: tuple[Move, ...]
    nodes: int
    cutoffs: int
    table_hits: int


def textbook_alphabeta(
    state: State, depth: int, *, table: bool = False, observer: Observer | None = None
) -> TextbookResult:
    """The textbook's alpha-beta from ``state`` to ``depth``: the engine's own node routine at
    the root too (the root's window rises to the best value so far), without mate-distance
    cuts, in legal move order; with ``table``, a transposition table. ``observer`` gets every
    event (see :mod:`unbeatable.search.events`)."""
    options = SearchOptions(algorithm="alphabeta", table=table, hints=False)
    engine = Engine(
        table=TranspositionTable(options.entries) if table else None,
        symmetry=options.symmetry,
        hints=False,
        evaluate=None,
        order=None,
        deadline=None,
        max_nodes=None,
        observer=observer,
        mate_distance=False,
    )
    value = engine.alphabeta(state, depth, -INFINITY, INFINITY, 0)
    return TextbookResult(
        Score(value, exact=engine.horizon == 0, numeric=state.numeric_outcomes),
        tuple(engine.line(0)),
        engine.nodes,
        engine.cutoffs,
        engine.hits,
    )


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


#: The smallest scale: a win one ply below the root reads +99.
SCALE = 100


def value_scale(events: Iterable[SearchEvent], depth: int) -> int:
    """The ``W`` of :func:`format_value` for a search's events: 100, or the first power of
    ten above which a win ``depth + 2`` plies away still reads more than twice the largest
    evaluation in them (so that every win reads above every evaluation)."""
    largest = max(
        (abs(e.value) for e in events if e.value is not None and abs(e.value) < WIN_MIN),
        default=0,
    )
    scale = SCALE
    while scale - depth - 2 <= 2 * largest:
        scale *= 10
    return scale


def small(value: float, scale: int = SCALE) -> float:
    """The engine's ``value`` as the pictures write it: a win ``d`` plies away ``scale - d``,
    a loss ``-(scale - d)``, the window's ends infinite, anything else as it is."""
    if value >= INFINITY:
        return math.inf
    if value <= -INFINITY:
        return -math.inf
    if value >= WIN_MIN:
        return scale - (WIN - value)
    if value <= -WIN_MIN:
        return -(scale - (WIN + value))
    return value


def format_value(value: float | None, bound: Bound = EXACT, scale: int = SCALE) -> str:
    """A value as every picture writes it (:func:`small`): ``+97``, ``0``, ``-12``, ``+∞``,
    with ``≥ ``/``≤ `` in front of a bound; ``pruned`` for None."""
    if value is None:
        return "pruned"
    number = small(value, scale)
    if number == math.inf:
        text = "+∞"
    elif number == -math.inf:
        text = "-∞"
    elif number != int(number):  # a payoff of a typed tree may be a fraction
        text = f"{number:+g}"
    else:
        text = f"{int(number):+d}" if number else "0"
    prefix = {EXACT: "", LOWER: "≥ ", UPPER: "≤ "}[bound]
    return prefix + text


def value_words(
    value: float, scale: int = SCALE, view: str = "first", *, numeric: bool = False
) -> str:
    """What a value means, in words: ``max wins 3 plies from here`` and the like. ``view``:
    ``first`` for a value from the first player's view (max/min), ``mover`` for one from the
    side to move's view (negamax). Win distances are counted from the root. ``numeric``: the
    game ends in numbers (a :class:`~unbeatable.game.Payoff`, a typed tree's leaves)."""
    if numeric:
        who = "MAX" if view == "first" else "the side to move"
        return f"{who} gets {format_value(value, scale=scale).lstrip('+')}"
    if value >= WIN_MIN:
        who = "max wins" if view == "first" else "the side to move wins"
        return f"{who} {WIN - value} plies from the root"
    if value <= -WIN_MIN:
        who = "min wins" if view == "first" else "the side to move loses"
        return f"{who} {WIN + value} plies from the root"
    if value == 0:
        return "a draw (or an even evaluation)"
    return "an evaluation at the depth limit"


def value_key(scale: int = SCALE, view: str = "first", *, numeric: bool = False) -> str:
    """The key to the numbers, for a legend (``numeric``: the game ends in numbers, a typed
    tree's leaves)."""
    if numeric:
        if view == "first":
            return "values from MAX's view: the leaves are what MAX gets (MIN gets the negation)"
        return "values from the side to move's view: what the player to move gets"
    if view == "first":
        return (
            f"values from MAX's view: +({scale} - d) MAX wins d plies from the root, "
            f"-({scale} - d) MIN wins, 0 a draw, other numbers the evaluation at the depth limit"
        )
    return (
        f"values from the side to move's view: +({scale} - d) it wins d plies from the root, "
        f"-({scale} - d) it loses, 0 a draw, other numbers the evaluation at the depth limit"
    )


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
            label = format_value(node.value, node.bound, tree.scale)
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
            label = format_value(node.value, node.bound, tree.scale)
        if node.kind == HORIZON:
            label += " (evaluated)"
        elif node.kind == SHORTCUT:
            label += f" ({node.note})"
        out.append(f"{pv}{indent}{move}{mark} {label}")
        for child in node.children:
            visit(child, indent + "  ")

    visit(tree.root, "")
    return "\n".join(out) + "\n"


