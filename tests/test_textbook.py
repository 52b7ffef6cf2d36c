"""The textbook's alpha-beta: the engine without its mate-distance cuts, and the tree searched
as the textbook writes it (tree.build_tree(textbook=True))."""

from __future__ import annotations

import random

import pytest

from tests.brute import truth
from unbeatable import State, get_game
from unbeatable.game import FIRST
from unbeatable.search import events as ev
from unbeatable.search.engine import Engine
from unbeatable.search.events import SearchEvent
from unbeatable.search.score import INFINITY, WIN
from unbeatable.steps import explain
from unbeatable.tree import PRUNED, build_tree


def _engine(mate_distance: bool, seen: list[SearchEvent]) -> Engine:
    return Engine(
        table=None,
        symmetry=False,
        hints=False,
        evaluate=None,
        order=None,
        deadline=None,
        max_nodes=None,
        observer=seen.append,
        mate_distance=mate_distance,
    )


@pytest.mark.parametrize(  # "": the whole game twice, 0.9 s (2026-12-02)
    "position", [pytest.param("", marks=pytest.mark.slow), "5", "51", "513", "1524"]
)
def test_without_mate_distance_cuts_the_value_is_the_same_and_more_nodes_are_searched(
    position: str,
) -> None:
    state = get_game("tictactoe").parse_position(position)
    found: dict[bool, tuple[int, int, list[SearchEvent]]] = {}
    for mate_distance in (True, False):
        seen: list[SearchEvent] = []
        engine = _engine(mate_distance, seen)
        value = engine.alphabeta(state, 20, -INFINITY, INFINITY, 0)
        found[mate_distance] = (value, engine.nodes, seen)
    with_cuts, without = found[True], found[False]
    assert with_cuts[0] == without[0] == truth(state, None)
    assert without[1] >= with_cuts[1]
    assert not any(e.reason == ev.MATE_DISTANCE for e in without[2])
    if position == "":
        assert any(e.reason == ev.MATE_DISTANCE for e in with_cuts[2])
        assert without[1] > with_cuts[1]


# --- the textbook's tree ----------------------------------------------------------------------


def _aima(state: State, depth: int, ply: int, alpha: int, beta: int, seen: Seen) -> int:
    """The textbook's alpha-beta in max/min form (Russell and Norvig's ALPHA-BETA-SEARCH),
    written here as an oracle: values from the first player's view, a win ``d`` plies from
    the root ``WIN - d``, the evaluation at the depth limit; it notes every node it visits and
    every move it prunes."""
    seen.visited.append(seen.path)
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return WIN - ply if outcome.winner == FIRST else ply - WIN
    if depth == 0:
        value = int(state.evaluate())
        return value if state.to_move == FIRST else -value
    maximising = state.to_move == FIRST
    best = -INFINITY if maximising else INFINITY
    moves = list(state.legal_moves())
    for index, move in enumerate(moves):
        seen.path = (*seen.path, state.move_text(move))
        value = _aima(state.play(move), depth - 1, ply + 1, alpha, beta, seen)
        seen.path = seen.path[:-1]
        if maximising:
            best = max(best, value)
            if best >= beta:
                seen.pruned += [(*seen.path, state.move_text(m)) for m in moves[index + 1 :]]
                return best
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            if best <= alpha:
                seen.pruned += [(*seen.path, state.move_text(m)) for m in moves[index + 1 :]]
                return best
            beta = min(beta, best)
    return best


class Seen:
    def __init__(self) -> None:
        self.path: tuple[str, ...] = ()
        self.visited: list[tuple[str, ...]] = []
        self.pruned: list[tuple[str, ...]] = []


@pytest.mark.parametrize(  # 3 x 4: 1.5 s (2026-12-02)
    "spec",
    ["tictactoe", pytest.param("mnk:3,4,3", marks=pytest.mark.slow), "subtraction:pile=9,take=3"],
)
def test_the_textbook_switch_searches_the_textbooks_tree(spec: str) -> None:
    """Every node visited and every move pruned, in order, is the textbook's."""
    rng = random.Random(19)
    game = get_game(spec)
    checked = 0
    while checked < 30:
        state = game.initial()
        for _ in range(rng.randrange(0, 5)):
            if state.outcome() is None:
                state = state.play(rng.choice(list(state.legal_moves())))
        if state.outcome() is not None:
            continue
        depth = rng.randrange(1, 5)
        tree = build_tree(state, depth, "alphabeta", textbook=True, max_nodes=None)
        seen = Seen()
        value = _aima(state, depth, 0, -INFINITY, INFINITY, seen)
        walked = tree.paths()
        visited = [walked[n.id] for n in tree.walk() if n.kind != PRUNED]
        pruned = [walked[n.id] for n in tree.walk() if n.kind == PRUNED]
        assert visited == seen.visited
        assert pruned == seen.pruned
        assert tree.root.value == value
        assert tree.nodes == len(seen.visited)
        assert not any(e.reason == ev.MATE_DISTANCE for e in tree.events)
        checked += 1


def test_textbook_and_library_alpha_beta_agree_on_the_value_and_differ_where_labelled() -> None:
    state = get_game("tictactoe").parse_position("5137")
    library = build_tree(state, 2, "alphabeta")
    textbook = build_tree(state, 2, "alphabeta", textbook=True)
    assert library.root.value == textbook.root.value
    beyond = {step.beyond for step in explain(library)} - {None}
    assert beyond == {"every-best-move", "mate-distance"}
    assert {step.beyond for step in explain(textbook)} == {None}
    assert textbook.best_moves == textbook.pv[:1]
    with pytest.raises(ValueError, match="hints"):
        build_tree(state, 2, "alphabeta", textbook=True, hints=True)


@pytest.mark.slow  # two workers to depth 7 (the least with a presearch): 1.4 s (2026-12-02)
def test_the_task_log_says_which_iteration_each_task_belongs_to() -> None:
    from unbeatable import Limits
    from unbeatable.search import ParallelSearcher

    state = get_game("mnk:4,4,4").parse_position("6,7")  # 14 moves: a presearch two plies up
    with ParallelSearcher(2) as searcher:
        searcher.search(state, Limits(depth=7))
        iterations = [task.iteration for task in searcher.task_log]
    assert set(iterations) == {5, 7}
    assert iterations == sorted(iterations)  # the presearch ends before the search begins
