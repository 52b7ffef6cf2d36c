"""The Connect Four solver's Python around its compiled search: the bit operations in Python's
integers (``_bits``) against the kernels' own (``_bitboard``, ``_table``), on positions of
random games on boards of several sizes, a 64-bit one included (the kernels run as plain Python
there, numba off, in a fresh interpreter, so that no kernel is compiled for the comparison);
and what a cold load of the solver compiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cold_compiles
from tests.nojit import run_without_jit
from unbeatable.games.connect4 import hooks

CHECK = """
import random
import numba
import numpy as np
from unbeatable.games.connect4 import _bits, _bitboard as K, _table as T

assert numba.config.DISABLE_JIT
np.seterr(over="ignore")  # the kernels' hash wraps around, as in the compiled code
rng = random.Random(7)
U = np.uint64
checked = 0
for width, height in ((7, 6), (8, 7), (4, 4), (5, 4), (2, 9), (1, 12), (12, 2), (9, 3)):
    bottom = _bits.bottom_mask(width, height)
    board = _bits.board_mask(width, height)
    assert bottom == int(K.bottom_mask(width, height))
    assert board == int(K.board_mask(width, height))
    for col in range(width):
        assert _bits.column_mask(col, height) == int(K.column_mask(col, height))
    for _ in range(25):
        current = mask = 0
        for stones in range(width * height):
            u_cur, u_mask, u_bottom, u_board = U(current), U(mask), U(bottom), U(board)
            for p in (current, current ^ mask):
                want = int(K.winning_cells(U(p), u_mask, height, u_board))
                assert _bits.winning_cells(p, mask, height, board) == want
            assert _bits.possible_moves(mask, bottom, board) == int(
                K.possible_moves(u_mask, u_bottom, u_board)
            )
            win = bool(K.can_win_next(u_cur, u_mask, height, u_bottom, u_board))
            assert _bits.can_win_next(current, mask, height, bottom, board) == win
            if not win:
                assert _bits.non_losing_moves(current, mask, height, bottom, board) == int(
                    K.non_losing_moves(u_cur, u_mask, height, u_bottom, u_board)
                )
            key = current + mask
            for slots, region in (
                (1 << 16, 0), (1 << 17, 0), (1 << 20, 0), (1 << 20, 1 << 18), (1 << 27, 0),
            ):  # fmt: skip
                h = T.table_key(U(key), stones, width, height) * T.HASH_MUL
                shift = T.table_shift(slots)
                slot, tag = T.table_place(
                    h, width * height - stones, shift, U(region), T.shallow_empty(height, shift)
                )
                got = _bits.table_place(key, stones, width, height, slots, region)
                assert got == (int(slot), int(tag)), (width, height, key, stones, slots)
            checked += 1
            if win:
                break
            moves = [c for c in range(width) if _bits.column_mask(c, height) & ~mask]
            m = _bits.possible_moves(mask, bottom, board) & _bits.column_mask(
                rng.choice(moves), height
            )
            current, mask = current ^ mask, mask | m
print(checked)
"""


def test_python_bit_operations_match_the_kernels() -> None:
    assert int(run_without_jit(CHECK)) > 1200  # positions checked


@pytest.mark.slow
def test_a_cold_load_compiles_the_search_and_its_helpers_once_each(tmp_path: Path) -> None:
    """What the solver's loading builds with an empty cache: ``negamax`` (without the rules)
    and the few kernels it calls, each once (a Python caller passing other argument types
    would compile another), and as many as the group declares (the live line's total)."""
    found, cached = cold_compiles(
        "unbeatable.games.connect4.hooks", "unbeatable.games.connect4.hooks.load_solver", tmp_path,
        timeout=600,
    )  # fmt: skip
    compiled = [name.rsplit(".", 1)[-1] for name in found]
    assert "negamax" in compiled
    assert len(compiled) == len(set(compiled)), compiled  # no kernel twice
    assert not {"score_map", "best_map", "principal_line", "solve_batch"} & set(compiled)
    # the search with the rules is compiled by the first deep solve without a database only
    assert not {"negamax_rules", "fail_high", "has_four"} & set(compiled)
    assert cached == len(compiled) == hooks.KERNELS.kernels
