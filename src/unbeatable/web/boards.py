"""What the page draws: a position as plain data, one kind of board per kind of game.

* ``grid`` (m,n,k games, tic-tac-toe): ``rows`` x ``cols`` cells, each ``"x"``, ``"o"`` or
  ``""``, with the move that fills each empty cell; a click on a cell plays it.
* ``columns`` (Connect Four): the same cells, top row first, and one move per column.
* ``pile`` (subtraction): the tokens left and how many a move may take.
* ``hex`` (Hex): ``size`` x ``size`` cells like ``grid``'s, drawn as hexagons with each row
  half a cell right of the one above; ``x`` joins top and bottom, ``o`` left and right; ``win``
  is the winner's chain; ``swap`` the swap move's notation while it is legal, else None.
* ``chess``: the 64 squares (rank 8 first, as White sees the board), every legal move with its
  from and to squares, promotion piece and SAN, the last move, the king in check and how the
  game ended (checkmate, stalemate, the 50-move rule, threefold repetition, insufficient
  material).
* ``list``: any other game (a user's own, registered in Python): its picture as text, and the
  legal moves as buttons.

Every description also holds the legal moves in the game's notation and as people read them
(:meth:`~unbeatable.game.State.move_label`: SAN for chess), the moves played so far likewise,
whose turn it is and how the game ended, so that the page needs no rules of its own.
"""

from __future__ import annotations

from typing import Any

from ..game import FIRST, Game, State, player_name
from ..games import MNK, Connect4, Connect4State, Hex, HexState, MNKState, SubtractionState
from ..games.subtraction import Subtraction
from .inputs import Position, is_chess

__all__ = ["describe_game", "describe_position", "describe_unavailable"]


def describe_game(name: str, summary: str, game: Game) -> dict[str, Any]:
    """A registered game as the game picker shows it: its parameters (as the registry's
    summary names them) with their defaults (the parameters of ``game``, made without any)."""
    summary, _, names = summary.partition(" (parameters: ")
    params = [p.strip() for p in names.rstrip(")").split(",") if p.strip()]
    return {
        "name": name,
        "spec": game.spec,
        "summary": summary,
        "params": [{"name": p, "default": game.params.get(p)} for p in params],
        "board": _kind(game),
        "available": True,
        # a game too large to solve: how long its opponent thinks a move (the library's time)
        "move_time": game.initial().thinking_time("move"),
    }


def describe_unavailable(name: str, summary: str, reason: str) -> dict[str, Any]:
    """A registered game that cannot be made here (chess without its extra): listed, with the
    reason, so that the page can say what to install."""
    summary = summary.partition(" (parameters: ")[0]
    return {
        "name": name,
        "spec": name,
        "summary": summary,
        "params": [],
        "board": "list",
        "available": False,
        "error": reason,
    }


def _kind(game: Game) -> str:
    if isinstance(game, MNK):
        return "grid"
    if isinstance(game, Connect4):
        return "columns"
    if isinstance(game, Subtraction):
        return "pile"
    if isinstance(game, Hex):
        return "hex"
    if is_chess(game):
        return "chess"
    return "list"


def describe_position(where: Position) -> dict[str, Any]:
    """The position ``where``: the board to draw, the legal moves, who is to move."""
    game, state = where.game, where.state
    outcome = state.outcome()
    winner = None if outcome is None else outcome.winner
    legal = list(state.legal_moves())
    data: dict[str, Any] = {
        "game": game.spec,
        "moves": list(where.moves),
        "labels": list(where.labels),
        "start": where.start,
        "ply": len(where.moves),
        "to_move": player_name(state.to_move),
        "to_move_index": state.to_move,
        "over": outcome is not None,
        "outcome": None if outcome is None else str(outcome),
        "winner": None if winner is None else player_name(winner),
        "legal": [state.move_text(m) for m in legal],
        "legal_labels": [state.move_label(m) for m in legal],
        "picture": game.picture(state),
        # a game too large to solve (this size of it): how long the AI thinks a move
        "move_time": state.thinking_time("move"),
    }
    if isinstance(game, MNK) and isinstance(state, MNKState):
        data["board"] = _grid(game, state)
    elif isinstance(game, Connect4) and isinstance(state, Connect4State):
        data["board"] = _columns(game, state)
    elif isinstance(game, Hex) and isinstance(state, HexState):
        data["board"] = _hex(game, state)
    elif isinstance(state, SubtractionState):
        data["board"] = {"kind": "pile", "pile": state.pile, "take": state.take}
    elif is_chess(game):
        data["board"] = _chess(state, where.moves)
    else:
        data["board"] = {"kind": "list"}
    return data


def _grid(game: MNK, state: MNKState) -> dict[str, Any]:
    outcome = state.outcome()
    cells: list[list[str]] = []
    cell_moves: list[list[str | None]] = []
    for r in range(game.m):
        row, row_moves = [], []
        for c in range(game.n):
            index = r * game.n + c
            stone = "x" if state.first >> index & 1 else "o" if state.second >> index & 1 else ""
            row.append(stone)
            row_moves.append(None if stone or outcome else state.move_text(index))
        cells.append(row)
        cell_moves.append(row_moves)
    line = 0
    if outcome is not None and outcome.winner is not None:
        stones = state.first if outcome.winner == FIRST else state.second
        line = next((w for w in game.lines if stones & w == w), 0)
    win = [[r, c] for r in range(game.m) for c in range(game.n) if line >> (r * game.n + c) & 1]
    return {
        "kind": "grid",
        "rows": game.m,
        "cols": game.n,
        "cells": cells,
        "cell_moves": cell_moves,
        "win": win,
    }


def _hex(game: Hex, state: HexState) -> dict[str, Any]:
    n = game.size
    over = state.outcome() is not None
    cells: list[list[str]] = []
    cell_moves: list[list[str | None]] = []
    for r in range(n):
        row, row_moves = [], []
        for c in range(n):
            index = r * n + c
            stone = "x" if state.first >> index & 1 else "o" if state.second >> index & 1 else ""
            row.append(stone)
            row_moves.append(None if stone or over else state.move_text(index))
        cells.append(row)
        cell_moves.append(row_moves)
    chain = 0
    outcome = state.outcome()
    if outcome is not None and outcome.winner is not None:
        stones = state.first if outcome.winner == FIRST else state.second
        start, _ = game.edges[outcome.winner]
        chain = game.chain(stones & start, stones)
    return {
        "kind": "hex",
        "rows": n,
        "cols": n,
        "cells": cells,
        "cell_moves": cell_moves,
        "win": [[r, c] for r in range(n) for c in range(n) if chain >> (r * n + c) & 1],
        "swap": state.move_text(game.swap_move) if state.can_swap else None,
    }


def _columns(game: Connect4, state: Connect4State) -> dict[str, Any]:
    first, second = state.stones()
    h1 = game.height + 1
    cells: list[list[str]] = []
    for r in range(game.height - 1, -1, -1):
        cells.append(
            [
                "x" if first >> (c * h1 + r) & 1 else "o" if second >> (c * h1 + r) & 1 else ""
                for c in range(game.width)
            ]
        )
    legal = set(state.legal_moves())
    column_moves = [state.move_text(c) if c in legal else None for c in range(game.width)]
    line = 0
    outcome = state.outcome()
    if outcome is not None and outcome.winner is not None:
        stones = first if outcome.winner == FIRST else second
        line = next((w for w in game.windows if stones & w == w), 0)
    win = [
        [game.height - 1 - r, c]
        for c in range(game.width)
        for r in range(game.height)
        if line >> (c * h1 + r) & 1
    ]
    return {
        "kind": "columns",
        "rows": game.height,
        "cols": game.width,
        "cells": cells,
        "column_moves": column_moves,
        "win": win,
    }


def _chess(state: State, moves: tuple[str, ...]) -> dict[str, Any]:
    """The chess board: squares from a8 to h1 (``"P"`` a white pawn, ``"k"`` the black king,
    ``""`` empty), the legal moves with their squares, the last move, the king in check."""
    import chess  # loaded already: a chess state exists

    from ..games.chess.game import ChessState

    assert isinstance(state, ChessState)
    board = state.board
    squares = [
        [_symbol(board.piece_at(chess.square(file, rank))) for file in range(8)]
        for rank in range(7, -1, -1)
    ]
    legal = []
    for move in state.legal_moves():
        assert isinstance(move, chess.Move)
        legal.append(
            {
                "move": move.uci(),
                "from": chess.square_name(move.from_square),
                "to": chess.square_name(move.to_square),
                "promotion": None if move.promotion is None else chess.piece_symbol(move.promotion),
                "san": board.san(move),
            }
        )
    last = None
    if moves:
        text = moves[-1]
        last = {"from": text[:2], "to": text[2:4]}
    check = None
    if board.is_check():
        king = board.king(board.turn)
        check = None if king is None else chess.square_name(king)
    return {
        "kind": "chess",
        "fen": board.fen(),
        "squares": squares,
        "turn": "white" if board.turn == chess.WHITE else "black",
        "moves": legal,
        "last": last,
        "check": check,
        "end": _chess_end(state),
        "fullmove": board.fullmove_number,
    }


def _symbol(piece: Any) -> str:
    return "" if piece is None else str(piece.symbol())


def _chess_end(state: Any) -> str | None:
    """Why a chess game ended, for people, or None while it goes on (the game's own
    :meth:`~unbeatable.game.State.outcome` decides; this names its reason)."""
    outcome = state.outcome()
    if outcome is None:
        return None
    board = state.board
    if not any(board.generate_legal_moves()):
        return "checkmate" if board.is_check() else "stalemate"
    if board.is_insufficient_material():
        return "insufficient material"
    if board.halfmove_clock >= 100:
        return "the fifty-move rule"
    return "threefold repetition"
