"""Helpers the test modules share: the command line run in-process (``run``), the one line a
user error prints (``one_error_line``; ``error_line`` for an argument error, without its
prefix), and random positions."""

from __future__ import annotations

import io
import random
from typing import IO

from unbeatable import State, cli, get_game


def run(
    *argv: str,
    stdin: str | IO[str] = "",
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> tuple[int, str, str]:
    """``unbeatable ARGV`` run in this process: its exit code, what it wrote on stdout and on
    stderr. ``stdin`` is the text it reads (or a stream); ``stdout``/``stderr`` replace the
    captured streams (then their text is read back only if they are StringIO, else '')."""
    out = io.StringIO() if stdout is None else stdout
    err = io.StringIO() if stderr is None else stderr
    inp = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    code = cli.main(list(argv), stdout=out, stderr=err, stdin=inp)
    return code, _text(out), _text(err)


def _text(stream: IO[str]) -> str:
    return stream.getvalue() if isinstance(stream, io.StringIO) else ""


def one_error_line(err: str) -> str:
    """The one line of a user error (no traceback, starts with ``unbeatable``)."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("unbeatable")
    return lines[0]


def error_line(err: str) -> str:
    """The one line of a user error on stderr, without ``unbeatable: error: ``; fails the test
    on a traceback or more than one line."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("unbeatable: error: "), err
    return lines[0].removeprefix("unbeatable: error: ")


def random_position(spec: str, plies: int, rng: random.Random | int) -> State:
    """The position after up to ``plies`` random moves from the start of ``spec`` (``rng``: a
    generator, or a seed for a new one), stopping short of a move that ends the game: never a
    finished position."""
    rng = random.Random(rng) if isinstance(rng, int) else rng
    state = get_game(spec).initial()
    for _ in range(plies):
        child = state.play(rng.choice(list(state.legal_moves())))
        if child.outcome() is not None:
            break
        state = child
    return state
