"""The recorded search tree mirrors the library's searches node for node."""

from __future__ import annotations

import functools
import random
import re

import pytest

from unbeatable import Limits, Searcher, State, get_game
from unbeatable.search import search
from unbeatable.tree import (
    EXACT,
    PRUNED,
    TreeTooLargeError,
    build_tree,
    format_value,
    to_dot,
    to_text,
    value_words,
)

# (game, positions, deepest depth): positions are move strings played through the public API.
CASES = [
    ("tictactoe", ["", "5", "51", "5137", "12459"], 4),
    ("subtraction", ["", "pile=7", "pile=4", "3 1"], 6),
    ("mnk:4,4,4", ["", "6,7"], 3),
    ("mnk:3,4,3", ["1"], 3),
    ("connect4", ["", "4453"], 3),
]


def _positions() -> list[tuple[str, str, int]]:
    return [
        (game, pos, depth)
        for game, positions, top in CASES
        for pos in positions
        for depth in range(1, top + 1)
    ]


@pytest.mark.parametrize(("spec", "position", "depth"), _positions())
def test_minimax_tree_matches_library(spec: str, position: str, depth: int) -> None:
    state = get_game(spec).parse_position(position)
    tree = build_tree(state, depth, "minimax", max_nodes=None)
    result = search(state, Limits(depth=depth), algorithm="minimax")
    assert tree.value == result.score.value
    assert tree.nodes == result.nodes
    assert tree.best_moves == result.best_moves
    assert tree.pv == result.pv
    assert tree.pruned == 0


@pytest.mark.parametrize("hints", [False, True])
@pytest.mark.parametrize(("spec", "position", "depth"), _positions())
def test_alphabeta_tree_matches_library(spec: str, position: str, depth: int, hints: bool) -> None:
    state = get_game(spec).parse_position(position)
    tree = build_tree(state, depth, "alphabeta", hints=hints, max_nodes=None)
    # The value agrees with the default alpha-beta (with its table) ...
    assert tree.value == search(state, Limits(depth=depth), algorithm="alphabeta").score.value
    # ... and everything else with the same search without a table.
    result = Searcher("alphabeta", table=False, hints=hints).search(state, Limits(depth=depth))
    assert tree.value == result.score.value
    assert tree.nodes == result.nodes
    assert tree.cutoffs == result.cutoffs
    assert tree.best_moves == result.best_moves
    assert tree.pv == result.pv


def test_alphabeta_visits_fewer_nodes_and_marks_what_it_pruned() -> None:
    state = get_game("tictactoe").parse_position("51")
    full = build_tree(state, 3, "minimax", max_nodes=None)
    cut = build_tree(state, 3, "alphabeta", max_nodes=None)
    assert cut.value == full.value
    assert cut.nodes < full.nodes
    assert cut.pruned > 0
    # Every move of a searched node is drawn: searched, pruned, or cut short as a whole.
    for node in cut.walk():
        if node.kind == "inner":
            assert len(node.children) == len(node.state.legal_moves())
    pruned = [n for n in cut.walk() if n.kind == PRUNED]
    assert all(n.value is None and not n.on_pv for n in pruned)


def test_pv_is_a_chain_of_exact_nodes_from_the_root() -> None:
    state = get_game("tictactoe").parse_position("5")
    for algorithm in ("minimax", "alphabeta"):
        tree = build_tree(state, 3, algorithm, max_nodes=None)
        node, moves = tree.root, []
        while True:
            on_pv = [c for c in node.children if c.on_pv]
            assert len(on_pv) <= 1
            if not on_pv:
                break
            node = on_pv[0]
            assert node.bound == EXACT
            moves.append(node.move)
        assert tuple(moves) == tree.pv
        assert all(n.value == tree.root.value for n in tree.walk() if n.on_pv)


def test_values_are_from_the_first_players_view() -> None:
    # second player to move and winning at once: min wins one ply below the root
    state = get_game("tictactoe").parse_position("14259")
    tree = build_tree(state, 1, "minimax")
    assert tree.root.value is not None and tree.root.value < 0
    assert not tree.root.maximising
    assert format_value(tree.root.value) == "-99"  # min wins one ply below the root
    assert value_words(tree.root.value) == "min wins 1 plies from the root"
    assert tree.score.is_win  # from the side to move's view, as a SearchResult


def test_size_guard() -> None:
    state = get_game("tictactoe").initial()
    with pytest.raises(TreeTooLargeError, match="more than 100 nodes"):
        build_tree(state, 4, "minimax", max_nodes=100)
    assert build_tree(state, 1, "minimax", max_nodes=10).nodes == 10


def test_bad_arguments() -> None:
    state = get_game("tictactoe").initial()
    with pytest.raises(ValueError, match="unknown tree algorithm"):
        build_tree(state, 2, "negascout")
    with pytest.raises(ValueError, match="depth"):
        build_tree(state, 0, "minimax")
    with pytest.raises(TreeTooLargeError, match="deeper than"):
        build_tree(get_game("subtraction:pile=900,take=1").initial(), 800, max_nodes=None)
    with pytest.raises(ValueError, match="over"):
        build_tree(get_game("tictactoe").parse_position("14253"), 2)


def test_dot_draws_every_node_and_edge() -> None:
    game = get_game("tictactoe")
    tree = build_tree(game.parse_position("5137"), 2, "alphabeta")
    dot = to_dot(tree, title='a "quoted" title', board=game.picture)
    nodes = tree.walk()
    assert dot.startswith("digraph search_tree {") and dot.rstrip().endswith("}")
    assert len(re.findall(r"^  n\d+ \[", dot, re.M)) == len(nodes)
    assert len(re.findall(r"^  n\d+ -> n\d+ ", dot, re.M)) == len(nodes) - 1
    assert 'shape="triangle"' in dot and 'shape="invtriangle"' in dot
    assert 'style="dashed", color="gray60"' in dot  # pruned moves
    assert dot.count('color="red", penwidth="2.5"') == len(tree.pv)  # the PV's edges
    assert '\\"quoted\\"' in dot


def test_text_outline() -> None:
    tree = build_tree(get_game("tictactoe").parse_position("5137"), 2, "alphabeta")
    text = to_text(tree)
    assert len(text.splitlines()) == len(tree.walk())
    assert text.count("*") == len(tree.pv) + 1


def _random_positions(spec: str, count: int, rng: random.Random) -> list[State]:
    """Positions reached by random play from the start, unfinished, with the moves played
    through the public API."""
    game = get_game(spec)
    found: list[State] = []
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randrange(0, 8)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play_text(state.move_text(rng.choice(list(moves))))
        if state.outcome() is None:
            found.append(state)
    return found


@pytest.mark.parametrize(
    "spec", ["tictactoe", "mnk:3,4,3", "subtraction:pile=9,take=3", "connect4:width=4,height=4"]
)
def test_trees_of_random_positions_match_the_library(spec: str) -> None:
    rng = random.Random(20261121)
    for state in _random_positions(spec, 25, rng):
        depth = rng.randrange(1, 4)
        tree = build_tree(state, depth, "minimax", max_nodes=None)
        result = search(state, Limits(depth=depth), algorithm="minimax")
        assert (tree.value, tree.nodes, tree.pv) == (result.score.value, result.nodes, result.pv)
        hints = rng.random() < 0.5
        tree = build_tree(state, depth, "alphabeta", hints=hints, max_nodes=None)
        plain = Searcher("alphabeta", table=False, hints=hints).search(state, Limits(depth=depth))
        assert (tree.value, tree.nodes, tree.pv) == (plain.score.value, plain.nodes, plain.pv)
        assert tree.value == search(state, Limits(depth=depth), algorithm="alphabeta").score.value


def test_format_value() -> None:
    from unbeatable.search.score import INFINITY, WIN
    from unbeatable.search.table import EXACT, LOWER, UPPER

    assert format_value(None) == "pruned"
    assert format_value(0) == "0"
    assert format_value(23) == "+23"
    assert format_value(-7, UPPER) == "≤ -7"
    assert format_value(WIN - 5, LOWER) == "≥ +95"  # max wins 5 plies from the root
    assert (str(UPPER), str(LOWER), str(EXACT)) == ("upper", "lower", "exact")  # one spelling
    assert format_value(3 - WIN) == "-97"
    assert format_value(3 - WIN, scale=1000) == "-997"
    assert format_value(INFINITY) == "+∞" and format_value(-INFINITY) == "-∞"
    assert value_words(WIN - 5) == "max wins 5 plies from the root"
    assert value_words(0) == "a draw (or an even evaluation)"


def test_one_way_to_write_a_value_a_draw_is_0_everywhere() -> None:
    tree = build_tree(get_game("tictactoe").parse_position("5123746"), 2, "minimax")
    drawn = [n for n in tree.walk() if n.kind == "terminal" and n.value == 0]
    assert drawn
    assert "draw" not in to_text(tree) and "draw" not in to_dot(tree)


def test_the_scale_keeps_every_win_above_every_evaluation() -> None:
    for spec, position, depth in [("tictactoe", "5", 3), ("mnk:4,4,4", "6,7", 2)]:
        tree = build_tree(get_game(spec).parse_position(position), depth, "minimax")
        evaluations = [abs(n.value) for n in tree.walk() if n.kind == "horizon" and n.value]
        assert tree.scale - depth - 2 > 2 * max(evaluations, default=0)
        assert tree.scale in (100, 1000, 10000)


# --- games with extra turns, and drawing with Graphviz ---------------------------------------


@functools.cache
def _truth(state: State) -> int:
    """Brute force, from the side to move's view, a win ``d`` plies away worth ``WIN - d``: a
    child's value changes sign only when the other player moves there."""
    from unbeatable.search.score import WIN

    outcome = state.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else WIN if outcome.winner == state.to_move else -WIN
    best = None
    for move in state.legal_moves():
        child = state.play(move)
        value = _truth(child)
        value = value - 1 if value > 0 else value + 1 if value < 0 else 0
        value = value if child.to_move == state.to_move else -value
        best = value if best is None else max(best, value)
    assert best is not None
    return best


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
@pytest.mark.parametrize("hints", [False, True])
def test_tree_values_with_extra_turns_match_brute_force(algorithm: str, hints: bool) -> None:
    from tests.dots import Dots

    rng = random.Random(1)
    checked: set[Dots] = set()
    for _ in range(300):  # 300 draws, 106 different positions: each is checked once
        state = Dots(1, 2)
        for _ in range(rng.randrange(1, 6)):
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome() is not None or state in checked:
            continue
        tree = build_tree(state, 7, algorithm, hints=hints, max_nodes=None)
        assert tree.value == _truth(state), state
        # and every child of the root, as the root's side sees it
        for child in tree.root.children:
            if child.kind == PRUNED or child.bound != EXACT or algorithm == "alphabeta":
                continue
            assert child.value is not None
            seen = child.value if state.to_move == 0 else -child.value
            after = _truth(child.state)
            after = after - 1 if after > 0 else after + 1 if after < 0 else 0
            assert seen == (after if child.state.to_move == state.to_move else -after)
        checked.add(state)
    assert len(checked) >= 100
    # The one-row game of two boxes: a draw that only the middle edge keeps.
    tree = build_tree(Dots(1, 2), 7, algorithm, hints=hints, max_nodes=None)
    assert tree.value == 0 and tree.best_moves == (5,)


def test_render_says_when_graphviz_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from unbeatable import tree as tree_module

    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(tree_module.GraphvizMissingError, match="dot"):
        tree_module.render("digraph {}", "svg", "x.svg")
    with pytest.raises(ValueError, match="gif"):
        tree_module.render("digraph {}", "gif", "x.gif")
