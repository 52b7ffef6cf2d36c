"""Connect Four: the game (bitboards, notation, evaluation) and its exact solver.

The solver (numba-compiled) is imported on first use, so that loading the game registry stays
quick: ``from unbeatable.games.connect4 import Solver`` works all the same.
"""

from __future__ import annotations

from typing import Any

from .game import Connect4, Connect4State, connect4

__all__ = ["DEFAULT_TABLE_BYTES", "BatchResult", "Connect4", "Connect4State", "Solver", "connect4"]

_SOLVER_NAMES = ("DEFAULT_TABLE_BYTES", "BatchResult", "Solver")


def __getattr__(name: str) -> Any:
    if name in _SOLVER_NAMES:
        from . import solver

        return getattr(solver, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
