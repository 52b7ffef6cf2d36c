"""A match between our UCI engine and another (Sunfish, Stockfish at a low skill level), with
the score and an Elo difference with its error bar.

Usage (from the repository root)::

    python benchmarks/chess_match.py --opponent /tmp/sf/bin/sunfish-uci --games 40
    python benchmarks/chess_match.py --opponent /usr/games/stockfish --option "Skill Level=0"

Protocol: both engines are whole processes speaking UCI through python-chess's client, each
with its own clock (``base`` seconds plus ``inc`` a move, as wtime/btime/winc/binc); openings
are the first two moves of varied games below, each played once with each colour; a game
lost on time counts as lost; a game that reaches 300 plies is adjudicated a draw.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import chess
import chess.engine

OURS = [sys.executable, "-m", "unbeatable.uci"]
OPENINGS = [
    "e2e4 e7e5",
    "d2d4 d7d5",
    "e2e4 c7c5",
    "c2c4 e7e5",
    "g1f3 d7d5",
    "e2e4 e7e6",
    "d2d4 g8f6",
    "e2e4 c7c6",
    "b2b3 e7e5",
    "f2f4 d7d5",
    "e2e4 d7d6",
    "d2d4 f7f5",
    "c2c4 c7c5",
    "g1f3 g8f6",
    "e2e3 e7e5",
    "g2g3 d7d5",
    "e2e4 g7g6",
    "d2d4 e7e6",
    "c2c4 g8f6",
    "b1c3 d7d5",
]


def play(
    white: chess.engine.SimpleEngine,
    black: chess.engine.SimpleEngine,
    opening: str,
    base: float,
    inc: float,
) -> float:
    """One game; White's score (1, 0.5 or 0)."""
    board = chess.Board()
    for move in opening.split():
        board.push_uci(move)
    clock = {chess.WHITE: base, chess.BLACK: base}
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < 300:
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE],
            black_clock=clock[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        start = time.perf_counter()
        played = engines[side].play(board, limit)
        clock[side] -= time.perf_counter() - start
        if clock[side] < 0 or played.move is None:
            return 0.0 if side == chess.WHITE else 1.0  # lost on time
        clock[side] += inc
        board.push(played.move)
    result = board.result(claim_draw=True)
    return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)


def elo(score: float, games: int) -> tuple[float, float]:
    """The Elo difference for a score fraction, and its 95% error bar (normal approximation)."""
    p = min(max(score, 1e-3), 1 - 1e-3)
    diff = -400 * math.log10(1 / p - 1)
    sd = math.sqrt(p * (1 - p) / games)
    slope = 400 / (math.log(10) * p * (1 - p))
    return diff, 1.96 * sd * slope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", required=True, help="the other engine's UCI command")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for it")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--base", type=float, default=2.0)
    parser.add_argument("--inc", type=float, default=0.1)
    args = parser.parse_args()
    wins = draws = losses = 0
    with (
        chess.engine.SimpleEngine.popen_uci(OURS) as ours,
        chess.engine.SimpleEngine.popen_uci(args.opponent) as other,
    ):
        for option in args.option:
            name, _, value = option.partition("=")
            other.configure({name: value})
        for number in range(args.games):
            opening = OPENINGS[(number // 2) % len(OPENINGS)]
            we_are_white = number % 2 == 0
            white, black = (ours, other) if we_are_white else (other, ours)
            score = play(white, black, opening, args.base, args.inc)
            ours_score = score if we_are_white else 1 - score
            wins += ours_score == 1
            draws += ours_score == 0.5
            losses += ours_score == 0
            print(
                f"game {number + 1:3d} ({'white' if we_are_white else 'black'}, {opening}): "
                f"{ours_score}",
                flush=True,
            )
    games = wins + draws + losses
    fraction = (wins + draws / 2) / games
    diff, bar = elo(fraction, games)
    print(
        f"unbeatable vs {args.opponent}: +{wins} ={draws} -{losses} of {games}, "
        f"score {fraction:.1%}, Elo {diff:+.0f} +/- {bar:.0f} (95%)"
    )


if __name__ == "__main__":
    main()
