"""Connect Four pictures: a board drawn as rows, top first, separated by ``/`` (``x`` moves
first, ``o`` second, ``.`` is empty), read into bitboards (the layout of
:class:`~.game.Connect4State`), and refused when no game reaches it."""

from __future__ import annotations

from collections.abc import Sequence

from ...game import InvalidPositionError
from .fours import aligned

__all__ = ["check_reachable", "read_cells"]


def read_cells(text: str, width: int, height: int) -> tuple[int, int]:
    """The first and the second player's stones of a picture (rows top first, ``/``)."""
    rows = text.split("/")
    if len(rows) != height:
        raise InvalidPositionError(
            f"{text!r} has {len(rows)} rows; a {width}x{height} board has {height}",
            text=text,
            position=text,
        )
    h1 = height + 1
    first = second = 0
    for index, row in enumerate(rows):
        r = height - 1 - index
        if len(row) != width:
            raise InvalidPositionError(
                f"row {index + 1} of {text!r} is {row!r}: it needs {width} cells",
                text=row,
                position=text,
            )
        for c, ch in enumerate(row):
            bit = 1 << (c * h1 + r)
            if ch in "xX":
                first |= bit
            elif ch in "oO":
                second |= bit
            elif ch != ".":
                raise InvalidPositionError(
                    f"{ch!r} in {text!r} is not a cell: use x, o or .",
                    text=ch,
                    position=text,
                )
    return first, second


def check_reachable(
    text: str, first: int, second: int, height: int, columns: Sequence[int]
) -> tuple[bool, bool]:
    """Refuse a picture that play cannot reach; whether x and whether o has four. ``columns``:
    the cells of each column, as bitboards."""

    def refuse(why: str) -> InvalidPositionError:
        return InvalidPositionError(f"{text!r} cannot arise: {why}", text=text, position=text)

    mask = first | second
    if not _no_gaps(mask, columns):
        raise refuse("a stone floats above an empty cell")
    xs, os = first.bit_count(), second.bit_count()
    if xs not in (os, os + 1):
        raise refuse(f"x has {xs} stones and o {os} (x moves first)")
    x_won, o_won = aligned(first, height), aligned(second, height)
    if x_won and o_won:
        raise refuse("both players have four in a row")
    if x_won or o_won:
        winner_stones = first if x_won else second
        last_mover_is_x = xs == os + 1
        if x_won != last_mover_is_x or not _last_stone_possible(
            winner_stones, mask, height, columns
        ):
            raise refuse("play would have stopped at the first four in a row")
    if not _reachable(first, second, height, columns):
        raise refuse("no alternating order of play under gravity reaches it")
    return x_won, o_won


def _no_gaps(mask: int, columns: Sequence[int]) -> bool:
    for column in columns:
        stones = mask & column
        # stones contiguous from the bottom: adding the bottom bit carries through them all
        lowest = column & -column
        if (stones + lowest) & stones:
            return False
    return True


def _reachable(
    first: int, second: int, height: int, columns: Sequence[int], limit: int = 200_000
) -> bool:
    """Some game reaches these stones: taking back the last mover's top stones one at a
    time, alternately, empties the board without passing a four. A search of more than
    ``limit`` positions is not finished and the picture is accepted."""
    seen: set[tuple[int, int]] = set()
    stack = [(first, second)]
    while stack:
        a, b = stack.pop()
        mask = a | b
        if not mask:
            return True
        if (a, b) in seen:
            continue
        seen.add((a, b))
        if len(seen) > limit:
            return True
        x_moved_last = a.bit_count() > b.bit_count()
        stones = a if x_moved_last else b
        for column in columns:
            in_column = mask & column
            if not in_column:
                continue
            top = 1 << (in_column.bit_length() - 1)
            if stones & top:
                before = (a ^ top, b) if x_moved_last else (a, b ^ top)
                if not (aligned(before[0], height) or aligned(before[1], height)):
                    stack.append(before)
    return False


def _last_stone_possible(stones: int, mask: int, height: int, columns: Sequence[int]) -> bool:
    """A top stone of the winner completes all of its fours (the winning move)."""
    for column in columns:
        in_column = mask & column
        if not in_column:
            continue
        top = 1 << (in_column.bit_length() - 1)
        if stones & top and not aligned(stones ^ top, height):
            return True
    return False
