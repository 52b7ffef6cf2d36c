"""The minimax family, one search of one position at one depth at a time.

Every function here returns an integer score counted from the root (see :mod:`.score`). The
driver (:mod:`.driver`) chooses the depth, runs iterations, and builds the result.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence

from ..game import FIRST, Move, Outcome, Payoff, State
from . import events as ev
from .events import (
    HORIZON,
    MATE_DISTANCE,
    PASS,
    QUIESCENCE,
    TERMINAL,
    WIN_AT_ONCE,
    Observer,
    SearchEvent,
)
from .score import EVAL_LIMIT, INFINITY, WIN, WIN_MIN, from_table, to_table
from .table import EXACT, LOWER, RESOLVED, UPPER, TranspositionTable

__all__ = ["Engine", "SearchStopped"]

Evaluator = Callable[[State], float]
Orderer = Callable[[State, Sequence[Move]], Sequence[Move]]

#: At most this many nodes pass between two looks at the clock ...
CHECK_EVERY = 64
#: ... and, measured on the nodes so far, about this many seconds: a game whose nodes are slow
#: (a costly ``legal_moves``) is looked at more often, down to every node.
CHECK_SECONDS = 0.005

#: The next check of a search without a budget: never.
NEVER = 1 << 62

#: Null-move pruning: how many plies the search after a pass is shorter than a move's (R).
NULL_REDUCTION = 2
#: ... and R + 1 from this remaining depth on.
NULL_DEEP = 6

#: Check extensions stop this many plies below the root unless the root step sets the limit
#: (it allows twice the iteration's depth).
EXTENSION_PLIES = 64

#: The reason :meth:`Engine.enter` gives for a table hit, by the entry's bound.
_HIT = {EXACT: ev.EXACT, LOWER: ev.LOWER, UPPER: ev.UPPER}


class SearchStopped(Exception):
    """Raised inside a search when its time or node budget runs out."""


class Engine:
    """Counters, limits, table and hooks shared by one search's iterations.

    Not thread-safe and not shared: a :class:`~.driver.Searcher` makes one per search.
    """

    def __init__(
        self,
        *,
        table: TranspositionTable | None,
        symmetry: bool,
        hints: bool,
        evaluate: Evaluator | None,
        order: Orderer | None,
        deadline: float | None,
        max_nodes: int | None,
        stop: threading.Event | None = None,
        features: frozenset[str] = frozenset(),
        observer: Observer | None = None,
        mate_distance: bool = True,
    ) -> None:
        self.table = table
        #: Cut a node whose window no result can change (a win on the next move is the best
        #: there is); False only for the textbook pictures (``unbeatable.tree``), which search
        #: every node the textbook's alpha-beta searches.
        self.mate_distance = mate_distance
        self.symmetry = symmetry
        self.hints = hints
        self.evaluate_hook = evaluate
        self.order_hook = order
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.hits = 0
        self.cutoffs = 0
        self.horizon = 0  # how many times a depth limit stood in for the game's end
        self.seldepth = 0
        self.stop = stop
        self.next_check = NEVER
        self._step = 1  # nodes between two looks at the clock, adapted to their cost
        self._looked = (0, time.perf_counter())  # nodes and time at the last look
        if deadline is not None or max_nodes is not None or stop is not None:
            self.next_check = self._next_check()
        self.pv: list[list[Move]] = [[]]
        self.quiescence = "quiescence" in features
        self.killers: list[list[Move]] | None = [] if "killers" in features else None
        self.history: dict[Move, int] | None = {} if "history" in features else None
        self.pvs = "pvs" in features
        self.null_move = "null-move" in features
        self.extensions = "check-extension" in features
        self.aspiration = "aspiration" in features  # the root step's business
        self.extension_plies = EXTENSION_PLIES
        self.observer = observer
        self._watch: _Watch | None = None
        if observer is not None:
            self._watch = _Watch(self, observer)

    # --- plumbing ------------------------------------------------------------------------

    def _next_check(self) -> int:
        """When to look again: ``_step`` nodes on, or exactly at the node budget."""
        later = self.nodes + self._step
        return later if self.max_nodes is None else min(later, self.max_nodes)

    def check(self) -> None:
        """Stop the search when its budget is spent or it is told to stop.

        Called whenever the node count reaches ``next_check`` or passes it (a count may step
        past it: the root and the parallel manager count nodes of their own). The clock is
        looked at every :data:`CHECK_EVERY` nodes at most, and more often when nodes are slow:
        about every :data:`CHECK_SECONDS` as measured on the nodes since the last look, down to
        every node, and at most twice as many nodes on as the last time; so a time limit is
        overrun by a few milliseconds or a few nodes' cost. A node
        budget is honoured to the node.
        """
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SearchStopped
        if self.deadline is not None or self.stop is not None:
            now = time.perf_counter()
            nodes, then = self._looked
            spent = now - then
            if spent > 0 and self.nodes > nodes:
                step = int(CHECK_SECONDS * (self.nodes - nodes) / spent)
                # at most twice as far as the last time: a few quick nodes (leaves, a
                # chance node's outcomes) say little of the slow ones that may follow
                step = min(step, 2 * self._step)
                self._step = 1 if step < 1 else CHECK_EVERY if step > CHECK_EVERY else step
            self._looked = (self.nodes, now)
            if self.deadline is not None and now >= self.deadline:
                raise SearchStopped
            if self.stop is not None and self.stop.is_set():
                raise SearchStopped
        else:
            self._step = CHECK_EVERY
        self.next_check = self._next_check()

    def visit(self) -> None:
        """Count one node outside the algorithms (a root), and look at the budget when due."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()

    def key(self, state: State) -> Hashable:
        return state.key() if self.symmetry else state

    def static_value(self, state: State) -> int:
        """The evaluation of an unfinished position, from its side to move's view, clamped."""
        self.horizon += 1
        return self._clamped(state)

    def _clamped(self, state: State) -> int:
        raw = self.evaluate_hook(state) if self.evaluate_hook is not None else state.evaluate()
        if not isinstance(raw, (int, float)):
            raise TypeError(f"the evaluation of {state} must be a number, not {raw!r}")
        if raw != raw:
            raise ValueError(f"the evaluation of {state} is not a number ({raw!r})")
        if raw >= EVAL_LIMIT:
            return EVAL_LIMIT - 1
        if raw <= -EVAL_LIMIT:
            return 1 - EVAL_LIMIT
        return int(raw)  # within the limits: a float that rounds to them is below them

    def ordered(self, state: State, first: Move | None, ply: int = 0) -> Sequence[Move]:
        """The moves to try: the table's move first, then the game's (or the user's) order;
        with killer moves or the history heuristic, the noisy moves keep their place in front
        and the quiet ones follow, this ply's killers first, then by history."""
        if self.order_hook is not None:
            moves = self.order_hook(state, state.legal_moves())
        elif self.hints:
            moves = state.ordered_moves()
        else:
            moves = state.legal_moves()
        if self.killers is not None or self.history is not None:
            moves = self._quiet_order(state, moves, ply)
        if first is not None and first in moves and moves[0] != first:
            moves = [first, *(m for m in moves if m != first)]
        return moves

    def _quiet_order(self, state: State, moves: Sequence[Move], ply: int) -> list[Move]:
        noisy = set(state.noisy_moves())
        quiet = [m for m in moves if m not in noisy]
        if self.history is not None:
            score = self.history
            quiet.sort(key=lambda m: -score.get(m, 0))
        if self.killers is not None and ply < len(self.killers):
            killers = [k for k in self.killers[ply] if k in quiet]
            quiet = [*killers, *(m for m in quiet if m not in killers)]
        return [*(m for m in moves if m in noisy), *quiet]

    def _reward(self, state: State, move: Move, depth: int, ply: int) -> None:
        """A quiet move made a cut-off: remember it as a killer of its ply, and in history."""
        if move in state.noisy_moves():
            return
        if self.killers is not None:
            while len(self.killers) <= ply:
                self.killers.append([])
            slot = self.killers[ply]
            if move not in slot:
                slot.insert(0, move)
                del slot[2:]
        if self.history is not None:
            self.history[move] = self.history.get(move, 0) + depth * depth

    def quiesce(self, state: State, alpha: int, beta: int, ply: int) -> int:
        """Past the depth limit, follow the noisy moves until the position is quiet, so that
        a capture is not judged before its recapture. The side to move may stand pat (take the
        evaluation) instead of capturing. Fail-soft, values as :meth:`alphabeta`'s."""
        stand = self.static_value(state)
        if ply > self.seldepth:
            self.seldepth = ply
        if stand >= beta:
            return stand
        best = stand
        alpha = max(alpha, stand)
        side = state.to_move
        for move in state.noisy_moves():
            child = state.play(move)
            self.nodes += 1
            if self.nodes >= self.next_check:
                self.check()
            outcome = child.outcome()
            if outcome is not None:
                value = self.terminal_value(child, outcome, ply + 1)
                value = value if child.to_move == side else -value
            elif child.to_move == side:
                value = self.quiesce(child, alpha, beta, ply + 1)
            else:
                value = -self.quiesce(child, -beta, -alpha, ply + 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        return best

    def set_pv(self, ply: int, move: Move) -> None:
        pv = self.pv
        while len(pv) <= ply + 1:
            pv.append([])
        pv[ply] = [move, *pv[ply + 1]]

    def line(self, ply: int) -> list[Move]:
        """The principal variation found below ``ply`` by the last search of that ply."""
        return self.pv[ply] if ply < len(self.pv) else []

    def clear_pv(self, ply: int) -> None:
        pv = self.pv
        while len(pv) <= ply:
            pv.append([])
        pv[ply] = []

    # --- the algorithms ------------------------------------------------------------------
    #
    # Every algorithm takes the move that led to the node as its last argument: the search
    # itself ignores it; an observed engine (see _Watch) reads the path from it.

    def minimax(self, state: State, depth: int, ply: int, move: Move | None = None) -> int:
        """Plain minimax in max/min form: the value from the **first player's** view.

        The first player maximises, the second minimises; every node is visited. With a table
        (memoization), exact values of positions already seen are reused.
        """
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        self.clear_pv(ply)
        outcome = state.outcome()
        if outcome is not None:
            if ply > self.seldepth:
                self.seldepth = ply
            if outcome.__class__ is Payoff:
                return outcome.values[FIRST]  # type: ignore[return-value]
            winner = outcome.winner
            if winner is None:
                return 0
            return WIN - ply if winner == FIRST else ply - WIN
        if depth <= 0:
            value = self.static_value(state)
            return value if state.to_move == FIRST else -value
        table = self.table
        key: Hashable = None
        if table is not None:
            key = self.key(state)
            known = self.memo(key, depth, ply)
            if known is not None:
                return known if state.to_move == FIRST else -known
        horizon = self.horizon
        maximising = state.to_move == FIRST
        best = -INFINITY if maximising else INFINITY
        best_move: Move | None = None
        for move in state.legal_moves():
            value = self.minimax(state.play(move), depth - 1, ply + 1, move)
            if (value > best) if maximising else (value < best):
                best = value
                best_move = move
                self.set_pv(ply, move)
        if table is not None:
            own = best if maximising else -best
            stored = RESOLVED if self.horizon == horizon else depth
            table.store(key, to_table(own, ply), EXACT, stored, best_move)
        return best

    def negamax(self, state: State, depth: int, ply: int, move: Move | None = None) -> int:
        """Plain negamax: the value from the side to move's view; every node is visited. A
        child's value is negated only when the side to move changes."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        self.clear_pv(ply)
        outcome = state.outcome()
        if outcome is not None:
            if ply > self.seldepth:
                self.seldepth = ply
            return self.terminal_value(state, outcome, ply)
        if depth <= 0:
            return self.static_value(state)
        table = self.table
        key: Hashable = None
        if table is not None:
            key = self.key(state)
            known = self.memo(key, depth, ply)
            if known is not None:
                return known
        horizon = self.horizon
        best = -INFINITY
        best_move: Move | None = None
        side = state.to_move
        for move in state.legal_moves():
            child = state.play(move)
            value = self.negamax(child, depth - 1, ply + 1, move)
            if child.to_move != side:
                value = -value
            if value > best:
                best = value
                best_move = move
                self.set_pv(ply, move)
        if table is not None:
            stored = RESOLVED if self.horizon == horizon else depth
            table.store(key, to_table(best, ply), EXACT, stored, best_move)
        return best

    def memo(self, key: Hashable, depth: int, ply: int) -> int | None:
        """Memoization for minimax and negamax: the side-to-move value of the table's entry
        for ``key`` when it was searched at least ``depth`` deep, else None."""
        assert self.table is not None
        entry = self.table.probe(key)
        if entry is None or entry.depth < depth:
            return None
        self.hits += 1
        if entry.depth != RESOLVED:
            self.horizon += 1
        return from_table(entry.value, ply)

    @staticmethod
    def terminal_value(
        state: State, outcome: Outcome | Payoff | int | None, ply: int
    ) -> int:
        """The value of a finished game ``ply`` plies from the root, from its side to move's
        view: a win ``WIN - ply``, a loss its negation, a draw 0, a :class:`Payoff` the side
        to move's number (``outcome`` may also be the winner: a player, or None)."""
        kind = outcome.__class__
        if kind is Payoff:
            return outcome.values[state.to_move]  # type: ignore[union-attr,return-value]
        winner = outcome.winner if kind is Outcome else outcome  # type: ignore[union-attr]
        if winner is None:
            return 0
        return WIN - ply if winner == state.to_move else ply - WIN

    def alphabeta(
        self,
        state: State,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        null_ok: bool = True,
        move: Move | None = None,
    ) -> int:
        """Negamax with alpha-beta pruning (fail-soft), the table and move ordering.

        Values are from the side to move's view; a child's value is negated (and the window
        mirrored) only when the child's side to move is the other player, so that games where a
        player may move twice in a row are searched right.

        Contract, with ``v`` the returned value and ``V`` the position's value at this depth
        (its negamax value with the evaluation at the depth limit), for ``alpha < beta``:

        * ``v <= alpha`` means ``V <= v`` (an upper bound: the search failed low);
        * ``v >= beta`` means ``V >= v`` (a lower bound: it failed high);
        * ``alpha < v < beta`` means ``v == V``.

        So a search with the window (-INFINITY, INFINITY) returns ``V`` itself. With a table,
        an entry searched deeper than asked also answers, so ``V`` may be a deeper (better)
        value: when the table holds results of earlier searches, or when a position recurs at
        another distance from the root. Within one search of a game where a position fixes its
        ply (the board games here), it is exactly the depth-limited value; without a depth
        limit it is always the game's value.

        The features a game asks for keep this contract: principal variation search (``pvs``)
        and check extensions exactly (an extension only makes ``V`` a deeper value); null-move
        pruning (``null-move``, in games that offer :meth:`State.null_move`) only as far as
        its assumption holds, that passing is never better than the best move (no zugzwang).
        ``null_ok`` False forbids a pass here (the move that led here was one).

        The node's parts are shared with the explicit-stack search (:mod:`.stack`): the
        prologue (:meth:`enter`), the move order (:meth:`ordered`) and the table store
        (:meth:`leave`); a child's window is mirrored where the side to move changes, and a
        value at or above beta cuts the node's remaining moves.
        """
        value, key, first, _ = self.enter(state, depth, alpha, beta, ply)
        if value is not None:
            return value
        if self.null_move and null_ok:
            value = self._null_cut(state, depth, beta, ply)
            if value is not None:
                if self.table is not None:
                    self.table.store(key, to_table(value, ply), LOWER, depth, first)
                return value
        horizon = self.horizon
        alpha0 = alpha
        best = -INFINITY
        best_move: Move | None = None
        side = state.to_move
        for move in self.ordered(state, first, ply):
            child = state.play(move)
            below = depth - 1
            if self.extensions and ply < self.extension_plies and child.extends():
                below = depth
            same = child.to_move == side  # the same player moves again: no change of view
            if self.pvs and best_move is not None and beta - alpha > 1:
                # Principal variation search: a move after the first only has to be shown no
                # better than alpha (a null window); searched again in full if it is better.
                if same:
                    value = self.alphabeta(child, below, alpha, alpha + 1, ply + 1, True, move)
                else:
                    value = -self.alphabeta(child, below, -alpha - 1, -alpha, ply + 1, True, move)
                if alpha < value < beta:
                    if same:
                        value = self.alphabeta(child, below, alpha, beta, ply + 1, True, move)
                    else:
                        value = -self.alphabeta(child, below, -beta, -alpha, ply + 1, True, move)
            elif same:
                value = self.alphabeta(child, below, alpha, beta, ply + 1, True, move)
            else:
                value = -self.alphabeta(child, below, -beta, -alpha, ply + 1, True, move)
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    self.set_pv(ply, move)
                    if value >= beta:
                        self.cutoffs += 1
                        if self.killers is not None or self.history is not None:
                            self._reward(state, move, depth, ply)
                        break
        if best_move is None:
            raise ValueError(f"{state!r} has no legal moves but the game has not ended")
        if self.table is not None:
            self.leave(key, best, alpha0, beta, depth, ply, horizon, first, best_move)
        return best

    def leave(
        self,
        key: Hashable,
        best: int,
        alpha0: int,
        beta: int,
        depth: int,
        ply: int,
        horizon: int,
        first: Move | None,
        best_move: Move | None,
    ) -> None:
        """The end of an alpha-beta node with a table: store its value as a bound of the
        window it was entered with (``alpha0``, ``beta``), searched to ``depth``, or to the
        end of the game when no depth limit was met below it since the node began (the
        ``horizon`` count then is unchanged), with the move to try first next time."""
        assert self.table is not None
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        stored = RESOLVED if self.horizon == horizon else depth
        # When every move failed low the "best" one is noise: keep the earlier hint.
        hint = first if flag == UPPER else best_move
        self.table.store(key, to_table(best, ply), flag, stored, hint)

    def _null_cut(self, state: State, depth: int, beta: int, ply: int) -> int | None:
        """Null-move pruning: when even passing (the opponent moving twice) keeps the value at
        or above ``beta`` in a shorter search, the node fails high without searching a move.
        The fail-high value, or None. Not when the window is about mates (a pass cannot prove
        one), nor where the position already stands below ``beta``, nor within
        ``NULL_REDUCTION + 2`` plies of the depth limit."""
        if depth < NULL_REDUCTION + 2 or beta >= EVAL_LIMIT or beta <= -EVAL_LIMIT:
            return None
        if self._clamped(state) < beta:
            return None
        passed = state.null_move()
        if passed is None:
            return None
        # At least one ply of real moves after the pass, so that a threat to mate at once is
        # seen (quiescence alone would miss it).
        reduction = NULL_REDUCTION + (depth >= NULL_DEEP)
        below = max(depth - 1 - reduction, 1)
        if passed.to_move == state.to_move:
            raise ValueError(f"{state!r}: null_move() must give the other player the move")
        value = -self.alphabeta(passed, below, -beta, 1 - beta, ply + 1, False, PASS)
        if value < beta:
            return None
        self.horizon += 1  # a heuristic result, never a proven one
        self.clear_pv(ply)
        return beta if value >= WIN_MIN else value

    def enter(
        self, state: State, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[int | None, Hashable, Move | None, str | None]:
        """The part of an alpha-beta node before its moves: (value, key, first, reason).

        ``value`` is the node's value when it needs no move searched, else None; ``reason``
        says why (:mod:`.events`): a finished game, a bound that no result can pass (mate
        distance), the depth limit (with or without quiescence), a usable table entry (its
        bound), an immediate win. ``key`` is the node's table key and ``first`` the table's
        move hint. The node's line starts empty, so that a parent never reads a line left by
        another position (a sibling searched before, or the pass of null-move pruning) when
        this node sets none.
        """
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        self.clear_pv(ply)
        outcome = state.outcome()
        if outcome is not None:
            if ply > self.seldepth:
                self.seldepth = ply
            return self.terminal_value(state, outcome, ply), None, None, TERMINAL
        # No result here can beat a win on the next move or lose sooner than on it.
        ceiling = WIN - ply - 1
        if self.mate_distance:
            if ceiling <= alpha:
                return ceiling, None, None, MATE_DISTANCE
            if -ceiling >= beta:
                return -ceiling, None, None, MATE_DISTANCE
        if depth <= 0:
            if self.quiescence:
                return self.quiesce(state, alpha, beta, ply), None, None, QUIESCENCE
            return self.static_value(state), None, None, HORIZON
        table = self.table
        key: Hashable = None
        first: Move | None = None
        if table is not None:
            key = self.key(state)
            entry = table.probe(key)
            if entry is not None:
                if entry.depth >= depth:
                    value = from_table(entry.value, ply)
                    flag = entry.flag
                    if (
                        flag == EXACT
                        or (flag == LOWER and value >= beta)
                        or (flag == UPPER and value <= alpha)
                    ):
                        self.hits += 1
                        if entry.depth != RESOLVED:
                            self.horizon += 1
                        return value, key, first, _HIT[flag]
                first = entry.move
        if self.hints:
            win = state.winning_move()
            if win is not None:
                self.set_pv_leaf(ply, win)
                if ply + 1 > self.seldepth:
                    self.seldepth = ply + 1
                if table is not None:
                    table.store(key, WIN - 1, EXACT, RESOLVED, win)
                return ceiling, key, first, WIN_AT_ONCE
        return None, key, first, None

    def set_pv_leaf(self, ply: int, move: Move) -> None:
        self.clear_pv(ply + 1)
        self.set_pv(ply, move)

    # --- observing ----------------------------------------------------------------------

    def root_event(
        self, kind: str, alpha: int | None, beta: int | None, value: int | None = None
    ) -> None:
        """Emit an event of the root (the searchers' root step searches it, not an algorithm
        of the engine): ``enter`` before its moves, ``value`` after them."""
        watch = self._watch
        if watch is not None:
            path = watch.at(0, None) if kind == ev.ENTER else ()
            reason = None if kind == ev.ENTER else ev.SEARCHED
            watch.emit(SearchEvent(kind, path, alpha, beta, value, reason))


class _Watch:
    """What an observed engine keeps to tell its observer each step (see :mod:`.events`).

    Observing replaces the engine's algorithms and three of its node parts (:meth:`~Engine.
    enter`, :meth:`~Engine.ordered`, :meth:`~Engine._null_cut`) by wrappers around them, on
    the engine object alone: an engine without an observer runs exactly the code it ran
    before, at the same cost. A wrapper notes the path (from the move each algorithm is given),
    emits ``enter``, calls the algorithm itself, and emits what it did: a ``hit``, ``cut``
    events for moves never searched, and the ``value``.
    """

    def __init__(self, engine: Engine, observer: Observer) -> None:
        self.engine = engine
        self.emit = observer
        self.path: list[Move] = []
        self.why: list[str] = []  # per ply: why the node there has its value
        self.moves: list[Sequence[Move] | None] = []  # per ply: the node's moves in order
        self.entered: list[list[Move]] = []  # per ply: the moves whose child was entered
        engine.alphabeta = self.alphabeta  # type: ignore[method-assign]
        engine.minimax = self.minimax  # type: ignore[method-assign]
        engine.negamax = self.negamax  # type: ignore[method-assign]
        engine.enter = self.enter  # type: ignore[method-assign]
        engine.ordered = self.ordered  # type: ignore[method-assign]
        engine._null_cut = self.null_cut  # type: ignore[method-assign]

    def at(self, ply: int, move: Move | None) -> tuple[Move, ...]:
        """The node at ``ply``, reached by ``move``, begins: its path."""
        path = self.path
        del path[max(ply - 1, 0) :]
        if ply > 0:
            path.append(move)
        for record in (self.why, self.moves, self.entered):
            while len(record) <= ply:
                record.append(None)  # type: ignore[arg-type]
        self.why[ply] = ev.SEARCHED
        self.moves[ply] = None
        self.entered[ply] = []
        if ply > 0 and self.entered[ply - 1] is not None:
            self.entered[ply - 1].append(move)
        return tuple(path)

    # --- the node parts -----------------------------------------------------------------

    def enter(
        self, state: State, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[int | None, Hashable, Move | None, str | None]:
        found = Engine.enter(self.engine, state, depth, alpha, beta, ply)
        if found[3] is not None and ply < len(self.why):
            self.why[ply] = found[3]
        return found

    def ordered(self, state: State, first: Move | None, ply: int = 0) -> Sequence[Move]:
        moves = Engine.ordered(self.engine, state, first, ply)
        if ply < len(self.moves):
            self.moves[ply] = list(moves)
        return moves

    def null_cut(self, state: State, depth: int, beta: int, ply: int) -> int | None:
        value = Engine._null_cut(self.engine, state, depth, beta, ply)
        if value is not None:
            self.why[ply] = ev.NULL_MOVE
        return value

    # --- the algorithms -----------------------------------------------------------------

    def alphabeta(
        self,
        state: State,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        null_ok: bool = True,
        move: Move | None = None,
    ) -> int:
        path = self.at(ply, move)
        reason = ev.PASS_SEARCH if move is PASS else None
        self.emit(SearchEvent(ev.ENTER, path, alpha, beta, None, reason))
        value = Engine.alphabeta(self.engine, state, depth, alpha, beta, ply, null_ok, move)
        self.done(state, path, ply, depth, alpha, beta, value)
        return value

    def minimax(self, state: State, depth: int, ply: int, move: Move | None = None) -> int:
        path = self.at(ply, move)
        self.emit(SearchEvent(ev.ENTER, path, None, None, None, None))
        hits = self.engine.hits
        value = Engine.minimax(self.engine, state, depth, ply, move)
        self.plain_done(state, path, ply, depth, hits, value)
        return value

    def negamax(self, state: State, depth: int, ply: int, move: Move | None = None) -> int:
        path = self.at(ply, move)
        self.emit(SearchEvent(ev.ENTER, path, None, None, None, None))
        hits = self.engine.hits
        value = Engine.negamax(self.engine, state, depth, ply, move)
        self.plain_done(state, path, ply, depth, hits, value)
        return value

    # --- what a node did ----------------------------------------------------------------

    def done(
        self,
        state: State,
        path: tuple[Move, ...],
        ply: int,
        depth: int,
        alpha: int,
        beta: int,
        value: int,
    ) -> None:
        """An alpha-beta node has its value: emit its hit or cuts, then the value."""
        emit = self.emit
        reason = self.why[ply]
        if reason in (ev.EXACT, ev.LOWER, ev.UPPER):
            emit(SearchEvent(ev.HIT, path, alpha, beta, value, reason))
            reason = ev.TABLE
        elif reason == ev.SEARCHED:
            entered = self.entered[ply]
            cut = [m for m in self.moves[ply] or () if m not in entered]
            for move in cut:  # a move at or above beta: alpha >= beta
                emit(SearchEvent(ev.CUT, (*path, move), value, beta, value, ev.BETA))
        elif reason == ev.MATE_DISTANCE and depth > 0:
            engine = self.engine
            for move in Engine.ordered(engine, state, None, ply):
                emit(SearchEvent(ev.CUT, (*path, move), alpha, beta, value, ev.MATE_DISTANCE))
        emit(SearchEvent(ev.VALUE, path, alpha, beta, value, reason))

    def plain_done(
        self,
        state: State,
        path: tuple[Move, ...],
        ply: int,
        depth: int,
        hits: int,
        value: int,
    ) -> None:
        """A minimax or negamax node has its value: emit its hit, then the value."""
        if state.outcome() is not None:
            reason = ev.TERMINAL
        elif depth <= 0:
            reason = ev.HORIZON
        elif not self.entered[ply] and self.engine.hits > hits:
            self.emit(SearchEvent(ev.HIT, path, None, None, value, ev.EXACT))
            reason = ev.TABLE
        else:
            reason = ev.SEARCHED
        self.emit(SearchEvent(ev.VALUE, path, None, None, value, reason))
