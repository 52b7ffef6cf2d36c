"""Games of your own, loaded by name, as uvicorn loads apps: ``module:attribute``.

The attribute may be a :class:`~unbeatable.game.Game` (or a subclass made without arguments),
a :class:`~unbeatable.game.State` subclass whose no-argument instance is the start of the game,
or a function of no arguments returning either (a game, or the start position). The module is
looked for in the current directory first, then on Python's path. A game so loaded is known by
exactly the text that loaded it (its :attr:`~unbeatable.game.Game.spec`), so that the registry
finds it again by that name (:func:`unbeatable.games.get_game`), in this process and in the
worker processes forked after it was loaded.

Importing runs the module's code: only :func:`unbeatable.games.load_game` does it, when a
person names the game (a command's GAME, ``unbeatable serve --game``); :func:`get_game` never
imports, so a name in a web request can never make the server import anything.

Every failure is one :class:`GameLoadError` naming the text: a module that cannot be found or
fails while it is imported, a missing attribute, an object that is not a game.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..game import Game, State, require_text
from ..messages import cut

__all__ = [
    "ENTRY_POINT_GROUP",
    "GameLoadError",
    "LoadedGame",
    "StateGame",
    "adapt",
    "entry_points",
    "import_entry_point",
    "import_game",
    "is_import_spec",
    "load",
    "loaded",
]

#: The entry-point group under which installed packages register games (see
#: :func:`unbeatable.games.load_game`).
ENTRY_POINT_GROUP = "unbeatable.games"

#: ``module:attribute``, each a dotted Python name.
_IMPORT_SPEC = re.compile(
    r"^(?P<module>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):(?P<attribute>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$"
)

#: What the attribute may be, for the messages.
WHAT = (
    "a Game, a State subclass whose no-argument instance is the start, or a function "
    "returning either"
)

#: The games loaded in this process, by the text that loaded them.
_LOADED: dict[str, Game] = {}


class GameLoadError(ValueError):
    """A game of one's own could not be loaded: ``text`` is the name given."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


def is_import_spec(spec: str) -> bool:
    """Whether ``spec`` has the form ``module:attribute`` (dotted Python names)."""
    return _IMPORT_SPEC.match(spec.strip()) is not None


def loaded() -> dict[str, Game]:
    """The games loaded so far, by name (a copy)."""
    return dict(_LOADED)


def find_loaded(spec: str) -> Game | None:
    """The game loaded under exactly ``spec``, if any (never imports)."""
    return _LOADED.get(spec.strip())


def import_game(spec: str) -> Game:
    """The game that ``module:attribute`` names, imported now (or the one imported before),
    known from now on by ``spec``. Raises :class:`GameLoadError` naming what went wrong.

    The current directory is put first on Python's path (as uvicorn does), so that a module
    beside the command that names it is found, here and in worker processes."""
    require_text(spec)
    name = spec.strip()
    found = _LOADED.get(name)
    if found is not None:
        return found
    match = _IMPORT_SPEC.match(name)
    if match is None:
        raise GameLoadError(
            f"{cut(name)!r} is not a game's name: a game of your own is named module:attribute, "
            "e.g. mygame:Nim",
            name,
        )
    module_name, attribute = match.group("module"), match.group("attribute")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    module = _import(module_name, name)
    target: Any = module
    walked = module_name
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise GameLoadError(_missing(target, part, walked, name), name)
        target = getattr(target, part)
        walked += ("." if walked != module_name else ":") + part
    game = adapt(target, name)
    _LOADED[name] = game
    return game


def _import(module_name: str, spec: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and (
            module_name == error.name or module_name.startswith(error.name + ".")
        ):
            raise GameLoadError(
                f"cannot load the game {spec!r}: no module named {error.name!r} (looked in "
                f"the current directory {os.getcwd()!r} and on Python's path)",
                spec,
            ) from None
        raise GameLoadError(
            f"importing {module_name!r} for the game {spec!r} failed: {_summary(error)}", spec
        ) from None
    except (Exception, SystemExit) as error:
        raise GameLoadError(
            f"importing {module_name!r} for the game {spec!r} failed: {_summary(error)}", spec
        ) from None


def _summary(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _missing(target: Any, part: str, walked: str, spec: str) -> str:
    names = [n for n in dir(target) if not n.startswith("_")]
    close = difflib.get_close_matches(part, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"cannot load the game {spec!r}: {walked!r} has no attribute {part!r}{hint}"


def adapt(target: Any, spec: str, *, call: bool = True) -> Game:
    """``target`` as a game known by ``spec``: a :class:`Game` (or a Game subclass, made
    without arguments), a :class:`State` subclass (its no-argument instance is the start), a
    function returning either (with ``call``), or a State (the start)."""
    if isinstance(target, Game):
        return LoadedGame(target, spec)
    if isinstance(target, State):
        return StateGame(lambda: target, spec, type(target))
    if inspect.isclass(target) and issubclass(target, Game):
        return adapt(_make(target, spec, f"{target.__name__}()"), spec, call=False)
    if inspect.isclass(target) and issubclass(target, State):
        if inspect.isabstract(target):
            missing = ", ".join(sorted(getattr(target, "__abstractmethods__", ())))
            raise GameLoadError(
                f"cannot load the game {spec!r}: the State subclass {target.__name__} does not "
                f"define {missing}",
                spec,
            )
        start = _make(target, spec, f"{target.__name__}()")
        return StateGame(target, spec, target, start)
    if call and callable(target) and not inspect.isclass(target):
        made = _make(target, spec, f"{spec}()")
        if isinstance(made, (Game, State)) or (
            inspect.isclass(made) and issubclass(made, (Game, State))
        ):
            return adapt(made, spec, call=False)
        raise GameLoadError(
            f"cannot load the game {spec!r}: {spec}() returned {_kind(made)}, not a Game or a "
            "State",
            spec,
        )
    raise GameLoadError(f"{spec!r} is not a game: it is {_kind(target)}; it must be {WHAT}", spec)


def _make(factory: Callable[[], Any], spec: str, call: str) -> Any:
    try:
        return factory()
    except (Exception, SystemExit) as error:
        raise GameLoadError(
            f"cannot load the game {spec!r}: {call} failed: {_summary(error)}", spec
        ) from None


def _kind(value: Any) -> str:
    if inspect.isclass(value):
        return f"the class {value.__name__}"
    article = "an" if type(value).__name__[:1].lower() in "aeiou" else "a"
    return f"{article} {type(value).__name__}"


class LoadedGame(Game):
    """A :class:`Game` of one's own, known by the name that loaded it (``module:attribute``,
    or an entry point's name); everything else is the game's own."""

    def __init__(self, game: Game, spec: str) -> None:
        self.inner = game
        self.name = spec

    @property
    def spec(self) -> str:
        return self.name

    @property
    def summary(self) -> str:
        """The first line of the game's docstring, for lists of games."""
        return _first_line(type(self.inner)) or f"{type(self.inner).__name__}, your own game"

    def initial(self) -> State:
        return self.inner.initial()

    def parse_position(self, text: str) -> State:
        return self.inner.parse_position(text)

    def split_moves(self, text: str) -> list[str]:
        return self.inner.split_moves(text)

    def format_position(self, state: State) -> str:
        return self.inner.format_position(state)

    def picture(self, state: State) -> str:
        return self.inner.picture(state)

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not set yet (unpickling): never recurse
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_by_name, (self.name,))


class StateGame(Game):
    """A game given as its start position's :class:`State` subclass (or a function making the
    start): positions are moves from the start, each written as the state's
    :meth:`~unbeatable.game.State.move_text` says, separated by commas or spaces, or run
    together: moves are read one at a time, each the longest legal move's text that the rest
    begins with (so that a move's text may hold commas and spaces, as ``(0, 2)`` does)."""

    def __init__(
        self,
        make: Callable[[], State],
        spec: str,
        kind: type,
        start: State | None = None,
    ) -> None:
        self.make = make
        self.kind = kind
        self.name = spec
        self._start = start

    @property
    def spec(self) -> str:
        return self.name

    @property
    def summary(self) -> str:
        """The first line of the State subclass's docstring, for lists of games."""
        return _first_line(self.kind) or f"{self.kind.__name__}, your own game"

    def initial(self) -> State:
        if self._start is None:
            self._start = self.make()
        return self._start

    def split_moves(self, text: str) -> list[str]:
        """The moves of ``text`` from the start, read as the class docstring says (white
        space inside a move's text may be left out: ``(0,2)`` reads as ``(0, 2)``); the rest
        that no legal move begins, as one more token (so that reading it names it)."""
        rest = text.strip()
        state = self.initial()
        tokens: list[str] = []
        while rest:
            texts = sorted(
                {state.move_text(m): m for m in state.legal_moves()}.items(),
                key=lambda item: -len("".join(item[0].split())),
            )
            found = next(
                ((t, m, used) for t, m in texts if (used := _prefix(rest, t)) is not None),
                None,
            )
            if found is None:  # up to a space that no comma leads to: "(1, 9)" is one
                word = re.match(r"\S.*?(?<!,)(?=\s|$)", rest)
                tokens.append(word.group() if word is not None else rest)
                break
            tokens.append(found[0])
            state = state.play(found[1])
            rest = rest[found[2] :].lstrip(" \t\n,")
        return tokens

    def format_moves(self, state: State, moves: Sequence[Any]) -> str:
        """``moves`` from ``state`` in the notation :meth:`split_moves` reads."""
        texts = []
        for move in moves:
            texts.append(state.move_text(move))
            state = state.play(move)
        return " ".join(texts)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_by_name, (self.name,))


def _prefix(text: str, move: str) -> int | None:
    """How many characters of ``text`` spell ``move`` (white space aside), or None."""
    wanted = "".join(move.split())
    if not wanted:
        return None
    used = 0
    for char in wanted:
        while used < len(text) and text[used].isspace():
            used += 1
        if used >= len(text) or text[used] != char:
            return None
        used += 1
    return used


def _first_line(kind: type) -> str:
    doc = inspect.getdoc(kind) or ""
    if doc and kind.__doc__ is None:
        return ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def entry_points() -> dict[str, str]:
    """The games installed packages register under :data:`ENTRY_POINT_GROUP`: name ->
    ``module:attribute`` (nothing is imported)."""
    from importlib.metadata import entry_points as found

    return {point.name: point.value for point in found(group=ENTRY_POINT_GROUP)}


def import_entry_point(name: str) -> Game:
    """The game an installed package registers as ``name`` (see :func:`entry_points`),
    imported now (or the one imported before), known from now on by ``name``."""
    found = _LOADED.get(name)
    if found is not None:
        return found
    points = entry_points()
    if name not in points:
        raise GameLoadError(f"no installed package registers a game named {cut(name)!r}", name)
    game = adapt(_loaded_target(points[name], name), name)
    _LOADED[name] = game
    return game


def _loaded_target(value: str, name: str) -> Any:
    """What the entry point ``name`` (whose value is ``module:attribute``) points at."""
    module_name, _, attribute = value.partition(":")
    target: Any = _import(module_name.strip(), name)
    for part in attribute.strip().split(".") if attribute.strip() else ():
        if not hasattr(target, part):
            raise GameLoadError(_missing(target, part, value, name), name)
        target = getattr(target, part)
    return target


def load(spec: str) -> Game:
    """A game of one's own by name: one loaded before, an installed package's (an entry
    point's name), or ``module:attribute`` imported now."""
    require_text(spec)
    name = spec.strip()
    found = _LOADED.get(name)
    if found is not None:
        return found
    if not is_import_spec(name) and name in entry_points():
        return import_entry_point(name)
    return import_game(name)


def _by_name(spec: str) -> Game:
    """A loaded game found again by its name in another process (imported there if need be)."""
    return load(spec)
