"""The benchmark: fixed positions searched at fixed depths, and their node total as a signature.

Every search here is deterministic: a fixed algorithm, a fresh :class:`~unbeatable.Searcher`
with a table of fixed size, and positions played through the public API. So the node total
(the *signature*) changes only when the search visits different nodes: a refactor that changes
it has changed the search, and should say why (Stockfish's ``bench`` plays the same role).
Time is printed too, but only the node total is a contract.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .games import get_game
from .search import Limits, Score, Searcher

__all__ = ["BENCH_POSITIONS", "BenchPosition", "BenchResult", "run_bench"]

#: The table size of every bench search (replacement in a bounded table depends on it).
BENCH_TABLE_SIZE = 1 << 16


@dataclass(frozen=True)
class BenchPosition:
    """A position to search: the game, a move string, the depth limit (None: exact) and the
    algorithm."""

    game: str
    position: str
    depth: int | None
    algorithm: str
    table: bool = True

    @property
    def label(self) -> str:
        depth = "exact" if self.depth is None else f"depth {self.depth}"
        table = "" if self.table else ", no table"
        return f"{self.game} {self.position or '(start)'} {depth} {self.algorithm}{table}"


@dataclass(frozen=True)
class BenchResult:
    position: BenchPosition
    nodes: int
    seconds: float
    score: Score


BENCH_POSITIONS: tuple[BenchPosition, ...] = (
    BenchPosition("tictactoe", "", None, "alphabeta"),
    BenchPosition("tictactoe", "", None, "negamax"),
    BenchPosition("tictactoe", "5", None, "minimax", table=False),
    BenchPosition("tictactoe", "", 4, "alphabeta", table=False),
    BenchPosition("mnk:4,4,4", "", 7, "alphabeta"),
    BenchPosition("mnk:4,4,4", "6,11,7", 5, "alphabeta"),
    BenchPosition("mnk:4,4,4", "6,11,7,10", 3, "minimax", table=False),
    BenchPosition("mnk:4,4,4", "6,11,7,10,1", None, "alphabeta"),
    BenchPosition("mnk:5,5,4", "13,7", 5, "alphabeta"),
    BenchPosition("mnk:3,4,3", "", None, "alphabeta"),
    BenchPosition("connect4", "", 7, "alphabeta"),
    BenchPosition("connect4", "4453", 7, "alphabeta"),
    BenchPosition("connect4:width=4,height=4", "", None, "alphabeta"),
    BenchPosition("subtraction", "", None, "alphabeta"),
    BenchPosition("subtraction:pile=600,take=3", "", None, "alphabeta-stack"),
)


def run_bench(
    positions: Sequence[BenchPosition] = BENCH_POSITIONS,
    on_result: Callable[[BenchResult], None] | None = None,
) -> list[BenchResult]:
    """Search every position; ``on_result`` is called after each one."""
    results = []
    for bench in positions:
        state = get_game(bench.game).parse_position(bench.position)
        searcher = Searcher(bench.algorithm, table=bench.table, table_size=BENCH_TABLE_SIZE)
        start = time.perf_counter()
        found = searcher.search(state, Limits(depth=bench.depth))
        result = BenchResult(bench, found.nodes, time.perf_counter() - start, found.score)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
