"""Chess through python-chess: rules, notation, draws, bad input, the evaluation and the search
features it asks for (issue 11)."""

from __future__ import annotations

import pytest

chess = pytest.importorskip("chess", reason="python-chess (the chess extra) is not installed")

from unbeatable import (  # noqa: E402
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Outcome,
    check_game,
    get_game,
)
from unbeatable.search import Limits, Searcher, SearchOptions, search  # noqa: E402

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
    assert abs(GAME.initial().evaluate()) < 30


def test_a_mate_in_one_is_found_and_scored_as_mate() -> None:
    result = search(GAME.parse_position(SCHOLAR), Limits(depth=2))
    assert result.move == chess.Move.from_uci("h5f7")
    assert result.score.is_win and result.score.moves == 1


def test_quiescence_sees_the_recapture() -> None:
    # White's queen can take a pawn defended by a pawn: at depth 1 without quiescence the
    # capture looks like a free pawn; with it, the recapture is seen and the queen is kept.
    state = GAME.parse_position("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1")
    greedy = search(state, Limits(depth=1), features=frozenset())
    careful = search(state, Limits(depth=1))
    assert greedy.move == chess.Move.from_uci("d1d5")
    assert careful.move != chess.Move.from_uci("d1d5")


def test_search_features_are_opt_in_and_checked() -> None:
    with pytest.raises(ValueError, match="unknown search feature 'nullmove'"):
        SearchOptions(features=frozenset({"nullmove"}))
    # Every other game keeps its node counts: it asks for no feature.
    assert get_game("connect4").initial().search_features == frozenset()
    plain = Searcher(features=frozenset()).search(GAME.initial(), Limits(depth=3))
    assert plain.algorithm == "alphabeta" and plain.nodes > 0


def test_without_python_chess_the_game_names_the_extra() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['chess'] = None  # as if python-chess were not installed\n"
        "import unbeatable\n"
        "from unbeatable import get_game\n"
        "try:\n"
        "    get_game('chess')\n"
        "except ValueError as err:\n"
        "    print(err)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install 'unbeatable[chess]'" in done.stdout and "GPL-3.0" in done.stdout
