"""The principal variation: one routine for every searcher (a game's own solver's line is
:func:`.policy.solver_line`)."""

from __future__ import annotations

from ..game import Move, State
from .engine import Engine, SearchStopped
from .result import UNLIMITED
from .score import WIN_MIN
from .stack import alphabeta_stack
from .table import EXACT, TranspositionTable

__all__ = ["child_value", "complete_line", "principal_variation"]

#: Entries of the table a line is completed with when the search had none.
LINE_TABLE_SIZE = 1 << 16


def child_value(value: int, parent: State, child: State) -> int:
    """The value, counted from ``child`` and from its side to move's view, of the child that
    keeps ``parent``'s ``value``."""
    if value >= WIN_MIN:
        value += 1
    elif value <= -WIN_MIN:
        value -= 1
    return value if child.to_move == parent.to_move else -value


def principal_variation(
    state: State, engine: Engine, line: list[Move], depth: int | None, value: int
) -> tuple[Move, ...]:
    """The best move's line as the search saw it, extended by the table's best moves where a
    table hit cut the line short, up to ``depth`` moves (None: to the end of the game, for an
    exact value).

    ``value`` is the value of ``state`` from its side to move. A table move is only followed
    when the position it leads to holds an exact entry of just the value the line predicts
    (or ends the game with it): with symmetric keys an entry's move may belong to a mirror
    image, and a bound says nothing of the line. The serial searcher extends the root's line;
    a parallel worker extends its task's line with its own table.
    """
    line = list(line)
    table = engine.table
    if table is None:
        return tuple(line)
    position = state
    for move in line:
        child = position.play(move)
        value = child_value(value, position, child)
        position = child
    seen = set()
    while (depth is None or len(line) < depth) and position.outcome() is None:
        key = engine.key(position)
        entry = table.probe(key)
        if entry is None or entry.move is None or key in seen:
            break
        seen.add(key)
        if entry.move not in position.legal_moves():
            break
        child = position.play(entry.move)
        expected = child_value(value, position, child)
        outcome = child.outcome()
        if outcome is not None:
            if engine.terminal_value(child, outcome, 0) != expected:
                break
        else:
            found = table.probe(engine.key(child))
            if found is None or found.flag != EXACT or found.value != expected:
                break
        line.append(entry.move)
        position, value = child, expected
    return tuple(line)


def complete_line(
    state: State, line: tuple[Move, ...], value: int, engine: Engine
) -> tuple[Move, ...]:
    """An exact line to the end of the game: ``line`` (whose first position ``state`` has the
    exact ``value``, from its side to move), followed where it stops short by moves proven to
    keep the value, each found by a null-window search around the value it must keep (with the
    search's table, so mostly table hits; its own small table if it had none).

    A line stops short of the end where the table could not give the next move: the entry was
    replaced (a small table), or it belongs to a mirror image (a game whose ``key`` is
    symmetric), or a table hit ended the search's own line. The completion keeps to the
    search's deadline and stop flag; stopped, the line is what was proven so far."""
    position = state
    for move in line:
        child = position.play(move)
        value = child_value(value, position, child)
        position = child
    if position.outcome() is not None:
        return line
    helper = Engine(
        table=engine.table if engine.table is not None else TranspositionTable(LINE_TABLE_SIZE),
        symmetry=engine.symmetry,
        hints=True,
        evaluate=None,
        order=None,
        deadline=engine.deadline,
        max_nodes=None,
        stop=engine.stop,
    )
    found = list(line)
    try:
        while position.outcome() is None:
            for move in helper.ordered(position, None):
                child = position.play(move)
                expected = child_value(value, position, child)
                outcome = child.outcome()
                if outcome is not None:
                    kept = helper.terminal_value(child, outcome, 0) == expected
                else:
                    below = alphabeta_stack(helper, child, UNLIMITED, expected - 1, expected + 1, 0)
                    kept = below == expected
                if kept:
                    break
            else:
                break  # no move keeps it: not an exact value after all (never, if it was)
            found.append(move)
            position, value = child, expected
    except SearchStopped:
        pass
    return tuple(found)
