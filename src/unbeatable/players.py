"""Players and matches: who chooses the moves, kept apart from the rules of the games."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .game import Move, Outcome, Payoff, State
from .messages import cut
from .search import ALGORITHMS, Limits, Searcher, SearchResult
from .search.options import PLAYOUTS

__all__ = [
    "AIPlayer",
    "MatchRecord",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "Tally",
    "parse_player",
    "play_match",
    "roll",
    "score_game",
]

#: The evaluations a player spec can ask for: the game's own, or none (every unfinished
#: position at the depth limit is worth 0).
EVALUATIONS = ("game", "zero")

PLAYER_SPECS = (
    "random | perfect | depth:N | time:SECONDS | nodes:N | mcts:SECONDS, optionally followed "
    f"by ,algorithm=NAME ({'|'.join(ALGORITHMS)}), ,eval=game|zero and (mcts) "
    f",playout={'|'.join(PLAYOUTS)}"
)


class PlayerSpecError(ValueError):
    """A player spec that does not parse; carries the offending text."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


def roll(state: State, rng: random.Random) -> Move:
    """Chance's move at a chance node (:attr:`State.is_chance`): an outcome drawn with its
    probability by ``rng``."""
    outcomes = list(state.chance_outcomes())
    if not outcomes:
        raise ValueError(f"{state} is no chance node: nothing to roll")
    point = rng.random() * sum(float(p) for _, p in outcomes)
    for move, probability in outcomes:
        point -= float(probability)
        if point < 0:
            return move
    return outcomes[-1][0]


class Player:
    """Chooses a move in a position; ``name`` is shown in tables."""

    name = "player"

    def choose(self, state: State) -> Move:
        raise NotImplementedError


class RandomPlayer(Player):
    """Plays a uniformly random legal move with the generator it is given."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.name = "random"

    def choose(self, state: State) -> Move:
        return self.rng.choice(list(state.legal_moves()))


class AIPlayer(Player):
    """Plays the search's move within ``limits`` (no limit: perfect play where it can solve)."""

    def __init__(
        self,
        limits: Limits | None = None,
        searcher: Searcher | None = None,
        name: str | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.searcher = searcher or Searcher()
        self.last: SearchResult | None = None
        if name is None:
            parts = []
            if self.limits.depth is not None:
                parts.append(f"depth {self.limits.depth}")
            if self.limits.time is not None:
                parts.append(f"{self.limits.time:g}s")
            name = "ai " + ", ".join(parts) if parts else "perfect"
        self.name = name

    def choose(self, state: State) -> Move:
        self.last = self.searcher.search(state, self.limits)
        assert self.last.move is not None
        return self.last.move


def _zero(state: State) -> float:
    return 0


def parse_player(spec: str, rng: random.Random) -> Player:
    """The player that ``spec`` describes (see :data:`PLAYER_SPECS`), named by its spec.

    ``rng`` breaks ties: the random player draws its moves from it, and an AI player picks at
    random among equally good moves (so that games between the same players differ).

    >>> parse_player("depth:3,eval=zero", random.Random(1)).name
    'depth:3,eval=zero'
    """
    text = spec.strip()
    head, *options = [part.strip() for part in text.split(",")]
    kind, colon, arg = head.partition(":")
    kind = kind.lower()

    def bad(why: str) -> PlayerSpecError:
        return PlayerSpecError(f"player {spec!r}: {why} (a player is {PLAYER_SPECS})", spec)

    if kind == "random":
        if colon or options:
            raise bad("random takes no argument or option")
        player: Player = RandomPlayer(rng)
        player.name = text
        return player
    algorithm, evaluate, playout = _options(options, bad)
    try:
        if kind == "perfect":
            if colon:
                raise bad("perfect takes no argument")
            limits = Limits()
        elif kind == "depth":
            limits = Limits(depth=_whole(arg))
        elif kind == "nodes":
            limits = Limits(nodes=_whole(arg))
        elif kind == "time":
            limits = Limits(time=_seconds(arg))
        elif kind == "mcts":  # Monte Carlo tree search for SECONDS a move
            if algorithm not in (None, "mcts"):
                raise bad(f"mcts plays Monte Carlo tree search, not {algorithm}")
            limits, algorithm = Limits(time=_seconds(arg)), "mcts"
        else:
            raise bad(f"unknown kind {kind!r}")
    except ValueError as err:
        if isinstance(err, PlayerSpecError):
            raise
        raise bad(f"{cut(arg)!r} is not a valid {kind} limit") from None
    searcher = Searcher(algorithm, evaluate=evaluate, rng=rng, playout=playout)
    return AIPlayer(limits, searcher, name=text)


#: The most characters a number in a player spec may have.
MAX_NUMBER_TEXT = 30


def _whole(text: str) -> int:
    """A count written in ASCII digits (``int`` also reads ``１`` and ``1_0``); a ValueError
    otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_NUMBER_TEXT:
        raise ValueError(text)
    return int(text)


def _seconds(text: str) -> float:
    """Seconds written in ASCII without ``_`` (``float`` also reads ``１`` and ``1_0``); a
    ValueError otherwise."""
    if not text.isascii() or "_" in text or len(text) > MAX_NUMBER_TEXT:
        raise ValueError(text)
    return float(text)


def _options(
    options: list[str], bad: Callable[[str], PlayerSpecError]
) -> tuple[str | None, Callable[[State], float] | None, str]:
    """The algorithm, evaluation and Monte Carlo playout that a player spec's KEY=VALUE
    options ask for."""
    algorithm: str | None = None
    evaluate: Callable[[State], float] | None = None
    playout = "random"
    for option in options:
        key, eq, value = option.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not eq or not value:
            raise bad(f"option {option!r} is not KEY=VALUE")
        if key == "algorithm":
            if value not in ALGORITHMS:
                raise bad(f"unknown algorithm {value!r}")
            algorithm = value
        elif key == "eval":
            if value not in EVALUATIONS:
                raise bad(f"unknown evaluation {value!r}")
            evaluate = _zero if value == "zero" else None
        elif key == "playout":
            if value not in PLAYOUTS:
                raise bad(f"unknown playout {value!r}")
            playout = value
        else:
            raise bad(f"unknown option {key!r}")
    return algorithm, evaluate, playout


@dataclass
class MatchRecord:
    """How one game went: the moves, the seconds each move took to choose, and the outcome."""

    moves: list[Move] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    outcome: Outcome | Payoff | None = None


def play_match(
    state: State,
    *players: Player,
    on_move: Callable[[State, Move], None] | None = None,
    rng: random.Random | None = None,
) -> MatchRecord:
    """Play one game from ``state``, player ``i`` playing side ``i`` (as many players as the
    game has: two, or more); the record of the game. At a chance node the dice are rolled
    with ``rng`` (default: a generator of its own); a roll takes no time of any player."""
    record = MatchRecord()
    if len(players) != state.players:
        raise ValueError(
            f"the game has {state.players} players, but {len(players)} were given to play it"
        )
    dice = rng if rng is not None else random.Random()
    while state.outcome() is None:
        start = time.perf_counter()
        move = roll(state, dice) if state.is_chance else players[state.to_move].choose(state)
        record.times.append(time.perf_counter() - start)
        if on_move is not None:
            on_move(state, move)
        record.moves.append(move)
        state = state.play_checked(move)
    record.outcome = state.outcome()
    return record


@dataclass
class Tally:
    """One player's results over a match: games won, drawn and lost, and the moves it chose
    with the seconds they took."""

    label: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    moves: int = 0
    seconds: float = 0.0
    #: the payoffs won, summed (a game that ends with numbers)
    payoff: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float | None:
        """The share of the points won (a win 1, a draw 1/2), or None before any game."""
        return (self.wins + self.draws / 2) / self.games if self.games else None

    @property
    def seconds_per_move(self) -> float | None:
        return self.seconds / self.moves if self.moves else None

    @property
    def mean_payoff(self) -> float | None:
        """The payoff won a game, on average (a game that ends with numbers)."""
        return self.payoff / self.games if self.games else None


def score_game(record: MatchRecord, start: State, tallies: dict[int, Tally]) -> None:
    """Add a finished game, played from ``start``, to the tally of each side: ``tallies``
    maps a side (0 first, 1 second, ...) to the tally of the player who played it. The side
    alone at the top wins; sides sharing the top draw (all of them: a draw); the others lose;
    a game that ends with a :class:`Payoff` adds each side's number to its payoff. A move
    counts for the side to move in the position it was played in, so extra turns are counted
    right; a roll of the dice counts for nobody.
    """
    outcome = record.outcome
    if outcome is None:
        raise ValueError("the game is not finished: it has no outcome to score")
    if isinstance(outcome, Payoff):
        values = outcome.values
    else:
        winner = outcome.winner
        values = tuple(0 if winner is None else 1 if p == winner else -1 for p in range(2))
    top = max(values)
    sharing = sum(1 for v in values if v == top)
    for side, tally in tallies.items():
        if values[side] < top:
            tally.losses += 1
        elif sharing > 1:
            tally.draws += 1
        else:
            tally.wins += 1
        if isinstance(outcome, Payoff):
            tally.payoff += values[side]
    state = start
    for move, seconds in zip(record.moves, record.times, strict=True):
        mover = None if state.is_chance else tallies.get(state.to_move)
        if mover is not None:
            mover.moves += 1
            mover.seconds += seconds
        state = state.play(move)
