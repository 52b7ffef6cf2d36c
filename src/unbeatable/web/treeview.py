"""The search tree as the page draws it: :func:`unbeatable.tree.build_tree` as JSON, with the
alpha-beta window at each node.

The library's :class:`~unbeatable.tree.TreeNode` keeps each node's value and bound but not the
window it was searched with; :func:`windows` rebuilds the windows from the recorded values,
following :func:`~unbeatable.tree.build_tree`'s alpha-beta step by step (the root's window one
below the best value so far, then ``(-beta, -alpha)`` for each child, alpha raised by each
child's value). It belongs in the library (a ``window`` on each tree node); until then it lives
here, and a test checks it against the recorded bounds.
"""

from __future__ import annotations

from typing import Any

from ..game import FIRST, State
from ..search import Limits, Searcher
from ..search.score import INFINITY
from ..tree import (
    PRUNED,
    TERMINAL,
    SearchTree,
    TreeNode,
    TreeTooLargeError,
    build_tree,
    format_value,
)

__all__ = ["algorithm_counts", "tree_json", "windows"]

#: The largest minimax tree counted for the side-by-side figures.
COUNT_LIMIT = 20_000


def _negamax(node: TreeNode) -> int:
    """A node's value from its own side to move's view (the tree stores the first player's)."""
    assert node.value is not None
    return node.value if node.state.to_move == FIRST else -node.value


def windows(tree: SearchTree) -> dict[int, tuple[int, int]]:
    """The window ``(alpha, beta)`` each searched node of an alpha-beta tree was searched with,
    from the side to move's view at that node, by node id."""
    found: dict[int, tuple[int, int]] = {tree.root.id: (-INFINITY, INFINITY)}

    def visit(node: TreeNode, alpha: int, beta: int) -> None:
        found[node.id] = (alpha, beta)
        best = -INFINITY
        for child in node.children:
            if child.kind == PRUNED:
                continue
            visit(child, -beta, -alpha)
            value = -_negamax(child)
            if value > best:
                best = value
                alpha = max(alpha, value)

    best = -INFINITY
    for child in tree.root.children:
        alpha = -INFINITY if best == -INFINITY else best - 1
        visit(child, -INFINITY, -alpha)
        best = max(best, -_negamax(child))
    return found


def _bound_text(value: int) -> str:
    if value >= INFINITY:
        return "+∞"
    if value <= -INFINITY:
        return "−∞"
    return format_value(value).replace("\n", ", ")


def _first_view(window: tuple[int, int], state: State) -> tuple[int, int]:
    """A side-to-move window as the first player (max) sees it."""
    alpha, beta = window
    return (alpha, beta) if state.to_move == FIRST else (-beta, -alpha)


def tree_json(tree: SearchTree) -> dict[str, Any]:
    """The tree as nested JSON: each node's move (and its ``label`` where people read moves
    otherwise: SAN in chess), kind, value label (first player's view), whether max or min is to
    move, alpha and beta (alpha-beta trees), and its children."""
    found = windows(tree) if tree.algorithm == "alphabeta" else {}

    def node_json(node: TreeNode, parent: State | None = None) -> dict[str, Any]:
        label = "pruned" if node.kind == PRUNED else format_value(node.value, node.bound)
        if node.kind == TERMINAL and node.value == 0:
            label = "draw"
        data: dict[str, Any] = {
            "id": node.id,
            "move": node.move_text,
            "kind": node.kind,
            "value": label.replace("\n", ", "),
            "bound": str(node.bound),
            "max": node.maximising,
            "pv": node.on_pv,
            "note": node.note,
        }
        if node.id in found:
            alpha, beta = _first_view(found[node.id], node.state)
            data["alpha"], data["beta"] = _bound_text(alpha), _bound_text(beta)
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
        "nodes": tree.nodes,
        "pruned": tree.pruned,
        "cutoffs": tree.cutoffs,
        "score": str(tree.score),
        "root": node_json(tree.root),
    }


def algorithm_counts(state: State, depth: int) -> list[dict[str, Any]]:
    """Nodes visited to ``depth`` by each algorithm, side by side (the library's own counts).

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
        ("minimax", "minimax (max/min)", {}),
        ("negamax", "negamax", {}),
        ("alphabeta", "alpha-beta", {"table": False, "hints": False}),
        ("alphabeta", "alpha-beta + move hints", {"table": False}),
        ("alphabeta", "alpha-beta + hints + table (default)", {}),
    ]
    for algorithm, label, options in variants:
        if algorithm in ("minimax", "negamax") and not small:
            rows.append({"algorithm": label, "nodes": None, "note": f"over {COUNT_LIMIT:,}"})
            continue
        result = Searcher(algorithm, **options).search(state, limits)
        rows.append(
            {
                "algorithm": label,
                "nodes": result.nodes,
                "cutoffs": result.cutoffs,
                "table_hits": result.table_hits,
                "score": str(result.score),
            }
        )
    return rows
