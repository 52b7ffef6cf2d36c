"""Positions from our engine's self-play, labelled with each game's result: the data that
``chess_tune.py`` fits the evaluation's weights to (Texel's method: the weights under which the
static evaluation best predicts the results).

Each game starts from one of ``--openings`` (one a line, UCI moves) and plays every move to
a number of nodes drawn at random around ``--nodes`` (so that two games from one opening part
ways). A game ends by the rules (mate, stalemate, threefold repetition, the fifty-move rule, dead
material), or is adjudicated: won when the search has scored it 1,000 cp or more for the same
side for 8 plies in a row, drawn at ``--max-plies``. Kept: the positions from ply 12 on where the
side to move is not in check and the move searched is quiet (neither a capture nor a promotion),
so that the static evaluation stands for the position; one line each, ``FEN;result`` with the
result 1 (White won), 0.5 or 0, and with ``--score`` a third field, the search's score in
centipawns from White's side (the data a learned evaluation is fitted to). ``--random-plies N``
plays N random legal moves after the opening (positions not kept), for more varied games.

    PYTHONPATH=src python benchmarks/chess_selfplay.py --games 2000 --out /tmp/selfplay.txt

The output is appended to, a game at a time, so a run may be stopped and started again.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from unbeatable.games.chess.core import Position, Termination
from unbeatable.games.chess.searcher import Limits, Searcher

ROOT = Path(__file__).resolve().parents[1]
QUIET = 0x4 | 0x8  # a move's flag bits for a capture and a promotion


def play(searcher: Searcher, opening: list[str], nodes: int, rng: random.Random,
         max_plies: int, random_plies: int = 0) -> tuple[list[tuple[str, int]], float]:  # fmt: skip
    """One game: its quiet positions (each FEN with the search's score, White's side) and
    White's result."""
    position = Position.initial()
    for move in opening:
        position = position.play_uci(move)
    for _ in range(random_plies):
        moves = position.legal_moves()
        if not moves or position.termination(claim_draw=True) is not None:
            break
        position = position.play(rng.choice(moves))
    searcher.clear()
    kept: list[tuple[str, int]] = []
    streak = 0
    won = False
    while True:
        ended = position.termination(claim_draw=True)
        if ended is not None:
            if ended is Termination.CHECKMATE:
                return kept, 0.0 if position.turn == 0 else 1.0
            return kept, 0.5
        if position.fullmove_number * 2 > max_plies:
            return kept, 0.5
        budget = max(200, int(nodes * rng.uniform(0.6, 1.4)))
        result = searcher.search(position, Limits(nodes=budget))
        assert result.best is not None
        score = result.score if position.turn == 0 else -result.score
        if abs(score) >= 1000:
            streak = streak + 1 if streak and (score > 0) == won else 1
            won = score > 0
        else:
            streak = 0
        if streak >= 8:
            return kept, 1.0 if won else 0.0
        if (
            position.fullmove_number * 2 >= 12
            and not position.is_check()
            and not (result.best >> 12) & QUIET
        ):
            kept.append((position.fen(), score))
        position = position.play(result.best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=4000)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--openings", type=Path, default=ROOT / "benchmarks" / "data" / "openings-8ply.txt"
    )
    parser.add_argument("--random-plies", type=int, default=0)
    parser.add_argument("--score", action="store_true", help="write the search's score too")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    openings = [line.split() for line in args.openings.read_text().splitlines() if line.strip()]
    done = 0
    if args.out.exists():
        done = sum(1 for line in args.out.read_text().splitlines() if line.startswith("#"))
    rng = random.Random(args.seed * 1_000_003 + done)
    searcher = Searcher(hash_mb=8)
    start = time.perf_counter()
    positions = 0
    with open(args.out, "a", encoding="utf-8") as out:
        for game in range(done, args.games):
            kept, result = play(searcher, openings[game % len(openings)], args.nodes, rng,
                                args.max_plies, args.random_plies)  # fmt: skip
            out.write(f"# game {game + 1} result {result}\n")
            out.writelines(
                f"{fen};{result};{score}\n" if args.score else f"{fen};{result}\n"
                for fen, score in kept
            )
            out.flush()
            positions += len(kept)
            if (game + 1) % 20 == 0:
                rate = (game + 1 - done) / (time.perf_counter() - start)
                print(f"{game + 1} games, {positions} positions in this run, {rate:.2f} games/s",
                      file=sys.stderr, flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
