"""The search: every variant agrees, alpha-beta keeps its contract, limits are honoured."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.brute import check_window, reachable, truth
from tests.helpers import random_position
from unbeatable import (
    Limits,
    Move,
    Outcome,
    Score,
    Searcher,
    State,
    TranspositionTable,
    get_game,
    solve_score,
)
from unbeatable.search import search
from unbeatable.search.engine import Engine
from unbeatable.search.score import INFINITY, WIN, value_from_solve_score
from unbeatable.search.table import EXACT, LOWER, UPPER

VARIANTS: list[dict[str, object]] = [
    {"algorithm": "minimax"},
    {"algorithm": "negamax"},
    {"algorithm": "minimax", "table": True},
    {"algorithm": "alphabeta", "table": False},
    {"algorithm": "alphabeta", "table": False, "hints": False},
    {"algorithm": "alphabeta"},
    {"algorithm": "alphabeta", "symmetry": False},
    {"algorithm": "alphabeta", "table_size": 3},
    {"algorithm": "alphabeta-stack"},
    {"algorithm": "alphabeta-stack", "table": False},
]


@given(
    spec=st.sampled_from(["tictactoe", "mnk:3,4,3", "mnk:4,4,3", "mnk:4,4,4", "mnk:5,5,4"]),
    plies=st.integers(0, 12),
    seed=st.integers(0, 10**6),
    depth=st.integers(1, 3),
)
@pytest.mark.slow
def test_every_variant_agrees_at_the_same_depth(
    spec: str, plies: int, seed: int, depth: int
) -> None:
    state = random_position(spec, plies, seed)
    results = [search(state, Limits(depth=depth), **v) for v in VARIANTS]  # type: ignore[arg-type]
    assert len({r.score.value for r in results}) == 1, [(r.algorithm, r.score) for r in results]
    assert len({r.best_moves for r in results}) == 1, [(r.algorithm, r.best_moves) for r in results]
    # Pruning can avoid every depth limit; a result that claims to be exact must be the truth.
    claimed = [r for r in results if r.exact]
    if claimed:
        truth = search(state).score
        assert all(r.score == truth for r in claimed)
    assert not results[0].exact or all(r.exact for r in results)


# plain minimax visits every node: start deep enough that the whole tree stays small
MIN_PLIES = {"tictactoe": 1, "mnk:3,4,3": 5, "mnk:2,5,3": 3, "subtraction:14,3": 0}


@settings(max_examples=30)
@given(
    spec=st.sampled_from(sorted(MIN_PLIES)),
    extra=st.integers(0, 5),
    seed=st.integers(0, 10**6),
)
@pytest.mark.slow
def test_every_variant_agrees_on_exact_values(spec: str, extra: int, seed: int) -> None:
    state = random_position(spec, MIN_PLIES[spec] + extra, seed)
    if spec.startswith("mnk") and state.ply < MIN_PLIES[spec]:
        return  # the random game ended early
    results = [search(state, **v) for v in VARIANTS]  # type: ignore[arg-type]
    assert len({r.score for r in results}) == 1, [(r.algorithm, r.score) for r in results]
    assert len({r.best_moves for r in results}) == 1
    assert all(r.exact and r.complete for r in results)


def test_the_same_with_analysis_every_move_exact() -> None:
    state = get_game("mnk:3,4,3").parse_position("1,6,2,7")
    plain = search(state, algorithm="negamax", analyze=True)
    pruned = search(state, algorithm="alphabeta", analyze=True)
    assert plain.move_scores == pruned.move_scores
    assert plain.move_scores is not None and len(plain.move_scores) == 8


@pytest.mark.parametrize(
    ("table", "depth"),
    [  # to the end without a table: 0.8 s (2026-12-02)
        pytest.param(table, depth, marks=pytest.mark.slow)
        if (table, depth) == (False, 9)
        else (table, depth)
        for depth in [2, 3, 9]
        for table in [False, True]
    ],
)
def test_alphabeta_keeps_its_contract_on_every_position(depth: int, table: bool) -> None:
    """Fail-soft: v <= alpha => V <= v; v >= beta => V >= v; otherwise v == V."""
    rng = random.Random(depth)
    positions = reachable(get_game("mnk:2,4,3").initial())  # every position of a tiny game
    assert len(positions) > 200
    # A table shared across roots may answer a shallow probe with a deeper result, which is
    # better but not the depth-limited value; so across roots only exact (full-depth) searches
    # share one, and depth-limited ones get a table per root position.
    shared = TranspositionTable(1 << 12) if table else None
    for state in positions:
        if table and depth < 9:
            shared = TranspositionTable(1 << 12)
        true = truth(state, depth)
        for _ in range(3):
            a, b = sorted(
                rng.sample([true - 2, true - 1, true, true + 1, true + 2, -INFINITY, INFINITY], 2)
            )
            if a == b:
                continue
            engine = Engine(
                table=shared,
                symmetry=True,
                hints=True,
                evaluate=None,
                order=None,
                deadline=None,
                max_nodes=None,
            )
            v = engine.alphabeta(state, depth, a, b, 0)
            check_window(state, a, b, v, true)


def test_the_table_is_bounded_and_never_answers_for_another_key() -> None:
    table = TranspositionTable(5)
    for key in range(100):
        table.store(key, key, EXACT, 1, None)
        assert len(table) <= 5
    assert table.probe(99) is not None and table.probe(99).value == 99  # type: ignore[union-attr]
    assert table.probe(94) is None  # same slot as 99, replaced: a miss, never 99's value
    assert table.probe(3) is None
    with pytest.raises(ValueError, match="positive integer"):
        TranspositionTable(0)


def test_the_table_stores_bounds_with_their_flags() -> None:
    state = get_game("tictactoe").parse_position("12")  # x to move wins: value WIN - 5
    searcher = Searcher("alphabeta")
    assert searcher.table is not None
    engine = Engine(
        table=searcher.table,
        symmetry=True,
        hints=False,
        evaluate=None,
        order=None,
        deadline=None,
        max_nodes=None,
    )
    value = engine.alphabeta(state, 10, -INFINITY, -WIN + 100, 0)  # fails high
    entry = searcher.table.probe(state.key())
    assert entry is not None and entry.flag == LOWER and value >= -WIN + 100
    searcher.table.clear()
    value = engine.alphabeta(state, 10, WIN - 2, WIN - 1, 0)  # cannot win that fast: fails low
    entry = searcher.table.probe(state.key())
    assert entry is not None and entry.flag == UPPER and value <= WIN - 2


def test_a_tiny_table_still_gives_exact_answers() -> None:
    assert search(get_game("tictactoe").initial(), table_size=7).score.is_draw
    state = get_game("mnk:3,4,3").parse_position("1,6")
    reference = search(state, algorithm="minimax", table=True)  # memoized, exact entries only
    tiny = search(state, table_size=7, analyze=True)
    assert tiny.score == reference.score
    assert tiny.best_moves == reference.best_moves


def test_win_scores_read_back_from_the_table_at_another_ply() -> None:
    searcher = Searcher()
    game = get_game("tictactoe")
    deep = game.parse_position("123")  # o to move, x threatens; solved first, stored
    first = searcher.search(deep).score
    shallow = searcher.search(game.parse_position("12")).score
    fresh = search(game.parse_position("12")).score
    assert shallow == fresh
    assert first == search(deep).score


# --- limits ----------------------------------------------------------------------------


def test_a_one_millisecond_limit_still_returns_a_legal_move() -> None:
    state = get_game("mnk:15,15,5").initial()
    result = search(state, Limits(time=0.001))
    assert result.move in state.legal_moves()
    assert not result.complete and not result.exact
    assert result.elapsed < 5  # it stopped (a generous bound; the machine is shared)


def test_a_node_budget_stops_the_search() -> None:
    state = get_game("mnk:5,5,4").initial()
    result = search(state, Limits(nodes=2000))
    assert result.move in state.legal_moves()
    assert not result.complete
    assert result.nodes <= 2000 + 64


def test_iterative_deepening_reports_each_completed_iteration() -> None:
    state = get_game("mnk:4,4,4").parse_position("6,7")
    seen: list[int] = []
    result = Searcher().search(
        state, Limits(time=30, depth=4), on_iteration=lambda r: seen.append(r.depth)
    )
    assert seen == [1, 2, 3, 4] and result.depth == 4 and result.complete


def test_iterative_deepening_to_a_depth_limit_gives_the_direct_value() -> None:
    state = get_game("connect4").parse_position("4453")
    direct = search(state, Limits(depth=6))
    deepened = search(state, Limits(depth=6), iterative=True)
    assert (deepened.score, deepened.best_moves, deepened.depth) == (
        direct.score,
        direct.best_moves,
        6,
    )


def test_a_small_game_under_a_time_limit_is_solved_exactly() -> None:
    result = search(get_game("tictactoe").initial(), Limits(time=60))
    assert result.exact and result.complete and result.score.is_draw


@pytest.mark.parametrize(
    "limits",
    [
        {"depth": 0},
        {"depth": -1},
        {"depth": 2.5},
        {"time": 0},
        {"time": -1.0},
        {"time": float("nan")},
        {"nodes": 0},
        {"depth": True},
    ],
)
def test_bad_limits_are_rejected_before_the_search(limits: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="limit must be"):
        Limits(**limits)  # type: ignore[arg-type]


def test_unknown_algorithms_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown algorithm 'mtd'"):
        Searcher("mtd")


# --- deeper than Python's recursion ------------------------------------------------------


def subtraction_value(pile: int, take: int) -> Score:
    """An independent dynamic programme: the depth-weighted value of a pile."""
    values = [-WIN]  # an empty pile: the player to move has lost
    for n in range(1, pile + 1):
        best = -INFINITY
        for t in range(1, min(take, n) + 1):
            child = -values[n - t]
            best = max(best, child - 1 if child > 0 else child + 1)
        values.append(best)
    return Score(values[pile])


@pytest.mark.parametrize("pile", [6000, 6001])
def test_the_explicit_stack_solves_a_game_thousands_of_plies_deep(pile: int) -> None:
    state = get_game(f"subtraction:{pile},3").initial()
    result = search(state)  # chooses the explicit stack by itself
    assert result.algorithm == "alphabeta-stack"
    assert result.score == subtraction_value(pile, 3)
    # The winning take first: the longest line takes 3 tokens, then 1, so it ends near ply
    # pile // 2, still far beyond Python's recursion limit.
    assert result.seldepth >= pile // 2
    assert result.exact
    if pile % 4:
        assert result.best_moves == (pile % 4,)
    with pytest.raises(ValueError, match="alphabeta-stack"):
        search(state, algorithm="alphabeta")


class Countdown(State):
    """A user's game with no known length: count down from n, one or two at a time."""

    __slots__ = ("n", "turn")

    def __init__(self, n: int, turn: int = 0) -> None:
        self.n, self.turn = n, turn

    @property
    def to_move(self) -> int:
        return self.turn

    def legal_moves(self) -> Sequence[Move]:
        return [1, 2] if self.n >= 2 else [1] if self.n == 1 else []

    def play(self, move: Move) -> Countdown:
        return Countdown(self.n - move, 1 - self.turn)  # type: ignore[operator]

    def outcome(self) -> Outcome | None:
        return None if self.n else Outcome.win_for(1 - self.turn)

    def key(self) -> int:
        return self.n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Countdown) and (self.n, self.turn) == (other.n, other.turn)

    def __hash__(self) -> int:
        return hash((self.n, self.turn))


def test_a_game_of_unknown_length_recursing_too_deep_gets_a_clear_error() -> None:
    with pytest.raises(ValueError, match="alphabeta-stack"):
        search(Countdown(5001), algorithm="alphabeta")
    result = search(Countdown(5001))
    assert result.algorithm == "alphabeta-stack"
    assert result.score.is_loss  # 5001 is a multiple of 3: lost for the mover
    assert search(Countdown(5000)).score.is_win


@pytest.mark.parametrize("text", ["", "5", "1,6", "6,7,11"])
def test_stack_and_recursion_visit_the_same_nodes(text: str) -> None:
    state = get_game("mnk:4,4,3").parse_position(text)
    for limits in (Limits(), Limits(depth=3)):
        a = search(state, limits, algorithm="alphabeta")
        b = search(state, limits, algorithm="alphabeta-stack")
        assert (a.score, a.best_moves, a.nodes, a.table_hits, a.cutoffs, a.pv) == (
            b.score,
            b.best_moves,
            b.nodes,
            b.table_hits,
            b.cutoffs,
            b.pv,
        )


# --- hooks and tie-breaks -----------------------------------------------------------------


def test_a_user_evaluation_and_move_order_need_no_fork() -> None:
    state = get_game("mnk:5,5,4").initial()
    calls: list[int] = []

    def prefer_corner(s: State) -> float:
        calls.append(1)
        return 0

    def reverse(s: State, moves: Sequence[Move]) -> Sequence[Move]:
        return list(reversed(moves))

    result = search(state, Limits(depth=1), evaluate=prefer_corner, order=reverse)
    assert calls and result.score.value == 0
    assert result.move == 24  # all equal: the first in the hook's order (issue 12 item 11)
    assert result.best_moves == tuple(range(25))


def test_ties_are_broken_by_move_order_or_by_the_generator_given() -> None:
    state = get_game("tictactoe").initial()
    assert search(state).move == 0
    picks = {search(state, rng=random.Random(seed)).move for seed in range(30)}
    assert len(picks) > 3 and picks <= set(range(9))


def test_results_from_a_finished_position() -> None:
    state = get_game("tictactoe").parse_position("14253")
    result = search(state)
    assert result.move is None and result.best_moves == () and str(result.score) == "lost"
    assert solve_score(state, result.score) == -3


# --- scores --------------------------------------------------------------------------------


def test_score_texts() -> None:
    assert str(Score(WIN - 1)) == "win in 1"
    assert str(Score(WIN - 3)) == "win in 2"
    assert str(Score(-WIN + 2)) == "loss in 1"
    assert str(Score(-WIN + 4)) == "loss in 2"
    assert str(Score(0)) == "draw"
    assert str(Score(12, exact=False)) == "+12 (heuristic)"
    assert Score(WIN - 1) > Score(WIN - 3) > Score(0) > Score(-WIN + 4) > Score(-WIN + 2)
    assert Score(WIN - 3).pov(1, 0) == Score(-WIN + 3)


@pytest.mark.parametrize("spec", ["tictactoe", "mnk:4,4,4", "mnk:6,7,4"])
def test_solve_scores_read_back_as_the_same_value(spec: str) -> None:
    game = get_game(spec)
    rng = random.Random(3)
    for plies in range(0, 12):
        state = random_position(spec, plies, rng.randrange(1000))
        cells = state.max_plies
        assert cells is not None
        for distance in range(1, cells - state.ply + 1):
            # only distances whose parity fits the winner are possible
            value = WIN - distance if distance % 2 else -WIN + distance
            score = solve_score(state, Score(value))
            assert value_from_solve_score(state, score) == value, (game, state.ply, distance)


def test_iterative_without_a_depth_limit_deepens_until_exact() -> None:
    state = get_game("tictactoe").parse_position("5")
    depths = [r.depth for r in Searcher(iterative=True).iterate(state)]
    assert depths == sorted(depths) and depths[0] == 1
    final = Searcher(iterative=True).search(state)
    assert final.exact and final.score == search(state).score


def test_a_searcher_reused_for_another_game_does_not_answer_from_the_old_table() -> None:
    searcher = Searcher()
    assert searcher.search(get_game("tictactoe").initial()).score.is_draw
    three_three_two = searcher.search(get_game("mnk:3,3,2").initial()).score
    assert three_three_two == search(get_game("mnk:3,3,2").initial()).score
    assert three_three_two.is_win
    a = searcher.search(get_game("subtraction:8,3").initial()).score
    b = searcher.search(get_game("subtraction:8,4").initial()).score
    assert a.is_loss and b.is_win  # 8 is a multiple of 4 but not of 5


def test_principal_variations_keep_the_value_at_every_step() -> None:
    """Table moves are followed only when they keep the value: with mirror-image keys a
    stored move may belong to another orientation (position 75 once gave a losing line)."""
    game = get_game("tictactoe")
    for text in ["75", "1", "15", "159", "2", "26", "5", "51", "513"]:
        state = game.parse_position(text)
        for options in ({}, {"hints": False}, {"algorithm": "minimax", "table": True}):
            result = search(state, **options)
            position = state
            for move in result.pv:
                analysis = search(position, analyze=True)
                assert analysis.move_scores is not None
                assert analysis.move_scores[move] == analysis.score, (text, options, result.pv)
                position = position.play(move)


def test_scores_order_by_value_then_proof_and_bad_evaluations_are_named() -> None:
    # Issue 8: equality and ordering agree; at one value a proven score ranks above a guess.
    assert Score(5, exact=False) < Score(5) and Score(5, exact=False) != Score(5)
    assert Score(4) < Score(5, exact=False)
    state = get_game("mnk:4,4,4").initial()
    with pytest.raises(ValueError, match="not a number"):
        search(state, Limits(depth=1), evaluate=lambda s: float("nan"))
    huge = search(state, Limits(depth=1), evaluate=lambda s: float("inf"))
    assert huge.score.kind == "heuristic"


def test_the_table_spreads_bitboard_keys_over_its_slots() -> None:
    """Integer keys hash to themselves: the slot must depend on every bit of a key, not on its
    low bits alone (with ``hash % size`` a depth-8 search of 4453 used 520 slots of 2^20)."""
    searcher = Searcher("alphabeta")
    assert searcher.table is not None
    searcher.search(get_game("connect4").parse_position("4453"), Limits(depth=8))
    table = searcher.table
    assert table.stores > 4000
    assert len(table) > 0.8 * table.stores  # nearly every store finds a slot of its own
    keys = [i << 20 for i in range(1000)]  # equal in their low 20 bits
    assert len({table.slot(k) for k in keys}) > 990
