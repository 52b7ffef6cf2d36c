"""Win at Chess: how many of the tactical positions each engine solves at a fixed time a move,
position by position, our engine and Sunfish in the same run.

Usage (from the repository root; Sunfish in a venv of its own)::

    python -m venv /tmp/sf && /tmp/sf/bin/pip install sunfish
    python benchmarks/chess_wac.py --seconds 1 --sunfish /tmp/sf/bin/sunfish-uci
    python benchmarks/chess_wac.py --limit 20 --seconds 0.2          # ours alone, a quick look

Protocol: every engine is a whole process speaking UCI, driven by python-chess's client. For
each position in turn, each engine is sent ``ucinewgame`` (nothing learnt carries over from
one position to the next), the position and ``go movetime`` (the same seconds for all), one
engine after the other, so that both meet the same load on a shared machine. A position is
solved when the move played is one of its ``bm`` moves and none of its ``am`` moves (a position
with only ``am``: any other move). A line that cannot be read, a position that is not legal,
or one without ``bm``/``am`` is reported and counted as unsolved by everyone; an engine that
crashes or answers an illegal move has that position unsolved, and is restarted.

Our engine is run from this checkout (its ``src`` first on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent))

from uci_engines import OURS, ROOT, Engine, load

SUITE = ROOT.parent / "shared" / "benchmarks" / "chess" / "wac.epd"


@dataclass
class Position:
    """One line of the suite: its number, name, board and answer key, or why it is unusable."""

    line: int
    name: str
    board: chess.Board | None = None
    best: list[chess.Move] = field(default_factory=list)
    avoid: list[chess.Move] = field(default_factory=list)
    problem: str = ""

    def solved(self, move: chess.Move | None) -> bool:
        if move is None or self.problem or move in self.avoid:
            return False
        return move in self.best if self.best else bool(self.avoid)

    def key(self) -> str:
        assert self.board is not None
        words = [self.board.san(m) for m in self.best]
        words += [f"not {self.board.san(m)}" for m in self.avoid]
        return " ".join(words)


def _san_moves(board: chess.Board, words: list[str]) -> tuple[list[chess.Move], list[str]]:
    """The moves that ``words`` (SAN, perhaps with ``!?+#`` marks) name, and the words that
    name no legal move."""
    moves, bad = [], []
    for word in words:
        try:
            moves.append(board.parse_san(word.rstrip("!?")))
        except ValueError:
            bad.append(word)
    return moves, bad


def _operations(text: str) -> dict[str, list[str]]:
    """EPD operations (``opcode operand ...;``), quotes kept together, without python-chess's
    opinion of them."""
    ops: dict[str, list[str]] = {}
    words: list[str] = []
    word, quoted = "", False
    for char in text + ";":
        if char == '"':
            quoted = not quoted
        elif char == ";" and not quoted:
            if word:
                words.append(word)
            if words:
                ops[words[0]] = words[1:]
            words, word = [], ""
        elif char.isspace() and not quoted:
            if word:
                words.append(word)
            word = ""
        else:
            word += char
    return ops


def read_position(number: int, text: str) -> Position:
    """One EPD line, read as far as it can be; ``problem`` says what is wrong with it."""
    fields = text.split(None, 4)
    ops = _operations(fields[4]) if len(fields) > 4 else {}
    name = " ".join(ops.get("id", [])) or f"line {number}"
    position = Position(number, name)
    if len(fields) < 4:
        position.problem = f"not an EPD position: {text!r}"
        return position
    try:
        board = chess.Board(" ".join(fields[:4]) + " 0 1")
    except ValueError as err:
        position.problem = f"unreadable position {' '.join(fields[:4])!r}: {err}"
        return position
    if not board.is_valid():
        position.problem = f"illegal position {board.fen()!r}: {board.status()!r}"
        return position
    if board.is_game_over():
        position.problem = f"no move to find: the game is over in {board.fen()!r}"
        return position
    position.board = board
    position.best, bad_best = _san_moves(board, ops.get("bm", []))
    position.avoid, bad_avoid = _san_moves(board, ops.get("am", []))
    if bad_best or bad_avoid:
        position.problem = f"moves that are not legal here: {' '.join(bad_best + bad_avoid)}"
    elif not position.best and not position.avoid:
        position.problem = "no bm or am: nothing to solve"
    return position


def read_suite(path: Path, limit: int | None) -> list[Position]:
    suite = []
    for number, raw in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith(("#", "%")):
            continue
        suite.append(read_position(number, text))
        if limit is not None and len(suite) >= limit:
            break
    return suite


class Player(Engine):
    """An engine process under a name (see :class:`uci_engines.Engine`) and its tally."""

    def __init__(self, name: str, command: list[str]) -> None:
        super().__init__(name, command)
        self.solved = 0
        self.spent = 0.0
        self.errors = 0

    def play(self, position: Position, seconds: float) -> tuple[str, bool]:
        """The move played on ``position`` (SAN, or what went wrong) and whether it solves it."""
        board = position.board
        assert board is not None
        start = time.perf_counter()
        try:
            played = self.engine.play(board, chess.engine.Limit(time=seconds), game=position.line)
        except (chess.engine.EngineError, concurrent.futures.TimeoutError) as err:
            self.spent += time.perf_counter() - start
            self.errors += 1
            self.restart()
            return f"error ({type(err).__name__}: {err})", False
        self.spent += time.perf_counter() - start
        move = played.move
        if move is None or not board.is_legal(move):
            self.errors += 1
            return f"illegal ({move})", False
        solved = position.solved(move)
        self.solved += solved
        return board.san(move), solved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="the first N positions")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per position")
    parser.add_argument("--sunfish", default=None, help="Sunfish's UCI command (sunfish-uci)")
    parser.add_argument("--suite", type=Path, default=SUITE, help="an EPD file")
    args = parser.parse_args()
    if args.seconds <= 0 or (args.limit is not None and args.limit < 1):
        raise SystemExit("--seconds must be positive and --limit at least 1")
    if not args.suite.is_file():
        raise SystemExit(f"no suite at {args.suite}")
    suite = read_suite(args.suite, args.limit)
    players = [Player("unbeatable", OURS)]
    if args.sunfish:
        players.append(Player("sunfish", args.sunfish.split()))
    print(
        f"{args.suite.stem}: {len(suite)} positions from {args.suite.name}, "
        f"{args.seconds:g} s each "
        f"(go movetime), {', '.join(p.name for p in players)} one after the other per position",
        flush=True,
    )
    print(f"load average at the start: {load()}", flush=True)
    unusable = 0
    alone: dict[str, int] = {p.name: 0 for p in players}
    try:
        for position in suite:
            if position.problem or position.board is None:
                unusable += 1
                print(f"{position.name:10} line {position.line}: skipped, {position.problem}")
                continue
            answers = [player.play(position, args.seconds) for player in players]
            marks = [
                f"{player.name} {move:8} {'yes' if ok else 'no ':3}"
                for player, (move, ok) in zip(players, answers, strict=True)
            ]
            hits = [player.name for player, (_, ok) in zip(players, answers, strict=True) if ok]
            if len(hits) == 1 and len(players) > 1:
                alone[hits[0]] += 1
            print(f"{position.name:10} {position.key():16} " + "   ".join(marks), flush=True)
    finally:
        for player in players:
            player.close()
    print()
    print(
        f"{args.suite.stem} at {args.seconds:g} s a position, {len(suite)} positions "
        f"({unusable} unusable):"
    )
    for player in players:
        print(
            f"{player.name:12} solved {player.solved:4d} / {len(suite)}   "
            f"{player.spent:7.1f} s in all   {player.errors} errors"
            + (f"   {alone[player.name]} solved by it alone" if len(players) > 1 else "")
        )
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
