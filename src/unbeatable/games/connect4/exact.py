"""The old name of :mod:`.hooks` (the solver behind the game's solver hooks), kept for a while:
importing it warns. ``python -m unbeatable.games.connect4`` warms the solver up."""

from __future__ import annotations

if __name__ == "__main__":  # as ``python -m unbeatable.games.connect4``, with its Ctrl-C
    from unbeatable.__main__ import guarded

    guarded("unbeatable.games.connect4.__main__")

import warnings

from .hooks import (
    LINE_NODES,
    QUICK_NODES,
    QUICK_PLIES,
    line,
    line_costs,
    move_values,
    ready_solver,
    solver_for,
    value,
    warm_up,
)

__all__ = [
    "LINE_NODES",
    "QUICK_NODES",
    "QUICK_PLIES",
    "line",
    "line_costs",
    "move_values",
    "ready_solver",
    "solver_for",
    "value",
    "warm_up",
]

if __name__ != "__main__":
    warnings.warn(
        "unbeatable.games.connect4.exact is deprecated: use unbeatable.games.connect4.hooks",
        DeprecationWarning,
        stacklevel=2,
    )
