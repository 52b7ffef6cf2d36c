"""The compiled evaluation's terms beyond PeSTO (``_eval.terms``, weights in ``_weights``):
the tuner's feature counts give back the evaluation exactly, the evaluation is the same for
either colour (a position and its mirror image with the colours swapped), and each term counts
what it says on positions built for it."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

from unbeatable.games.chess import _eval, _tables, _weights
from unbeatable.games.chess.core import TABLES, Position, kernel_context

HAND_WRITTEN = _tables.build_tables("none")  # without the learned evaluation


def _positions(count: int, seed: int) -> list[Position]:
    """Positions along random games (captures preferred, so that endings come up too)."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial()
        for _ in range(rng.randrange(4, 160)):
            moves = position.legal_moves()
            if not moves:
                break
            captures = [m for m in moves if (m >> 12) & 4]
            move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
            position = position.play(move)
        if position.legal_moves():
            found.append(position)
    return found


def _mirror(fen: str) -> str:
    """The same position with the board turned upside down and the colours swapped."""
    board, side, castling, ep, half, full = fen.split()
    rows = board.split("/")[::-1]
    flipped = "/".join(row.swapcase() for row in rows)
    castling = "".join(sorted(castling.swapcase(), key="KQkq".index)) if castling != "-" else "-"
    if ep != "-":
        ep = ep[0] + ("6" if ep[1] == "3" else "3")
    return f"{flipped} {'b' if side == 'w' else 'w'} {castling} {ep} {half} {full}"


def _features(position: Position) -> tuple[npt.NDArray[np.int64], int, int, int]:
    out = np.zeros(_weights.N_FEATURES, dtype=np.int64)
    with kernel_context():
        mg, eg, phase = _eval.features(position.array, TABLES, out)
    return out, int(mg), int(eg), int(phase)


def test_the_feature_counts_give_back_the_evaluation() -> None:
    for position in _positions(300, 7):
        out, pesto_mg, pesto_eg, phase = _features(position)
        scratch = np.zeros(1, dtype=np.int64)
        with kernel_context():
            mg, eg = _eval.terms(position.array, TABLES, scratch, False)
        weighted = (int(out @ _weights.WEIGHTS[0]), int(out @ _weights.WEIGHTS[1]))
        assert (int(mg), int(eg)) == weighted
        assert scratch[0] == 0  # untouched without tracing
        total_mg, total_eg = pesto_mg + mg, pesto_eg + eg
        blend = total_mg * phase + total_eg * (24 - phase)
        white = blend // 24 if blend >= 0 else -(-blend // 24)
        scratch = np.zeros(_eval.SCRATCH_WORDS, dtype=np.int64)
        with kernel_context():  # the hand-written evaluation alone: the tables without a network
            alone = int(_eval.evaluate(position.array.copy(), HAND_WRITTEN, scratch))
        assert alone == (white if position.turn == 0 else -white)


def test_the_evaluation_is_the_same_for_either_colour() -> None:
    for position in _positions(300, 8):
        mirrored = Position.from_fen(_mirror(position.fen()))
        assert position.evaluate() == mirrored.evaluate(), position.fen()
        out, _, _, _ = _features(position)
        back, _, _, _ = _features(mirrored)
        assert (out == -back).all()


@pytest.mark.parametrize(
    ("fen", "feature", "count"),
    [
        # a white passed pawn on the 6th rank with nothing before it; Black's h-pawn is passed too
        ("6k1/8/1P6/8/8/8/7p/K7 w - - 0 1", _weights.F_PASSED + 5, 1),
        ("6k1/8/1P6/8/8/8/7p/K7 w - - 0 1", _weights.F_PASSED + 6, -1),
        ("6k1/8/1P6/8/8/8/7p/K7 w - - 0 1", _weights.F_PASSED_FREE + 5, 1),
        # blocked by a piece: passed, not free; a pawn beside it on the next file stops it
        ("6k1/1n6/1P6/8/8/8/8/K7 w - - 0 1", _weights.F_PASSED_FREE + 5, 0),
        ("6k1/1n6/1P6/8/8/8/8/K7 w - - 0 1", _weights.F_PASSED + 5, 1),
        ("6k1/2p5/1P6/8/8/8/8/K7 w - - 0 1", _weights.F_PASSED + 5, 0),
        # the a- and h-files are not beside each other (the board's edge, not a wrap)
        ("6k1/8/8/p7/8/7P/8/K7 w - - 0 1", _weights.F_PASSED + 2, 1),
        ("6k1/8/8/p7/8/7P/8/K7 w - - 0 1", _weights.F_PASSED + 3, -1),
        # of two passed pawns on a file, the front one counts
        ("6k1/8/8/1P6/8/1P6/8/K7 w - - 0 1", _weights.F_PASSED + 4, 1),
        ("6k1/8/8/1P6/8/1P6/8/K7 w - - 0 1", _weights.F_PASSED + 2, 0),
        # a black pawn with a white one beside it further down the board: neither is passed
        ("6k1/8/8/8/2p5/8/3P4/K7 w - - 0 1", _weights.F_PASSED + 1, 0),
        ("6k1/8/8/8/2p5/8/3P4/K7 w - - 0 1", _weights.F_PASSED + 4, 0),
        # doubled and isolated: two white pawns on the b-file, no pawn beside them
        ("6k1/8/8/1P6/1P6/8/8/K7 w - - 0 1", _weights.F_DOUBLED, 1),
        ("6k1/8/8/1P6/1P6/8/8/K7 w - - 0 1", _weights.F_ISOLATED, 2),
        # the edge files: three on the a-file and one on the h-file, each file alone (nothing
        # on b or g); pawns in pairs of neighbouring files at both edges are not isolated
        ("6k1/8/8/8/P7/P7/P6P/K7 w - - 0 1", _weights.F_DOUBLED, 2),
        ("6k1/8/8/8/P7/P7/P6P/K7 w - - 0 1", _weights.F_ISOLATED, 4),
        ("6k1/pp4pp/8/8/8/8/PP4PP/K7 w - - 0 1", _weights.F_ISOLATED, 0),
        ("6k1/p6p/8/8/8/8/P5PP/K7 w - - 0 1", _weights.F_ISOLATED, 1 - 2),
        # a rook on an open file, one on a half-open file (Black's pawn only)
        ("6k1/p7/8/8/8/8/8/R5KR w - - 0 1", _weights.F_ROOK_OPEN, 1),
        ("6k1/p7/8/8/8/8/8/R5KR w - - 0 1", _weights.F_ROOK_HALF, 1),
        # a knight attacked by a pawn; the bishop pair
        ("6k1/8/4p3/3N4/8/8/8/K1BB4 w - - 0 1", _weights.F_PAWN_THREAT, 1),
        ("6k1/8/4p3/3N4/8/8/8/K1BB4 w - - 0 1", _weights.F_BISHOP_PAIR, 1),
        # a knight in a corner has 2 squares; the side to move
        ("6k1/8/8/8/8/8/8/N6K b - - 0 1", _weights.F_MOB_N + 2, 1),
        ("6k1/8/8/8/8/8/8/N6K b - - 0 1", _weights.F_TEMPO, -1),
        # a castled king with its three pawns before it, one of them pushed
        ("6k1/8/8/8/8/6P1/5P1P/6K1 w - - 0 1", _weights.F_SHIELD_NEAR, 2),
        ("6k1/8/8/8/8/6P1/5P1P/6K1 w - - 0 1", _weights.F_SHIELD_FAR, 1),
        ("6k1/8/8/8/8/6P1/5P1P/6K1 w - - 0 1", _weights.F_SHIELD_MISSING, -3),
        # a knight on d5 that the e4 pawn defends and no black pawn can ever attack: an outpost;
        # not with a black pawn on e7 (it can come to e6), nor without the e4 pawn, nor on the
        # 3rd or the 7th rank; a bishop there; Black's knight on d4, its pawn on e5
        ("6k1/pp6/8/3N4/4P3/8/8/K7 w - - 0 1", _weights.F_OUTPOST_N, 1),
        ("6k1/pp2p3/8/3N4/4P3/8/8/K7 w - - 0 1", _weights.F_OUTPOST_N, 0),
        ("6k1/pp6/8/3N4/8/8/8/K7 w - - 0 1", _weights.F_OUTPOST_N, 0),
        ("6k1/8/8/8/8/3N4/4P3/K7 w - - 0 1", _weights.F_OUTPOST_N, 0),
        ("6k1/3N4/4P3/8/8/8/8/K7 w - - 0 1", _weights.F_OUTPOST_N, 0),
        ("7k/pp6/8/3B4/4P3/8/8/K7 w - - 0 1", _weights.F_OUTPOST_B, 1),
        ("k7/8/8/4p3/3n4/8/PP6/6K1 w - - 0 1", _weights.F_OUTPOST_N, -1),
        # a dark-squared bishop with two of its pawns on dark squares, Black's the same; a
        # light-squared one with them counts none; two bishops count a pawn once for each
        ("6k1/8/8/8/8/2P1P3/3B4/6K1 w - - 0 1", _weights.F_BISHOP_PAWNS, 2),
        ("6k1/3b4/2p1p3/8/8/8/8/6K1 w - - 0 1", _weights.F_BISHOP_PAWNS, -2),
        ("6k1/8/8/8/8/2P1P3/4B3/6K1 w - - 0 1", _weights.F_BISHOP_PAWNS, 0),
        ("6k1/8/8/8/8/2P1P3/3BB3/6K1 w - - 0 1", _weights.F_BISHOP_PAWNS, 2),
        ("6k1/8/8/8/8/2PP4/3B4/4B1K1 w - - 0 1", _weights.F_BISHOP_PAWNS, 2),
        # a knight on a rook that nothing defends; a rook on a queen, its own rook defended
        ("6k1/8/8/3r4/8/4N3/8/K7 w - - 0 1", _weights.F_THREAT_MINOR, 1),
        ("6k1/8/8/3r4/8/4N3/8/K7 w - - 0 1", _weights.F_HANGING, 1),
        ("6k1/8/8/3q4/8/8/8/2KR4 w - - 0 1", _weights.F_THREAT_ROOK, 1),
        ("6k1/8/8/3q4/8/8/8/2KR4 w - - 0 1", _weights.F_THREAT_MINOR, 0),
        ("6k1/8/8/3q4/8/8/8/2KR4 w - - 0 1", _weights.F_HANGING, 1),
        ("6k1/8/8/3q4/8/8/8/2KR4 b - - 0 1", _weights.F_HANGING, 1),
        # the queen can check on d8 or d5, which nothing of Black's guards; the knight cannot
        ("6k1/8/8/8/8/8/8/K2Q3N w - - 0 1", _weights.F_SAFE_CHECK, 1),
        ("6k1/8/8/8/8/8/8/K2Q3N b - - 0 1", _weights.F_SAFE_CHECK, 1),
        # a bare white king in the corner, Black's queen and king: driven to the edge, the
        # kings 11 king steps apart along rank and file; with a pawn left, or Black with one
        # knight only, nothing
        ("K7/8/8/8/8/8/8/4k2q w - - 0 1", _weights.F_MOPUP_EDGE, -6),
        ("K7/8/8/8/8/8/8/4k2q w - - 0 1", _weights.F_MOPUP_NEAR, -3),
        ("K7/P7/8/8/8/8/8/4k2q w - - 0 1", _weights.F_MOPUP_EDGE, 0),
        ("K7/8/8/8/8/8/8/4k2n w - - 0 1", _weights.F_MOPUP_EDGE, 0),
        ("K7/8/8/8/8/8/8/3nk2b w - - 0 1", _weights.F_MOPUP_EDGE, -6),
    ],
)
def test_each_term_counts_what_it_says(fen: str, feature: int, count: int) -> None:
    out, _, _, _ = _features(Position.from_fen(fen))
    assert out[feature] == count
