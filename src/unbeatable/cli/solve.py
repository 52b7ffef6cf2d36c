"""``unbeatable solve``: the exact score of each position read, one line each."""

from __future__ import annotations

import argparse
import codecs
import itertools
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from ..game import Game, GameError, State, cut
from ..games import get_game
from ..search.batch import solve_positions
from . import common
from .common import Streams, UsageError, shorten

HELP = "print the exact score of each position read, one per line"

DESCRIPTION = (
    "Read positions one per line (POSITION or POSITION SCORE) and print 'POSITION SCORE'. "
    "SCORE: 0 a draw; if the side to move wins with the stone it places when n stones "
    "are on the board, (cells + 1 - n) // 2; the negation for a loss. A line that "
    "carries a score is checked and a mismatch reported. An empty line is the start "
    "position (as in Pons' test files), so output lines stay in step with input lines. "
    "Input is UTF-8 (a byte-order mark is skipped) or UTF-16 with a byte-order mark. "
    "Bad lines (also lines that are not text) are reported as 'line N: ...' on stderr "
    "and the others still solved; the exit code is 2 if any line was bad, 1 if any "
    "score mismatched, else 0."
)


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "solve",
        help=HELP,
        description=DESCRIPTION,
        epilog="Example: printf '5\\n12 3\\n' | unbeatable solve tictactoe",
    )
    common.add_game(p)
    p.add_argument("file", nargs="?", default="-", metavar="FILE", help="positions (default stdin)")
    p.add_argument("--weak", action="store_true", help="print only 1 (win), 0 (draw), -1 (loss)")
    common.add_search_options(p)
    common.add_parallel_options(p)
    p.set_defaults(handler=run)


# --- reading ---------------------------------------------------------------------------------


@dataclass
class Line:
    """One input line: its number and its text, or why it could not be read as text."""

    number: int
    text: str
    problem: str = ""


def _utf8(number: int, raw: bytes) -> Line:
    try:
        return Line(number, raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        byte = raw[error.start]
        return Line(number, "", f"not UTF-8 text: byte 0x{byte:02x} at column {error.start + 1}")


def _utf16(data: bytes) -> Iterator[Line]:
    text = data.decode("utf-16", errors="replace")
    pieces = text.split("\n")
    if pieces and pieces[-1] == "":
        pieces.pop()
    for number, piece in enumerate(pieces, start=1):
        if "\ufffd" in piece:
            yield Line(number, "", "not UTF-16 text (the file starts with a UTF-16 mark)")
        else:
            yield Line(number, piece)


def decode(binary: IO[bytes]) -> Iterator[Line]:
    """The lines of ``binary``, each decoded on its own (one bad byte spoils one line only):
    UTF-8, after a UTF-8 byte-order mark if there is one, or UTF-16 after its mark."""
    first = binary.readline()
    if first.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        yield from _utf16(first + binary.read())
        return
    if first.startswith(codecs.BOM_UTF8):
        first = first[len(codecs.BOM_UTF8) :]
    rest = iter(binary.readline, b"")
    for number, raw in enumerate(itertools.chain((first,) if first else (), rest), start=1):
        yield _utf8(number, raw)


def read_lines(path: str, inp: IO[str]) -> Iterator[Line]:
    """The lines of ``path`` (``-``: ``inp``), read as bytes when the stream has them; an
    unreadable file is a :class:`UsageError`."""
    try:
        if path == "-":
            binary = getattr(inp, "buffer", None)
            if binary is None:  # a text stream without bytes (tests, embedding programs)
                for number, text in enumerate(iter(inp.readline, ""), start=1):
                    yield Line(number, text)
                return
            yield from decode(binary)
            return
        with open(path, "rb") as stream:
            yield from decode(stream)
    except OSError as error:
        where = "standard input" if path == "-" else repr(path)
        raise UsageError(f"cannot read {where}: {error.strerror or error}") from None


# --- solving ---------------------------------------------------------------------------------


@dataclass
class Entry:
    number: int
    text: str
    state: State
    expected: int | None


def parse_score(text: str) -> int:
    if not (text.lstrip("+-").isascii() and text.lstrip("+-").isdigit()):
        raise GameError(f"score {cut(text)!r} is not a whole number", text=text)
    return int(text)


def parse_line(game: Game, line: Line) -> Entry:
    if line.problem:
        raise GameError(line.problem)
    text = line.text.strip()
    tokens = text.split()
    if len(tokens) > 2:
        raise GameError(f"expected POSITION or POSITION SCORE, got {cut(text)!r}", text=text)
    position = tokens[0] if tokens else ""  # an empty line: the start position
    state = common.parse_position(game, position)
    expected = parse_score(tokens[1]) if len(tokens) == 2 else None
    return Entry(line.number, position, state, expected)


class Batch:
    """One run of ``solve``: the counts, and the lines read but not yet answered."""

    def __init__(self, args: argparse.Namespace, streams: Streams) -> None:
        self.args = args
        self.streams = streams
        self.game = get_game(args.game)
        self.waiting: deque[Entry] = deque()
        self.bad = self.mismatched = self.solved = 0

    def states(self) -> Iterator[State]:
        """The positions of the good lines; bad lines are reported on the way."""
        for line in read_lines(self.args.file, self.streams.inp):
            try:
                entry = parse_line(self.game, line)
            except ValueError as error:  # GameError, or a game's own ValueError
                self.bad += 1
                message = shorten(common.one_line(error), line.text)
                self.streams.error(f"line {line.number}: {message}")
                continue
            self.waiting.append(entry)
            yield entry.state

    def write(self, entry: Entry, score: int) -> None:
        self.solved += 1
        self.streams.out.write(f"{entry.text} {score}\n")
        self.streams.out.flush()
        expected = entry.expected
        if expected is None:
            return
        agree = (expected > 0) - (expected < 0) == score if self.args.weak else expected == score
        if not agree:
            self.mismatched += 1
            self.streams.error(
                f"line {entry.number}: {cut(entry.text)}: expected {expected}, solved {score}"
            )

    def summary(self) -> None:
        if (self.bad or self.mismatched) and self.solved + self.bad > 1:
            self.streams.error(
                f"{_count(self.solved, 'position')} solved, {self.mismatched} mismatched, "
                f"{_count(self.bad, 'bad line')}"
            )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def run(args: argparse.Namespace, streams: Streams) -> int:
    batch = Batch(args, streams)
    parallel = common.parallel(args)
    engine = parallel if parallel is not None else common.searcher(args)
    try:
        for score in solve_positions(batch.states(), weak=args.weak, searcher=engine):
            batch.write(batch.waiting.popleft(), score)
    finally:
        if parallel is not None:
            parallel.close()
    batch.summary()
    return common.USAGE if batch.bad else common.FAILED if batch.mismatched else common.OK
