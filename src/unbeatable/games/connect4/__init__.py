"""Connect Four: exact solver over numba-compiled bitboards."""

from unbeatable.games.connect4.solver import DEFAULT_TABLE_BYTES, BatchResult, Solver

__all__ = ["DEFAULT_TABLE_BYTES", "BatchResult", "Solver"]
