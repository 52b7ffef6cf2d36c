"""The registry of games: look a game up by name and parameters.

>>> get_game("tictactoe").spec
'tictactoe'
>>> get_game("mnk:m=4,n=4,k=4").params
{'m': 4, 'n': 4, 'k': 4}
>>> get_game("mnk:4,4,4") is get_game("mnk", m=4, n=4, k=4)
True

A game of your own is loaded by :func:`load_game` (``module:attribute``, or the name an
installed package registers under the entry-point group ``unbeatable.games``): the command
line and ``unbeatable serve --game`` call it. :func:`get_game` never imports anything: it finds
the registered games and those loaded before (so a web request can name only those).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..game import Game
from ..messages import cut
from .bearoff import Bearoff, BearoffState, bearoff
from .chess import chess_game
from .connect4 import Connect4, Connect4State, connect4
from .hex import Hex, HexState, hex_game
from .leaves import Leaves, LeavesState, leaves
from .loader import ENTRY_POINT_GROUP, GameLoadError, entry_points, find_loaded, is_import_spec
from .loader import load as _load
from .loader import loaded as _loaded
from .mnk import MNK, MNKState, mnk
from .shutthebox import ShutTheBox, ShutTheBoxState, shut_the_box
from .subtraction import Subtraction, SubtractionState

__all__ = [
    "ENTRY_POINT_GROUP",
    "MNK",
    "Bearoff",
    "BearoffState",
    "Connect4",
    "Connect4State",
    "GameLoadError",
    "Hex",
    "HexState",
    "Leaves",
    "LeavesState",
    "MNKState",
    "ShutTheBox",
    "ShutTheBoxState",
    "Subtraction",
    "SubtractionState",
    "UnknownGameError",
    "entry_points",
    "get_game",
    "load_game",
    "loaded_games",
    "register",
    "registered",
]


class UnknownGameError(ValueError):
    """No game of that name is registered, or its parameters are wrong."""


@dataclass(frozen=True)
class _Entry:
    name: str
    factory: Callable[..., Game]
    params: tuple[str, ...]
    summary: str
    text: bool = False
    flags: tuple[str, ...] = ()


_REGISTRY: dict[str, _Entry] = {}


def register(
    name: str,
    factory: Callable[..., Game],
    params: tuple[str, ...] = (),
    summary: str = "",
    *,
    text: bool = False,
    flags: tuple[str, ...] = (),
) -> None:
    """Make ``factory(**params)`` available as ``name``; ``params`` are its parameter names in
    the order a positional spec (``mnk:4,4,4``) gives them. ``text``: the game takes one
    parameter, a text: everything after ``name:`` (or after ``name:PARAM=``) is handed to the
    factory as it is (``leaves:[[3,5],[6,[9,1]]]``). ``flags``: those of the parameters that a
    spec may also give by name alone, meaning 1 (``hex:5,swap`` is ``hex:5,swap=1``)."""
    if name in _REGISTRY:
        raise ValueError(f"a game named {name!r} is already registered")
    if text and len(params) != 1:
        raise ValueError(f"a game given as text takes one parameter, not {params!r}")
    _REGISTRY[name] = _Entry(name, factory, params, summary, text, flags)


def registered() -> dict[str, str]:
    """The registered games: name -> one-line summary (with its parameters)."""
    return {
        name: f"{e.summary} (parameters: {', '.join(e.params)})" if e.params else e.summary
        for name, e in sorted(_REGISTRY.items())
    }


#: The most digits a game's parameter may have (Python refuses to read 4,301 and more).
MAX_PARAM_DIGITS = 100


def _whole(spec: str, key: str, value: str) -> int:
    """A parameter's text as a whole number: ASCII digits only (``int`` also reads
    full-width digits and ``3_0``), and not longer than :data:`MAX_PARAM_DIGITS`."""
    digits = value.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise UnknownGameError(
            f"{cut(spec)!r}: parameter {key} must be a whole number, not {cut(value)!r}"
        )
    if len(digits) > MAX_PARAM_DIGITS:
        raise UnknownGameError(
            f"{cut(spec)!r}: parameter {key} has {len(digits)} digits, too many for any game "
            f"(at most {MAX_PARAM_DIGITS})"
        )
    return int(value)


def get_game(spec: str, **params: int) -> Game:
    """The game named by ``spec``: ``name``, ``name:a=1,b=2`` or ``name:1,2`` (positional)."""
    if not isinstance(spec, str):
        raise TypeError(f"a game is named by a string such as 'tictactoe', not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    entry = _REGISTRY.get(name.strip().lower())
    if entry is None:
        own = find_loaded(spec)
        if own is not None and not params:
            return own
        raise UnknownGameError(_unknown(spec))
    given = dict(params)
    if entry.text and rest.strip():
        key = entry.params[0]
        body = rest.strip()
        if body.startswith(key + "="):
            body = body[len(key) + 1 :]
        try:
            return entry.factory(body)
        except (TypeError, ValueError) as err:
            raise UnknownGameError(str(err)) from None
    if rest.strip():
        for index, part in enumerate(rest.split(",")):
            key, eq, value = part.partition("=")
            if not eq and key.strip().lower() in entry.flags:
                key, eq, value = key.strip().lower(), "=", "1"  # a flag: hex:5,swap
            if not eq:
                key, value = "", key
                if index >= len(entry.params):
                    count = len(entry.params)
                    most = f"at most {count} parameter{'s' if count != 1 else ''}"
                    raise UnknownGameError(
                        f"{spec!r}: {entry.name} takes {most if count else 'no parameters'}"
                    )
                key = entry.params[index]
            key, value = key.strip(), value.strip()
            if key in given:
                raise UnknownGameError(f"{spec!r}: parameter {key} is given twice")
            if key not in entry.params:
                raise UnknownGameError(
                    f"{spec!r}: {entry.name} has no parameter {key!r}"
                    + (f" (it has {', '.join(entry.params)})" if entry.params else "")
                )
            given[key] = _whole(spec, key, value)
    try:
        return entry.factory(**given)
    except (TypeError, ValueError) as err:
        raise UnknownGameError(f"{spec!r}: {err}") from None


def _unknown(spec: str) -> str:
    """Why ``spec`` names no game, and what does (the same words from :func:`get_game` and
    :func:`load_game`: the web page and the command line say the same)."""
    known = sorted(_REGISTRY) + sorted(_loaded())
    text = f"unknown game {cut(spec)!r}: choose one of {', '.join(known)}"
    if not is_import_spec(spec.strip()) and spec.strip() not in entry_points():
        text += " (or a game of your own, as module:attribute: mygame:Nim)"
    else:
        text += (
            " (a game of your own is loaded first: load_game() in Python; the command line "
            "loads it, and the web page serves it when started with unbeatable serve --game "
            f"{cut(spec.strip())})"
        )
    return text


def load_game(spec: str) -> Game:
    """The game ``spec`` names, importing a game of your own if need be: a registered game
    (as :func:`get_game`), one loaded before, the name an installed package registers under
    the entry-point group :data:`ENTRY_POINT_GROUP`, or ``module:attribute`` (see
    :mod:`.loader`: a Game, a State subclass whose no-argument instance is the start, or a
    function returning either; the module is looked for in the current directory first).
    Raises :class:`UnknownGameError` or :class:`GameLoadError` (both ValueErrors) naming
    the text."""
    if not isinstance(spec, str):
        raise TypeError(f"a game is named by a string such as 'tictactoe', not {spec!r}")
    name = spec.strip().partition(":")[0].strip().lower()
    if name in _REGISTRY or find_loaded(spec) is not None:
        return get_game(spec)
    if not is_import_spec(spec.strip()) and spec.strip() not in entry_points():
        raise UnknownGameError(_unknown(spec))
    return _load(spec)


def loaded_games() -> dict[str, Game]:
    """The games of one's own loaded so far (by :func:`load_game`), by name."""
    return _loaded()


register("tictactoe", lambda: mnk(3, 3, 3), (), "tic-tac-toe, the 3,3,3 game")
register(
    "mnk",
    mnk,
    ("m", "n", "k", "players"),
    "m rows, n columns, k in a row wins; players=3 or more take turns, each its own mark",
)
register("connect4", connect4, ("width", "height"), "Connect Four, 7 wide and 6 high by default")
register("subtraction", Subtraction, ("pile", "take"), "take 1..take tokens; the last take wins")
register(
    "hex", hex_game, ("size", "swap"), "Hex on a size x size board (2-11); swap: the swap rule",
    flags=("swap",),
)
register("chess", chess_game, (), "chess (our own compiled rules and engine)")
register(
    "shutthebox",
    shut_the_box,
    ("tiles", "players"),
    "Shut the Box, the pub dice game: shut tiles that add up to the roll; lowest score wins",
)
register(
    "bearoff",
    bearoff,
    ("checkers", "points"),
    "a backgammon bear-off race: two dice, each side's last checkers home",
)
register(
    "leaves",
    leaves,
    ("tree",),
    "your own textbook tree: lists are MAX and MIN nodes in turn, numbers are leaves",
    text=True,
)
