"""The search tree as the page draws it: :func:`unbeatable.tree.build_tree` as JSON, with the
alpha-beta window at each node as the engine searched it (the tree is recorded from the
engine's own events, windows included)."""

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


def windows(tree: SearchTree) -> dict[int, tuple[int, int]]:
    """The window ``(alpha, beta)`` each searched node of an alpha-beta tree was searched with,
    from the side to move's view at that node, by node id (the engine's own, from its
    events)."""
    return {
        node.id: (node.alpha, node.beta)
        for node in tree.walk()
        if node.kind != PRUNED and node.alpha is not None and node.beta is not None
    }


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
    found = windows(tree)

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
