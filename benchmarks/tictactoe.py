"""Solve the empty tic-tac-toe board with every algorithm, and with easyAI in the same run.

Prints, per algorithm, the median and mean time of a complete exact solve (a fresh searcher,
so a fresh table, every run), the nodes visited and nodes per second. easyAI (`pip install
easyAI`, the `peers` extra) is measured in the same run when installed; figures for OpenSpiel
and AIMA are the issue's reference measurements on this kind of machine, not measured here.

    python benchmarks/tictactoe.py [--repeat 50] [--mnk444]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from unbeatable import Searcher, get_game

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("minimax (max/min)", {"algorithm": "minimax"}),
    ("negamax", {"algorithm": "negamax"}),
    ("alpha-beta", {"algorithm": "alphabeta", "table": False, "hints": False}),
    ("alpha-beta + table", {"algorithm": "alphabeta", "symmetry": False, "hints": False}),
    ("alpha-beta + table + symmetry", {"algorithm": "alphabeta", "hints": False}),
    ("alpha-beta + table + symmetry + hints", {"algorithm": "alphabeta"}),
    ("explicit-stack alpha-beta (all)", {"algorithm": "alphabeta-stack"}),
]
SLOW = {"minimax (max/min)", "negamax"}


def measure(run: Callable[[], int], repeat: int) -> tuple[float, float, int]:
    times = []
    nodes = 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), statistics.mean(times), nodes


def easyai_runner() -> Callable[[], int] | None:
    try:
        from easyAI import AI_Player, Negamax
        from easyAI.AI import TranspositionTable
        from easyAI.games import TicTacToe
    except ImportError:
        return None

    class Counted(TicTacToe):  # type: ignore[misc]
        moves_made = 0

        def make_move(self, move: int) -> None:
            Counted.moves_made += 1
            super().make_move(move)

        def ttentry(self) -> tuple[int, ...]:
            return (*self.board, self.current_player)

    def run() -> int:
        Counted.moves_made = 0
        game = Counted([AI_Player(Negamax(9)), AI_Player(Negamax(9))])
        Negamax(9, tt=TranspositionTable())(game)
        return Counted.moves_made + 1  # every node but the root is entered by a move

    return run


def openspiel_runner() -> Callable[[], int] | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game = pyspiel.load_game("tic_tac_toe")

    def run() -> int:
        value, _ = minimax.alpha_beta_search(game)
        assert value == 0
        return 0  # OpenSpiel does not count nodes

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="runs per algorithm (default 50)")
    parser.add_argument("--mnk444", action="store_true", help="also solve 4x4 four in a row")
    args = parser.parse_args()
    start = get_game("tictactoe").initial()
    rows = []
    for name, options in CONFIGS:

        def run(options: dict[str, object] = options) -> int:
            result = Searcher(**options).search(start)  # type: ignore[arg-type]
            assert result.exact and result.score.is_draw
            return result.nodes

        repeat = max(1, args.repeat // 25) if name in SLOW else args.repeat
        rows.append((name, *measure(run, repeat)))
    peers = []
    peer = easyai_runner()
    if peer is not None:
        peers.append(("easyAI Negamax(9) + table", *measure(peer, max(5, args.repeat // 5))))
    spiel = openspiel_runner()
    if spiel is not None:
        peers.append(("OpenSpiel alpha_beta_search", *measure(spiel, max(5, args.repeat // 5))))
    rows += peers
    print(f"empty 3x3 board, exact solve; median of {args.repeat} runs (minimax/negamax: fewer)")
    print(f"{'algorithm':40} {'median':>10} {'mean':>10} {'nodes':>9} {'nodes/s':>10}")
    for name, median, mean, nodes in rows:
        counted = f"{nodes:9,d} {nodes / mean:10,.0f}" if nodes else f"{'n/a':>9} {'n/a':>10}"
        print(f"{name:40} {median * 1e3:8.2f}ms {mean * 1e3:8.2f}ms {counted}")
    ours = min(r[1] for r in rows if r not in peers)
    print("reference figures (issue 2, this kind of machine): easyAI 23 ms / 5,452 moves made")
    print("  (5,453 nodes as counted above, with the root); OpenSpiel Python alpha-beta 18 ms /")
    print("  18,296 nodes; AIMA alpha-beta 42 ms")
    if not peers:
        print("no peer installed (pip install -e '.[peers]'): compare with the reference figures")
    for name, median, _, _ in peers:
        print(f"ours vs {name} (same run, medians): {median / ours:.1f}x faster")
    if args.mnk444:
        t0 = time.perf_counter()
        result = Searcher(table_size=1 << 21).search(get_game("mnk:4,4,4").initial())
        print(
            f"4x4 four in a row: {result.score}, {result.nodes:,d} nodes, "
            f"{time.perf_counter() - t0:.2f} s"
        )


if __name__ == "__main__":
    main()
