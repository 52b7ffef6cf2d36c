"""The command line beyond two players taking turns (issue 22): what a value means in
``analyze`` and its JSON (version 2: meaning, values per player, the chance to win, the
outcomes of a roll), ``play`` with the dice rolled or typed and any mix of people and AIs,
``match`` of three players."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import error_line, run
from tests.test_cli import _schema, validate


@pytest.mark.parametrize(
    "argv",
    [
        ["bearoff", ""],  # a roll to come: the outcomes, their probabilities, the expectation
        ["bearoff", "2-1"],
        ["bearoff:15,6", "6-5", "--depth", "1"],
        ["shutthebox:4", ""],
        ["shutthebox:4,3", "3"],
        ["mnk:3,3,3,players=3", "5,1"],
        ["mnk:3,3,3,players=3", "5,1", "--algorithm", "paranoid"],
        ["bearoff", "2-1", "--workers", "2"],
    ],
)
def test_analyze_json_of_chance_and_more_players_follows_the_schema(argv: list[str]) -> None:
    code, out, err = run("analyze", *argv, "--json")
    assert code == 0, err
    data = json.loads(out)
    schema = _schema()
    validate(data, schema, schema)
    assert data["version"] == 2
    score = data["score"]
    assert score["meaning"] in ("expected-score", "expected-payoff", "payoff", "guaranteed-payoff")
    if data["players"] > 2 and data["algorithm"] == "maxn":
        assert len(score["values"]) == data["players"]
        mover = ["first", "second", "third"].index(data["to_move"])
        assert score["value"] == score["values"][mover]
    if score["meaning"] == "expected-score":
        assert score["win_probability"] == pytest.approx((1 + score["value"]) / 2)
    if data["chance"]:
        assert data["best_moves"] == [] and data["pv"] == []
        total = sum(m["probability"] for m in data["moves"])
        assert total == pytest.approx(1)
        expected = sum(m["probability"] * m["value"] for m in data["moves"])
        assert score["value"] == pytest.approx(expected)
    else:
        assert data["best_moves"] and data["pv"][0] in data["best_moves"]


def test_analyze_text_of_a_roll_lists_every_outcome() -> None:
    code, out, err = run("analyze", "bearoff", "")
    assert code == 0, err
    assert "first player to roll: 88.04% to win (expected score +0.7608)" in out
    assert re.search(r"^6-6\s+0\.0278\s+100\.00% to win", out, re.M)
    assert "best:" not in out
    code, out, _ = run("analyze", "bearoff", "2-1")
    assert "best: 3/2 2/off, 2/off 1/off" in out  # plays with spaces: commas between them
    code, out, _ = run("analyze", "mnk:3,3,3,players=3", "5,1")
    assert "third player to move: 0 (first 0, second 0, third 0)" in out


def test_play_rolls_the_dice_and_says_so() -> None:
    code, out, err = run("play", "bearoff", "--seed", "4", "--demo")
    assert code == 0, err
    assert re.search(r"^first player rolls [1-6]-[1-6]$", out, re.M)
    assert "game over: " in out
    again = run("play", "bearoff", "--seed", "4", "--demo")[1]
    assert again == out  # the seed rolls the same dice


def test_play_with_dice_typed_as_ones_own_show_them() -> None:
    script = "9-9\n6-5\n3/off 2/off\n2-1\nquit\n"
    code, out, err = run("play", "bearoff", "--dice", "typed", "--human", "first", stdin=script)
    assert code == 0, err
    assert "the first player's roll (as the dice show it, e.g. 6-6): " in out
    assert "'9-9' is not a roll of two dice" in out
    assert "first player to play 6-5" in out
    assert "AI plays" in out.split("roll (as the dice show it, e.g. 6-6): 2-1")[1]


def test_people_and_ais_mixed_in_a_game_of_three() -> None:
    script = "1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n"
    code, out, err = run("play", "mnk:3,3,3,players=3", "--human", "first,third", stdin=script)
    assert code == 0, err
    assert "you play first and third against the AI as second" in out.splitlines()[0]
    assert "AI (second) plays" in out
    assert "your move (third):" in out
    code, out, err = run("play", "mnk:3,3,3,players=3", "--human", "all", stdin="1\n2\n3\nquit\n")
    assert code == 0 and "against no AI" in out and "AI (" not in out
    code, _, err = run("play", "mnk:3,3,3,players=3", "--human", "fourth")
    assert code == 2 and "choose first, second, third (or 1 to 3)" in error_line(err)


def test_a_match_of_three_players_turns_the_seats_round() -> None:
    code, out, err = run(
        "match", "perfect", "random", "random", "--game", "mnk:3,3,3,players=3", "-n", "3",
        "--seed", "5",
    )
    assert code == 0, err
    rows = out.splitlines()[2:]
    assert [row.split()[:2] for row in rows] == [["A:", "perfect"], ["B:", "random"],
                                                 ["C:", "random"]]
    assert all(row.split()[2] == "3" for row in rows)  # 3 games each
    assert "payoff" in out.splitlines()[1]
    code, _, err = run("match", "perfect", "random", "--game", "mnk:3,3,3,players=3")
    assert code == 2
    assert "has 3 players: give 3 players, one a side (not 2)" in error_line(err)


def test_a_match_of_chance_rolls_from_its_seed() -> None:
    argv = ["match", "perfect", "random", "--game", "bearoff:3,3", "-n", "6", "--seed", "9"]
    code, out, err = run(*argv)
    assert code == 0, err
    def tallies(text: str) -> list[list[str]]:  # every column but the time a move
        return [line.split()[:-1] for line in text.splitlines()[2:]]

    assert tallies(run(*argv)[1]) == tallies(out)  # the same dice, the same games
    wins = sum(int(row[2]) for row in tallies(out))
    assert wins == 6  # no draws in a race
