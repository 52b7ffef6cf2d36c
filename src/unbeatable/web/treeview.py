"""The search tree as the page shows it: :func:`unbeatable.tree.build_tree`'s tree as JSON, its
picture (:func:`unbeatable.drawing.tree_svg`, the notebook's too), its steps
(:func:`unbeatable.steps.explain`, ``unbeatable tree --steps``'s too) and the node counts of
every algorithm side by side. The page draws nothing of its own: it shows this picture and
moves through these steps."""

from __future__ import annotations

from typing import Any

from ..drawing import GROWTH_COLOURS, GROWTH_MARKS, growth_svg, tree_svg
from ..game import FIRST, State
from ..growth import Growth, growth_json
from ..search import Limits, Searcher
from ..steps import Step, default_view, explain
from ..tree import (
    PRUNED,
    SearchTree,
    TreeNode,
    TreeTooLargeError,
    build_tree,
    format_value,
    textbook_alphabeta,
    value_key,
)

__all__ = [
    "algorithm_counts",
    "growth_view",
    "quiz_answer",
    "steps_table",
    "tree_json",
    "tree_view",
    "windows",
]

#: The largest minimax tree counted for the side-by-side figures.
COUNT_LIMIT = 20_000


def windows(tree: SearchTree) -> dict[int, tuple[int, int]]:
    """The window ``(alpha, beta)`` each searched node of an alpha-beta tree was searched with,
    from the side to move's view at that node, by node id (the engine's own, from its
    events)."""
    return {
        node.id: (node.alpha, node.beta)
        for node in tree.walk()
        if node.kind != PRUNED and node.alpha is not None and node.beta is not None
    }


def _view_window(node: TreeNode, view: str) -> tuple[int, int]:
    """A node's side-to-move window in ``view``."""
    assert node.alpha is not None and node.beta is not None
    if view == "first" and node.state.to_move != FIRST:
        return -node.beta, -node.alpha
    return node.alpha, node.beta


def tree_json(tree: SearchTree, view: str | None = None) -> dict[str, Any]:
    """The tree as nested JSON: each node's id, its moves from the root (``path``), its move
    (and its ``label`` where people read moves otherwise: SAN in chess), kind, value and window
    as the pictures write them in ``view`` (default: :func:`.steps.default_view`), bound,
    whether max is to move, whether it is on the principal variation, its note, and its
    children."""
    view = view or default_view(tree.algorithm)
    paths = tree.paths()

    def node_json(node: TreeNode, parent: State | None = None) -> dict[str, Any]:
        value, bound = node.value, node.bound
        if value is not None and view == "mover" and node.state.to_move != FIRST:
            value, bound = -value, bound.flipped
        data: dict[str, Any] = {
            "id": node.id,
            "path": list(paths[node.id]),
            "move": node.move_text,
            "kind": node.kind,
            "value": format_value(value, bound, tree.scale),
            "bound": str(bound),
            "max": node.maximising,
            "pv": node.on_pv,
            "note": node.note,
        }
        if node.kind != PRUNED and node.alpha is not None and node.beta is not None:
            alpha, beta = _view_window(node, view)
            data["alpha"] = format_value(alpha, scale=tree.scale)
            data["beta"] = format_value(beta, scale=tree.scale)
        if parent is not None and node.move is not None:
            shown = parent.move_label(node.move)  # chess: SAN beside UCI
            if shown != node.move_text:
                data["label"] = shown
        if node.children:
            data["children"] = [node_json(child, node.state) for child in node.children]
        return data

    return {
        "algorithm": tree.algorithm,
        "depth": tree.depth,
        "hints": tree.hints,
        "table": tree.table,
        "textbook": tree.textbook,
        "view": view,
        "nodes": tree.nodes,
        "pruned": tree.pruned,
        "cutoffs": tree.cutoffs,
        "table_hits": tree.table_hits,
        "score": str(tree.score),
        "scale": tree.scale,
        "key": value_key(tree.scale, view, numeric=tree.numeric),
        "root": node_json(tree.root),
    }


def tree_view(
    tree: SearchTree, *, view: str | None = None, boards: bool | None = None
) -> dict[str, Any]:
    """Everything the page shows of ``tree``: its JSON, its picture and its steps."""
    view = view or default_view(tree.algorithm)
    return {
        "tree": tree_json(tree, view),
        "svg": str(
            tree_svg(tree, view=view, boards=boards, legend=False, title="", tooltips=False)
        ),
        "steps": steps_table(explain(tree, view)),
    }


#: The columns of the page's steps (:func:`steps_table`).
STEP_COLUMNS = ("kind", "node", "alpha", "beta", "value", "text", "beyond")


def steps_table(steps: list[Step]) -> dict[str, Any]:
    """The steps as the page reads them, compactly: a row of :data:`STEP_COLUMNS` per step
    (the numbers as the pictures write them; ``tree --steps`` prints the whole events)."""
    return {
        "columns": list(STEP_COLUMNS),
        "rows": [
            [s.event.kind, s.node, s.alpha, s.beta, s.value, s.text, s.beyond] for s in steps
        ],
    }


def quiz_answer(state: State, depth: int, textbook: bool, max_nodes: int) -> list[list[str]]:
    """The moves alpha-beta cuts off from ``state`` to ``depth`` (the quiz's answer): each as
    its moves from the root."""
    tree = build_tree(state, depth, "alphabeta", textbook=textbook, max_nodes=max_nodes)
    paths = tree.paths()
    return [list(paths[node.id]) for node in tree.walk() if node.kind == PRUNED]


def algorithm_counts(state: State, depth: int) -> list[dict[str, Any]]:
    """Nodes visited to ``depth`` by each algorithm, side by side (the library's own counts;
    each row is a tree the page can draw: ``algorithm``, ``table``, ``hints`` and
    ``textbook`` say which).

    Plain minimax and negamax are counted only when the minimax tree has at most
    :data:`COUNT_LIMIT` nodes (else their row says so)."""
    limits = Limits(depth=depth)
    rows: list[dict[str, Any]] = []
    try:
        build_tree(state, depth, "minimax", max_nodes=COUNT_LIMIT)
        small = True
    except TreeTooLargeError:
        small = False
    variants: list[tuple[str, str, dict[str, Any]]] = [
        ("minimax", "minimax (max/min)", {"table": False}),
        ("minimax", "minimax + table (memoization)", {"table": True}),
        ("negamax", "negamax", {"table": False}),
        ("alphabeta", "alpha-beta, as in the textbook", {"table": False, "textbook": True}),
        ("alphabeta", "alpha-beta", {"table": False, "hints": False}),
        ("alphabeta", "alpha-beta + table", {"table": True, "hints": False}),
        ("alphabeta", "alpha-beta + move hints", {"table": False}),
        ("alphabeta", "alpha-beta + hints + table (default)", {}),
    ]
    for algorithm, label, options in variants:
        row: dict[str, Any] = {
            "algorithm": label,
            "name": algorithm,
            "table": options.get("table", True),
            "hints": options.get("hints", algorithm == "alphabeta" and "textbook" not in options),
            "textbook": options.get("textbook", False),
        }
        if algorithm in ("minimax", "negamax") and not small:
            rows.append({**row, "nodes": None, "note": f"over {COUNT_LIMIT:,}"})
            continue
        if options.get("textbook"):
            found = textbook_alphabeta(state, depth)
            figures = {
                "nodes": found.nodes,
                "cutoffs": found.cutoffs,
                "table_hits": found.table_hits,
                "score": str(found.score),
            }
        else:
            result = Searcher(algorithm, **options).search(state, limits)
            figures = {
                "nodes": result.nodes,
                "cutoffs": result.cutoffs,
                "table_hits": result.table_hits,
                "score": str(result.score),
            }
        rows.append({**row, **figures})
    return rows


def growth_view(growth: Growth) -> dict[str, Any]:
    """Everything the page shows of a Monte Carlo or proof-number search's tree as it grows
    (:mod:`unbeatable.growth`): its nodes and steps as data, and its picture at the end."""
    return {
        "growth": growth_json(growth),
        "svg": str(growth_svg(growth)),
        "marks": {mark: [GROWTH_MARKS[mark], GROWTH_COLOURS[mark]] for mark in GROWTH_MARKS},
    }
