"""Drawing a picture with Graphviz's ``dot`` program (the search tree: :func:`.tree.to_dot`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["GRAPHVIZ_FORMATS", "GraphvizError", "GraphvizMissingError", "render"]


#: The formats :func:`render` draws with Graphviz's ``dot`` program.
GRAPHVIZ_FORMATS = ("svg", "png")


class GraphvizError(Exception):
    """Graphviz's ``dot`` could not draw the picture; the message says why."""


class GraphvizMissingError(GraphvizError):
    """Graphviz's ``dot`` program is not installed (not on ``PATH``)."""


def render(dot: str, fmt: str, path: str | Path) -> None:
    """Draw ``dot`` (Graphviz's language, e.g. from :func:`to_dot`) into the file ``path`` as
    ``fmt`` (one of :data:`GRAPHVIZ_FORMATS`) with Graphviz's ``dot`` program.

    Raises :class:`GraphvizMissingError` when ``dot`` is not installed and
    :class:`GraphvizError` (with ``dot``'s first line of complaint) when it fails.
    """
    if fmt not in GRAPHVIZ_FORMATS:
        raise ValueError(f"format {fmt!r}: choose one of {', '.join(GRAPHVIZ_FORMATS)}")
    program = shutil.which("dot")
    if program is None:
        raise GraphvizMissingError(
            "Graphviz's dot program is not installed (e.g. apt-get install graphviz)"
        )
    done = subprocess.run(
        [program, f"-T{fmt}", "-o", str(path)], input=dot.encode(), capture_output=True
    )
    if done.returncode != 0:
        why = (done.stderr.decode(errors="replace").strip().splitlines() or ["failed"])[0]
        raise GraphvizError(f"dot could not draw {str(path)!r}: {why}")
