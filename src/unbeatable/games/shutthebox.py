"""Shut the Box, the pub dice game: tiles 1 to 9, two dice, lowest score wins.

The players take their turns one after another. A turn: roll two dice (or, once the open
tiles add up to 6 or less, one die if the player likes), then shut open tiles that add up to
the roll, any number of them; again, until a roll cannot be matched. The player's score is
the sum of the tiles left open (0: the box is shut). When everyone has played, the lowest
score wins; players on the same score share the win (two players: a draw).

Two players end with a win, a draw or a loss: a position is worth its expected score (the
chance to win, a draw counting half, is half of one plus it). Three or more end with a
:class:`~unbeatable.game.Payoff`: each winner gets an equal share of 1, so a position is
worth to every player its chance to win (max^n: each player maximises its own).

Notation, one move at a time: a choice of dice ``1d`` or ``2d`` (when the open tiles add up
to 6 or less), a roll by its total (``7``), tiles to shut joined by ``+`` (``3+4``; one tile:
``7``). A position is a sequence of moves from the start (``7 3+4 9 9 ...``), or the scores
of the players who have played, then the tiles still open, then the roll if one is to be
matched: ``scores 12 open 1,2,5,9 roll 7`` (``scores - open 1-9``: the start).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from ..game import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Payoff,
    State,
    player_name,
    require_text,
)

__all__ = ["ShutTheBox", "ShutTheBoxPartyState", "ShutTheBoxState", "shut_the_box"]

#: The most tiles (a 12-tile box) and players.
MAX_TILES = 12
MAX_PLAYERS = 6

#: One die, then two: each total with its probability.
ONE_DIE = tuple((total, 1 / 6) for total in range(1, 7))
TWO_DICE = tuple((total, (6 - abs(total - 7)) / 36) for total in range(2, 13))

#: The open tiles at which a player may roll one die instead of two.
ONE_DIE_SUM = 6

#: The moves that choose the dice.
ONE, TWO = "1d", "2d"


@functools.lru_cache(maxsize=64)
def shut_the_box(tiles: int = 9, players: int = 2) -> ShutTheBox:
    """The game with these parameters (one shared instance per parameters)."""
    return ShutTheBox(tiles, players)


@functools.lru_cache(maxsize=1 << 14)
def _shuts(open_tiles: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every set of open tiles (a bitmask, tile ``t`` is bit ``t``) adding up to ``total``,
    each as its tiles in increasing order, the sets with the highest tiles first."""
    tiles = [t for t in range(1, MAX_TILES + 1) if open_tiles >> t & 1]
    found = [
        combo
        for size in range(1, len(tiles) + 1)
        for combo in itertools.combinations(tiles, size)
        if sum(combo) == total
    ]
    return tuple(sorted(found, key=lambda c: tuple(reversed(c)), reverse=True))


def _sum(open_tiles: int) -> int:
    return sum(t for t in range(1, MAX_TILES + 1) if open_tiles >> t & 1)


class ShutTheBox(Game):
    """Shut the Box with tiles 1 to ``tiles`` for ``players`` players."""

    name = "shutthebox"

    def __init__(self, tiles: int = 9, players: int = 2) -> None:
        for label, value, low, high in (
            ("tiles", tiles, 2, MAX_TILES),
            ("players", players, 2, MAX_PLAYERS),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(
                    f"shutthebox: {label} must be a whole number from {low} to {high}, "
                    f"not {value!r}"
                )
        self.tiles, self.players = tiles, players
        self.full = sum(1 << t for t in range(1, tiles + 1))
        kind = ShutTheBoxState if players == 2 else ShutTheBoxPartyState
        self.kind = kind
        self._initial = kind(self, (), self.full, None, _sum(self.full) <= ONE_DIE_SUM)

    @property
    def params(self) -> dict[str, Any]:
        return {"tiles": self.tiles, "players": self.players}

    def __reduce__(self) -> tuple[Any, ...]:
        return (shut_the_box, (self.tiles, self.players))

    def initial(self) -> ShutTheBoxState:
        return self._initial

    def parse_position(self, text: str) -> ShutTheBoxState:
        """A sequence of moves from the start, or ``scores ... open ... [roll N]``."""
        require_text(text)
        stripped = text.strip()
        if stripped.startswith("scores"):
            return self.parse_board(stripped)
        state = super().parse_position(stripped)
        assert isinstance(state, ShutTheBoxState)
        return state

    def parse_board(self, text: str) -> ShutTheBoxState:
        found = re.fullmatch(
            r"scores\s+(-|\d+(?:,\d+)*)\s+open\s+(-|[\d,\-]+)(?:\s+(dice\s+[12]|roll\s+\d+))?",
            text,
        )
        if found is None:
            raise InvalidPositionError(
                f"{text!r} is not a position (e.g. scores 12 open 1,2,5,9 roll 7)",
                text=text,
                position=text,
            )
        scores = () if found.group(1) == "-" else tuple(int(s) for s in found.group(1).split(","))
        open_tiles = self._tiles(found.group(2), text)
        finished = len(scores) == self.players and not open_tiles and not found.group(3)
        if len(scores) >= self.players and not finished:
            raise InvalidPositionError(
                f"{text!r}: {len(scores)} scores, but only {self.players} players play",
                text=text,
                position=text,
            )
        if not open_tiles and not finished:
            raise InvalidPositionError(
                f"{text!r}: no tile is open, but the turn goes on", text=text, position=text
            )
        if any(s > _sum(self.full) for s in scores):
            raise InvalidPositionError(
                f"{text!r}: a score above {_sum(self.full)}", text=text, position=text
            )
        roll: int | None = None
        choose = _sum(open_tiles) <= ONE_DIE_SUM
        if found.group(3):
            word, number = found.group(3).split()
            if word == "roll":
                roll = int(number)
                if not 1 <= roll <= 12 or not _shuts(open_tiles, roll):
                    raise InvalidPositionError(
                        f"{text!r}: a roll of {roll} to match, but no open tiles add up to it",
                        text=text,
                        position=text,
                    )
            else:
                choose = False  # the dice are chosen: two, or one
                roll = -int(number)
        return self.kind(self, scores, open_tiles, roll, choose)

    def _tiles(self, text: str, position: str) -> int:
        if text == "-":
            return 0
        mask = 0
        for part in text.split(","):
            low, _, high = part.partition("-")
            if not low.isdigit() or (high and not high.isdigit()):
                raise InvalidPositionError(
                    f"{text!r} in {position!r} is not a list of tiles", text=text, position=position
                )
            for tile in range(int(low), int(high or low) + 1):
                if not 1 <= tile <= self.tiles:
                    raise InvalidPositionError(
                        f"tile {tile} in {position!r} does not exist (1-{self.tiles})",
                        text=text,
                        position=position,
                    )
                mask |= 1 << tile
        return mask

    def format_position(self, state: State) -> str:
        assert isinstance(state, ShutTheBoxState)
        scores = ",".join(map(str, state.scores)) or "-"
        tiles = ",".join(str(t) for t in range(1, self.tiles + 1) if state.open >> t & 1) or "-"
        text = f"scores {scores} open {tiles}"
        if state.roll is not None:
            text += f" roll {state.roll}" if state.roll > 0 else f" dice {-state.roll}"
        return text

    def picture(self, state: State) -> str:
        assert isinstance(state, ShutTheBoxState)
        box = " ".join(str(t) if state.open >> t & 1 else "." for t in range(1, self.tiles + 1))
        lines = [f"box: {box}"]
        for player, score in enumerate(state.scores):
            lines.append(f"{player_name(player)} player scored {score}")
        outcome = state.outcome()
        if outcome is not None:
            lines.append(str(outcome))
            return "\n".join(lines)
        who = player_name(state.to_move)
        if state.roll is not None and state.roll > 0:
            lines.append(f"{who} player to shut {state.roll}")
        elif state.choose:
            lines.append(f"{who} player to choose one die or two")
        else:
            lines.append(f"{who} player to roll")
        return "\n".join(lines)


class ShutTheBoxState(State):
    """A position: the scores of the players who have played, the open tiles of the one
    playing (a bitmask), and the roll it must match (None: it is to roll; negative: the
    dice it chose, to be rolled); ``choose``: it may choose one die."""

    __slots__ = ("choose", "game", "open", "roll", "scores")

    has_chance: ClassVar[bool] = True

    game: ShutTheBox

    def __init__(
        self,
        game: ShutTheBox,
        scores: tuple[int, ...],
        open_tiles: int,
        roll: int | None,
        choose: bool,
    ) -> None:
        self.game = game
        self.scores = scores
        self.open = open_tiles
        self.roll = roll
        self.choose = choose and roll is None and open_tiles != 0

    # --- protocol ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def to_move(self) -> int:
        return min(len(self.scores), self.game.players - 1)

    @property
    def is_chance(self) -> bool:
        return len(self.scores) < self.game.players and (
            (self.roll is None and not self.choose) or (self.roll is not None and self.roll < 0)
        )

    @property
    def max_plies(self) -> int:
        # every turn shuts a tile a roll, with a choice of dice before it
        return self.game.players * (3 * self.game.tiles + 2)

    def outcome(self) -> Outcome | Payoff | None:
        if len(self.scores) < self.game.players:
            return None
        first, second = self.scores
        return (
            Outcome.DRAW
            if first == second
            else Outcome.FIRST_WINS
            if first < second
            else Outcome.SECOND_WINS
        )

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        if not self.is_chance:
            return ()
        return ONE_DIE if self.roll == -1 else TWO_DICE

    def legal_moves(self) -> list[Any]:
        if self.outcome() is not None:
            return []
        if self.is_chance:
            return [total for total, _ in self.chance_outcomes()]
        if self.choose:
            return [ONE, TWO]
        assert self.roll is not None
        return list(_shuts(self.open, self.roll))

    def play(self, move: Move) -> ShutTheBoxState:
        game, kind = self.game, type(self)
        if self.choose:
            return kind(game, self.scores, self.open, -1 if move == ONE else -2, False)
        if self.is_chance:
            total: int = move  # type: ignore[assignment]
            if _shuts(self.open, total):
                return kind(game, self.scores, self.open, total, False)
            return self._next()  # no tiles add up to the roll: the turn is over
        open_tiles = self.open
        for tile in move:  # type: ignore[attr-defined]
            open_tiles &= ~(1 << tile)
        if not open_tiles:
            return kind(game, self.scores, 0, None, False)._next()  # the box is shut
        return kind(game, self.scores, open_tiles, None, _sum(open_tiles) <= ONE_DIE_SUM)

    def _next(self) -> ShutTheBoxState:
        """The turn is over: the score written, the next player's box full."""
        game = self.game
        scores = (*self.scores, _sum(self.open))
        done = len(scores) == game.players
        full = 0 if done else game.full
        return type(self)(game, scores, full, None, not done and _sum(full) <= ONE_DIE_SUM)

    def key(self) -> Hashable:
        """Integers only (no None: its hash changes from one process to the next, and with it
        which keys share a table slot, so node counts would too)."""
        return (self.scores, self.open, 0 if self.roll is None else self.roll, self.choose)

    def evaluate(self) -> float:
        """A rough expected score: a player still to play against a score compares the tiles
        it has open with it (more open than the score needs, worse)."""
        if not self.scores:
            return 0.0
        target = min(self.scores)
        lead = (target - 0.45 * _sum(self.open)) / 10
        return max(-1.0, min(1.0, lead))

    # --- notation ------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        if isinstance(move, tuple):
            return "+".join(map(str, move))
        return str(move)

    def move_label(self, move: Move) -> str:
        """As people read it: the choice of dice in words (``roll one die``), the rest as
        written."""
        if move == ONE:
            return "roll one die"
        if move == TWO:
            return "roll two dice"
        return self.move_text(move)

    def parse_move(self, text: str) -> Move:
        token = text.strip()
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMoveError(
                f"{token!r} after the game ended ({outcome}) in {self}",
                text=token,
                position=str(self),
            )
        if self.choose:
            if token.lower() not in (ONE, TWO):
                raise InvalidMoveError(
                    f"{token!r}: choose the dice, 1d (one die) or 2d (two), in {self}",
                    text=token,
                    position=str(self),
                )
            return token.lower()
        if self.is_chance:
            totals = [t for t, _ in self.chance_outcomes()]
            if not (token.isascii() and token.isdigit()) or int(token) not in totals:
                raise InvalidMoveError(
                    f"{token!r} is not a roll of {'one die' if self.roll == -1 else 'two dice'} "
                    f"({totals[0]}-{totals[-1]}) in {self}",
                    text=token,
                    position=str(self),
                )
            return int(token)
        parts = token.split("+")
        if not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
            raise InvalidMoveError(
                f"{token!r} is not tiles to shut (e.g. 3+4) in {self}",
                text=token,
                position=str(self),
            )
        tiles = tuple(sorted(int(p) for p in parts))
        if tiles not in _shuts(self.open, self.roll or 0):
            raise IllegalMoveError(
                f"{token!r} does not shut open tiles that add up to {self.roll} in {self}",
                text=token,
                position=str(self),
            )
        return tiles

    # --- value semantics -----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ShutTheBoxState)
            and self.key() == other.key()
            and self.game.params == other.game.params
        )

    def __hash__(self) -> int:
        return hash(self.key())

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.game, self.scores, self.open, self.roll, self.choose))

    def __str__(self) -> str:
        return self.game.format_position(self)

    def __repr__(self) -> str:
        return f"<{self.game.spec} {self}>"


class ShutTheBoxPartyState(ShutTheBoxState):
    """Shut the Box for three players or more: each winner gets an equal share of 1."""

    __slots__ = ()

    numeric_outcomes: ClassVar[bool] = True
    value_bounds: ClassVar[tuple[float, float] | None] = (0.0, 1.0)

    def outcome(self) -> Outcome | Payoff | None:
        if len(self.scores) < self.game.players:
            return None
        low = min(self.scores)
        winners = [p for p, s in enumerate(self.scores) if s == low]
        share = 1 / len(winners)
        values = tuple(share if p in winners else 0.0 for p in range(self.game.players))
        names = " and ".join(player_name(p) for p in winners)
        text = f"{names} player{'s share the win' if len(winners) > 1 else ' wins'}"
        return Payoff(values, text)

    def evaluate(self) -> float:
        return 1 / self.game.players

    def evaluate_players(self) -> Sequence[float]:
        return (1 / self.game.players,) * self.game.players
