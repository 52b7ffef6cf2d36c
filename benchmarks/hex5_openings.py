"""The winning first moves of 5x5 Hex, proven by df-pn, against the published list.

Protocol. Every first move (or, with ``--half``, one of each pair of openings that a half turn
of the board maps onto each other: the same value) is proven won or lost for the first player
by ``DFPN`` (``unbeatable.search.pns``), one table kept across the openings (``--table-size``
entries). The published list is Benzene's (the University of Alberta's Hex programs,
``src/player/SwapCheck.cpp``, "optimal decisions up to 8x8": the openings it swaps), mirrored
in the long diagonal: Benzene's first player joins the sides our second player joins, as its
3x3 and 4x4 lists show against our brute force (``tests/test_hex.py``). A line per opening
(nodes, seconds, load); then whether the set of winning openings equals the published one.

    PYTHONPATH=src python benchmarks/hex5_openings.py [--half] [--table-size 1048576]
"""

from __future__ import annotations

import argparse
import os
import time

from unbeatable import get_game
from unbeatable.search import SearchOptions
from unbeatable.search.pns import DFPN

#: Benzene's 5x5 swap list, in its orientation.
BENZENE_5X5 = {
    "d1", "e1", "b2", "c2", "d2", "b3", "c3", "d3", "b4", "c4", "d4", "a5", "b5",
}
LETTERS = "abcdefghijk"


def mirrored(cell: str) -> str:
    """A cell's image in the long diagonal (column and row exchanged)."""
    return f"{LETTERS[int(cell[1:]) - 1]}{LETTERS.index(cell[0]) + 1}"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", action="store_true", help="one opening of each half-turn pair")
    parser.add_argument("--table-size", type=int, default=1 << 20)
    args = parser.parse_args()
    game = get_game("hex:5")
    start = game.initial()
    search = DFPN(SearchOptions(table_size=args.table_size))
    expected = {mirrored(cell) for cell in BENZENE_5X5}
    print(f"5x5 Hex openings by df-pn (table {args.table_size:,}); {os.cpu_count()} CPUs, "
          f"{load()}", flush=True)
    winning = set()
    began = time.perf_counter()
    for move in start.legal_moves():
        name = start.move_text(move)
        turned = start.move_text(24 - move)  # type: ignore[operator]
        if args.half and move > 24 - move:  # type: ignore[operator]
            if turned in winning:
                winning.add(name)
            continue
        before, clock = search.counters.nodes, time.perf_counter()
        value = search.value_class(start.play(move))  # to the second player, who moves next
        assert value is not None
        if value < 0:
            winning.add(name)
        print(f"{name}: {'wins' if value < 0 else 'loses'} for the first player, "
              f"{search.counters.nodes - before:,} nodes, {time.perf_counter() - clock:.1f} s, "
              f"{load()}", flush=True)
    print(f"winning first moves: {' '.join(sorted(winning))}", flush=True)
    print(f"published (mirrored): {' '.join(sorted(expected))}", flush=True)
    verdict = "EQUAL" if winning == expected else "DIFFERENT"
    print(f"{verdict}; {search.counters.nodes:,} nodes, {time.perf_counter() - began:.0f} s, "
          f"{load()}", flush=True)


if __name__ == "__main__":
    main()
