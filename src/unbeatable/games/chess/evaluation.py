"""The chess evaluation, as the game's :meth:`~.game.ChessState.evaluate` gives it: the
compiled engine's own (``_eval.evaluate``), so that the generic engine and the game's own
searcher judge a position alike.

Material and piece-square tables tapered between the middle game and the end game by the
material left (the published PeSTO values, Ronald Friederich's, as the Chess Programming Wiki
gives them: data in ``_pesto``), and the terms a measured match kept (mobility, king safety,
passed pawns, pawn structure, rooks on open files, the bishop pair, threats: ``_eval.terms``,
weights in ``_weights``), from the side to move's view, in centipawns (docs/chess.md).
"""

from __future__ import annotations

from ._pesto import MG_VALUE
from .core import Position

__all__ = ["evaluate", "piece_value"]


def piece_value(kind: int) -> int:
    """A piece's material in the middle game, by the core's kind (0 pawn, 1 knight, 2 bishop,
    3 rook, 4 queen, 5 king: 0), for ordering captures."""
    return MG_VALUE[kind]


def evaluate(position: Position) -> int:
    """``position`` from the side to move's view, in centipawns."""
    return position.evaluate()
