"""Warming the chess core: :func:`warm_up` calls every kernel of the rules and the engine
once, so that numba compiles them all (saying so: :mod:`unbeatable.kernels`) or loads them
from its cache; ``unbeatable warm chess`` calls it. :func:`ready` calls it once a process: the
library's searcher does before a search's clock starts (see :meth:`.game.ChessState.warm_up`).
The group is :data:`._cache.KERNELS`.

Nothing here imports the kernels until :func:`warm_up` runs.
"""

from __future__ import annotations

import threading
import time

from ...kernels import building, register
from ._cache import KERNELS

__all__ = ["ready", "warm_up"]

#: castling both ways, en passant, promotions, checks: most move kinds within two plies
_KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def warm_up() -> float:
    """Call every kernel of the chess core once (building them into numba's cache the first
    time); return the seconds it took."""
    start = time.perf_counter()
    with building(KERNELS):
        from .core import Position, perft
        from .searcher import Limits, Searcher

        position = Position.from_fen(_KIWIPETE)
        perft(position, 2)
        position.san_all()
        position.parse_san("O-O")
        position.parse_uci("e1g1")
        position.termination(claim_draw=True)
        position.play(position.legal_moves()[0]).is_checkmate()
        position.evaluate()  # the generic engine's evaluation of chess
        found = Searcher(hash_mb=1, threads=1).search(Position.initial(), Limits(depth=3))
        if found.interrupted:  # the searcher ends a search quietly on Ctrl-C; a warm-up must
            raise KeyboardInterrupt  # not (a cold match heard it, then played on to exit 0)
    return time.perf_counter() - start


_READY = threading.Event()
_LOCK = threading.Lock()


def ready() -> None:
    """:func:`warm_up` once in this process: every later call returns at once."""
    if _READY.is_set():
        return
    with _LOCK:
        if not _READY.is_set():
            warm_up()
            _READY.set()


register(KERNELS, warm_up)
