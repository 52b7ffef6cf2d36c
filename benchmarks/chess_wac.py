"""Win at Chess: how many of the tactical positions each engine solves at a fixed time a move.

Usage (from the repository root; Sunfish in a venv of its own, it pins an old python-chess)::

    python -m venv /tmp/sf && /tmp/sf/bin/pip install sunfish
    python benchmarks/chess_wac.py --limit 50 --seconds 1 --sunfish /tmp/sf/bin/sunfish-uci

Protocol: both engines are whole processes speaking UCI, driven by python-chess's client, one
position after the other in the same run, each given ``go movetime`` (the same seconds). A
position is solved when the move played is one of its ``bm`` moves and none of its ``am``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT.parent / "shared" / "benchmarks" / "chess" / "wac.epd"
OURS = [sys.executable, "-m", "unbeatable.uci"]
Suite = list[tuple[chess.Board, dict[str, object]]]


def positions(path: Path, limit: int) -> Suite:
    found: Suite = []
    for line in path.read_text(encoding="utf-8").splitlines()[:limit]:
        if line.strip():
            board = chess.Board()
            ops = board.set_epd(line)
            found.append((board, dict(ops)))
    return found


def solved(move: chess.Move | None, ops: dict[str, object]) -> bool:
    best = ops.get("bm") or []
    avoid = ops.get("am") or []
    return move is not None and (not best or move in best) and move not in avoid  # type: ignore[operator]


def run(
    command: list[str], suite: list[tuple[chess.Board, dict[str, object]]], seconds: float
) -> tuple[int, float]:
    count, spent = 0, 0.0
    with chess.engine.SimpleEngine.popen_uci(command, timeout=60) as engine:
        for board, ops in suite:
            start = time.perf_counter()
            played = engine.play(board, chess.engine.Limit(time=seconds))
            spent += time.perf_counter() - start
            count += solved(played.move, ops)
    return count, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=300, help="the first N positions")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per position")
    parser.add_argument("--sunfish", default=None, help="Sunfish's UCI command (sunfish-uci)")
    parser.add_argument("--suite", type=Path, default=SUITE)
    args = parser.parse_args()
    suite = positions(args.suite, args.limit)
    print(f"WAC: {len(suite)} positions, {args.seconds} s each (go movetime), same run")
    engines = [("unbeatable", OURS)]
    if args.sunfish:
        engines.append(("sunfish", [args.sunfish]))
    for name, command in engines:
        count, spent = run(command, suite, args.seconds)
        print(f"{name:12} solved {count:4d} / {len(suite)}   ({spent:.1f} s in all)", flush=True)


if __name__ == "__main__":
    main()
