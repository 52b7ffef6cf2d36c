"""The chess game: rules, notation, draws, bad input, the evaluation and the generic engine's
search features it asks for (issue 11), on our own compiled rules (issue 20)."""

from __future__ import annotations

import pytest

from unbeatable import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Outcome,
    check_game,
    get_game,
)
from unbeatable.search import Limits, Searcher, SearchOptions, search

GAME = get_game("chess")
SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def test_positions_as_fen_moves_or_uci_position_commands() -> None:
    start = GAME.initial()
    assert len(start.legal_moves()) == 20 and start.to_move == 0
    by_moves = GAME.parse_position("e2e4 e7e5 g1f3")
    by_san = GAME.parse_position("e4 e5 Nf3")
    by_uci = GAME.parse_position("startpos moves e2e4 e7e5 g1f3")
    assert by_moves == by_san == by_uci and by_moves.to_move == 1 and by_moves.ply == 3
    fen = GAME.format_position(by_moves)
    assert GAME.parse_position(fen) == by_moves
    assert GAME.parse_position(f"fen {fen} moves b8c6").ply == 4


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("e2e5", IllegalMoveError, "'e2e5' is not a legal move"),
        ("Ke2", IllegalMoveError, "'Ke2'"),
        ("hello", InvalidMoveError, "'hello' is not a chess move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", InvalidPositionError, "FEN"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", InvalidPositionError, "not a legal chess position"),
    ],
)
def test_bad_input_names_the_text(text: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=None) as caught:
        GAME.parse_position(text)
    assert words in str(caught.value)


def test_the_draws_and_the_mates() -> None:
    mate = GAME.parse_position("f2f3 e7e5 g2g4 d8h4")  # fool's mate
    assert mate.outcome() == Outcome.SECOND_WINS and list(mate.legal_moves()) == []
    stalemate = GAME.parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.outcome() == Outcome.DRAW
    bare = GAME.parse_position("7k/8/6K1/8/8/8/8/8 w - - 0 1")
    assert bare.outcome() == Outcome.DRAW  # insufficient material
    fifty = GAME.parse_position("7k/8/6K1/8/8/8/8/R7 w - - 100 80")
    assert fifty.outcome() == Outcome.DRAW
    knights = "g1f3 g8f6 f3g1 f6g8"
    twice = GAME.parse_position(f"{knights} {knights}")
    assert twice.outcome() == Outcome.DRAW  # the start position stands there a third time
    assert GAME.parse_position(knights).outcome() is None


def test_moves_in_uci_for_machines_and_san_for_people() -> None:
    state = GAME.parse_position("e2e4 e7e5")
    move = state.parse_move("Nf3")
    assert state.move_text(move) == "g1f3"
    assert state.move_label(move) == "Nf3"


def test_the_protocol_holds_along_random_games() -> None:
    report = check_game(GAME, games=2, seed=5, max_plies=60)
    assert report.positions > 60


def test_the_evaluation_counts_material_from_the_side_to_move() -> None:
    up_a_queen = GAME.parse_position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert up_a_queen.evaluate() > 800
    assert GAME.parse_position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").evaluate() < -800
    assert 0 <= GAME.initial().evaluate() < 50  # the first move's edge: under half a pawn


def test_a_mate_in_one_is_found_and_scored_as_mate() -> None:
    state = GAME.parse_position(SCHOLAR)
    for algorithm in (None, "alphabeta"):  # the game's own searcher, the generic engine
        result = search(state, Limits(depth=2), algorithm=algorithm)
        assert state.move_text(result.move) == "h5f7"
        assert result.score.is_win and result.score.moves == 1


def test_quiescence_sees_the_recapture() -> None:
    # White's queen can take a pawn defended by a pawn: at depth 1 without quiescence the
    # capture looks like a free pawn; with it, the recapture is seen and the queen is kept.
    state = GAME.parse_position("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1")
    greedy = search(state, Limits(depth=1), features=frozenset())
    careful = search(state, Limits(depth=1), algorithm="alphabeta")
    assert state.move_text(greedy.move) == "d1d5" and greedy.algorithm == "alphabeta"
    assert state.move_text(careful.move) != "d1d5"


def test_search_features_are_opt_in_and_checked() -> None:
    with pytest.raises(ValueError, match="unknown search feature 'nullmove'"):
        SearchOptions(features=frozenset({"nullmove"}))
    # Every other game keeps its node counts: it asks for no feature.
    assert get_game("connect4").initial().search_features == frozenset()
    plain = Searcher(features=frozenset()).search(GAME.initial(), Limits(depth=3))
    assert plain.algorithm == "alphabeta" and plain.nodes > 0


@pytest.mark.slow
def test_without_python_chess_chess_is_played() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['chess'] = None  # as if python-chess were not installed\n"
        "from unbeatable import Limits, get_game, search\n"
        "state = get_game('chess').parse_position('e4 e5')\n"
        "result = search(state, Limits(depth=3))\n"
        "print(state.move_label(result.move), result.algorithm)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    label, algorithm = done.stdout.split()
    assert algorithm == "searcher" and label[0] in "NBRQKabcdefgh"


# --- the game's own searcher (issue 20) and the generic engine beside it ---------------------

ITALIAN = "e4 e5 Nf3 Nc6 Bc4 Bc5"


def test_a_search_asks_the_compiled_engine_and_an_algorithm_the_generic_one() -> None:
    state = GAME.parse_position(ITALIAN)
    own = Searcher().search(state, Limits(depth=5))
    generic = Searcher("alphabeta").search(state, Limits(depth=2))
    assert own.algorithm == "searcher" and own.depth == 5 and own.complete and not own.exact
    assert generic.algorithm == "alphabeta" and generic.depth == 2
    for result in (own, generic):
        assert result.move in state.legal_moves() and result.pv[0] == result.move
        line = state
        for move in result.pv:  # the line replays legally
            assert move in line.legal_moves()
            line = line.play(move)
    assert own.lines[0].pv == own.pv and own.lines[0].score == own.score


@pytest.mark.parametrize(
    ("fen", "first", "moves"),
    [
        ("7k/6p1/6p1/8/8/4K3/8/RR6 w - - 0 1", "a1a8", 2),  # 1.Ra8+ Kh7 2.Rh1#
        ("3k4/8/8/8/8/1r6/r7/7K w - - 0 1", "h1g1", -1),  # the only move, then mated
    ],
)
def test_both_engines_score_a_mate_by_its_distance(fen: str, first: str, moves: int) -> None:
    state = GAME.parse_position(fen)
    for algorithm in (None, "alphabeta"):
        result = search(state, Limits(depth=4), algorithm=algorithm)
        assert state.move_text(result.move) == first
        score = result.score
        assert (score.is_win if moves > 0 else score.is_loss) and score.moves == abs(moves)
        assert str(score) == (f"win in {moves}" if moves > 0 else f"loss in {-moves}")


def test_an_analysis_scores_every_legal_move_through_multipv() -> None:
    state = GAME.parse_position(ITALIAN)
    result = Searcher().search(state, Limits(depth=4), analyze=True)
    assert result.move_scores is not None
    assert set(result.move_scores) == set(state.legal_moves())
    assert {line.move for line in result.lines} == set(state.legal_moves())
    assert result.move_scores[result.move] == result.score == result.lines[0].score
    assert max(result.move_scores.values()) == result.score
    three = Searcher(multipv=3).search(state, Limits(depth=4))
    assert len(three.lines) == 3 and three.move_scores is None
    assert [line.score for line in three.lines] == sorted(
        (line.score for line in three.lines), reverse=True
    )


def test_the_compiled_engine_honours_nodes_time_and_the_stop_flag() -> None:
    import threading
    import time

    state = GAME.parse_position(ITALIAN)
    counted = Searcher().search(state, Limits(nodes=3000))
    assert counted.nodes == 3000 and not counted.complete and counted.move in state.legal_moves()
    timed = Searcher().search(state, Limits(time=0.3))
    assert not timed.complete and timed.elapsed < 5  # it stops near 0.3 s; a shared machine
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    started = time.perf_counter()
    timer.start()
    try:
        stopped = Searcher().search(state, Limits(time=120), stop=stop)
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 30 and not stopped.complete


def test_ctrl_c_keeps_the_best_move_known_and_the_searcher_usable() -> None:
    import _thread
    import threading

    from unbeatable.search import SearchInterrupted

    state = GAME.parse_position(ITALIAN)
    searcher = Searcher()
    searcher.search(state, Limits(depth=2))  # the kernels are loaded
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(SearchInterrupted) as stopped:
            searcher.search(state, Limits(time=120))
    finally:
        timer.cancel()
    result = stopped.value.result
    assert result is not None and result.move in state.legal_moves() and not result.complete
    assert searcher.search(state, Limits(depth=3)).complete


def test_the_engine_and_its_table_live_with_the_library_searcher() -> None:
    from unbeatable.games.chess.searcher import Searcher as Engine

    state = GAME.parse_position(ITALIAN)
    searcher = Searcher(threads=2, table_size=1 << 16)
    searcher.search(state, Limits(depth=3))
    [engine] = [e for e in searcher.memory.values() if isinstance(e, Engine)]
    assert engine.threads == 2 and engine.table.nbytes == (1 << 16) * 16
    searcher.search(state.play(searcher.search(state, Limits(depth=1)).move), Limits(depth=3))
    assert [e for e in searcher.memory.values() if isinstance(e, Engine)] == [engine]


def test_the_generic_engines_hooks() -> None:
    # captures and promotions, the most valuable victim first: the queen, then the pawn
    state = GAME.parse_position("4k3/P7/8/3q4/8/2p5/3Q4/4K3 w - - 0 1")
    noisy = [state.move_text(m) for m in state.noisy_moves()]
    assert set(noisy) == {"d2d5", "d2c3", "a7a8q", "a7a8r", "a7a8b", "a7a8n"}
    assert noisy[0] == "a7a8q" and noisy.index("d2d5") < noisy.index("d2c3")
    assert list(state.ordered_moves())[: len(noisy)] == list(state.noisy_moves())
    assert len(state.ordered_moves()) == len(state.legal_moves())
    assert set(state.ordered_moves()) == set(state.legal_moves())
    # transpositions share a key; with the same halfmove clock they are equal
    a = GAME.parse_position("Nf3 Nf6 Nc3 Nc6")
    b = GAME.parse_position("Nc3 Nc6 Nf3 Nf6")
    assert a.key() == b.key() and a == b and hash(a) == hash(b)
    c = GAME.parse_position("e4 e5 Nf3 Nc6")
    d = GAME.parse_position("Nf3 Nc6 e4 e5")  # the same board, the clock at 0, not 2
    assert c.key() == d.key() and c != d
    assert a.key() != GAME.parse_position("Nf3 Nf6 Nc3").key()
    # the evaluation is symmetric: the same position with colours swapped scores the same
    mirrored = GAME.parse_position("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    flipped = GAME.parse_position("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2")
    assert mirrored.evaluate() == flipped.evaluate()
