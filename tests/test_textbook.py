"""The textbook's alpha-beta: the engine without its mate-distance cuts, and the tree searched
as the textbook writes it (tree.build_tree(textbook=True))."""

from __future__ import annotations

import pytest

from tests.brute import truth
from unbeatable import get_game
from unbeatable.search import events as ev
from unbeatable.search.engine import Engine
from unbeatable.search.events import SearchEvent
from unbeatable.search.score import INFINITY


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


@pytest.mark.parametrize("position", ["", "5", "51", "513", "1524"])
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
