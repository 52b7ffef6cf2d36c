"""The game protocol: what a game must provide for the search to play it.

A game is a set of immutable, hashable, picklable *states*. Subclass :class:`State`
and implement four things: :attr:`State.to_move`, :meth:`State.legal_moves`,
:meth:`State.play` and :meth:`State.outcome`. Everything else has a default.

Moves enter a state through two doors:

* :meth:`State.play` applies a move *unchecked*. The search uses it; it must only ever be
  given a move from :meth:`State.legal_moves`.
* :meth:`State.parse_move` / :meth:`State.play_text` validate text that a person typed and
  raise :class:`InvalidMoveError` (not a move at all) or :class:`IllegalMoveError` (a move,
  but not legal here), both carrying the offending text and the position.
"""

from __future__ import annotations

import enum
import math
import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from .display import show

# The cutting of long texts in messages lives in .messages (the front ends' service); these
# names stay importable from here.
from .messages import ECHO_LIMIT as ECHO_LIMIT
from .messages import MESSAGE_LIMIT as MESSAGE_LIMIT
from .messages import cut as cut
from .messages import cut_echoes as cut_echoes

__all__ = [
    "FIRST",
    "ORDINALS",
    "SECOND",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Payoff",
    "SearchAnswer",
    "SearchLine",
    "SearchRequest",
    "SolveAnswer",
    "SolveRequest",
    "State",
    "parse_numbered_move",
    "player_name",
    "require_text",
]

#: The player who moves first (index 0) and second (index 1).
FIRST = 0
SECOND = 1

#: A move is any hashable value; games pick what is cheap for them (an int is typical).
Move = Hashable

S = TypeVar("S", bound="State")


def require_text(text: object) -> str:
    """``text`` if it is a string; else a TypeError that says a position is given as text."""
    if not isinstance(text, str):
        raise TypeError(f"a position is given as text (moves or a picture), not {text!r}")
    return text


#: How players are named, by index: the first, the second, ... (then "player 11" on).
ORDINALS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)


def player_name(player: int) -> str:
    """'first', 'second', 'third', ... for the players 0, 1, 2, ... ('player 11' from the
    eleventh on)."""
    return ORDINALS[player] if 0 <= player < len(ORDINALS) else f"player {player + 1}"


class Outcome(enum.Enum):
    """How a finished game ended."""

    FIRST_WINS = 0
    SECOND_WINS = 1
    DRAW = 2

    @property
    def winner(self) -> int | None:
        """The winning player (:data:`FIRST` or :data:`SECOND`), or None for a draw."""
        return None if self is Outcome.DRAW else self.value

    @staticmethod
    def win_for(player: int) -> Outcome:
        return Outcome.FIRST_WINS if player == FIRST else Outcome.SECOND_WINS

    def __str__(self) -> str:
        if self is Outcome.DRAW:
            return "draw"
        return f"{player_name(self.value)} player wins"


@dataclass(frozen=True)
class Payoff:
    """How a finished game ended, as numbers: ``values[p]`` is what player ``p`` gets (a
    textbook tree's leaf, points won, an expected score). A game returns one from
    :meth:`State.outcome` instead of an :class:`Outcome` when its results are numbers rather
    than a win, a draw or a loss, and declares so with :attr:`State.numeric_outcomes`.

    The search takes the value of the player to move as the position's exact value, on the
    engine's own scale (a payoff of 3 is the value 3), so payoffs must lie well inside it:
    below :data:`PAYOFF_LIMIT` in size. A two-player zero-sum game gives ``(v, -v)``
    (:meth:`zero_sum`); a game of more players gives one value per player.
    """

    values: tuple[float, ...]
    #: How people say it (``"third player wins"``); the numbers when empty. Not compared.
    text: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        values = self.values
        if not isinstance(values, tuple) or len(values) < 2:
            raise ValueError(f"a payoff has one value per player (two or more), not {values!r}")
        for value in values:
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
                or abs(value) >= PAYOFF_LIMIT
            ):
                raise ValueError(
                    f"a payoff is a finite number below {PAYOFF_LIMIT:,} in size, not {value!r}"
                )

    @classmethod
    def zero_sum(cls, first: float) -> Payoff:
        """The payoff of a two-player zero-sum game: ``first`` to the first player, its
        negation to the second."""
        return cls((first, -first))

    @classmethod
    def win_for(cls, player: int, players: int, *, draw: bool = False) -> Payoff:
        """A game of ``players`` players won by ``player``: 1 to it, -1 to every other (or,
        with ``draw``, 0 to all: nobody won); said as people say it."""
        if draw:
            return cls((0,) * players, "draw")
        values = tuple(1 if p == player else -1 for p in range(players))
        return cls(values, f"{player_name(player)} player wins")

    @property
    def winner(self) -> int | None:
        """The player with the greatest payoff, or None when two or more share it."""
        top = max(self.values)
        best = [p for p, value in enumerate(self.values) if value == top]
        return best[0] if len(best) == 1 else None

    def __str__(self) -> str:
        if self.text:
            return self.text
        if len(self.values) == 2 and self.values[1] == -self.values[0]:
            return f"payoff {_number(self.values[0])}"
        return "payoffs " + ", ".join(_number(v) for v in self.values)


#: The largest payoff the search takes (a thousandth of its win scores).
PAYOFF_LIMIT = 1_000_000


def _number(value: float) -> str:
    """A payoff as people write it: ``3``, ``-1.5``."""
    return f"{value:g}" if isinstance(value, float) else str(value)


class GameError(ValueError):
    """Bad input about a game: carries the offending text and the position it was read in."""

    def __init__(self, message: str, *, text: str = "", position: str = "") -> None:
        super().__init__(message)
        self.text = text
        self.position = position


class InvalidMoveError(GameError):
    """The text does not name a move of this game at all (e.g. ``'z' is not a cell (1-9)``)."""


class IllegalMoveError(GameError):
    """The text names a move, but it is not legal in this position (e.g. a taken cell)."""


class InvalidPositionError(GameError):
    """A position's text is malformed, or describes a position that cannot arise."""


@dataclass(frozen=True)
class SolveRequest:
    """What the search asks of a game's own exact solver (see :meth:`State.solver_moves`).

    ``weak``: only the sign of a value is wanted. ``quick``: answer only if it takes no long
    search (from an opening book or database, or a late position), else return None.
    ``threads``: how many threads the solver may use (None: every core). ``book``: whether it may
    use opening books and databases (False measures the bare solver). ``table_size``: how many
    table entries it may use (None: its default). ``deadline`` (a :func:`time.perf_counter`
    reading) and ``max_nodes``: stop then, and answer with what is known. ``best_only``: only
    which moves are best is wanted (a player choosing, no analysis): a solver may then give
    each other move as bounds whose upper end is below the best value instead of its exact
    value (a solver that ignores it answers as usual). ``progress``: called, in the thread that
    asked, with a :class:`SolveAnswer` of what the solver has proven so far (``complete``
    False, ``bounds`` for the moves still open) each time it knows more while it works, each
    answer's bounds inside the last one's; Ctrl-C raised in it stops the solver as Ctrl-C does
    (a solver that cannot tell ignores it).
    """

    weak: bool = False
    quick: bool = False
    best_only: bool = False
    threads: int | None = None
    book: bool = True
    table_size: int | None = None
    deadline: float | None = None
    max_nodes: int | None = None
    progress: Callable[[SolveAnswer], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SolveAnswer:
    """A game's own solver's answer about every legal move of a position.

    Values follow the solve convention (:func:`unbeatable.search.solve_score`), from the view of
    the side to move at the position. ``values`` holds the moves whose exact value is known;
    ``bounds`` a ``(lower, upper)`` pair for each move still open when a budget stopped the
    solver, or, answering a ``best_only`` request, for each move proven worse than the best.
    ``complete`` is True when nothing was cut short: every legal move is in ``values`` (for a
    ``best_only`` request: in ``values``, or in ``bounds`` below the best value);
    ``interrupted`` when Ctrl-C stopped it. ``nodes`` counts the positions the solver
    visited.
    """

    values: Mapping[Any, int]
    bounds: Mapping[Any, tuple[int, int]] = field(default_factory=dict)
    complete: bool = True
    nodes: int = 0
    interrupted: bool = False


@dataclass(frozen=True)
class SearchRequest:
    """What the search asks of a game's own heuristic searcher (see
    :meth:`State.searcher_answers`): a search of a game too large to solve, under limits.

    ``depth`` (plies), ``deadline`` (a :func:`time.perf_counter` reading) and ``max_nodes``:
    stop at the first of them reached (none at all: until ``stop``). ``stop``: an event that,
    once set from any thread, ends the search as a spent budget does. ``lines``: how many of
    the best moves get their own line and value (MultiPV; the number of legal moves asks for
    every move's). ``threads`` and ``table_size`` (entries): what the searcher may use (None:
    its own defaults). ``memory``: a dictionary the caller keeps from one search to the next
    (a library searcher's own), where the game's searcher may keep its table and heuristics so
    that a search starts from what the last one learnt; an empty one starts afresh.
    """

    depth: int | None = None
    deadline: float | None = None
    max_nodes: int | None = None
    stop: threading.Event | None = field(default=None, compare=False)
    lines: int = 1
    threads: int | None = None
    table_size: int | None = None
    memory: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class SearchLine:
    """One line of a game's own searcher: its ``moves`` (the first is the root move it
    scores), and that move's ``value`` from the view of the side to move at the root, on the
    scale of :meth:`State.evaluate` (chess: centipawns). ``mate``: when the searcher found the
    game's end along the line, the plies to it, positive when the side to move wins, negative
    when it loses (``value`` is then the searcher's own and not read); None otherwise."""

    moves: tuple[Move, ...]
    value: int
    mate: int | None = None


@dataclass(frozen=True)
class SearchAnswer:
    """A game's own searcher's answer after one completed iteration (see
    :meth:`State.searcher_answers`): its ``lines``, best first (at least one); the ``depth`` of
    the iteration, the deepest ply reached (``seldepth``), the positions visited so far
    (``nodes``). ``complete``: this iteration completed (False for the last answer of a search
    cut short by its limits or ``stop``: it repeats the last completed iteration's lines, or a
    legal move when none completed); ``interrupted``: Ctrl-C cut it short."""

    lines: tuple[SearchLine, ...]
    depth: int = 0
    seldepth: int = 0
    nodes: int = 0
    complete: bool = True
    interrupted: bool = False


class State(ABC):
    """A position of a game of perfect information: two players, zero-sum, by default; a game
    may also have chance (dice) and more players.

    Subclasses must be immutable, hashable (equal positions hash equal) and picklable.
    Required: :attr:`to_move`, :meth:`legal_moves`, :meth:`play`, :meth:`outcome`.

    Optional hooks the search uses when present:

    * :meth:`evaluate`: a heuristic score from the side to move's view, used at a depth limit.
    * :meth:`ordered_moves`: the legal moves, most promising first (default: legal order).
    * :meth:`key`: a canonical key for the transposition table, e.g. the same for positions
      that are mirror images (default: the state itself).
    * :meth:`winning_move`: a move that wins at once, if the game can tell cheaply.
    * :attr:`ply` and :attr:`max_plies`: moves played so far and an upper bound on the length of
      a whole game; needed for the solve score convention and to choose a search strategy.
    * :attr:`game`: the :class:`Game` the state belongs to, with its parameters; a searcher
      empties its table when the game changes (keys need not tell games apart).
    * :attr:`has_solver` with :meth:`solver_value`, :meth:`solver_moves` and
      :meth:`solver_line`: a solver of the game's own that answers exact questions faster
      than the generic search.
    * :attr:`has_searcher` with :meth:`searcher_answers`: a heuristic searcher of the game's
      own (chess's compiled engine) that answers a search asked for no algorithm, under its
      limits, faster than the generic search.

    Turns need not alternate: a player may move several times in a row (``to_move`` says who
    moves); the search negates a value only where the side to move changes.

    **Chance** (dice, a card drawn): a game that has it sets :attr:`has_chance`; a position
    where chance moves says so with :attr:`is_chance`, lists every outcome with its
    probability in :meth:`chance_outcomes`, and has those outcomes as its legal moves (in the
    same order), so that a roll is played, written and read like a move. ``to_move`` there
    names the player whose view the position's value is from (usually the one about to roll).
    Its values are expectations: a game that ends with an :class:`Outcome` is worth its
    expected score (a win 1, a draw 0, a loss -1; the chance to win, a draw counting half, is
    half of one plus it); one that ends with :class:`Payoff` its expected payoff, whose
    bounds it declares in :attr:`value_bounds` for *-minimax to prune.

    **More than two players**: :attr:`players` says how many; such a game ends with a
    :class:`Payoff` holding one value per player (:meth:`Payoff.win_for`), sets
    :attr:`numeric_outcomes`, and may give :meth:`evaluate_players` for searches to a depth
    limit. max^n and the paranoid search play it.
    """

    __slots__ = ()

    #: The game this state belongs to (None: the state's type is the whole game).
    game: Game | None = None

    #: The search features this game's searches use unless told otherwise (see
    #: :data:`unbeatable.search.options.FEATURES`): a game too large to solve, like chess, asks
    #: for quiescence search, killer moves, the history heuristic and the others it gains
    #: from. Default: none.
    search_features: ClassVar[frozenset[str]] = frozenset()

    #: True when the game answers exact questions with a solver of its own: then an exact
    #: search (no depth limit, the default algorithm, no evaluation hook) asks
    #: :meth:`solver_moves` and :meth:`solver_value` instead of searching.
    has_solver: ClassVar[bool] = False

    #: True when the game has a heuristic searcher of its own (:meth:`searcher_answers`):
    #: then a search that asks for no algorithm, evaluation, move order, features or observer
    #: is answered by it (a game's own solver, where it answers, comes first).
    has_searcher: ClassVar[bool] = False

    #: True when the game ends with a :class:`Payoff` (numbers) rather than an
    #: :class:`Outcome`: its exact values are numbers (shown as such), not wins and losses.
    numeric_outcomes: ClassVar[bool] = False

    #: False when no game can end in a draw (Hex): a proof that the side to move does not
    #: win is then a proof that it loses (proof-number search needs one search, not two).
    has_draws: ClassVar[bool] = True

    #: True when the game has chance nodes (:attr:`is_chance`): it is searched by
    #: expectiminimax or *-minimax, never by alpha-beta (which would take chance for a player).
    has_chance: ClassVar[bool] = False

    #: The least and the greatest value a finished game can be worth to any player, when
    #: known: the bounds of its :class:`Payoff` values, which also hold its evaluations.
    #: *-minimax (``star1``, ``star2``) prunes chance nodes with them. A game of chance that
    #: ends with an :class:`Outcome` needs none: its values lie between -1 and 1.
    value_bounds: ClassVar[tuple[float, float] | None] = None

    #: Seconds a search takes when it is given no limit at all. None (the default): such a
    #: search goes to the end of the game and is exact. A game too large to solve (chess) sets
    #: it, so that a search, a move of the AI or an analysis asked for "no limit" ends.
    default_time: ClassVar[float | None] = None

    #: Such a game's thinking time for other purposes than a plain search, by purpose
    #: (``move``: an opponent's move in an interactive front end; ``analysis``: an analysis
    #: there); a purpose not listed takes :attr:`default_time`. See :meth:`thinking_time`.
    thinking_times: ClassVar[Mapping[str, float]] = {}

    # --- required -------------------------------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The player to move: :data:`FIRST` (0), :data:`SECOND` (1), ... below
        :attr:`players`. At a chance node, the player whose view its value is from."""

    @abstractmethod
    def legal_moves(self) -> Sequence[Move]:
        """The legal moves, in a deterministic order; empty when the game is over."""

    @abstractmethod
    def play(self: S, move: Move) -> S:
        """The state after ``move``; unchecked (``move`` must come from :meth:`legal_moves`)."""

    @abstractmethod
    def outcome(self) -> Outcome | Payoff | None:
        """None while the game goes on, else how it ended: an :class:`Outcome` (a win, a
        draw or a loss), or a :class:`Payoff` for a game whose results are numbers (it then
        sets :attr:`numeric_outcomes`)."""

    # --- optional, with defaults ------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many players the game has (default 2). With more than two, the game ends with a
        :class:`Payoff` of one value per player."""
        return 2

    @property
    def is_chance(self) -> bool:
        """True where chance moves (a roll of the dice): the legal moves are then the outcomes
        of :meth:`chance_outcomes`. Default: never."""
        return False

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        """At a chance node (:attr:`is_chance`), every outcome with its probability (positive,
        summing to 1), in the order of :meth:`legal_moves`; elsewhere nothing."""
        return ()

    def evaluate_players(self) -> Sequence[float]:
        """A heuristic value for every player (positive is good for it), for max^n and the
        paranoid search at a depth limit. Default: from :meth:`evaluate`, the side to move's,
        ``e`` to it and ``-e / (players - 1)`` to every other (for two players: ``e, -e``)."""
        value = self.evaluate()
        others = -value / (self.players - 1) if value else 0
        return tuple(value if p == self.to_move else others for p in range(self.players))

    @property
    def ply(self) -> int:
        """Moves played since the initial position, when the game knows it (else 0)."""
        return 0

    @property
    def max_plies(self) -> int | None:
        """An upper bound on the number of moves in a whole game, or None if unknown. Once
        known, it never grows as the game goes on: a later position may give a tighter bound,
        never a looser one or None."""
        return None

    def key(self) -> Hashable:
        """A transposition-table key; positions with the same key must have the same value."""
        return self

    def evaluate(self) -> float:
        """A heuristic value from the side to move's view (positive is good for it).

        Only called on unfinished positions at a depth limit. The default knows nothing and
        says 0; override it for games too large to solve. In a game of chance it estimates the
        value on the scale of the exact ones (the expected score, -1 to 1, or the expected
        payoff, within :attr:`value_bounds`), at chance nodes too.
        """
        return 0

    @property
    def has_evaluation(self) -> bool:
        """True when :meth:`evaluate` is more than the default guess of 0."""
        return type(self).evaluate is not State.evaluate

    def ordered_moves(self) -> Sequence[Move]:
        """The legal moves, most promising first; a hint for alpha-beta (default: legal order)."""
        return self.legal_moves()

    def noisy_moves(self) -> Sequence[Move]:
        """The moves that change the position sharply (in chess: captures and promotions), best
        first: quiescence search follows them past the depth limit. Default: none."""
        return ()

    def null_move(self) -> State | None:
        """This position with the other player to move and nothing else changed (a pass), for
        null-move pruning; None when passing says nothing useful here. Default: None (the
        search never passes). A game that offers it says that a pass is never better than its
        best move: not true in zugzwang, so chess refuses it when the side to move is in check
        or has only its king and pawns."""
        return None

    def extends(self) -> bool:
        """Whether the search should look one ply further below this position than its depth
        limit says (a check extension: in chess, the side to move is in check). Default:
        False."""
        return False

    def random_outcome(self, rng: random.Random) -> Outcome | Payoff:
        """How the game ends when both players play uniformly random legal moves from here,
        drawn from ``rng`` (a Monte Carlo playout); the outcome itself when the game is over.
        A game may override it with a faster way to the same distribution of results (Hex
        fills the board at once)."""
        state: State = self
        outcome = state.outcome()
        while outcome is None:
            state = state.play(rng.choice(state.legal_moves()))
            outcome = state.outcome()
        return outcome

    def winning_move(self) -> Move | None:
        """A legal move that ends the game at once in the mover's favour, or None.

        Returning None is always allowed (the default); a game that can tell cheaply lets the
        search stop one ply earlier.
        """
        return None

    def threats(self) -> Sequence[Move] | None:
        """The opponent's threats: the moves that would end the game at once in the favour of
        the player *not* to move, were it that player's turn; None (the default) when the game
        cannot tell cheaply.

        A game that answers promises what a search then concludes: with two or more threats
        and no winning move of its own, the side to move loses at the opponent's next move
        (its one move cannot take away two threats, and the opponent moves next). Proof-number
        search prunes with it. m,n,k games and Hex answer; a game where that conclusion does not
        hold (a move that fills several cells, an extra turn) must not.
        """
        return None

    def warm_up(self) -> None:
        """Load in this process what searching this game needs and is slow to load (a
        compiled solver's kernels). A parallel searcher calls it before it forks its worker
        processes from this one, so that each starts with it; a search that goes to the game's
        own searcher calls it before its clock starts (a cold build is not its thinking time).
        The default does nothing."""
        return None

    def solver_value(self, request: SolveRequest) -> int | None:
        """This unfinished position's exact value (solve convention; with ``request.weak`` only
        its sign counts) from the game's own solver, or None when it has none or a budget in
        ``request`` ran out first. Only called when :attr:`has_solver` is True."""
        return None

    def solver_moves(self, request: SolveRequest) -> SolveAnswer | None:
        """Every legal move's value from the game's own solver (see :class:`SolveAnswer`), or
        None (no solver, or ``request.quick`` and no quick answer). Only called when
        :attr:`has_solver` is True, on unfinished positions."""
        return None

    def solver_line(self, request: SolveRequest) -> Sequence[Move] | None:
        """A principal variation of this unfinished position from the game's own solver: moves
        that each keep the position's exact value, to the end of the game, or fewer when a
        budget in ``request`` ran out first; None when the solver gives no line (the search
        then follows :meth:`solver_moves` answers). Only called when :attr:`has_solver` is
        True."""
        return None

    def searcher_answers(self, request: SearchRequest) -> Iterator[SearchAnswer]:
        """The game's own searcher's answers about this unfinished position under ``request``:
        one after each completed iteration, each with the ``request.lines`` best moves' lines
        (best first); the last answer is the search's (see :class:`SearchAnswer`). Only called
        when :attr:`has_searcher` is True. Ctrl-C may end it: the searcher then gives its last
        answer marked ``interrupted`` rather than raising."""
        return iter(())

    # --- notation -------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        """The notation of ``move`` (default ``str(move)``)."""
        return str(move)

    def move_label(self, move: Move) -> str:
        """``move`` as a person reads it, where that differs from the notation machines read
        (chess: SAN, ``Nf3``, beside UCI's ``g1f3``). Default: :meth:`move_text`."""
        return self.move_text(move)

    def parse_move(self, text: str) -> Move:
        """The legal move that ``text`` names; raises :class:`GameError` subclasses otherwise."""
        text = text.strip()
        if self.outcome() is not None:
            raise IllegalMoveError(
                f"move {text!r} after the game has ended ({self.outcome()}) in {self}",
                text=text,
                position=str(self),
            )
        for move in self.legal_moves():
            if self.move_text(move) == text:
                return move
        raise InvalidMoveError(
            f"{text!r} is not a legal move in {self}", text=text, position=str(self)
        )

    def play_text(self: S, text: str) -> S:
        """Validate ``text`` as a move and play it."""
        return self.play(self.parse_move(text))

    def play_checked(self: S, move: Move) -> S:
        """Play ``move`` after checking that it is legal here."""
        if move not in self.legal_moves():
            raise IllegalMoveError(
                f"{self.move_text(move)!r} is not legal in {self}",
                text=self.move_text(move),
                position=str(self),
            )
        return self.play(move)

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def thinking_time(self, purpose: str = "search") -> float | None:
        """Seconds a search of this game thinks when given no limit, for ``purpose``
        (``search``, ``move`` or ``analysis``: see :data:`unbeatable.search.policy.PURPOSES`);
        None for a game searched to its end. The one place a game's times are set. A game
        too large to solve sets one for ``search`` (and so is never searched to its end); one
        that solves, but too slowly for a person waiting on the page, may set one only for
        ``move`` and ``analysis`` (5 x 5 Hex)."""
        if self.default_time is None:
            return None
        return self.thinking_times.get(purpose, self.default_time)

    # --- in a notebook --------------------------------------------------------------------

    def _repr_svg_(self) -> str | None:
        """The board as a picture in Jupyter (:func:`unbeatable.drawing.board_svg`), for the
        games that have one; None (the text) for the others."""
        return show("state", self)


def parse_numbered_move(state: State, text: str, count: int, noun: str) -> int:
    """The 0-based index of the ``noun`` that ``text`` numbers from 1 to ``count`` (a cell, a
    column), in a game that has not ended; the game then checks that it is free.

    Raises :class:`InvalidMoveError` for text that is not such a number and
    :class:`IllegalMoveError` after the end of the game, each naming the text and position.
    """
    token = text.strip()
    if not (token.isascii() and token.isdigit()):
        raise InvalidMoveError(
            f"{token!r} is not a {noun} (1-{count})", text=token, position=str(state)
        )
    index = int(token) - 1
    if not 0 <= index < count:
        raise InvalidMoveError(
            f"{noun} {token} does not exist (1-{count})", text=token, position=str(state)
        )
    outcome = state.outcome()
    if outcome is not None:
        position = str(state)
        raise IllegalMoveError(
            f"{noun} {token} after the game ended ({outcome}) in {position}",
            text=token,
            position=position,
        )
    return index


class Game(ABC):
    """A game with its parameters: makes initial states and reads and writes positions.

    ``name`` and ``params`` identify it in the registry (:func:`unbeatable.games.get_game`).
    """

    name: str = ""

    @property
    def params(self) -> dict[str, Any]:
        """The parameters this game was made with (empty for a game without any)."""
        return {}

    @property
    def spec(self) -> str:
        """The registry spelling of this game, e.g. ``mnk:m=4,n=4,k=4``."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())

    @abstractmethod
    def initial(self) -> State:
        """The position before the first move."""

    def parse_position(self, text: str) -> State:
        """The position that ``text`` describes; by default a sequence of moves from the start.

        Moves are separated by commas or white space; a game whose moves are single characters
        may also run them together (override :meth:`split_moves`).
        """
        require_text(text)
        state = self.initial()
        for index, token in enumerate(self.split_moves(text), start=1):
            try:
                state = state.play_text(token)
            except GameError as err:
                raise type(err)(
                    f"{err} (move {index} of {text.strip()!r})", text=token, position=text.strip()
                ) from None
        return state

    def split_moves(self, text: str) -> list[str]:
        """The move tokens of a move sequence."""
        return text.replace(",", " ").split()

    def format_position(self, state: State) -> str:
        """The text that :meth:`parse_position` reads back as ``state``."""
        raise NotImplementedError(f"{self.name} cannot write positions")

    def picture(self, state: State) -> str:
        """A human-readable picture of ``state`` (default: its ``str``)."""
        return str(state)

    def __repr__(self) -> str:
        return f"<Game {self.spec}>"
