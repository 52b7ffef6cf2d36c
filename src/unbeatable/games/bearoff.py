"""A backgammon bear-off race: each side's last checkers in its home board, two dice.

Each side has up to ``checkers`` checkers on its home board's points 1 to ``points`` (the
point a checker stands on is its distance from home). A turn is a roll of two dice (a
chance move: 21 rolls, a double 1 in 36, the others 2 in 36) and a play: each die moves one
checker that many points towards home, or bears it off: from the point the die names, or,
when no checker stands higher, from the highest point with a checker on it; a double is
played four times, and every die that can be played must be (in a race without contact
every die can, until the last checker is off). Whoever bears off the last checker wins. No
doubling cube: the value of a position is the side to move's expected score, its chance to
win being half of one plus it, as GNU Backgammon's two-sided bear-off database gives it
(its cubeless equity).

Notation:

* a roll ``6-4`` (the larger die first; ``3-3`` a double), a play ``6/2 4/off`` (each
  checker move from a point to a point or off, the larger first), as backgammon writes them;
* a position: a sequence of rolls and plays from the start (``6-4 6/2 4/off 2-1 ...``), or
  a board: each side's checkers on points 1, 2, ... separated by ``-``, the first player's
  then the second's after ``/``, then who is on roll and, after a roll, the dice:
  ``1-1-1/0-2-1 second`` (the second player to roll), ``1-1-1/0-2-1 first 6-4`` (the first
  player to play a 6-4).

Distinct plays that reach the same position are one move (the first in the order the
legal moves are listed: the checkers farthest from home first).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, cast

from ..game import (
    FIRST,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    State,
    player_name,
    require_text,
)

__all__ = ["ROLLS", "Bearoff", "BearoffState", "bearoff", "plays"]

#: The most checkers a side has (a backgammon set) and the most points (a home board).
MAX_CHECKERS = 15
MAX_POINTS = 6

#: A race of at most this many positions (both sides' checkers) is searched to its end when no
#: limit is given; a longer one thinks for :data:`LONG_RACE_TIMES` seconds.
SOLVABLE_POSITIONS = 10**5

#: How long a race too long to solve thinks, by purpose (see :meth:`State.thinking_time`).
LONG_RACE_TIMES = {"search": 5.0, "move": 1.0, "analysis": 2.0}

#: Every roll of two dice, the larger first, with its probability.
ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((high, low), (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
)

#: A checker move: from a point to a point (0: borne off).
Step = tuple[int, int]
#: A side's checkers: how many stand on each point, point 1 first.
Side = tuple[int, ...]


@functools.lru_cache(maxsize=64)
def bearoff(checkers: int = 3, points: int = 3) -> Bearoff:
    """The bear-off race with these parameters (one shared instance per parameters)."""
    return Bearoff(checkers, points)


class Bearoff(Game):
    """A bear-off race: ``checkers`` checkers a side on points 1 to ``points``."""

    name = "bearoff"

    def __init__(self, checkers: int = 3, points: int = 3) -> None:
        for label, value, most in (
            ("checkers", checkers, MAX_CHECKERS),
            ("points", points, MAX_POINTS),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
                raise ValueError(
                    f"bearoff: {label} must be a whole number from 1 to {most}, not {value!r}"
                )
        self.checkers, self.points = checkers, points
        base, extra = divmod(checkers, points)
        start = tuple(base + (1 if p >= points - extra else 0) for p in range(points))
        self._initial = BearoffState(self, start, start, FIRST, None)

    @property
    def params(self) -> dict[str, Any]:
        return {"checkers": self.checkers, "points": self.points}

    def __reduce__(self) -> tuple[Any, ...]:
        return (bearoff, (self.checkers, self.points))

    def initial(self) -> BearoffState:
        """Each side's checkers spread evenly over the points (the higher ones take the rest),
        the first player to roll."""
        return self._initial

    def split_moves(self, text: str) -> list[str]:
        """Rolls and plays: the checker moves that follow a roll make one play."""
        tokens: list[str] = []
        for atom in text.replace(",", " ").split():
            if "/" in atom and tokens and "/" in tokens[-1]:
                tokens[-1] += " " + atom
            else:
                tokens.append(atom)
        return tokens

    def parse_position(self, text: str) -> BearoffState:
        """A sequence of rolls and plays from the start, or a board (see the module)."""
        require_text(text)
        stripped = text.strip()
        if re.match(r"^[\d\-]+/[\d\-]+(\s|$)", stripped):
            return self.parse_board(stripped)
        state = super().parse_position(stripped)
        assert isinstance(state, BearoffState)
        return state

    def parse_board(self, text: str) -> BearoffState:
        """A board: ``1-1-1/0-2-1 first`` or ``1-1-1/0-2-1 first 6-4``."""
        words = text.split()
        if not 1 <= len(words) <= 3:
            raise InvalidPositionError(
                f"{text!r} is not a board (e.g. 1-1-1/0-2-1 first, or 1-1-1/0-2-1 first 6-4)",
                text=text,
                position=text,
            )
        halves = words[0].split("/")
        sides = [self._side(half, text) for half in halves]
        if len(sides) != 2:
            raise InvalidPositionError(
                f"{text!r}: a board is two sides, separated by /", text=text, position=text
            )
        turn = FIRST
        if len(words) >= 2:
            names = {"first": 0, "x": 0, "1": 0, "second": 1, "o": 1, "2": 1}
            if words[1].lower() not in names:
                raise InvalidPositionError(
                    f"{words[1]!r} in {text!r} is not a player (first or second)",
                    text=words[1],
                    position=text,
                )
            turn = names[words[1].lower()]
        dice = None
        if len(words) == 3:
            dice = _roll(words[2], text).dice
        state = BearoffState(self, sides[0], sides[1], turn, dice)
        if dice is not None and state.outcome() is not None:
            raise InvalidPositionError(
                f"{text!r}: the game is over, there is nothing to play", text=text, position=text
            )
        if not any(sides[0]) and not any(sides[1]):
            raise InvalidPositionError(
                f"{text!r}: both sides cannot have borne off", text=text, position=text
            )
        return state

    def _side(self, half: str, text: str) -> Side:
        counts = half.split("-")
        if len(counts) != self.points or not all(
            c.isascii() and c.isdigit() and len(c) <= 2 for c in counts
        ):
            raise InvalidPositionError(
                f"{half!r} in {text!r} is not {self.points} counts of checkers separated by -",
                text=half,
                position=text,
            )
        side = tuple(int(c) for c in counts)
        if sum(side) > self.checkers:
            raise InvalidPositionError(
                f"{half!r} in {text!r} has {sum(side)} checkers, more than {self.checkers}",
                text=half,
                position=text,
            )
        return side

    def format_position(self, state: State) -> str:
        assert isinstance(state, BearoffState)
        board = "/".join("-".join(map(str, side)) for side in (state.first, state.second))
        text = f"{board} {player_name(state.turn)}"
        if state.dice is not None:
            text += f" {_dice_text(state.dice)}"
        return text

    def picture(self, state: State) -> str:
        assert isinstance(state, BearoffState)
        width = max(2, *(len(str(c)) for c in state.first + state.second))
        head = " ".join(str(p + 1).rjust(width) for p in range(self.points))
        lines = [f"point   {head}"]
        for name, side in (("first", state.first), ("second", state.second)):
            row = " ".join((str(c) if c else ".").rjust(width) for c in side)
            off = self.checkers - sum(side)
            lines.append(f"{name:<7} {row}   {_pips(side)} pips, {off} off")
        outcome = state.outcome()
        if outcome is not None:
            lines.append(str(outcome))
        elif state.dice is None:
            lines.append(f"{player_name(state.turn)} player to roll")
        else:
            lines.append(f"{player_name(state.turn)} player to play {_dice_text(state.dice)}")
        return "\n".join(lines)


def _pips(side: Side) -> int:
    return sum((point + 1) * count for point, count in enumerate(side))


def _dice_text(dice: tuple[int, ...]) -> str:
    return f"{dice[0]}-{dice[-1]}" if len(dice) == 2 else f"{dice[0]}-{dice[0]}"


class _Roll:
    def __init__(self, high: int, low: int) -> None:
        self.move = (high, low)
        self.dice = (high, low) if high != low else (high,) * 4


def _roll(text: str, position: str) -> _Roll:
    found = re.fullmatch(r"([1-6])-([1-6])", text.strip())
    if found is None:
        raise InvalidMoveError(
            f"{text!r} is not a roll of two dice (e.g. 6-4, 3-3)", text=text, position=position
        )
    a, b = int(found.group(1)), int(found.group(2))
    return _Roll(max(a, b), min(a, b))


def _die_steps(side: Side, die: int) -> list[Step]:
    """Every way to play one die: a checker ``die`` points nearer home, or off (from the
    point the die names, or from the highest point when the die is higher)."""
    top = max((p + 1 for p, c in enumerate(side) if c), default=0)
    steps = []
    for point in range(top, 0, -1):
        if not side[point - 1]:
            continue
        if point > die:
            steps.append((point, point - die))
        elif point in (die, top):
            steps.append((point, 0))
    return steps


def _step(side: Side, step: Step) -> Side:
    start, end = step
    counts = list(side)
    counts[start - 1] -= 1
    if end:
        counts[end - 1] += 1
    return tuple(counts)


@functools.lru_cache(maxsize=1 << 16)
def plays(side: Side, dice: tuple[int, ...]) -> Mapping[Side, tuple[Step, ...]]:
    """Every position a roll can leave ``side`` in, with one play that reaches it (the first
    in the order :meth:`BearoffState.legal_moves` lists plays): each die played in turn (both
    orders of two different dice), as many as can be played. Remembered for the last 65,536
    sides and rolls asked (read-only)."""
    orders = {dice, tuple(reversed(dice))}
    found: dict[Side, tuple[Step, ...]] = {}

    def walk(position: Side, left: tuple[int, ...], done: tuple[Step, ...]) -> None:
        steps = _die_steps(position, left[0]) if left and any(position) else []
        if not steps:
            play = tuple(sorted(done, reverse=True))
            known = found.get(position)
            if known is None or play > known:
                found[position] = play
            return
        for step in steps:
            walk(_step(position, step), left[1:], (*done, step))

    for order in sorted(orders):
        walk(side, order, ())
    return MappingProxyType(found)


def _play_text(play: tuple[Step, ...]) -> str:
    return " ".join(f"{a}/{b if b else 'off'}" for a, b in play)


class BearoffState(State):
    """A position of the race: both sides' checkers, whose turn it is, and the dice it rolled
    (None: it is still to roll, a chance node)."""

    __slots__ = ("dice", "first", "game", "second", "turn")

    has_chance: ClassVar[bool] = True

    game: Bearoff

    def __init__(
        self, game: Bearoff, first: Side, second: Side, turn: int, dice: tuple[int, ...] | None
    ) -> None:
        self.game = game
        self.first = first
        self.second = second
        self.turn = turn
        self.dice = dice

    # --- protocol ------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def is_chance(self) -> bool:
        return self.dice is None and self.outcome() is None

    @property
    def max_plies(self) -> int:
        # each turn (a roll and a play) takes at least 2 pips from a side, until its last
        most = self.game.checkers * self.game.points
        return 4 * (most // 2 + 1)

    def outcome(self) -> Outcome | None:
        if not any(self.first):
            return Outcome.FIRST_WINS
        if not any(self.second):
            return Outcome.SECOND_WINS
        return None

    def thinking_time(self, purpose: str = "search") -> float | None:
        """None for a race small enough to solve (100,000 positions at most: 4 checkers on 6
        points); a longer race thinks as chess does: 5 s a search, 1 s an opponent's move on
        the page, 2 s an analysis there (see :meth:`State.thinking_time`)."""
        game = self.game
        if math.comb(game.checkers + game.points, game.points) ** 2 <= SOLVABLE_POSITIONS:
            return None
        return LONG_RACE_TIMES.get(purpose, LONG_RACE_TIMES["search"])

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        return ROLLS if self.is_chance else ()

    def legal_moves(self) -> list[Any]:
        if self.outcome() is not None:
            return []
        if self.dice is None:
            return [roll for roll, _ in ROLLS]
        return sorted(self._plays().values(), reverse=True)

    def ordered_moves(self) -> list[Any]:
        """The plays that leave the fewest checkers, then the fewest pips, first (a guess at
        the best, for the search's pruning); the rolls as they come."""
        if self.dice is None or self.outcome() is not None:
            return self.legal_moves()
        found = self._plays()
        return [found[side] for side in sorted(found, key=lambda side: (sum(side), _pips(side)))]

    def _plays(self) -> Mapping[Side, tuple[Step, ...]]:
        assert self.dice is not None
        return plays(self.first if self.turn == FIRST else self.second, self.dice)

    def play(self, move: Move) -> BearoffState:
        if self.dice is None:
            high, low = cast(tuple[int, int], move)
            dice = (high, low) if high != low else (high,) * 4
            return BearoffState(self.game, self.first, self.second, self.turn, dice)
        side = self.first if self.turn == FIRST else self.second
        for step in move:  # type: ignore[attr-defined]
            side = _step(side, step)
        if self.turn == FIRST:
            return BearoffState(self.game, side, self.second, 1, None)
        return BearoffState(self.game, self.first, side, 0, None)

    def key(self) -> Hashable:
        """The side to move's checkers first: a position is worth the same to whoever is on
        roll in it. Integers only (no None: its hash changes from one process to the next, and
        with it which keys share a table slot, so node counts would too)."""
        mine, theirs = (
            (self.first, self.second) if self.turn == FIRST else (self.second, self.first)
        )
        return (mine, theirs, self.dice or ())

    def evaluate(self) -> float:
        """A rough expected score from the race: each side's turns still needed, guessed from
        its pips (8.17 a roll on average, and some wasted) and its checkers (two a roll at
        most), the side on roll a half turn ahead."""
        mine, theirs = (
            (self.first, self.second) if self.turn == FIRST else (self.second, self.first)
        )
        lead = _turns(theirs) - _turns(mine) + (0.5 if self.dice is None else 0.0)
        if self.dice is not None:
            lead += sum(self.dice) / 8.17
        return max(-1.0, min(1.0, math.tanh(lead / 1.5)))

    # --- notation ------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        if self.dice is None:
            return _dice_text(cast(tuple[int, int], move))
        return _play_text(cast(tuple[Step, ...], move))

    def parse_move(self, text: str) -> Move:
        token = text.strip()
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMoveError(
                f"{token!r} after the game ended ({outcome}) in {self}",
                text=token,
                position=str(self),
            )
        if self.dice is None:
            if "/" in token:
                raise IllegalMoveError(
                    f"{token!r}: {player_name(self.turn)} is to roll first in {self}",
                    text=token,
                    position=str(self),
                )
            return _roll(token, str(self)).move
        steps = re.findall(r"(\d+)/(\d+|off)", token)
        if not steps or " ".join(f"{a}/{b}" for a, b in steps) != " ".join(token.split()):
            raise InvalidMoveError(
                f"{token!r} is not a play (checker moves such as 6/2 4/off) in {self}",
                text=token,
                position=str(self),
            )
        wanted = sorted((int(a), 0 if b == "off" else int(b)) for a, b in steps)
        side = self.first if self.turn == FIRST else self.second
        for position, done in _all_plays(side, self.dice):
            if sorted(done) == wanted:
                return self._plays()[position]
        legal = ", ".join(_play_text(m) for m in self.legal_moves())
        raise IllegalMoveError(
            f"{token!r} is not a legal play of {_dice_text(self.dice)} in {self} (legal: {legal})",
            text=token,
            position=str(self),
        )

    # --- value semantics -----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BearoffState)
            and self.first == other.first
            and self.second == other.second
            and self.turn == other.turn
            and self.dice == other.dice
            and self.game.params == other.game.params
        )

    def __hash__(self) -> int:
        return hash((self.first, self.second, self.turn, self.dice or ()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (BearoffState, (self.game, self.first, self.second, self.turn, self.dice))

    def __str__(self) -> str:
        return self.game.format_position(self)

    def __repr__(self) -> str:
        return f"<{self.game.spec} {self}>"


def _turns(side: Side) -> float:
    pips = _pips(side)
    checkers = sum(side)
    return max(math.ceil(checkers / 2), (pips + 2 * checkers) / 8.17)


def _all_plays(side: Side, dice: tuple[int, ...]) -> list[tuple[Side, tuple[Step, ...]]]:
    """Every play of ``dice`` from ``side`` (each order of the dice, as many as can be
    played), with the position it leaves."""
    found: list[tuple[Side, tuple[Step, ...]]] = []

    def walk(position: Side, left: tuple[int, ...], done: tuple[Step, ...]) -> None:
        steps = _die_steps(position, left[0]) if left and any(position) else []
        if not steps:
            found.append((position, done))
            return
        for step in steps:
            walk(_step(position, step), left[1:], (*done, step))

    for order in {dice, tuple(reversed(dice))}:
        walk(side, order, ())
    return found
