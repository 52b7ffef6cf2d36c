"""Terminal rendering for the command line: coloured boards and tables with rich, plain text
elsewhere.

Nothing here is needed by the library; the CLI uses rich only when the stream is a terminal, so
that pipes, files and tests see plain text.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import time
from collections.abc import Iterator, Sequence
from typing import IO, Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .tree import HORIZON, PRUNED, SHORTCUT, TERMINAL, SearchTree, TreeNode, format_value

__all__ = [
    "LiveLine",
    "Thinking",
    "is_tty",
    "plain_table",
    "print_board",
    "print_search_tree",
    "print_table",
    "progress",
]

_STONES = re.compile(r"\b([XO])\b")
_STYLES = {"X": "bold red", "O": "bold blue"}


def is_tty(stream: IO[str]) -> bool:
    """True when ``stream`` is an interactive terminal."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Thinking:
    """The spinner's words while the AI thinks: the seconds so far once there are a few, and
    what Ctrl-C does once the wait is long (a perfect move on a large board can take minutes).
    Rich renders it afresh with every frame of the spinner."""

    #: seconds before the count shows; and before the Ctrl-C hint does
    QUIET = 2.0
    HINT = 10.0

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self.start = clock()

    def text(self) -> str:
        spent = self.clock() - self.start
        if spent < self.QUIET:
            return "thinking..."
        words = f"thinking... {int(spent)} s"
        if spent >= self.HINT:
            words += " (Ctrl-C: play the best move found so far)"
        return words

    def __rich__(self) -> Text:
        return Text(self.text())


def console(stream: IO[str]) -> Console:
    return Console(file=stream, highlight=False, soft_wrap=True)


def print_board(stream: IO[str], picture: str, *, color: bool, title: str = "") -> None:
    """Write a game's picture; on a terminal it is framed and the stones are coloured (X red,
    O blue)."""
    if not color:
        stream.write(picture + "\n")
        return
    text = Text()
    position = 0
    for match in _STONES.finditer(picture):
        text.append(picture[position : match.start()], style="dim")
        text.append(match.group(1), style=_STYLES[match.group(1)])
        position = match.end()
    text.append(picture[position:], style="dim")
    console(stream).print(Panel.fit(text, title=title or None, padding=(0, 1)))


def _alignment(align: str, columns: int) -> str:
    return (align or "l" + "r" * (columns - 1)).ljust(columns, align[-1:] or "r")


def plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str = "") -> str:
    """Columns padded to their widest cell. ``align``: one letter a column, ``l`` or ``r``
    (default: the first column left, the rest right)."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    sides = _alignment(align, len(headers))
    lines = []
    for row in [headers, *rows]:
        cells = [
            str(cell).ljust(width) if side == "l" else str(cell).rjust(width)
            for cell, width, side in zip(row, widths, sides, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def print_table(
    stream: IO[str],
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    title: str = "",
    align: str = "",
    color: bool,
) -> None:
    """A table: rich's on a terminal, :func:`plain_table` elsewhere."""
    if not color:
        if title:
            stream.write(title + "\n")
        stream.write(plain_table(headers, rows, align))
        return
    table = Table(title=title or None, title_justify="left")
    for header, side in zip(headers, _alignment(align, len(headers)), strict=True):
        table.add_column(header, justify="left" if side == "l" else "right")
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    console(stream).print(table)


class _NoProgress:
    def advance(self, description: str = "") -> None:
        pass


class _RichProgress(_NoProgress):
    def __init__(self, progress: Any, task: Any) -> None:
        self.progress = progress
        self.task = task

    def advance(self, description: str = "") -> None:
        if description:
            self.progress.update(self.task, advance=1, description=description)
        else:
            self.progress.advance(self.task)


@contextlib.contextmanager
def progress(stream: IO[str], total: int, description: str) -> Iterator[_NoProgress]:
    """A progress bar on ``stream`` when it is a terminal (it vanishes when done); otherwise a
    stand-in that does nothing. Call ``advance()`` once per step."""
    if not is_tty(stream):
        yield _NoProgress()
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(file=stream),
        transient=True,
    ) as bar:
        yield _RichProgress(bar, bar.add_task(description, total=total))


class LiveLine:
    """Progress on ``stream``: in a terminal one line written over and over (at most every
    ``every`` seconds, cut to the terminal's width) that :meth:`clear` removes; elsewhere each
    text on a line of its own, as it comes (a log)."""

    def __init__(self, stream: IO[str], every: float = 0.2) -> None:
        self.stream = stream
        self.terminal = is_tty(stream)
        self.every = every
        self.shown = False
        self.last = 0.0
        self.partial = False  # a line was cut short (Ctrl-C while it was written)

    def show(self, text: str) -> None:
        """Say ``text`` (in a terminal, unless the last text came less than ``every`` ago)."""
        try:
            if not self.terminal:
                self.partial = True
                self.stream.write(text + "\n")
                self.partial = False
            else:
                now = time.monotonic()
                if self.shown and now - self.last < self.every:
                    return
                self.last = now
                width = shutil.get_terminal_size().columns - 1
                cut = text if len(text) <= width else text[: max(width - 3, 0)] + "..."
                self.stream.write("\r" + cut + "\033[K")
                self.shown = True
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed or its reader gone: progress is dropped
            pass

    def clear(self) -> None:
        """Remove the terminal's line (elsewhere: end a line that Ctrl-C cut short)."""
        end = "\r\033[K" if self.shown else "\n" if self.partial else ""
        self.shown = self.partial = False
        if end:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write(end)
                self.stream.flush()


def print_search_tree(stream: IO[str], tree: SearchTree, title: str) -> None:
    """The search tree as a coloured outline on a terminal: ▲ max, ▼ min, ■ game over, the
    principal variation red, pruned moves dim."""
    from rich.tree import Tree

    def label(node: TreeNode) -> Text:
        text = Text()
        if node.move is not None:
            text.append(node.move_text + " ", style="bold")
        if node.kind == PRUNED:
            text.append(f"✂ {node.note}", style="dim")
            return text
        mark = "■" if node.kind == TERMINAL else "▲" if node.maximising else "▼"
        style = "" if node.kind == TERMINAL else "cyan" if node.maximising else "magenta"
        text.append(f"{mark} ", style=style)
        text.append(format_value(node.value, node.bound, tree.scale))
        if node.kind == HORIZON:
            text.append(" (evaluated)", style="dim")
        elif node.kind == SHORTCUT:
            text.append(f" ({node.note})", style="dim")
        if node.on_pv:
            text.stylize("bold red")
        return text

    def grow(branch: Tree, node: TreeNode) -> None:
        for child in node.children:
            grow(branch.add(label(child)), child)

    root = Tree(label(tree.root), guide_style="dim")
    grow(root, tree.root)
    out = console(stream)
    out.print(Text(title, style="bold"))
    out.print(root)
