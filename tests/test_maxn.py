"""Games of more than two players (issue 22, item 4): max^n (ties to the first move in order)
and the paranoid search give brute force's values on random trees (with chance nodes too)
and on m,n,k games of three players; the refusals; the parallel searcher."""

from __future__ import annotations

import random

import pytest

from tests.trees import Party, maxn, paranoid, random_party
from unbeatable import Limits, Payoff, Searcher, check_game, get_game
from unbeatable.games.mnk import MNKPartyState
from unbeatable.search import ParallelSearcher


def parties(count: int, seed: int, chance: float = 0.3) -> list[Party]:
    rng = random.Random(seed)
    found: list[Party] = []
    while len(found) < count:
        tree = Party(random_party(rng, rng.randint(2, 6), chance))
        if tree.outcome() is None:
            found.append(tree)
    return found


@pytest.mark.parametrize("table", [False, True])
def test_maxn_is_brute_forces_with_ties_to_the_first_move(table: bool) -> None:
    for tree in parties(150, seed=1):
        result = Searcher("maxn", table=table).search(tree, analyze=True)
        assert result.values == pytest.approx(maxn(tree))
        assert result.score.value == pytest.approx(maxn(tree)[tree.to_move])
        assert result.move_values is not None and result.move_scores is not None
        for move, vector in result.move_values.items():
            assert vector == pytest.approx(maxn(tree.play(move)))
        if not tree.is_chance:
            me = tree.to_move
            best = max(maxn(tree.play(m))[me] for m in tree.legal_moves())
            first = next(m for m in tree.legal_moves() if maxn(tree.play(m))[me] >= best - 1e-9)
            assert result.move == first


@pytest.mark.parametrize("table", [False, True])
def test_paranoid_is_brute_forces(table: bool) -> None:
    for tree in parties(150, seed=2):
        result = Searcher("paranoid", table=table).search(tree, analyze=True)
        me = tree.to_move
        assert result.score.value == pytest.approx(paranoid(tree, me))
        assert result.score.meaning == "guaranteed-payoff"
        assert result.move_scores is not None
        for move, score in result.move_scores.items():
            assert score.value == pytest.approx(paranoid(tree.play(move), me))
        player = Searcher("paranoid", table=table).search(tree)  # no analysis: windows
        assert player.score.value == pytest.approx(paranoid(tree, me))
        assert player.move == result.move


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid"])
def test_depth_limited_searches_use_every_players_evaluation(algorithm: str) -> None:
    for tree in parties(60, seed=3):
        for depth in (1, 2):
            result = Searcher(algorithm).search(tree, Limits(depth=depth))
            me = tree.to_move
            expected = maxn(tree, depth)[me] if algorithm == "maxn" else paranoid(tree, me, depth)
            assert result.score.value == pytest.approx(expected)


def every_position(start: MNKPartyState) -> list[MNKPartyState]:
    seen = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for move in state.legal_moves():
            child = state.play(move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return sorted(seen, key=repr)


@pytest.mark.parametrize(  # 3 x 3: 200 positions against the brute force, 1.3 s (2026-12-02)
    "spec", ["mnk:2,3,2,players=3", pytest.param("mnk:3,3,3,players=3", marks=pytest.mark.slow)]
)
def test_mnk_of_three_players_is_solved_as_brute_force_says(spec: str) -> None:
    start = get_game(spec).initial()
    assert isinstance(start, MNKPartyState)
    positions = every_position(start)
    rng = random.Random(4)
    sample = positions if len(positions) < 200 else rng.sample(positions, 200)
    searcher = Searcher("maxn")  # its table carries over between the searches
    for state in sample:
        if state.outcome() is not None:
            continue
        result = searcher.search(state)
        assert result.values == pytest.approx(maxn(state)), state
        assert result.values is not None and result.exact
        assert result.score.value == result.values[state.to_move]
        assert Searcher("paranoid").search(state).score.value == pytest.approx(
            paranoid(state, state.to_move)
        )


def test_three_player_mnk_rules() -> None:
    game = get_game("mnk:3,3,3,players=3")
    assert game.spec == "mnk:m=3,n=3,k=3,players=3"
    assert get_game(game.spec) is game and get_game("mnk:m=3,n=3,k=3,players=3") is game
    check_game(game, games=30)
    state = game.parse_position("1,4,7,2,5,8,3")  # x 1 2 3: the top row
    assert state.outcome() == Payoff((1, -1, -1))
    assert str(state.outcome()) == "first player wins"
    state = game.parse_position("4,1,7,5,2,8,9,3")  # o: 1 2 3 (x 4 5 9, v 7 8)
    assert str(state.outcome()) == "second player wins"
    assert game.parse_position("1,2,3").to_move == 0
    assert str(game.parse_position("1,2,3")) == "xov/.../..."
    assert "V" in game.picture(game.parse_position("1,2,3"))
    with pytest.raises(ValueError, match="moves from the empty board"):
        game.parse_position("x.o/.../...")
    with pytest.raises(ValueError, match="players must be from 2 to 6"):
        get_game("mnk:3,3,3,players=7")
    assert get_game("mnk:3,3,3,players=2") is get_game("tictactoe")


def test_two_players_under_maxn_are_negamax() -> None:
    game = get_game("tictactoe")
    for text in ("", "5", "51", "519", "5193"):
        state = game.parse_position(text)
        result = Searcher("maxn").search(state, analyze=True)
        exact = Searcher().search(state, analyze=True)
        sign = (exact.score.value > 0) - (exact.score.value < 0)
        assert result.score.value == sign
        assert exact.move_scores is not None and result.move_scores is not None
        for move, score in exact.move_scores.items():
            value = (score.value > 0) - (score.value < 0)
            assert result.move_scores[move].value == value


def test_the_alpha_beta_family_refuses_more_than_two_players() -> None:
    state = get_game("mnk:3,3,3,players=3").initial()
    for algorithm in ("alphabeta", "minimax", "negamax", "alphabeta-stack", "expectiminimax"):
        with pytest.raises(ValueError, match="searches games of two players; this one has 3"):
            Searcher(algorithm).search(state)
    assert Searcher().search(state).algorithm == "maxn"


def test_a_time_limit_gives_a_legal_move() -> None:
    state = get_game("mnk:5,5,4,players=3").initial()
    for algorithm in ("maxn", "paranoid"):
        result = Searcher(algorithm).search(state, Limits(time=0.3))
        assert result.move in state.legal_moves() and not result.exact
        assert result.values is not None and len(result.values) == 3


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid"])
def test_the_parallel_searcher_gives_the_serial_answer(algorithm: str) -> None:
    trees = [t for t in parties(12, seed=5) if not t.is_chance][:5] + parties(3, seed=6, chance=1)
    with ParallelSearcher(2, algorithm=algorithm) as parallel:
        for tree in trees:
            serial = Searcher(algorithm).search(tree, analyze=True)
            split = parallel.search(tree, analyze=True)
            assert split.score.value == pytest.approx(serial.score.value)
            assert split.move == serial.move
            if algorithm == "maxn":
                assert split.values == pytest.approx(serial.values)
        state = get_game("mnk:3,3,3,players=3").parse_position("5,1")
        assert parallel.search(state).values == pytest.approx(maxn(state))


def test_shut_the_box_of_three_players_shares_the_win() -> None:
    game = get_game("shutthebox:4,3")
    check_game(game, games=20)
    state = game.initial()
    result = Searcher().search(state)
    assert result.algorithm == "maxn" and result.values is not None
    assert sum(result.values) == pytest.approx(1)  # one win, shared out
    assert result.score.meaning == "expected-payoff"
    last = game.parse_position("scores 3,1 open 1")  # the third player: 1 open
    assert last.to_move == 2 and last.legal_moves() == ["1d", "2d"]
    # shutting the box (a 1 on one die, 1 in 6) wins; else it shares the win with the second
    # player's 1: 1/6 + 5/6 * 1/2
    found = Searcher().search(last, analyze=True)
    assert found.move == "1d" and found.score.value == pytest.approx(7 / 12)
