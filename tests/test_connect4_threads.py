"""Threads that search one Connect Four position together: the marks of the children being
searched (``shared[2:]``, see ``_negamax.negamax``) and the deferral of a marked child.

A mark only changes the order in which a node's moves are searched, never a value: the
kernel is run here directly, single-threaded, with marks that "another thread" left on
positions of the tree, and its answers are checked against the exact score; every mark the
search made itself is taken back when it returns, finished or stopped. No timing is asserted.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

from unbeatable import get_game
from unbeatable.games.connect4 import _negamax as K
from unbeatable.games.connect4 import _threads
from unbeatable.games.connect4._negamax import BUSY_BITS, BUSY_EMPTY
from unbeatable.games.connect4._table import HASH_MUL
from unbeatable.games.connect4.game import Connect4State
from unbeatable.games.connect4.solver import Solver

START = "5455745355"  # 10 stones, score -2 (under a million nodes)
MASK64 = (1 << 64) - 1


def _state(moves: str) -> Connect4State:
    state = get_game("connect4").parse_position(moves)
    assert isinstance(state, Connect4State)
    return state


def _mark_index(state: Connect4State) -> int:
    key = state.current + state.mask
    return 2 + (((key * int(HASH_MUL)) & MASK64) >> (64 - BUSY_BITS))


def _marks(moves: str, lines: int, depth: int, seed: int) -> dict[int, int]:
    """Marks on positions of random lines below ``moves`` (a thread elsewhere in the tree)."""
    rng = random.Random(seed)
    marks: dict[int, int] = {}
    for _ in range(lines):
        state = _state(moves)
        for _ in range(depth):
            empty = 42 - state.moves
            children = [state.play(m) for m in state.legal_moves()]
            children = [c for c in children if c.outcome() is None]
            if not children:
                break
            state = rng.choice(children)
            if empty > BUSY_EMPTY:  # the parent marks: it has more than BUSY_EMPTY empty cells
                marks[_mark_index(state)] = state.current + state.mask
    return marks


def _probe(
    solver: Solver, moves: str, alpha: int, shared: npt.NDArray[np.int64], budget: int = 1 << 62
) -> int:
    state = _state(moves)
    w = solver._workers[0]
    w.ctrl[:] = (0, int(w.stats[0]) + budget, solver.generation, 0, 0)
    keys, values, ply = solver._db(False)
    args = (np.uint64(state.current), np.uint64(state.mask), state.moves, alpha, alpha + 1, 7, 6)
    arrays = (solver.table, w.stats, w.fu, w.fi, keys, values, ply, w.ctrl, shared)
    return int(K.negamax(*args, *arrays))


def _shared() -> npt.NDArray[np.int64]:
    shared = np.zeros(2 + (1 << BUSY_BITS), dtype=np.int64)
    shared[0], shared[1] = -K.SHARED_BIG, K.SHARED_BIG
    return shared


@pytest.mark.parametrize("seed", range(6))
def test_children_marked_by_another_thread_are_deferred_and_values_stay_exact(seed: int) -> None:
    solver = Solver(table_bytes=1 << 20, book=False)
    exact = solver.solve(START)
    marks = _marks(START, lines=40, depth=5, seed=seed)
    assert marks
    for alpha in (exact - 1, exact):  # a probe that fails high, one that fails low
        solver.reset()
        shared = _shared()
        for index, key in marks.items():
            shared[index] = key  # 7 x 6 keys fit in 49 bits
        deferred = int(solver._workers[0].stats[2])
        v = _probe(solver, START, alpha, shared)
        assert (v > alpha) == (exact > alpha), (alpha, v, exact)
        assert v <= exact if v <= alpha else v >= exact
        assert int(solver._workers[0].stats[2]) > deferred  # some child was searched later
        # what is left is marks of "the other thread" only, none of this search's own
        left = {int(i) + 2: int(shared[i + 2]) for i in np.flatnonzero(shared[2:])}
        assert all(marks[i] == key for i, key in left.items())


def test_a_search_alone_or_stopped_takes_back_every_mark_it_made() -> None:
    solver = Solver(table_bytes=1 << 20, book=False)
    exact = solver.solve(START)
    for budget in (1 << 62, 5_000, 50_000):
        solver.reset()
        shared = _shared()
        v = _probe(solver, START, exact - 1, shared, budget)
        assert v == K.ABORTED if budget < 1 << 62 else v >= exact
        assert not shared[2:].any()
        assert int(solver._workers[0].stats[2]) == 0  # nobody else marked anything


@pytest.mark.parametrize(  # ten stones: 1.0 s (2026-12-02)
    "moves",
    [
        START,
        "2252576253462244",
        "32751571231557",
        pytest.param("2416615552", marks=pytest.mark.slow),
    ],
)
def test_two_threads_agree_with_one_on_every_question(moves: str) -> None:
    one = Solver(table_bytes=1 << 22, book=False, threads=1)
    two = Solver(table_bytes=1 << 22, book=False, threads=2)
    assert one.solve(moves) == two.solve(moves)
    assert one.score_map(moves) == two.score_map(moves)
    state = _state(moves)
    best_one = one.best(state.current, state.mask, state.moves)
    best_two = two.best(state.current, state.mask, state.moves)
    assert best_one.complete and best_two.complete
    top = max(v for v in one.score_map(moves) if v is not None)
    for col, score in enumerate(one.score_map(moves)):
        for result in (best_one, best_two):
            if score == top:
                assert result.lower[col] == result.upper[col] == top
            elif score is not None:
                hi = result.upper[col]
                assert hi is not None and score <= hi < top


def test_a_marked_later_move_at_the_root_is_searched_last_once() -> None:
    """At a root that fails low every move is searched: unmarked in the order the kernel
    chose; with the child of its second move marked, that move moves to the end of the list
    (one deferral), and the search then takes the mark over and back."""
    solver = Solver(table_bytes=1 << 20, book=False)
    exact = solver.solve(START)
    w = solver._workers[0]
    solver.reset()
    assert _probe(solver, START, exact, _shared()) <= exact
    count = int(w.fi[0, 2])
    base = [int(m) for m in w.fu[0, 4 : 4 + count]]
    assert count > 3 and int(w.fi[0, 3]) == count  # every root move searched
    state = _state(START)
    child = state.play((base[1].bit_length() - 1) // 7)  # a move is the bit of its cell
    for _ in range(2):  # twice: the deferral record of a node starts empty each time
        solver.reset()
        shared = _shared()
        shared[_mark_index(child)] = child.current + child.mask
        before = int(w.stats[2])
        assert _probe(solver, START, exact, shared) <= exact
        assert int(w.stats[2]) == before + 1
        assert [int(m) for m in w.fu[0, 4 : 4 + count]] == [base[0], *base[2:], base[1]]
        assert int(w.fu[0, 7 + 4]) == base[1]  # column width + 4: the moves deferred there
        assert not shared[2:].any()


def test_a_probe_that_other_threads_answered_stops_and_takes_back_its_marks() -> None:
    solver = Solver(table_bytes=1 << 20, book=False)
    exact = solver.solve(START)
    solver.reset()
    shared = _shared()
    shared[1] = exact  # "another thread" proved score <= exact: the probe at exact is moot
    assert _probe(solver, START, exact, shared) == K.MOOT
    assert not shared[2:].any()


@pytest.mark.parametrize("threads", [1, 2])
def test_a_solver_gives_its_threads_marks_and_leaves_none(
    threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[npt.NDArray[np.int64]] = []
    original = _threads.shared_array

    def spy(n: int) -> npt.NDArray[np.int64]:
        made.append(original(n))
        return made[-1]

    monkeypatch.setattr(_threads, "shared_array", spy)
    solver = Solver(table_bytes=1 << 22, book=False, threads=threads)
    state = _state("2416615552")  # about a million nodes
    for budget in (None, 20_000):
        solver.reset()
        solver.bounds(state.current, state.mask, state.moves, max_nodes=budget)
        solver.reset()
        solver.best(state.current, state.mask, state.moves, max_nodes=budget)
    assert len(made) == 4
    for shared in made:
        assert shared.shape[0] == (2 + (1 << BUSY_BITS) if threads > 1 else 2)
        assert not shared[2:].any()


def test_ctrl_c_while_the_threads_start_gives_bounds_not_stale_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C before every thread has started: the threads that never ran must not pass their
    arrays' last contents (an earlier search's answer, or zeros) for what they found."""
    import threading

    solver = Solver(table_bytes=1 << 22, book=False, threads=4)
    state = _state("")
    easy = _state("2252576253462244")
    assert solver.analyze(easy.current, easy.mask, easy.moves).complete
    for w in solver._workers:  # what a new worker holds (zeros: a draw, every column)
        w.lo[:] = 0
        w.hi[:] = 0
    started = 0
    original = threading.Thread.start

    def start(self: threading.Thread) -> None:
        nonlocal started
        started += 1
        if started == 2:
            raise KeyboardInterrupt
        original(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    for ask in (solver.bounds, solver.analyze, solver.best):
        started = 0
        result = ask(state.current, state.mask, state.moves)
        assert result.interrupted and not result.complete
        # the empty board: 1 (the first player wins with the 41st stone); column 4 too
        column = 3 if len(result.lower) == 7 else 0
        lo, hi = result.lower[column], result.upper[column]
        assert lo is not None and hi is not None and lo <= 1 <= hi and lo < hi


def test_answered_row_finds_the_shallowest_node_the_table_answers() -> None:
    """A node of the search's path that another thread answered meanwhile (its entry in the
    table settles the row's window) is found, the shallowest first, with its bound; entries of
    other positions, bounds that do not settle the window and rows with at most BUSY_EMPTY empty
    cells are not answers."""
    from unbeatable.games.connect4._database_probe import NOT_FOUND
    from unbeatable.games.connect4._table import LOWER_CODE, UPPER_CODE

    fu = np.zeros((8, 12), dtype=np.uint64)
    fi = np.zeros((8, 11), dtype=np.int64)
    table = np.zeros(8, dtype=np.uint64)
    for row in range(5):
        fu[row, 2] = row  # the row's table slot
        fu[row, 3] = ((row + 1) << 16) | (1 << 8)  # its tag, generation 1
        fi[row, 0], fi[row, 1] = -3, -2  # a null window
    empty = BUSY_EMPTY + 3  # rows 0, 1 and 2 have more than BUSY_EMPTY empty cells

    def entry(row: int, code: int, tag_of: int | None = None) -> None:
        table[row] = np.uint64(int(fu[row if tag_of is None else tag_of, 3]) | code)

    assert K._answered_row(table, fu, fi, 5, empty) == (-1, NOT_FOUND)
    entry(1, LOWER_CODE - 3)  # a lower bound below beta: not an answer
    entry(2, UPPER_CODE - 1)  # an upper bound above alpha: not an answer
    entry(3, LOWER_CODE + 5)  # row 3 has BUSY_EMPTY empty cells: not looked at
    assert K._answered_row(table, fu, fi, 5, empty) == (-1, NOT_FOUND)
    entry(1, LOWER_CODE + 4, tag_of=0)  # another position's entry in row 1's slot
    assert K._answered_row(table, fu, fi, 5, empty) == (-1, NOT_FOUND)
    entry(2, UPPER_CODE - 4)  # an upper bound <= alpha answers row 2
    assert K._answered_row(table, fu, fi, 5, empty) == (2, -4)
    assert K._answered_row(table, fu, fi, 2, empty) == (-1, NOT_FOUND)  # rows above 2 only
    entry(1, LOWER_CODE - 2)  # a lower bound >= beta answers row 1, shallower
    assert K._answered_row(table, fu, fi, 5, empty) == (1, -2)


@pytest.mark.parametrize("ask", ["line", "bounds"])
def test_a_ctrl_c_that_comes_as_the_search_completes_is_not_lost(
    monkeypatch: pytest.MonkeyPatch, ask: str
) -> None:
    """Ctrl-C while the search thread finishes (here: right after its kernel returned, the
    thread still running): the answer is complete, and says ``interrupted`` all the same, so
    that its caller raises KeyboardInterrupt again. Before, a complete answer dropped it: the
    line that a perfect player walks after each move starts from a score already known, so a
    Ctrl-C during that walk was lost, and ``unbeatable match --game connect4`` played on."""
    import os
    import signal
    import time

    from unbeatable.games.connect4 import _line

    # the kernels as the solver calls them (K: _negamax, looked up at each call)
    name = "principal_line" if ask == "line" else "solve_position"
    module = _line if ask == "line" else K
    if not hasattr(module, name):
        pytest.fail(f"no {name} in {module.__name__}: the test must wrap the kernel {ask} calls")
    kernel = getattr(module, name)

    def then_ctrl_c(*args: object) -> object:
        found = kernel(*args)
        os.kill(os.getpid(), signal.SIGINT)  # the main thread hears it while this one runs
        time.sleep(0.3)
        return found

    monkeypatch.setattr(module, name, then_ctrl_c)
    solver = Solver(table_bytes=1 << 22, book=False, threads=1)
    state = _state(START)
    if ask == "line":
        proven, result, consistent = solver.line(state.current, state.mask, state.moves)
        assert consistent and proven
    else:
        result = solver.bounds(state.current, state.mask, state.moves)
    assert result.complete and result.lower == [-2]
    assert result.interrupted
