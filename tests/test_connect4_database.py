"""The 12-stone database, the solver's limits (deadline, node budget), its threads, and the
request protocol (``solver_value``/``solver_moves``). No timing is asserted beyond "returned"."""

from __future__ import annotations

import time
from typing import cast

import numpy as np
import pytest

from unbeatable import get_game
from unbeatable.game import SolveRequest
from unbeatable.games.connect4 import Connect4State, database
from unbeatable.games.connect4 import _database_probe as D
from unbeatable.games.connect4 import _negamax as K
from unbeatable.games.connect4.solver import Solver

DB = database.load()
needs_db = pytest.mark.skipif(not DB.loaded, reason="bitbully-databases not installed")

# a hard position for the bare solver (Pons' Test_L1_R3, first line: seconds to minutes)
HARD = "2252576253462244111563365343671351441"[:3]  # 3 stones: far from the database


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_bytes=1 << 22)


@needs_db
def test_fixed_database_sample_agrees_with_the_bare_solver(solver: Solver) -> None:
    step = DB.keys.shape[0] // 7
    for i in range(3, DB.keys.shape[0], step):
        first, mask = database.decode(int(DB.keys[i]))
        assert bin(mask).count("1") == 12
        expected = database.score(int(DB.values[i]))
        assert solver.solve_bitboards(first, mask, 12, book=False) == expected, i
        probe = D.db_probe(np.uint64(first), np.uint64(mask), 12, 7, 6, DB.keys, DB.values)
        assert probe == expected


@needs_db
def test_a_position_and_its_mirror_are_both_found() -> None:
    game = get_game("connect4")
    for moves in ["444444333333", "123456712345", "335662333565"]:
        for text in (moves, "".join(str(8 - int(c)) for c in moves)):
            state = cast(Connect4State, game.parse_position(text))
            args = (np.uint64(state.current), np.uint64(state.mask), 12, 7, 6)
            assert state.winning_move() is None
            assert D.db_probe(*args, DB.keys, DB.values) != D.NOT_FOUND, text


@needs_db
def test_early_positions_with_and_without_the_database_agree(solver: Solver) -> None:
    for moves in ["44444433332", "1234567123", "2416615552"]:
        assert solver.solve(moves) == solver.solve(moves, book=False), moves
    assert solver.score_map("") == [-2, -1, 0, 1, 0, -1, -2]


def test_without_the_database_the_solver_still_solves() -> None:
    s = Solver(table_bytes=1 << 20, book=False)
    assert not s.book
    assert s.solve("44444455555") == Solver(table_bytes=1 << 20).solve("44444455555")


def test_a_missing_database_warns_once_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> str:
        raise ImportError("No module named 'bitbully_databases'")

    monkeypatch.setattr(database, "_path", missing)
    database.load.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="database not loaded.*slower|search alone"):
            db = database.load()
        assert not db.loaded and "bitbully-databases" in db.reason
        database.load()  # cached: no second warning (pytest would fail on an unexpected one)
    finally:
        database.load.cache_clear()


def test_a_deadline_returns_bounds_marked_incomplete() -> None:
    s = Solver(table_bytes=1 << 20, book=False)
    state = cast(Connect4State, get_game("connect4").parse_position(HARD))
    # the kernels built first (a cold build, minutes under load, is not the search's to answer)
    s.analyze(state.current, state.mask, state.moves, max_nodes=1_000)
    start = time.perf_counter()
    result = s.analyze(state.current, state.mask, state.moves, deadline=start + 0.05)
    assert time.perf_counter() - start < 5  # returned (the limit is 50 ms; no tight timing)
    assert not result.complete and not result.interrupted
    for lo, hi in zip(result.lower, result.upper, strict=True):
        assert lo is not None and hi is not None and lo <= hi
    assert any(lo != hi for lo, hi in zip(result.lower, result.upper, strict=True))


def test_a_node_budget_is_honoured_and_bounds_hold() -> None:
    s = Solver(table_bytes=1 << 20, book=False)
    state = cast(Connect4State, get_game("connect4").parse_position(HARD))
    result = s.bounds(state.current, state.mask, state.moves, max_nodes=20_000)
    assert not result.complete
    assert s.nodes <= 20_000 + 4096
    exact = Solver(table_bytes=1 << 20).solve(HARD)
    lo, hi = result.lower[0], result.upper[0]
    assert lo is not None and hi is not None and lo <= exact <= hi


def test_a_stop_flag_from_another_thread_stops_the_kernel() -> None:
    s = Solver(table_bytes=1 << 20, book=False)
    state = cast(Connect4State, get_game("connect4").parse_position(HARD))
    w = s._workers[0]
    w.ctrl[:] = (1, 1 << 62, s.generation, 0, 0)  # stop already requested
    res = np.zeros(2, dtype=np.int64)
    keys, values, ply = s._db(False)
    shared = np.array([-K.SHARED_BIG, K.SHARED_BIG], dtype=np.int64)
    done = K.solve_position(  # type: ignore[no-untyped-call]
        np.uint64(state.current), np.uint64(state.mask), state.moves, False, 7, 6, s.table,
        w.stats, w.fu, w.fi, keys, values, ply, w.ctrl, 0, shared, res,
    )  # fmt: skip
    assert not done and res[0] < res[1]
    assert int(w.stats[0]) <= 4096


@pytest.mark.parametrize(  # ten stones: 1.5 s (2026-12-02)
    "moves", [pytest.param("2416615552", marks=pytest.mark.slow), "335662333565"]
)
def test_two_threads_give_the_single_thread_score(moves: str) -> None:
    one = Solver(table_bytes=1 << 20, book=False, threads=1)
    two = Solver(table_bytes=1 << 20, book=False, threads=2)
    assert one.solve(moves) == two.solve(moves)
    assert one.score_map(moves) == two.score_map(moves)


def test_a_cleared_table_forgets_and_still_solves() -> None:
    s = Solver(table_bytes=1 << 20, book=False)
    first = s.solve("2416615552")
    cold = s.nodes
    s.solve("2416615552")
    assert s.nodes < cold  # the table helped
    for _ in range(300):  # past the 255 generations: a real clear happens on the way
        s.reset()
    assert s.solve("2416615552") == first and s.nodes == cold


def test_the_request_protocol_honours_book_limits_and_weak() -> None:
    game = get_game("connect4")
    state = game.parse_position("4453")
    full = state.solver_moves(SolveRequest())
    assert full is not None and full.complete and not full.bounds
    assert set(full.values) == set(state.legal_moves())
    weak = state.solver_moves(SolveRequest(weak=True))
    assert weak is not None
    assert weak.values == {m: (v > 0) - (v < 0) for m, v in full.values.items()}
    assert state.solver_value(SolveRequest()) == max(full.values.values())
    hard = game.parse_position(HARD)
    cut = hard.solver_moves(SolveRequest(book=False, max_nodes=5_000, table_size=1 << 16))
    assert cut is not None and not cut.complete and cut.bounds
    assert set(cut.values) | set(cut.bounds) == set(hard.legal_moves())
    assert hard.solver_value(SolveRequest(book=False, max_nodes=5_000)) is None
    if DB.loaded:
        quick = hard.solver_moves(SolveRequest(quick=True))
        assert quick is not None and quick.complete
    assert hard.solver_moves(SolveRequest(quick=True, book=False)) is None


INTERRUPT_SCRIPT = """
import os, signal, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if the parent ignored SIGINT
from unbeatable import get_game
from unbeatable.games.connect4.solver import Solver
s = Solver(table_bytes=1 << 20, book=False, threads=2)
s.solve("2416615552")  # load the kernels first
state = get_game("connect4").parse_position(%r)
threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
start = time.perf_counter()
r = getattr(s, %r)(state.current, state.mask, state.moves)
print(r.interrupted, r.complete, time.perf_counter() - start, r.lower, r.upper)
"""


@pytest.mark.slow
@pytest.mark.parametrize("call", ["analyze", "best"])
def test_ctrl_c_stops_the_compiled_search_with_bounds(call: str) -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", INTERRUPT_SCRIPT % (HARD, call)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    interrupted, complete, seconds, *_ = run.stdout.split(maxsplit=3)
    assert interrupted == "True" and complete == "False"
    assert float(seconds) < 60  # stopped (the whole search takes minutes); no tight timing


VALUE_INTERRUPT_SCRIPT = """
import os, signal, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from unbeatable import get_game
from unbeatable.game import SolveRequest
state = get_game("connect4").parse_position("2416615552")
state.solver_value(SolveRequest(book=False))  # load the kernels first
state = get_game("connect4").parse_position(%r)
threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
start = time.perf_counter()
try:
    state.solver_value(SolveRequest(book=False, table_size=1 << 17))
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - start)
"""


@pytest.mark.slow
def test_ctrl_c_during_solver_value_stops_and_raises_again() -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", VALUE_INTERRUPT_SCRIPT % HARD],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    word, seconds = run.stdout.split()
    assert word == "interrupted" and float(seconds) < 60
