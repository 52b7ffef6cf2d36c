"""Alpha-beta without recursion: an explicit stack of frames, for games of any length.

:func:`alphabeta_stack` visits the same nodes in the same order as
:meth:`~.engine.Engine.alphabeta` and returns the same value under the same contract; only the
call stack lives in a Python list instead of the interpreter's frames, so a game thousands of
plies long does not reach Python's recursion limit. The node's parts are the engine's own: the
prologue (:meth:`~.engine.Engine.enter`), the move order (:meth:`~.engine.Engine.ordered`) and
the table store (:meth:`~.engine.Engine.leave`); an observed engine's events are the same as
the recursive search's (the tests compare them).
"""

from __future__ import annotations

from ..game import Move, State
from . import events as ev
from .engine import Engine
from .events import SearchEvent
from .score import INFINITY

__all__ = ["ENDLESS_PLIES", "alphabeta_stack"]

#: How deep a line of a game that declares no :attr:`~unbeatable.game.State.max_plies` may go
#: before the search says the game goes round in circles or never ends (rather than growing
#: its stack until memory runs out).
ENDLESS_PLIES = 100_000

# A frame is a list: the node's state, depth, alpha, beta, ply, alpha at entry, best value,
# best move, moves to try, index of the next move, table key, horizon count at entry, the
# table's move hint at entry, whether the child being searched has the same side to move, and
# (observed only) the node's path.
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
    _PATH,
) = range(15)


def alphabeta_stack(
    engine: Engine,
    root: State,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    move: Move | None = None,
) -> int:
    """The value of ``root`` under the contract of :meth:`~.engine.Engine.alphabeta`
    (``move``: the move that led to ``root``, for an observed engine's path)."""
    table = engine.table
    watch = engine._watch
    stack: list[list[object]] = []
    state, d, a, b, p = root, depth, alpha, beta, ply
    path: tuple[Move, ...] = ()
    if watch is not None and ply > 0:
        path = (*watch.path[: ply - 1], move)
    deepest = ENDLESS_PLIES if root.max_plies is None else None
    while True:
        # Enter the node (state, d, a, b, p): either it has a value at once, or it gets a frame.
        value = _enter(engine, state, d, a, b, p, stack, path)
        if value is None:
            if deepest is not None and len(stack) > deepest:
                raise ValueError(endless(len(stack)))
            frame = stack[-1]
            step = frame[_MOVES][0]  # type: ignore[index]
            child = state.play(step)
            state, d, a, b, p = _child(frame, state, child, d, a, b, p)
            if watch is not None:
                path = (*path, step)
            continue
        # Hand the value up until a frame has another child to try.
        while stack:
            frame = stack[-1]
            moves: list[Move] = frame[_MOVES]  # type: ignore[assignment]
            index: int = frame[_NEXT]  # type: ignore[assignment]
            step = moves[index]
            index += 1
            frame[_NEXT] = index
            score = value if frame[_SAME] else -value
            f_alpha: int = frame[_ALPHA]  # type: ignore[assignment]
            f_beta: int = frame[_BETA]  # type: ignore[assignment]
            f_ply: int = frame[_PLY]  # type: ignore[assignment]
            cut = False
            if score > frame[_BEST]:  # type: ignore[operator]
                frame[_BEST] = score
                frame[_BEST_MOVE] = step
                if score > f_alpha:
                    f_alpha = score
                    frame[_ALPHA] = score
                    engine.set_pv(f_ply, step)
                    if score >= f_beta:
                        engine.cutoffs += 1
                        cut = True
            if not cut and index < len(moves):
                parent: State = frame[_STATE]  # type: ignore[assignment]
                f_depth: int = frame[_DEPTH]  # type: ignore[assignment]
                child = parent.play(moves[index])
                state, d, a, b, p = _child(frame, parent, child, f_depth, f_alpha, f_beta, f_ply)
                if watch is not None:
                    path = (*frame[_PATH], moves[index])  # type: ignore[misc]
                break
            stack.pop()
            best: int = frame[_BEST]  # type: ignore[assignment]
            if table is not None:
                engine.leave(
                    frame[_KEY], best, frame[_ALPHA0], f_beta, frame[_DEPTH], f_ply,  # type: ignore[arg-type]
                    frame[_HORIZON], frame[_FIRST], frame[_BEST_MOVE],  # type: ignore[arg-type]
                )
            if watch is not None:
                watch.done(
                    frame[_STATE], frame[_PATH], f_ply, frame[_DEPTH], frame[_ALPHA0],  # type: ignore[arg-type]
                    f_beta, best,
                )
            value = best
        else:
            return value


def endless(plies: int) -> str:
    """Why a search to the end of a game without a known length gave up."""
    return (
        f"a line of this game went {plies:,} moves deep without the game ending: it goes "
        "round in circles (a position comes back) or never ends; give the search a depth or a "
        "time limit, or declare max_plies"
    )


def _enter(
    engine: Engine,
    state: State,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    stack: list[list[object]],
    path: tuple[Move, ...],
) -> int | None:
    """A node's value if it needs no move searched (see :meth:`Engine.enter`), else None
    after pushing its frame (with at least one move to try)."""
    watch = engine._watch
    if watch is not None:
        watch.at(ply, path[-1] if ply > 0 else None)
        watch.emit(SearchEvent(ev.ENTER, path, alpha, beta, None, None))
    value, key, first, _ = engine.enter(state, depth, alpha, beta, ply)
    if value is not None:
        if watch is not None:
            watch.done(state, path, ply, depth, alpha, beta, value)
        return value
    moves = list(engine.ordered(state, first, ply))
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
            path,
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
