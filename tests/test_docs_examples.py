"""Every Python example in the README and in docs/ runs (issue 8: examples a newcomer copies
must work). The blocks of one file run in order in one namespace, as a reader would paste them.
Blocks that need MPI ranks are left to tests/test_mpi.py."""

from __future__ import annotations

import contextlib
import io
import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NEEDS_MPI = "MPIPoolExecutor"


def blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


#: The examples of parallel searches start worker processes: seconds (the README's, 3.4 s on
#: 2026-12-02; tests/test_readme.py runs its games from the command line in make test-fast).
SLOW = {"README.md", "parallel.md", "beyond.md"}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.name in SLOW else p for p in FILES if blocks(p)],
    ids=lambda p: p.name,
)
def test_the_python_examples_run(path: Path) -> None:
    module = types.ModuleType(f"example_{path.stem}")  # dataclasses look their module up
    sys.modules[module.__name__] = module
    ran = 0
    try:
        for number, source in enumerate(blocks(path), 1):
            if NEEDS_MPI in source:
                continue
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, f"{path.name} block {number}", "exec"), module.__dict__)
            ran += 1
    finally:
        del sys.modules[module.__name__]
    assert ran >= 1
