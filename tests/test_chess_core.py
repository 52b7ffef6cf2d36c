"""The compiled chess core's rules (issue 20): perft against the published counts, FEN and SAN
round trips, the draw rules, incremental keys against keys made from scratch, and bad input.
The differential test against python-chess is in ``test_chess_core_differential.py``."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from unbeatable.game import IllegalMoveError, InvalidMoveError, InvalidPositionError
from unbeatable.games.chess import _make
from unbeatable.games.chess._tables import P_EG, P_KEY, P_MG, P_PHASE
from unbeatable.games.chess.core import (
    START_FEN,
    TABLES,
    Position,
    Termination,
    divide,
    kernel_context,
    perft,
)

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# The chessprogramming wiki's perft positions and their published counts (depth 1 first).
PERFT = {
    "start": (START_FEN, (20, 400, 8_902, 197_281, 4_865_609, 119_060_324)),
    "kiwipete": (KIWIPETE, (48, 2_039, 97_862, 4_085_603, 193_690_690)),
    "position 3": (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        (14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661),
    ),
    "position 4": (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        (6, 264, 9_467, 422_333, 15_833_292, 706_045_033),
    ),
    "position 4 mirrored": (
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        (6, 264, 9_467, 422_333, 15_833_292, 706_045_033),
    ),
    "position 5": (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        (44, 1_486, 62_379, 2_103_487, 89_941_194),
    ),
    "position 6": (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        (46, 2_079, 89_890, 3_894_594, 164_075_551, 6_923_051_137),
    ),
}


def _play(text: str, fen: str = START_FEN) -> Position:
    position = Position.from_fen(fen)
    for word in text.split():
        position = position.play_san(word)
    return position


@pytest.mark.parametrize("name", list(PERFT))
def test_perft_to_depth_3_matches_the_published_counts(name: str) -> None:
    fen, counts = PERFT[name]
    position = Position.from_fen(fen)
    assert [perft(position, d) for d in (0, 1, 2, 3)] == [1, *counts[:3]]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PERFT))
def test_perft_deeper_matches_the_published_counts(name: str) -> None:
    fen, counts = PERFT[name]
    depth = 5 if name in ("start", "position 3") else 4  # each a second or less
    assert perft(Position.from_fen(fen), depth) == counts[depth - 1]


def test_divide_gives_each_root_move_its_count() -> None:
    position = Position.from_fen(KIWIPETE)
    rows = divide(position, 3)
    assert len(rows) == 48 and sum(n for _, n in rows) == 97_862
    assert dict(rows)["e1g1"] == perft(position.play_uci("e1g1"), 2)
    assert divide(Position.initial(), 1) == [(m, 1) for m, _ in divide(Position.initial(), 1)]
    with pytest.raises(ValueError, match="at least 1"):
        divide(position, 0)
    with pytest.raises(ValueError, match="at least 0"):
        perft(position, -1)


def test_en_passant_is_refused_when_it_uncovers_a_check_along_the_rank() -> None:
    # White's king and the black rook on the fifth rank, the two pawns between them
    position = Position.from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1")
    assert position.ep_square is None  # exd6 would leave the king in check: not a legal ep
    assert "e5d6" not in map(Position.uci, position.legal_moves())
    assert position.fen().split()[3] == "-"
    free = Position.from_fen("8/8/8/3pP2r/8/K7/8/7k w - d6 0 1")
    assert free.ep_square == 43 and "e5d6" in map(Position.uci, free.legal_moves())
    # the pawn that just moved gives check: taking it en passant is one of the answers
    check = Position.from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1")
    assert check.is_check() and "e4d3" in map(Position.uci, check.legal_moves())


def test_the_most_moves_fit() -> None:
    # the position with the most legal moves known (218), nine queens among them
    most = Position.from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")
    assert len(most.legal_moves()) == 218 and perft(most, 2) == sum(
        len(most.play(m).legal_moves()) for m in most.legal_moves()
    )


def test_fen_round_trips_and_defaults() -> None:
    for fen, _ in PERFT.values():
        assert Position.from_fen(fen).fen() == fen
    assert Position.from_fen(START_FEN.rsplit(" ", 2)[0]).fen() == START_FEN
    after = _play("e4")  # no black pawn can take: no en-passant square
    assert after.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert _play("e4 Nf6 e5 d5").fen().split()[3] == "d6"


@pytest.mark.parametrize(
    ("fen", "words"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9' in rank 6"),
        ("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'X'"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "White has 0 kings"),
        ("k7/8/8/8/8/8/8/KK6 w - - 0 1", "White has 2 kings"),
        ("k6P/8/8/8/8/8/8/K7 w - - 0 1", "first or last rank"),
        ("k7/8/8/8/8/8/PPPPPPPP/QQK5 w - - 0 1", "White has more pieces than its pawns"),
        ("k7/QQQQQQQQ/QQQQQQQQ/8/8/8/8/K7 w - - 0 1", "White has more pieces than its pawns"),
        ("k6R/8/8/8/8/8/8/K7 w - - 0 1", "side not to move is in check"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right 'K'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "castling 'KK'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "passed e3"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en passant 'z9'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "clocks"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "clocks"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "expected 4 to 6 fields"),
        ("4k3/8/8/8/1b6/5n2/8/4K2q w - - 0 1", "more than two pieces give check"),
    ],
)
def test_bad_fens_are_refused_with_the_reason(fen: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=None) as caught:
        Position.from_fen(fen)
    assert words in str(caught.value) and caught.value.text == fen


def test_san_disambiguation_promotion_castling_and_marks() -> None:
    # two knights can reach d2 (file tells them apart), two rooks on one file (rank does)
    knights = Position.from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    assert knights.san(knights.parse_uci("b1d2")) == "Nbd2"
    rooks = Position.from_fen("4k3/R7/8/8/8/8/8/R3K3 w - - 0 1")
    assert rooks.san(rooks.parse_uci("a1a4")) == "R1a4"
    # three queens: one needs the full square
    queens = Position.from_fen("6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1")
    assert queens.san(queens.parse_uci("a4d1")) == "Qa4d1"
    assert queens.parse_san("Qa4d1") == queens.parse_uci("a4d1")
    promo = Position.from_fen("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1")
    sans = {promo.uci(m): s for m, s in promo.san_all().items()}
    assert sans["e7d8q"] == "exd8=Q+" and sans["e7e8n"] == "e8=N" and sans["e7e8r"] == "e8=R+"
    castle = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert castle.san(castle.parse_uci("e1g1")) == "O-O"
    assert castle.san(castle.parse_uci("e1c1")) == "O-O-O"
    assert castle.parse_san("0-0-0") == castle.parse_uci("e1c1")
    mate = _play("f3 e5 g4")
    assert mate.san(mate.parse_uci("d8h4")) == "Qh4#"
    assert mate.play_san("Qh4#").termination() == Termination.CHECKMATE


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("e5", IllegalMoveError),
        ("Nd2", IllegalMoveError),
        ("Ke2", IllegalMoveError),
        ("hello", InvalidMoveError),
        ("", InvalidMoveError),
        ("O-O", IllegalMoveError),
        ("e4=Q", IllegalMoveError),
    ],
)
def test_bad_san_names_the_text(text: str, error: type[Exception]) -> None:
    start = Position.initial()
    with pytest.raises(error) as caught:
        start.parse_san(text)
    assert repr(text) in str(caught.value)


def test_ambiguous_san_and_bad_uci() -> None:
    knights = Position.from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="ambiguous: b1d2, f1d2"):
        knights.parse_san("Nd2")
    start = Position.initial()
    with pytest.raises(InvalidMoveError, match="not a UCI move: 'e2-e4'"):
        start.parse_uci("e2-e4")
    with pytest.raises(IllegalMoveError, match="illegal move 'e2e5'"):
        start.parse_uci("e2e5")
    with pytest.raises(IllegalMoveError, match="illegal move 0"):
        start.play(0)


def test_draw_rules() -> None:
    shuffle = "Nf3 Nf6 Ng1 Ng8 " * 2
    twice = _play(shuffle[: -len("Ng8 ")])  # Black may claim: Ng8 repeats a third time
    assert twice.repetitions() == 2 and twice.can_claim_threefold_repetition()
    assert twice.termination() is None
    assert twice.termination(claim_draw=True) == Termination.THREEFOLD_REPETITION
    third = twice.play_san("Ng8")
    assert third.repetitions() == 3 and third.fen() == START_FEN.replace("0 1", "8 5")
    fifth = _play(shuffle * 2, third.fen())
    assert fifth.repetitions() == 5 and fifth.termination() == Termination.FIVEFOLD_REPETITION
    assert not _play("e4 e5 Nf3 Nc6").can_claim_threefold_repetition()
    near = Position.from_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
    assert near.can_claim_fifty_moves() and near.play_san("Ra2").halfmove_clock == 100
    assert Position.from_fen("7k/8/6K1/8/8/8/8/R7 w - - 98 80").can_claim_fifty_moves() is False
    assert Position.from_fen("7k/8/6K1/8/8/8/8/R7 w - - 150 80").termination() == (
        Termination.SEVENTYFIVE_MOVES
    )
    stalemate = Position.from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate() and stalemate.termination() == Termination.STALEMATE


@pytest.mark.parametrize(
    ("fen", "dead"),
    [
        ("7k/8/6K1/8/8/8/8/8 w - - 0 1", True),
        ("7k/8/6K1/8/8/8/8/6N1 w - - 0 1", True),
        ("7k/8/6K1/8/8/8/8/5b2 w - - 0 1", True),
        ("7k/1b6/6K1/8/8/8/8/5b2 w - - 0 1", True),  # bishops all on light squares
        ("4k3/2b5/8/8/8/8/8/B3K3 w - - 0 1", True),  # c7 and a1: both dark
        ("4k3/1b6/8/8/8/8/8/B3K3 w - - 0 1", False),  # b7 light, a1 dark
        ("7k/8/6K1/8/8/8/8/5NN1 w - - 0 1", False),
        ("7k/8/6K1/8/8/8/8/5NB1 w - - 0 1", False),
        ("7k/8/6K1/8/8/8/8/4n1N1 w - - 0 1", False),
        ("7k/8/6K1/8/8/8/P7/8 w - - 0 1", False),
    ],
)
def test_insufficient_material(fen: str, dead: bool) -> None:
    assert Position.from_fen(fen).is_insufficient_material() is dead


def test_incremental_keys_and_sums_match_a_recomputation_along_random_games() -> None:
    rng = random.Random(20)
    seen = 0
    for _ in range(20):
        position = Position.initial()
        for _ in range(200):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
            fresh = position.array.copy()
            with kernel_context():
                _make.refresh(fresh, TABLES)
            words = [P_KEY, P_MG, P_EG, P_PHASE]
            assert [int(fresh[w]) for w in words] == [int(position.array[w]) for w in words]
            assert Position.from_fen(position.fen()).key == position.key
            seen += 1
    assert seen > 2_000


def test_positions_are_immutable_hashable_and_pickle() -> None:
    start = Position.initial()
    after = start.play_san("e4")
    assert start.fen() == START_FEN and after != start
    with pytest.raises(ValueError, match="read-only"):
        start.array[0] = np.uint64(0)
    again = pickle.loads(pickle.dumps(after))
    assert again == after and hash(again) == hash(after) == hash(after.key)
    assert again.legal_moves() == after.legal_moves()
    shuffled = _play("Nf3 Nf6 Ng1 Ng8")
    assert shuffled.key == start.key and shuffled != start  # same board, another history
    assert len({start, after, Position.initial()}) == 2
    assert str(start).splitlines()[0] == "r n b q k b n r"
    assert start.piece_at(4) == "K" and start.piece_at(35) is None
