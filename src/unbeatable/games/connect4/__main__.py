"""``python -m unbeatable.games.connect4``: load the 7 x 6 solver, compiling its kernels into
numba's cache the first time (once after an install), so that the first game or analysis does
not pay for it."""

from __future__ import annotations

from .hooks import warm_up

if __name__ == "__main__":
    print(f"Connect Four solver ready in {warm_up():.1f} s")
