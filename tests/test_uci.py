"""The UCI engine driven by a real UCI client: python-chess's own (issue 11)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("chess", reason="python-chess (the chess extra) is not installed")
import chess
import chess.engine

from unbeatable.uci import time_for_move

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
    assert time_for_move(60.0) == pytest.approx(60 / 30 - 0.05)
    assert time_for_move(60.0, 1.0, 10) == pytest.approx(6.75 - 0.05)
    assert 0 < time_for_move(0.05) < 0.05
    assert time_for_move(3.0, 0, 1) <= 1.0
