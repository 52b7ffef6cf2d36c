"""The pictures and the steps of a search (drawing.py, steps.py, timeline.py, display.py) and
``unbeatable tree --steps``: one drawing and one account of the engine's own events, for the
page, the notebook and the command line."""

from __future__ import annotations

import io
import json
import math
import re
from typing import Any

import pytest

from unbeatable import FIRST, Limits, Searcher, TaskStats, cli, get_game
from unbeatable.drawing import board_svg, node_states, split_svg, timeline_svg, tree_svg
from unbeatable.search import events as ev
from unbeatable.search import search
from unbeatable.search.score import INFINITY
from unbeatable.steps import EXPLAINED_FIELDS, explain, step_json
from unbeatable.timeline import timeline
from unbeatable.tree import PRUNED, build_tree, format_value, value_scale

TREES = [
    ("tictactoe", "5137", 2, "alphabeta", {}),
    ("tictactoe", "5137", 2, "alphabeta", {"textbook": True}),
    ("tictactoe", "51", 3, "alphabeta", {"hints": True, "table": True}),
    ("tictactoe", "513", 2, "minimax", {}),
    ("tictactoe", "5", 3, "minimax", {"table": True}),
    ("tictactoe", "513", 2, "negamax", {}),
    ("connect4", "4453", 2, "alphabeta", {}),
    ("subtraction", "pile=7", 5, "alphabeta", {}),
    ("leaves:[[3,5],[6,[9,1]],[1,2]]", "", 3, "alphabeta", {"textbook": True}),
]


def _tree(spec: str, moves: str, depth: int, algorithm: str, options: dict[str, Any]) -> Any:
    return build_tree(get_game(spec).parse_position(moves), depth, algorithm, **options)


# --- the tree's picture ----------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "moves", "depth", "algorithm", "options"), TREES)
def test_every_node_and_edge_is_drawn_and_only_the_line_is_gold(
    spec: str, moves: str, depth: int, algorithm: str, options: dict[str, Any]
) -> None:
    tree = _tree(spec, moves, depth, algorithm, options)
    svg = tree_svg(tree)
    nodes = tree.walk()
    drawn = re.findall(r'<g class="tn ([^"]*)" data-node="(\d+)"', svg)
    assert sorted(int(i) for _, i in drawn) == sorted(n.id for n in nodes)
    edges = re.findall(r'<g class="te([^"]*)" data-node="(\d+)"', svg)
    assert len(edges) == len(nodes) - 1
    on_line = {n.id for n in nodes if n.on_pv}
    assert {int(i) for classes, i in drawn if " pv" in f" {classes} "} == on_line
    # the principal variation alone is gold: one mark per edge of the line (and per board)
    gold_edges = [i for classes, i in edges if "pv" in classes.split()]
    assert len(gold_edges) == len(on_line) - 1
    assert svg.count('class="pvmark"') == len(gold_edges) + (len(on_line) if "board" in svg else 0)
    for node in nodes:  # each value written the one way
        if node.kind != PRUNED and node.value is not None and algorithm != "negamax":
            assert f">{format_value(node.value, node.bound, tree.scale)}<" in svg


def test_max_points_up_min_down_and_a_pruned_move_is_a_grey_cross() -> None:
    tree = _tree("tictactoe", "5137", 2, "alphabeta", {"textbook": True})
    svg = tree_svg(tree, boards=False)
    assert "▲ MAX" in svg and "α β: the window" in svg
    root = re.search(r'data-node="0"[^>]*>.*?<path class="shape" d="M0,', svg)
    assert root is not None  # the root, MAX to move, a triangle pointing up
    assert svg.count('stroke="#a0a6ad" stroke-width="1.6"') == tree.pruned


def test_a_step_picture_shows_the_search_half_way() -> None:
    tree = _tree("tictactoe", "5137", 2, "alphabeta", {})
    assert set(node_states(tree, 0).values()) == {"unseen"}
    end = node_states(tree, len(tree.events))
    assert {state.split()[0] for state in end.values()} <= {"done", "cut"}
    assert end[0] == "done now"  # the root's value is the last event
    half = node_states(tree, 10)
    assert sum("now" in state for state in half.values()) == 1
    assert "open" in half.values() and "unseen" in half.values()
    picture = tree_svg(tree, step=10)
    assert 'class="pvmark"' not in picture  # the answer is not given away half-way
    assert 'class="pvmark"' in tree_svg(tree, step=len(tree.events))
    assert picture.count('opacity="0.12"') == 2 * list(half.values()).count("unseen")  # node, edge


@pytest.mark.parametrize(
    ("spec", "moves", "kind"),
    [("tictactoe", "51", "grid"), ("mnk:4,4,4", "6,7", "grid"), ("connect4", "4453", "columns")],
)
def test_a_board_game_draws_its_board(spec: str, moves: str, kind: str) -> None:
    state = get_game(spec).parse_position(moves)
    svg = board_svg(state)
    assert svg is not None and svg.startswith("<svg") and svg._repr_svg_() == svg
    assert state._repr_svg_() == svg  # what Jupyter shows
    if kind == "columns":
        assert svg.count('fill="#e63946"') == 2 and svg.count('fill="#f2c14e"') == 2
    else:
        assert svg.count("stroke-linecap") == 1  # the crosses, one path


def test_a_game_without_a_drawing_shows_its_text() -> None:
    assert get_game("leaves").initial()._repr_svg_() is None
    assert "14" in (board_svg(get_game("subtraction:14,3").initial()) or "")


def test_trees_results_and_timelines_show_themselves() -> None:
    state = get_game("tictactoe").parse_position("51")
    tree = build_tree(state, 2, "alphabeta")
    assert tree._repr_svg_() == tree_svg(tree)
    result = search(state, analyze=True)
    html = result._repr_html_()
    assert html is not None and "<svg" in html and "★" in html
    for move, score in (result.move_scores or {}).items():
        assert f"<td>{state.move_text(move)}</td><td>{score}" in html


# --- the numbers ----------------------------------------------------------------------------


def test_the_scale_rises_above_the_largest_evaluation() -> None:
    from unbeatable.search.events import SearchEvent

    def events(*values: int) -> list[SearchEvent]:
        return [SearchEvent(ev.VALUE, (), None, None, v, ev.HORIZON) for v in values]

    assert value_scale(events(3, -20), 2) == 100
    assert value_scale(events(47), 2) == 100  # a win 4 plies away, 96, is above twice 47
    assert value_scale(events(48), 2) == 1000  # ... but not above twice 48
    assert value_scale(events(900), 3) == 10_000


# --- the steps: one account of the engine's events --------------------------------------------


def _steps(*args: str) -> list[dict[str, Any]]:
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["tree", *args, "--steps"], stdout=out, stderr=err) == 0, err.getvalue()
    assert err.getvalue() == ""
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize(("spec", "moves", "depth", "algorithm", "options"), TREES)
def test_tree_steps_prints_every_event_with_its_six_fields(
    spec: str, moves: str, depth: int, algorithm: str, options: dict[str, Any]
) -> None:
    flags = [f"--{name}" for name, on in options.items() if on]
    lines = _steps(spec, moves, "--depth", str(depth), "--algorithm", algorithm, *flags)
    tree = _tree(spec, moves, depth, algorithm, options)
    assert len(lines) == len(tree.events)
    state = tree.root.state
    for line, event in zip(lines, tree.events, strict=True):
        assert list(line)[:6] == list(ev.EVENT_FIELDS) and set(EXPLAINED_FIELDS) <= set(line)
        assert (line["kind"], line["value"], line["reason"]) == (
            event.kind,
            event.value,
            event.reason,
        )
        bounded = [max(-INFINITY, min(INFINITY, x)) if x is not None else None for x in
                   (event.alpha, event.beta)]
        assert [line["alpha"], line["beta"]] == bounded
        position = state
        for text, move in zip(line["path"], event.path, strict=True):
            assert text == position.move_text(move)
            position = position.play(move)
        assert line["text"]
    if algorithm == "minimax" and not options.get("table"):
        assert not any(line["kind"] == "hit" for line in lines)  # plain: no table, no hints
    if algorithm != "alphabeta":
        assert all(line["alpha"] is None and line["beta"] is None for line in lines)


def test_the_shown_numbers_are_the_engines_in_max_view() -> None:
    """In the first player's view a MIN node's window is mirrored and its values negated."""
    tree = _tree("tictactoe", "5137", 2, "alphabeta", {})
    nodes = tree.nodes_by_id()
    for step in explain(tree):
        event, node = step.event, nodes.get(step.node)
        if node is None or event.alpha is None or event.beta is None:
            continue
        at = node if event.kind != ev.CUT else next(
            n for n in tree.walk() if node in n.children
        )
        low, high = (event.alpha, event.beta)
        if at.state.to_move != FIRST:
            low, high = -high, -low
        assert (step.alpha, step.beta) == (
            format_value(low, scale=tree.scale),
            format_value(high, scale=tree.scale),
        )


def test_every_step_has_words_and_marks_what_goes_beyond_the_textbook() -> None:
    library = explain(_tree("tictactoe", "5137", 2, "alphabeta", {}))
    assert all(step.text for step in library)
    cuts = [s for s in library if s.event.kind == ev.CUT and s.event.reason == ev.BETA]
    assert cuts and all("cannot matter" in s.text and "β ≤ α" in s.text for s in cuts)
    assert {s.beyond for s in library} == {None, "every-best-move", "mate-distance"}
    hinted = explain(_tree("tictactoe", "51", 3, "alphabeta", {"hints": True, "table": True}))
    assert "win-at-once" in {s.beyond for s in hinted}
    assert any(s.event.kind == ev.HIT and "table" in s.text for s in hinted)
    negamax = explain(_tree("tictactoe", "513", 2, "negamax", {}))
    assert any("max(-(" in s.text for s in negamax)  # the sign flip, in numbers
    assert step_json(negamax[0], node=True)["node"] == 0


def test_steps_from_the_side_to_moves_view() -> None:
    first = _steps("tictactoe", "5137", "--depth", "2")
    mover = _steps("tictactoe", "5137", "--depth", "2", "--view", "mover")
    assert [line["value"] for line in first] == [line["value"] for line in mover]
    differ = [a for a, b in zip(first, mover, strict=True) if a["shown"] != b["shown"]]
    assert differ  # MIN's nodes read the other way round


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--algorithm", "minimax", "--hints", "--steps"], "--hints is alpha-beta's"),
        (["--textbook", "--hints", "--steps"], "exclude each other"),
        (["--steps", "--format", "dot"], "--steps prints JSON lines"),
        (["--view", "first"], "--view is for --steps"),
        (["--steps", "--view", "sideways"], "sideways"),
    ],
)
def test_tree_refuses_options_that_contradict_each_other(args: list[str], says: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["tree", "tictactoe", "5137", *args], stdout=out, stderr=err) == 2
    assert out.getvalue() == "" and says in err.getvalue() and err.getvalue().count("\n") == 1


# --- a parallel search's timeline ------------------------------------------------------------


def _task(moves: str, sent: float, trip: float, worker: int = 1, depth: int = 6) -> TaskStats:
    return TaskStats(10, trip / 2, trip / 2, trip, worker, sent, tuple(moves.split()), depth)


def test_a_young_brother_sent_after_its_elder_came_back_waited_for_it() -> None:
    log = [
        _task("5 2 4", 0.000, 0.010, 1),  # the first move, deepest on the line: the elder
        _task("5 2 6", 0.011, 0.002, 2),  # sent once it is back: waited for it
        _task("5 4", 0.014, 0.005, 1),  # its elder is the subtree 5 2, back at 0.013
        _task("5 6", 0.001, 0.004, 2),  # sent before 5 2 came back: did not wait
        _task("1", 0.020, 0.002, 1, 4),  # an earlier iteration's (a presearch)
    ]
    line = timeline(log, 0.03, workers=2, nodes=50, serial=0.06, serial_nodes=40)
    waits = {" ".join(bar.moves): bar.waited_for for bar in line.tasks}
    assert waits == {"5 2 4": None, "5 2 6": ("5", "2", "4"), "5 4": ("5", "2"), "5 6": None}
    assert [bar.index for bar in line.tasks] == [0, 1, 2, 3]  # in the order sent
    assert len(line.earlier) == 1 and line.earlier_iteration == 4
    assert line.speedup == pytest.approx(2.0)
    assert sum(line.busy()) == pytest.approx(sum(t.seconds for t in log))
    assert all(math.isclose(b + i, 0.03) for b, i in zip(line.busy(), line.idle(), strict=True))
    said = " ".join(line.explain())
    assert "speed-up of 2.00x" in said and "waited for an elder brother" in said
    assert "presearch" in said
    picture = timeline_svg(line)
    assert picture.count('class="task"') == 4 and picture.count('class="presearch"') == 1
    assert line._repr_svg_() == picture
    assert split_svg(line).count('class="task"') == 4


def test_a_real_parallel_search_makes_a_timeline_with_the_serial_figures() -> None:
    from unbeatable import ParallelSearcher

    state = get_game("mnk:4,4,4").parse_position("6,7,10")
    with ParallelSearcher(2) as searcher:
        result = searcher.search(state, Limits(depth=4))
        log = list(searcher.task_log)
    serial = Searcher().search(state, Limits(depth=4))
    line = timeline(log, result.elapsed, workers=2, nodes=result.nodes, serial=serial.elapsed,
                    serial_nodes=serial.nodes)
    assert len(line.tasks) + len(line.earlier) == len(log)
    assert all(bar.lane in (0, 1) for bar in line.tasks)
    assert line.speedup is not None and line.speedup > 0
    assert result.score == serial.score
