"""Running the command line in-process for a test: ``run(*argv, stdin=...)`` gives the exit
code, stdout and stderr; ``error_line(err)`` the one line a user error prints."""

from __future__ import annotations

import io

from unbeatable import cli


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def error_line(err: str) -> str:
    """The one line of a user error on stderr, without ``unbeatable: error: ``; fails the test
    on a traceback or more than one line."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("unbeatable: error: "), err
    return lines[0].removeprefix("unbeatable: error: ")
