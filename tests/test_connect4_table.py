"""The Connect Four solver's transposition-table layout (see ``_table``): every live entry of a
searched table decodes back to its position, sits in the region its depth says, is filed under
the smaller of the position's and its mirror image's keys and holds a true bound; small tables
(the plain layout) too."""

from __future__ import annotations

import random

import numpy as np
import pytest

from unbeatable.games.connect4 import _table as T
from unbeatable.games.connect4._negamax import NO_TABLE_EMPTY
from unbeatable.games.connect4._table import MIRROR_STONES, SHALLOW_EMPTY, SHALLOW_SLOTS, mirror
from unbeatable.games.connect4.solver import Solver

W, H = 7, 6
CELLS = W * H
INVERSE = pow(int(T.HASH_MUL), -1, 1 << 64)  # the hash is a bijection: undo it
START = "5455745355"  # 10 stones, score -2: under a million nodes
SPLIT = 1 << 20  # slots: a split table (the shallow region is its first SHALLOW_SLOTS)


def decode(key: int) -> tuple[int, int, int]:
    """``(current, mask, stones)`` of the position of key ``current + mask``: a column of ``k``
    stones holds a value in ``[2**k - 1, 2**(k + 1) - 2]``."""
    current = mask = stones = 0
    for col in range(W):
        seg = (key >> (col * (H + 1))) & ((1 << (H + 1)) - 1)
        k = (seg + 1).bit_length() - 1
        full = (1 << k) - 1
        assert full <= seg <= 2 * full and k <= H, f"column {col} of key {key:#x} is no column"
        mask |= full << (col * (H + 1))
        current |= (seg - full) << (col * (H + 1))
        stones += k
    return current, mask, stones


def live_entries(solver: Solver) -> list[tuple[int, int]]:
    """``(slot, entry)`` of every entry of the solver's current generation."""
    table = solver.table
    gen = (table >> np.uint64(8)) & np.uint64(255)
    return [(int(i), int(table[i])) for i in np.flatnonzero(gen == solver.generation)]


def entry_position(slot: int, entry: int, slots: int) -> tuple[int, int, int, bool]:
    """The position an entry belongs to (decoded from its slot and key bits), and whether it
    is filed as a shallow one."""
    bits = slots.bit_length() - 1
    if slots < SHALLOW_SLOTS:  # plain layout: the low 48 bits of the hash
        shallow, low, low_bits, top_bits = False, entry >> 16, 48, bits
    else:  # split layout: the low 47 bits, and a flag
        shallow = bool(entry & (1 << 16))
        low, low_bits = entry >> 17, 47
        top_bits = SHALLOW_SLOTS.bit_length() - 1 if shallow else bits
        if shallow:  # a search thread's own region: see test_each_thread_has_its_own_region
            slot %= SHALLOW_SLOTS
    assert slot < 1 << top_bits
    overlap = top_bits + low_bits - 64  # bits that the slot index and the key bits share
    assert low >> (low_bits - overlap) == slot & ((1 << overlap) - 1), "slot and key disagree"
    current, mask, stones = decode(((slot << (64 - top_bits)) | low) * INVERSE % (1 << 64))
    return current, mask, stones, shallow


def check_entries(solver: Solver, start_stones: int, sample: int) -> list[bool]:
    """Check every live entry's position, and the bound of ``sample`` of them against an
    exact solve; return the entries' shallow flags."""
    entries = live_entries(solver)
    assert len(entries) > 1_000
    flags = []
    positions = []
    for slot, entry in entries:
        current, mask, stones, shallow = entry_position(slot, entry, solver.table_slots)
        empty = CELLS - stones
        assert stones >= start_stones and empty > NO_TABLE_EMPTY
        if solver.table_slots >= SHALLOW_SLOTS:
            assert shallow == (empty <= SHALLOW_EMPTY)
        assert current & ~mask == 0
        key = current + mask
        if stones <= MIRROR_STONES:  # filed under the smaller of the two keys
            assert key <= int(mirror(np.uint64(key), W, H))
        flags.append(shallow)
        positions.append((current, mask, stones, entry & 255))
    checker = Solver(table_bytes=1 << 20, book=False)
    for current, mask, stones, code in random.Random(7).sample(positions, sample):
        score = checker.solve_bitboards(current, mask, stones)
        if code < 128:
            assert score <= code - T.UPPER_CODE, f"upper bound {code - T.UPPER_CODE} < {score}"
        else:
            assert score >= code - T.LOWER_CODE, f"lower bound {code - T.LOWER_CODE} > {score}"
    return flags


@pytest.mark.slow
def test_split_table_entries_decode_to_their_positions_regions_and_true_bounds() -> None:
    solver = Solver(table_bytes=8 * SPLIT, book=False)
    assert solver.solve(START) == -2
    flags = check_entries(solver, len(START), 150)
    assert any(flags) and not all(flags)
    deep_in_shallow_region = sum(
        1 for slot, entry in live_entries(solver) if slot < SHALLOW_SLOTS and not entry & (1 << 16)
    )
    assert deep_in_shallow_region > 0  # the two kinds share that region, told apart by the flag


@pytest.mark.parametrize(  # 1 << 17: 1.6 s (2026-12-02)
    "slots", [1 << 16, pytest.param(1 << 17, marks=pytest.mark.slow)]
)
def test_small_tables_keep_the_plain_layout_and_stay_exact(slots: int) -> None:
    small = Solver(table_bytes=8 * slots, book=False)
    assert small.table_slots == slots
    assert small.solve(START) == -2
    check_entries(small, len(START), 60)


def test_a_position_and_its_mirror_image_share_an_entry() -> None:
    solver = Solver(table_bytes=8 * SPLIT, book=False)
    assert solver.solve(START) == -2
    nodes = solver.nodes
    mirrored = "".join(str(W + 1 - int(c)) for c in START)
    assert solver.solve(mirrored) == -2
    # the mirror image's positions of up to MIRROR_STONES stones hit the same entries (without
    # the mirror filing, none of its entries would be in the table: about as many nodes again)
    assert solver.nodes < nodes // 3


@pytest.mark.slow
def test_each_search_thread_has_its_own_shallow_region() -> None:
    """Two threads of one search share the deep positions but keep their shallow ones in
    regions of their own (slots [0, 2**18) and [2**18, 2**19)), so that neither evicts the
    other's cache lines; the entries still decode and hold true bounds, the score is exact."""
    solver = Solver(table_bytes=8 * SPLIT, book=False, threads=2)
    assert solver.solve(START) == -2
    check_entries(solver, len(START), 100)
    shallow = [slot for slot, entry in live_entries(solver) if entry & (1 << 16)]
    assert max(shallow) < 2 * SHALLOW_SLOTS
    assert min(shallow) < SHALLOW_SLOTS <= max(shallow)  # both regions in use
    alone = Solver(table_bytes=8 * SPLIT, book=False, threads=1)
    assert alone.solve(START) == -2
    assert max(slot for slot, entry in live_entries(alone) if entry & (1 << 16)) < SHALLOW_SLOTS


def test_big_tables_keep_fewer_positions_in_the_shallow_region() -> None:
    """In a table of 2**27 slots or more (1 GiB), only positions with at most
    ``SHALLOW_EMPTY_BIG`` empty cells go to the shallow region (flagged), deeper ones to the
    whole table; in a smaller table the split stays at ``SHALLOW_EMPTY``."""
    from unbeatable.games.connect4 import _bits

    w, h = 9, 5
    rng = random.Random(3)
    for slots, threshold in ((1 << 26, SHALLOW_EMPTY), (1 << 27, T.SHALLOW_EMPTY_BIG)):
        seen = set()
        for _ in range(400):
            key = rng.getrandbits(50)
            stones = rng.randrange(w * h - 22, w * h - 8)
            slot, bits = _bits.table_place(key, stones, w, h, slots, 0)
            shallow = bool(bits & int(T.SHALLOW_FLAG))
            assert shallow == (w * h - stones <= threshold), (slots, stones)
            if shallow:
                assert slot < SHALLOW_SLOTS
            seen.add(shallow)
        assert seen == {True, False}
    assert T.SHALLOW_EMPTY_BIG < SHALLOW_EMPTY
