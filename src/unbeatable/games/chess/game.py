"""Chess as a :class:`~unbeatable.game.Game`: python-chess knows the rules, we keep states
immutable.

A position is written as a FEN, or as moves from the start (``e2e4 e7e5``, UCI notation; SAN
is read too), optionally after ``startpos moves`` or ``fen <FEN> moves``, as UCI writes them.
Draws: stalemate, insufficient material, the 50-move rule (100 plies without a capture or a
pawn move) and threefold repetition (within the moves the state knows of).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import ClassVar

import chess

from ...game import (
    FIRST,
    SECOND,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    State,
    require_text,
)
from .evaluation import evaluate, piece_value

__all__ = ["Chess", "ChessState"]

_NO_MOVES: tuple[chess.Move, ...] = ()


class Chess(Game):
    """The game of chess."""

    name = "chess"
    _the: ClassVar[Chess | None] = None

    @classmethod
    def the(cls) -> Chess:
        if cls._the is None:
            cls._the = cls()
        return cls._the

    def initial(self) -> ChessState:
        return ChessState(chess.Board(), ())

    def parse_position(self, text: str) -> ChessState:
        """A FEN, moves from the start, or UCI's ``startpos|fen ... [moves ...]``."""
        require_text(text)
        words = text.split()
        fen, moves = None, words
        if words[:1] == ["startpos"]:
            moves = words[1:]
        elif words[:1] == ["fen"]:
            cut = words.index("moves") if "moves" in words else len(words)
            fen, moves = " ".join(words[1:cut]), words[cut:]
        elif len(words) >= 2 and "/" in words[0]:
            cut = words.index("moves") if "moves" in words else len(words)
            fen, moves = " ".join(words[:cut]), words[cut:]
        if moves[:1] == ["moves"]:
            moves = moves[1:]
        state = self.initial() if fen is None else self._from_fen(fen)
        for index, token in enumerate(moves, start=1):
            try:
                state = state.play_text(token)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise type(err)(
                    f"{err} (move {index} of {text.strip()!r})", text=token, position=text.strip()
                ) from None
        return state

    @staticmethod
    def _from_fen(fen: str) -> ChessState:
        try:
            board = chess.Board(fen)
        except ValueError as err:
            raise InvalidPositionError(f"not a FEN: {fen!r} ({err})", text=fen) from None
        status = board.status()
        if status != chess.STATUS_VALID:
            flags = [flag.name or "" for flag in chess.Status if flag & status]
            why = ", ".join(name.lower().replace("_", " ") for name in flags)
            raise InvalidPositionError(f"not a legal chess position: {fen!r} ({why})", text=fen)
        return ChessState(board, ())

    def format_position(self, state: State) -> str:
        assert isinstance(state, ChessState)
        return state.board.fen()

    def picture(self, state: State) -> str:
        assert isinstance(state, ChessState)
        board = state.board
        rows = [f"{8 - r} " + " ".join(str(board).splitlines()[r].split()) for r in range(8)]
        side = "white" if board.turn == chess.WHITE else "black"
        return "\n".join([*rows, "  a b c d e f g h", f"{side} to move"])


def _position_key(board: chess.Board) -> int:
    """A 64-bit key of what makes two positions the same for repetitions and the table: the
    pieces, the side to move, castling rights and a capturable en-passant square (the hash of
    python-chess's bitboards, much cheaper than a Zobrist hash computed square by square)."""
    ep = board.ep_square
    if ep is None or not board.has_legal_en_passant():
        ep = -1  # not None: hash(None) changes from run to run before Python 3.12
    return hash(
        (
            board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.turn, board.castling_rights, ep,
        )
    )  # fmt: skip


class ChessState(State):
    """A chess position: a python-chess board (never changed after it is made) and the table
    keys of the positions since the last capture or pawn move (for repetitions)."""

    __slots__ = ("_key", "_moves", "_noisy", "_outcome", "board", "history")

    game: Chess | None = None
    has_solver = False
    #: What pays in ``benchmarks/chess_features.py`` (see docs/chess.md): every feature but
    #: principal variation search, which saved 2-3% of the nodes but cost time.
    search_features: ClassVar[frozenset[str]] = frozenset(
        {"quiescence", "killers", "history", "aspiration", "null-move", "check-extension"}
    )
    #: Chess cannot be searched to its end: a search given no limit thinks this long (the
    #: library, the command line, UCI) ...
    default_time: ClassVar[float | None] = 5.0
    #: ... and on the web page: an opponent's move 1 s, an analysis 2 s.
    thinking_times: ClassVar[Mapping[str, float]] = {"move": 1.0, "analysis": 2.0}

    def __init__(self, board: chess.Board, history: tuple[int, ...]) -> None:
        self.board = board
        self.history = history
        self._key = _position_key(board)
        self._moves: tuple[chess.Move, ...] | None = None
        self._noisy: list[Move] | None = None
        self._outcome: Outcome | bool | None = False  # False: not computed yet

    # --- the protocol ----------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return FIRST if self.board.turn == chess.WHITE else SECOND

    @property
    def ply(self) -> int:
        board = self.board
        return 2 * (board.fullmove_number - 1) + (board.turn == chess.BLACK)

    def legal_moves(self) -> Sequence[Move]:
        if self.outcome() is not None:
            return _NO_MOVES
        return self._all_moves()

    def _all_moves(self) -> tuple[chess.Move, ...]:
        if self._moves is None:
            self._moves = tuple(self.board.legal_moves)
        return self._moves

    def play(self, move: Move) -> ChessState:
        assert isinstance(move, chess.Move)
        board = self.board.copy(stack=False)
        irreversible = board.is_zeroing(move) or board.is_castling(move)
        board.push(move)
        history = () if irreversible else (*self.history, self._key)
        return ChessState(board, history)

    def outcome(self) -> Outcome | None:
        if self._outcome is False:
            self._outcome = self._find_outcome()
        return self._outcome  # type: ignore[return-value]

    def _find_outcome(self) -> Outcome | None:
        board = self.board
        # One legal move is enough to know that the game goes on: no full generation.
        has_move = bool(self._moves) if self._moves is not None else None
        if has_move is None:
            has_move = any(board.generate_legal_moves())
        if not has_move:
            if board.is_check():
                return Outcome.SECOND_WINS if board.turn == chess.WHITE else Outcome.FIRST_WINS
            return Outcome.DRAW
        if board.halfmove_clock >= 100 or board.is_insufficient_material():
            return Outcome.DRAW
        if self.history.count(self._key) >= 2:
            return Outcome.DRAW  # the third time this position stands on the board
        return None

    def key(self) -> Hashable:
        return self._key

    def evaluate(self) -> float:
        return evaluate(self.board)

    def null_move(self) -> ChessState | None:
        """The same position with the other side to move (python-chess's null move), for
        null-move pruning; None when the side to move is in check (a pass would be illegal) or
        has nothing but its king and pawns (where zugzwang is common). Repetitions are not
        counted across a pass."""
        board = self.board
        mine = board.occupied_co[board.turn]
        if mine & ~(board.pawns | board.kings) == 0 or board.is_check():
            return None
        passed = board.copy(stack=False)
        passed.push(chess.Move.null())
        return ChessState(passed, ())

    def extends(self) -> bool:
        """True when the side to move is in check: the search looks one ply further."""
        return self.board.is_check()

    def ordered_moves(self) -> Sequence[Move]:
        """Captures and promotions first, the most valuable victim by the least valuable
        attacker first (MVV-LVA), then the quiet moves."""
        noisy = self.noisy_moves()
        chosen = set(noisy)
        return [*noisy, *(m for m in self.legal_moves() if m not in chosen)]

    def noisy_moves(self) -> Sequence[Move]:
        """Captures and promotions, MVV-LVA order: what quiescence search follows."""
        if self._noisy is None:
            self._noisy = self._find_noisy()
        return self._noisy

    def _find_noisy(self) -> list[Move]:
        board = self.board
        scored = []
        if self.outcome() is not None:
            return []
        # Captures, then the pawn pushes from the seventh rank: no full move generation.
        seventh = chess.BB_RANK_7 if board.turn == chess.WHITE else chess.BB_RANK_2
        pushers = board.pawns & board.occupied_co[board.turn] & seventh
        candidates = list(board.generate_legal_captures())
        if pushers:
            candidates += [
                m for m in board.generate_legal_moves(from_mask=pushers) if not board.is_capture(m)
            ]
        for move in candidates:
            if move.promotion is not None or board.is_capture(move):
                victim = board.piece_type_at(move.to_square) or chess.PAWN  # en passant: a pawn
                attacker = board.piece_type_at(move.from_square) or chess.PAWN
                gain = piece_value(victim) * 16 - piece_value(attacker)
                if move.promotion is not None:
                    gain += piece_value(move.promotion) * 16
                scored.append((-gain, move.from_square, move.to_square, move))
        scored.sort(key=lambda item: item[:3])
        return [item[3] for item in scored]

    # --- notation -------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        assert isinstance(move, chess.Move)
        return move.uci()

    def move_label(self, move: Move) -> str:
        """The move in SAN, for people (``Nf3``, ``exd5``, ``O-O``, ``Qh7#``)."""
        assert isinstance(move, chess.Move)
        return self.board.san(move)

    def parse_move(self, text: str) -> chess.Move:
        """A legal move in UCI notation (``e2e4``, ``e7e8q``) or in SAN (``e4``, ``Nf3``)."""
        token = text.strip()
        board = self.board
        if self.outcome() is not None:
            raise IllegalMoveError(
                f"move {token!r} after the game has ended ({self.outcome()}) in {self}",
                text=token, position=str(self),
            )
        try:
            move = chess.Move.from_uci(token)
        except ValueError:
            move = None
        if move is not None:
            if move in self._all_moves():
                return move
            raise IllegalMoveError(
                f"{token!r} is not a legal move in {board.fen()}", text=token, position=str(self)
            )
        try:
            return board.parse_san(token)
        except chess.IllegalMoveError:
            raise IllegalMoveError(
                f"{token!r} is not a legal move in {board.fen()}", text=token, position=str(self)
            ) from None
        except ValueError:
            raise InvalidMoveError(
                f"{token!r} is not a chess move (UCI like e2e4 or e7e8q, or SAN like Nf3)",
                text=token, position=str(self),
            ) from None

    # --- value semantics ------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ChessState)
            and self._key == other._key
            and self.board.epd() == other.board.epd()
            and self.board.halfmove_clock == other.board.halfmove_clock
        )

    def __hash__(self) -> int:
        return self._key

    def __getstate__(self) -> tuple[str, tuple[int, ...]]:
        return (self.board.fen(), self.history)

    def __setstate__(self, data: tuple[str, tuple[int, ...]]) -> None:
        fen, history = data
        self.__init__(chess.Board(fen), history)  # type: ignore[misc]

    def __str__(self) -> str:
        return self.board.fen()

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r})"


ChessState.game = Chess.the()
