"""A UCI engine: ``unbeatable uci`` (or ``python -m unbeatable.uci``) speaks the Universal Chess
Interface on stdin and stdout, so that any chess GUI or tournament manager can play it.

Commands: ``uci``, ``isready``, ``ucinewgame``, ``position startpos|fen FEN [moves ...]``,
``go`` (``wtime btime winc binc movestogo``, ``movetime``, ``depth``, ``nodes``, ``infinite``),
``stop``, ``quit``. The search runs on a thread, so ``stop`` is heard at once; every completed
iteration prints an ``info`` line, the end a ``bestmove``.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO

from .game import GameError, State
from .games import get_game
from .search import Limits, Searcher, SearchResult

__all__ = ["main", "time_for_move"]

NAME = "unbeatable"

#: Seconds kept back from every move's time for the GUI's and the pipe's delays.
OVERHEAD = 0.05

#: The moves a clock without ``movestogo`` is shared over.
HORIZON_MOVES = 30


def time_for_move(
    remaining: float, increment: float = 0.0, moves_to_go: int | None = None
) -> float:
    """Seconds to spend on this move with ``remaining`` on the clock: an even share of what is
    left over the moves to come plus most of the increment, never more than a third of the
    clock, and always something (so that the engine never loses on time)."""
    share = remaining / (moves_to_go or HORIZON_MOVES) + 0.75 * increment
    budget = min(share, remaining / 3) - OVERHEAD
    return max(budget, min(0.01, remaining / 10))


@dataclass
class Go:
    """What a ``go`` command asks for."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    infinite: bool = False
    clock: dict[str, float] | None = None
    movestogo: int | None = None

    def limits(self, white: bool) -> Limits:
        seconds = self.movetime
        if self.clock is not None and seconds is None:
            side = "w" if white else "b"
            remaining = self.clock.get(f"{side}time")
            increment = self.clock.get(f"{side}inc", 0.0)
            if remaining is not None:
                seconds = time_for_move(remaining, increment, self.movestogo)
        if self.infinite or (seconds is None and self.depth is None and self.nodes is None):
            seconds = 1e7 if self.infinite or self.depth is None else None  # until `stop`
        return Limits(depth=self.depth, time=seconds, nodes=self.nodes)


def parse_go(words: list[str]) -> Go:
    go = Go()
    clock: dict[str, float] = {}
    index = 0
    while index < len(words):
        word = words[index]
        value = words[index + 1] if index + 1 < len(words) else ""
        if word == "infinite":
            go.infinite = True
            index += 1
            continue
        if word in ("wtime", "btime", "winc", "binc"):
            clock[word] = max(0, int(value)) / 1000
        elif word == "movetime":
            go.movetime = max(1, int(value)) / 1000
        elif word == "depth":
            go.depth = max(1, int(value))
        elif word == "nodes":
            go.nodes = max(1, int(value))
        elif word == "movestogo":
            go.movestogo = max(1, int(value))
        else:  # ponder, searchmoves, mate: not supported; skip the word
            index += 1
            continue
        index += 2
    go.clock = clock or None
    return go


def info_line(result: SearchResult, state: State) -> str:
    """The ``info`` line of a completed iteration."""
    score = result.score
    if score.is_win or score.is_loss:
        moves = score.moves or 0
        value = f"mate {moves if score.is_win else -moves}"
    else:
        value = f"cp {score.value}"
    millis = max(1, int(result.elapsed * 1000))
    pv = " ".join(state.move_text(m) for m in _line(state, result.pv))
    return (
        f"info depth {result.depth} seldepth {result.seldepth} score {value} "
        f"nodes {result.nodes} nps {int(result.nodes * 1000 / millis)} time {millis}"
        + (f" pv {pv}" if pv else "")
    )


def _line(state: State, moves: Iterable[object]) -> list[object]:
    """The moves of a principal variation that are legal one after the other."""
    line = []
    for move in moves:
        if move not in state.legal_moves():
            break
        line.append(move)
        state = state.play(move)
    return line


class Engine:
    """The UCI session: the position, the searcher (its table kept within a game) and the
    search thread."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.game = get_game("chess")
        self.state = self.game.initial()
        self.searcher = Searcher(iterative=True)
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Act on one command; False on ``quit``."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        if command == "uci":
            self.send(f"id name {NAME}")
            self.send("id author the unbeatable developers")
            self.send("uciok")
        elif command == "isready":
            self.send("readyok")
        elif command == "ucinewgame":
            self.finish()
            self.searcher = Searcher(iterative=True)
        elif command == "position":
            self.finish()
            self.position(rest)
        elif command == "go":
            self.finish()
            self.go(rest)
        elif command == "stop":
            self.finish()
        elif command == "quit":
            self.finish()
            return False
        else:
            self.send(f"info string unknown command {command!r}")
        return True

    def position(self, words: list[str]) -> None:
        try:
            self.state = self.game.parse_position(" ".join(words))
        except GameError as err:
            self.send(f"info string bad position: {err}")

    def go(self, words: list[str]) -> None:
        try:
            go = parse_go(words)
        except ValueError as err:
            self.send(f"info string bad go command: {err}")
            return
        limits = go.limits(self.state.to_move == 0)
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=self.think, args=(self.state, limits, go.infinite), daemon=True
        )
        self.thread.start()

    def think(self, state: State, limits: Limits, infinite: bool) -> None:
        best: object = None
        if state.outcome() is None:
            result: SearchResult | None = None
            for result in self.searcher.iterate(state, limits, stop=self.stop):
                if result.complete:
                    self.send(info_line(result, state))
            best = result.move if result is not None else None
        if infinite:  # the answer waits for `stop`, even when the search ended sooner
            self.stop.wait()
        self.send(f"bestmove {state.move_text(best) if best is not None else '0000'}")

    def finish(self) -> None:
        """Stop a search under way and wait for its ``bestmove``."""
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self.thread = None


def main(
    argv: list[str] | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Run the UCI loop until ``quit`` or the end of the input."""
    parser = argparse.ArgumentParser(
        prog="unbeatable uci", description="A chess engine speaking UCI on stdin and stdout."
    )
    parser.add_argument("--game", default="chess", choices=["chess"], help="the game (chess)")
    parser.parse_args(argv)
    engine = Engine(stdout or sys.stdout)
    for line in stdin or sys.stdin:
        if not engine.handle(line.strip()):
            break
    else:
        engine.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
