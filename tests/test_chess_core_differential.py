"""The compiled chess core against python-chess as an oracle (issue 20): over positions from
random playouts (biased toward repetitions), self-play of our engine and games of our engine
against Stockfish, the two agree on the FEN, the legal moves, check, mate, stalemate, the draw
claims and the SAN of every legal move (which our parser reads back)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("chess", reason="python-chess (a test dependency) is not installed")
import chess
import chess.engine

from tests.helpers import STOCKFISH
from unbeatable.games.chess.core import Position, Termination
from unbeatable.games.chess.searcher import Limits, Searcher

Pairs = Iterator[tuple[chess.Board, Position]]

_TERMINATIONS = {
    chess.Termination.CHECKMATE: Termination.CHECKMATE,
    chess.Termination.STALEMATE: Termination.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: Termination.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: Termination.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: Termination.FIVEFOLD_REPETITION,
    chess.Termination.FIFTY_MOVES: Termination.FIFTY_MOVES,
    chess.Termination.THREEFOLD_REPETITION: Termination.THREEFOLD_REPETITION,
}


def agree(board: chess.Board, position: Position) -> None:
    """Everything the two say about one position is the same."""
    fen = board.fen()
    assert position.fen() == fen
    ours = {position.uci(m): m for m in position.legal_moves()}
    assert sorted(ours) == sorted(m.uci() for m in board.legal_moves), fen
    assert position.is_check() == board.is_check(), fen
    assert position.is_checkmate() == board.is_checkmate(), fen
    assert position.is_stalemate() == board.is_stalemate(), fen
    assert position.is_insufficient_material() == board.is_insufficient_material(), fen
    fifty = board.can_claim_fifty_moves()
    threefold = board.can_claim_threefold_repetition()  # (it tries every move: asked once)
    assert position.can_claim_fifty_moves() == fifty, fen
    assert position.can_claim_threefold_repetition() == threefold, fen
    assert (position.repetitions() >= 3) == board.is_repetition(3), fen
    plain = board.outcome()
    # with claims, python-chess's outcome is the plain one, or a claim's (fifty or threefold)
    claimed = (
        plain if plain is not None or not (fifty or threefold) else board.outcome(claim_draw=True)
    )
    for claim, outcome in ((False, plain), (True, claimed)):
        want = None if outcome is None else _TERMINATIONS[outcome.termination]
        assert position.termination(claim_draw=claim) == want, fen
    for move, san in position.san_all().items():
        assert san == board.san(chess.Move.from_uci(position.uci(move))), fen
        assert position.parse_san(san) == move, (fen, san)


def random_games(rng: random.Random, games: int, plies: int, back: float = 0.33) -> Pairs:
    """Positions of random games; a share ``back`` of the moves, where it can, takes back the
    mover's last move (a knight back home, a rook back), so that positions repeat and draws get
    claimed. Without it, random games mostly end in bare endings (insufficient material)."""
    for _ in range(games):
        board, position = chess.Board(), Position.initial()
        yield board, position
        for _ in range(plies):
            if board.is_game_over():
                break
            legal = list(board.legal_moves)
            move = rng.choice(legal)
            if len(board.move_stack) >= 2 and rng.random() < back:
                last = board.move_stack[-2]
                reverse = chess.Move(last.to_square, last.from_square)
                if reverse in legal and not board.is_capture(reverse):
                    move = reverse
            board.push(move)
            position = position.play_uci(move.uci())
            yield board, position


def _count(pairs: Pairs) -> int:
    n = 0
    for board, position in pairs:
        agree(board, position)
        n += 1
    return n


@pytest.mark.slow
def test_random_playouts_agree_with_python_chess() -> None:
    assert _count(random_games(random.Random(1), 4, 150)) >= 400


@pytest.mark.slow
def test_ten_thousand_random_positions_agree_with_python_chess() -> None:
    rng = random.Random(2)
    n = _count(random_games(rng, 20, 400)) + _count(random_games(rng, 15, 800, back=0.0))
    assert n >= 10_000


def self_play(rng: random.Random, games: int, nodes: int) -> Pairs:
    """Our engine against itself from random openings (four random plies)."""
    searcher = Searcher(hash_mb=4)
    for _ in range(games):
        board, position = chess.Board(), Position.initial()
        searcher.clear()
        yield board, position
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 300:
            if len(board.move_stack) < 4:
                move = rng.choice(position.legal_moves())
            else:
                result = searcher.search(position, Limits(nodes=nodes))
                assert result.best is not None and result.best in position.legal_moves()
                move = result.best
            board.push_uci(position.uci(move))
            position = position.play(move)
            yield board, position


@pytest.mark.slow
def test_self_play_positions_agree_with_python_chess() -> None:
    assert _count(self_play(random.Random(3), 12, 3_000)) >= 1_000


def stockfish_games(rng: random.Random, games: int) -> Pairs:
    """Our engine (node-limited) against Stockfish (depth-limited), colours alternating."""
    assert STOCKFISH is not None
    searcher = Searcher(hash_mb=4)
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        for game in range(games):
            board, position = chess.Board(), Position.initial()
            searcher.clear()
            yield board, position
            while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 300:
                if len(board.move_stack) < 2:
                    move = rng.choice(position.legal_moves())
                elif len(board.move_stack) % 2 == game % 2:
                    best = searcher.search(position, Limits(nodes=3_000)).best
                    assert best is not None
                    move = best
                else:
                    played = engine.play(board, chess.engine.Limit(depth=rng.choice([1, 3, 6])))
                    assert played.move is not None
                    move = position.parse_uci(played.move.uci())
                board.push_uci(position.uci(move))
                position = position.play(move)
                yield board, position


@pytest.mark.slow
@pytest.mark.skipif(
    STOCKFISH is None, reason="Stockfish is not installed (apt-get install stockfish)"
)
def test_games_against_stockfish_agree_with_python_chess() -> None:
    assert _count(stockfish_games(random.Random(4), 8)) >= 500
