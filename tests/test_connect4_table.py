"""The Connect Four solver's transposition-table layout (see ``_kernel``): every live entry of a
searched table decodes back to its position, sits in the region its depth says, is filed under
the smaller of the position's and its mirror image's keys, holds a true bound and a legal best
move; the best move is used; small tables (the old layout) stay exact."""

from __future__ import annotations

import random

import numpy as np
import pytest

from unbeatable.games.connect4 import _kernel as K
from unbeatable.games.connect4._board import MIRROR_STONES, SHALLOW_EMPTY, mirror
from unbeatable.games.connect4.solver import Solver

W, H = 7, 6
CELLS = W * H
INVERSE = pow(int(K.HASH_MUL), -1, 1 << 64)  # the hash is a bijection: undo it
START = "5455745355"  # 10 stones, score -2: about 0.7 M nodes
BIG = 1 << 21  # slots: a split table (the shallow region is its first 2**20 slots)


def decode(key: int) -> tuple[int, int, int]:
    """``(current, mask, stones)`` of the position of key ``current + mask``: a column of ``k``
    stones holds a value in ``[2**k - 1, 2**(k + 1) - 2]``."""
    current = mask = stones = 0
    for col in range(W):
        seg = (key >> (col * (H + 1))) & ((1 << (H + 1)) - 1)
        k = (seg + 1).bit_length() - 1
        full = (1 << k) - 1
        assert full <= seg <= 2 * full, f"column {col} of key {key:#x} is no column"
        mask |= full << (col * (H + 1))
        current |= (seg - full) << (col * (H + 1))
        stones += k
    return current, mask, stones


def live_entries(solver: Solver) -> list[tuple[int, int]]:
    """``(slot, entry)`` of every entry of the solver's current generation."""
    table = solver.table
    gen = (table >> np.uint64(8)) & np.uint64(255)
    slots = np.flatnonzero(gen == solver.generation)
    return [(int(i), int(table[i])) for i in slots]


def entry_position(slot: int, entry: int, slots: int) -> tuple[int, int, int, bool]:
    """The position an entry of a split table belongs to, and whether it is a shallow one."""
    bits = slots.bit_length() - 1
    shallow = bool(entry & (1 << 19))
    low = entry >> 20  # the low 44 bits of the hash
    top_bits = 20 if shallow else bits
    assert slot < 1 << top_bits
    overlap = top_bits - 20  # the slot index and the stored bits share this many bits
    assert low >> (44 - overlap) == slot & ((1 << overlap) - 1), "slot and key disagree"
    h = (slot << (64 - top_bits)) | low
    current, mask, stones = decode(h * INVERSE % (1 << 64))
    return current, mask, stones, shallow


@pytest.fixture(scope="module")
def searched() -> Solver:
    solver = Solver(table_bytes=8 * BIG, book=False)
    assert solver.solve(START) == -2
    return solver


def test_every_entry_decodes_to_a_position_of_its_region_filed_under_its_smaller_mirror(
    searched: Solver,
) -> None:
    entries = live_entries(searched)
    assert len(entries) > 10_000
    shallow_count = deep_in_shallow_region = 0
    for slot, entry in entries:
        current, mask, stones, shallow = entry_position(slot, entry, searched.table_slots)
        empty = CELLS - stones
        assert stones >= len(START) and empty > K.NO_TABLE_EMPTY
        assert shallow == (empty <= SHALLOW_EMPTY)
        assert current & ~mask == 0
        key = current + mask
        if stones <= MIRROR_STONES:
            assert key <= int(mirror(np.uint64(key), W, H))
        shallow_count += shallow
        deep_in_shallow_region += not shallow and slot < 1 << 20
    assert shallow_count > 0 and deep_in_shallow_region > 0  # both kinds share that region


def test_best_moves_are_legal_and_bounds_true(searched: Solver) -> None:
    entries = live_entries(searched)
    bottom, board = K.bottom_mask(W, H), K.board_mask(W, H)
    with_best = 0
    for slot, entry in entries:
        best = (entry >> 16) & 7
        if best:
            with_best += 1
            current, mask, _, _ = entry_position(slot, entry, searched.table_slots)
            index = best - 1  # centre-first: 3, 2, 4, 1, 5, 0, 6
            col = W // 2 + index // 2 if index % 2 == 0 else W // 2 - (index + 1) // 2
            moves = int(K.non_losing_moves(np.uint64(current), np.uint64(mask), H, bottom, board))
            assert moves & int(K.column_mask(col, H)), f"best move {col} not playable"
    assert with_best > len(entries) // 4
    checker = Solver(table_bytes=1 << 20, book=False)
    rng = random.Random(7)
    for slot, entry in rng.sample(entries, 120):
        current, mask, stones, _ = entry_position(slot, entry, searched.table_slots)
        score = checker.solve_bitboards(current, mask, stones)
        code = entry & 255
        if code < 128:
            assert score <= code - K.UPPER_CODE, f"upper bound {code - K.UPPER_CODE} < {score}"
        else:
            assert score >= code - K.LOWER_CODE, f"lower bound {code - K.LOWER_CODE} > {score}"


def test_a_planted_best_move_is_searched_first() -> None:
    """The root's entry names its best move: a useless bound with another best move changes
    the search (its node count), never the score."""
    solver = Solver(table_bytes=8 * BIG, book=False)
    moves = START
    current, mask, stones = solver._position(moves)
    if int(mirror(np.uint64(current + mask), W, H)) < current + mask:
        moves = "".join(str(W + 1 - int(c)) for c in moves)  # the one filed under its own key
        current, mask, stones = solver._position(moves)
    key = current + mask
    assert key <= int(mirror(np.uint64(key), W, H))
    h = key * int(K.HASH_MUL) % (1 << 64)
    slot = h >> (64 - (BIG.bit_length() - 1))
    nodes = {}
    for index in (0, 5, 6):  # columns 4, 1, 7
        solver.reset()
        lower = -((CELLS - stones) // 2)  # a lower bound that proves nothing
        tag = ((h << 20) % (1 << 64)) | (index + 1) << 16 | solver.generation << 8
        solver.table[slot] = np.uint64(tag | (lower + K.LOWER_CODE))
        assert solver.solve(moves) == -2
        nodes[index] = solver.nodes
    assert len(set(nodes.values())) == 3, nodes


@pytest.mark.parametrize("slots", [1 << 16, 1 << 17, 1 << 19])
def test_small_tables_keep_the_plain_layout_and_stay_exact(slots: int) -> None:
    small = Solver(table_bytes=8 * slots, book=False)
    assert small.table_slots == slots
    assert small.solve(START) == -2
    bits = slots.bit_length() - 1
    overlap = bits - 16  # the slot index and the stored 48 bits of the hash share these
    entries = live_entries(small)
    assert len(entries) > slots // 4
    for slot, entry in entries:
        low = entry >> 16
        assert low >> (48 - overlap) == slot & ((1 << overlap) - 1), "slot and key disagree"
        current, mask, stones = decode(((slot << (64 - bits)) | low) * INVERSE % (1 << 64))
        assert CELLS - stones > K.NO_TABLE_EMPTY
        if stones <= MIRROR_STONES:
            key = current + mask
            assert key <= int(mirror(np.uint64(key), W, H))
