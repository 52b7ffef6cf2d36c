"""What a search may do (:class:`SearchOptions`) and how far it may go (:class:`Limits`).

Both are frozen and check themselves when made, so a bad option is refused where it is written,
not deep inside a search. Every searcher (:class:`~.driver.Searcher`,
:class:`~.parallel.ParallelSearcher`, :func:`~.driver.search`) takes the same options.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..game import SolveAnswer, SolveRequest, State
from .engine import Evaluator, Orderer

__all__ = [
    "ALGORITHMS",
    "DEFAULT_TABLE_SIZE",
    "FEATURES",
    "RECURSION_SAFE_PLIES",
    "TWO_PLAYER_ALGORITHMS",
    "Limits",
    "SearchOptions",
]

#: The algorithms by name. ``alphabeta-stack`` is the explicit-stack (non-recursive) alpha-beta;
#: ``mcts`` Monte Carlo tree search (UCT with MCTS-Solver, :mod:`.mcts`); ``pns`` depth-first
#: proof-number search (df-pn, :mod:`.pns`). Games of chance: ``expectiminimax``, ``star1`` and
#: ``star2`` (*-minimax, :mod:`.chance`); of more than two players: ``maxn`` and ``paranoid``
#: (:mod:`.maxn`).
ALGORITHMS: tuple[str, ...] = ("minimax", "negamax", "alphabeta", "alphabeta-stack", "mcts", "pns")
ALGORITHMS += ("expectiminimax", "star1", "star2", "maxn", "paranoid")

#: The algorithms for two players taking turns without chance (the alpha-beta engine's).
TWO_PLAYER_ALGORITHMS = ("minimax", "negamax", "alphabeta", "alphabeta-stack")

#: How Monte Carlo tree search values a new leaf: a random playout to the end of the game, or
#: the game's evaluation (or the ``evaluate`` hook) through a logistic curve.
PLAYOUTS = ("random", "evaluation")

#: The search features a game or a search may ask for: quiescence search past the depth limit
#: (through :meth:`State.noisy_moves`); killer moves and the history heuristic (the quiet moves
#: that made cut-offs are tried earlier); principal variation search (``pvs``: the moves after
#: the first in a null window, searched again when they are better); aspiration windows at the
#: root of every iteration after the first (a window around the last value, opened on failure;
#: the serial searcher's root); null-move pruning (``null-move``, through
#: :meth:`State.null_move`); check extensions (``check-extension``, through
#: :meth:`State.extends`). Alpha-beta (recursive) only.
FEATURES = frozenset(
    {
        "quiescence",
        "killers",
        "history",
        "pvs",
        "aspiration",
        "null-move",
        "check-extension",
    }
)

#: Entries in a transposition table when no size is given.
DEFAULT_TABLE_SIZE = 1 << 20

#: Deeper than this many plies, the default choice is the explicit-stack search.
RECURSION_SAFE_PLIES = 400


def max_threads() -> int:
    """The most threads a game's own solver is given for one search: four per CPU (more only
    share the same cores, and each start and stop costs time the limits count)."""
    return 4 * (os.cpu_count() or 1)


def _whole(value: object, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


@dataclass(frozen=True)
class Limits:
    """How far a search may go. None means no limit of that kind.

    ``depth``: plies below the root (positions at the limit are evaluated); ``time``: seconds of
    wall-clock time; ``nodes``: positions visited (honoured exactly by the serial search). With
    no limit at all the search is exact.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and not _whole(self.depth, 1):
            raise ValueError(f"depth limit must be a whole number >= 1, not {self.depth!r}")
        if self.time is not None and (
            isinstance(self.time, bool)
            or not isinstance(self.time, (int, float))
            or not math.isfinite(self.time)
            or self.time <= 0
        ):
            raise ValueError(f"time limit must be a positive number of seconds, not {self.time!r}")
        if self.nodes is not None and not _whole(self.nodes, 1):
            raise ValueError(f"node limit must be a whole number >= 1, not {self.nodes!r}")

    @property
    def bounded(self) -> bool:
        """True when the search has a time or node budget (and so runs iteration by iteration)."""
        return self.time is not None or self.nodes is not None

    @staticmethod
    def of(limits: object) -> Limits:
        """``limits`` itself, or no limits for None; anything else is refused by name."""
        if limits is None:
            return Limits()
        if not isinstance(limits, Limits):
            raise TypeError(
                f"limits must be a Limits, e.g. Limits(time={limits!r}), not "
                f"{type(limits).__name__} {limits!r}"
            )
        return limits


@dataclass(frozen=True)
class SearchOptions:
    """How to search; the same options for the serial and the parallel searcher.

    ``algorithm``: one of :data:`ALGORITHMS`, or None to choose alpha-beta (explicit-stack when
    the game can outlast Python's recursion) and to let a game with a solver of its own answer.
    ``table``: keep a transposition table of ``table_size`` entries (memoization for minimax
    and negamax; bounds for alpha-beta); None means yes except for plain minimax and negamax.
    ``table_size`` None: :data:`DEFAULT_TABLE_SIZE` entries (and a game's own solver's default).
    ``symmetry``: key the table by the game's canonical key. ``hints``: use the game's move
    ordering and immediate-win detection (alpha-beta only). ``evaluate`` and ``order`` replace
    the game's evaluation and move order without forking it (the parallel searcher needs them
    picklable: module-level functions). ``rng``: break ties among equally good moves at random
    instead of taking the first in the search's move order. ``iterative``: deepen one ply at a
    time even without a time or node budget (with a budget the search always deepens).
    ``threads`` and ``book``: passed to a game's own solver (threads to use, None for every
    core; whether to use its opening book or database); ``threads`` also to a game's own
    searcher (None: its default, chess's one thread). ``multipv``: how many of the best moves
    a game's own searcher gives a line and a score when not analyzing (``lines`` of the
    result; analyzing scores every move).
    ``exploration`` and ``playout``: Monte Carlo tree search's exploration constant (UCB1's
    ``c``, rewards in [0, 1]) and how it values a new leaf (one of :data:`PLAYOUTS`).
    """

    algorithm: str | None = None
    table: bool | None = None
    table_size: int | None = None
    symmetry: bool = True
    hints: bool = True
    evaluate: Evaluator | None = None
    order: Orderer | None = None
    rng: random.Random | None = field(default=None, compare=False)
    iterative: bool = False
    threads: int | None = None
    book: bool = True
    features: frozenset[str] | None = None
    exploration: float = math.sqrt(2)
    playout: str = "random"
    multipv: int = 1

    def __post_init__(self) -> None:
        if self.algorithm is not None and self.algorithm not in ALGORITHMS:
            raise ValueError(
                f"unknown algorithm {self.algorithm!r}: choose one of {', '.join(ALGORITHMS)}"
            )
        if self.table is None:
            object.__setattr__(self, "table", self.algorithm not in ("minimax", "negamax"))
        if self.table_size is not None and not _whole(self.table_size, 1):
            raise ValueError(f"table capacity must be a positive integer, not {self.table_size!r}")
        for name in ("table", "symmetry", "hints", "iterative", "book"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be True or False, not {getattr(self, name)!r}")
        for name in ("evaluate", "order"):
            hook = getattr(self, name)
            if hook is not None and not callable(hook):
                raise TypeError(f"{name} must be a function, not {hook!r}")
        if self.rng is not None and not isinstance(self.rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {self.rng!r}")
        if self.features is not None:
            if isinstance(self.features, str) or not all(isinstance(f, str) for f in self.features):
                raise TypeError(f"features must be a set of names, not {self.features!r}")
            object.__setattr__(self, "features", frozenset(self.features))
            unknown = sorted(set(self.features) - FEATURES)
            if unknown:
                raise ValueError(
                    f"unknown search feature {unknown[0]!r}: "
                    f"choose from {', '.join(sorted(FEATURES))}"
                )
        self._check_tree_search()
        if not _whole(self.multipv, 1):
            raise ValueError(f"multipv must be a whole number >= 1, not {self.multipv!r}")
        if self.threads is not None and not _whole(self.threads, 1):
            raise ValueError(f"threads must be a whole number >= 1, not {self.threads!r}")
        if self.threads is not None and self.threads > max_threads():
            raise ValueError(
                f"{self.threads} threads is too many: at most {max_threads()} "
                f"(4 per CPU, {max_threads() // 4} CPUs here)"
            )

    def _check_tree_search(self) -> None:
        """Monte Carlo tree search's options."""
        if (
            isinstance(self.exploration, bool)
            or not isinstance(self.exploration, (int, float))
            or not math.isfinite(self.exploration)
            or self.exploration < 0
        ):
            raise ValueError(
                f"exploration must be a number >= 0 (UCB1's c), not {self.exploration!r}"
            )
        if self.playout not in PLAYOUTS:
            raise ValueError(
                f"unknown playout {self.playout!r}: choose one of {', '.join(PLAYOUTS)}"
            )

    @classmethod
    def make(cls, options: SearchOptions | None, **changes: Any) -> SearchOptions:
        """``options`` (or the defaults) with ``changes`` applied."""
        base = options if options is not None else cls()
        if not isinstance(base, SearchOptions):
            raise TypeError(f"options must be a SearchOptions, not {base!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise TypeError(f"unknown search option {unknown[0]!r}: choose from {sorted(known)}")
        if "algorithm" in changes and "table" not in changes and options is None:
            changes["table"] = None
        return replace(base, **changes) if changes else base

    @property
    def entries(self) -> int:
        """The transposition table's capacity."""
        return self.table_size if self.table_size is not None else DEFAULT_TABLE_SIZE

    def tie_order(self, state: State) -> list[Any]:
        """The order that breaks ties among equally good moves: the ``order`` hook's when one
        is given, else legal order (so that every algorithm, with hints or without, plays the
        same move)."""
        legal = list(state.legal_moves())
        return list(self.order(state, legal)) if self.order is not None else legal

    def features_for(self, state: State, algorithm: str) -> frozenset[str]:
        """The search features to use: those asked for, else the game's; none but with the
        recursive alpha-beta."""
        if algorithm != "alphabeta":
            return frozenset()
        return self.features if self.features is not None else state.search_features

    def choose_algorithm(self, state: State, limits: Limits | None = None) -> str:
        """The algorithm asked for, or alpha-beta: recursive when the search cannot go deeper
        than Python's recursion allows (the game is short enough, or a game with an evaluation
        is searched to a depth limit or under a budget: its iterations then stop at
        :data:`RECURSION_SAFE_PLIES`), else the explicit stack. A game of more than two
        players gets max^n; a game of chance *-minimax: Star2 to a depth limit or under a
        budget (its probes pay where the search cannot see the end: benchmarks/chance.py),
        Star1 to the end of the game (where the table already makes each position one search);
        expectiminimax when the game ends with payoffs and declares no bounds for them."""
        if self.algorithm is not None:
            return self.algorithm
        if state.players > 2:
            return "maxn"
        if state.has_chance:
            if state.value_bounds is None and state.numeric_outcomes:
                return "expectiminimax"
            limited = limits is not None and (limits.bounded or limits.depth is not None)
            return "star2" if limited else "star1"
        longest = state.max_plies
        if longest is not None and longest - state.ply <= RECURSION_SAFE_PLIES:
            return "alphabeta"
        if (
            limits is not None
            and state.has_evaluation
            and (
                limits.bounded
                or (limits.depth is not None and limits.depth <= RECURSION_SAFE_PLIES)
            )
        ):
            return "alphabeta"
        return "alphabeta-stack"

    def solve_request(
        self,
        *,
        weak: bool = False,
        quick: bool = False,
        deadline: float | None = None,
        max_nodes: int | None = None,
        best_only: bool = False,
        progress: Callable[[SolveAnswer], None] | None = None,
    ) -> SolveRequest:
        """What to ask of a game's own solver under these options."""
        return SolveRequest(
            weak=weak,
            quick=quick,
            best_only=best_only,
            threads=self.threads,
            book=self.book,
            table_size=self.table_size,
            deadline=deadline,
            max_nodes=max_nodes,
            progress=progress,
        )
