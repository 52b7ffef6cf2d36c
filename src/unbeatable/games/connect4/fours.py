"""Fours in a row on Connect Four bitboards (Python integers, the layout of
:class:`~.game.Connect4State`): whether stones hold one, which cells would complete one, and
how many windows of four are open to a player."""

from __future__ import annotations

__all__ = ["aligned", "open_lines", "winning_cells"]


def aligned(stones: int, height: int) -> bool:
    """True when ``stones`` hold four in a row on a board of this height."""
    for shift in (1, height + 1, height, height + 2):  # vertical, horizontal, two diagonals
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_cells(stones: int, height: int, board: int) -> int:
    """The cells that would give ``stones`` four in a row: exact for the empty cells (a
    vertical four is only looked for above three stones, where play can complete it)."""
    h1 = height + 1
    # vertical: three stones on top of each other, the cell above them
    result = (stones << 1) & (stones << 2) & (stones << 3)
    for shift in (h1, height, height + 2):  # horizontal and both diagonals
        pairs = (stones << shift) & (stones << 2 * shift)
        result |= pairs & (stones << 3 * shift)
        result |= pairs & (stones >> shift)
        pairs = (stones >> shift) & (stones >> 2 * shift)
        result |= pairs & (stones << shift)
        result |= pairs & (stones >> 3 * shift)
    return result & board


def open_lines(own: int, free: int, shifts: tuple[int, ...]) -> tuple[int, int]:
    """How many windows of four hold exactly two, and exactly three, of ``own``'s stones and
    otherwise only ``free`` cells (``free`` includes ``own``'s stones).

    Bit-parallel: for each direction, a bit at x of ``windows`` marks the window x, x+s, x+2s,
    x+3s; the four stone bits of every window are added with a bit-sliced adder.
    """
    twos = threes = 0
    for s in shifts:
        windows = free & (free >> s) & (free >> 2 * s) & (free >> 3 * s)
        if not windows:
            continue
        a0 = own & windows
        a1 = (own >> s) & windows
        a2 = (own >> 2 * s) & windows
        a3 = (own >> 3 * s) & windows
        x01, y01 = a0 ^ a1, a0 & a1
        x23, y23 = a2 ^ a3, a2 & a3
        low, carry = x01 ^ x23, x01 & x23
        one = y01 ^ y23 ^ carry  # the count's second bit (a count of 4 has it clear)
        threes += (low & one).bit_count()
        twos += (one & ~low & windows).bit_count()
    return twos, threes
