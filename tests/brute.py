"""Brute force for the tests: every reachable position, and values by plain negamax with the
library's scoring, to check the searches against."""

from __future__ import annotations

from functools import cache

from unbeatable import Move, State
from unbeatable.search.score import WIN, WIN_MIN


@cache
def truth(state: State, depth: int | None = None) -> int:
    """The depth-weighted value from the side to move's view (a win sooner is worth more), by
    brute force, to the end of the game or ``depth`` plies deep (the evaluation at the limit);
    a child's value changes sign only when the other player is to move there."""
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return WIN if outcome.winner == state.to_move else -WIN
    if depth == 0:
        return int(state.evaluate())
    below = None if depth is None else depth - 1
    best = -2 * WIN
    for move in state.legal_moves():
        child = state.play(move)
        value = truth(child, below)
        if value >= WIN_MIN:
            value -= 1
        elif value <= -WIN_MIN:
            value += 1
        best = max(best, value if child.to_move == state.to_move else -value)
    return best


def move_value(state: State, move: Move) -> int:
    """The brute-force value of ``move`` in ``state`` from the view of ``state``'s side to move,
    as a search's move scores give it."""
    child = state.play(move)
    value = truth(child)
    value = value - 1 if value >= WIN_MIN else value + 1 if value <= -WIN_MIN else value
    return value if child.to_move == state.to_move else -value


def reachable(start: State, limit: int | None = None) -> list[State]:
    """Every position reachable from ``start`` (about ``limit`` at most), in a fixed order."""
    seen = {start}
    frontier = [start]
    while frontier and (limit is None or len(seen) < limit):
        state = frontier.pop()
        for move in state.legal_moves():
            child = state.play(move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return sorted(seen, key=repr)


def check_window(state: State, a: int, b: int, v: int, true: int) -> None:
    """An alpha-beta value ``v`` of ``state`` in the window ``(a, b)`` against the true value:
    at or below ``a`` an upper bound, at or above ``b`` a lower bound, between them exact."""
    if v <= a:
        assert true <= v, (state, a, b, v, true)
    elif v >= b:
        assert true >= v, (state, a, b, v, true)
    else:
        assert v == true, (state, a, b, v, true)
