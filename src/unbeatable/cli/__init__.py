"""The command line: a thin layer over the library. ``main(argv) -> exit code``.

One module per command (:mod:`.solve`, :mod:`.analyze`, :mod:`.play`, :mod:`.tree`,
:mod:`.match`, :mod:`.bench`, :mod:`.mpi`, :mod:`.warm`, and the optional front ends in
:mod:`.frontends`), each with its options beside its handler; :mod:`.common` holds what they share.

Every user error (unknown game, bad position, bad move, bad option, unreadable file, failed
write) is one line on stderr and exit code 2; no traceback. Ctrl-C stops a command with exit
code 130, after printing what it has (the best result known, the games of a match so far). A
worker process that died is exit code 3. When the reader of the output goes away (a broken pipe)
the command stops quietly with exit code 141, as a shell reports a process killed by SIGPIPE.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import IO, NoReturn

from .. import __version__, registered
from ..search import ParallelSearchError, WorkerLostError
from ..search.parallel.watch import end_mpi_job
from . import analyze, bench, frontends, match, mpi, play, solve, tree, warm
from .common import (
    BROKEN_PIPE,
    INTERRUPTED,
    PROG,
    USAGE,
    WORKER_DIED,
    Messages,
    Output,
    OutputError,
    Parser,
    Streams,
    UsageError,
    check_digits,
    one_line,
    shorten,
)

__all__ = ["build_parser", "finish", "main", "run"]

COMMANDS = (solve, analyze, play, tree, match, bench, mpi, warm, frontends)


def build_parser() -> Parser:
    games = "; ".join(f"{name}: {text}" for name, text in registered().items())
    parser = Parser(
        prog=PROG,
        description="Perfect play for two-player zero-sum games. Games: " + games,
        epilog="Example: echo 5193 | unbeatable solve tictactoe. Exit codes: 0 done, 1 a "
        "solve score mismatched or a piped game was left unfinished, 2 a user error, 3 a "
        "worker process died, 130 Ctrl-C, 141 the output's reader went away.",
    )
    parser.add_argument("--version", action="version", version=f"unbeatable {__version__}")
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=Parser, required=True
    )
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    stdin: IO[str] | None = None,
) -> int:
    """Run the command line with ``argv``; return the exit code."""
    out = Output(stdout or sys.stdout)
    streams = Streams(out, Messages(stderr or sys.stderr), stdin or sys.stdin)  # type: ignore[arg-type]
    try:
        try:
            return _dispatch(argv, streams)
        finally:
            out.flush()
    except (UsageError, ValueError) as error:
        # a game's error quotes the text it was reading: cut there, and in all
        streams.error(f"error: {shorten(one_line(error), getattr(error, 'position', ''))}")
        return USAGE
    except OutputError as error:
        streams.error(f"error: cannot write the output: {error}")
        return USAGE
    except ParallelSearchError as error:
        streams.error(f"error: {one_line(error)}")
        if isinstance(error, WorkerLostError) and error.worker is not None:
            # an MPI rank died: the job cannot end in order (MPI would wait for ever for the
            # dead rank), so it ends as a whole, every rank on every host, with this code
            end_mpi_job(WORKER_DIED)
        return WORKER_DIED
    except KeyboardInterrupt:
        streams.error("interrupted")
        return INTERRUPTED
    except BrokenPipeError:
        return BROKEN_PIPE


def _dispatch(argv: Sequence[str] | None, streams: Streams) -> int:
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(streams.out):
            args = parser.parse_args(argv)  # --help and --version write to ``out``
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 0
    if isinstance(getattr(args, "game", None), str):  # Python's own message names no game
        check_digits(args.game)
    code: int = args.handler(args, streams)
    return code


def run() -> NoReturn:
    """The command line on ``sys.argv``, then exit with its code (the entry point,
    :func:`unbeatable.__main__.run`, also makes Ctrl-C quiet from the first instant)."""
    finish(main())


def finish(code: int) -> NoReturn:
    """Flush the output and exit with ``code``."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        # The output failed (and was reported, or the pipe broke): point stdout at nothing,
        # so that Python's own flush on the way out neither reports it again nor changes the
        # exit code.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code)
