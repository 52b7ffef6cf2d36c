"""Which solves search with the rules (``_negamax.negamax_rules``) and which with plain
``_negamax.negamax``: plain Python, free of numba, so that ``hooks`` can ask before a build is
announced (it loads the search with the rules with the rest on the boards that use it).

The rules (``_rules``) cut nodes but cost time at every node that asks them; they pay in deep
searches only. ``_negamax.solve_position`` asks :func:`uses_rules` of each root it solves.
"""

from __future__ import annotations

# A root with at least RULES_ROOT_EMPTY empty cells and no database position below it searches
# with the rules. Below 36, the rules cut nodes but not CPU time (Test_L1_R2 solved one by one,
# by the root's empty cells: 0.91-1.16x the CPU without them from 28 to 35; Test_L1_R3's first
# 10, 30-40 empty cells: 30 % fewer nodes, 12-20 % less CPU).
RULES_ROOT_EMPTY = 36
# ... and so does an opening (at most RULES_OPENING_STONES stones) with at least
# RULES_OPENING_EMPTY empty cells, on any board: from the empty board of other sizes the rules
# pay where 7 x 6's middle game did not (2026-12-03, one thread, CPU and nodes with the rules
# over without, beside a two-thread solve: 10x3 0.18x, 0.11x; 12x2 0.44x, 0.30x; 11x2 0.63x,
# 0.28x; 9x3 0.43x, 0.22x; 8x4 0.59x, 0.30x; 7x4 0.71x, 0.23x; 4x8 0.78x, 0.47x; every size up
# to width + height 13 in ``benchmarks/results/connect4.md``). A smaller board solves in well
# under a second without them, where a first build of ``negamax_rules`` would cost seconds.
RULES_OPENING_STONES = 6
RULES_OPENING_EMPTY = 22


def has_database(width: int, height: int) -> bool:
    """Whether a solver of this board (with its opening data asked for) looks positions up in
    the database of 7 x 6 positions (``database``); its roots above the database's ply then
    search without the rules."""
    return (width, height) == (7, 6)


def uses_rules(cells: int, stones: int, database_below: bool) -> bool:
    """Whether a root of ``stones`` stones on a board of ``cells`` cells searches with the
    rules: a deep root with no database position below it, or an opening of a large enough
    board."""
    if database_below:
        return False
    empty = cells - stones
    return empty >= RULES_ROOT_EMPTY or (
        stones <= RULES_OPENING_STONES and empty >= RULES_OPENING_EMPTY
    )


def board_uses_rules(width: int, height: int) -> bool:
    """Whether a solver of this board, with its opening data, solves its empty board (and its
    other openings) with the rules: what its first load must build."""
    return not has_database(width, height) and uses_rules(width * height, 0, False)
