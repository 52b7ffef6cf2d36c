"""A finished game worth a number (game.Payoff): the textbook tree's leaves, points won."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from unbeatable import (
    GameCheckError,
    Limits,
    Outcome,
    Payoff,
    Searcher,
    State,
    check_game,
)
from unbeatable.report import ScoreReport, describe

# The textbook's tree: MAX at the root, MIN below, leaves from MAX's (the first player's) view.
TREE: Any = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]  # minimax value 3, best move 0


@dataclass(frozen=True)
class Leaves(State):
    """A game tree given as nested lists: a list is a node (MAX, MIN, MAX, ... from the
    root), a number a leaf worth that much to MAX."""

    numeric_outcomes: ClassVar[bool] = True
    node: Any = None
    turn: int = 0

    @property
    def to_move(self) -> int:
        return self.turn

    def legal_moves(self) -> list[int]:
        return list(range(len(self.node))) if isinstance(self.node, tuple) else []

    def play(self, move: Any) -> Leaves:
        return type(self)(self.node[move], 1 - self.turn)

    def outcome(self) -> Payoff | None:
        return None if isinstance(self.node, tuple) else Payoff.zero_sum(self.node)


def _tuples(tree: Any) -> Any:
    return tuple(_tuples(t) for t in tree) if isinstance(tree, list) else tree


ROOT = Leaves(_tuples(TREE))


@pytest.mark.parametrize("algorithm", ["minimax", "negamax", "alphabeta", "alphabeta-stack"])
@pytest.mark.parametrize("table", [False, True])
def test_the_textbook_tree_is_worth_3_to_max(algorithm: str, table: bool) -> None:
    result = Searcher(algorithm, table=table).search(ROOT, analyze=True)
    assert result.score.value == 3 and result.exact and result.score.kind == "value"
    assert str(result.score) == "3"
    assert result.best_moves == (0,)
    assert result.move_scores is not None
    assert {m: s.value for m, s in result.move_scores.items()} == {0: 3, 1: 2, 2: 2}
    assert result.pv == (0, 0)


def test_a_payoff_from_mins_view_and_a_float() -> None:
    state = Leaves(((1.5, -2), (0.25,)), turn=0)
    result = Searcher("alphabeta").search(state, analyze=True)
    assert result.score.value == 0.25 and str(result.score) == "0.25"
    below = state.play(0)  # MIN to move: its value is its own, the negation of MAX's
    assert Searcher("negamax").search(below).score.value == 2


def test_alphabeta_prunes_the_textbook_tree() -> None:
    plain = Searcher("minimax", table=False).search(ROOT)
    pruned = Searcher("alphabeta", table=False, hints=False).search(ROOT)
    assert pruned.nodes < plain.nodes == 13


def test_the_report_shows_a_number() -> None:
    result = Searcher().search(ROOT)
    assert describe(result.score, ROOT) == "3"
    report = ScoreReport.of(ROOT, result.score)
    assert report.kind == "value" and report.value == 3 and report.solve_score is None


def test_a_payoff_checks_its_values() -> None:
    with pytest.raises(ValueError, match="one value per player"):
        Payoff((1,))
    with pytest.raises(ValueError, match="finite number"):
        Payoff((float("nan"), 0))
    with pytest.raises(ValueError, match="finite number"):
        Payoff.zero_sum(10**9)
    assert Payoff.zero_sum(3).winner == 0 and Payoff((1, 1)).winner is None
    assert str(Payoff.zero_sum(-1.5)) == "payoff -1.5"
    assert str(Payoff((1, 2, 3))) == "payoffs 1, 2, 3"


@dataclass(frozen=True)
class Undeclared(Leaves):
    numeric_outcomes: ClassVar[bool] = False


@dataclass(frozen=True)
class Mixed(Leaves):
    def outcome(self) -> Payoff | None:
        if isinstance(self.node, tuple):
            return None
        return Outcome.DRAW  # type: ignore[return-value]


def test_check_game_holds_a_game_to_its_declaration() -> None:
    check_game(ROOT)
    with pytest.raises(GameCheckError, match="numeric_outcomes"):
        check_game(Undeclared(_tuples(TREE)))
    with pytest.raises(GameCheckError, match="numeric_outcomes"):
        check_game(Mixed(_tuples(TREE)))


def test_a_depth_limited_search_of_a_payoff_game_is_heuristic_above_the_leaves() -> None:
    deep = Leaves(((((1, 2), (3, 4)),),))
    result = Searcher().search(deep, Limits(depth=1))
    assert not result.exact and result.score.kind == "heuristic"
