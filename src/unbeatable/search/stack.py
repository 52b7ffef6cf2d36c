"""Alpha-beta without recursion: an explicit stack of frames, for games of any length.

:func:`alphabeta_stack` visits the same nodes in the same order as
:meth:`~.engine.Engine.alphabeta` and returns the same value under the same contract; only the
call stack lives in a Python list instead of the interpreter's frames, so a game thousands of
plies long does not reach Python's recursion limit.
"""

from __future__ import annotations

from ..game import Move, State
from .engine import Engine
from .score import INFINITY, to_table
from .table import EXACT, LOWER, RESOLVED, UPPER

__all__ = ["alphabeta_stack"]

# A frame is a list: the node's state, depth, alpha, beta, ply, alpha at entry, best value,
# best move, moves to try, index of the next move, table key, horizon count at entry, the
# table's move hint at entry, and whether the child being searched has the same side to move.
(
    _STATE,
    _DEPTH,
    _ALPHA,
    _BETA,
    _PLY,
    _ALPHA0,
    _BEST,
    _BEST_MOVE,
    _MOVES,
    _NEXT,
    _KEY,
    _HORIZON,
    _FIRST,
    _SAME,
) = range(14)


def alphabeta_stack(
    engine: Engine, root: State, depth: int, alpha: int, beta: int, ply: int
) -> int:
    """The value of ``root`` under the contract of :meth:`~.engine.Engine.alphabeta`."""
    table = engine.table
    stack: list[list[object]] = []
    state, d, a, b, p = root, depth, alpha, beta, ply
    while True:
        # Enter the node (state, d, a, b, p): either it has a value at once, or it gets a frame.
        value = _enter(engine, state, d, a, b, p, stack)
        if value is None:
            frame = stack[-1]
            child = state.play(frame[_MOVES][0])  # type: ignore[index]
            state, d, a, b, p = _child(frame, state, child, d, a, b, p)
            continue
        # Hand the value up until a frame has another child to try.
        while stack:
            frame = stack[-1]
            moves: list[Move] = frame[_MOVES]  # type: ignore[assignment]
            index: int = frame[_NEXT]  # type: ignore[assignment]
            move = moves[index]
            index += 1
            frame[_NEXT] = index
            score = value if frame[_SAME] else -value
            f_alpha: int = frame[_ALPHA]  # type: ignore[assignment]
            f_beta: int = frame[_BETA]  # type: ignore[assignment]
            f_ply: int = frame[_PLY]  # type: ignore[assignment]
            cut = False
            if score > frame[_BEST]:  # type: ignore[operator]
                frame[_BEST] = score
                frame[_BEST_MOVE] = move
                if score > f_alpha:
                    f_alpha = score
                    frame[_ALPHA] = score
                    engine.set_pv(f_ply, move)
                    if score >= f_beta:
                        engine.cutoffs += 1
                        cut = True
            if not cut and index < len(moves):
                parent: State = frame[_STATE]  # type: ignore[assignment]
                f_depth: int = frame[_DEPTH]  # type: ignore[assignment]
                child = parent.play(moves[index])
                state, d, a, b, p = _child(frame, parent, child, f_depth, f_alpha, f_beta, f_ply)
                break
            stack.pop()
            best: int = frame[_BEST]  # type: ignore[assignment]
            if table is not None:
                alpha0: int = frame[_ALPHA0]  # type: ignore[assignment]
                flag = UPPER if best <= alpha0 else LOWER if best >= f_beta else EXACT
                f_depth = frame[_DEPTH]  # type: ignore[assignment]
                stored = RESOLVED if engine.horizon == frame[_HORIZON] else f_depth
                # When every move failed low the "best" one is noise: keep the earlier hint.
                hint = frame[_FIRST] if flag == UPPER else frame[_BEST_MOVE]
                table.store(frame[_KEY], to_table(best, f_ply), flag, stored, hint)
            value = best
        else:
            return value


def _enter(
    engine: Engine,
    state: State,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    stack: list[list[object]],
) -> int | None:
    """A node's value if it needs no move searched (see :meth:`Engine.enter`), else None
    after pushing its frame (with at least one move to try)."""
    value, key, first = engine.enter(state, depth, alpha, beta, ply)
    if value is not None:
        return value
    moves = list(engine.ordered(state, first))
    if not moves:
        raise ValueError(f"{state!r} has no legal moves but the game has not ended")
    stack.append(
        [
            state,
            depth,
            alpha,
            beta,
            ply,
            alpha,
            -INFINITY,
            None,
            moves,
            0,
            key,
            engine.horizon,
            first,
            False,
        ]
    )
    return None


def _child(
    frame: list[object], parent: State, child: State, depth: int, alpha: int, beta: int, ply: int
) -> tuple[State, int, int, int, int]:
    """The next node to enter, below ``frame``'s node: the window is mirrored only when the
    side to move changes (as in :meth:`~.engine.Engine.alphabeta`)."""
    same = child.to_move == parent.to_move
    frame[_SAME] = same
    if same:
        return child, depth - 1, alpha, beta, ply + 1
    return child, depth - 1, -beta, -alpha, ply + 1
