"""What every command shares: the parser class, option groups, converters, the streams, the
search runner and the exit codes."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, NoReturn

from ..game import Game, GameError, State
from ..messages import ECHO_LIMIT, cut, cut_echoes
from ..search import (
    ALGORITHMS,
    DEFAULT_TABLE_SIZE,
    Limits,
    ParallelSearcher,
    Searcher,
    SearchInterrupted,
    SearchResult,
)
from ..search.options import max_threads

PROG = "unbeatable"

#: Exit codes (also listed in docs/cli.md and the README).
OK = 0
#: A scored line of ``solve`` mismatched, or a piped ``play`` game was left unfinished.
FAILED = 1
#: A user error: a bad option, game, position, move or file; one line on stderr.
USAGE = 2
#: A worker process of a parallel search died.
WORKER_DIED = 3
#: Ctrl-C (128 + SIGINT), after printing what is known.
INTERRUPTED = 130
#: The reader of the output went away (128 + SIGPIPE, as a shell reports it); nothing is printed.
BROKEN_PIPE = 141


#: Python refuses to convert longer strings of digits to a number.
MAX_DIGITS = 4300


class UsageError(Exception):
    """A wrong option or argument: reported in one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError` (one line, exit 2) and which
    accepts a command's optional positional after its options (``analyze tictactoe --json 5``)."""

    #: Optional positionals (nargs "?") that may come after the options.
    LATE = ("file", "position")

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # argparse gives an optional positional its default as soon as the positionals before
        # it are read, so the one that follows an option was left unrecognized.
        parsed, extras = super().parse_known_args(args, namespace)
        assert parsed is not None
        if self.get_default("forward") is not None:  # serve, uci: every argument is theirs
            parsed.forward = [a for a in extras if a != "--"] if extras[:1] == ["--"] else extras
            return parsed, []
        one_more = len(extras) == 1 and (not extras[0].startswith("-") or extras[0] == "-")
        for dest in self.LATE:
            action = next((a for a in self._actions if a.dest == dest), None)
            if one_more and action is not None and getattr(parsed, dest) == action.default:
                setattr(parsed, dest, extras.pop())
                break
        return parsed, extras


# --- converters ------------------------------------------------------------------------------


def _number(text: str) -> str:
    """``text`` if it is written in ASCII digits (``int`` also takes ``３`` and ``1_0``), and
    not too long for Python to read."""
    body = text.strip()
    digits = body.lstrip("+-")
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"{cut(text)!r} is not a whole number")
    if len(digits) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            f"{cut(text)!r}: a number of {len(digits)} digits is too long (at most {MAX_DIGITS})"
        )
    return body


def whole(text: str) -> int:
    """A whole number, written in ASCII digits (a seed)."""
    return int(_number(text))


def positive_int(text: str) -> int:
    value = int(_number(text))
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def seconds(text: str, fits: Callable[[float], bool], rule: str) -> float:
    """``text`` as seconds that ``fits``; else an argparse error saying ``rule``. Written in
    ASCII without ``_`` (``float`` also reads ``１`` and ``1_0``)."""
    try:
        if not text.isascii() or "_" in text:
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{cut(text)!r} is not a number of seconds") from None
    if not fits(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be {rule}")
    return value


def positive_float(text: str) -> float:
    return seconds(text, lambda v: 0 < v < float("inf"), "a positive number of seconds")


def pause(text: str) -> float:
    return seconds(text, lambda v: 0 <= v <= 60, "0 to 60 seconds")


def max_workers() -> int:
    """The most worker processes a command starts: four per CPU."""
    return 4 * (os.cpu_count() or 1)


def _per_cpu(text: str, noun: str, bound: int) -> int:
    """A positive count of ``noun`` (workers, threads) at most ``bound``, four per CPU."""
    value = positive_int(text)
    if value > bound:
        raise argparse.ArgumentTypeError(
            f"{value} {noun} is too many: at most {bound} (4 per CPU, {bound // 4} CPUs here)"
        )
    return value


def workers(text: str) -> int:
    return _per_cpu(text, "workers", max_workers())


def threads(text: str) -> int:
    return _per_cpu(text, "threads", max_threads())


def shorten(message: str, text: str) -> str:
    """``message`` with every echo of a long ``text`` cut (see :func:`cut`), and its other long
    echoes too (:func:`~unbeatable.game.cut_echoes`): at most a few hundred characters
    whatever the message says, its reason and its end kept."""
    if len(text) > ECHO_LIMIT:
        message = message.replace(repr(text), repr(cut(text))).replace(text, cut(text))
    return cut_echoes(message)


_LONG_NUMBER = re.compile(r"\d{" + str(MAX_DIGITS + 1) + ",}")


def check_digits(text: str) -> None:
    """Refuse a number too long for Python to read (its own message names no line)."""
    found = _LONG_NUMBER.search(text)
    if found is not None:
        raise GameError(
            f"{cut(text)!r}: a number of {len(found.group())} digits is too long "
            f"(at most {MAX_DIGITS})",
            text=text,
        )


def parse_position(game: Game, text: str) -> State:
    # a long run of digits is a number too long for Python only where the game reads it as one
    # token (Connect Four reads '4444...' a column at a time: the column fills up first)
    for token in game.split_moves(text) if len(text) > MAX_DIGITS else ():
        check_digits(token)
    return game.parse_position(text)


def game_over(state: State, given: str) -> GameError:
    return GameError(f"the game is over in {cut(given.strip())!r}: {state.outcome()}", text=given)


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


# --- option groups ---------------------------------------------------------------------------


def add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help="a registered game, with parameters if any (tictactoe, mnk:4,4,4, connect4 ...), "
        "or a game of your own as module:attribute (mygame:Nim, the module in the current "
        "directory or on the path) or as an installed package registers it",
    )


def add_limits(parser: argparse.ArgumentParser, parallel: bool = True) -> None:
    """--depth, --time and --nodes (``parallel``: the command has --workers and --mpi)."""
    parser.add_argument("--depth", type=positive_int, help="search at most D plies deep")
    parser.add_argument("--time", type=positive_float, help="search at most T seconds")
    tasks = "; tasks already under way with --workers or --mpi may pass it"
    parser.add_argument(
        "--nodes",
        type=positive_int,
        help=f"visit at most N positions (honoured exactly{tasks if parallel else ''})",
    )


def add_search_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        help="the search algorithm (default: alpha-beta with a table, or the game's own solver "
        "or searcher: Connect Four's solver, chess's compiled engine; any algorithm named here "
        "searches with the generic engine)",
    )
    parser.add_argument(
        "--table-size",
        type=positive_int,
        metavar="N",
        help=f"transposition table entries (default {DEFAULT_TABLE_SIZE}); a game's own "
        "solver or searcher is given the same size (default: its own; chess: 16 bytes an entry)",
    )
    parser.add_argument(
        "--threads",
        type=threads,
        metavar="N",
        help="threads for a game's own solver or searcher (Connect Four's solver: default every "
        f"core; chess's engine: default 1; at most {max_threads()}: 4 per CPU)",
    )
    parser.add_argument(
        "--no-book",
        action="store_true",
        help="a game's own solver without its opening book or database (to measure it alone)",
    )


def add_parallel_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--workers",
        type=workers,
        metavar="N",
        help=f"search in parallel in N local worker processes (at most {max_workers()}: 4 per CPU)",
    )
    group.add_argument(
        "--mpi",
        action="store_true",
        help="search in parallel on MPI ranks; run under "
        "'mpiexec -n RANKS python -m mpi4py.futures -m unbeatable ...' (one rank manages)",
    )


def solver_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options that go to a game's own solver (absent on commands without them)."""
    return {
        "threads": getattr(args, "threads", None),
        "book": not getattr(args, "no_book", False),
    }


def searcher(args: argparse.Namespace, **options: Any) -> Searcher:
    return Searcher(args.algorithm, table_size=args.table_size, **solver_options(args), **options)


def parallel(args: argparse.Namespace) -> ParallelSearcher | None:
    """The parallel searcher that --workers or --mpi ask for, or None."""
    if args.mpi:
        try:
            from mpi4py.futures import MPIPoolExecutor
        except ImportError:
            raise UsageError("--mpi needs mpi4py: pip install 'unbeatable[mpi]'") from None
        return ParallelSearcher(
            executor=MPIPoolExecutor(),
            own_executor=True,
            algorithm=args.algorithm,
            table_size=args.table_size,
            **solver_options(args),
        )
    if args.workers is not None:
        return ParallelSearcher(
            args.workers,
            algorithm=args.algorithm,
            table_size=args.table_size,
            **solver_options(args),
        )
    return None


def limits(args: argparse.Namespace) -> Limits:
    return Limits(depth=args.depth, time=args.time, nodes=args.nodes)


def run_search(
    engine: Searcher | ParallelSearcher, state: State, limits: Limits, *, analyze: bool
) -> tuple[SearchResult | None, bool]:
    """The result of a search as the library runs it, and whether Ctrl-C cut it short; then
    the result is the best known when Ctrl-C came (None if nothing was known yet)."""
    try:
        return engine.search(state, limits, analyze=analyze), False
    except SearchInterrupted as stop:
        return stop.result, True


# --- streams ---------------------------------------------------------------------------------


class OutputError(Exception):
    """Writing the output failed (a full disk, a closed file); carries the OS error."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error


class Output:
    """stdout for the commands: a broken pipe stays a :class:`BrokenPipeError`, any other
    failure to write becomes an :class:`OutputError`."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error) from None

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (OSError, ValueError):
            return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class Messages(Output):
    """stderr for the commands: a message that cannot be written (stderr closed or gone) is
    dropped, so that it never changes the exit code."""

    def __init__(self, stream: IO[str] | None) -> None:
        super().__init__(stream if stream is not None else open(os.devnull, "w"))  # noqa: SIM115

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.flush()


@dataclass
class Streams:
    """The three streams a command uses."""

    out: IO[str]
    err: IO[str]
    inp: IO[str]

    def error(self, message: str) -> None:
        """One line on stderr: ``unbeatable: message``."""
        self.err.write(f"{PROG}: {message}\n")
        self.err.flush()
