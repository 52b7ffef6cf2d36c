"""``python -m unbeatable.games.connect4``: load the 7 x 6 solver, compiling its kernels into
numba's cache the first time (once after an install), so that the first game or analysis does
not pay for it (``unbeatable warm connect4`` does the same). Ctrl-C ends it with one line and
exit code 130 (:func:`unbeatable.__main__.guarded`) once this module runs; the packages above it
(``unbeatable.games``) are imported before that."""

from __future__ import annotations

if __name__ == "__main__":
    from unbeatable.__main__ import guarded

    guarded("unbeatable.games.connect4.__main__")  # imports this module by name: main() below


def main() -> int:
    """Load (or build) the solver's kernels and say how long it took."""
    from .hooks import warm_up

    print(f"Connect Four solver ready in {warm_up():.1f} s")
    return 0
