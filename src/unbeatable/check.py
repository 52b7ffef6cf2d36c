"""Conformance checks for a game: does it keep the promises the search relies on?

``check_game(state)`` plays reproducible random games from ``state`` and checks, at every
position, what :class:`~unbeatable.game.State` promises (read its docstring): an outcome that
is an :class:`~unbeatable.game.Outcome`, a :class:`~unbeatable.game.Payoff` exactly in a game
that declares ``numeric_outcomes``, or None (and ``is_terminal()`` saying the same), legal
moves exactly while the game goes on, in the same order each time they are asked for, ``play``
that returns a new state and leaves its input alone, equal positions equal and hashing equal, a
hashable table key, a side to move that is one of the players, a numeric evaluation, hints
that are legal moves (``ordered_moves``, ``noisy_moves``, ``winning_move``, and a winning move
that wins), a ``ply`` that is 0 at a game's initial position and grows by one with each move
(or stays 0 in a game that does not count moves), a ``max_plies`` that no game outlasts and
that never grows along a game, a ``null_move`` that gives the other player the move in a new
state that keeps these promises itself, picklable states (the parallel search sends them to
other processes) and, when the game can read and write positions and moves, notation that
reads back. Turns need not alternate. A game of chance is held to its chance nodes (declared
by ``has_chance``; outcomes that are the legal moves, in order, with positive probabilities
summing to 1); a game of more than two players to payoffs of one value per player and an
evaluation for each; a game that declares ``value_bounds`` to payoffs and evaluations within
them. The first broken promise raises :class:`GameCheckError`, which names the check, the
position and the move.

>>> from unbeatable import check_game, get_game
>>> check_game(get_game("tictactoe").initial(), games=5).positions > 0
True
"""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .game import Game, GameError, Move, Outcome, Payoff, State

__all__ = ["CheckReport", "GameCheckError", "check_game"]


class GameCheckError(AssertionError):
    """A game broke a promise of the protocol: ``check`` names which, ``position`` is the
    position's text, ``move`` the move involved (or None)."""

    def __init__(self, check: str, position: str, detail: str, move: str | None = None) -> None:
        where = f"after move {move} " if move is not None else ""
        super().__init__(f"{check}: {detail} ({where}in {position})")
        self.check = check
        self.position = position
        self.move = move


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check_game` looked at: games played and positions checked."""

    games: int
    positions: int
    longest: int


def check_game(
    start: State | Game,
    *,
    games: int = 20,
    seed: int = 0,
    max_plies: int = 400,
) -> CheckReport:
    """Play ``games`` random games (at most ``max_plies`` moves each) from ``start`` (a state,
    or a game's initial position) with a generator seeded by ``seed``, checking every position;
    raise :class:`GameCheckError` on the first broken promise, else say what was checked."""
    game = start if isinstance(start, Game) else None
    state = start.initial() if isinstance(start, Game) else start
    if not isinstance(state, State):
        raise TypeError(f"check_game needs a State or a Game, not {type(start).__name__}")
    if game is not None and _plies(state)[0] != 0:
        raise _fail("ply", state, f"ply is {state.ply} at the game's initial position, not 0")
    game = game or state.game
    rng = random.Random(seed)
    positions = longest = 0
    steps = _Steps()
    for _ in range(games):
        position, plies = state, 0
        while True:
            _check_position(position, game)
            _check_length(position, plies)
            positions += 1
            if position.outcome() is not None or plies >= max_plies:
                break
            moves = list(position.legal_moves())
            move = rng.choice(moves)
            child = _check_play(position, move)
            steps.check(position, child, move)
            position = child
            plies += 1
        longest = max(longest, plies)
    return CheckReport(games, positions, longest)


class _Steps:
    """What a move must do to ``ply`` and ``max_plies``: ``ply`` grows by one, or stays 0 at
    every position of a game that does not count moves (turns need not alternate, so ``ply``
    says nothing about who moves); ``max_plies``, a bound on the whole game, never grows."""

    def __init__(self) -> None:
        self.uncounted = False  # a move was seen after which ply stayed 0

    def check(self, state: State, child: State, move: Move) -> None:
        (before, bound), (after, most) = _plies(state), _plies(child)
        if before == after == 0:
            self.uncounted = True
        elif after != before + 1:
            raise _fail("ply", state, f"ply goes from {before} to {after}: a move adds one", move)
        elif self.uncounted:
            detail = f"ply goes from 0 to {after}, but stayed 0 after another move: count all"
            raise _fail("ply", state, detail, move)
        if bound is not None and (most is None or most > bound):
            raise _fail("max_plies", state, f"max_plies grows from {bound} to {most}", move)


def _plies(state: State) -> tuple[int, int | None]:
    """The state's ``ply`` and ``max_plies``: whole numbers (``max_plies`` may be None)."""
    ply = _call("ply", state, lambda: state.ply)
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
        raise _fail("ply", state, f"ply must be a whole number >= 0, not {ply!r}")
    most = _call("max_plies", state, lambda: state.max_plies)
    if most is not None and (isinstance(most, bool) or not isinstance(most, int) or most < 0):
        detail = f"max_plies must be None or a whole number >= 0, not {most!r}"
        raise _fail("max_plies", state, detail)
    return ply, most


def _check_length(state: State, plies: int) -> None:
    """No game outlasts ``max_plies``: it is at least the moves played so far (``ply``, or the
    ``plies`` played since the check's start in a game that does not count them), and one
    more while the game goes on (a legal move is left)."""
    ply, most = _plies(state)
    if most is None:
        return
    played = max(ply, plies)
    if state.outcome() is None and played >= most:
        detail = f"the game goes on after {played} moves: it outlasts max_plies {most}"
        raise _fail("max_plies", state, detail)
    if played > most:
        detail = f"the game ended after {played} moves, more than max_plies {most}"
        raise _fail("max_plies", state, detail)


def _text(state: State) -> str:
    try:
        return str(state)[:200]
    except Exception as err:  # a broken __str__ must not hide the real problem
        return f"<{type(state).__name__}: str() raised {type(err).__name__}>"


def _fail(check: str, state: State, detail: str, move: Move | None = None) -> GameCheckError:
    label = None
    if move is not None:
        try:
            label = state.move_text(move)
        except Exception:
            label = repr(move)
    return GameCheckError(check, _text(state), detail, label)


def _call(check: str, state: State, what: Callable[[], Any], move: Move | None = None) -> Any:
    try:
        return what()
    except GameCheckError:
        raise
    except Exception as err:
        raise _fail(check, state, f"raised {type(err).__name__}: {err}", move) from err


def _check_position(state: State, game: Game | None, *, passed: bool = False) -> None:
    """The promises of one position. ``passed``: the position came from ``null_move`` (then
    it is not passed again, and its notation is not asked for: no move sequence reaches it)."""
    outcome = _call("outcome", state, state.outcome)
    if outcome is not None and not isinstance(outcome, (Outcome, Payoff)):
        raise _fail(
            "outcome", state, f"outcome() must return an Outcome, a Payoff or None, not {outcome!r}"
        )
    if outcome is not None and isinstance(outcome, Payoff) != state.numeric_outcomes:
        raise _fail(
            "outcome",
            state,
            f"outcome() returned {outcome!r} but numeric_outcomes is {state.numeric_outcomes}"
            " (a game ends with Payoffs exactly when it sets numeric_outcomes)",
        )
    if _call("is_terminal", state, state.is_terminal) != (outcome is not None):
        raise _fail("is_terminal", state, "is_terminal() disagrees with outcome()")
    players = _check_players(state, outcome)
    to_move = _call("to_move", state, lambda: state.to_move)
    if not isinstance(to_move, int) or isinstance(to_move, bool) or not 0 <= to_move < players:
        raise _fail(
            "to_move",
            state,
            f"to_move must be a player from 0 to {players - 1}, not {to_move!r}",
        )
    _plies(state)
    moves = _check_moves(state, outcome)
    key = _call("key", state, state.key)
    _call("key", state, lambda: hash(key))
    _call("hash", state, lambda: hash(state))
    clone = _call("pickle", state, lambda: pickle.loads(pickle.dumps(state)))
    if clone != state or hash(clone) != hash(state) or clone.key() != key:
        raise _fail(
            "pickle",
            state,
            "a pickled copy differs (equality, hash or key)",
        )
    chance = _call("is_chance", state, lambda: state.is_chance)
    if chance:
        _check_chance(state, outcome, moves)
    if outcome is not None:
        return
    _check_evaluation(state, players)
    if not chance:  # hints are for a player's moves, not for a roll
        _check_hints(state, moves, to_move)
    if passed:
        return
    _check_null_move(state, game, to_move)
    if game is not None:
        _check_notation(state, game, moves)


def _check_players(state: State, outcome: Outcome | Payoff | None) -> int:
    """How many players: two or more, a payoff of one value each, within the bounds."""
    players = _call("players", state, lambda: state.players)
    if not isinstance(players, int) or isinstance(players, bool) or players < 2:
        raise _fail("players", state, f"players must be a whole number >= 2, not {players!r}")
    if players > 2 and not state.numeric_outcomes:
        raise _fail(
            "players",
            state,
            f"a game of {players} players ends with a Payoff of one value per player and "
            "says so: set numeric_outcomes = True (an Outcome names two players only)",
        )
    if isinstance(outcome, Payoff) and len(outcome.values) != players:
        raise _fail(
            "outcome",
            state,
            f"the payoff {outcome!r} has {len(outcome.values)} values for {players} players",
        )
    bounds = state.value_bounds
    if bounds is not None:
        low, high = _bounds(state, bounds)
        if isinstance(outcome, Payoff) and not all(low <= v <= high for v in outcome.values):
            raise _fail("value_bounds", state, f"the payoff {outcome!r} lies outside {bounds!r}")
    return players


def _check_evaluation(state: State, players: int) -> None:
    """A number from evaluate() (within the bounds), and one per player from
    evaluate_players()."""
    value = _call("evaluate", state, state.evaluate)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise _fail("evaluate", state, f"evaluate() must return a number, not {value!r}")
    bounds = state.value_bounds
    if bounds is not None:
        low, high = _bounds(state, bounds)
        if not low <= value <= high:
            raise _fail("value_bounds", state, f"evaluate() {value!r} lies outside {bounds!r}")
    each = list(_call("evaluate_players", state, state.evaluate_players))
    if len(each) != players or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(v) for v in each
    ):
        raise _fail(
            "evaluate_players",
            state,
            f"evaluate_players() must give {players} numbers, one per player, not {each!r}",
        )


def _bounds(state: State, bounds: Any) -> tuple[float, float]:
    """``value_bounds``, checked to be two finite numbers, the least first."""
    try:
        low, high = bounds
    except (TypeError, ValueError):
        raise _fail(
            "value_bounds", state, f"value_bounds must be (least, greatest), not {bounds!r}"
        ) from None
    if (
        not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in (low, high)
        )
        or not low < high
    ):
        raise _fail(
            "value_bounds",
            state,
            f"value_bounds must be two finite numbers, the least first, not {bounds!r}",
        )
    return float(low), float(high)


#: How far the probabilities of a chance node may sum from 1 (rounding in floats).
PROBABILITY_SLACK = 1e-9


def _check_chance(state: State, outcome: Any, moves: list[Move]) -> None:
    """A chance node: declared, unfinished, its outcomes the legal moves with probabilities."""
    if not state.has_chance:
        raise _fail("is_chance", state, "is_chance is True but the game does not set has_chance")
    if outcome is not None:
        raise _fail("is_chance", state, f"a finished game ({outcome}) is no chance node")
    pairs = list(_call("chance_outcomes", state, state.chance_outcomes))
    if not pairs:
        raise _fail("chance_outcomes", state, "a chance node lists no outcomes")
    total = 0.0
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise _fail(
                "chance_outcomes", state, f"an outcome is (move, probability), not {pair!r}"
            )
        probability = pair[1]
        if (
            isinstance(probability, bool)
            or not isinstance(probability, (int, float, Fraction))
            or not 0 < probability <= 1
        ):
            raise _fail(
                "chance_outcomes",
                state,
                f"the probability of {pair[0]!r} must be a number above 0 and at most 1, "
                f"not {probability!r}",
            )
        total += float(probability)
    if abs(total - 1) > PROBABILITY_SLACK:
        raise _fail("chance_outcomes", state, f"the probabilities sum to {total!r}, not 1")
    if [m for m, _ in pairs] != moves:
        raise _fail(
            "chance_outcomes",
            state,
            "the outcomes of chance_outcomes() must be the legal moves, in the same order",
        )


def _check_moves(state: State, outcome: Outcome | Payoff | None) -> list[Move]:
    """Legal moves exactly while the game goes on, each once, the same list each time it is
    asked for; noisy moves among them."""
    moves = list(_call("legal_moves", state, state.legal_moves))
    if outcome is None and not moves:
        raise _fail("legal_moves", state, "no legal moves but outcome() says the game goes on")
    if outcome is not None and moves:
        raise _fail("legal_moves", state, f"the game is over ({outcome}) but has legal moves")
    if len(set(map(_hashable, moves))) != len(moves):
        raise _fail("legal_moves", state, "a move is listed twice")
    if list(_call("legal_moves", state, state.legal_moves)) != moves:
        raise _fail("legal_moves", state, "legal_moves() changed between two calls (order too)")
    for move in _call("noisy_moves", state, state.noisy_moves):
        if move not in moves:
            raise _fail("noisy_moves", state, f"noisy move {move!r} is not a legal move", move)
    return moves


def _check_hints(state: State, moves: list[Move], to_move: int) -> None:
    """What the search asks of an unfinished position besides its moves: a numeric evaluation,
    an ordering of the legal moves, a winning move that is legal and wins, and two threats of
    the opponent's that every move leaves it a win."""
    value = _call("evaluate", state, state.evaluate)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise _fail("evaluate", state, f"evaluate() must return a number, not {value!r}")
    ordered = list(_call("ordered_moves", state, state.ordered_moves))
    if sorted(map(repr, ordered)) != sorted(map(repr, moves)):
        raise _fail("ordered_moves", state, "ordered_moves() is not a reordering of legal_moves()")
    win = _call("winning_move", state, state.winning_move)
    if win is not None:
        if win not in moves:
            raise _fail("winning_move", state, f"winning_move() {win!r} is not a legal move")
        end = _call("winning_move", state, lambda: state.play(win), win).outcome()
        if end is None or end.winner != to_move:
            raise _fail("winning_move", state, "the winning move does not win at once", win)
    threats = _call("threats", state, state.threats)
    if threats is not None and len(threats) >= 2 and win is None:
        # the promise: the side to move loses at the opponent's next move, whatever it plays
        for move in moves:
            child = state.play(move)
            if child.outcome() is not None or child.to_move == to_move:
                raise _fail("threats", state, "two threats, but this move escapes them", move)
            reply = child.winning_move()
            wins = [m for m in child.legal_moves() if child.play(m).outcome() is not None
                    and child.play(m).outcome().winner == child.to_move]  # type: ignore[union-attr]
            if reply is None and not wins:
                raise _fail("threats", state, "two threats, but this move escapes them", move)


def _check_null_move(state: State, game: Game | None, to_move: int) -> None:
    """A pass (``null_move``), where the game offers one: a new state, the input left alone,
    the other player to move, and a position that keeps the promises itself (the search
    searches it)."""
    if type(state).null_move is State.null_move:
        return  # the default: no pass
    copy, before = pickle.loads(pickle.dumps(state)), _seen(state)
    passed = _call("null_move", state, state.null_move)
    if passed is None:
        return
    if not isinstance(passed, State):
        detail = f"null_move() must return a State or None, not {type(passed).__name__}"
        raise _fail("null_move", state, detail)
    if passed is state:
        raise _fail("null_move", state, "null_move() returned the state itself, not a new one")
    if state != copy or _seen(state) != before:
        detail = "null_move() changed the state it was called on (must not mutate)"
        raise _fail("null_move", copy, detail)
    other = _call("null_move", passed, lambda: passed.to_move)
    if other != 1 - to_move:
        detail = f"null_move() must give the other player the move, but {other!r} is to move"
        raise _fail("null_move", state, detail)
    try:
        _check_position(passed, game, passed=True)
    except GameCheckError as err:
        detail = f"the position it gives breaks a promise: {err}"
        raise _fail("null_move", state, detail) from err


def _check_notation(state: State, game: Game, moves: list[Move]) -> None:
    """Positions and moves that the game writes, it reads back (up to 30 moves a position)."""
    for move in moves[:: max(1, len(moves) // 30)]:
        text: str = _call("move_text", state, lambda: state.move_text(move), move)  # noqa: B023
        back = _call("parse_move", state, lambda: state.parse_move(text), move)  # noqa: B023
        if back != move:
            raise _fail("parse_move", state, f"{text!r} reads back as {back!r}", move)
    try:
        text = game.format_position(state)
    except (NotImplementedError, GameError):
        return
    again = _call("parse_position", state, lambda: game.parse_position(text))
    if again != state:
        raise _fail("parse_position", state, f"{text!r} reads back as another position")
    if hash(again) != hash(state):
        raise _fail("parse_position", state, f"{text!r} reads back equal but hashing otherwise")


def _check_play(state: State, move: Move) -> State:
    """Play ``move``; the state must be left as it was and the child must be a new state.

    What is compared is what the search sees (equality with a copy made before, the hash, the
    text, the legal moves), not the object's bytes: a cached property may fill in."""
    copy, before = pickle.loads(pickle.dumps(state)), _seen(state)
    child = _call("play", state, lambda: state.play(move), move)
    if not isinstance(child, State):
        raise _fail("play", state, f"play() must return a State, not {type(child).__name__}", move)
    if child is state or state != copy or _seen(state) != before:
        raise _fail(
            "play", copy, "play() changed the state it was called on (must not mutate)", move
        )
    return child


def _seen(state: State) -> tuple[Any, ...]:
    return (hash(state), _text(state), state.to_move, tuple(map(repr, state.legal_moves())))


def _hashable(move: Move) -> Any:
    try:
        hash(move)
    except TypeError:
        return repr(move)
    return move
