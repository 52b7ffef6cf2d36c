# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``core.Position``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""Kernels that answer the Python side's questions about a position's moves in one call each
(``core.Position`` would otherwise cross from Python into numba once per move), and perft."""

from __future__ import annotations

import numpy as np

from ._make import make, unmake
from ._movegen import GEN_ALL, gen_moves, in_check
from ._tables import I0, MAX_MOVES, P_KEY, kernel, kernel_nogil


@kernel
def move_facts(pos, tab, moves, n, marks, keys, undo, scratch, replies):
    """For each of the ``n`` moves of ``moves`` (legal in ``pos``): ``marks[i]`` 0 when it gives
    no check, 1 check, 2 mate; ``keys[i]`` the key of the position it leads to. ``scratch``
    (a position array) and ``replies`` (``MAX_MOVES``) are working space."""
    for i in range(n):
        for j in range(pos.shape[0]):
            scratch[j] = pos[j]
        make(scratch, tab, np.int64(moves[i]), undo, I0)
        keys[i] = scratch[P_KEY]
        if in_check(scratch, tab):
            marks[i] = 2 if gen_moves(scratch, tab, replies, I0, GEN_ALL) == 0 else 1
        else:
            marks[i] = 0


@kernel_nogil
def perft(pos, tab, depth, moves, undo, stack, ply):
    """The number of move sequences of ``depth`` plies (the last ply counted in bulk: the
    length of the list of legal moves). ``moves`` holds ``MAX_MOVES`` slots per ply and
    ``undo`` one record per ply, from ``ply`` on (for ``depth`` plies); ``stack``: ``2 * depth``
    words of working space.

    A loop over an explicit stack, not a recursion: numba's on-disk cache mislinks a cached
    kernel that calls a recursive one (numba issue 6061), so no kernel here recurses."""
    base = ply
    start = ply * MAX_MOVES
    end = gen_moves(pos, tab, moves, start, GEN_ALL)
    if depth <= 1:
        return end - start if depth == 1 else 1
    nexts = stack[:depth]  # per level: the next move's index
    ends = stack[depth : 2 * depth]
    nexts[0] = start
    ends[0] = end
    level = 0
    total = 0
    while level >= 0:
        i = nexts[level]
        if i == ends[level]:
            level -= 1
            if level >= 0:
                unmake(pos, tab, np.int64(moves[nexts[level] - 1]), undo, base + level)
            continue
        nexts[level] = i + 1
        m = np.int64(moves[i])
        make(pos, tab, m, undo, base + level)
        child = (base + level + 1) * MAX_MOVES
        if level + 2 == depth:  # the child's moves are the last ply: count them
            total += gen_moves(pos, tab, moves, child, GEN_ALL) - child
            unmake(pos, tab, m, undo, base + level)
        else:
            level += 1
            nexts[level] = child
            ends[level] = gen_moves(pos, tab, moves, child, GEN_ALL)
    return total


@kernel_nogil
def divide(pos, tab, depth, moves, undo, stack, counts):
    """``perft(depth - 1)`` after each legal move (depth >= 1): the moves in ``moves[:n]``,
    their counts in ``counts[:n]``; returns n."""
    n = gen_moves(pos, tab, moves, I0, GEN_ALL)
    for i in range(n):
        m = np.int64(moves[i])
        make(pos, tab, m, undo, I0)
        counts[i] = perft(pos, tab, depth - 1, moves, undo, stack, 1)
        unmake(pos, tab, m, undo, I0)
    return n
