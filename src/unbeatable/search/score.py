"""Integer scores from the side to move's point of view, and their readable form.

Internally a position is worth an integer from the side to move's view:

* a win reached ``d`` plies from the position is ``WIN - d`` (sooner wins rank higher);
* a loss ``d`` plies away is ``-(WIN - d)`` (later losses rank higher);
* a draw is 0; a heuristic value at a depth limit lies strictly between ``-EVAL_LIMIT`` and
  ``EVAL_LIMIT``, far from any win or loss.

Inside a search, scores are counted from the root (``WIN - ply`` with ``ply`` the distance from
the root); the transposition table stores them counted from the entry's own position
(:func:`to_table` and :func:`from_table`), so an entry is valid wherever its position recurs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import State

__all__ = [
    "EVAL_LIMIT",
    "EXPECTED_PAYOFF",
    "EXPECTED_SCORE",
    "GUARANTEED_PAYOFF",
    "INFINITY",
    "MEANINGS",
    "OUTCOME",
    "PAYOFF",
    "WIN",
    "WIN_MIN",
    "Score",
    "from_table",
    "heuristic_text",
    "solve_score",
    "to_table",
    "value_text",
]

# --- what a value means (Score.meaning) ---------------------------------------------------
#: A win, a draw or a loss, with its distance (a two-player game without chance).
OUTCOME = "outcome"
#: The payoff of a game that ends with numbers (:class:`~unbeatable.game.Payoff`); with more
#: than two players, max^n's: each player's payoff when every player maximises its own.
PAYOFF = "payoff"
#: A game of chance that ends with a win, a draw or a loss: the expected score (a win 1, a
#: draw 0, a loss -1), from -1 to 1; the chance to win (a draw counting half) is
#: ``(1 + value) / 2`` (:attr:`Score.probability`).
EXPECTED_SCORE = "expected-score"
#: A game of chance that ends with numbers: the expected payoff.
EXPECTED_PAYOFF = "expected-payoff"
#: The paranoid search's value: the payoff (expected, in a game of chance) the side to move
#: can make sure of when every other player plays against it.
GUARANTEED_PAYOFF = "guaranteed-payoff"
#: Every meaning, as the JSON report spells it.
MEANINGS = (OUTCOME, PAYOFF, EXPECTED_SCORE, EXPECTED_PAYOFF, GUARANTEED_PAYOFF)

WIN = 1_000_000_000
#: Every score at or beyond this magnitude is a proven win or loss.
WIN_MIN = WIN - 100_000_000
#: Heuristic values are clamped inside (-EVAL_LIMIT, EVAL_LIMIT).
EVAL_LIMIT = WIN_MIN // 2
#: Beyond every score: the widest search window is (-INFINITY, INFINITY).
INFINITY = 2 * WIN


def to_table(value: int, ply: int) -> int:
    """A root-relative score as the table stores it: relative to the entry's position."""
    if value >= WIN_MIN:
        return value + ply
    if value <= -WIN_MIN:
        return value - ply
    return value


def from_table(value: int, ply: int) -> int:
    """The inverse of :func:`to_table` for a position ``ply`` plies below the root."""
    if value >= WIN_MIN:
        return value - ply
    if value <= -WIN_MIN:
        return value + ply
    return value


@dataclass(frozen=True)
class Score:
    """A position's value from the side to move's view, with its readable form.

    ``value`` is the integer described in this module's docstring; ``exact`` says whether it is
    the game-theoretic value (True) or comes from a depth-limited search with an evaluation
    (False). Scores compare by ``value``: greater is better for the side to move; at the same
    value a proven score ranks above an estimate, so that equality (which needs both fields
    equal) and the ordering agree: of two scores exactly one of <, == and > holds.
    """

    value: int
    exact: bool = True
    #: The game ends with numbers (:class:`~unbeatable.game.Payoff`) or has chance: an exact
    #: value is a number to show as one, not a draw or a win.
    numeric: bool = False
    #: What the value means (one of :data:`MEANINGS`); None: :data:`OUTCOME`, or
    #: :data:`PAYOFF` for a numeric score.
    meaning: str | None = None

    @property
    def means(self) -> str:
        """What the value means: :attr:`meaning`, or what a score without one means."""
        return self.meaning or (PAYOFF if self.numeric else OUTCOME)

    @property
    def probability(self) -> float | None:
        """For an expected score (a game of chance ending in wins and losses), the chance to
        win, a draw counting half: ``(1 + value) / 2``; else None."""
        if self.meaning != EXPECTED_SCORE:
            return None
        return min(1.0, max(0.0, (1 + self.value) / 2))

    @property
    def is_win(self) -> bool:
        return self.value >= WIN_MIN

    @property
    def is_loss(self) -> bool:
        return self.value <= -WIN_MIN

    @property
    def is_draw(self) -> bool:
        return self.exact and self.value == 0 and not self.numeric

    @property
    def kind(self) -> str:
        """``'win'``, ``'loss'``, ``'draw'``, ``'value'`` (an exact number, in a game that
        ends with payoffs) or ``'heuristic'``."""
        if self.is_win:
            return "win"
        if self.is_loss:
            return "loss"
        if self.exact and self.numeric:
            return "value"
        return "draw" if self.exact and self.value == 0 else "heuristic"

    @property
    def plies(self) -> int | None:
        """Plies until the game ends (win or loss), or None."""
        if self.is_win:
            return WIN - self.value
        if self.is_loss:
            return WIN + self.value
        return None

    @property
    def moves(self) -> int | None:
        """For a win, the winner's moves still to make (the winning one included); for a loss,
        the opponent's; None otherwise. This is the N of 'win in N' and 'loss in N'."""
        plies = self.plies
        if plies is None:
            return None
        return (plies + 1) // 2 if self.is_win else plies // 2

    def _rank(self) -> tuple[int, bool]:
        return (self.value, self.exact)

    def __lt__(self, other: Score) -> bool:
        return self._rank() < other._rank()

    def __le__(self, other: Score) -> bool:
        return self._rank() <= other._rank()

    def __gt__(self, other: Score) -> bool:
        return self._rank() > other._rank()

    def __ge__(self, other: Score) -> bool:
        return self._rank() >= other._rank()

    def __neg__(self) -> Score:
        return Score(-self.value, self.exact, self.numeric, self.meaning)

    def pov(self, player: int, to_move: int) -> Score:
        """This score seen by ``player`` when ``to_move`` is the side this score belongs to."""
        return self if player == to_move else -self

    def __str__(self) -> str:
        kind = self.kind
        if kind == "win":
            return "won" if self.plies == 0 else f"win in {self.moves}"
        if kind == "loss":
            return "lost" if self.plies == 0 else f"loss in {self.moves}"
        if kind == "draw":
            return "draw"
        if kind == "value":
            return value_text(self.value, self.meaning)
        return f"{heuristic_text(self.value)} (heuristic)"


def value_text(value: float, meaning: str | None = None) -> str:
    """An exact numeric value as people read it, by what it means: ``3`` (a payoff), ``81.02%
    to win (expected score +0.6204)``, ``expected payoff 2.5``, ``2 guaranteed``."""
    if meaning == EXPECTED_SCORE:
        chance = min(1.0, max(0.0, (1 + value) / 2))
        return f"{chance:.2%} to win (expected score {value:+.4f})"
    if meaning == EXPECTED_PAYOFF:
        return f"expected payoff {value:.6g}"
    if meaning == GUARANTEED_PAYOFF:
        return f"{_plain(value)} guaranteed"
    return _plain(value)


def _plain(value: float) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def heuristic_text(value: float) -> str:
    """A heuristic value with its sign: ``+12`` (an integer), ``+0.4100`` (a fraction)."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:+.4f}"
    return f"{int(value):+d}"


def solve_score(state: State, score: Score) -> int:
    """``score`` in the solve convention of Pons' Connect Four test sets, for any board game.

    0 for a draw; when the side to move wins with the stone it places while ``n`` stones are on
    the board, ``(cells + 1 - n) // 2``; the negation for a loss. ``cells`` is the game's
    :attr:`~unbeatable.game.State.max_plies`. Requires an exact score.
    """
    if not score.exact and not (score.is_win or score.is_loss):
        raise ValueError(f"a solve score needs an exact value, not {score}")
    if score.numeric:
        raise ValueError(
            f"a solve score is a win, a draw or a loss in so many moves; this game's values "
            f"are numbers ({score.means}: {score})"
        )
    cells = state.max_plies
    if cells is None:
        raise ValueError(f"{type(state).__name__} has no max_plies: no solve score")
    plies = score.plies
    if plies is None:
        return 0
    # the last stone of the game is placed when ply + plies - 1 stones are on the board
    magnitude = (cells + 2 - state.ply - plies) // 2
    return magnitude if score.is_win else -magnitude


def value_from_solve_score(state: State, score: int) -> int:
    """The inverse of :func:`solve_score`: the internal value of a solve-convention score."""
    if score == 0:
        return 0
    cells = state.max_plies
    if cells is None:
        raise ValueError(f"{type(state).__name__} has no max_plies: no solve score")
    magnitude = abs(score)
    # The deciding stone is placed when n stones are on the board, (cells + 1 - n) // 2 ==
    # magnitude; of the two such n, the one whose parity belongs to the winner.
    winner_parity = state.ply & 1 if score > 0 else (state.ply + 1) & 1
    n = cells + 1 - 2 * magnitude
    if n & 1 != winner_parity:
        n -= 1
    plies = n - state.ply + 1
    return WIN - plies if score > 0 else plies - WIN
