"""docs/minimax.ipynb runs from top to bottom in a fresh kernel, and shows what it says it
shows: the pictures (SVG), the result table (HTML) and the figures of the chapter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat (the test extra) is not installed")
nbclient = pytest.importorskip("nbclient", reason="nbclient (the test extra) is not installed")
pytest.importorskip("ipykernel", reason="ipykernel (the test extra) is not installed")

pytestmark = pytest.mark.slow  # a kernel and the whole game searched: about 15 s

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "minimax.ipynb"


@pytest.fixture(scope="module")
def cells() -> dict[str, Any]:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": "docs"}}
    )
    client.execute()
    found = {}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            for tag in cell.metadata.get("tags", []):
                found[tag] = cell
    return found


def _text(cell: Any) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def _data(cell: Any, kind: str) -> str:
    for output in cell.outputs:
        if kind in output.get("data", {}):
            return str(output["data"][kind])
    raise AssertionError(f"no {kind} output in {cell.source[:60]!r}")


def test_no_cell_fails(cells: dict[str, Any]) -> None:
    for tag, cell in cells.items():
        assert not [o for o in cell.outputs if o.output_type == "error"], tag


def test_states_trees_and_timelines_show_themselves_as_pictures(cells: dict[str, Any]) -> None:
    for tag in ("position", "minimax", "negamax", "alphabeta", "step", "memo", "depth",
                "parallel", "split", "leaves"):
        assert _data(cells[tag], "image/svg+xml").startswith("<svg"), tag
    assert 'opacity="0.12"' in _data(cells["step"], "image/svg+xml")  # a search half-way
    table = _data(cells["result"], "text/html")
    assert "★" in table and "<svg" in table and "draw" in table


def test_the_chapters_figures(cells: dict[str, Any]) -> None:
    assert "26 nodes" in _text(cells["minimax"])
    assert "26 nodes, as minimax: 26" in _text(cells["negamax"])
    assert "19 nodes instead of 26 - 7 moves cut off" in _text(cells["alphabeta"])
    assert "cannot matter and is not searched" in _text(cells["alphabeta"])
    counts = _text(cells["counts"])
    for figure in ("549,946", "29,362", "7,434", "1,250", "392"):
        assert figure in counts
    assert "every-best-move" in _data(cells["beyond"], "text/plain")
    assert "answered by the table" in _text(cells["memo"])
    assert "same value as the serial search: True" in _text(cells["parallel"])
    assert "speed-up of" in _text(cells["parallel"])
    assert "The root is worth +6" in _text(cells["leaves"])
