"""The upper bounds that ``_rules`` proves without search (claimeven-style strategies) hold: checked
against the exact solver on random positions near the end of the game, on boards of even and
odd height (the rows each side gets depend on the height's parity)."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from unbeatable.games.connect4 import Solver, _depth, hooks
from unbeatable.games.connect4 import _negamax as K
from unbeatable.games.connect4._bitboard import (
    board_mask,
    bottom_mask,
    can_win_next,
    has_four,
    winning_cells,
)
from unbeatable.games.connect4._rules import (
    NONE,
    fail_high,
    odd_columns,
    odd_rows_mask,
    rule_upper,
)
from unbeatable.games.connect4.hooks import Size


def _random_positions(
    width: int, height: int, empty: range, count: int, seed: int
) -> list[tuple[int, int, int]]:
    """``count`` positions (current, mask, stones) reached by random play, with an empty-cell
    count in ``empty``, the game not over and no win for the side to move with its next stone
    (negamax's precondition where it asks the rules)."""
    rng = random.Random(seed)
    cells = width * height
    bottom = int(bottom_mask(width, height))
    board = int(board_mask(width, height))
    found: list[tuple[int, int, int]] = []
    while len(found) < count:
        target = cells - rng.choice(empty)
        current = mask = stones = 0
        while stones < target:
            cols = [c for c in range(width) if not mask >> (c * (height + 1) + height - 1) & 1]
            col = rng.choice(cols)
            move = (
                (mask + (1 << (col * (height + 1))))
                & ~mask
                & (((1 << height) - 1) << (col * (height + 1)))
            )
            mine = current | move
            if has_four(np.uint64(mine), height):
                break  # the game ended: start again
            current, mask, stones = mine ^ (mask | move), mask | move, stones + 1
        else:
            if not can_win_next(np.uint64(current), np.uint64(mask), height, np.uint64(bottom),
                                np.uint64(board)):  # fmt: skip
                found.append((current, mask, stones))
    return found


#: 6 x 7, a second board of odd height after 6 x 5: 0.7 s and 0.5 s in the two tests below
#: (2026-12-02), slow.
TALL = pytest.param(6, 7, marks=pytest.mark.slow)


@pytest.mark.parametrize(("width", "height"), [(7, 6), (6, 5), (5, 4), TALL])
def test_rule_upper_holds(width: int, height: int) -> None:
    solver = Solver(table_bytes=1 << 20, width=width, height=height, book=False)
    # the kernels' types (numba hands back Python integers)
    bottom = np.uint64(bottom_mask(width, height))
    board = np.uint64(board_mask(width, height))
    odd = np.uint64(odd_rows_mask(width, height))
    cells = width * height
    bounded = {0: 0, 1: 0}  # positions bounded, by parity of the empty cells
    positions = _random_positions(width, height, range(6, 17), 200, seed=width * 10 + height)
    for current, mask, stones in positions:
        score = solver.solve_bitboards(current, mask, stones)
        c, m = np.uint64(current), np.uint64(mask)
        opp_wins = winning_cells(c ^ m, m, height, board)
        odd_cols = odd_columns((m + bottom) & board & odd, board)
        hi = rule_upper(c, m, cells - stones, height, bottom, board, odd, opp_wins, odd_cols)
        assert score <= hi, (width, height, current, mask, stones, hi, score)
        if hi < NONE:
            bounded[(cells - stones) % 2] += 1
    # the rules must actually say something (on 5 x 4, never with an odd count in this sample)
    assert bounded[0] >= 5 and (bounded[1] >= 2 or width * height <= 20), bounded


def test_odd_columns_fill_each_column_from_its_foot() -> None:
    board = board_mask(7, 6)
    feet = np.uint64(1 << 1) | np.uint64(1 << (6 * 7 + 3))  # column 1 row 2, column 7 row 4
    expected = (0b111110 << 0) | (0b111000 << (6 * 7))
    assert int(odd_columns(feet, board)) == expected


def test_odd_rows_by_height_parity() -> None:
    # 7 x 6: rows 1, 3 and 5 (0-based from the bottom), i.e. the 2nd, 4th and 6th
    assert int(odd_rows_mask(7, 6)) & 0b1111111 == 0b0101010
    # an odd height: rows 0, 2 and 4
    assert int(odd_rows_mask(6, 5)) & 0b111111 == 0b010101


@pytest.mark.parametrize(("width", "height"), [(7, 6), (6, 5), TALL])
def test_fail_high_holds(width: int, height: int) -> None:
    """What the search asks: a lower bound from a child's rule bound, where the window's top
    ``beta`` is at most 1, is never above the exact score; and it is found where a child's
    bound from ``rule_upper`` alone (no cheap test before it) would find one."""
    solver = Solver(table_bytes=1 << 20, width=width, height=height, book=False)
    # the kernels' types (numba hands back Python integers)
    bottom = np.uint64(bottom_mask(width, height))
    board = np.uint64(board_mask(width, height))
    odd = np.uint64(odd_rows_mask(width, height))
    cells = width * height
    found = 0
    positions = _random_positions(width, height, range(7, 17), 150, seed=width * 7 + height)
    for current, mask, stones in positions:
        c, m = np.uint64(current), np.uint64(mask)
        moves = (m + bottom) & board
        score = None
        for beta in (1, 0, -1):
            lo = fail_high(c, m, moves, beta, cells - stones, height, bottom, board)
            # the same question without the cheap tests: each child's bound by rule_upper
            expected = NONE
            f = int(moves)
            while f:
                b = np.uint64(f & -f)
                f &= f - 1
                cm, cmask = c ^ m, m | b
                wins = winning_cells(c | b, cmask, height, board)
                cols = odd_columns((cmask + bottom) & board & odd, board)
                chi = rule_upper(
                    cm, cmask, cells - stones - 1, height, bottom, board, odd, wins, cols
                )
                if -chi >= beta:
                    expected = -chi
                    break
            assert (lo == NONE) == (expected == NONE), (current, mask, beta, lo, expected)
            if lo != NONE:
                assert lo >= beta
                if score is None:
                    score = solver.solve_bitboards(current, mask, stones)
                assert score >= lo, (width, height, current, mask, stones, beta, lo, score)
                found += 1
    assert found >= 10, found


def test_has_four_each_direction() -> None:
    height = 6
    h1 = height + 1
    row = sum(1 << (c * h1) for c in range(4))  # four in the bottom row
    column = 0b1111 << h1  # four in column 1
    up = sum(1 << (c * h1 + c) for c in range(4))  # diagonal going up
    down = sum(1 << (c * h1 + 3 - c) for c in range(4))  # diagonal going down
    for four in (row, column, up, down):
        assert has_four(np.uint64(four), height)
        for cell in range(64):  # any one stone fewer: no four
            if four >> cell & 1:
                assert not has_four(np.uint64(four & ~(1 << cell)), height)
    assert not has_four(np.uint64(0b111 | (0b1 << h1)), height)


@pytest.mark.parametrize(
    ("width", "height", "empty"),
    [(7, 6, range(18, 27)), (6, 5, range(16, 23)), (5, 4, range(14, 20))],
)
def test_the_search_with_the_rules_scores_as_the_plain_one(
    width: int, height: int, empty: range, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``negamax_rules`` (the search compiled with the rules, picked by ``solve_position`` for
    deep solves without a database) and ``negamax`` give the same exact score to every
    position of a sample, and the rules do cut nodes."""
    positions = _random_positions(width, height, empty, 25, seed=width * 100 + height)
    nodes = {}
    scores = {}
    for root_empty, name in ((0, "rules"), (1_000, "plain")):
        monkeypatch.setattr(_depth, "RULES_ROOT_EMPTY", root_empty)
        solver = Solver(table_bytes=1 << 22, width=width, height=height, book=False)
        found, total = [], 0
        for current, mask, stones in positions:
            solver.reset()
            found.append(solver.solve_bitboards(current, mask, stones))
            total += solver.nodes
        scores[name], nodes[name] = found, total
    assert scores["rules"] == scores["plain"]
    assert len(set(scores["plain"])) >= 3, scores["plain"]  # not all draws
    assert nodes["rules"] < nodes["plain"], nodes
    assert K.negamax_rules.signatures  # the rules' search did run


@pytest.mark.slow  # a fresh process; in a clean clone it compiles the variant
def test_warming_up_loads_the_search_with_the_rules_too() -> None:
    """``unbeatable warm connect4``, the web server's background warming and ``python -m
    unbeatable.games.connect4`` (:func:`.hooks.warm_up`) load ``negamax_rules`` as well, so
    that a first deep solve (another board size from its start) does not compile it inside
    its time limit; a fresh process, so that no other test has run it before."""
    code = (
        "from unbeatable.games.connect4 import _negamax as K, hooks\n"
        "assert not K.negamax_rules.signatures\n"
        "hooks.warm_up()\n"
        "print(len(K.negamax_rules.signatures))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 1


def test_openings_of_other_boards_search_with_the_rules_and_their_first_load_builds_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An opening (at most ``RULES_OPENING_STONES`` stones) with at least
    ``RULES_OPENING_EMPTY`` empty cells searches with the rules on any board; the hooks, which
    may not import numba before a build is announced, ask the same numba-free module."""
    assert hooks.uses_rules(Size(10, 3)) and hooks.uses_rules(Size(11, 2))
    assert not hooks.uses_rules(Size(7, 6))  # the database answers its openings
    assert not hooks.uses_rules(Size(7, 3))  # 21 cells
    cells = _depth.RULES_OPENING_EMPTY
    assert _depth.uses_rules(cells, 0, False) and not _depth.uses_rules(cells - 1, 0, False)
    assert not _depth.uses_rules(cells + 1, _depth.RULES_OPENING_STONES + 1, False)
    assert _depth.uses_rules(_depth.RULES_ROOT_EMPTY + 10, 10, False)
    assert not _depth.uses_rules(42, 0, True)  # a database below the root answers

    # the same score either way, in fewer nodes with the rules (the empty 8 x 3 board)
    def solve_8x3() -> tuple[int, int]:
        solver = Solver(1 << 24, 8, 3, book=False, guess=False)
        return solver.solve(), solver.nodes

    with_rules = solve_8x3()
    monkeypatch.setattr(_depth, "RULES_OPENING_EMPTY", 100)  # no opening has this many empty cells
    without = solve_8x3()
    assert with_rules[0] == without[0] == 0
    assert with_rules[1] < without[1], (with_rules, without)
