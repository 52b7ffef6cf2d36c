"""Where a match against a stronger engine is lost: Stockfish (an outside program, run as an
oracle; nothing of its code) evaluates the games of a match's PGN (``chess_match.py --pgn``).

    python benchmarks/chess_review.py benchmarks/results/<match>.pgn [--depth 12]

For every game it prints Stockfish's evaluation from our side (centipawns; a mate as +-3000)
after the plies of ``--plies`` (default 8 16 24 32 40 50; the openings file's moves are the
first 8), then the mean and median over the games at each: how fast our position drifts. For
each drawn game it prints the evaluation of the final position and of 10 and 20 plies before:
a draw by repetition from a lost position is a game the opponent let go, not one we held.
Needs python-chess (the test extras) and Debian's ``stockfish``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
from pathlib import Path

import chess
import chess.engine
import chess.pgn

MATE = 3000
US = "unbeatable"


def stockfish() -> str:
    found = shutil.which("stockfish") or next(
        (p for p in ["/usr/games/stockfish"] if Path(p).exists()), None
    )
    if found is None:
        raise SystemExit("chess_review: needs Stockfish (Debian: apt-get install stockfish)")
    return found


def ours(engine: chess.engine.SimpleEngine, board: chess.Board, depth: int, white: bool) -> int:
    """Stockfish's evaluation of ``board`` from our side (``white``: we play White)."""
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    score = info["score"].white().score(mate_score=MATE)
    assert score is not None
    return max(-MATE, min(MATE, score)) * (1 if white else -1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pgn", type=Path)
    p.add_argument("--depth", type=int, default=12, help="Stockfish's depth a position")
    p.add_argument("--plies", type=int, nargs="*", default=[8, 16, 24, 32, 40, 50])
    args = p.parse_args(argv)
    trail: dict[int, list[int]] = {ply: [] for ply in args.plies}
    draws: dict[str, list[int]] = {}
    try:
        pgn = args.pgn.open()
    except OSError as err:
        raise SystemExit(f"chess_review: {args.pgn}: {err.strerror}") from None
    with pgn, chess.engine.SimpleEngine.popen_uci(stockfish()) as engine:
        engine.configure({"Threads": 1, "Hash": 64})
        while (game := chess.pgn.read_game(pgn)) is not None:
            white = game.headers["White"] == US
            result = game.headers["Result"]
            moves = list(game.mainline_moves())
            board = game.board()
            seen = []
            ends = {len(moves) - back: back for back in (20, 10, 0)}
            at_end: list[int] = []
            for ply, move in enumerate(moves, start=1):
                board.push(move)
                if ply in trail:
                    value = ours(engine, board, args.depth, white)
                    trail[ply].append(value)
                    seen.append(f"{ply}:{value:+d}")
                if result == "1/2-1/2" and ply in ends:
                    at_end.append(ours(engine, board, args.depth, white))
            score = {"1/2-1/2": "1/2", "1-0": "1" if white else "0", "0-1": "0" if white else "1"}
            why = game.headers.get("Termination", "?")
            print(f"game {game.headers['Round']:>3} {score.get(result, '?'):>3} {why:28} "
                  + " ".join(seen), flush=True)  # fmt: skip
            if result == "1/2-1/2" and at_end:
                draws.setdefault(why, []).append(at_end[-1])
                print(f"          drawn: 20, 10 and 0 plies before its end {at_end}")
    print(f"\nStockfish at depth {args.depth}, from our side, over the games (centipawns):")
    for ply, values in trail.items():
        if values:
            print(f"  after ply {ply:3}: mean {statistics.mean(values):+7.0f}, median "
                  f"{statistics.median(values):+6.0f} ({len(values)} games)")  # fmt: skip
    for why, values in sorted(draws.items()):
        lost = sum(v <= -200 for v in values)
        won = sum(v >= 200 for v in values)
        print(f"  drawn by {why}: {len(values)}, of which {lost} from a position of -200 or "
              f"worse for us at the end and {won} of +200 or better")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
