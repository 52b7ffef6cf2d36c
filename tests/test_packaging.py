"""The built wheel holds every subpackage, the type marker and the console script."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_holds_the_whole_package(tmp_path: Path) -> None:
    try:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--no-build-isolation",
                "-q",
                "-w",
                str(tmp_path),
                str(ROOT),
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
    except subprocess.CalledProcessError as err:  # pragma: no cover - shown on failure
        pytest.fail(f"building the wheel failed:\n{err.stderr}")
    (wheel,) = tmp_path.glob("unbeatable-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {
        str(p.relative_to(ROOT / "src")) for p in (ROOT / "src" / "unbeatable").rglob("*.py")
    }
    assert sources <= names, sorted(sources - names)
    assert "unbeatable/py.typed" in names
    from unbeatable.games.connect4.book import PLIES, resource_name

    for width, height in PLIES:  # the Connect Four opening books ship, each size's
        book = f"unbeatable/data/{resource_name(width, height)}"
        assert book in names
        shipped = zipfile.ZipFile(wheel).read(book)
        assert shipped == (ROOT / "src" / book).read_bytes()
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "unbeatable = unbeatable.__main__:run" in text


def test_python_dash_m_runs_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable", "solve", "tictactoe"],
        input="5193\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout == "5193 0\n"
