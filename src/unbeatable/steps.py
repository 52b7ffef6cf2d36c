"""What each step of a recorded search did, in words and in the pictures' small numbers.

:func:`explain` reads a :class:`~unbeatable.tree.SearchTree`'s events (the engine's own, see
:mod:`unbeatable.search.events`) and says for each one what happened: the node entered with its
window, the value coming back up and why it is what it is, each cut and the reason for it, a
table hit. Nothing here searches or decides: the numbers are the events', written as
:func:`unbeatable.tree.format_value` writes them; the words name what the textbook calls them
and mark what goes beyond the textbook (the root's window that finds every best move,
mate-distance cuts, move hints, null-move pruning) where it appears.

``unbeatable tree --steps`` prints these steps as JSON lines, the web page steps through them,
and a notebook can print them: the same search, shown the same way everywhere.

Views: ``first`` shows every value and window from the first player's view (max/min form, the
textbook's minimax and alpha-beta: max takes the largest value, min the smallest); ``mover``
from the side to move's view at each node (negamax: every node takes the largest of its
children's values negated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import FIRST, Move
from .search import events as ev
from .search.events import EVENT_FIELDS, PASS, SearchEvent
from .search.score import INFINITY
from .search.table import Bound
from .tree import (
    EXACT,
    LOWER,
    PRUNED,
    UPPER,
    SearchTree,
    TreeNode,
    event_bound,
    format_value,
    value_words,
)

__all__ = ["BEYOND", "EXPLAINED_FIELDS", "VIEWS", "Step", "default_view", "explain", "step_json"]

#: The fields of a step as ``unbeatable tree --steps`` prints it: the event's six, then the
#: words and the numbers as the pictures write them.
EXPLAINED_FIELDS = (*EVENT_FIELDS, "text", "shown")

#: The views a value can be shown from (see the module's docstring).
VIEWS = ("first", "mover")

#: What goes beyond the textbook, by the name a step gives it in ``beyond``.
BEYOND = {
    "every-best-move": "the root's window stops one short of the best value so far, so that a "
    "move just as good is not cut off: the search finds every best move, not only the first",
    "mate-distance": "mate-distance pruning: a node whose window no result can change (even a "
    "win on the next move would not) is not searched",
    "win-at-once": "move hints: the game spots a move that wins at once, so the node's other "
    "moves are not searched",
    "null-move": "null-move pruning: when even a pass keeps a node at or above beta, its "
    "moves are not searched",
    "quiescence": "quiescence search: at the depth limit the captures are followed until the "
    "position is quiet",
}


@dataclass(frozen=True)
class Step:
    """One event of the search, explained.

    ``event`` is the engine's own; ``node`` the id of the tree node it is about (-1 for a node
    searched again and replaced); ``path`` the moves from the root in the game's notation
    (``pass`` for a null move); ``alpha``, ``beta`` and ``value`` the event's numbers as the
    pictures write them, in ``view`` (None where the event has none); ``bound``: ``exact``,
    ``lower`` (the value is at least ``value``) or ``upper``; ``text`` says what happened, for
    people; ``beyond`` names what goes beyond the textbook here (a key of :data:`BEYOND`), if
    anything.
    """

    event: SearchEvent
    node: int
    path: tuple[str, ...]
    alpha: str | None
    beta: str | None
    value: str | None
    bound: str | None
    text: str
    beyond: str | None = None


def default_view(algorithm: str) -> str:
    """Negamax is shown from the side to move's view; minimax and alpha-beta from max's."""
    return "mover" if algorithm == "negamax" else "first"


def _player(node: TreeNode) -> str:
    return "MAX" if node.state.to_move == FIRST else "MIN"


def _other(node: TreeNode) -> str:
    return "MIN" if node.state.to_move == FIRST else "MAX"


def _worded(shown: str) -> str:
    """A shown value for a sentence: ``≥ +3`` reads ``at least +3``."""
    return shown.replace("≥ ", "at least ").replace("≤ ", "at most ")


def _where(path: tuple[str, ...]) -> str:
    return "the root" if not path else "after " + " ".join(path)


class _Explainer:
    """Turns events into steps for one tree and one view."""

    def __init__(self, tree: SearchTree, view: str) -> None:
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r}: choose one of {', '.join(VIEWS)}")
        self.tree = tree
        self.view = view
        self.scale = tree.scale
        self.minimax = tree.algorithm == "minimax"
        self.alphabeta = tree.algorithm == "alphabeta"
        self.nodes = tree.nodes_by_id()
        self.parent: dict[int, TreeNode] = {}
        for node in tree.walk():
            for child in node.children:
                self.parent[child.id] = node
        self.root_best: int | None = None  # the root's best value so far, its mover's view

    # --- numbers --------------------------------------------------------------------------

    def own(self, value: int, node: TreeNode) -> int:
        """An event's value at ``node`` as the engine has it, turned to the side to move's
        view (minimax values are the first player's)."""
        if self.minimax and node.state.to_move != FIRST:
            return -value
        return value

    def shown(self, value: int, node: TreeNode) -> int:
        """A side-to-move value at ``node`` in this view."""
        if self.view == "first" and node.state.to_move != FIRST:
            return -value
        return value

    def window(self, alpha: int, beta: int, node: TreeNode) -> tuple[int, int]:
        """A side-to-move window at ``node`` in this view."""
        if self.view == "first" and node.state.to_move != FIRST:
            return -beta, -alpha
        return alpha, beta

    def text(self, value: int, bound: Bound = EXACT) -> str:
        return format_value(value, bound, self.scale)

    def bound_in_view(self, bound: Bound, node: TreeNode) -> Bound:
        if self.view == "first" and node.state.to_move != FIRST:
            return bound.flipped
        return bound

    # --- steps ----------------------------------------------------------------------------

    def step(self, event: SearchEvent, node_id: int) -> Step:
        node = self.nodes.get(node_id)
        path = self.path_text(event.path)
        if node is None:  # a subtree searched again: its first search is not drawn
            return Step(event, -1, path, None, None, None, None, self.replaced(event, path))
        if event.kind == ev.CUT:
            return self.cut(event, node, path)
        alpha = beta = None
        if event.alpha is not None and event.beta is not None:
            low, high = self.window(event.alpha, event.beta, node)
            alpha, beta = self.text(low), self.text(high)
        if event.kind == ev.ENTER:
            text, beyond = self.enter(event, node, path, alpha, beta)
            return Step(event, node.id, path, alpha, beta, None, None, text, beyond)
        assert event.value is not None
        value = self.shown(self.own(event.value, node), node)
        bound = self.bound(event, node)
        if event.kind == ev.HIT:
            text = self.hit(event, node, path, value, bound)
            return Step(
                event, node.id, path, alpha, beta, self.text(value, bound), str(bound), text
            )
        text, beyond = self.valued(event, node, path, value, bound, (alpha, beta))
        return Step(
            event, node.id, path, alpha, beta, self.text(value, bound), str(bound), text, beyond
        )

    def path_text(self, path: tuple[Move, ...]) -> tuple[str, ...]:
        state = self.tree.root.state
        texts = []
        for move in path:
            if move is PASS:
                texts.append("pass")
                passed = state.null_move()
                if passed is None:
                    break
                state = passed
            else:
                texts.append(state.move_text(move))
                state = state.play(move)
        return tuple(texts)

    def replaced(self, event: SearchEvent, path: tuple[str, ...]) -> str:
        return (
            f"{event.kind} {_where(path)}: a search that was done again with a wider window "
            "(only the second search is drawn)"
        )

    def bound(self, event: SearchEvent, node: TreeNode) -> Bound:
        """The bound of an event's value in this view (:func:`~unbeatable.tree.event_bound`)."""
        return self.bound_in_view(event_bound(event), node)

    def enter(
        self,
        event: SearchEvent,
        node: TreeNode,
        path: tuple[str, ...],
        alpha: str | None,
        beta: str | None,
    ) -> tuple[str, str | None]:
        who = _player(node)
        if alpha is None:
            return f"Enter {_where(path)}: {who} to move.", None
        seen = "" if self.view == "first" else f" (from {who}'s view)"
        text = f"Enter {_where(path)}: {who} to move, α = {alpha}, β = {beta}{seen}."
        if event.reason == ev.PASS_SEARCH:
            return (
                text + " Beyond the textbook (null-move pruning): this is the position after "
                "a pass, searched with a null window to see whether the node stays at or "
                "above beta without a move.",
                "null-move",
            )
        if (
            len(event.path) == 1
            and self.alphabeta
            and not self.tree.textbook
            and self.root_best is not None
            and event.alpha is not None
            and event.beta is not None
        ):
            root = self.tree.root
            same = node.state.to_move == root.state.to_move
            raised = event.alpha if same else -event.beta  # the root's alpha for this move
            if raised == self.root_best - 1:
                best = self.text(self.shown(self.root_best, root))
                short = self.text(self.shown(raised, root))
                return (
                    text + f" Beyond the textbook: the root's α stays at {short}, one short of "
                    f"the best so far ({best}), so that a move just as good is not cut off: "
                    "the search finds every best move (the textbook raises α to the best "
                    "value and finds only the first).",
                    "every-best-move",
                )
        return text, None

    def hit(
        self, event: SearchEvent, node: TreeNode, path: tuple[str, ...], value: int, bound: Bound
    ) -> str:
        shown = self.text(value, bound)
        if not self.alphabeta:
            return (
                f"Memoization: {_where(path)} was met before (by another order of the same "
                f"moves, or a mirror image): its value {shown} comes from the table."
            )
        kind = {EXACT: "its exact value", LOWER: "a lower bound", UPPER: "an upper bound"}
        return (
            f"The table knows {_where(path)} from an earlier search of the same position: "
            f"{kind[bound]}, {shown}, which is enough for this window: no move is searched."
        )

    def cut(self, event: SearchEvent, pruned: TreeNode, path: tuple[str, ...]) -> Step:
        parent = self.parent[pruned.id]
        move = path[-1] if path else "?"
        where = _where(path[:-1])
        assert event.value is not None and event.alpha is not None and event.beta is not None
        low, high = self.window(event.alpha, event.beta, parent)
        alpha, beta = self.text(low), self.text(high)
        value = self.shown(event.value, parent)
        if event.reason == ev.MATE_DISTANCE:
            text = (
                f"Beyond the textbook (mate-distance pruning): {move} is not searched: no "
                f"result {where} can change the window [α, β] = [{alpha}, {beta}], since even "
                f"a win on the next move would be worth only {self.text(value)}."
            )
            return Step(
                event,
                pruned.id,
                path,
                alpha,
                beta,
                self.text(value),
                str(EXACT),
                text,
                "mate-distance",
            )
        who, other = _player(parent), _other(parent)
        if self.view == "mover":
            text = (
                f"Cut-off, α ≥ β ({self.text(value)} ≥ {beta}): {who} already has "
                f"{self.text(value)} {where}, at least the {beta} that {other} can hold it to "
                f"at the left (β), so {other} will never let the game come here: {who}'s "
                f"move {move} cannot matter and is not searched."
            )
        elif parent.state.to_move == FIRST:
            text = (
                f"β ≤ α ({beta} ≤ {self.text(value)}): {other} already has {beta} at the left, "
                f"and {who} has {self.text(value)} {where}, so {other} will never let the game "
                f"come here: {who}'s move {move} cannot matter and is not searched (a β "
                "cut-off)."
            )
        else:
            text = (
                f"β ≤ α ({self.text(value)} ≤ {alpha}): {other} already has {alpha} at the "
                f"left, and {who} has {self.text(value)} {where}, so {other} will never let the "
                f"game come here: {who}'s move {move} cannot matter and is not searched (an α "
                "cut-off)."
            )
        return Step(event, pruned.id, path, alpha, beta, self.text(value), str(EXACT), text)

    def valued(
        self,
        event: SearchEvent,
        node: TreeNode,
        path: tuple[str, ...],
        value: int,
        bound: Bound,
        window: tuple[str | None, str | None],
    ) -> tuple[str, str | None]:
        shown = _worded(self.text(value, bound))
        where = _where(path)
        where_cap = "The root" if not path else "The position " + where
        reason = event.reason
        own = self.own(event.value or 0, node)
        if len(event.path) == 1 and self.alphabeta:
            parent_value = own if node.state.to_move == self.tree.root.state.to_move else -own
            if self.root_best is None or parent_value > self.root_best:
                self.root_best = parent_value
        if reason == ev.TERMINAL:
            outcome = node.state.outcome()
            numeric = self.tree.numeric
            words = value_words(self.shown(own, node), self.scale, self.view, numeric=numeric)
            if numeric:
                return f"{where_cap} is a leaf: {words} ({shown}).", None
            return f"{where_cap} ends the game ({outcome}): {shown}, {words}.", None
        if reason == ev.HORIZON:
            return (
                f"{where_cap} is at the depth limit: the game's evaluation says {shown}.",
                None,
            )
        if reason == ev.QUIESCENCE:
            return (
                f"{where_cap} is at the depth limit: the evaluation after quiescence search "
                f"says {shown}. Beyond the textbook: {BEYOND['quiescence']}.",
                "quiescence",
            )
        if reason == ev.MATE_DISTANCE:
            who, other = _player(node), _other(node)
            low, high = event.alpha, event.beta
            assert low is not None and high is not None
            if own >= high:  # even losing on the next move is more than the other side allows
                limit = self.text(self.shown(high, node))
                why = (
                    f"the worst {who} can do here is to lose on the next move, and that is "
                    f"already better for {who} than what {other} has at the left ({limit}): "
                    f"{other} will not come here"
                )
            else:
                limit = self.text(self.shown(low, node))
                why = (
                    f"the best {who} can do here is to win on the next move, and that is no "
                    f"better than what {who} already has at the left ({limit}): {who} will go "
                    "elsewhere"
                )
            return (
                f"Beyond the textbook (mate-distance pruning): the {where_cap[4:]} is worth "
                f"{shown} "
                f"without a move searched: {why}.",
                "mate-distance",
            )
        if reason == ev.TABLE:
            return f"{where_cap} takes its value {shown} from the table.", None
        if reason == ev.WIN_AT_ONCE:
            win = node.win
            named = f" with {node.state.move_text(win)}" if win is not None else ""
            return (
                f"Beyond the textbook (move hints): {_player(node)} wins at once {where}"
                f"{named}: {shown}, and no other move is searched.",
                "win-at-once",
            )
        if reason == ev.NULL_MOVE:
            return (
                f"Beyond the textbook (null-move pruning): even after a pass {where} stays at "
                f"or above β: {shown}, and no move is searched.",
                "null-move",
            )
        return self.searched(node, where_cap, shown, bound, window), None

    def searched(
        self,
        node: TreeNode,
        where_cap: str,
        shown: str,
        bound: Bound,
        window: tuple[str | None, str | None],
    ) -> str:
        who, other = _player(node), _other(node)
        best = node.children[node.best] if node.best is not None else None
        named = f" (move {best.move_text})" if best is not None and best.kind != PRUNED else ""
        if self.minimax:
            pick = "largest" if node.state.to_move == FIRST else "smallest"
            return (
                f"{where_cap} is worth {shown}: {who} takes the {pick} of its children's "
                f"values{named}."
            )
        if self.tree.algorithm == "negamax" and self.view == "mover":
            parts = []
            for child in node.children:
                if child.value is None:
                    continue
                mine = child.value if child.state.to_move == FIRST else -child.value
                flip = child.state.to_move != node.state.to_move
                number = format_value(mine, EXACT, self.scale)
                parts.append(f"-({number})" if flip else number)
            listed = f": max({', '.join(parts)})" if 0 < len(parts) <= 9 else ""
            return (
                f"{where_cap} is worth {shown} for {who}: the largest of its children's values, "
                f"each negated where the other player moves (a child's value is from its own "
                f"side to move's view){listed}{named}."
            )
        if bound == EXACT:
            return f"{where_cap} is worth {shown}: {who}'s best{named}."
        cutoff = (bound == LOWER) == (node.state.to_move == FIRST or self.view == "mover")
        if cutoff:
            return (
                f"{where_cap} is worth {shown}: a cut-off stopped its search, since {other} "
                "will not come here; its exact value does not matter."
            )
        end = "β" if self.view == "first" and node.state.to_move != FIRST else "α"
        has = window[1] if end == "β" else window[0]
        return (
            f"{where_cap} is worth {shown}: none of {who}'s moves does better than what {who} "
            f"already has at the left ({end} = {has}), so {who} will go elsewhere; its exact "
            "value does not matter (the search failed low)."
        )


def explain(tree: SearchTree, view: str | None = None) -> list[Step]:
    """Every event of ``tree``'s search, explained (see :class:`Step`). ``view``: ``first``
    or ``mover`` (default: :func:`default_view` of the tree's algorithm)."""
    explainer = _Explainer(tree, view or default_view(tree.algorithm))
    steps = []
    for event, node in zip(tree.events, tree.event_nodes, strict=True):
        steps.append(explainer.step(event, node))
    _name_root(tree, steps, explainer)
    return steps


def _name_root(tree: SearchTree, steps: list[Step], explainer: _Explainer) -> None:
    """The last step (the root's value) says what the value means and which move is best."""
    if not steps or steps[-1].event.kind != ev.VALUE or steps[-1].event.path:
        return
    last = steps[-1]
    root = tree.root
    if root.value is None:
        return
    flip = explainer.view == "mover" and root.state.to_move != FIRST
    value = -root.value if flip else root.value
    best = " ".join(root.state.move_text(m) for m in tree.best_moves[:1])
    words = value_words(value, tree.scale, explainer.view, numeric=tree.numeric)
    text = (
        f"The root is worth {format_value(value, EXACT, tree.scale)} ({words}); the search "
        f"plays {best}. {tree.nodes} nodes searched"
        + (f", {tree.pruned} moves cut off." if tree.algorithm == "alphabeta" else ".")
    )
    steps[-1] = Step(
        last.event,
        last.node,
        last.path,
        last.alpha,
        last.beta,
        last.value,
        last.bound,
        text,
        last.beyond,
    )


def step_json(step: Step, *, node: bool = False) -> dict[str, Any]:
    """A step as ``unbeatable tree --steps`` prints it: the event's six fields (``path`` in
    the game's notation, the engine's own integers), ``text``, ``shown`` (the numbers as the
    pictures write them: ``alpha``, ``beta``, ``value`` and its ``bound``) and, where the step
    goes beyond the textbook, ``beyond``; with ``node``, also the id of its tree node (the
    page's)."""
    event = step.event
    data: dict[str, Any] = {
        "kind": event.kind,
        "path": list(step.path),
        "alpha": _integer(event.alpha),
        "beta": _integer(event.beta),
        "value": event.value,
        "reason": event.reason,
        "text": step.text,
        "shown": {
            "alpha": step.alpha,
            "beta": step.beta,
            "value": step.value,
            "bound": step.bound,
        },
    }
    if step.beyond is not None:
        data["beyond"] = step.beyond
    if node:
        data["node"] = step.node
    return data


def _integer(value: int | None) -> int | None:
    """A window's end as it is (the engine's ±INFINITY included)."""
    if value is None:
        return None
    return max(-INFINITY, min(INFINITY, value))
