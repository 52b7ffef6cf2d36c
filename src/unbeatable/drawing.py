"""Pictures as SVG: a position's board, a search tree, a parallel search's timeline.

One drawing for every front end: the web page shows these very pictures (it asks the server for
them and only adds zoom, pan, clicks and the step-through), and Jupyter shows them through
``_repr_svg_`` on states and trees (:meth:`unbeatable.State._repr_svg_`,
:meth:`unbeatable.tree.SearchTree._repr_svg_`). Every colour and size is an attribute of the
SVG itself (no style sheet), so a picture looks the same in the page, a notebook, a file or
GitHub's renderer; the page's style sheet only adds what stepping and clicking change.

:func:`tree_svg` draws a :class:`~unbeatable.tree.SearchTree` top-down as the textbook's figures
do: max nodes point up and min nodes down, a finished game is a square, a position at the depth
limit is drawn dashed, a node the table answered carries a ``T``; a small board above each node
(board games); the move on each edge; the value under each node (written by
:func:`unbeatable.tree.format_value`) and, for alpha-beta, the window ``α β`` it was searched
with; moves never searched greyed and folded (a dashed edge to a cross); the principal variation
alone underlined in gold. ``step=k`` draws the search as it stood after its first ``k`` events
(:func:`node_states`): the nodes not reached yet faint, the node of the last event ringed.

Every node is a ``<g class="tn ..." data-node="ID">``, every edge a ``<g class="te ..."
data-node="CHILD ID">``: the page finds them by these names.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

from . import display
from .game import FIRST, State
from .games import Connect4, Connect4State, MNKState, SubtractionState
from .growth import Growth
from .search import SearchResult
from .search import events as ev
from .timeline import TaskBar, Timeline
from .tree import (
    HORIZON,
    PRUNED,
    SHORTCUT,
    TABLE,
    TERMINAL,
    SearchTree,
    TreeNode,
    format_value,
    value_key,
)

__all__ = [
    "Svg",
    "board_cells",
    "board_svg",
    "growth_svg",
    "hue",
    "node_states",
    "result_html",
    "split_svg",
    "timeline_svg",
    "tree_layout",
    "tree_svg",
]

# The palette (the page's: X red, O blue; gold the principal variation).
INK = "#1b1f24"
MUTED = "#6b7280"
LINE = "#aab1ba"
MAX_COLOUR = "#c0392b"  # the first player: X
MIN_COLOUR = "#1f5fbf"  # the second player: O
PV_COLOUR = "#f2b705"
PRUNED_COLOUR = "#a0a6ad"
TABLE_COLOUR = "#8250df"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

#: How faint a node not reached yet is drawn in a step picture.
UNSEEN_OPACITY = "0.12"


class Svg(str):
    """An SVG picture as text, which Jupyter shows as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _num(value: float) -> str:
    """A coordinate, short: ``12``, ``12.5``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


# --- boards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cells:
    """A board game's position as cells: ``rows`` lists of ``"x"``, ``"o"`` or ``""``, top row
    first; ``kind`` ``grid`` (m,n,k) or ``columns`` (Connect Four); ``win``: the cells of the
    winning line, (row, column) pairs."""

    kind: str
    rows: list[list[str]]
    win: frozenset[tuple[int, int]]


def board_cells(state: State) -> Cells | None:
    """The cells of a board game's position (m,n,k games, Connect Four); None for others."""
    if isinstance(state, MNKState):
        game = state.game
        cells = [
            [
                "x"
                if state.first >> (r * game.n + c) & 1
                else "o"
                if state.second >> (r * game.n + c) & 1
                else ""
                for c in range(game.n)
            ]
            for r in range(game.m)
        ]
        line = 0
        outcome = state.outcome()
        if outcome is not None and outcome.winner is not None:
            stones = state.first if outcome.winner == FIRST else state.second
            line = next((w for w in game.lines if stones & w == w), 0)
        win = frozenset(
            (r, c) for r in range(game.m) for c in range(game.n) if line >> (r * game.n + c) & 1
        )
        return Cells("grid", cells, win)
    if isinstance(state, Connect4State) and isinstance(state.game, Connect4):
        c4 = state.game
        first, second = state.stones()
        h1 = c4.height + 1
        cells = [
            [
                "x" if first >> (c * h1 + r) & 1 else "o" if second >> (c * h1 + r) & 1 else ""
                for c in range(c4.width)
            ]
            for r in range(c4.height - 1, -1, -1)
        ]
        line = 0
        outcome = state.outcome()
        if outcome is not None and outcome.winner is not None:
            stones = first if outcome.winner == FIRST else second
            line = next((w for w in c4.windows if stones & w == w), 0)
        win = frozenset(
            (c4.height - 1 - r, c)
            for c in range(c4.width)
            for r in range(c4.height)
            if line >> (c * h1 + r) & 1
        )
        return Cells("columns", cells, win)
    return None


def _board_fragment(
    state: State, x: float, y: float, width: float, background: str = ""
) -> tuple[str, float]:
    """SVG elements drawing ``state``'s board with its top left corner at (x, y), ``width``
    wide: (the elements, their height); ("", 0) for a game without a board drawing.
    ``background``: the id of an empty grid drawn once (a tree's many boards share it)."""
    cells = board_cells(state)
    if cells is not None:
        rows, cols = len(cells.rows), len(cells.rows[0])
        size = width / cols
        height = size * rows
        if cells.kind == "grid":
            return _grid_fragment(cells, x, y, size, rows, cols, background), height
        return _columns_fragment(cells, x, y, size, rows, cols), height
    if isinstance(state, SubtractionState):
        text = (
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(width * 0.6)}"'
            f' rx="4" fill="#efe6e1" stroke="#8d6e63"/>'
            f'<text x="{_num(x + width / 2)}" y="{_num(y + width * 0.42)}" font-size="'
            f'{_num(width * 0.36)}" text-anchor="middle" fill="#5d4037">{state.pile}</text>'
        )
        return text, width * 0.6
    return "", 0.0


def _grid_background(x: float, y: float, size: float, rows: int, cols: int) -> str:
    """An empty grid: its frame and its lines."""
    width, height = size * cols, size * rows
    lines = [f"M{_num(x + c * size)},{_num(y)}v{_num(height)}" for c in range(1, cols)]
    lines += [f"M{_num(x)},{_num(y + r * size)}h{_num(width)}" for r in range(1, rows)]
    grid = f'<path d="{"".join(lines)}" stroke="{LINE}" stroke-width="0.6"/>' if lines else ""
    return (
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" '
        f'fill="#fff" stroke="{LINE}" stroke-width="1"/>{grid}'
    )


def _grid_fragment(
    cells: Cells, x: float, y: float, size: float, rows: int, cols: int, background: str = ""
) -> str:
    if background:
        parts = [f'<use href="#{background}"/>']
    else:
        parts = [_grid_background(x, y, size, rows, cols)]
    for r, c in cells.win:
        parts.append(
            f'<rect x="{_num(x + c * size)}" y="{_num(y + r * size)}" width="{_num(size)}" '
            f'height="{_num(size)}" fill="#fff3c4" opacity="0.8"/>'
        )
    crosses, rings = [], []
    d = size * 0.3
    for r, row in enumerate(cells.rows):
        for c, stone in enumerate(row):
            cx, cy = x + (c + 0.5) * size, y + (r + 0.5) * size
            if stone == "x":
                crosses.append(
                    f"M{_num(cx - d)},{_num(cy - d)}L{_num(cx + d)},{_num(cy + d)}"
                    f"M{_num(cx + d)},{_num(cy - d)}L{_num(cx - d)},{_num(cy + d)}"
                )
            elif stone == "o":
                rings.append(
                    f"M{_num(cx - d)},{_num(cy)}a{_num(d)},{_num(d)} 0 1,0 {_num(2 * d)},0"
                    f"a{_num(d)},{_num(d)} 0 1,0 {_num(-2 * d)},0"
                )
    stroke = _num(max(1.0, size * 0.14))
    if crosses:
        parts.append(
            f'<path d="{"".join(crosses)}" stroke="{MAX_COLOUR}" stroke-width="{stroke}" '
            'stroke-linecap="round" fill="none"/>'
        )
    if rings:
        parts.append(
            f'<path d="{"".join(rings)}" stroke="{MIN_COLOUR}" stroke-width="{stroke}" '
            'fill="none"/>'
        )
    return "".join(parts)


def _columns_fragment(cells: Cells, x: float, y: float, size: float, rows: int, cols: int) -> str:
    parts = [
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(size * cols)}" '
        f'height="{_num(size * rows)}" rx="{_num(size * 0.3)}" fill="#1d4ed8"/>'
    ]
    colours = {"x": "#e63946", "o": "#f2c14e", "": "#fff"}
    radius = _num(size * 0.38)
    for r, row in enumerate(cells.rows):
        for c, stone in enumerate(row):
            ring = ' stroke="#fff" stroke-width="1.5"' if (r, c) in cells.win else ""
            parts.append(
                f'<circle cx="{_num(x + (c + 0.5) * size)}" cy="{_num(y + (r + 0.5) * size)}" '
                f'r="{radius}" fill="{colours[stone]}"{ring}/>'
            )
    return "".join(parts)


def board_svg(state: State, width: float = 150) -> Svg | None:
    """``state``'s board as a picture ``width`` pixels wide (m,n,k games, Connect Four,
    subtraction's pile); None for a game without a drawing (Jupyter then shows its text)."""
    body, height = _board_fragment(state, 1, 1, width - 2)
    if not body:
        return None
    return Svg(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" '
        f'height="{_num(height + 2)}" viewBox="0 0 {_num(width)} {_num(height + 2)}">'
        f"<title>{_esc(state)}</title>{body}</svg>"
    )


# --- the tree ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Where every node of a tree is drawn: ``places`` maps a node id to the (x, y) of the top
    centre of its drawing; the picture is ``width`` x ``height``; ``board`` is the width of the
    boards drawn at the nodes (0: none) and ``board_height`` their height."""

    places: dict[int, tuple[float, float]]
    width: float
    height: float
    board: float
    board_height: float
    level: float


# Sizes, in pixels.
_SHAPE = 16.0  # a node's marker (triangle, square) is this high
_GAP = 8.0  # between two neighbouring leaves
_PRUNED_SLOT = 18.0
_MARGIN = 16.0
_TEXT = 12.0  # a line of text under a node


def _has_board(state: State) -> bool:
    return board_cells(state) is not None or isinstance(state, SubtractionState)


def tree_layout(tree: SearchTree, boards: bool | None = None) -> Layout:
    """The places of ``tree``'s nodes, top-down: each leaf takes the next slot from the left,
    each parent is centred over its children, each ply one level lower. ``boards``: draw a
    small board at each node (default: when the game has a board drawing)."""
    if boards is None:
        boards = _has_board(tree.root.state)
    board = 0.0
    board_height = 0.0
    if boards:
        cells = board_cells(tree.root.state)
        cols = len(cells.rows[0]) if cells is not None else 3
        rows = len(cells.rows) if cells is not None else 2
        board = 34.0 if cols <= 4 else min(56.0, 8.0 * cols)
        board_height = board * rows / cols
        if not _has_board(tree.root.state):
            board = board_height = 0.0
    slot = max(board, 30.0) + _GAP
    windows = tree.algorithm == "alphabeta"
    node_height = board_height + 3 + _SHAPE + _TEXT + (2 * _TEXT if windows else 0)
    level = node_height + 30
    places: dict[int, tuple[float, float]] = {}
    cursor = _MARGIN
    deepest = 0
    # Post-order without recursion (a tree may be 100 plies deep).
    stack: list[tuple[TreeNode, bool]] = [(tree.root, False)]
    while stack:
        node, done = stack.pop()
        if not node.children:
            width = _PRUNED_SLOT if node.kind == PRUNED else slot
            places[node.id] = (cursor + width / 2, _MARGIN + node.ply * level)
            cursor += width
            deepest = max(deepest, node.ply)
            continue
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.children))
            continue
        first = places[node.children[0].id][0]
        last = places[node.children[-1].id][0]
        places[node.id] = ((first + last) / 2, _MARGIN + node.ply * level)
    width = cursor + _MARGIN
    height = _MARGIN + deepest * level + node_height + _MARGIN
    return Layout(places, width, height, board, board_height, level)


def node_states(tree: SearchTree, step: int) -> dict[int, str]:
    """Each node's state after the first ``step`` events of the search: ``unseen`` (not
    reached yet), ``open`` (entered, its value not back yet), ``done`` (valued), ``cut`` (a
    move cut off); the node of the last event also gets ``now``. The page's step-through gives
    the nodes the same classes."""
    states = {node.id: "unseen" for node in tree.walk()}
    last = -1
    for event, node in zip(tree.events[:step], tree.event_nodes[:step], strict=True):
        if node < 0:
            continue
        last = node
        if event.kind == ev.ENTER:
            states[node] = "open"
        elif event.kind == ev.CUT:
            states[node] = "cut"
        elif event.kind == ev.VALUE:
            states[node] = "done"
    if last >= 0:
        states[last] += " now"
    return states


def tree_svg(
    tree: SearchTree,
    *,
    view: str | None = None,
    boards: bool | None = None,
    step: int | None = None,
    legend: bool = True,
    title: str | None = None,
    tooltips: bool = True,
) -> Svg:
    """``tree`` as a picture (see the module's docstring).

    ``view``: values from the first player's view (``first``: max/min) or the side to move's
    (``mover``: negamax); default ``mover`` for negamax, else ``first``. ``boards``: a small
    board at each node (default: when the game has a board drawing). ``step``: draw the search
    after its first ``step`` events (None: the whole search). ``legend``: a key above the tree
    (the page has its own). ``title``: a line above the tree (default: what was searched).
    ``tooltips``: a node's path, value and window when the pointer rests on it (the page, which
    shows them on a click, leaves them out of a large tree's picture).
    """
    view = view or ("mover" if tree.algorithm == "negamax" else "first")
    layout = tree_layout(tree, boards)
    states = node_states(tree, step) if step is not None else None
    top = 0.0
    head: list[str] = []
    if title is None:
        title = _title(tree)
    lines = [title] if title else []
    if legend:
        lines += [_legend_line(tree, view), value_key(tree.scale, view, numeric=tree.numeric)]
    for index, line in enumerate(lines):
        weight = ' font-weight="600"' if index == 0 and title else ""
        head.append(
            f'<text x="{_num(_MARGIN)}" y="{_num(18 + index * 16)}" font-size="12"{weight} '
            f'fill="{INK if index == 0 and title else MUTED}">{_esc(line)}</text>'
        )
    if lines:
        top = 14 + len(lines) * 16
    width = max(layout.width, 40 + max((len(line) for line in lines), default=0) * 6.2)
    height = layout.height + top
    edges: list[str] = []
    nodes: list[str] = []
    moves = tree.paths()
    for node in tree.walk():
        x, y = layout.places[node.id]
        y += top
        for child in node.children:
            cx, cy = layout.places[child.id]
            edges.append(_edge(tree, node, child, x, y, cx, cy + top, layout, view, states))
        nodes.append(
            _node(tree, node, x, y, layout, view, states, moves[node.id] if tooltips else None)
        )
    mode = "stepping" if step is not None else "whole"
    defs = ""
    cells = board_cells(tree.root.state)
    if layout.board and cells is not None and cells.kind == "grid":
        rows, cols = len(cells.rows), len(cells.rows[0])
        empty = _grid_background(-layout.board / 2, 0, layout.board / cols, rows, cols)
        defs = f'<defs><g id="grid">{empty}</g></defs>'
    return Svg(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="search-tree {mode}" '
        f'width="{_num(width)}" height="{_num(height)}" viewBox="0 0 {_num(width)} '
        f'{_num(height)}" font-family="{FONT}" data-nodes="{tree.nodes}">'
        + defs
        + "".join(head)
        + '<g class="edges" font-size="10" text-anchor="middle">'
        + "".join(edges)
        + f'</g><g class="nodes" text-anchor="middle" fill="{INK}">'
        + "".join(nodes)
        + "</g></svg>"
    )


def _title(tree: SearchTree) -> str:
    names = {"minimax": "minimax", "negamax": "negamax", "alphabeta": "alpha-beta"}
    extra = []
    if tree.table:
        extra.append("with a table")
    if tree.hints:
        extra.append("with move hints")
    if tree.textbook and tree.algorithm == "alphabeta":
        extra.append("as in the textbook")
    what = " ".join([names.get(tree.algorithm, tree.algorithm), *extra])
    pruned = f", {tree.pruned} moves cut off" if tree.algorithm == "alphabeta" else ""
    hits = f", {tree.table_hits} table hits" if tree.table else ""
    return f"{what} to depth {tree.depth}: {tree.nodes} nodes searched{pruned}{hits}"


def _legend_line(tree: SearchTree, view: str) -> str:
    parts = ["▲ MAX (first player) to move", "▼ MIN", "■ game over", "dashed: depth limit"]
    if view == "mover":
        parts.append("(−): the value is negated on its way up")
    if tree.table:
        parts.append("T: from the table")
    if tree.algorithm == "alphabeta":
        parts.append("α β: the window")
        parts.append("✕ grey: cut off")
    parts.append("gold: principal variation")
    return " · ".join(parts)


def _edge(
    tree: SearchTree,
    parent: TreeNode,
    child: TreeNode,
    x: float,
    y: float,
    cx: float,
    cy: float,
    layout: Layout,
    view: str,
    states: dict[int, str] | None,
) -> str:
    start = y + _node_height(tree, layout)
    classes = ["te"]
    pruned = child.kind == PRUNED
    if pruned:
        classes.append("pruned")
    pv = child.on_pv and parent.on_pv
    if pv:
        classes.append("pv")
    attrs = ""
    if states is not None:
        state = states[child.id]
        classes.append(state)
        if state == "unseen":
            attrs = f' opacity="{UNSEEN_OPACITY}"'
    path = f"M{_num(x)},{_num(start)}L{_num(cx)},{_num(cy - 2)}"
    parts = [f'<g class="{" ".join(classes)}" data-node="{child.id}"{attrs}>']
    if pv and _pv_shown(tree, states):
        parts.append(
            f'<path class="pvmark" d="{path}" stroke="{PV_COLOUR}" stroke-width="6" '
            'stroke-linecap="round" opacity="0.7" fill="none"/>'
        )
    dash = ' stroke-dasharray="3,3"' if pruned else ""
    colour = PRUNED_COLOUR if pruned else "#7b838c"
    parts.append(f'<path d="{path}" stroke="{colour}" stroke-width="1.2"{dash} fill="none"/>')
    # an invisible wide stroke, so that the branch is easy to click
    parts.append(
        f'<path class="hit" d="{path}" stroke="#000" stroke-opacity="0" stroke-width="12" '
        'fill="none"/>'
    )
    # the move, near the child's end of the edge
    t = 0.72
    lx, ly = x + (cx - x) * t, start + (cy - start) * t
    flip = view == "mover" and not pruned and child.state.to_move != parent.state.to_move
    label = child.move_text + (" (−)" if flip else "")
    parts.append(
        f'<text x="{_num(lx)}" y="{_num(ly + 3)}" fill="{PRUNED_COLOUR if pruned else INK}" '
        f'stroke="#fff" stroke-width="3" paint-order="stroke">{_esc(label)}</text>'
    )
    parts.append("</g>")
    return "".join(parts)


def _pv_shown(tree: SearchTree, states: dict[int, str] | None) -> bool:
    """The principal variation is marked on the whole search, not before its end (it would
    give the answer away while the search is stepped)."""
    return states is None or all(
        s in ("done", "cut") or s.startswith("done") for s in states.values()
    )


def _node_height(tree: SearchTree, layout: Layout) -> float:
    board = layout.board_height + 3 if layout.board else 0
    return board + _SHAPE + _TEXT + (2 * _TEXT - 4 if tree.algorithm == "alphabeta" else 0)


def _shown_value(node: TreeNode, view: str, scale: int) -> str:
    if node.value is None:
        return ""
    value, bound = node.value, node.bound
    if view == "mover" and node.state.to_move != FIRST:
        value, bound = -value, bound.flipped
    return format_value(value, bound, scale)


def _window(node: TreeNode, view: str, scale: int) -> str:
    if node.alpha is None or node.beta is None:
        return ""
    alpha, beta = node.alpha, node.beta
    if view == "first" and node.state.to_move != FIRST:
        alpha, beta = -beta, -alpha
    return f"α {format_value(alpha, scale=scale)} β {format_value(beta, scale=scale)}"


def _node(
    tree: SearchTree,
    node: TreeNode,
    x: float,
    y: float,
    layout: Layout,
    view: str,
    states: dict[int, str] | None,
    moves: tuple[str, ...] | None,
) -> str:
    maximising = node.maximising
    classes = ["tn", node.kind, "max" if maximising else "min"]
    if node.on_pv:
        classes.append("pv")
    attrs = ""
    state = None
    if states is not None:
        state = states[node.id]
        classes.append(state)
        if state == "unseen":
            attrs = f' opacity="{UNSEEN_OPACITY}"'
    parts = [
        f'<g class="{" ".join(classes)}" data-node="{node.id}" '
        f'transform="translate({_num(x)},{_num(y)})"{attrs}>'
    ]
    if moves is not None:
        parts.append(f"<title>{_esc(_tooltip(tree, node, view, moves))}</title>")
    if node.kind == PRUNED:
        parts.append(
            f'<path class="shape" d="M-4,2L4,10M4,2L-4,10" stroke="{PRUNED_COLOUR}" '
            'stroke-width="1.6" stroke-linecap="round"/>'
        )
        parts.append("</g>")
        return "".join(parts)
    top = 0.0
    if layout.board:
        body, height = _board_fragment(node.state, -layout.board / 2, 0, layout.board, "grid")
        if node.on_pv and _pv_shown(tree, states):
            parts.append(
                f'<rect class="pvmark" x="{_num(-layout.board / 2 - 3)}" y="-3" '
                f'width="{_num(layout.board + 6)}" height="{_num(height + 6)}" rx="3" '
                f'fill="{PV_COLOUR}" opacity="0.7"/>'
            )
        parts.append(f'<g class="board">{body}</g>')
        top = layout.board_height + 3
    parts.append(_shape(node, top, maximising))
    if state is not None and "now" in state:
        parts.append(
            f'<circle cx="0" cy="{_num(top + _SHAPE / 2)}" r="{_num(_SHAPE * 0.9)}" '
            f'fill="none" stroke="{PV_COLOUR}" stroke-width="3"/>'
        )
    value_y = top + _SHAPE + 10
    shown = _shown_value(node, view, tree.scale)
    hide = ' visibility="hidden"' if state is not None and not state.startswith("done") else ""
    weight = ' font-weight="700"' if node.on_pv else ' font-weight="600"'
    parts.append(
        f'<text class="tv" y="{_num(value_y)}" font-size="11"{weight}{hide}>{_esc(shown)}</text>'
    )
    window = _window(node, view, tree.scale)
    if window:
        hide = ' visibility="hidden"' if state == "unseen" else ""
        alpha, _, beta = window.partition(" β ")
        parts.append(
            f'<text class="tw" y="{_num(value_y + _TEXT - 1)}" font-size="9" fill="{MUTED}"'
            f'{hide}>{_esc(alpha)}<tspan x="0" dy="10">β {_esc(beta)}</tspan></text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _shape(node: TreeNode, top: float, maximising: bool) -> str:
    colour = MAX_COLOUR if maximising else MIN_COLOUR
    h = _SHAPE
    w = h * 1.25
    dash = ' stroke-dasharray="2.5,2"' if node.kind in (HORIZON, SHORTCUT) else ""
    fill = "#fff" if node.kind in (HORIZON, SHORTCUT) else colour
    if node.kind == TERMINAL:
        shape = (
            f'<rect class="shape" x="{_num(-h / 2)}" y="{_num(top)}" width="{_num(h)}" '
            f'height="{_num(h)}" rx="2" fill="{INK}"/>'
        )
    elif maximising:
        shape = (
            f'<path class="shape" d="M0,{_num(top)}L{_num(w / 2)},{_num(top + h)}H{_num(-w / 2)}Z" '
            f'fill="{fill}" stroke="{colour}" stroke-width="1.5"{dash}/>'
        )
    else:
        shape = (
            f'<path class="shape" d="M{_num(-w / 2)},{_num(top)}H{_num(w / 2)}L0,{_num(top + h)}Z" '
            f'fill="{fill}" stroke="{colour}" stroke-width="1.5"{dash}/>'
        )
    if node.kind == TABLE:
        shape += (
            f'<text x="{_num(w / 2 + 2)}" y="{_num(top + h - 3)}" font-size="10" '
            f'font-weight="700" fill="{TABLE_COLOUR}">T</text>'
        )
    return shape


def _tooltip(tree: SearchTree, node: TreeNode, view: str, moves: tuple[str, ...]) -> str:
    who = "MAX" if node.maximising else "MIN"
    path = " ".join(moves) or "the root"
    if node.kind == PRUNED:
        return f"{path}: {node.note or 'not searched'}"
    text = f"{path}: {who} to move, value {_shown_value(node, view, tree.scale)}"
    window = _window(node, view, tree.scale)
    if window:
        text += f", window {window}"
    if node.note:
        text += f" ({node.note})"
    return text


# --- helpers for the other pictures -------------------------------------------------------------


#: How a settled node of a grown tree is marked (:mod:`unbeatable.growth`): MCTS-Solver's
#: classes for the player who made the move, df-pn's answers to the root's question.
GROWTH_MARKS = {"won": "W", "lost": "L", "drawn": "D", "proved": "✓", "disproved": "✗"}
GROWTH_COLOURS = {
    "won": "#1e8449", "lost": "#7b8794", "drawn": "#b9770e", "proved": "#1e8449",
    "disproved": "#7b8794",
}
_GROWTH_SLOT = 46.0
_GROWTH_LEVEL = 84.0


def growth_svg(growth: Growth, *, title: str | None = None) -> Svg:
    """A grown tree (:func:`unbeatable.growth.grow_tree`) as it stands at the end: ▲ the first
    player to move, ▼ the second; each edge its move; under each node its label (MCTS: reward
    won by the player who moved there / visits, the root its visits; df-pn: proof/disproof for
    the root's question) and a mark for the settled ones (W, L, D for the mover; ✓ proved,
    ✗ disproved). Nodes are ``<g class="tn ..." data-node="ID">`` with a ``tv`` label and a
    ``tm`` mark, edges ``<g class="te" data-node="CHILD ID">``: the page replays the steps by
    changing those."""
    nodes = growth.nodes
    places: dict[int, tuple[float, float]] = {}
    slot = 0

    def place(ident: int, depth: int) -> None:
        nonlocal slot
        node = nodes[ident]
        for child in node.children:
            place(child, depth + 1)
        if node.children:
            x = (places[node.children[0]][0] + places[node.children[-1]][0]) / 2
        else:
            x = _MARGIN + _GROWTH_SLOT / 2 + slot * _GROWTH_SLOT
            slot += 1
        places[ident] = (x, depth * _GROWTH_LEVEL)

    place(0, 0)
    lines = [title] if title else []
    top = 14.0 + len(lines) * 16 + 8
    width = max(_MARGIN * 2 + slot * _GROWTH_SLOT, 40 + max((len(t) for t in lines), default=0)
                * 6.2)
    height = top + max(y for _, y in places.values()) + _SHAPE + 40
    head = [
        f'<text x="{_num(_MARGIN)}" y="{_num(18 + i * 16)}" font-size="12" font-weight="600" '
        f'fill="{INK}">{_esc(line)}</text>'
        for i, line in enumerate(lines)
    ]
    edges: list[str] = []
    drawn: list[str] = []
    for node in nodes:
        x, y = places[node.id]
        y += top
        if node.parent is not None:
            px, py = places[node.parent]
            py += top + _SHAPE + 18
            edges.append(
                f'<g class="te" data-node="{node.id}"><path d="M{_num(px)},{_num(py)}'
                f'L{_num(x)},{_num(y - 15)}" stroke="{LINE}" stroke-width="1.4" fill="none"/>'
                f'<text x="{_num(x)}" y="{_num(y - 4)}" fill="{INK}">'
                f'{_esc(node.move or "")}</text></g>'
            )
        colour = MAX_COLOUR if node.first else MIN_COLOUR
        h, w = _SHAPE, _SHAPE * 1.25
        if node.first:
            d = f"M0,0L{_num(w / 2)},{_num(h)}H{_num(-w / 2)}Z"
        else:
            d = f"M{_num(-w / 2)},0H{_num(w / 2)}L0,{_num(h)}Z"
        mark_colour = GROWTH_COLOURS.get(node.mark, INK)
        classes = " ".join(
            ["tn", "max" if node.first else "min", *([f"m-{node.mark}"] if node.mark else [])]
        )
        drawn.append(
            f'<g class="{classes}" data-node="{node.id}" transform="translate({_num(x)},'
            f'{_num(y)})"><path class="shape" d="{d}" fill="{colour}" stroke="{colour}" '
            f'stroke-width="1.5"/>'
            f'<text class="tm" x="{_num(w / 2 + 3)}" y="{_num(h - 2)}" font-size="11" '
            f'font-weight="700" text-anchor="start" fill="{mark_colour}">'
            f"{_esc(GROWTH_MARKS.get(node.mark, ''))}</text>"
            f'<text class="tv" y="{_num(h + 13)}" font-size="11" font-weight="600" '
            f'fill="{mark_colour}">{_esc(node.label)}</text></g>'
        )
    return Svg(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="search-tree growth whole" '
        f'width="{_num(width)}" height="{_num(height)}" viewBox="0 0 {_num(width)} '
        f'{_num(height)}" font-family="{FONT}" data-nodes="{len(nodes)}">'
        + "".join(head)
        + '<g class="edges" font-size="10" text-anchor="middle">'
        + "".join(edges)
        + f'</g><g class="nodes" text-anchor="middle" fill="{INK}">'
        + "".join(drawn)
        + "</g></svg>"
    )


def hue(index: int) -> str:
    """The colour of the ``index``-th task in the parallel pictures (a palette of ten that
    colour-blind readers can tell apart reasonably: Tableau 10)."""
    palette = (
        "#4e79a7",
        "#f28e2b",
        "#59a14f",
        "#e15759",
        "#76b7b2",
        "#edc948",
        "#b07aa1",
        "#ff9da7",
        "#9c755f",
        "#bab0ac",
    )
    return palette[index % len(palette)]


def _ticks(end: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least ``end``."""
    if end <= 0:
        return [0.0]
    raw = end / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    return [i * step for i in range(math.ceil(end / step - 1e-9) + 1)]


# --- a parallel search ---------------------------------------------------------------------------


def timeline_svg(line: Timeline, width: float = 900) -> Svg:
    """A parallel search's tasks on a time line (see :mod:`unbeatable.timeline`): a lane per
    worker, a bar per task from when it was sent until its result was back (the round trip),
    the worker's own time on it as a dark line inside, each task in its colour (the split
    tree's and the table's); a task that waited for its elder brother is marked ◆ at its
    start. Each lane ends with the worker's busy share."""
    left, right, row, top = 70.0, 80.0, 30.0, 8.0
    lanes = max(1, line.workers)
    end = max(line.elapsed, max((t.end for t in line.tasks), default=0.0), 1e-6)
    ticks = _ticks(end)
    scale = (width - left - right) / max(ticks[-1], end)
    axis = top + lanes * row + 4
    height = axis + 54
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline-chart" width="{_num(width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'font-family="{FONT}">'
    ]
    for tick in ticks:
        x = left + tick * scale
        parts.append(
            f'<line x1="{_num(x)}" x2="{_num(x)}" y1="{_num(top)}" y2="{_num(axis)}" '
            f'stroke="#eef0f3"/>'
        )
        anchor = "end" if tick == ticks[-1] else "middle"
        parts.append(
            f'<text class="tick-label" x="{_num(x)}" y="{_num(axis + 14)}" font-size="11" '
            f'fill="{MUTED}" text-anchor="{anchor}">{_esc(_tick_text(tick, ticks))}</text>'
        )
    legend = (
        "time from the search's start; bar: a task from sent to its result back; dark line: "
        "the worker's own time on it",
        "◆: it waited for its elder brother; grey: a presearch; colour: the task (as in the "
        "split tree and the table)",
    )
    for index, text in enumerate(legend):
        parts.append(
            f'<text x="{_num(left)}" y="{_num(axis + 30 + 14 * index)}" font-size="11" '
            f'fill="{MUTED}">{_esc(text)}</text>'
        )
    busy = line.busy()
    for lane in range(lanes):
        y = top + lane * row
        parts.append(
            f'<text class="lane-label" x="4" y="{_num(y + row / 2 + 4)}" font-size="12" '
            f'fill="{INK}">worker {lane + 1}</text>'
        )
        parts.append(
            f'<line x1="{_num(left)}" x2="{_num(width - right)}" y1="{_num(y + row)}" '
            f'y2="{_num(y + row)}" stroke="{LINE}" stroke-width="0.5"/>'
        )
        share = 100 * busy[lane] / line.elapsed if line.elapsed > 0 and lane < len(busy) else 0
        parts.append(
            f'<text x="{_num(width - right + 6)}" y="{_num(y + row / 2 + 4)}" font-size="11" '
            f'fill="{MUTED}">busy {share:.0f} %</text>'
        )
    for task in line.earlier:
        y = top + task.lane * row + 5
        x = left + task.sent * scale
        tip = (
            f"presearch ({line.earlier_iteration} plies): {' '.join(task.moves)}, "
            f"{task.seconds * 1000:.1f} ms in the worker, {task.nodes:,} nodes"
        )
        parts.append(
            f'<g class="presearch"><title>{_esc(tip)}</title><rect x="{_num(x)}" y="{_num(y)}" '
            f'width="{_num(max(1.5, task.round_trip * scale))}" height="{_num(row - 12)}" '
            f'fill="#c9cdd3" stroke="#fff" stroke-width="0.5"/></g>'
        )
    for task in line.tasks:
        y = top + task.lane * row + 5
        x = left + task.sent * scale
        colour = hue(task.index)
        moves = " ".join(task.moves) or "(the root)"
        tip = (
            f"task {task.index + 1}: {moves}; sent at {task.sent * 1000:.1f} ms, back after "
            f"{task.round_trip * 1000:.1f} ms, {task.seconds * 1000:.1f} ms in the worker, "
            f"{task.nodes:,} nodes"
        )
        if task.waited_for is not None:
            tip += f"; waited for its elder brother {' '.join(task.waited_for)}"
        parts.append(
            f'<g class="task" data-task="{task.index}"><title>{_esc(tip)}</title>'
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(max(1.5, task.round_trip * scale))}"'
            f' height="{_num(row - 12)}" fill="{colour}" opacity="0.85" stroke="#fff" '
            f'stroke-width="0.5"/>'
            f'<rect x="{_num(x)}" y="{_num(y + row - 17)}" '
            f'width="{_num(max(1.0, task.seconds * scale))}" height="4" fill="{INK}" '
            f'opacity="0.6"/>'
        )
        if task.waited_for is not None:
            parts.append(f'<path d="M{_num(x)},{_num(y - 4)}l3,3l-3,3l-3,-3z" fill="{INK}"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return Svg("".join(parts))


def _tick_text(tick: float, ticks: list[float]) -> str:
    step = ticks[1] - ticks[0] if len(ticks) > 1 else tick
    digits = 0 if step * 1000 >= 1 else 1 if step * 1000 >= 0.1 else 2
    return f"{tick * 1000:.{digits}f} ms"


def split_svg(line: Timeline) -> Svg:
    """The split tree of a parallel search's last iteration: the root and the nodes the
    manager split (grey), each task a square in its colour (the timeline's) with its number,
    the move on each edge."""
    children: dict[tuple[str, ...], list[tuple[str, ...]]] = {(): []}
    task_of: dict[tuple[str, ...], TaskBar] = {}
    for bar in line.tasks:
        task_of[bar.moves] = bar
        for depth in range(1, len(bar.moves) + 1):
            node, parent = bar.moves[:depth], bar.moves[: depth - 1]
            siblings = children.setdefault(parent, [])
            if node not in siblings:
                siblings.append(node)
            children.setdefault(node, [])
    slot, level, margin = 30.0, 46.0, 14.0
    places: dict[tuple[str, ...], tuple[float, float]] = {}
    cursor = margin
    stack: list[tuple[tuple[str, ...], bool]] = [((), False)]
    deepest = 0
    while stack:
        node, done = stack.pop()
        below = children.get(node, [])
        if not below:
            places[node] = (cursor + slot / 2, margin + len(node) * level)
            cursor += slot
            deepest = max(deepest, len(node))
            continue
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(below))
            continue
        xs = [places[child][0] for child in below]
        places[node] = ((xs[0] + xs[-1]) / 2, margin + len(node) * level)
    width = max(cursor + margin, 200)
    height = margin * 2 + deepest * level + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="split-tree" width="{_num(width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'font-family="{FONT}">'
    ]
    for node, below in children.items():
        x, y = places[node]
        for child in below:
            cx, cy = places[child]
            parts.append(
                f'<path d="M{_num(x)},{_num(y + 8)}L{_num(cx)},{_num(cy - 8)}" stroke="{LINE}" '
                'fill="none"/>'
                f'<text x="{_num(x + (cx - x) * 0.75 + 3)}" y="{_num(y + (cy - y) * 0.75)}" '
                'font-size="10" '
                f'fill="{INK}" stroke="#fff" stroke-width="3" paint-order="stroke">'
                f"{_esc(child[-1])}</text>"
            )
    for node, (x, y) in places.items():
        task = task_of.get(node)
        if task is None:
            what = "the root" if not node else "split node " + " ".join(node)
            parts.append(
                f'<g class="split-node"><title>{_esc(what)}</title><circle cx="{_num(x)}" '
                f'cy="{_num(y)}" r="7" fill="#d6dae0" stroke="{MUTED}"/></g>'
            )
            continue
        tip = f"task {task.index + 1}: {' '.join(node)}, {task.nodes:,} nodes"
        parts.append(
            f'<g class="task" data-task="{task.index}"><title>{_esc(tip)}</title>'
            f'<rect x="{_num(x - 9)}" y="{_num(y - 9)}" width="18" height="18" rx="3" '
            f'fill="{hue(task.index)}"/><text x="{_num(x)}" y="{_num(y + 4)}" font-size="10" '
            f'text-anchor="middle" fill="#fff" font-weight="700">{task.index + 1}</text></g>'
        )
    parts.append("</svg>")
    return Svg("".join(parts))


# --- a search's result, in a notebook ----------------------------------------------------------


def result_html(result: SearchResult) -> str:
    """A search's result as HTML: the position's board (when the game has a drawing), every
    move's score (the best starred), the principal variation and the search's figures."""
    state = result.state
    parts = ['<div class="unbeatable-result" style="display:flex;gap:16px;align-items:flex-start">']
    if state is not None:
        board = board_svg(state, 140)
        if board is not None:
            parts.append(f"<div>{board}</div>")

    def text(move: object) -> str:
        return _esc(state.move_text(move) if state is not None else move)

    rows = []
    scores = result.move_scores or {}
    if scores:
        for move, score in scores.items():
            star = " ★" if move in result.best_moves else ""
            rows.append(f"<tr><td>{text(move)}</td><td>{_esc(score)}{star}</td></tr>")
    table = (
        "<table><thead><tr><th>move</th><th>score</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
        if rows
        else ""
    )
    line = " ".join(text(m) for m in result.pv)
    best = ", ".join(text(m) for m in result.best_moves)
    facts = [
        ("score", f"{result.score} (for the side to move)"),
        ("best moves", best),
        ("principal variation", line),
        ("nodes", f"{result.nodes:,}"),
        *(
            [("cut-offs", f"{result.cutoffs:,}"), ("table hits", f"{result.table_hits:,}")]
            if result.counts_cutoffs
            else []
        ),
        ("depth", str(result.depth)),
        ("time", f"{result.elapsed * 1000:.1f} ms"),
        (
            "algorithm",
            result.algorithm
            + (", exact" if result.exact else ", heuristic")
            + ("" if result.complete else ", stopped by its limit"),
        ),
    ]
    listed = "".join(f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>" for k, v in facts)
    parts.append(f"<div>{table}</div><div><table>{listed}</table></div></div>")
    return "".join(parts)


def _state_svg(state: State) -> str | None:
    return board_svg(state)


def _tree_svg(tree: SearchTree) -> str:
    return tree_svg(tree)


def _timeline_svg(line: Timeline) -> str:
    return timeline_svg(line)


display.register("state", _state_svg)
display.register("tree", _tree_svg)
display.register("result", result_html)
display.register("timeline", _timeline_svg)
