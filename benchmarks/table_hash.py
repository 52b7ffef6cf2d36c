"""The transposition table's slot choice: Python's own hash against the mixed hash.

Integer keys hash to themselves, so ``hash(key) % capacity`` let the low bits of a bitboard
alone choose the slot and most of a table stayed empty. This prints, for fixed searches, the
nodes visited, the entries stored and the slots in use with each slot function (node counts are
deterministic; times vary with the machine).

    python benchmarks/table_hash.py
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Hashable

from unbeatable import Limits, Searcher, get_game
from unbeatable.search.table import TranspositionTable

CASES = [
    ("mnk:4,4,4", "", None),
    ("mnk:5,5,4", "", 6),
    ("connect4", "4453", 8),
    ("connect4", "", 9),
]


class PlainHashTable(TranspositionTable):
    """The table as it was: the slot is ``hash(key) % capacity``."""

    __slots__ = ()

    def slot(self, key: Hashable) -> int:
        return hash(key) % self.capacity


def run(spec: str, position: str, depth: int | None, table: TranspositionTable) -> list[str]:
    searcher = Searcher("alphabeta")
    searcher.table = table
    state = get_game(spec).parse_position(position)
    start = time.perf_counter()
    result = searcher.search(state, Limits(depth=depth))
    seconds = time.perf_counter() - start
    return [
        f"{result.nodes:,}",
        f"{table.stores:,}",
        f"{len(table):,}",
        f"{seconds:.2f}",
        str(result.score),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table-size", type=int, default=1 << 20)
    args = parser.parse_args()
    header = ["search", "slots", "nodes", "stores", "in use", "s", "score"]
    print(" | ".join(header))
    for spec, position, depth in CASES:
        name = f"{spec} {position or '(start)'} {'exact' if depth is None else f'depth {depth}'}"
        for label, kind in (("hash % size", PlainHashTable), ("mixed", TranspositionTable)):
            print(" | ".join([name, label, *run(spec, position, depth, kind(args.table_size))]))


if __name__ == "__main__":
    main()
