"""The observable engine: the events of minimax, negamax and alpha-beta (search/events.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.brute import check_window, truth
from unbeatable import Limits, ParallelSearcher, Searcher, State, get_game
from unbeatable.search import events as ev
from unbeatable.search.events import EVENT_FIELDS, PASS, SearchEvent
from unbeatable.search.score import to_table

GAMES = ["tictactoe", "mnk:4,3,3", "subtraction:pile=12,take=3", "connect4:width=4,height=4"]
ALGORITHMS = ["minimax", "negamax", "alphabeta", "alphabeta-stack"]


def _positions(spec: str, count: int, seed: int) -> list[State]:
    """Positions reached by a few random moves, played through the public API."""
    rng = random.Random(seed)
    game = get_game(spec)
    found: list[State] = []
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randrange(0, 5)):
            if state.outcome() is not None:
                break
            state = state.play(rng.choice(list(state.legal_moves())))
        if state.outcome() is None:
            found.append(state)
    return found


def _observe(
    state: State, algorithm: str, depth: int | None, **options: Any
) -> tuple[list[SearchEvent], int]:
    found: list[SearchEvent] = []
    searcher = Searcher(algorithm, **options)
    result = searcher.search(state, Limits(depth=depth), observer=found.append)
    return found, result.nodes


def _at(root: State, path: tuple[object, ...]) -> State:
    state = root
    for move in path:
        passed = state.null_move() if move is PASS else None
        state = passed if passed is not None else state.play(move)
    return state


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("table", [False, True])
def test_every_node_is_entered_once_and_valued_once(
    spec: str, algorithm: str, table: bool
) -> None:
    for state in _positions(spec, 3, 7):
        events, nodes = _observe(state, algorithm, 3, table=table)
        assert all(type(e) is SearchEvent for e in events)
        assert all(e.kind in (ev.ENTER, ev.HIT, ev.CUT, ev.VALUE) for e in events)
        entered = [e for e in events if e.kind == ev.ENTER]
        valued = [e for e in events if e.kind == ev.VALUE]
        assert len(entered) == len(valued) == nodes  # the search's own node count
        # enter and value nest like the calls: a stack of paths
        open_paths: list[tuple[object, ...]] = []
        for event in events:
            if event.kind == ev.ENTER:
                assert event.path[: len(event.path) - 1] == (
                    open_paths[-1] if open_paths else ()
                ) or not event.path
                open_paths.append(event.path)
            elif event.kind == ev.VALUE:
                assert open_paths.pop() == event.path
            else:  # a hit answers the open node; a cut is a move of it
                assert event.path[: len(open_paths[-1])] == open_paths[-1]
        assert not open_paths
        for event in entered + valued:  # every path is a line of legal moves
            _at(state, event.path)


@pytest.mark.parametrize(  # mnk:4,3,3 searched to the end without a table: seconds
    "spec", [pytest.param(s, marks=pytest.mark.slow) if s == "mnk:4,3,3" else s for s in GAMES]
)
@pytest.mark.parametrize("table", [False, True])
@pytest.mark.parametrize("hints", [False, True])
def test_the_stack_and_the_recursion_emit_the_same_events(
    spec: str, table: bool, hints: bool
) -> None:
    for state in _positions(spec, 4, 11):
        for depth in (2, 4, None):
            if depth is None and spec.startswith("connect4"):
                continue
            recursive, _ = _observe(state, "alphabeta", depth, table=table, hints=hints)
            stacked, _ = _observe(state, "alphabeta-stack", depth, table=table, hints=hints)
            assert recursive == stacked


@pytest.mark.parametrize(
    ("table", "spec"),
    [
        # 3 x 4: 1.6 s without a table (to depths 2 and 3 and to the end), 1.3 s with one
        # when it runs alone (the brute force's memo is the other's) on 2026-12-02
        pytest.param(table, spec, marks=pytest.mark.slow) if spec == "mnk:3,4,3" else (table, spec)
        for spec in ["tictactoe", "subtraction:pile=10,take=3", "mnk:3,4,3"]
        for table in [False, True]
    ],
)
def test_every_alphabeta_value_keeps_the_contract_with_its_window(spec: str, table: bool) -> None:
    """Each node's value against its window and the brute-force truth (brute.check_window).
    With a table only exact searches: a depth-limited entry may answer for a position met again
    nearer the root, with a deeper value (the contract allows it)."""
    for state in _positions(spec, 4, 3):
        for depth in (None,) if table else (2, 3, None):
            events, _ = _observe(state, "alphabeta", depth, table=table, hints=True)
            for event in events:
                if event.kind != ev.VALUE:
                    continue
                node = _at(state, event.path)
                assert event.value is not None and event.alpha is not None
                assert event.beta is not None
                ply = len(event.path)
                left = None if depth is None else max(depth - ply, 0)
                own = to_table(event.value, ply)
                alpha = to_table(event.alpha, ply) if abs(event.alpha) < 2 * 10**9 else event.alpha
                beta = to_table(event.beta, ply) if abs(event.beta) < 2 * 10**9 else event.beta
                if node.outcome() is None and left == 0:
                    assert event.reason in (ev.HORIZON, ev.MATE_DISTANCE, ev.TABLE)
                if event.reason == ev.TABLE and not table:
                    pytest.fail("a table hit without a table")
                if left is None or left > 0 or node.outcome() is not None:
                    check_window(node, alpha, beta, own, truth(node, left))


def test_minimax_values_are_the_first_players_and_negamax_the_side_to_moves() -> None:
    state = get_game("tictactoe").parse_position("5 1 9")  # o to move, x threatens
    mini, _ = _observe(state, "minimax", 2)
    nega, _ = _observe(state, "negamax", 2)
    mini_values = {e.path: e.value for e in mini if e.kind == ev.VALUE}
    nega_values = {e.path: e.value for e in nega if e.kind == ev.VALUE}
    assert mini_values.keys() == nega_values.keys()
    for path, value in mini_values.items():
        node = _at(state, path)
        sign = 1 if node.to_move == 0 else -1
        other = nega_values[path]
        assert value is not None and other is not None and value == sign * other
    assert all(e.alpha is None and e.beta is None for e in mini + nega)


def test_a_memo_hit_and_a_table_hit_are_events() -> None:
    state = get_game("tictactoe").parse_position("5")
    for algorithm in ("minimax", "negamax", "alphabeta"):
        events, _ = _observe(state, algorithm, None, table=True, symmetry=True)
        hits = [e for e in events if e.kind == ev.HIT]
        assert hits, algorithm
        for hit in hits:  # each hit is followed by the node's value, from the table
            after = events[events.index(hit) + 1]
            assert after.kind == ev.VALUE and after.path == hit.path
            assert after.reason == ev.TABLE and after.value == hit.value
            assert hit.reason in (ev.EXACT, ev.LOWER, ev.UPPER)


def test_cuts_name_the_moves_never_searched_and_the_window_at_the_cut() -> None:
    state = get_game("tictactoe").parse_position("5 1")
    events, _ = _observe(state, "alphabeta", 3, table=False, hints=False)
    cuts = [e for e in events if e.kind == ev.CUT]
    assert cuts
    searched = {e.path for e in events if e.kind == ev.ENTER}
    for cut in cuts:
        assert cut.path not in searched  # never entered
        assert cut.alpha is not None and cut.beta is not None and cut.alpha >= cut.beta
        assert cut.reason == ev.BETA
        # the node's value is the value that made the cut
        node_value = next(
            e for e in events[events.index(cut) :] if e.kind == ev.VALUE and e.path == cut.path[:-1]
        )
        assert node_value.value == cut.value
    # every move of a searched node is either entered or cut
    for event in events:
        if event.kind == ev.VALUE and event.reason == ev.SEARCHED:
            node = _at(state, event.path)
            children = {p[-1] for p in searched | {c.path for c in cuts}
                        if len(p) == len(event.path) + 1 and p[:-1] == event.path}
            assert children == set(node.legal_moves())


def test_mate_distance_cuts_every_move_of_the_node() -> None:
    state = get_game("tictactoe").parse_position("1 4 2 5")  # x wins at once with 3
    events, _ = _observe(state, "alphabeta", None, table=False, hints=False)
    shortcuts = [e for e in events if e.kind == ev.VALUE and e.reason == ev.MATE_DISTANCE]
    assert shortcuts
    for shortcut in shortcuts:
        node = _at(state, shortcut.path)
        cut = {e.path[-1] for e in events if e.kind == ev.CUT and e.path[:-1] == shortcut.path
               and e.reason == ev.MATE_DISTANCE}
        assert node.outcome() is not None or cut == set(node.legal_moves())


def test_an_observer_costs_no_node_and_changes_no_answer() -> None:
    for spec in GAMES:
        for state in _positions(spec, 2, 5):
            for algorithm in ALGORITHMS:
                plain = Searcher(algorithm).search(state, Limits(depth=3), analyze=True)
                seen: list[SearchEvent] = []
                watched = Searcher(algorithm).search(
                    state, Limits(depth=3), analyze=True, observer=seen.append
                )
                assert seen
                assert (plain.nodes, plain.move_scores, plain.pv, plain.cutoffs) == (
                    watched.nodes, watched.move_scores, watched.pv, watched.cutoffs
                )


def test_an_observer_sees_the_generic_search_of_a_game_with_its_own_solver() -> None:
    state = get_game("connect4:width=4,height=4").parse_position("1 2 1")
    seen: list[SearchEvent] = []
    result = Searcher().search(state, Limits(depth=2), observer=seen.append)
    assert result.algorithm != "solver" and seen


def test_an_observer_that_raises_stops_the_search() -> None:
    class Enough(Exception):
        pass

    count = 0

    def observer(event: SearchEvent) -> None:
        nonlocal count
        count += 1
        if count == 10:
            raise Enough

    with pytest.raises(Enough):
        Searcher("alphabeta").search(get_game("tictactoe").initial(), observer=observer)


def test_the_parallel_searcher_refuses_an_observer_by_name() -> None:
    state = get_game("tictactoe").initial()
    refused = pytest.raises(ValueError, match="no search events")
    with ParallelSearcher(workers=1) as searcher, refused:
        searcher.search(state, Limits(depth=1), observer=print)
    with pytest.raises(TypeError, match="observer"):
        Searcher().search(get_game("tictactoe").initial(), observer=3)  # type: ignore[arg-type]


def test_events_have_the_six_fields() -> None:
    assert EVENT_FIELDS == ("kind", "path", "alpha", "beta", "value", "reason")
    event = SearchEvent(ev.ENTER, (), None, None, None, None)
    fields = tuple(getattr(event, name) for name in EVENT_FIELDS)
    assert fields == (ev.ENTER, (), None, None, None, None)
    assert repr(PASS) == "PASS"
