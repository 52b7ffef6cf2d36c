"""FEN in and out: the position array of a FEN's six fields (everything but what
``_make.refresh`` derives from the pieces) and the FEN of a position array."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...game import InvalidPositionError
from ._notation import parse_square, square_name
from ._tables import (
    BK,
    BLACK,
    BQ,
    EMPTY,
    KING,
    NO_SQUARE,
    NPOS,
    P_BB,
    P_BOARD,
    P_CASTLE,
    P_EP,
    P_FULL,
    P_HALF,
    P_SIDE,
    PAWN,
    PIECE_LETTERS,
    ROOK,
    WHITE,
    WK,
    WQ,
)

_CASTLE_LETTERS = ((WK, "K"), (WQ, "Q"), (BK, "k"), (BQ, "q"))
# What each castling right needs: the king's square, the rook's square, the piece codes.
_CASTLE_NEEDS = {
    WK: (4, 7, KING, ROOK),
    WQ: (4, 0, KING, ROOK),
    BK: (60, 63, 6 + KING, 6 + ROOK),
    BQ: (60, 56, 6 + KING, 6 + ROOK),
}


def read(fen: str) -> npt.NDArray[np.uint64]:
    """The pieces, side to move, castling rights, en-passant square and clocks of ``fen`` (the
    clocks may be left out: 0 and 1; a fullmove number of 0, common in puzzle collections, is
    read as 1); :class:`InvalidPositionError` naming what is wrong with a malformed FEN, with
    a side without exactly one king, a pawn on the first or last rank, castling rights whose
    king and rook are not at home and an en-passant square that no double step can have
    left."""
    fields = fen.split()
    if not 4 <= len(fields) <= 6:
        raise InvalidPositionError(
            f"not a FEN: {fen!r} (expected 4 to 6 fields, found {len(fields)})", text=fen
        )
    placement, side, castling, ep, *clocks = fields
    array = np.zeros(NPOS, dtype=np.uint64)
    _read_placement(array, placement, fen)
    for colour, name in ((WHITE, "White"), (BLACK, "Black")):
        n = bin(int(array[P_BB + colour * 6 + KING])).count("1")
        if n != 1:  # before anything looks for the king
            raise InvalidPositionError(
                f"not a legal position: {fen!r} ({name} has {n} kings)", text=fen
            )
    if int(array[P_BB + PAWN] | array[P_BB + 6 + PAWN]) & 0xFF000000000000FF:
        raise InvalidPositionError(
            f"not a legal position: {fen!r} (a pawn on the first or last rank)", text=fen
        )
    for colour, name in ((WHITE, "White"), (BLACK, "Black")):
        count = [bin(int(array[P_BB + colour * 6 + k])).count("1") for k in range(6)]
        extra = sum(max(0, count[k] - home) for k, home in ((1, 2), (2, 2), (3, 2), (4, 1)))
        if extra > 8 - count[PAWN]:  # also bounds the number of legal moves (at most 218)
            raise InvalidPositionError(
                f"not a legal position: {fen!r} ({name} has more pieces than its pawns "
                f"could have promoted to)",
                text=fen,
            )
    if side not in ("w", "b"):
        raise InvalidPositionError(f"not a FEN: {fen!r} (side to move {side!r})", text=fen)
    array[P_SIDE] = WHITE if side == "w" else BLACK
    array[P_CASTLE] = _read_castling(array, castling, fen)
    array[P_EP] = _read_ep(array, ep, side, fen)
    half, full = clocks + ["0", "1"][len(clocks) :]
    if not (half.isdigit() and full.isdigit() and int(half) < 10**6):
        raise InvalidPositionError(f"not a FEN: {fen!r} (clocks {half!r} {full!r})", text=fen)
    array[P_HALF] = int(half)
    array[P_FULL] = min(max(int(full), 1), 10**6)  # puzzles often say 0
    return array


def write(array: npt.NDArray[np.uint64]) -> str:
    """The FEN of a position array."""
    board = [int(p) for p in array[P_BOARD : P_BOARD + 64]]
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board[rank * 8 + file]
            if piece == EMPTY:
                empty += 1
                continue
            row += (str(empty) if empty else "") + PIECE_LETTERS[piece]
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    castle = int(array[P_CASTLE])
    rights = "".join(c for bit, c in _CASTLE_LETTERS if castle & bit) or "-"
    ep = int(array[P_EP])
    return " ".join(
        [
            "/".join(rows),
            "wb"[int(array[P_SIDE])],
            rights,
            "-" if ep == NO_SQUARE else square_name(ep),
            str(int(array[P_HALF])),
            str(int(array[P_FULL])),
        ]
    )


def _read_placement(array: npt.NDArray[np.uint64], placement: str, fen: str) -> None:
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise InvalidPositionError(
            f"not a FEN: {fen!r} (the board has {len(ranks)} ranks, not 8)", text=fen
        )
    for r, text in enumerate(ranks):
        rank, file = 7 - r, 0
        for c in text:
            if c in "12345678":
                file += int(c)
            elif c in PIECE_LETTERS and file < 8:
                array[P_BB + PIECE_LETTERS.index(c)] |= np.uint64(1 << (rank * 8 + file))
                file += 1
            else:
                raise InvalidPositionError(
                    f"not a FEN: {fen!r} ({c!r} in rank {rank + 1})", text=fen
                )
        if file != 8:
            raise InvalidPositionError(
                f"not a FEN: {fen!r} (rank {rank + 1} has {file} squares, not 8)", text=fen
            )


def _read_castling(array: npt.NDArray[np.uint64], text: str, fen: str) -> int:
    if text == "-":
        return 0
    rights = 0
    for c in text:
        bit = dict((letter, b) for b, letter in _CASTLE_LETTERS).get(c)
        if bit is None or rights & bit:
            raise InvalidPositionError(f"not a FEN: {fen!r} (castling {text!r})", text=fen)
        king_sq, rook_sq, king, rook = _CASTLE_NEEDS[bit]
        if not int(array[P_BB + king]) >> king_sq & 1 or not int(array[P_BB + rook]) >> rook_sq & 1:
            raise InvalidPositionError(
                f"not a legal position: {fen!r} (castling right {c!r} without its king on "
                f"{square_name(king_sq)} and rook on {square_name(rook_sq)})",
                text=fen,
            )
        rights |= bit
    return rights


def _read_ep(array: npt.NDArray[np.uint64], text: str, side: str, fen: str) -> int:
    if text == "-":
        return NO_SQUARE
    try:
        ep = parse_square(text)
    except ValueError:
        raise InvalidPositionError(f"not a FEN: {fen!r} (en passant {text!r})", text=fen) from None
    rank, pawn_sq, back = (5, ep - 8, ep + 8) if side == "w" else (2, ep + 8, ep - 8)
    pawn = P_BB + (6 + PAWN if side == "w" else PAWN)
    occupied = int(np.bitwise_or.reduce(array[P_BB : P_BB + 12]))
    if (
        ep >> 3 != rank
        or not int(array[pawn]) >> pawn_sq & 1
        or occupied >> ep & 1
        or (occupied >> back & 1)
    ):
        raise InvalidPositionError(
            f"not a legal position: {fen!r} (no pawn can just have passed {text})", text=fen
        )
    return ep
