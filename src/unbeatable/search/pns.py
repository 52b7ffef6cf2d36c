"""Depth-first proof-number search (df-pn, Nagai 2002) with a transposition table.

Proof-number search answers a yes-or-no question about a position: does the side to move win?
Every node carries a *proof number* (how many leaves at least must still be proven to say yes)
and a *disproof number* (to say no); the search always expands the *most-proving* node, the
leaf that lowers the root's smaller number most. df-pn finds it depth first, with thresholds
that say when to come back up, and keeps the numbers of every node it has seen in a table, so
that its memory is bounded and transpositions are shared. With the game's hints (the default),
a new leaf whose side to move wins at once (:meth:`~unbeatable.game.State.winning_move`) is
proven, and one whose opponent has two threats (:meth:`~unbeatable.game.State.threats`)
disproven, without expanding it. Here it is written in negamax form
(each node's numbers are for its own side to move), with Pawlewicz and Lew's 1 + epsilon
trick for the thresholds.

**Draws.** A question has two answers, so a game that can end in a draw takes two questions:
"does the side to move win?" and, when that is disproved, "does it at least draw?" (below a
node where one side asks the first, the other asks the second). A game that declares
:attr:`~unbeatable.game.State.has_draws` False (Hex) needs only the first.

**What it proves.** Whether a position is won, drawn or lost, not in how many moves: a win's
score comes with ``score_bounds`` from the soonest to the latest the game allows (a move that
wins at once is exact). The best moves are every move of the best class. ``analyze`` answers
the questions for every root move. ``move_stats`` holds each root move's proof and disproof
numbers for the last question asked about it. ``nodes`` counts expanded positions.

Limits: ``time`` and ``nodes`` (expanded positions) stop it with what is proven so far, the
clock read at every node: a search cut short before the root is settled gives an incomplete
result whose values are bounds (the moves it proved, and the widest for the others, which a
report reads ``unknown``), never a heuristic value it does not have; its move is the one nearest
a proof. A ``depth`` limit is refused. The table holds at most ``table_size`` entries (default
:data:`DEFAULT_ENTRIES`): when full, the half that cost the least work to compute is dropped.
The game must be one of win, draw or loss (no payoffs) and acyclic (positions never repeat:
its plies are bounded, ``max_plies``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, replace

from ..game import Move, State
from .options import Limits, SearchOptions
from .result import MoveStats, SearchInterrupted, SearchResult, build_result
from .score import WIN, WIN_MIN, Score

__all__ = [
    "AT_LEAST_DRAW",
    "DEFAULT_ENTRIES",
    "DFPN",
    "EPSILON",
    "INFINITE",
    "WINS",
    "move_bounds",
    "open_bounds",
    "position_bounds",
    "run",
]

#: The numbers of a proven (or disproven) question: 0 and this.
INFINITE = 1 << 50

#: The two questions: does the side to move win; does it at least draw.
WINS, AT_LEAST_DRAW = 0, 1

#: The table's entries when no ``table_size`` is given (about 200 bytes each).
DEFAULT_ENTRIES = 1 << 19

#: The 1 + epsilon trick: a child's proof threshold is the second-best child's times this.
EPSILON = 0.25


class _Stopped(Exception):
    """A limit ran out in the middle of a search."""


@dataclass
class _Counters:
    nodes: int = 0
    hits: int = 0
    cutoffs: int = 0
    horizon: int = 0
    seldepth: int = 0


class DFPN:
    """df-pn over one game, its table kept across questions (and across :meth:`prove` calls).

    ``deadline`` (a :func:`time.perf_counter` reading), ``max_nodes`` and ``stop`` end a
    question early: :meth:`prove` then returns None. The table is emptied when a question is
    asked about another game than the last (keys need not tell games apart).
    """

    def __init__(
        self,
        options: SearchOptions,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.options = options
        self.capacity = options.table_size or DEFAULT_ENTRIES
        #: (key, question) -> [proof, disproof, work]
        self.table: dict[tuple[Hashable, int], list[int]] = {}
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.stop = stop
        self.counters = _Counters()
        self._game: tuple[type, object] | None = None
        #: Told every step when set (for pictures of the search, :mod:`unbeatable.growth`):
        #: ``observer(kind, path, numbers)`` with ``kind`` one of ``expand`` (``numbers``: the
        #: node's thresholds, then each child's move and its numbers seen from the node),
        #: ``descend`` (the move to the most-proving child, that child's thresholds seen from
        #: the node, and the node's numbers now) and ``leave`` (the node's proof and disproof
        #: numbers going back up, and why: ``threshold``, ``proved``, ``wins at once`` or
        #: ``table``: its numbers in the table already reach a threshold);
        #: ``path`` the moves from the root; numbers are each node's own, for its side to
        #: move's question.
        self.observer: Callable[[str, tuple[Move, ...], tuple[object, ...]], None] | None = None
        self._path: list[Move] = []

    # --- the questions ------------------------------------------------------------------

    def prove(self, state: State, question: int) -> bool | None:
        """True when ``question`` (:data:`WINS` or :data:`AT_LEAST_DRAW`) is proven for the
        side to move at ``state``, False when disproven, None when a limit stopped it. In a
        game without draws the two questions are one (asked as :data:`WINS`)."""
        if not state.has_draws:
            question = WINS
        game = (type(state), state.game)
        if game != self._game:  # keys need not tell games apart
            self.table.clear()
            self._game = game
        self._path = []
        try:
            proof, disproof = self._mid(state, question, INFINITE, INFINITE, 0)
        except _Stopped:
            return None
        if proof == 0:
            return True
        assert disproof == 0, (proof, disproof)
        return False

    def value_class(self, state: State) -> int | None:
        """1, 0 or -1: whether the side to move wins, draws or loses (None: a limit first)."""
        outcome = state.outcome()
        if outcome is not None:
            winner = outcome.winner
            return 0 if winner is None else 1 if winner == state.to_move else -1
        wins = self.prove(state, WINS)
        if wins is None:
            return None
        if wins:
            return 1
        if not state.has_draws:
            return -1
        draws = self.prove(state, AT_LEAST_DRAW)
        if draws is None:
            return None
        return 0 if draws else -1

    def numbers(self, state: State, question: int) -> tuple[int, int] | None:
        """The table's proof and disproof numbers of ``question`` at ``state``, if held."""
        entry = self.table.get((self._key(state), question))
        return None if entry is None else (entry[0], entry[1])

    def export(
        self, state: State, question: int = WINS, *, max_depth: int = 3, max_nodes: int = 500
    ) -> dict[str, object]:
        """The part of the tree this search has numbers for, as plain data (for pictures and
        the page), from ``state`` and ``question`` (asked of its side to move): every node's
        ``proof`` and ``disproof`` numbers *for that question* (so that an OR node, where its
        asker moves, takes the least proof number of its children, and an AND node the sum),
        its ``kind`` (``or`` or ``and``), whether it was ``expanded`` (its numbers are in the
        table; a leaf's are the starting 1 and 1, or a finished game's), its ``move`` in
        notation (None at the root) and its children in the search's order, down to
        ``max_depth`` plies and at most ``max_nodes`` nodes (breadth first)."""
        if not state.has_draws:
            question = WINS
        root: dict[str, object] = {"move": None}
        queue = [(state, question, False, root, 0)]
        count = 0
        while queue and count < max_nodes:
            position, asked, flipped, node, depth = queue.pop(0)
            count += 1
            entry = None if position.outcome() is not None else self.table.get(
                (self._key(position), asked)
            )
            proof, disproof = (entry[0], entry[1]) if entry else self._leaf(position, asked)
            if flipped:  # numbers for the root's question: the other side's, swapped
                proof, disproof = disproof, proof
            children: list[dict[str, object]] = []
            node.update(
                proof=proof, disproof=disproof, kind="and" if flipped else "or",
                expanded=entry is not None, children=children,
            )
            if entry is None or depth >= max_depth:
                continue
            for move in self._moves(position):
                child = position.play(move)
                flips = child.to_move != position.to_move
                child_question = (1 - asked if flips else asked) if child.has_draws else WINS
                item: dict[str, object] = {"move": position.move_text(move)}
                children.append(item)
                queue.append((child, child_question, flipped != flips, item, depth + 1))
        for _, _, _, node, _ in queue:  # cut off by max_nodes: drop the empty placeholders
            node["cut"] = True
        return root

    # --- df-pn --------------------------------------------------------------------------

    def _key(self, state: State) -> Hashable:
        return state.key() if self.options.symmetry else state

    def _look(self) -> None:
        """Count a node about to be expanded; stop at a limit. The clock is read at every
        node: an expansion costs milliseconds on a large board (every child's win and
        threat tests), so that reading it every few dozen nodes overran a 0.2 s limit of
        11 x 11 Hex by 0.15 s, and a clock reading costs a hundredth of the cheapest node."""
        counters = self.counters
        counters.nodes += 1
        if self.max_nodes is not None and counters.nodes > self.max_nodes:
            raise _Stopped
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Stopped
        if self.stop is not None and self.stop.is_set():
            raise _Stopped

    def _leaf(self, state: State, question: int) -> tuple[int, int]:
        """A position's numbers before it is expanded: exact for a finished game (and for a
        win at once, when hints are on), else 1 and 1."""
        outcome = state.outcome()
        if outcome is not None:
            winner = outcome.winner
            if winner == state.to_move or (winner is None and question == AT_LEAST_DRAW):
                return 0, INFINITE
            return INFINITE, 0
        if self.options.hints:
            if state.winning_move() is not None:
                return 0, INFINITE  # the side to move wins at once: no need to expand it
            threats = state.threats()
            if threats is not None and len(threats) >= 2:
                return INFINITE, 0  # two threats: the opponent wins next, whatever it plays
        return 1, 1

    def _mid(
        self, state: State, question: int, proof_limit: int, disproof_limit: int, depth: int
    ) -> tuple[int, int]:
        """Search ``state`` until its proof number reaches ``proof_limit`` or its disproof
        number ``disproof_limit`` (or it is settled); its numbers then."""
        if state.outcome() is not None:
            return self._leaf(state, question)
        key = (self._key(state), question)
        entry = self.table.get(key)
        if entry is not None:
            self.counters.hits += 1
            if entry[0] >= proof_limit or entry[1] >= disproof_limit:
                return self._known(entry)
        self._look()
        if depth > self.counters.seldepth:
            self.counters.seldepth = depth
        before = self.counters.nodes
        mover = state.to_move
        observer = self.observer
        if self.options.hints and state.winning_move() is not None:
            return self._store(key, 0, INFINITE, 1, "wins at once")
        # each child: its state, its question, whether the side to move changes there, and
        # its numbers seen from here (proof and disproof of this node's question)
        children: list[tuple[State, int, bool]] = []
        proofs: list[int] = []
        disproofs: list[int] = []
        moves = self._moves(state)
        for move in moves:
            child = state.play(move)
            flips = child.to_move != mover
            child_question = (1 - question if flips else question) if child.has_draws else WINS
            found = self.table.get((self._key(child), child_question))
            numbers = (found[0], found[1]) if found is not None else self._leaf(
                child, child_question
            )
            children.append((child, child_question, flips))
            proof, disproof = (numbers[1], numbers[0]) if flips else numbers
            proofs.append(proof)
            disproofs.append(disproof)
            if proof == 0:  # this move settles it: no need to look at the others
                break
        if observer is not None:
            self._expanded(moves, proofs, disproofs, proof_limit, disproof_limit)
        while True:
            proof = min(proofs)
            disproof = min(sum(disproofs), INFINITE)
            if proof >= proof_limit or disproof >= disproof_limit:
                return self._store(key, proof, disproof, self.counters.nodes - before)
            best = min(range(len(proofs)), key=proofs.__getitem__)
            second = min((p for i, p in enumerate(proofs) if i != best), default=INFINITE)
            child_proof_limit = min(proof_limit, max(second + 1, int(second * (1 + EPSILON))))
            child_disproof_limit = min(
                INFINITE, disproof_limit - disproof + disproofs[best]
            )
            child, child_question, flips = children[best]
            if observer is not None:
                observer(
                    "descend", tuple(self._path),
                    (moves[best], child_proof_limit, child_disproof_limit, proof, disproof),
                )
                self._path.append(moves[best])
            if flips:
                got = self._mid(
                    child, child_question, child_disproof_limit, child_proof_limit, depth + 1
                )
                proofs[best], disproofs[best] = got[1], got[0]
            else:
                got = self._mid(
                    child, child_question, child_proof_limit, child_disproof_limit, depth + 1
                )
                proofs[best], disproofs[best] = got
            if observer is not None:
                self._path.pop()

    def _known(self, entry: list[int]) -> tuple[int, int]:
        """A table entry's numbers, already at a threshold: back up with them."""
        if self.observer is not None:
            self.observer("leave", tuple(self._path), (entry[0], entry[1], "table"))
        return entry[0], entry[1]

    def _expanded(
        self, moves: list[Move], proofs: list[int], disproofs: list[int], proof_limit: int,
        disproof_limit: int,
    ) -> None:
        """Tell the observer a node's children (their numbers seen from the node)."""
        assert self.observer is not None
        listed = tuple(zip(moves, proofs, disproofs, strict=False))
        self.observer(
            "expand", tuple(self._path), (proof_limit, disproof_limit, *listed)
        )

    def _moves(self, state: State) -> list[Move]:
        if self.options.order is not None:
            return list(self.options.order(state, list(state.legal_moves())))
        if self.options.hints:
            return list(state.ordered_moves())
        return list(state.legal_moves())

    def _store(
        self, key: tuple[Hashable, int], proof: int, disproof: int, work: int, why: str = ""
    ) -> tuple[int, int]:
        if self.observer is not None:
            why = why or ("proved" if proof == 0 or disproof == 0 else "threshold")
            self.observer("leave", tuple(self._path), (proof, disproof, why))
        table = self.table
        if len(table) >= self.capacity and key not in table:
            self._collect()
        table[key] = [proof, disproof, work]
        return proof, disproof

    def _collect(self) -> None:
        """Drop the half of the table that cost the least work."""
        items = sorted(self.table.items(), key=lambda item: item[1][2])
        for key, _ in items[: len(items) // 2 + 1]:
            del self.table[key]


# --- results -------------------------------------------------------------------------------


def _shift(value: int) -> int:
    """A value one ply further from a win or a loss (a child's, seen from its parent)."""
    if value >= WIN_MIN:
        return value - 1
    if value <= -WIN_MIN:
        return value + 1
    return value


def position_bounds(state: State, value_class: int) -> tuple[int, int]:
    """The proven ends of the value of an unfinished ``state`` (to its side to move) when it is
    worth ``value_class`` (1, 0, -1): a draw 0; a win at once when a move ends the game in a
    win (else in two plies at the soonest when the mover may move again, three when not); a
    loss at once when every move loses at once (else in two plies at the soonest); never later
    than the game's last ply."""
    if value_class == 0:
        return 0, 0
    children = [state.play(m) for m in state.legal_moves()]
    longest = state.max_plies
    latest = longest - state.ply if longest is not None else WIN - WIN_MIN - 1
    mover = state.to_move
    if value_class > 0:
        if any(c.outcome() is not None and c.outcome().winner == mover for c in children):  # type: ignore[union-attr]
            return WIN - 1, WIN - 1
        soonest = 2 if any(c.to_move == mover for c in children) else 3
        return WIN - max(latest, soonest), WIN - min(latest, soonest)
    if all(c.outcome() is not None for c in children):
        return -(WIN - 1), -(WIN - 1)
    return -(WIN - 2), -(WIN - max(latest, 2))


def move_bounds(state: State, move: Move, value_class: int) -> tuple[int, int]:
    """The proven ends of ``move``'s value to the side to move at ``state`` when the move is
    worth ``value_class`` to it."""
    child = state.play(move)
    outcome = child.outcome()
    if outcome is not None:
        winner = outcome.winner
        value = 0 if winner is None else WIN - 1 if winner == state.to_move else -(WIN - 1)
        return value, value
    if child.to_move == state.to_move:
        low, high = position_bounds(child, value_class)
    else:
        high, low = (-v for v in position_bounds(child, -value_class))
    return _shift(low), _shift(high)


def _score(lower: int, upper: int) -> tuple[Score, tuple[Score, Score] | None]:
    if lower == upper:
        return Score(lower), None
    return Score(lower), (Score(lower), Score(upper))


def run(
    state: State,
    limits: Limits,
    options: SearchOptions,
    analyze: bool,
    stop: threading.Event | None,
) -> Iterator[SearchResult]:
    """df-pn of ``state`` (see the module's docs), as a searcher runs it: one result."""
    start = time.perf_counter()
    if limits.depth is not None:
        raise ValueError("pns has no depth limit: give it a time or node limit, or none")
    if state.numeric_outcomes:
        raise ValueError(
            "pns needs a game that ends in a win, a draw or a loss (this one ends with payoffs)"
        )
    if state.max_plies is None:
        raise ValueError(
            "pns needs a game whose length is bounded (max_plies), so that no position "
            "repeats"
        )
    search = DFPN(
        options,
        deadline=start + limits.time if limits.time is not None else None,
        max_nodes=limits.nodes,
        stop=stop,
    )
    try:
        yield _answer(search, state, analyze, options, start)
    except KeyboardInterrupt:
        raise SearchInterrupted(_cut_short(search, state, start)) from None


def _answer(
    search: DFPN, state: State, analyze: bool, options: SearchOptions, start: float
) -> SearchResult:
    legal = list(state.legal_moves())
    classes: dict[Move, int] = {}  # each move's class to the side to move at ``state``
    if analyze:
        for move in legal:
            child = state.play(move)
            found = search.value_class(child)
            if found is None:
                break
            classes[move] = found if child.to_move == state.to_move else -found
    root = None
    if not analyze:
        root = search.value_class(state)
        if root is not None:
            best = _witness(search, state, root)
            if best is not None:
                classes[best] = root
    counters = search.counters
    if not classes or (analyze and len(classes) < len(legal)):
        return _partial(search, state, start, analyze, classes, root)
    top = max(classes.values())
    best = tuple(m for m in legal if classes.get(m) == top)
    score, score_bounds = _score(*position_bounds(state, top))
    scores = bounds = None
    if analyze:
        scores, bounds = {}, {}
        for move in legal:
            scores[move], pair = _score(*move_bounds(state, move, classes[move]))
            if pair is not None:
                bounds[move] = pair
    line = _line(search, state, best[0])
    result = build_result(
        state, counters, "pns", start, best, line, score, scores, len(line), None,
        options.tie_order(state),
    )
    return replace(
        result, score_bounds=score_bounds, move_bounds=bounds or None,
        move_stats=_stats(search, state, legal),
    )


def _cut_short(search: DFPN, state: State, start: float) -> SearchResult:
    """What a search interrupted (Ctrl-C) knows: its most promising move, each move's numbers,
    as an incomplete result (nothing proven is claimed)."""
    return _partial(search, state, start, False, {}, None)


def open_bounds(state: State, move: Move) -> tuple[int, int]:
    """The ends of ``move``'s value to the side to move at ``state`` before anything about it
    is proven: its value when it ends the game, else from a loss at the opponent's next move
    to a win at the mover's next (the game goes on for two plies at least)."""
    outcome = state.play(move).outcome()
    if outcome is not None:
        winner = outcome.winner
        value = 0 if winner is None else WIN - 1 if winner == state.to_move else -(WIN - 1)
        return value, value
    return -(WIN - 2), WIN - 2


def _partial(
    search: DFPN,
    state: State,
    start: float,
    analyze: bool,
    classes: dict[Move, int],
    root: int | None,
) -> SearchResult:
    """A search cut short by a limit or Ctrl-C, as an incomplete result that claims only what
    is proven: the position's value as bounds (those of the moves it proved, the widest for the
    others: a report reads them ``unknown`` while nothing is proven; the position's own class
    when that was proven, ``root``), every move's too when analyzing, never a made-up
    heuristic value. Its move: a proven win or draw, else the most promising of the moves
    not proven lost (:func:`_most_promising`); ``move_stats``: each move's proof and disproof
    numbers."""
    legal = list(state.legal_moves())
    stats = _stats(search, state, legal)
    known = [m for m in legal if m in classes]
    # a proven win or draw is played; proven losses only when no move is left open
    best = max(known, key=classes.__getitem__) if known else None
    if best is not None and classes[best] >= 0:
        move = best
    else:
        move = _most_promising(search, state, stats, lost=known)
    ends = {
        m: move_bounds(state, m, classes[m]) if m in classes else open_bounds(state, m)
        for m in legal
    }
    lower = max(low for low, _ in ends.values())
    upper = max(high for _, high in ends.values())
    if root is not None:  # the position's class is proven, not yet a move that keeps it
        proven_low, proven_high = position_bounds(state, root)
        lower, upper = max(lower, proven_low), min(upper, proven_high)
    scores = bounds = None
    if analyze:
        scores, bounds = {}, {}
        for m in legal:
            scores[m], pair = _score(*ends[m])
            if pair is not None:
                bounds[m] = pair
    result = build_result(
        state, search.counters, "pns", start, (move,), (move,), Score(lower, False), scores, 0,
        None,
    )
    return replace(
        result, complete=False, exact=False, score_bounds=(Score(lower), Score(upper)),
        move_bounds=bounds or None, move_stats=stats,
    )


def _most_promising(
    search: DFPN, state: State, stats: dict[Move, MoveStats], lost: Iterable[Move] = ()
) -> Move:
    """The move a search cut short before proving a move that holds at least a draw plays: of
    the moves not disproved (nor proven ``lost``), the one with the least proof number the
    table holds (the nearest to a proof; a move never looked at counts as the farthest), the
    game's move order breaking ties."""
    order = search._moves(state)
    shut = set(lost)
    open_moves = [m for m in order if stats[m].disproof != 0 and m not in shut] or [
        m for m in order if m not in shut
    ] or order

    def proof(move: Move) -> int:
        number = stats[move].proof
        return INFINITE if number is None else number

    return min(open_moves, key=proof)


def _keeps(search: DFPN, state: State, move: Move, value_class: int) -> bool | None:
    """Whether ``move`` is worth ``value_class`` to the side to move (None: a limit first),
    asking only the questions that tell."""
    child = state.play(move)
    if child.to_move == state.to_move:
        found = search.value_class(child)
        return None if found is None else found == value_class
    if value_class > 0:  # the opponent does not even draw
        draws = search.prove(child, AT_LEAST_DRAW)
        return None if draws is None else not draws
    if value_class == 0:  # the opponent draws but does not win
        wins = search.prove(child, WINS)
        if wins is None or wins:
            return None if wins is None else False
        draws = search.prove(child, AT_LEAST_DRAW)
        return None if draws is None else draws
    return True  # in a lost position every move loses


def _known(search: DFPN, state: State, move: Move, value_class: int) -> bool:
    """Whether the table already proves that ``move`` keeps ``value_class`` (the proof of the
    position's class left its numbers there), without searching."""
    child = state.play(move)
    outcome = child.outcome()
    if outcome is not None:
        winner = outcome.winner
        mine = 0 if winner is None else 1 if winner == state.to_move else -1
        return mine == value_class
    same = child.to_move == state.to_move

    def settled(question: int) -> bool | None:
        if not child.has_draws:
            question = WINS
        numbers = search.numbers(child, question)
        if numbers is None or (numbers[0] and numbers[1]):
            return None
        return numbers[0] == 0

    wins, draws = settled(WINS), settled(AT_LEAST_DRAW)
    if not child.has_draws:
        draws = wins
    if same:
        if value_class > 0:
            return wins is True
        if value_class == 0:
            return wins is False and draws is True
        return draws is False
    if value_class > 0:  # the opponent does not even draw
        return draws is False
    if value_class == 0:  # the opponent draws but does not win
        return wins is False and draws is True
    return True


def _witness(search: DFPN, state: State, value_class: int) -> Move | None:
    """A move that keeps ``value_class``: one the table already proves (the proof of the
    position left it there), else the first that asking about it proves, in the search's
    order."""
    moves = search._moves(state)
    for move in moves:
        if _known(search, state, move, value_class):
            return move
    for move in moves:
        keeps = _keeps(search, state, move, value_class)
        if keeps is None:
            return None
        if keeps:
            return move
    return None


def _line(search: DFPN, state: State, first: Move) -> tuple[Move, ...]:
    """A principal variation: ``first``, then at every position a move that keeps its value,
    while the table answers quickly (about 200 nodes a move at most)."""
    line = [first]
    position = state.play(first)
    saved = search.max_nodes
    budget = search.counters.nodes + 200 * ((position.max_plies or 0) - position.ply + 1)
    search.max_nodes = budget if saved is None else min(budget, saved)
    try:
        while position.outcome() is None:
            value = search.value_class(position)
            if value is None:
                break
            move = _witness(search, position, value)
            if move is None:
                break
            line.append(move)
            position = position.play(move)
    finally:
        search.max_nodes = saved
    return tuple(line)


def _stats(search: DFPN, state: State, legal: list[Move]) -> dict[Move, MoveStats]:
    """Each root move's proof and disproof numbers (for the root's side to move) for the
    last question the table holds about the position after it."""
    stats = {}
    for move in legal:
        child = state.play(move)
        flips = child.to_move != state.to_move
        found = None
        for question in (AT_LEAST_DRAW, WINS):  # the second question is the later one
            numbers = search.numbers(child, question)
            if numbers is not None:
                found = (numbers[1], numbers[0]) if flips else numbers
                break
        stats[move] = MoveStats(
            proof=None if found is None else found[0],
            disproof=None if found is None else found[1],
        )
    return stats
