"""The UCI engine driven by a real UCI client: python-chess's own (issue 11)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("chess", reason="python-chess (the chess extra) is not installed")
import chess
import chess.engine

from unbeatable.uci import OVERHEAD, Lag, TimeBudget, parse_go, time_for_move

COMMAND = [sys.executable, "-m", "unbeatable.uci"]
SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


@pytest.fixture
def engine() -> Iterator[chess.engine.SimpleEngine]:
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


def test_a_short_game_under_a_clock_is_never_lost_on_time(
    engine: chess.engine.SimpleEngine,
) -> None:
    board = chess.Board()
    clock = {chess.WHITE: 2.0, chess.BLACK: 2.0}
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


def test_the_time_for_a_move_is_a_share_of_the_clock() -> None:
    budget = time_for_move(60.0)
    share = (60 - 2 * OVERHEAD) / 25
    assert budget == TimeBudget(soft=share / 2, hard=2.5 * share)
    with_increment = time_for_move(60.0, 1.0, 10)
    assert with_increment.hard == pytest.approx(2.5 * ((60 - 2 * OVERHEAD) / 10 + 0.8 * 0.9))
    assert time_for_move(60.0, 1.0, 10, overhead=0.5).hard < with_increment.hard


def test_the_lag_is_measured_from_the_clocks_a_gui_sends() -> None:
    lag = Lag()
    assert lag.overhead == OVERHEAD
    lag.clock(10, 2.0, 0.1)
    lag.answered(0.3)
    lag.clock(12, 1.2, 0.1)  # the GUI counted 0.9 s for a move the engine answered in 0.3 s
    assert lag.overhead == pytest.approx(0.6)
    lag.answered(0.2)
    lag.clock(15, 1.0, 0.1)  # not the next move of the same game: nothing measured
    lag.answered(0.2)
    lag.forget()
    lag.clock(17, 0.1, 0.1)
    assert lag.overhead == pytest.approx(0.6)
    for ply in range(20, 20 + 2 * Lag.KEEP + 2, 2):  # lags of nothing push the old one out
        lag.clock(ply, 1.0, 0.0)
        lag.answered(0.0)
    assert lag.overhead == OVERHEAD


@pytest.mark.parametrize("remaining", [0.0, 0.01, 0.05, 0.1, 0.3, 1.0, 2.0, 10.0, 300.0])
@pytest.mark.parametrize("increment", [0.0, 0.1, 1.0, 5.0])
@pytest.mark.parametrize("moves_to_go", [None, 1, 2, 3, 40])
def test_the_budget_always_leaves_the_overhead_on_the_clock(
    remaining: float, increment: float, moves_to_go: int | None
) -> None:
    budget = time_for_move(remaining, increment, moves_to_go)
    assert 0 <= budget.soft <= budget.hard and budget.hard > 0
    if remaining > OVERHEAD:  # a clock above the overhead keeps it whole
        assert budget.hard <= remaining - OVERHEAD
    else:  # a clock under it gets an answer at once
        assert budget.hard <= 0.01
    if moves_to_go != 1:
        assert budget.hard <= max((remaining - OVERHEAD) / 2, 0.01)


def test_a_clock_budget_is_given_to_the_side_to_move() -> None:
    go = parse_go(
        ["wtime", "60000", "btime", "2000", "winc", "1000", "binc", "0", "movestogo", "10"]
    )
    assert go.budget(white=True) == time_for_move(60.0, 1.0, 10)
    assert go.budget(white=False) == time_for_move(2.0, 0.0, 10)
    assert go.limits(go.budget(white=False)).time == time_for_move(2.0, 0.0, 10).hard
    movetime = parse_go(["wtime", "60000", "btime", "60000", "movetime", "500"])
    assert movetime.budget(white=True) is None and movetime.limits(None).time == 0.5
