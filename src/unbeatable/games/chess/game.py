"""Chess as a :class:`~unbeatable.game.Game`, over our own compiled rules (:mod:`.core`) and
with our own compiled engine (:mod:`.searcher`) as the game's own searcher.

A position is written as a FEN, or as moves from the start (``e2e4 e7e5``, UCI notation; SAN
is read too), optionally after ``startpos moves`` or ``fen <FEN> moves``, as UCI writes them.
Moves are the core's integers (``from | to << 6 | flag << 12``); :meth:`ChessState.move_text`
writes them in UCI notation, :meth:`ChessState.move_label` in SAN. Draws: stalemate,
insufficient material, the 50-move rule (100 plies without a capture or a pawn move) and
threefold repetition (within the moves the state knows of).

The generic engine searches chess through the protocol (its hooks :meth:`ChessState.evaluate`,
:meth:`~ChessState.noisy_moves`, :meth:`~ChessState.null_move`, :meth:`~ChessState.extends`,
:meth:`~ChessState.key`), so that a learner can compare it with the game's own searcher
(:meth:`ChessState.searcher_answers`) on the same position: ``Searcher()`` asks the game's own,
``Searcher("alphabeta")`` the generic one.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...game import (
    FIRST,
    SECOND,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    SearchAnswer,
    SearchLine,
    SearchRequest,
    State,
    require_text,
)
from ._tables import CAPTURE, EN_PASSANT, P_BOARD, P_HALF, P_SIDE, PAWN, PROMOTION
from .core import Position
from .evaluation import piece_value
from .searcher import ENTRY_BYTES, MATE, MATE_BOUND, Limits, Searcher
from .warm import ready

__all__ = ["Chess", "ChessState"]

_NO_MOVES: tuple[int, ...] = ()

#: The key under which a search's memory (:attr:`SearchRequest.memory`) keeps the engine.
_ENGINE = "chess.searcher"


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
        return ChessState(Position.initial())

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
        """The position of ``fen``; :class:`InvalidPositionError` for a malformed FEN (``not a
        FEN: ...``) and for one no game reaches (``not a legal chess position: ...``), naming
        what is wrong."""
        try:
            return ChessState(Position.from_fen(fen))
        except InvalidPositionError as err:
            message = str(err).replace("not a legal position:", "not a legal chess position:", 1)
            raise InvalidPositionError(message, text=fen) from None

    def format_position(self, state: State) -> str:
        assert isinstance(state, ChessState)
        return state.position.fen()

    def picture(self, state: State) -> str:
        assert isinstance(state, ChessState)
        rows = str(state.position).splitlines()
        ranks = [f"{8 - r} {row}" for r, row in enumerate(rows)]
        side = "white" if state.position.turn == 0 else "black"
        return "\n".join([*ranks, "  a b c d e f g h", f"{side} to move"])


class ChessState(State):
    """A chess position: the core's immutable :class:`~.core.Position` (its pieces, side to
    move, castling rights, en-passant square, clocks, and the keys of the positions since the
    last capture or pawn move, for repetitions)."""

    __slots__ = ("_noisy", "_outcome", "_san", "position")

    game: Chess | None = None
    has_solver = False
    #: The compiled engine answers a search that asks for no algorithm (see
    #: :meth:`searcher_answers`); ``Searcher("alphabeta")`` searches with the generic engine.
    has_searcher = True
    #: The generic engine's features for chess (``benchmarks/chess_features.py``, see
    #: docs/chess.md): every feature but principal variation search, which saved 2-3% of the
    #: nodes but cost time.
    search_features: ClassVar[frozenset[str]] = frozenset(
        {"quiescence", "killers", "history", "aspiration", "null-move", "check-extension"}
    )
    #: Chess cannot be searched to its end: a search given no limit thinks this long (the
    #: library, the command line, UCI) ...
    default_time: ClassVar[float | None] = 5.0
    #: ... and on the web page: an opponent's move 1 s, an analysis 2 s.
    thinking_times: ClassVar[Mapping[str, float]] = {"move": 1.0, "analysis": 2.0}

    def __init__(self, position: Position) -> None:
        self.position = position
        self._noisy: list[Move] | None = None
        self._san: dict[int, str] | None = None
        self._outcome: Outcome | bool | None = False  # False: not computed yet

    # --- the protocol ----------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return FIRST if self.position.turn == 0 else SECOND

    @property
    def ply(self) -> int:
        position = self.position
        return 2 * (position.fullmove_number - 1) + position.turn

    def legal_moves(self) -> Sequence[Move]:
        if self.outcome() is not None:
            return _NO_MOVES
        return self.position.legal_moves()

    def play(self, move: Move) -> ChessState:
        assert isinstance(move, int)
        return ChessState(self.position.after(move))

    def outcome(self) -> Outcome | None:
        if self._outcome is False:
            self._outcome = self._find_outcome()
        return self._outcome  # type: ignore[return-value]

    def _find_outcome(self) -> Outcome | None:
        position = self.position
        if not position.legal_moves():
            if position.is_check():
                return Outcome.SECOND_WINS if position.turn == 0 else Outcome.FIRST_WINS
            return Outcome.DRAW
        if position.halfmove_clock >= 100 or position.is_insufficient_material():
            return Outcome.DRAW
        if position.repetitions() >= 3:
            return Outcome.DRAW  # the third time this position stands on the board
        return None

    def key(self) -> Hashable:
        """The Zobrist key: pieces, side to move, castling rights and a capturable en-passant
        square."""
        return self.position.key

    def evaluate(self) -> float:
        """The compiled engine's own evaluation (:mod:`.evaluation`), in centipawns from the
        side to move's view."""
        return self.position.evaluate()

    def null_move(self) -> ChessState | None:
        """The same position with the other side to move, for null-move pruning; None when the
        side to move is in check (a pass would be illegal) or has nothing but its king and
        pawns (where zugzwang is common). Repetitions are not counted across a pass."""
        position = self.position
        side = position.turn
        board = position.array[P_BOARD : P_BOARD + 64]
        mine = (board >= 6 * side) & (board < 6 * side + 6)
        kinds = board[mine] % 6
        if not np.any((kinds != PAWN) & (kinds != 5)) or position.is_check():
            return None
        return ChessState(position.passed())

    def extends(self) -> bool:
        """True when the side to move is in check: the search looks one ply further."""
        return self.position.is_check()

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
        board = self.position.array[P_BOARD : P_BOARD + 64]
        scored = []
        for move in self.legal_moves():
            assert isinstance(move, int)
            flag = move >> 12
            if not flag & (CAPTURE | PROMOTION):
                continue
            frm, to = move & 63, (move >> 6) & 63
            victim = PAWN if flag == EN_PASSANT or not flag & CAPTURE else int(board[to]) % 6
            gain = piece_value(victim) * 16 if flag & CAPTURE else 0
            gain -= piece_value(int(board[frm]) % 6)
            if flag & PROMOTION:
                gain += piece_value((flag & 3) + 1) * 16
            scored.append((-gain, frm, to, move))
        scored.sort()
        return [item[3] for item in scored]

    # --- the game's own searcher ------------------------------------------------------------

    def warm_up(self) -> None:
        """Load every kernel of the compiled core in this process, once (built into numba's
        cache, announced, the first time after an install: :func:`.warm.ready`). The library's
        searcher calls it before a search's clock starts, so that a first ``--time 1`` searches
        its whole second after the build instead of spending it on the build."""
        ready()

    def searcher_answers(self, request: SearchRequest) -> Iterator[SearchAnswer]:
        """The compiled engine's answers (:class:`.searcher.Searcher`), one after each
        completed iteration, under ``request``'s limits: its ``lines`` best moves each with a
        line (MultiPV), on ``request.threads`` threads (default 1) with a table of
        ``request.table_size`` entries of 16 bytes (default 2^20: 16 MiB). The engine (its
        table and history) is kept in ``request.memory`` for the next search."""
        engine = _engine(request)
        limits = Limits(
            depth=request.depth,
            nodes=request.max_nodes,
            movetime=None
            if request.deadline is None
            else max(request.deadline - time.perf_counter(), 0.001),
            infinite=request.deadline is None and request.depth is None and not request.max_nodes,
        )
        position = self.position
        for found in engine.iterate(position, limits, multipv=request.lines, stop=request.stop):
            yield SearchAnswer(
                lines=tuple(
                    SearchLine(line.pv, line.score, _plies_to_mate(line.score))
                    for line in found.lines
                ),
                depth=found.depth,
                seldepth=found.seldepth,
                nodes=found.nodes,
                complete=found.complete,
                interrupted=found.interrupted,
            )

    # --- notation -------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        assert isinstance(move, int)
        return Position.uci(move)

    def move_label(self, move: Move) -> str:
        """The move in SAN, for people (``Nf3``, ``exd5``, ``O-O``, ``Qh7#``)."""
        if self._san is None:
            self._san = self.position.san_all()
        label = self._san.get(move)  # type: ignore[call-overload]
        return label if label is not None else self.position.san(move)  # type: ignore[arg-type]

    def parse_move(self, text: str) -> int:
        """A legal move in UCI notation (``e2e4``, ``e7e8q``) or in SAN (``e4``, ``Nf3``)."""
        token = text.strip()
        position = self.position
        if self.outcome() is not None:
            raise IllegalMoveError(
                f"move {token!r} after the game has ended ({self.outcome()}) in {self}",
                text=token, position=str(self),
            )
        try:
            return position.parse_uci(token)
        except IllegalMoveError:
            raise IllegalMoveError(
                f"{token!r} is not a legal move in {position.fen()}", text=token, position=str(self)
            ) from None
        except InvalidMoveError:
            pass
        try:
            return position.parse_san(token)
        except IllegalMoveError as err:
            why = str(err).rpartition(" (")[2].rstrip(")") if str(err).endswith(")") else ""
            raise IllegalMoveError(
                f"{token!r} is not a legal move in {position.fen()}" + (f" ({why})" if why else ""),
                text=token, position=str(self),
            ) from None
        except InvalidMoveError:
            raise InvalidMoveError(
                f"{token!r} is not a chess move (UCI like e2e4 or e7e8q, or SAN like Nf3)",
                text=token, position=str(self),
            ) from None

    # --- value semantics ------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        """The same pieces, side to move, castling rights, en-passant square and halfmove
        clock (the moves that led here, and the move number, are not compared)."""
        if not isinstance(other, ChessState):
            return NotImplemented
        mine, theirs = self.position.array, other.position.array
        return (
            self.position.key == other.position.key
            and mine[P_HALF] == theirs[P_HALF]
            and bool(np.array_equal(mine[:P_SIDE], theirs[:P_SIDE]))
        )

    def __hash__(self) -> int:
        return self.position.key

    def __reduce__(self) -> tuple[Any, ...]:
        return (ChessState, (self.position,))

    def __str__(self) -> str:
        return self.position.fen()

    def __repr__(self) -> str:
        return f"ChessState({self.position.fen()!r})"


ChessState.game = Chess.the()


def _plies_to_mate(score: int) -> int | None:
    """Plies to mate of an engine score (positive: the side to move mates), or None."""
    if score >= MATE_BOUND:
        return MATE - score
    if score <= -MATE_BOUND:
        return -(MATE + score)
    return None


def _engine(request: SearchRequest) -> Searcher:
    """The engine kept in ``request.memory`` when it has the table size and threads asked for,
    else a new one kept there."""
    entries = request.table_size or 1 << 20
    megabytes = max(1, entries * ENTRY_BYTES >> 20)
    threads = request.threads or 1
    engine = request.memory.get(_ENGINE)
    if not isinstance(engine, Searcher) or (engine.hash_mb, engine.threads) != (megabytes, threads):
        engine = Searcher(hash_mb=megabytes, threads=threads)
        request.memory[_ENGINE] = engine
    return engine
