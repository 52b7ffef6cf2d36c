"""The registry of games: look a game up by name and parameters.

>>> get_game("tictactoe").spec
'tictactoe'
>>> get_game("mnk:m=4,n=4,k=4").params
{'m': 4, 'n': 4, 'k': 4}
>>> get_game("mnk:4,4,4") is get_game("mnk", m=4, n=4, k=4)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..game import Game
from .chess import chess_game
from .connect4 import Connect4, Connect4State, connect4
from .hex import Hex, HexState, hex_game
from .leaves import Leaves, LeavesState, leaves
from .mnk import MNK, MNKState, mnk
from .subtraction import Subtraction, SubtractionState

__all__ = [
    "MNK",
    "Connect4",
    "Connect4State",
    "Hex",
    "HexState",
    "Leaves",
    "LeavesState",
    "MNKState",
    "Subtraction",
    "SubtractionState",
    "UnknownGameError",
    "get_game",
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


def get_game(spec: str, **params: int) -> Game:
    """The game named by ``spec``: ``name``, ``name:a=1,b=2`` or ``name:1,2`` (positional)."""
    if not isinstance(spec, str):
        raise TypeError(f"a game is named by a string such as 'tictactoe', not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    entry = _REGISTRY.get(name.strip().lower())
    if entry is None:
        raise UnknownGameError(
            f"unknown game {spec!r}: choose one of {', '.join(sorted(_REGISTRY))}"
        )
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
            # ASCII digits only: int() also reads full-width digits and "3_0".
            if not (value.isascii() and value.removeprefix("-").isdigit()):
                raise UnknownGameError(
                    f"{spec!r}: parameter {key} must be a whole number, not {value!r}"
                )
            given[key] = int(value)
    try:
        return entry.factory(**given)
    except (TypeError, ValueError) as err:
        raise UnknownGameError(f"{spec!r}: {err}") from None


register("tictactoe", lambda: mnk(3, 3, 3), (), "tic-tac-toe, the 3,3,3 game")
register("mnk", mnk, ("m", "n", "k"), "m rows, n columns, k in a row wins")
register("connect4", connect4, ("width", "height"), "Connect Four, 7 wide and 6 high by default")
register("subtraction", Subtraction, ("pile", "take"), "take 1..take tokens; the last take wins")
register(
    "hex", hex_game, ("size", "swap"), "Hex on a size x size board (2-11); swap: the swap rule",
    flags=("swap",),
)
register("chess", chess_game, (), "chess (needs the chess extra: python-chess, GPL-3.0)")
register(
    "leaves",
    leaves,
    ("tree",),
    "your own textbook tree: lists are MAX and MIN nodes in turn, numbers are leaves",
    text=True,
)
