"""``unbeatable solve``: the exact score of each position read, one line each."""

from __future__ import annotations

import argparse
import codecs
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

from ..game import Game, GameError, State
from ..games import load_game
from ..messages import cut
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
    "Input is UTF-8 (a byte-order mark is skipped) or UTF-16 with a byte-order mark; lines "
    "end with LF, CR LF or CR. "
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


#: A line ends with ``\\r\\n``, ``\\n`` or ``\\r`` (old Mac files) alike.
_LINE_END = re.compile(r"\r\n|\r|\n")
_BYTES_LINE_END = re.compile(rb"\r\n|\r|\n")


def _utf16(data: bytes) -> Iterator[Line]:
    text = data.decode("utf-16", errors="replace")
    pieces = _LINE_END.split(text)
    if pieces and pieces[-1] == "":
        pieces.pop()
    for number, piece in enumerate(pieces, start=1):
        if "\ufffd" in piece:
            yield Line(number, "", "not UTF-16 text (the file starts with a UTF-16 mark)")
        else:
            yield Line(number, piece)


def _reader(binary: IO[bytes]) -> Callable[[], bytes]:
    """What reads the next bytes of ``binary`` that have come, without waiting for more."""
    read = getattr(binary, "read1", binary.read)
    return lambda: bytes(read(1 << 16))


def split_lines(binary: IO[bytes], head: bytes = b"") -> Iterator[bytes]:
    """The lines of ``head`` followed by ``binary``, without their ends, each as soon as it
    has come (so that a pipe's answers follow its questions), whether they end with
    ``\\n``, ``\\r\\n`` or ``\\r``; a last line without an end too."""
    read = _reader(binary)
    pending = bytearray()
    after_cr = False  # the last line ended with \r: a \n that comes next belongs to it
    chunk = head or read()
    while chunk:
        if after_cr and chunk[:1] == b"\n":
            chunk = chunk[1:]
        after_cr = False
        searched = len(pending)
        pending += chunk
        start = 0
        for found in _BYTES_LINE_END.finditer(pending, searched):
            yield bytes(pending[start : found.start()])
            start = found.end()
            after_cr = found.group() == b"\r" and start == len(pending)
        del pending[:start]
        chunk = read()
    if pending:
        yield bytes(pending)


def decode(binary: IO[bytes]) -> Iterator[Line]:
    """The lines of ``binary``, each decoded on its own (one bad byte spoils one line only):
    UTF-8, after a UTF-8 byte-order mark if there is one, or UTF-16 after its mark. Lines end
    with ``\\n``, ``\\r\\n`` or ``\\r`` alike."""
    read = _reader(binary)
    head = b""
    while len(head) < len(codecs.BOM_UTF8) and not _BYTES_LINE_END.search(head):
        chunk = read()  # enough to see a byte-order mark, or the first line
        if not chunk:
            break
        head += chunk
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        yield from _utf16(head + binary.read())
        return
    if head.startswith(codecs.BOM_UTF8):
        head = head[len(codecs.BOM_UTF8) :]
    for number, raw in enumerate(split_lines(binary, head), start=1):
        yield _utf8(number, raw)


def _text_lines(inp: IO[str]) -> Iterator[str]:
    """The lines of a text stream without their ends, which are ``\\n``, ``\\r\\n`` or
    ``\\r`` alike."""
    for text in iter(inp.readline, ""):
        pieces = _LINE_END.split(text)
        yield from pieces[:-1] if pieces[-1] == "" else pieces


def read_lines(path: str, inp: IO[str]) -> Iterator[Line]:
    """The lines of ``path`` (``-``: ``inp``), read as bytes when the stream has them; an
    unreadable file is a :class:`UsageError`."""
    try:
        if path == "-":
            binary = getattr(inp, "buffer", None)
            if binary is None:  # a text stream without bytes (tests, embedding programs)
                for number, text in enumerate(_text_lines(inp), start=1):
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
        self.game = load_game(args.game)
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
