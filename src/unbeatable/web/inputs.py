"""Every input of the web API, checked at the door.

A bad input raises :class:`BadInput`, which the app turns into a 400 response with one JSON
shape: ``{"error": MESSAGE, "parameter": NAME, "text": OFFENDING_TEXT}``. The messages are the
library's own (the ones the command line prints after ``unbeatable: error:``), so the page and
the CLI say the same thing about the same bad input.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from ..game import Game, GameError, State
from ..games import MNK, Connect4, get_game
from ..messages import cut_echoes
from ..players import AIPlayer, PlayerSpecError, parse_player
from ..search import ALGORITHMS, Limits, policy

__all__ = [
    "DEFAULT_CAP",
    "MAX_CELLS",
    "MAX_DEPTH",
    "MAX_MOVES_TEXT",
    "MAX_NODES",
    "MAX_TREE_NODES",
    "MAX_WORKERS",
    "MIN_TIMEOUT",
    "BadInput",
    "Position",
    "algorithm_of",
    "flag_of",
    "is_chess",
    "opponent_of",
    "optional_float",
    "optional_int",
    "position_of",
    "searchable",
    "seconds_of",
    "timeout_of",
    "whole_number",
]

#: The server's time cap on one request's search, in seconds (a request may ask for less).
DEFAULT_CAP = 10.0

#: The characters of a board picture (``x.o/.x./...``), which the page does not take.
PICTURE = frozenset("/xXoO.")

#: The longest move sequence accepted, in characters.
MAX_MOVES_TEXT = 2000
#: The longest game spec accepted, in characters.
MAX_SPEC_TEXT = 100
#: The largest m,n,k board served (15 x 15): bigger ones are valid games, but no page for them
#: (and making one takes the event loop's time: 32 x 32 takes a quarter of a second).
MAX_CELLS = 225
#: The deepest search asked for by a depth (``depth``, ``opponent=depth:N``).
MAX_DEPTH = 200
#: The most nodes an opponent may be given (``opponent=nodes:N``): more than any search
#: visits within the time cap.
MAX_NODES = 10**9
#: The largest tree the tree view draws (pruned moves included).
MAX_TREE_NODES = 5000
#: The most workers a parallel-view search may use.
MAX_WORKERS = 4
#: The longest FEN accepted, in characters.
MAX_FEN_TEXT = 120


class BadInput(ValueError):
    """An input the API refuses: ``parameter`` names the query parameter, ``text`` the
    offending text. The message is one line, its long echoes cut (:func:`one_line`)."""

    def __init__(self, message: str, parameter: str, text: str) -> None:
        super().__init__(cut_echoes(" ".join(message.split())))
        self.parameter = parameter
        self.text = text

    def to_json(self) -> dict[str, str]:
        return {"error": str(self), "parameter": self.parameter, "text": self.text}


def one_line(error: BaseException) -> str:
    """An error's message on one line, as the command line prints it (long quotes cut)."""
    return cut_echoes(" ".join(str(error).split())) or type(error).__name__


@dataclass(frozen=True)
class Position:
    """A game and a position reached by a sequence of moves, as the URL holds them."""

    game: Game
    state: State
    moves: tuple[str, ...]  #: the moves from the start, in the game's notation
    #: the same moves as people read them (:meth:`State.move_label`: chess's SAN)
    labels: tuple[str, ...] = ()
    #: the starting position when it is not the game's initial one (chess: a FEN), else ""
    start: str = ""
    #: who made each move: a player, or None for chance (a roll of the dice)
    movers: tuple[int | None, ...] = ()

    @property
    def moves_text(self) -> str:
        """The move sequence as the URL holds it (and as :meth:`Game.parse_position` reads it
        back, from the start)."""
        joined = "".join(self.moves)
        if all(len(m) == 1 for m in self.moves) and self.game.split_moves(joined) == list(
            self.moves
        ):
            return joined
        return ",".join(self.moves)

    @property
    def text(self) -> str:
        """The whole position as :meth:`Game.parse_position` reads it (what a job is given):
        the moves, after ``fen START moves`` when there is a starting position."""
        if self.start:
            return f"fen {self.start} moves {' '.join(self.moves)}".rstrip()
        if is_chess(self.game):
            return " ".join(self.moves)  # chess reads moves separated by spaces only
        return self.moves_text


def is_chess(game: Game) -> bool:
    """True when ``game`` is chess (imported only when chess was asked for: a chess game can
    exist only once its module, and the compiled core, have been loaded)."""
    module = sys.modules.get("unbeatable.games.chess.game")
    return module is not None and isinstance(game, module.Chess)


def _text(query: Mapping[str, str], name: str, default: str, limit: int) -> str:
    text = query.get(name, default)
    if len(text) > limit:
        raise BadInput(
            f"{name}: {len(text)} characters is too long (at most {limit})", name, text[:80]
        )
    return text


def _mnk_cells(spec: str) -> int | None:
    """The cells of an ``mnk`` spec (``mnk:4,5,3``, ``mnk:m=4,n=5,k=3``), or None when it is
    another game or does not read (the registry then says what is wrong)."""
    name, _, rest = spec.strip().partition(":")
    if name.strip().lower() != "mnk":
        return None
    sides = {"m": 3, "n": 3}
    for index, part in enumerate(rest.split(",") if rest.strip() else []):
        key, eq, value = part.partition("=")
        key, value = (key.strip(), value.strip()) if eq else ("mnk"[index : index + 1], key)
        if key in sides:
            try:
                sides[key] = int(value)
            except ValueError:
                return None
    return sides["m"] * sides["n"]


def game_of(query: Mapping[str, str]) -> Game:
    """The game named by the ``game`` parameter (default tic-tac-toe)."""
    spec = _text(query, "game", "tictactoe", MAX_SPEC_TEXT)
    cells = _mnk_cells(spec)
    if cells is not None and cells > MAX_CELLS:  # before making it: a large board takes time
        raise BadInput(
            f"{spec!r}: a board of {cells} cells is too large for the page (at most {MAX_CELLS})",
            "game",
            spec,
        )
    try:
        game = get_game(spec)
    except ValueError as error:
        raise BadInput(one_line(error), "game", spec) from None
    cells = getattr(game, "cells", None)
    if isinstance(cells, int) and cells > MAX_CELLS:
        raise BadInput(
            f"{spec!r}: a board of {cells} cells is too large for the page (at most {MAX_CELLS})",
            "game",
            spec,
        )
    return game


def position_of(query: Mapping[str, str]) -> Position:
    """The ``game`` and the position its ``moves`` reach (a move sequence, the URL's form),
    from the start or, for chess, from the position ``fen`` names.

    The moves are read by the game's own :meth:`~unbeatable.game.Game.parse_position`, so a bad
    move gets the command line's message; a text that parses but is not a move sequence (a
    picture) is refused too, because the page needs the moves to undo them.
    """
    game = game_of(query)
    text = _text(query, "moves", "", MAX_MOVES_TEXT)
    fen = " ".join(_text(query, "fen", "", MAX_FEN_TEXT).split())
    chess = is_chess(game)
    if fen and not chess:
        raise BadInput(f"fen: only a chess game starts from a FEN, not {game.spec}", "fen", fen)
    if isinstance(game, (MNK, Connect4)) and any(ch in PICTURE for ch in text):
        # refused before it is read: checking that a picture can arise may take a search
        raise BadInput(
            f"{text.strip()!r} is not a sequence of moves from the start of {game.spec}",
            "moves",
            text,
        )
    if chess:  # moves separated by commas (the URL's form) or spaces
        text = " ".join(game.split_moves(text))
        if any(word in ("fen", "startpos", "moves") or "/" in word for word in text.split()):
            raise BadInput(
                f"{text!r} is not a sequence of moves (give a starting position as fen=...)",
                "moves",
                text,
            )
    start = game.initial()
    if fen:
        try:
            start = game.parse_position(f"fen {fen}")
        except (GameError, ValueError) as error:
            raise BadInput(one_line(error), "fen", fen) from None
    try:
        state = game.parse_position(f"fen {fen} moves {text}" if fen else text)
    except (GameError, ValueError) as error:
        raise BadInput(one_line(error), "moves", getattr(error, "text", None) or text) from None
    replay = start
    moves: list[str] = []
    labels: list[str] = []
    movers: list[int | None] = []
    try:
        for token in game.split_moves(text):
            move = replay.parse_move(token)
            moves.append(replay.move_text(move))
            labels.append(replay.move_label(move))
            movers.append(None if replay.is_chance else replay.to_move)
            replay = replay.play(move)
    except (GameError, ValueError):
        replay = game.initial()
    if replay != state:
        raise BadInput(
            f"{text.strip()!r} is not a sequence of moves from the start of {game.spec}",
            "moves",
            text,
        )
    return Position(game, state, tuple(moves), tuple(labels), fen, tuple(movers))


def whole_number(text: str, name: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high`` (ASCII digits, a leading minus),
    else a :class:`BadInput` about the parameter ``name``."""
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise BadInput(f"{name}: {text!r} is not a whole number", name, text)
    # a number too long to be in range is not read at all (Python refuses 4,300 digits)
    if len(digits.lstrip("0")) > len(str(max(abs(low), abs(high)))) or not (
        low <= int(text) <= high
    ):
        raise BadInput(f"{name}: {text!r} must be from {low} to {high}", name, text)
    return int(text)


def optional_int(query: Mapping[str, str], name: str, low: int = 1, high: int = 1000) -> int | None:
    """A whole number from ``low`` to ``high``, or None when the parameter is absent or empty."""
    text = query.get(name, "").strip()
    if not text:
        return None
    return whole_number(text, name, low, high)


#: The spellings of a yes/no parameter (``hints``), in lower case.
YES = ("1", "true", "on", "yes")
NO = ("", "0", "false", "off", "no")


def flag_of(query: Mapping[str, str], name: str) -> bool:
    """A yes/no parameter: ``1``, ``true``, ``on``, ``yes`` or ``0``, ``false``, ``off``,
    ``no`` (absent or empty: no); any other text is refused."""
    text = query.get(name, "").strip()
    if text.lower() in YES:
        return True
    if text.lower() in NO:
        return False
    raise BadInput(
        f"{name}: {text!r} is neither yes ({', '.join(YES)}) nor no ({', '.join(NO[1:])})",
        name,
        text,
    )


def seconds_of(text: str) -> float:
    """``text`` as a number written in ASCII without ``_`` (``float`` also reads ``１`` and
    ``1_0``); a ValueError otherwise."""
    if not text.isascii() or "_" in text:
        raise ValueError(f"not a plain number: {text!r}")
    return float(text)


def optional_float(query: Mapping[str, str], name: str, high: float) -> float | None:
    """A positive number of seconds up to ``high``, or None when absent or empty."""
    text = query.get(name, "").strip()
    if not text:
        return None
    try:
        value = seconds_of(text) if len(text) <= 20 else math.nan
    except ValueError:
        raise BadInput(f"{name}: {text!r} is not a number of seconds", name, text) from None
    if not (value > 0 and math.isfinite(value)):
        raise BadInput(f"{name}: {text!r} must be a positive number of seconds", name, text)
    if value > high:
        raise BadInput(f"{name}: {text!r} is more than the server's cap of {high:g} s", name, text)
    return value


#: The shortest time cap a request may ask for (``timeout``), in seconds: less leaves a job
#: no time to reach a worker and come back, so it could only time out.
MIN_TIMEOUT = 0.1


def timeout_of(query: Mapping[str, str], cap: float) -> float:
    """The request's time cap: the ``timeout`` parameter (lower than the server's, at least
    :data:`MIN_TIMEOUT`), else the server's."""
    given = optional_float(query, "timeout", cap)
    if given is not None and given < MIN_TIMEOUT:
        text = query.get("timeout", "").strip()
        raise BadInput(
            f"timeout: {text!r} is too short for any search (at least {MIN_TIMEOUT:g} s)",
            "timeout",
            text,
        )
    return cap if given is None else given


def algorithm_of(query: Mapping[str, str], choices: tuple[str, ...] = ALGORITHMS) -> str | None:
    """The ``algorithm`` parameter: one of ``choices``, or None for the library's default."""
    text = query.get("algorithm", "").strip()
    if not text or text == "default":
        return None
    if text not in choices:
        raise BadInput(
            f"unknown algorithm {text!r}: choose one of {', '.join(choices)}", "algorithm", text
        )
    return text


def searchable(position: Position, algorithm: str | None, parameter: str, text: str) -> None:
    """Refuse, as a 400 on ``parameter`` (whose ``text`` asked for it), an ``algorithm`` that
    cannot search the game (alpha-beta on a game of chance, or of more players): the
    library's own rule, :func:`unbeatable.search.policy.check_algorithm`."""
    if algorithm is None:
        return
    try:
        policy.check_algorithm(position.state, algorithm)
    except ValueError as error:
        raise BadInput(f"{position.game.spec}: {one_line(error)}", parameter, text) from None


def limits_of(query: Mapping[str, str], cap: float) -> Limits:
    """The ``depth`` and ``time`` parameters as the library's limits (none: exact)."""
    depth = optional_int(query, "depth", 1, MAX_DEPTH)
    seconds = optional_float(query, "time", cap)
    return Limits(depth=depth, time=seconds)


def opponent_of(query: Mapping[str, str], cap: float) -> str:
    """The ``opponent`` parameter, a player spec of ``unbeatable match`` (``perfect``,
    ``depth:N``, ``time:T``, ``nodes:N``, ``random``, with options), checked by the library's
    parser; a depth or node count is a whole number in the range the other routes take
    (depth 1 to :data:`MAX_DEPTH`, nodes 1 to :data:`MAX_NODES`)."""
    spec = _text(query, "opponent", "perfect", 100).strip() or "perfect"
    kind, colon, count = (part.strip() for part in spec.split(",")[0].partition(":"))
    if colon and kind.lower() == "time":
        try:
            seconds_of(count)
        except ValueError:
            raise BadInput(
                f"player {spec!r}: time {count!r} is not a number of seconds", "opponent", spec
            ) from None
    if colon and kind.lower() in ("depth", "nodes"):
        high = MAX_DEPTH if kind.lower() == "depth" else MAX_NODES
        try:
            whole_number(count, kind, 1, high)
        except BadInput:
            raise BadInput(
                f"player {spec!r}: {kind} {count!r} is not a whole number from 1 to {high}",
                "opponent",
                spec,
            ) from None
    try:
        player = parse_player(spec, random.Random(0))
    except PlayerSpecError as error:
        raise BadInput(one_line(error), "opponent", error.text) from None
    if isinstance(player, AIPlayer) and player.limits.time is not None and player.limits.time > cap:
        raise BadInput(
            f"player {spec!r}: {player.limits.time:g} s is more than the server's cap of {cap:g} s",
            "opponent",
            spec,
        )
    return spec


def unfinished(position: Position) -> Position:
    """``position``, refused when the game is over there (as ``unbeatable analyze`` does)."""
    outcome = position.state.outcome()
    if outcome is not None:
        text = position.moves_text
        raise BadInput(f"the game is over in {text!r}: {outcome}", "moves", text)
    return position
