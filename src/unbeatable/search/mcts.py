"""Monte Carlo tree search: UCT with MCTS-Solver, for any game of the protocol.

Every simulation walks from the root to a leaf choosing, at each node, the child with the best
UCB1 value (Kocsis and Szepesvári's UCT: the child's mean reward plus ``c * sqrt(ln N / n)``,
rewards in [0, 1] to the side that moved: a win 1, a draw 1/2, a loss 0), adds one child of
the leaf to the tree, values it with a random playout to the end of the game
(:meth:`~unbeatable.game.State.random_outcome`) or the game's evaluation through a logistic
curve (``playout="evaluation"``), and adds the reward to every node on the way back.

**MCTS-Solver.** Every node also keeps proven bounds of its value on the engine's scale (a win
``d`` plies away is ``WIN - d``, a draw 0): a finished game has its exact value, an unexpanded
move the widest bounds, and a node's bounds are the best of its children's (Winands et al.'s
MCTS-Solver, with Cazenave and Saffidine's score bounds so that draws are proven too). A child
that can no longer raise its parent's proven class (loss, draw, win) is never chosen again.
The search ends when the root's class is proven: a result is then exact, with the distance's
bounds when the search did not pin it down (``score_bounds``).

Limits: ``nodes`` counts simulations; ``time`` is honoured between simulations (one costs a
playout); a ``depth`` limit is refused (a tree search has none). With no limit the search runs
until the root's class is proven or the tree holds ``table_size`` nodes (default
:data:`DEFAULT_TREE_NODES`). The result's move is the proven best, else the most visited of
the moves not proven worse (the robust child); its score is the mean reward as a heuristic
value, ``1000 * (2 * mean - 1)``. ``move_stats`` gives every root move's visits and mean.

Randomness comes from ``options.rng`` when given (a seeded :class:`random.Random` makes the
search reproducible; its state advances), else from a generator seeded 0 for every search: the
same search twice gives the same result. The parallel searcher runs one tree per worker (root
parallelism) with seeds drawn from the same source, and adds their statistics
(:func:`merge`).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..game import Move, Outcome, Payoff, State
from .options import Limits, SearchOptions
from .result import MoveStats, SearchInterrupted, SearchResult, build_result
from .score import WIN, WIN_MIN, Score

__all__ = [
    "DEFAULT_TREE_NODES",
    "MCTS",
    "TreeNode",
    "grow",
    "merge",
    "outcome_class",
    "run",
]

#: The most nodes a tree holds when no ``table_size`` is given (about 400 bytes each).
DEFAULT_TREE_NODES = 200_000

#: Results are yielded after this many simulations, then every time their number doubles.
FIRST_REPORT = 256

#: The widest bounds of a move's value, from the side that plays it (a loss or a win at once).
_LOWEST, _HIGHEST = -(WIN - 1), WIN - 1


def outcome_class(value: int) -> int:
    """-1, 0 or 1: a value's class, a loss, a draw (or a heuristic value) or a win."""
    return 1 if value >= WIN_MIN else -1 if value <= -WIN_MIN else 0


def _proven_class(lower: int, upper: int) -> bool:
    """Whether bounds settle a class: a win, a loss or a draw (bounds are proven values, a
    draw's 0 the only one between the losses and the wins)."""
    return outcome_class(lower) == outcome_class(upper)


def _shift(value: int) -> int:
    """A value one ply further from a win or a loss (a child's, seen from its parent)."""
    if value >= WIN_MIN:
        return value - 1
    if value <= -WIN_MIN:
        return value + 1
    return value


class TreeNode:
    """A node of the tree: the position, how it was reached, its children and statistics.

    ``visits`` and ``total``: the simulations through it and their summed reward to the side
    that moved into it (its parent's side to move); ``lower`` and ``upper``: proven bounds of
    its value to its own side to move.
    """

    __slots__ = (
        "children", "lower", "move", "same", "state", "to_move", "total", "untried", "upper",
        "visits",
    )

    def __init__(self, state: State, move: Move | None, parent_to_move: int | None) -> None:
        self.state = state
        self.move = move
        self.to_move = state.to_move
        #: the same side moves here as at the parent (an extra turn): values keep their sign
        self.same = parent_to_move == self.to_move
        self.children: list[TreeNode] = []
        self.untried: list[Move] | None = None  # the moves not yet added, once listed
        self.visits = 0
        self.total = 0.0
        self.lower, self.upper = -WIN, WIN

    def seen_from_parent(self) -> tuple[int, int]:
        """This node's bounds to its parent's side to move, one ply further."""
        if self.same:
            return _shift(self.lower), _shift(self.upper)
        return _shift(-self.upper), _shift(-self.lower)

    @property
    def mean(self) -> float:
        """The mean reward to the side that moved into this node (1/2 before any visit)."""
        return self.total / self.visits if self.visits else 0.5

    def proven(self) -> bool:
        """Whether this node's class (win, draw, loss) is proven."""
        return _proven_class(self.lower, self.upper)

    def export(self, max_depth: int | None = None, min_visits: int = 1) -> dict[str, Any]:
        """This node and its subtree as plain data (for pictures and the page): the move in
        notation (None at the root), visits, mean reward to the side that moved here, the
        proven bounds, and the children with at least ``min_visits`` visits, most visited
        first, down to ``max_depth`` plies."""
        data: dict[str, Any] = {
            "visits": self.visits,
            "mean": round(self.mean, 6),
            "lower": self.lower,
            "upper": self.upper,
            "proven": self.proven(),
            "children": [],
        }
        if max_depth is None or max_depth > 0:
            below = None if max_depth is None else max_depth - 1
            for child in sorted(self.children, key=lambda c: -c.visits):
                if child.visits >= min_visits:
                    item = child.export(below, min_visits)
                    item["move"] = self.state.move_text(child.move)
                    data["children"].append(item)
        return data


@dataclass
class _Counters:
    """The counters a result reports (see :class:`~.result.Counters`)."""

    nodes: int = 0
    hits: int = 0
    cutoffs: int = 0
    horizon: int = 0
    seldepth: int = 0


@dataclass
class MCTS:
    """One Monte Carlo tree search of ``state`` with ``options`` (see the module's docs):
    :meth:`run` grows the tree and yields results; :attr:`root` is the tree."""

    state: State
    options: SearchOptions
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    root: TreeNode = field(init=False)
    size: int = field(init=False, default=1)
    counters: _Counters = field(init=False, default_factory=_Counters)
    scale: float = field(init=False, default=1.0)  # the evaluations' mean size, so far

    def __post_init__(self) -> None:
        if self.state.numeric_outcomes:
            raise ValueError(
                "mcts needs a game that ends in a win, a draw or a loss (this one ends with "
                "payoffs)"
            )
        self.root = TreeNode(self.state, None, None)
        self._settle(self.root)
        self.capacity = self.options.table_size or DEFAULT_TREE_NODES
        evaluate = self.options.evaluate
        self._evaluate = evaluate if evaluate is not None else (lambda s: s.evaluate())
        self._evaluations = 0.0

    # --- one simulation -----------------------------------------------------------------

    def simulate(self) -> tuple[list[TreeNode], float]:
        """Walk down by UCB1, add a child, value it, and back the reward up. The nodes walked
        (the root first, the new child last when one was added) and the reward the leaf got,
        to its own side to move (for pictures of the search: :mod:`unbeatable.growth`)."""
        node = self.root
        path = [node]
        while node.untried is not None and not node.untried and node.children:
            node = self._select(node)
            path.append(node)
        if node.state.outcome() is None and self.size < self.capacity:
            if node.untried is None:
                node.untried = list(node.state.legal_moves())
            untried = node.untried
            if untried:  # a random one of the moves not yet added
                pick = self.rng.randrange(len(untried))
                untried[pick], untried[-1] = untried[-1], untried[pick]
                move = untried.pop()
                child = TreeNode(node.state.play(move), move, node.to_move)
                self._settle(child)
                node.children.append(child)
                self.size += 1
                node = child
                path.append(node)
        reward = leaf_reward = self._value(node)  # to the side to move at ``node``
        self.counters.nodes += 1
        self.counters.seldepth = max(self.counters.seldepth, len(path) - 1)
        changed = node.proven()
        for index in range(len(path) - 1, 0, -1):
            child, parent = path[index], path[index - 1]
            if not child.same:
                reward = 1.0 - reward
            child.visits += 1
            child.total += reward  # to the parent's side to move
            if changed:
                changed = self._bound(parent)
        self.root.visits += 1
        return path, leaf_reward

    def _select(self, node: TreeNode) -> TreeNode:
        """The child with the best UCB1 value among those that can still raise ``node``'s
        proven class."""
        floor = outcome_class(node.lower)
        scale = self.options.exploration * math.sqrt(math.log(max(node.visits, 1)))
        best: TreeNode | None = None
        best_value = -math.inf
        for child in node.children:
            if child.lower != -WIN or child.upper != WIN:  # bounds proven: may be pruned
                high = child.seen_from_parent()[1]
                if high <= node.lower or (child.proven() and outcome_class(high) <= floor):
                    continue
            visits = child.visits
            if visits == 0:
                return child
            value = child.total / visits + scale / math.sqrt(visits)
            if value > best_value:
                best, best_value = child, value
        assert best is not None, "an unproven node has a child that can raise its class"
        return best

    def _value(self, node: TreeNode) -> float:
        """The new leaf's reward to its side to move: its outcome, a playout's, or its
        evaluation through a logistic curve."""
        state = node.state
        outcome = state.outcome()
        if outcome is None:
            if self.options.playout == "evaluation":
                self.counters.horizon += 1
                value = float(self._evaluate(state))
                self._evaluations += abs(value)
                scale = max(self._evaluations / self.counters.horizon, 1e-9)
                return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, value / scale))))
            outcome = state.random_outcome(self.rng)
        return _reward(outcome, state.to_move)

    def _settle(self, node: TreeNode) -> None:
        """A finished game's exact value as its bounds."""
        outcome = node.state.outcome()
        if outcome is not None:
            winner = outcome.winner
            value = 0 if winner is None else WIN if winner == node.to_move else -WIN
            node.lower = node.upper = value
            node.untried = []

    def _bound(self, node: TreeNode) -> bool:
        """Recompute ``node``'s bounds from its children's; whether they changed."""
        untried = node.untried is None or bool(node.untried)
        lower = _LOWEST if untried else -WIN
        upper = _HIGHEST if untried else -WIN
        for child in node.children:
            low, high = child.seen_from_parent()
            lower = max(lower, low)
            upper = max(upper, high)
        if (lower, upper) == (node.lower, node.upper):
            return False
        node.lower, node.upper = lower, upper
        return True

    # --- the search ---------------------------------------------------------------------

    def run(
        self,
        limits: Limits,
        analyze: bool,
        stop: threading.Event | None = None,
        start: float | None = None,
    ) -> Iterator[SearchResult]:
        """Simulate until the root's class is proven or a limit (or ``stop``) ends it,
        yielding a result after :data:`FIRST_REPORT` simulations and whenever their number
        doubles, and the final one. Ctrl-C raises :class:`~.result.SearchInterrupted` with
        the result so far."""
        start = time.perf_counter() if start is None else start
        deadline = start + limits.time if limits.time is not None else None
        budget = limits.nodes
        report = FIRST_REPORT
        complete = True
        try:
            while not self.root.proven():
                if budget is not None and self.counters.nodes >= budget:
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                if stop is not None and stop.is_set():
                    complete = False
                    break
                if self.size >= self.capacity and not limits.bounded:
                    complete = False  # the tree is full: no limit would never end
                    break
                self.simulate()
                if self.counters.nodes >= report:
                    report *= 2
                    yield self.result(analyze, start)
        except KeyboardInterrupt:
            result = self.result(analyze, start) if self.root.children else None
            raise SearchInterrupted(result) from None
        yield self.result(analyze, start, complete)

    def result(self, analyze: bool, start: float, complete: bool = True) -> SearchResult:
        """The result the tree gives now (see the module's docs)."""
        return result_from(
            self.state, self.root_stats(), self.counters, start, analyze, self.options,
            self.principal_line(), complete,
        )

    def root_stats(self) -> dict[Move, _Stats]:
        """Every root move's visits, mean and proven bounds (to the side to move), unvisited
        moves with no visit and the widest bounds."""
        stats = {
            child.move: _Stats(child.visits, child.total, *child.seen_from_parent())
            for child in self.root.children
        }
        for move in self.state.legal_moves():
            stats.setdefault(move, _Stats(0, 0.0, _LOWEST, _HIGHEST))
        return stats

    def principal_line(self) -> tuple[Move, ...]:
        """From the root, the move :func:`choose` picks at every node, while the tree goes."""
        line = []
        node = self.root
        while node.children:
            stats = {c.move: _Stats(c.visits, c.total, *c.seen_from_parent())
                     for c in node.children}
            move = choose(stats, node.state.legal_moves())
            line.append(move)
            node = next(c for c in node.children if c.move == move)
        return tuple(line)


@dataclass(frozen=True)
class _Stats:
    """A root move's figures: visits, summed reward and proven bounds (to the side to move)."""

    visits: int
    total: float
    lower: int
    upper: int

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.5

    @property
    def proven(self) -> bool:
        return _proven_class(self.lower, self.upper)


def _reward(outcome: Outcome | Payoff, player: int) -> float:
    winner = outcome.winner
    return 0.5 if winner is None else 1.0 if winner == player else 0.0


def choose(stats: Mapping[Move, _Stats], legal: Sequence[Move]) -> Move:
    """The move to play: the best proven lower bound when it proves a class (a sure win, a
    sure draw when no win is open), else the most visited of the moves whose upper bound
    reaches the best proven lower bound (ties: the better mean, then legal order)."""
    floor = max(s.lower for s in stats.values())
    top = max(s.upper for s in stats.values())
    order = {m: i for i, m in enumerate(legal)}
    if _proven_class(floor, top):
        return min(
            (m for m, s in stats.items() if s.lower == floor),
            key=lambda m: (-stats[m].visits, order.get(m, 0)),
        )
    open_moves = [m for m, s in stats.items() if s.upper > floor or s.lower == floor]
    return min(
        open_moves, key=lambda m: (-stats[m].visits, -stats[m].mean, order.get(m, 0))
    )


def _score(stat: _Stats) -> tuple[Score, tuple[Score, Score] | None]:
    """A move's score: its proven value, its proven class with the distance's bounds, or its
    mean reward as a heuristic value."""
    if stat.lower == stat.upper:
        return Score(stat.lower), None
    if stat.proven:
        return Score(stat.lower), (Score(stat.lower), Score(stat.upper))
    return Score(round(1000 * (2 * stat.mean - 1)), False), None


def result_from(
    state: State,
    stats: Mapping[Move, _Stats],
    counters: Any,
    start: float,
    analyze: bool,
    options: SearchOptions,
    pv: tuple[Move, ...],
    complete: bool = True,
) -> SearchResult:
    """The search result of root moves' figures (one tree's, or several merged)."""
    legal = list(state.legal_moves())
    move = choose(stats, legal)
    root_lower = max(s.lower for s in stats.values())
    root_upper = max(s.upper for s in stats.values())
    root = _Stats(sum(s.visits for s in stats.values()), 0.0, root_lower, root_upper)
    if root.proven:
        best = tuple(m for m in legal if stats[m].lower == root_lower and stats[m].proven)
        score, bounds = _score(root)
    else:
        best = (move,)
        chosen = stats[move]
        score = Score(round(1000 * (2 * chosen.mean - 1)), False)
        bounds = None
    scores = move_bounds = None
    if analyze:
        scores, move_bounds = {}, {}
        for m in legal:
            scores[m], pair = _score(stats[m])
            if pair is not None:
                move_bounds[m] = pair
    if not pv or pv[0] != move:
        pv = (move,)
    result = build_result(
        state, counters, "mcts", start, best, pv, score, scores, len(pv), None, [move],
    )
    move_stats = {
        m: MoveStats(visits=stats[m].visits, mean=round(stats[m].mean, 6)) for m in legal
    }
    return replace(
        result, move=move, move_stats=move_stats, score_bounds=bounds,
        move_bounds=move_bounds or None, complete=complete,
    )


def run(
    state: State,
    limits: Limits,
    options: SearchOptions,
    analyze: bool,
    stop: threading.Event | None,
) -> Iterator[SearchResult]:
    """Monte Carlo tree search of ``state`` (see the module's docs), as a searcher runs it."""
    start = time.perf_counter()
    if limits.depth is not None:
        raise ValueError(
            "mcts has no depth limit: give it a time or node limit (nodes count simulations)"
        )
    rng = options.rng if options.rng is not None else random.Random(0)
    search = MCTS(state, options, rng)
    yield from search.run(limits, analyze, stop, start)


def grow(
    state: State,
    counts: Sequence[int],
    options: SearchOptions | None = None,
    *,
    max_depth: int = 3,
    min_visits: int = 1,
) -> list[dict[str, Any]]:
    """How one search's tree grows: its :meth:`TreeNode.export` after each of ``counts``
    simulations (increasing), for pictures and the page (a learner watching UCT choose)."""
    options = options or SearchOptions(algorithm="mcts")
    search = MCTS(state, options, options.rng or random.Random(0))
    trees = []
    for count in counts:
        while search.counters.nodes < count and not search.root.proven():
            search.simulate()
        trees.append(search.root.export(max_depth, min_visits))
    return trees


def merge(
    state: State,
    results: Sequence[SearchResult],
    options: SearchOptions,
    analyze: bool,
    start: float,
    counters: Any,
) -> SearchResult:
    """One result from several trees of the same position (root parallelism): every move's
    visits and rewards added up, and the tightest of the bounds they proved."""
    stats: dict[Move, _Stats] = {}
    for result in results:
        own = result.move_stats or {}
        for move in state.legal_moves():
            figures = own.get(move, MoveStats(0, 0.5))
            visits = figures.visits or 0
            total = visits * (figures.mean if figures.mean is not None else 0.5)
            low, high = _bounds_of(result, move)
            known = stats.get(move)
            if known is None:
                stats[move] = _Stats(visits, total, low, high)
            else:
                stats[move] = _Stats(
                    known.visits + visits, known.total + total, max(known.lower, low),
                    min(known.upper, high),
                )
    longest = max(results, key=lambda r: len(r.pv))
    pv = longest.pv
    return result_from(state, stats, counters, start, analyze, options, pv)


def _bounds_of(result: SearchResult, move: Move) -> tuple[int, int]:
    """The proven bounds of a root move in a result (the widest when it proved none)."""
    if result.move_bounds and move in result.move_bounds:
        low, high = result.move_bounds[move]
        return low.value, high.value
    if result.move_scores and move in result.move_scores:
        score = result.move_scores[move]
        if score.exact:
            return score.value, score.value
    return _LOWEST, _HIGHEST
