"""Square names, UCI and SAN moves, and FEN fields, in plain Python over the kernel's integers
(see ``_tables`` for the encodings). ``core.Position`` is the door to all of this."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._tables import (
    CAPTURE,
    CASTLE_K,
    CASTLE_Q,
    EMPTY,
    PAWN,
    PIECE_LETTERS,
    PROMOTION,
)

FILES = "abcdefgh"
PROMOTION_LETTERS = "nbrq"  # promotion flag & 3 -> the piece's letter
_SAN = re.compile(r"^([NBRQK])?([a-h])?([1-8])?([x:-])?([a-h][1-8])(?:=?([NBRQnbrq]))?$")
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([nbrq])?$")


def square_name(square: int) -> str:
    return FILES[square & 7] + str((square >> 3) + 1)


def parse_square(text: str) -> int:
    """The square named ``text`` (``e4``); ValueError if it names none."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(f"not a square: {text!r}")
    return FILES.index(text[0]) + 8 * (int(text[1]) - 1)


def move_parts(move: int) -> tuple[int, int, int]:
    """A move's from square, to square and flag."""
    return move & 63, (move >> 6) & 63, move >> 12


def uci(move: int) -> str:
    """A move in UCI notation (``e2e4``, ``e7e8q``; castling as the king's move, ``e1g1``)."""
    frm, to, flag = move_parts(move)
    text = square_name(frm) + square_name(to)
    if flag & PROMOTION:
        text += PROMOTION_LETTERS[flag & 3]
    return text


def uci_parts(text: str) -> tuple[int, int, int] | None:
    """From square, to square and promotion (0 none, else the flag's ``& 3`` + 1) of a UCI
    move's text, or None if it is not UCI notation."""
    m = _UCI.match(text)
    if m is None:
        return None
    promotion = 0 if m[3] is None else PROMOTION_LETTERS.index(m[3]) + 1
    return parse_square(m[1]), parse_square(m[2]), promotion


def san(board: Sequence[int], move: int, legal: Sequence[int], mark: int) -> str:
    """A move in standard algebraic notation. ``board``: the 64 squares' pieces; ``legal``:
    every legal move of the position (for disambiguation); ``mark``: 0, 1 check, 2 mate."""
    frm, to, flag = move_parts(move)
    suffix = ("", "+", "#")[mark]
    if flag == CASTLE_K:
        return "O-O" + suffix
    if flag == CASTLE_Q:
        return "O-O-O" + suffix
    piece = board[frm]
    kind = piece % 6
    capture = "x" if flag & CAPTURE else ""
    if kind == PAWN:
        text = (FILES[frm & 7] + capture if capture else "") + square_name(to)
        if flag & PROMOTION:
            text += "=" + PROMOTION_LETTERS[flag & 3].upper()
        return text + suffix
    rivals = [
        m & 63 for m in legal if (m >> 6) & 63 == to and m & 63 != frm and board[m & 63] == piece
    ]
    where = ""
    if rivals:
        if all(r & 7 != frm & 7 for r in rivals):
            where = FILES[frm & 7]
        elif all(r >> 3 != frm >> 3 for r in rivals):
            where = str((frm >> 3) + 1)
        else:
            where = square_name(frm)
    return PIECE_LETTERS[kind] + where + capture + square_name(to) + suffix


def san_candidates(board: Sequence[int], text: str, legal: Sequence[int]) -> list[int] | None:
    """The legal moves that the SAN ``text`` may name (check marks and ``!?`` annotations
    ignored; ``0-0`` read as ``O-O``), or None if ``text`` is not SAN at all."""
    core = text.rstrip("+#!?")
    if core in ("O-O", "0-0"):
        return [m for m in legal if m >> 12 == CASTLE_K]
    if core in ("O-O-O", "0-0-0"):
        return [m for m in legal if m >> 12 == CASTLE_Q]
    m = _SAN.match(core)
    if m is None:
        return None
    letter, file, rank, _, target, promoted = m.groups()
    kind = PAWN if letter is None else PIECE_LETTERS.index(letter)
    if kind == PAWN and (rank is not None) and file is None:
        return None
    to = parse_square(target)
    out = []
    for move in legal:
        if (move >> 6) & 63 != to:  # (most moves go elsewhere: dropped before the rest)
            continue
        frm, _, flag = move_parts(move)
        if board[frm] == EMPTY or board[frm] % 6 != kind:
            continue
        if file is not None and FILES[frm & 7] != file:
            continue
        if rank is not None and str((frm >> 3) + 1) != rank:
            continue
        if flag & PROMOTION:
            if promoted is None or PROMOTION_LETTERS[flag & 3] != promoted.lower():
                continue
        elif promoted is not None:
            continue
        if kind == PAWN and file is None and flag & CAPTURE:
            continue  # a pawn's capture names its file
        if flag in (CASTLE_K, CASTLE_Q) and letter == "K":
            continue  # castling is written O-O, not as the king's two-square step
        out.append(move)
    return out
