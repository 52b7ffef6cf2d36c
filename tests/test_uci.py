"""The UCI engine driven by a real UCI client: python-chess's own (issue 11), with the compiled
engine behind it (issue 20): MultiPV, Threads, and a short game against Stockfish."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("chess", reason="python-chess (a test-only oracle) is not installed")
import chess
import chess.engine

from tests.helpers import STOCKFISH
from unbeatable.uci import MIN_LAG, MIN_RESERVE, OVERHEAD, Lag, parse_go, time_for_move

COMMAND = [sys.executable, "-m", "unbeatable.uci"]
SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    """One engine for the module's quick tests, each a few commands of one session: starting
    one (an interpreter that loads the compiled kernels) cost about 1.3 s of CPU a test, most
    of their cost (2026-12-02). A test that changes an option sets it back."""
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as running:
        yield running


@pytest.fixture
def fresh_engine() -> Iterator[chess.engine.SimpleEngine]:
    """An engine of its own, just started, for the games under a clock: its first move is
    searched while the kernels may still be loading, as in a GUI's first game."""
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as running:
        yield running


def test_it_introduces_itself_and_plays_a_legal_move(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == "unbeatable"
    board = chess.Board()
    played = engine.play(board, chess.engine.Limit(depth=2))
    assert played.move is not None and board.is_legal(played.move)


def test_it_finds_a_mate_in_one_and_says_mate(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(SCHOLAR)
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["pv"][0] == chess.Move.from_uci("h5f7")
    assert info["score"].relative == chess.engine.Mate(1)


def test_movetime_and_nodes_are_honoured(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    start = time.perf_counter()
    played = engine.play(board, chess.engine.Limit(time=0.3))
    assert played.move is not None and board.is_legal(played.move)
    assert time.perf_counter() - start < 5  # generous: a shared machine; it stops near 0.3 s
    info = engine.analyse(board, chess.engine.Limit(nodes=500))
    assert 0 < info["nodes"] <= 500


def test_stop_during_go_infinite(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    with engine.analysis(board) as analysis:  # go infinite
        time.sleep(0.5)
        analysis.stop()
        best = analysis.wait()
    assert best.move is not None and board.is_legal(best.move)


@pytest.mark.slow
def test_a_short_game_under_a_clock_is_never_lost_on_time(
    fresh_engine: chess.engine.SimpleEngine,
) -> None:
    engine = fresh_engine
    board = chess.Board()
    # 6 s each for four moves: short enough that an engine ignoring the clock loses, long
    # enough that a machine shared with other jobs does not decide it
    clock = {chess.WHITE: 6.0, chess.BLACK: 6.0}
    for _ in range(8):
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK])
        start = time.perf_counter()
        played = engine.play(board, limit)
        clock[board.turn] -= time.perf_counter() - start
        assert clock[board.turn] > 0, "lost on time"
        assert played.move is not None
        board.push(played.move)
        if board.is_game_over():
            break


def test_multipv_and_threads_through_the_client(engine: chess.engine.SimpleEngine) -> None:
    engine.configure({"Threads": 2})
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    try:
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    finally:
        engine.configure({"Threads": 1})  # the module's engine is shared: its default back
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(board.is_legal(m) for m in firsts)
    scores = [info["score"].relative.score(mate_score=100_000) for info in infos]
    assert scores == sorted(scores, reverse=True)
    for info in infos:  # every line replays legally
        line = board.copy()
        for move in info["pv"]:
            assert line.is_legal(move)
            line.push(move)


@pytest.mark.slow
def test_go_perft_through_a_pipe() -> None:
    import subprocess

    done = subprocess.run(
        COMMAND, input="position startpos\ngo perft 4\nquit\n", capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Nodes searched: 197281" in done.stdout.splitlines()


@pytest.mark.slow
@pytest.mark.skipif(
    STOCKFISH is None,
    reason="Stockfish is not installed (Debian's package: apt-get install stockfish; "
    "make test installs it where it can): the short game against it is not played",
)
def test_a_short_game_against_stockfish_is_legal_to_the_end(
    fresh_engine: chess.engine.SimpleEngine,
) -> None:
    engine = fresh_engine
    assert STOCKFISH is not None
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=60) as stockfish:
        stockfish.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": 1350})
        # isready before the clocks start, as a tournament manager asks: our engine loads its
        # kernels until readyok (seconds on a busy machine), which no clock should count
        engine.ping()
        stockfish.ping()
        board = chess.Board()
        clock = {chess.WHITE: 3.0, chess.BLACK: 3.0}
        while not board.is_game_over(claim_draw=True) and board.ply() < 60:
            mover = engine if board.turn == chess.WHITE else stockfish
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                white_inc=0.05, black_inc=0.05,
            )  # fmt: skip
            start = time.perf_counter()
            played = mover.play(board, limit)
            spent = time.perf_counter() - start
            if mover is engine:
                clock[board.turn] += 0.05 - spent
                assert clock[board.turn] > 0, "lost on time"
            assert played.move is not None and board.is_legal(played.move), (board.fen(), played)
            board.push(played.move)
    assert board.ply() >= 20 or board.is_game_over(claim_draw=True)


def test_the_lag_is_measured_from_the_clocks_a_gui_sends() -> None:
    lag = Lag()
    assert lag.overhead == OVERHEAD and lag.reserve == OVERHEAD  # nothing measured yet
    lag.clock(10, 2.0, 0.1)
    lag.answered(0.3)
    lag.clock(12, 1.2, 0.1)  # the GUI counted 0.9 s for a move the engine answered in 0.3 s
    assert lag.overhead == pytest.approx(0.6) and lag.reserve == pytest.approx(0.6)
    lag.answered(0.2)
    lag.clock(15, 1.0, 0.1)  # not the next move of the same game: nothing measured
    lag.answered(0.2)
    lag.forget()
    lag.clock(17, 0.1, 0.1)
    assert lag.overhead == pytest.approx(0.6)
    for ply in range(20, 20 + 2 * Lag.KEEP + 2, 2):  # lags of nothing push the old one out
        lag.clock(ply, 1.0, 0.0)
        lag.answered(0.0)
    assert lag.overhead == MIN_LAG and lag.reserve == MIN_RESERVE  # the floors, once measured


def test_the_budget_counts_the_measured_lag_out_of_the_increment() -> None:
    go = parse_go(["wtime", "10000", "btime", "10000", "winc", "100", "binc", "100"])
    lag = Lag()
    assert go.budget(white=True, lag=lag) == time_for_move(10.0, 0.1)  # 0.1 s: none of the inc
    for ply in range(0, 2 * Lag.KEEP + 2, 2):  # a GUI whose moves cost the engine 5 ms
        lag.clock(ply, 10.0 - 0.005 * ply / 2, 0.0)
        lag.answered(0.0)
    measured = go.budget(white=True, lag=lag)
    assert measured == time_for_move(10.0, 0.1, reserve=MIN_RESERVE, lag=MIN_LAG)
    assert measured is not None and measured.soft > time_for_move(10.0, 0.1).soft


def test_a_clock_budget_is_given_to_the_side_to_move() -> None:
    go = parse_go(
        ["wtime", "60000", "btime", "2000", "winc", "1000", "binc", "0", "movestogo", "10"]
    )
    assert go.budget(white=True) == time_for_move(60.0, 1.0, 10)
    assert go.budget(white=False) == time_for_move(2.0, 0.0, 10)
    assert go.limits(go.budget(white=False)).time == time_for_move(2.0, 0.0, 10).hard
    movetime = parse_go(["wtime", "60000", "btime", "60000", "movetime", "500"])
    assert movetime.budget(white=True) is None and movetime.limits(None).time == 0.5


def _blocked_signals(native_id: int) -> int:
    """The signal mask of this process's thread ``native_id`` (Linux's /proc)."""
    status = Path(f"/proc/self/task/{native_id}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("SigBlk:"))
    return int(line.split()[1], 16)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_the_engines_threads_leave_ctrl_c_to_the_main_thread() -> None:
    """The main thread waits for the GUI's next line in a blocking read; a SIGINT the system hands
    to another thread would not interrupt it (the engine went on reading, and once its input
    closed ended with code 0 instead of 130). So the kernels' warm-up thread and the search
    thread are started with SIGINT blocked (``start_deaf``), and the main thread's mask is left
    as it was."""
    import io
    import signal
    import threading

    from unbeatable.uci import UCISession, start_deaf

    bit = 1 << (signal.SIGINT - 1)
    main_before = _blocked_signals(threading.get_native_id())
    seen: list[int] = []
    thread = threading.Thread(
        target=lambda: seen.append(_blocked_signals(threading.get_native_id()))
    )
    start_deaf(thread)
    thread.join()
    assert seen[0] & bit and not main_before & bit
    assert _blocked_signals(threading.get_native_id()) == main_before
    out = io.StringIO()
    session = UCISession(out)
    warm = session.warm.native_id
    masks = []
    if session.warm.is_alive() and warm is not None:
        with contextlib.suppress(FileNotFoundError, StopIteration):  # it may end meanwhile
            masks.append(_blocked_signals(warm))
    session.handle("position startpos")
    session.handle("go infinite")
    time.sleep(0.2)
    search = session.thread
    assert search is not None and search.native_id is not None
    masks.append(_blocked_signals(search.native_id))
    session.handle("stop")
    session.finish()
    assert masks and all(mask & bit for mask in masks), masks
    assert "bestmove" in out.getvalue()
