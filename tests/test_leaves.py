"""Your own textbook tree (games/leaves.py): read from its text, searched by the engine, and
every bad text refused in one line that names it."""

from __future__ import annotations

import io
import pickle
import random
from typing import Any

import pytest

from unbeatable import Searcher, check_game, cli, get_game
from unbeatable.games import UnknownGameError
from unbeatable.games.leaves import DEFAULT_TREE, Leaves, LeavesError, parse_tree, tree_text
from unbeatable.tree import build_tree


def _minimax(tree: Any, maximising: bool = True) -> float:
    """The textbook's minimax over nested lists, written here as the oracle."""
    if not isinstance(tree, (list, tuple)):
        return float(tree)
    values = [_minimax(child, not maximising) for child in tree]
    return max(values) if maximising else min(values)


def _random_tree(rng: random.Random, depth: int) -> Any:
    if depth == 0 or (depth < 3 and rng.random() < 0.25):
        return rng.randint(-9, 20)
    return [_random_tree(rng, depth - 1) for _ in range(rng.randint(1, 3))]


def _text(tree: Any) -> str:
    return str(tree).replace(" ", "")


def test_the_issues_tree_is_worth_6_and_its_second_move_is_best() -> None:
    game = get_game("leaves:[[3,5],[6,[9,1]],[1,2]]")
    assert game.spec == "leaves:[[3,5],[6,[9,1]],[1,2]]"
    for algorithm in ("minimax", "negamax", "alphabeta", "alphabeta-stack"):
        result = Searcher(algorithm).search(game.initial(), analyze=True)
        assert result.score.value == 6 and str(result.score) == "6"
        assert result.best_moves == (1,) and result.pv == (1, 0)
    check_game(game.initial())


def test_without_a_tree_it_is_the_textbooks_figure() -> None:
    game = get_game("leaves")
    assert game.spec == f"leaves:{DEFAULT_TREE}"
    assert Searcher().search(game.initial()).score.value == 3


@pytest.mark.parametrize("seed", range(40))
def test_random_trees_are_worth_their_minimax_value_under_every_algorithm(seed: int) -> None:
    rng = random.Random(seed)
    tree = [_random_tree(rng, 4) for _ in range(rng.randint(1, 3))]
    game = get_game("leaves:" + _text(tree))
    assert isinstance(game, Leaves)
    truth = _minimax(tree)
    for algorithm in ("minimax", "negamax", "alphabeta"):
        for table in (False, True):
            found = Searcher(algorithm, table=table).search(game.initial())
            assert found.score.value == truth, (tree, algorithm, table)
    drawn = build_tree(game.initial(), game.depth, "alphabeta", textbook=True, max_nodes=None)
    assert drawn.root.value == truth


def test_a_state_pickles_hashes_and_reads_back() -> None:
    game = get_game("leaves:[[1,2],[3,[4,5]]]")
    state = game.parse_position("2 2")
    assert state == pickle.loads(pickle.dumps(state))
    assert hash(state) == hash(game.parse_position("2,2"))
    assert state.to_move == 0 and state.legal_moves() == [0, 1]  # MAX again, two plies down
    assert game.format_position(state) == "2 2"
    assert "MAX to move in [4,5]" in game.picture(state)
    assert tree_text(parse_tree(" [ [1 , 2.5] , [-3] ] ")) == "[[1,2.5],[-3]]"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[3,5],[6", "2 '[' not closed"),
        ("[3,,5]", "at character 4: a number or '[' expected"),
        ("[]", "an empty list is a node without moves"),
        ("[[3,5]]]", "the tree has already ended"),
        ("[3 5]", "',' or ']' expected"),
        ("abc", "'a' is not part of a tree"),
        ("5", "a leaf must be inside a list"),
        ("[1e3]", "'e' is not part of a tree"),
        ("[2000000]", "too large"),
        ("[" * 40 + "1" + "]" * 40, "deeper than 30 levels"),
    ],
)
def test_a_bad_tree_is_one_error_naming_its_text(text: str, says: str) -> None:
    with pytest.raises(UnknownGameError, match="leaves: ") as caught:
        get_game("leaves:" + text)
    message = str(caught.value)
    assert says in message and "\n" not in message
    assert repr(text[:60] + ("..." if len(text) > 60 else "")) in message
    with pytest.raises(LeavesError):
        parse_tree(text)


def test_the_command_line_refuses_a_bad_tree_in_one_line() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["tree", "leaves:[[3,5],[6", "--depth", "2"], stdout=out, stderr=err)
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue().count("\n") == 1 and "'[[3,5],[6' at its end" in err.getvalue()


def test_a_bad_branch_names_it() -> None:
    game = get_game("leaves:[[1,2],[3]]")
    with pytest.raises(ValueError, match="branch 3 does not exist"):
        game.parse_position("3")
    with pytest.raises(ValueError, match="after the game ended"):
        game.parse_position("2 1 1")
