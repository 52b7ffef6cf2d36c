"""The trees MCTS and df-pn grow, step by step (unbeatable.growth): the steps replay the
algorithms' own searches (the same visits as MCTS's tree, the same answer as df-pn, every
number backed up by the rule its node follows), the picture has every node, and the command
line prints them and refuses what does not apply."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unbeatable import cli, get_game
from unbeatable.drawing import growth_svg
from unbeatable.growth import GrowthStep, grow_tree, growth_json, mcts_growth, pns_growth
from unbeatable.search import SearchOptions
from unbeatable.search.mcts import grow
from unbeatable.search.pns import DFPN, WINS


def _replay(steps: list[GrowthStep], count: int) -> dict[int, tuple[str, str]]:
    labels: dict[int, tuple[str, str]] = {}
    for step in steps[:count]:
        for ident, label, mark in step.changes:
            labels[ident] = (label, mark)
    return labels


def _visits(label: str) -> int:
    return int(label.split("/")[-1])


@pytest.mark.parametrize(("spec", "moves", "count"), [("hex:3", "", 40), ("tictactoe", "5", 60)])
def test_mcts_steps_end_in_the_tree_mcts_grows_itself(spec: str, moves: str, count: int) -> None:
    state = get_game(spec).parse_position(moves)
    growth = mcts_growth(state, count)
    assert len(growth.steps) == count
    tree = grow(state, [count], max_depth=100)[-1]  # the same search, seeded the same way
    by_path = {tuple(n.path): n for n in growth.nodes}

    def check(data: dict[str, Any], path: tuple[str, ...]) -> None:
        node = by_path[path]
        assert _visits(node.label) == data["visits"], path
        for child in data["children"]:
            check(child, (*path, child["move"]))

    check(tree, ())
    assert len(by_path) == 1 + sum(1 for _ in _walk(tree)) - 1
    # every step: one simulation more at the root, the walked nodes one visit more each
    labels = _replay(growth.steps, 0)
    for number, step in enumerate(growth.steps, start=1):
        before = dict(labels)
        labels = _replay(growth.steps, number)
        assert labels[0][0] == str(number)
        for ident, label, _ in step.changes[1:]:
            old = before.get(ident, ("0/0", ""))[0]
            assert _visits(label) == _visits(old) + 1
        assert step.text.startswith(f"Simulation {number}:")


def _walk(tree: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield tree
    for child in tree["children"]:
        yield from _walk(child)


def test_mcts_solver_marks_a_proven_root() -> None:
    state = get_game("hex:2").initial()
    growth = mcts_growth(state, 500)
    assert growth.nodes[0].mark == "won"  # hex:2: the first player wins
    assert "proven" in growth.summary
    assert len(growth.steps) < 500  # it stops once proven


@pytest.mark.parametrize(
    ("spec", "moves", "budget"), [("hex:3", "", 60), ("hex:4", "b2", 200), ("tictactoe", "", 400)]
)
def test_pns_steps_follow_the_rules_and_give_df_pns_answer(
    spec: str, moves: str, budget: int
) -> None:
    state = get_game(spec).parse_position(moves)
    growth = pns_growth(state, budget)
    answer = DFPN(SearchOptions(algorithm="pns")).prove(state, WINS)
    root = growth.nodes[0]
    if "proved" in growth.summary or "disproved" in growth.summary:
        assert answer is not None
        assert root.label == ("0/∞" if answer else "∞/0")
        assert root.mark == ("proved" if answer else "disproved")
    root_first = root.first
    labels: dict[int, tuple[str, str]] = {}
    checked = 0
    for step in growth.steps:
        for ident, label, mark in step.changes:
            labels[ident] = (label, mark)
        if step.kind != "leave" or "a number reached its threshold" not in step.text:
            continue
        # a node going back up holds the numbers its children give it (for the root's
        # question): at an OR node the least proof and the summed disproof, at AND the reverse
        node = growth.nodes[step.node]
        numbers = [_numbers(labels[c][0]) for c in node.children]
        proofs = [p for p, _ in numbers]
        disproofs = [d for _, d in numbers]
        if node.first == root_first:
            expected = (min(proofs), min(sum(disproofs), INF))
        else:
            expected = (min(sum(proofs), INF), min(disproofs))
        assert _numbers(labels[step.node][0]) == expected, step.text
        checked += 1
    assert checked > 3


INF = 1 << 60


def _numbers(label: str) -> tuple[int, int]:
    proof, disproof = label.split("/")
    return tuple(INF if n == "∞" else int(n) for n in (proof, disproof))  # type: ignore[return-value]


def test_growth_is_capped_and_drawn_whole() -> None:
    state = get_game("hex:5").initial()
    growth = pns_growth(state, 1000, max_nodes=60)
    assert growth.capped and len(growth.nodes) <= 60 + 25
    svg = str(growth_svg(growth, title="hex:5"))
    assert len(re.findall(r'<g class="tn', svg)) == len(growth.nodes)
    assert len(re.findall(r'<g class="te"', svg)) == len(growth.nodes) - 1
    data = growth_json(growth)
    assert json.loads(json.dumps(data)) == data
    with pytest.raises(ValueError, match="mcts or pns"):
        grow_tree(state, "alphabeta")


def test_a_seed_reproduces_the_mcts_steps() -> None:
    state = get_game("hex:4").initial()
    one = mcts_growth(state, 30, SearchOptions(algorithm="mcts", rng=random.Random(7)))
    two = mcts_growth(state, 30, SearchOptions(algorithm="mcts", rng=random.Random(7)))
    assert [s.changes for s in one.steps] == [s.changes for s in two.steps]


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["tree", *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_prints_a_grown_tree(tmp_path: Path) -> None:
    code, out, _ = _cli("hex:3", "--algorithm", "pns", "--budget", "40")
    assert code == 0
    assert out.splitlines()[0].startswith("hex:3 from the start, pns: Does the first player win?")
    assert "(root)  0/∞  proved" in out
    code, out, _ = _cli("hex:3", "--algorithm", "mcts", "--budget", "5", "--steps")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 5 and lines[0]["kind"] == "simulation"
    path = tmp_path / "t.svg"
    code, out, _ = _cli("hex:3", "--algorithm", "mcts", "-o", str(path))
    assert code == 0 and path.read_text().startswith("<svg")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--algorithm", "mcts", "--depth", "3"), "--depth is for minimax"),
        (("--algorithm", "pns", "--textbook"), "--textbook is for minimax"),
        (("--algorithm", "pns", "--format", "dot"), "not dot"),
        (("--algorithm", "pns", "--format", "svg"), "give -o FILE.svg"),
        (("--budget", "4",), "--budget is for mcts and pns"),
        (("--algorithm", "mcts", "--budget", "0"), "0"),
    ],
)
def test_the_command_line_refuses_what_a_grown_tree_does_not_take(
    args: tuple[str, ...], words: str
) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["tree", "hex:3", *args], stdout=out, stderr=err)
    assert code == 2
    assert words in err.getvalue()
    assert "Traceback" not in err.getvalue()
