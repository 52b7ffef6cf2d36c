"""Connect Four with the generic engine: depth-limited alpha-beta with the table and the game's
evaluation, beside easyAI's and OpenSpiel's Python alpha-beta at the same depths, in one run.

Each row is one search from a fixed position to a fixed depth: the time, the nodes (positions
visited; for easyAI the moves made plus the root; OpenSpiel does not count), and the move.
The peers use their own games and evaluations (easyAI: its ConnectFour with its table and its
win/lose scoring; OpenSpiel: connect_four with a value function of 0), so their moves may differ.

    python benchmarks/connect4_search.py [--depths 8 10 12] [--positions "" 4453] [--no-peers]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from unbeatable import Limits, Searcher, get_game

Row = tuple[str, str, int, float, int | None, str]


def ours(position: str, depth: int) -> tuple[float, int | None, str]:
    state = get_game("connect4").parse_position(position)
    start = time.perf_counter()
    result = Searcher("alphabeta").search(state, Limits(depth=depth))
    elapsed = time.perf_counter() - start
    return elapsed, result.nodes, state.move_text(result.move)


def easyai(position: str, depth: int) -> tuple[float, int | None, str] | None:
    try:
        from easyAI import AI_Player, Negamax
        from easyAI.AI import TranspositionTable
        from easyAI.games.ConnectFour import ConnectFour
    except ImportError:
        return None

    class Counted(ConnectFour):  # type: ignore[misc]
        moves_made = 0

        def make_move(self, column: int) -> None:
            Counted.moves_made += 1
            super().make_move(column)

        def ttentry(self) -> tuple[int, ...]:
            return (*self.board.flatten().tolist(), self.current_player)

    game = Counted([AI_Player(Negamax(1)), AI_Player(Negamax(1))])
    for ch in position:
        game.play_move(int(ch) - 1)
    Counted.moves_made = 0
    start = time.perf_counter()
    move = Negamax(depth, tt=TranspositionTable())(game)
    elapsed = time.perf_counter() - start
    return elapsed, Counted.moves_made + 1, str(move + 1)


def openspiel(position: str, depth: int) -> tuple[float, int | None, str] | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for ch in position:
        state.apply_action(int(ch) - 1)
    start = time.perf_counter()
    _, action = minimax.alpha_beta_search(
        game,
        state=state,
        maximum_depth=depth,
        value_function=lambda s: 0.0,
        maximizing_player_id=state.current_player(),
    )
    return time.perf_counter() - start, None, str(action + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[8, 10, 12])
    parser.add_argument("--positions", nargs="+", default=["", "4453", "3344"])
    parser.add_argument("--no-peers", action="store_true", help="measure only unbeatable")
    args = parser.parse_args()
    engines: list[tuple[str, Callable[[str, int], tuple[float, int | None, str] | None]]] = [
        ("unbeatable alpha-beta+table", ours)
    ]
    if not args.no_peers:
        engines += [("easyAI Negamax+table", easyai), ("OpenSpiel alpha_beta", openspiel)]
    rows: list[Row] = []
    print(f"{'position':10} {'depth':>5} {'engine':30} {'time':>10} {'nodes':>10} {'move':>5}")
    for position in args.positions:
        for depth in args.depths:
            for name, run in engines:
                measured = run(position, depth)
                if measured is None:
                    print(f"{position or '(empty)':10} {depth:5} {name:30} {'not installed':>10}")
                    continue
                elapsed, nodes, move = measured
                rows.append((position, name, depth, elapsed, nodes, move))
                shown = f"{nodes:10,d}" if nodes is not None else f"{'n/a':>10}"
                print(
                    f"{position or '(empty)':10} {depth:5} {name:30} {elapsed:9.3f}s {shown} "
                    f"{move:>5}",
                    flush=True,
                )
    print(
        "reference (issue 3, empty board, depth 12, this kind of machine): OpenSpiel 3.3 s, "
        "easyAI with table 28 s, AIMA 40 s"
    )


if __name__ == "__main__":
    main()
