"""The chess core's typed door: :class:`Position`, an immutable chess position over the
compiled rules (``_movegen``, ``_make``, ``_rules``), and :func:`perft` / :func:`divide`.

Moves are integers (``from | to << 6 | flag << 12``, see ``_tables``); :meth:`Position.uci`,
:meth:`Position.san`, :meth:`Position.parse_uci` and :meth:`Position.parse_san` translate.
:meth:`Position.play` checks that a move is legal; it never changes the position it is called
on. A position remembers the keys of the positions since the last capture or pawn move (and
the positions before that can never recur), so it can tell repetitions.

Nothing here imports python-chess: this is our own implementation of the rules.
"""

from __future__ import annotations

import contextlib
from enum import Enum

import numba
import numpy as np
import numpy.typing as npt

from ...game import IllegalMoveError, InvalidMoveError, InvalidPositionError
from ...kernels import watch
from . import _eval, _fen, _make, _movegen, _notation, _rules
from ._cache import KERNELS, drop_stale_cache
from ._tables import (
    BISHOP,
    EMPTY,
    KNIGHT,
    MAX_MOVES,
    NO_SQUARE,
    NPOS,
    P_BB,
    P_BOARD,
    P_CASTLE,
    P_EP,
    P_FULL,
    P_HALF,
    P_KEY,
    P_SIDE,
    PAWN,
    PIECE_LETTERS,
    QUEEN,
    ROOK,
    UNDO_WORDS,
    build_tables,
)


def _count(bits: int) -> int:
    return bin(bits).count("1")


# numpy alone (no kernel runs): first, so that a network file that cannot be played
# (``_tables.NetworkFileError``) is said before a build of the kernels is announced
TABLES = build_tables()
drop_stale_cache()  # before any kernel runs: a cache of other kernel sources would run them
watch(KERNELS)  # a build of the kernels (on their first calls) is said at once

__all__ = [
    "START_FEN",
    "Position",
    "Termination",
    "divide",
    "kernel_context",
    "perft",
]

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_DARK = 0xAA55AA55AA55AA55  # a1, c1, ..., the dark squares


def kernel_context() -> contextlib.AbstractContextManager[object]:
    """With numba disabled the kernels run on numpy scalars, whose 64-bit arithmetic wraps on
    purpose (hashing, magic multiplication, two's complement sums): silence numpy's warning."""
    if getattr(numba.config, "DISABLE_JIT", False):
        return np.errstate(over="ignore")
    return contextlib.nullcontext()


class Termination(Enum):
    """Why a game ended (the first five end it by themselves; the last two must be claimed)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient material"
    SEVENTYFIVE_MOVES = "seventy-five moves"
    FIVEFOLD_REPETITION = "fivefold repetition"
    FIFTY_MOVES = "fifty moves"
    THREEFOLD_REPETITION = "threefold repetition"


class Position:
    """An immutable chess position, with the keys of the earlier positions that can recur.

    Equal positions have the same pieces, side to move, castling rights, en-passant square,
    clocks and history; the hash is the Zobrist key (:attr:`key`). Positions pickle.
    """

    __slots__ = ("_array", "_history", "_legal")

    def __init__(self, array: npt.NDArray[np.uint64], history: tuple[int, ...] = ()) -> None:
        """Use :meth:`initial`, :meth:`from_fen` or :meth:`play`: ``array`` is the kernel's
        position array (taken over, not copied) and ``history`` the keys of the positions
        since the last capture or pawn move, oldest first."""
        array.flags.writeable = False
        self._array = array
        self._history = history
        self._legal: tuple[int, ...] | None = None

    # -- making positions ---------------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        return cls.from_fen(START_FEN)

    @classmethod
    def from_fen(cls, fen: str) -> Position:
        """The position a FEN describes (the clocks may be left out: 0 and 1; a fullmove number
        of 0, common in puzzle collections, is read as 1). Raises
        :class:`InvalidPositionError` naming what is wrong, for a malformed FEN and for one that
        no game can reach this way (kings, pawns on the last ranks, the side not to move in
        check, castling rights without their king and rook, an impossible en-passant square).
        An en-passant square is kept only if a pawn may legally take there."""
        array = _fen.read(fen)
        with kernel_context():
            _make.refresh(array, TABLES)
        position = cls(array)
        position._check_checks(fen)
        return position

    def _check_checks(self, fen: str) -> None:
        a = self._array
        with kernel_context():
            flipped = a.copy()
            flipped[P_SIDE] = 1 - int(a[P_SIDE])
            if _movegen.in_check(flipped, TABLES):
                raise InvalidPositionError(
                    f"not a legal position: {fen!r} (the side not to move is in check)", text=fen
                )
            if _count(int(_movegen.checkers(a.copy(), TABLES))) > 2:  # writable: as legal_moves
                raise InvalidPositionError(
                    f"not a legal position: {fen!r} (more than two pieces give check)", text=fen
                )

    def play(self, move: int) -> Position:
        """The position after ``move`` (an integer from :meth:`legal_moves`); raises
        :class:`IllegalMoveError` if it is not legal here."""
        if move not in self.legal_moves():
            raise IllegalMoveError(
                f"illegal move {move!r} in {self.fen()}", text=str(move), position=self.fen()
            )
        return self.after(move)

    def after(self, move: int) -> Position:
        """The position after ``move``, unchecked: ``move`` must be one of
        :meth:`legal_moves` (the search's door; :meth:`play` is the checked one)."""
        out = self._array.copy()
        undo = np.empty((1, UNDO_WORDS), dtype=np.uint64)
        with kernel_context():
            _make.make(out, TABLES, move, undo, 0)
        history = (*self._history, self.key) if out[P_HALF] else ()
        return Position(out, history)

    def passed(self) -> Position:
        """This position with the other side to move and nothing else changed but the
        en-passant square (dropped) and the clocks (the halfmove clock restarts: no repetition
        reaches back across a pass): a null move, for null-move pruning. Never for a side in
        check (:class:`ValueError`)."""
        if self.is_check():
            raise ValueError(f"a side in check cannot pass: {self.fen()}")
        out = self._array.copy()
        undo = np.empty((1, UNDO_WORDS), dtype=np.uint64)
        with kernel_context():
            _make.make_null(out, TABLES, undo, 0)
        return Position(out)

    def evaluate(self) -> int:
        """The static evaluation from the side to move's view, in centipawns: the search's
        own (``_eval.evaluate``), given a writable copy of the array (the search's signature:
        a read-only array would compile the evaluation's kernels a second time)."""
        with kernel_context():
            scratch = np.zeros(_eval.SCRATCH_WORDS, dtype=np.int64)
            return int(_eval.evaluate(self._array.copy(), TABLES, scratch))

    def play_uci(self, text: str) -> Position:
        return self.play(self.parse_uci(text))

    def play_san(self, text: str) -> Position:
        return self.play(self.parse_san(text))

    # -- what is on the board -----------------------------------------------------------------

    @property
    def array(self) -> npt.NDArray[np.uint64]:
        """The kernel's position array (read-only)."""
        return self._array

    @property
    def history(self) -> tuple[int, ...]:
        """Keys of the earlier positions since the last capture or pawn move, oldest first."""
        return self._history

    @property
    def key(self) -> int:
        """The Zobrist key: pieces, side to move, castling rights and en-passant square."""
        return int(self._array[P_KEY])

    @property
    def turn(self) -> int:
        """0 when White is to move, 1 when Black is."""
        return int(self._array[P_SIDE])

    @property
    def halfmove_clock(self) -> int:
        return int(self._array[P_HALF])

    @property
    def fullmove_number(self) -> int:
        return int(self._array[P_FULL])

    @property
    def castling_rights(self) -> int:
        """Bits ``WK | WQ | BK | BQ`` (1, 2, 4, 8)."""
        return int(self._array[P_CASTLE])

    @property
    def ep_square(self) -> int | None:
        """The square a pawn may take en passant on now, if any."""
        ep = int(self._array[P_EP])
        return None if ep == NO_SQUARE else ep

    def piece_at(self, square: int) -> str | None:
        """The letter of the piece on ``square`` (``P``..``K`` White, ``p``..``k`` Black)."""
        piece = int(self._array[P_BOARD + square])
        return None if piece == EMPTY else PIECE_LETTERS[piece]

    def board(self) -> list[int]:
        """The 64 squares' piece codes (0..11, 12 empty), a1 first."""
        squares: list[int] = self._array[P_BOARD : P_BOARD + 64].tolist()  # Python ints
        return squares

    def fen(self) -> str:
        return _fen.write(self._array)

    def __str__(self) -> str:
        board = self.board()
        letters = [PIECE_LETTERS[p] if p != EMPTY else "." for p in board]
        rows = [" ".join(letters[r * 8 : r * 8 + 8]) for r in range(7, -1, -1)]
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[int, ...]:
        """Every legal move, as the kernel's integers."""
        if self._legal is None:
            moves = np.empty(MAX_MOVES, dtype=np.int32)
            with kernel_context():  # a writable copy: the search's build of the kernel serves
                n = _movegen.gen_moves(self._array.copy(), TABLES, moves, 0, _movegen.GEN_ALL)
            self._legal = tuple(int(m) for m in moves[:n])
        return self._legal

    def _facts(self) -> tuple[tuple[int, ...], list[int], list[int]]:
        """The legal moves, their check marks (0, 1 check, 2 mate) and the keys they lead to."""
        legal = self.legal_moves()
        n = len(legal)
        marks = np.empty(n, dtype=np.int64)
        keys = np.empty(n, dtype=np.uint64)
        undo = np.empty((1, UNDO_WORDS), dtype=np.uint64)
        with kernel_context():
            _rules.move_facts(
                self._array,
                TABLES,
                np.array(legal, dtype=np.int32),
                n,
                marks,
                keys,
                undo,
                np.empty(NPOS, dtype=np.uint64),
                np.empty(MAX_MOVES, dtype=np.int32),
            )
        return legal, [int(m) for m in marks], [int(k) for k in keys]

    @staticmethod
    def uci(move: int) -> str:
        return _notation.uci(move)

    def parse_uci(self, text: str) -> int:
        """The legal move that the UCI ``text`` (``e2e4``, ``e7e8q``) names.
        :class:`InvalidMoveError` if it is not UCI notation, :class:`IllegalMoveError` if the
        move it names is not legal here."""
        parts = _notation.uci_parts(text)
        if parts is None:
            raise InvalidMoveError(
                f"not a UCI move: {text!r} (e.g. e2e4, e7e8q)", text=text, position=self.fen()
            )
        frm, to, promotion = parts
        for move in self.legal_moves():
            flag = move >> 12
            got = (flag & 3) + 1 if flag & 8 else 0
            if move & 63 == frm and (move >> 6) & 63 == to and got == promotion:
                return move
        raise IllegalMoveError(
            f"illegal move {text!r} in {self.fen()}", text=text, position=self.fen()
        )

    def san(self, move: int) -> str:
        """``move`` (legal here) in standard algebraic notation, with ``+`` or ``#``."""
        return self.san_all().get(move) or self._not_legal(move)

    def san_all(self) -> dict[int, str]:
        """Every legal move's SAN."""
        legal, marks, _ = self._facts()
        board = self.board()
        pairs = zip(legal, marks, strict=True)
        return {m: _notation.san(board, m, legal, mark) for m, mark in pairs}

    def _not_legal(self, move: int) -> str:
        raise IllegalMoveError(
            f"illegal move {move!r} in {self.fen()}", text=str(move), position=self.fen()
        )

    def parse_san(self, text: str) -> int:
        """The legal move that the SAN ``text`` names (``Nf3``, ``exd5``, ``e8=Q``, ``O-O``;
        ``+``/``#`` and ``!?`` may follow). :class:`InvalidMoveError` if it is not SAN,
        :class:`IllegalMoveError` if it names no legal move here or more than one."""
        found = _notation.san_candidates(self.board(), text.strip(), self.legal_moves())
        if found is None:
            raise InvalidMoveError(
                f"not a SAN move: {text!r} (e.g. Nf3, exd5, e8=Q, O-O)",
                text=text,
                position=self.fen(),
            )
        if len(found) != 1:
            why = "no legal move" if not found else "ambiguous: " + ", ".join(map(self.uci, found))
            raise IllegalMoveError(
                f"illegal move {text!r} in {self.fen()} ({why})", text=text, position=self.fen()
            )
        return found[0]

    # -- the end of the game ------------------------------------------------------------------

    def is_check(self) -> bool:
        with kernel_context():
            return bool(_movegen.in_check(self._array.copy(), TABLES))  # as in legal_moves

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.legal_moves()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.legal_moves()

    def is_insufficient_material(self) -> bool:
        """Neither side can ever mate, whatever the moves (by material alone): bare kings and
        at most one minor piece, or only bishops, all on squares of one colour."""
        a = self._array
        if any(int(a[P_BB + c * 6 + k]) for c in (0, 1) for k in (PAWN, ROOK, QUEEN)):
            return False
        knights = int(a[P_BB + KNIGHT] | a[P_BB + 6 + KNIGHT])
        bishops = int(a[P_BB + BISHOP] | a[P_BB + 6 + BISHOP])
        if _count(knights) + _count(bishops) <= 1:
            return True
        return knights == 0 and (bishops & _DARK == 0 or bishops & ~_DARK == 0)

    def repetitions(self) -> int:
        """How many times this position has stood on the board (1: never before)."""
        return 1 + self._history.count(self.key)

    def can_claim_fifty_moves(self) -> bool:
        """Whether the side to move may claim a draw under the fifty-move rule: fifty moves of
        each side without a capture or a pawn move, or a legal move that makes them fifty."""
        clock = self.halfmove_clock
        legal = self.legal_moves()
        if not legal or clock < 99:
            return False
        if clock >= 100:
            return True
        board = self.board()
        return any(m >> 12 & 4 == 0 and board[m & 63] % 6 != PAWN for m in legal)

    def can_claim_threefold_repetition(self) -> bool:
        """Whether the side to move may claim a draw by repetition: this position stands for
        the third time, or a legal move makes the next one stand for the third time."""
        if self.repetitions() >= 3:
            return True
        if not self._history:
            return False
        seen = (*self._history, self.key)
        _, _, keys = self._facts()
        return any(seen.count(k) >= 2 for k in keys)

    def termination(self, claim_draw: bool = False) -> Termination | None:
        """Why the game is over here, or None. With ``claim_draw`` the draws that the side to
        move may claim count too."""
        if not self.legal_moves():
            return Termination.CHECKMATE if self.is_check() else Termination.STALEMATE
        if self.is_insufficient_material():
            return Termination.INSUFFICIENT_MATERIAL
        if self.halfmove_clock >= 150:
            return Termination.SEVENTYFIVE_MOVES
        if self.repetitions() >= 5:
            return Termination.FIVEFOLD_REPETITION
        if claim_draw:
            if self.can_claim_fifty_moves():
                return Termination.FIFTY_MOVES
            if self.can_claim_threefold_repetition():
                return Termination.THREEFOLD_REPETITION
        return None

    # -- identity -----------------------------------------------------------------------------

    def __hash__(self) -> int:
        return self.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._history == other._history and bool(np.array_equal(self._array, other._array))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self._array.tobytes(), self._history))


def _rebuild(data: bytes, history: tuple[int, ...]) -> Position:
    return Position(np.frombuffer(data, dtype=np.uint64).copy(), history)


def perft(position: Position, depth: int) -> int:
    """The number of legal move sequences of ``depth`` plies from ``position`` (the last ply
    counted in bulk)."""
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth}")
    pos = position.array.copy()
    moves = np.empty((depth + 1) * MAX_MOVES, dtype=np.int32)
    undo = np.empty((depth + 1, UNDO_WORDS), dtype=np.uint64)
    with kernel_context():
        stack = np.empty(2 * depth + 2, dtype=np.int64)
        return int(_rules.perft(pos, TABLES, depth, moves, undo, stack, 0))


def divide(position: Position, depth: int) -> list[tuple[str, int]]:
    """Each legal move (UCI) with the perft count of ``depth - 1`` after it (``depth >= 1``);
    the counts add up to ``perft(position, depth)``."""
    if depth < 1:
        raise ValueError(f"divide depth must be at least 1, not {depth}")
    pos = position.array.copy()
    moves = np.empty((depth + 1) * MAX_MOVES, dtype=np.int32)
    undo = np.empty((depth + 1, UNDO_WORDS), dtype=np.uint64)
    counts = np.zeros(MAX_MOVES, dtype=np.int64)
    with kernel_context():
        stack = np.empty(2 * depth + 2, dtype=np.int64)
        n = _rules.divide(pos, TABLES, depth, moves, undo, stack, counts)
    return [(_notation.uci(int(moves[i])), int(counts[i])) for i in range(n)]
