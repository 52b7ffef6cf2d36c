"""Players, player specs and one game between two players."""

from __future__ import annotations

import random
import types

import pytest

from unbeatable import Limits, Move, Outcome, get_game, players
from unbeatable.players import (
    AIPlayer,
    MatchRecord,
    PlayerSpecError,
    RandomPlayer,
    Tally,
    parse_player,
    play_match,
    score_game,
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
        "depth:１",  # int() reads full-width digits and underscores: a spec does not
        "depth:1_0",
        "nodes:٣",
        "time:１",
        "time:1_0",
        "depth:+3",
        "depth:" + "9" * 5000,
    ],
)
def test_bad_specs_name_the_spec(spec: str) -> None:
    with pytest.raises(PlayerSpecError) as caught:
        parse_player(spec, random.Random(0))
    assert repr(spec) in str(caught.value)
    assert len(str(caught.value)) < 400 + len(repr(spec))  # one message, the text once
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


def test_play_match_records_moves_times_and_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("tictactoe")
    perfect = AIPlayer()
    rand = RandomPlayer(random.Random(3))
    seen = []
    clock = iter(range(0, 1000, 5))  # every reading 5 s after the last: each move takes 5 s
    fake = types.SimpleNamespace(perf_counter=lambda: float(next(clock)))
    monkeypatch.setattr(players, "time", fake)  # the players' clock only, not the search's
    record = play_match(game.initial(), perfect, rand, on_move=lambda s, m: seen.append(m))
    assert record.moves == seen
    assert record.times == [5.0] * len(record.moves)
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


def test_score_game_counts_each_move_for_the_side_that_played_it() -> None:
    from tests.dots import Dots

    # Dots and Boxes: completing a box gives another turn, so plies do not alternate.
    start = Dots(1, 2)
    # 5 closes the left box: the second player moves again
    moves: list[Move] = [4, 0, 2, 5, 1, 3, 6]
    sides = []
    state = start
    for move in moves:
        sides.append(state.to_move)
        state = state.play(move)
    assert sides == [0, 1, 0, 1, 1, 0, 1]  # not the alternation of plies
    record = MatchRecord(moves=moves, times=[1.0] * len(moves), outcome=state.outcome())
    first, second = Tally("a"), Tally("b")
    score_game(record, start, {0: first, 1: second})
    assert (first.moves, second.moves) == (sides.count(0), sides.count(1))
    assert first.seconds == sides.count(0) and second.seconds_per_move == 1.0
    winner = state.outcome().winner  # type: ignore[union-attr]
    results = {
        0: (first.wins, first.losses, first.draws),
        1: (second.wins, second.losses, second.draws),
    }
    for side, (wins, losses, draws) in results.items():
        expected = (0, 0, 1) if winner is None else (1, 0, 0) if winner == side else (0, 1, 0)
        assert (wins, losses, draws) == expected
    assert first.games == second.games == 1
    assert first.points is not None and first.points + second.points == 1  # type: ignore[operator]
    with pytest.raises(ValueError, match="not finished"):
        score_game(MatchRecord(), start, {0: first})
