"""Players, player specs and one game between two players."""

from __future__ import annotations

import random

import pytest

from unbeatable import Limits, Outcome, get_game
from unbeatable.players import (
    AIPlayer,
    PlayerSpecError,
    RandomPlayer,
    parse_player,
    play_match,
)

GOOD_SPECS = [
    "random",
    "perfect",
    "depth:3",
    "time:0.1",
    "nodes:500",
    "depth:3,eval=zero",
    "depth:2,algorithm=minimax",
    "perfect,algorithm=alphabeta-stack",
    "time:0.05,eval=game,algorithm=negamax",
]


@pytest.mark.parametrize("spec", GOOD_SPECS)
def test_specs_parse_and_keep_their_name(spec: str) -> None:
    player = parse_player(spec, random.Random(0))
    assert player.name == spec
    assert isinstance(player, RandomPlayer if spec == "random" else AIPlayer)


def test_spec_limits_and_options() -> None:
    player = parse_player("depth:3,eval=zero,algorithm=minimax", random.Random(0))
    assert isinstance(player, AIPlayer)
    assert player.limits == Limits(depth=3)
    assert player.searcher.algorithm == "minimax"
    assert player.searcher.evaluate is not None
    assert player.searcher.evaluate(get_game("tictactoe").initial()) == 0
    timed = parse_player("time:0.25", random.Random(0))
    assert isinstance(timed, AIPlayer) and timed.limits == Limits(time=0.25)
    perfect = parse_player("perfect", random.Random(0))
    assert isinstance(perfect, AIPlayer) and perfect.limits == Limits()


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "genius",
        "random:3",
        "random,eval=zero",
        "perfect:1",
        "depth",
        "depth:",
        "depth:0",
        "depth:two",
        "time:-1",
        "time:inf",
        "time:nan",
        "nodes:1.5",
        "depth:3,eval",
        "depth:3,eval=magic",
        "depth:3,algorithm=magic",
        "depth:3,colour=red",
    ],
)
def test_bad_specs_name_the_spec(spec: str) -> None:
    with pytest.raises(PlayerSpecError) as caught:
        parse_player(spec, random.Random(0))
    assert repr(spec) in str(caught.value)
    assert caught.value.text == spec
    assert isinstance(caught.value, ValueError)


def test_random_player_follows_its_generator() -> None:
    state = get_game("mnk:4,4,4").initial()
    first = [RandomPlayer(random.Random(9)).choose(state) for _ in range(3)]
    again = [RandomPlayer(random.Random(9)).choose(state) for _ in range(3)]
    assert first == again


def test_ai_ties_are_broken_by_the_generator() -> None:
    # Every first move of tic-tac-toe draws: a seeded perfect player picks among them all.
    state = get_game("tictactoe").initial()
    moves = {parse_player("perfect", random.Random(seed)).choose(state) for seed in range(12)}
    assert len(moves) > 1
    assert all(move in state.legal_moves() for move in moves)


def test_play_match_records_moves_times_and_outcome() -> None:
    game = get_game("tictactoe")
    perfect = AIPlayer()
    rand = RandomPlayer(random.Random(3))
    seen = []
    record = play_match(game.initial(), perfect, rand, on_move=lambda s, m: seen.append(m))
    assert record.moves == seen
    assert len(record.times) == len(record.moves)
    assert all(t >= 0 for t in record.times)
    assert record.outcome in (Outcome.FIRST_WINS, Outcome.DRAW)
    state = game.initial()
    for move in record.moves:
        state = state.play_checked(move)
    assert state.outcome() == record.outcome


def test_perfect_players_draw_tictactoe() -> None:
    game = get_game("tictactoe")
    for seed in range(3):
        a = parse_player("perfect", random.Random(seed))
        b = parse_player("perfect", random.Random(seed + 100))
        assert play_match(game.initial(), a, b).outcome == Outcome.DRAW
