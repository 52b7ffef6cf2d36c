"""What each search feature chess asks for buys: nodes and time to the same depth, with all
features, with each one left out, and with none (same positions, same depth, same run).

Usage: ``python benchmarks/chess_features.py [--depth 4]``. Protocol: a fresh searcher (empty
table) per position and setting, one process, depth-limited iterative deepening.
"""

from __future__ import annotations

import argparse
import time

from unbeatable import get_game
from unbeatable.search import Limits, Searcher

POSITIONS = {
    "start": "startpos",
    "italian": "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "middle game": "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "tactics (WAC 1)": "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "end game": "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
}
ALL = frozenset({"quiescence", "killers", "history"})


def settings() -> list[tuple[str, frozenset[str]]]:
    rows = [("all three", ALL)]
    rows += [(f"without {name}", ALL - {name}) for name in sorted(ALL)]
    rows.append(("none", frozenset()))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4)
    args = parser.parse_args()
    game = get_game("chess")
    print(f"depth {args.depth}; nodes (and seconds) summed over {len(POSITIONS)} positions")
    for label, features in settings():
        nodes, seconds, moves = 0, 0.0, []
        for text in POSITIONS.values():
            state = game.parse_position(text)
            searcher = Searcher(features=features, iterative=True)
            start = time.perf_counter()
            result = searcher.search(state, Limits(depth=args.depth))
            seconds += time.perf_counter() - start
            nodes += result.nodes
            moves.append(state.move_text(result.move) if result.move is not None else "-")
        print(f"{label:22} {nodes:10,d} nodes {seconds:8.2f} s   moves {' '.join(moves)}")


if __name__ == "__main__":
    main()
