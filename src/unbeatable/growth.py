"""How Monte Carlo tree search and proof-number search grow their trees, step by step, for
pictures (:func:`unbeatable.drawing.growth_svg`), the web page's tree view and
``unbeatable tree --algorithm mcts|pns``.

Neither algorithm is implemented a second time here: :func:`mcts_growth` runs
:class:`~unbeatable.search.mcts.MCTS` one simulation at a time (:meth:`~.MCTS.simulate` says
which nodes it walked and what the new leaf's playout gave), and :func:`pns_growth` runs
:class:`~unbeatable.search.pns.DFPN` with its observer, which tells every expansion, every
descent to the most-proving child and every return with the node's numbers. Each step lists the
nodes it changed with their new labels, so that a viewer can replay the search forwards and
backwards.

Labels. MCTS: ``w/n`` under a node is the reward won by the player who made its move (a win 1,
a draw 1/2) over its ``n`` visits; the root shows its visits. A node whose class MCTS-Solver
proved is marked ``won``, ``lost`` or ``drawn`` for the player who made its move. df-pn: every
node shows its proof and disproof numbers *for the root's question* ("does the side to move at
the root win?"), ``p/d``, with ``∞`` for infinity: at an OR node (the root's side to move) the
proof number is its children's least, at an AND node their sum. ``proved`` and ``disproved``
mark the settled ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .game import FIRST, Move, State, player_name
from .search import SearchOptions, policy
from .search.mcts import MCTS, TreeNode, outcome_class
from .search.pns import DFPN, INFINITE, WINS

__all__ = [
    "GROWTH_ALGORITHMS",
    "Growth",
    "GrowthNode",
    "GrowthStep",
    "grow_tree",
    "growth_json",
    "mcts_growth",
    "pns_growth",
]

#: The algorithms whose growth is recorded.
GROWTH_ALGORITHMS = ("mcts", "pns")

#: The most steps recorded (simulations for MCTS, events for df-pn).
MAX_STEPS = 2_000


@dataclass
class GrowthNode:
    """A node of a grown tree: its id (the order it appeared in; the root is 0), its parent's
    id, its moves from the root, its move in notation, whether the first player is to move
    there, and its label and mark at the end."""

    id: int
    parent: int | None
    path: tuple[str, ...]
    move: str | None
    first: bool
    label: str = ""
    mark: str = ""
    children: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class GrowthStep:
    """One step: its kind (``simulation``; ``expand``, ``descend``, ``leave``), the node it
    is about, the nodes it changed (id, new label, new mark), a text for people, and the
    numbers the stepper shows (for df-pn the node's thresholds; for MCTS the playout's result
    and the root's visits)."""

    kind: str
    node: int
    changes: tuple[tuple[int, str, str], ...]
    text: str
    figures: tuple[str, str, str] = ("", "", "")


@dataclass
class Growth:
    """A grown tree and its steps (see the module's docs)."""

    algorithm: str
    state: State
    nodes: list[GrowthNode]
    steps: list[GrowthStep]
    summary: str
    #: The captions of the stepper's three figures.
    figures: tuple[str, str, str]
    #: True when the tree reached ``max_nodes`` and the steps stop there.
    capped: bool = False

    def walk(self) -> list[GrowthNode]:
        return self.nodes


class _Builder:
    """Nodes by their path, appearing as a search reaches them."""

    def __init__(self, state: State, max_nodes: int) -> None:
        self.state = state
        self.max_nodes = max_nodes
        self.nodes: list[GrowthNode] = [
            GrowthNode(0, None, (), None, state.to_move == FIRST)
        ]
        self.by_path: dict[tuple[Move, ...], int] = {(): 0}
        self.states: dict[int, State] = {0: state}
        self.steps: list[GrowthStep] = []

    def node(self, path: tuple[Move, ...]) -> int:
        """The id of the node at ``path``, added (with the nodes above it) if new."""
        found = self.by_path.get(path)
        if found is not None:
            return found
        parent = self.node(path[:-1])
        before = self.states[parent]
        after = before.play(path[-1])
        ident = len(self.nodes)
        text = before.move_text(path[-1])
        self.nodes.append(
            GrowthNode(
                ident, parent, (*self.nodes[parent].path, text), text, after.to_move == FIRST
            )
        )
        self.nodes[parent].children.append(ident)
        self.by_path[path] = ident
        self.states[ident] = after
        return ident

    def full(self) -> bool:
        return len(self.nodes) >= self.max_nodes or len(self.steps) >= MAX_STEPS

    def add(self, step: GrowthStep) -> None:
        self.steps.append(step)
        for ident, label, mark in step.changes:
            self.nodes[ident].label, self.nodes[ident].mark = label, mark


def _reward_text(value: float) -> str:
    """A sum of rewards as people write it (halves for draws)."""
    exact = Fraction(value).limit_denominator(2)
    if exact.denominator == 1:
        return str(exact.numerator)
    whole = exact.numerator // 2
    return f"{whole or ''}½"


def _mcts_label(node: TreeNode, root: bool) -> tuple[str, str]:
    label = f"{node.visits}" if root else f"{_reward_text(node.total)}/{node.visits}"
    mark = ""
    if node.proven():
        value = outcome_class(node.lower)
        if not root:
            value = -value if not node.same else value  # to the player who moved here
        mark = {1: "won", 0: "drawn", -1: "lost"}[value]
    return label, mark


def _who(player: int) -> str:
    return f"the {player_name(player)} player"


def mcts_growth(
    state: State,
    simulations: int = 30,
    options: SearchOptions | None = None,
    *,
    max_nodes: int = 500,
) -> Growth:
    """Monte Carlo tree search of ``state``, one step a simulation, up to ``simulations`` of
    them (fewer when MCTS-Solver proves the root first, or the tree reaches ``max_nodes``)."""
    options = options or SearchOptions(algorithm="mcts")
    search = MCTS(state, options, options.rng or random.Random(0))
    build = _Builder(state, max_nodes)
    ids: dict[int, int] = {id(search.root): 0}  # the tree's nodes to ours
    for number in range(1, simulations + 1):
        if search.root.proven() or build.full():
            break
        path, reward = search.simulate()
        moves: list[Move] = []
        changed: list[tuple[int, str, str]] = []
        for index, tree_node in enumerate(path):
            if index:
                assert tree_node.move is not None
                moves.append(tree_node.move)
            ident = ids.get(id(tree_node))
            if ident is None:
                ident = ids[id(tree_node)] = build.node(tuple(moves))
            changed.append((ident, *_mcts_label(tree_node, index == 0)))
        leaf = path[-1]
        added = len(path) > 1 and leaf.visits == 1
        texts = [f"Simulation {number}:"]
        names = [build.nodes[i].move or "" for i, _, _ in changed[1:]]
        walked = names[:-1] if added else names
        if walked:
            texts.append(
                f"UCB1 walks down {' '.join(walked)} (each time the child with the best mean "
                "reward plus exploration bonus)."
            )
        else:
            texts.append("UCB1 stays at the root: one of its moves is not in the tree yet.")
        if added:
            texts.append(f"It adds {names[-1]}, a move not tried yet, to the tree.")
        outcome = leaf.state.outcome()
        winner = None
        if outcome is not None:
            winner = outcome.winner
            texts.append(
                "The game is over there: "
                + ("a draw." if winner is None else f"{_who(winner)} has won.")
            )
            result = "over"
        elif options.playout == "evaluation":
            texts.append(
                f"The game's evaluation scores it {reward:.2f} for {_who(leaf.state.to_move)}."
            )
            result = f"{reward:.2f}"
        else:
            winner = None if reward == 0.5 else (
                leaf.state.to_move if reward == 1.0 else 1 - leaf.state.to_move
            )
            texts.append(
                "A random playout from there ends "
                + ("in a draw." if winner is None else f"with {_who(winner)} winning.")
            )
            result = "draw" if winner is None else f"{player_name(winner)} wins"
        texts.append(
            "Back up: every node on the way gets one more visit, and the reward goes to the "
            "player who made its move (1 a win, ½ a draw)."
        )
        proven = [
            (build.nodes[i].move or "the root", mark) for i, _, mark in changed if mark
        ]
        if proven:
            move_text, mark = proven[0]
            if move_text == "the root":
                texts.append(f"MCTS-Solver has proven the root: its value is settled ({mark}).")
            else:
                texts.append(f"MCTS-Solver: {move_text} is proven {mark} for its mover.")
        root_label = changed[0][1]
        build.add(
            GrowthStep(
                "simulation", changed[-1][0], tuple(changed), " ".join(texts),
                (str(len(path) - 1), result, root_label),
            )
        )
    nodes = search.counters.nodes
    root = search.root
    best = max(root.children, key=lambda c: c.visits, default=None)
    summary = f"{nodes} simulation{'s' if nodes != 1 else ''}, {len(build.nodes)} nodes"
    if root.proven():
        summary += f"; the root is proven ({_mcts_label(root, True)[1] or 'settled'})"
    elif best is not None:
        summary += (
            f"; the most visited move is {state.move_text(best.move)} "
            f"({best.visits} visits, mean {best.mean:.2f})"
        )
    return Growth(
        "mcts", state, build.nodes, build.steps, summary, ("depth", "playout", "root visits"),
        build.full() and not root.proven(),
    )


def _numbers(proof: int, disproof: int) -> str:
    return f"{_limit(proof)}/{_limit(disproof)}"


def _pns_mark(proof: int, disproof: int) -> str:
    return "proved" if proof == 0 else "disproved" if disproof == 0 else ""


def pns_growth(
    state: State,
    expansions: int = 30,
    options: SearchOptions | None = None,
    *,
    max_nodes: int = 500,
) -> Growth:
    """df-pn of "does the side to move at ``state`` win?", one step an event (a node
    expanded, a descent to the most-proving child, a return with the node's numbers), up to
    ``expansions`` nodes expanded or until the tree reaches ``max_nodes``."""
    options = options or SearchOptions(algorithm="pns")
    search = DFPN(options, max_nodes=expansions)
    build = _Builder(state, max_nodes)
    root_mover = state.to_move

    def flipped(ident: int) -> bool:
        return build.states[ident].to_move != root_mover

    def seen(ident: int, proof: int, disproof: int) -> tuple[int, int]:
        """A node's own numbers as the root's question's."""
        return (disproof, proof) if flipped(ident) else (proof, disproof)

    def label(ident: int, proof: int, disproof: int) -> tuple[int, str, str]:
        proof, disproof = seen(ident, proof, disproof)
        return ident, _numbers(proof, disproof), _pns_mark(proof, disproof)

    class Full(Exception):
        pass

    def observe(kind: str, path: tuple[Move, ...], numbers: tuple[Any, ...]) -> None:
        if build.full():
            raise Full
        ident = build.node(path)
        moves_text = " ".join(build.nodes[ident].path)
        name = f"the node {moves_text}" if moves_text else "the root"
        kind_name = "an AND node" if flipped(ident) else "an OR node"
        if kind == "expand":
            proof_limit, disproof_limit, *listed = numbers
            changes = []
            for move, proof, disproof in listed:
                child = build.node((*path, move))
                # the numbers come seen from the node (its question's): as the root's
                root_proof, root_disproof = seen(ident, proof, disproof)
                changes.append(
                    (child, _numbers(root_proof, root_disproof),
                     _pns_mark(root_proof, root_disproof))
                )
            rule = (
                "its proof number is the least of its children's, its disproof number their sum"
                if not flipped(ident)
                else "its disproof number is the least of its children's, its proof number "
                "their sum"
            )
            text = (
                f"Expand {name} ({kind_name}): {len(listed)} "
                f"{'children get their' if len(listed) != 1 else 'child gets its'} first "
                "numbers (1/1, or "
                f"settled at once: a win there, or two threats against it); {rule}."
            )
            limits = seen(ident, proof_limit, disproof_limit)
            build.add(
                GrowthStep(
                    kind, ident, tuple(changes), text, (_limit(limits[0]), _limit(limits[1]), "")
                )
            )
        elif kind == "descend":
            move, proof_limit, disproof_limit, proof, disproof = numbers
            child = build.node((*path, move))
            shown = seen(ident, proof_limit, disproof_limit)
            now = label(ident, proof, disproof)
            text = (
                f"{name[0].upper()}{name[1:]} stands at {now[1]} (proof/disproof). Go down to "
                f"{build.nodes[child].move}, its most-proving child, with thresholds "
                f"{_limit(shown[0])} (proof) and {_limit(shown[1])} (disproof): df-pn stays "
                "below until one of its numbers reaches them."
            )
            build.add(
                GrowthStep(
                    kind, child, (now,), text, (_limit(shown[0]), _limit(shown[1]), now[1])
                )
            )
        else:
            proof, disproof, why = numbers
            step_label = label(ident, proof, disproof)
            reason = {
                "threshold": "a number reached its threshold: back up to the parent",
                "proved": "settled",
                "wins at once": "the side to move wins at once",
                "table": "the table already holds numbers that reach a threshold (a "
                "position met before, by another order of moves, or on an earlier visit)",
            }[why]
            text = f"Back up from {name} with {step_label[1]} (proof/disproof): {reason}."
            build.add(GrowthStep(kind, ident, (step_label,), text, ("", "", step_label[1])))

    search.observer = observe
    answer: bool | None = None
    try:
        answer = search.prove(state, WINS)
    except Full:
        answer = None
    root = build.nodes[0]
    who = _who(root_mover)
    if answer is None:
        summary = (
            f"Does {who} win? Not settled after {search.counters.nodes} expansions "
            f"(root {root.label or '1/1'})"
        )
    else:
        summary = f"Does {who} win? {'Yes: proved' if answer else 'No: disproved'}"
        if not answer and state.has_draws:
            summary += " (it may still draw: that is a second question)"
        summary += f" after {search.counters.nodes} expansions"
    summary += f", {len(build.nodes)} nodes"
    return Growth(
        "pns", state, build.nodes, build.steps, summary,
        ("proof threshold", "disproof threshold", "numbers"), answer is None and build.full(),
    )


def _limit(number: int) -> str:
    """A number or threshold as people read it: infinity (or what is left of it after a
    subtraction, df-pn's thresholds) as ∞."""
    return "∞" if number >= INFINITE // 2 else str(number)


def grow_tree(
    state: State, algorithm: str, budget: int = 30, *, max_nodes: int = 500,
    options: SearchOptions | None = None,
) -> Growth:
    """:func:`mcts_growth` or :func:`pns_growth` by name (refused, as a search would be, on a
    game of chance or of more than two players: :func:`.search.policy.check_algorithm`)."""
    if algorithm in GROWTH_ALGORITHMS:
        policy.check_algorithm(state, algorithm)
    if algorithm == "mcts":
        return mcts_growth(state, budget, options, max_nodes=max_nodes)
    if algorithm == "pns":
        return pns_growth(state, budget, options, max_nodes=max_nodes)
    raise ValueError(f"no growth view for {algorithm!r}: choose {' or '.join(GROWTH_ALGORITHMS)}")


def growth_json(growth: Growth) -> dict[str, Any]:
    """The grown tree as plain data: its nodes (id, parent, path, move, first, label, mark)
    and its steps (kind, node, changes, text, figures)."""
    return {
        "algorithm": growth.algorithm,
        "summary": growth.summary,
        "capped": growth.capped,
        "figures": list(growth.figures),
        "nodes": [
            {
                "id": n.id, "parent": n.parent, "path": list(n.path), "move": n.move,
                "first": n.first, "label": n.label, "mark": n.mark,
            }
            for n in growth.nodes
        ],
        "steps": [
            {
                "kind": s.kind, "node": s.node, "changes": [list(c) for c in s.changes],
                "text": s.text, "figures": list(s.figures),
            }
            for s in growth.steps
        ],
    }
