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
* ``list``: any other game (a user's own, registered in Python or served with ``--game``, the
  bear-off race, Shut the Box): its picture as text, and the legal moves as buttons.

A game of chance or of more players is described the same way, with more: how many players
(``players``) and who made each move (``movers``: a player's index, or None for a roll), and
where the dice are to roll, every outcome with its probability (``chance``), so that the page
can roll them (or ask the server to) and show the last roll (``rolled``).

Every description also holds the legal moves in the game's notation and as people read them
(:meth:`~unbeatable.game.State.move_label`: SAN for chess), the moves played so far likewise,
whose turn it is and how the game ended, so that the page needs no rules of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game import FIRST, Game, State, player_name
from ..games import MNK, Connect4, Connect4State, Hex, HexState, MNKState, SubtractionState
from ..games.mnk import MARKS, MNKPartyState
from ..games.subtraction import Subtraction
from ..search import policy
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
        "params": [
            {"name": p, "default": game.params.get(p, getattr(game, p, None))} for p in params
        ],
        "board": _kind(game),
        "available": True,
        # a game too large to solve (or too slow to solve on the page: 5 x 5 Hex): how long
        # its opponent thinks a move (the library's time), and whether a search solves it
        "move_time": game.initial().thinking_time("move"),
        "too_large": policy.too_large(game.initial()),
        "players": game.initial().players,
        "chance": game.initial().has_chance,
    }


def describe_unavailable(name: str, summary: str, reason: str) -> dict[str, Any]:
    """A registered game that cannot be made here (a user's game whose module fails to load):
    listed, with the reason, so that the page can say what is missing."""
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
        # a game too large to solve (this size of it), or too slow to solve on the page: how
        # long the AI thinks a move, and whether a search solves it
        "move_time": state.thinking_time("move"),
        "too_large": policy.too_large(state),
        "players": state.players,
        "movers": list(where.movers),
        "chance": _chance(state),
        "rolled": _rolled(where),
    }
    if isinstance(game, MNK) and isinstance(state, MNKState):
        data["board"] = _grid(game, state)
    elif isinstance(game, MNK) and isinstance(state, MNKPartyState):
        data["board"] = _party_grid(game, state)
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


def _chance(state: State) -> list[dict[str, Any]] | None:
    """Where the dice are to roll: every outcome, as a move and as people read it, with its
    probability; else None."""
    if not state.is_chance:
        return None
    return [
        {"move": state.move_text(m), "label": state.move_label(m), "probability": float(p)}
        for m, p in state.chance_outcomes()
    ]


def _rolled(where: Position) -> str | None:
    """The last roll of the dice, as people read it, while it is the turn it was rolled for
    (no player has moved since); else None."""
    for mover, label in zip(reversed(where.movers), reversed(where.labels), strict=False):
        if mover is None:
            return label
        return None
    return None


def _grid(game: MNK, state: MNKState) -> dict[str, Any]:
    """The grid of an m,n,k game: each cell ``x``, ``o`` or ``""``; the winner's line."""
    first, second = state.first, state.second
    return _mnk_board(
        game,
        state,
        lambda index: "x" if first >> index & 1 else "o" if second >> index & 1 else "",
        lambda winner: first if winner == FIRST else second,
    )


def _party_grid(game: MNK, state: MNKPartyState) -> dict[str, Any]:
    """The grid of an m,n,k game of more players: each cell its player's mark (``x``, ``o``,
    ``v``, ...) or ``""``; the winner's line."""
    board = _mnk_board(
        game,
        state,
        lambda index: "" if (mark := state.mark(index)) == "." else mark,
        lambda winner: state.stones[winner],
    )
    board["marks"] = list(MARKS[: game.players])
    return board


def _mnk_board(
    game: MNK,
    state: MNKState | MNKPartyState,
    mark: Callable[[int], str],
    stones_of: Callable[[int], int],
) -> dict[str, Any]:
    """An m,n,k grid: ``mark(index)`` is a cell's mark (``""`` when empty), ``stones_of(winner)``
    the winner's stones, whose line is marked."""
    outcome = state.outcome()
    cells: list[list[str]] = []
    cell_moves: list[list[str | None]] = []
    for r in range(game.m):
        row, row_moves = [], []
        for c in range(game.n):
            index = r * game.n + c
            stone = mark(index)
            row.append(stone)
            row_moves.append(None if stone or outcome else state.move_text(index))
        cells.append(row)
        cell_moves.append(row_moves)
    line = 0
    if outcome is not None and outcome.winner is not None:
        stones = stones_of(outcome.winner)
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
    from ..games.chess.game import ChessState

    assert isinstance(state, ChessState)
    position = state.position
    squares = [
        [position.piece_at(rank * 8 + file) or "" for file in range(8)]
        for rank in range(7, -1, -1)
    ]
    legal = []
    for move in state.legal_moves():
        text = state.move_text(move)
        legal.append(
            {
                "move": text,
                "from": text[:2],
                "to": text[2:4],
                "promotion": text[4:] or None,
                "san": state.move_label(move),
            }
        )
    last = None
    if moves:
        text = moves[-1]
        last = {"from": text[:2], "to": text[2:4]}
    check = None
    if position.is_check():
        king = next(sq for sq in range(64) if position.piece_at(sq) == "Kk"[position.turn])
        check = f"{'abcdefgh'[king & 7]}{(king >> 3) + 1}"
    return {
        "kind": "chess",
        "fen": position.fen(),
        "squares": squares,
        "turn": "white" if position.turn == 0 else "black",
        "moves": legal,
        "last": last,
        "check": check,
        "end": _chess_end(state),
        "fullmove": position.fullmove_number,
    }


def _chess_end(state: Any) -> str | None:
    """Why a chess game ended, for people, or None while it goes on (the game's own
    :meth:`~unbeatable.game.State.outcome` decides; this names its reason)."""
    outcome = state.outcome()
    if outcome is None:
        return None
    position = state.position
    if not position.legal_moves():
        return "checkmate" if position.is_check() else "stalemate"
    if position.is_insufficient_material():
        return "insufficient material"
    if position.halfmove_clock >= 100:
        return "the fifty-move rule"
    return "threefold repetition"
