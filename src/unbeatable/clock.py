"""The clock policy: how long to think about one move when a game is played on a clock.

One policy for every searcher that plays on a clock (the UCI front end, the compiled chess
searcher's own ``Limits(wtime=...)``; it sits at the bottom of the layers, importing nothing
of ours, so that a game's own searcher can use it as well as a front end):
:func:`time_for_move` turns the clock into a :class:`TimeBudget` before the search starts,
and :class:`Stability` scales its soft limit after each completed iteration by how the best
move and its score have behaved.

The budget: ``reserve`` seconds are kept back on the clock for the cost of answering (the pipe,
the client, the parsing, the answer, as a GUI's clock sees it); the rest, ``usable``, is shared
evenly over the moves to come (``moves_to_go``, else :data:`HORIZON_MOVES`), plus
:data:`INCREMENT_SHARE` of what the increment gives beyond what a move costs beyond its search
(``lag``): that share is the time aimed at. No iteration starts after :data:`SOFT_SHARE` of it
(times :class:`Stability`'s scale), since an iteration takes about as long as all before it and
an unfinished one is thrown away; the search stops at :data:`HARD_SHARE` times the share, and
never later than a third of ``usable`` (all of it when this move is the last before the clock
is refilled, half when it is one of two). A clock under the reserve still gets a few
milliseconds, so that a move is always made.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import dataclass, field

__all__ = [
    "HORIZON_MOVES",
    "OVERHEAD",
    "Stability",
    "TimeBudget",
    "time_for_move",
]

#: Seconds a move is taken to cost beyond its search until it has been measured.
OVERHEAD = 0.1

#: The moves a clock without ``moves_to_go`` is shared over.
HORIZON_MOVES = 20

#: Of the increment beyond a move's cost, the part added to a move's share.
INCREMENT_SHARE = 0.9

#: No iteration starts after this part of the share (before :class:`Stability`'s scale).
SOFT_SHARE = 0.6

#: The search stops at this many shares.
HARD_SHARE = 3.0

#: The shortest search asked for (a search needs a positive time).
SHORTEST = 0.001


@dataclass(frozen=True)
class TimeBudget:
    """How long to think about one move, in seconds from its start: no new iteration starts
    after ``soft`` (scaled by :class:`Stability`), and the search stops at ``hard`` whatever it
    is doing."""

    soft: float
    hard: float

    def soft_after(self, scale: float) -> float:
        """The soft limit scaled by ``scale`` (:attr:`Stability.scale`), never past ``hard``."""
        return min(self.soft * scale, self.hard)


def time_for_move(
    remaining: float,
    increment: float = 0.0,
    moves_to_go: int | None = None,
    reserve: float = OVERHEAD,
    lag: float | None = None,
) -> TimeBudget:
    """The budget of a move with ``remaining`` seconds on the clock (before this move's
    ``increment`` is added) and ``moves_to_go`` moves before the clock is refilled.

    ``reserve`` seconds, twice, are kept back on the clock; ``lag`` (``reserve`` when not
    given) is what each move is taken to cost beyond its search, out of the increment.
    """
    lag = reserve if lag is None else lag
    usable = max(remaining - 2 * reserve, 0.0)
    moves = moves_to_go or HORIZON_MOVES
    share = usable / moves + INCREMENT_SHARE * max(increment - lag, 0.0)
    hard = min(HARD_SHARE * share, usable / min(moves, 3))
    if hard < 0.01:  # under the reserve: answer at once, with whatever depth 1 gives
        hard = max(min(0.01, remaining / 10), SHORTEST)
    return TimeBudget(soft=min(SOFT_SHARE * share, hard), hard=hard)


@dataclass
class Stability:
    """How much of the soft limit a search on a clock should use, from its completed
    iterations (:meth:`add` each one's best move and score): less when the best move has
    stood over the last five, more for each time it changed among them, more again when the
    score fell by more than ``fall`` since two iterations before (unless either is a proven
    win or loss)."""

    fall: int = 30
    moves: list[Hashable] = field(default_factory=list)
    scores: list[tuple[int, bool]] = field(default_factory=list)

    def add(self, move: Hashable, score: int, proven: bool = False) -> None:
        """A completed iteration's best move and score (``proven``: a win or loss found, not
        an evaluation)."""
        self.moves.append(move)
        self.scores.append((score, proven))

    @property
    def scale(self) -> float:
        """The factor of the soft limit: 1 before five iterations, else 0.75, plus 0.35 for
        each change of the best move over the last five, times 1.25 after a fall; at most 2."""
        if len(self.moves) < 5:
            return 1.0
        changes = sum(1 for a, b in itertools.pairwise(self.moves[-5:]) if a != b)
        scale = 0.75 + 0.35 * changes
        (score, proven), (before, proven_before) = self.scores[-1], self.scores[-3]
        if not (proven or proven_before) and score < before - self.fall:
            scale *= 1.25
        return min(scale, 2.0)
