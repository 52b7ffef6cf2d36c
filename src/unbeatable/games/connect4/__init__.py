"""Connect Four: the game (bitboards, notation, evaluation) and its exact solver.

The modules (the game reaches the solver through ``hooks``, and nothing on the solver's side
imports the game back; docs/connect4.md says more):

* ``game``: the rules, the notation and the evaluation (:class:`Connect4`,
  :class:`Connect4State`), with ``fours`` (fours in a row on bitboards) and ``picture``
  (reading a board picture, refusing one that play cannot reach);
* ``hooks``: what the state's solver hooks answer, from ``book`` (the opening book, which
  ``book_build`` makes) or this process's solver; ``exact`` is its old name;
* ``solver``: :class:`Solver`, the Python API of the compiled solver, with ``_moves`` (move
  strings), ``_memory`` (the table's memory), ``_threads`` (one search on several threads)
  and ``database`` (BitBully's 12-stone database);
* the numba kernels: ``_batch`` (move strings, many positions in one call), ``_line`` (a
  principal variation), ``_columns`` (every column of a position), ``_negamax`` (the search),
  ``_database_probe``, ``_table`` (the transposition table's layout) and ``_bitboard``;
  ``_cache`` keeps numba's cache of them in step with their sources.

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
