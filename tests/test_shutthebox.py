"""Shut the Box (issue 22, item 3: a dice game a learner knows): its rules, and its exact
values against a brute force written here from the rules alone."""

from __future__ import annotations

import functools
import itertools

import pytest

from unbeatable import GameError, Searcher, check_game, get_game
from unbeatable.games.shutthebox import ShutTheBox

ONE = {t: 1 / 6 for t in range(1, 7)}
TWO = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}


def shuts(tiles: frozenset[int], total: int) -> list[frozenset[int]]:
    return [frozenset(c) for size in range(1, len(tiles) + 1)
            for c in itertools.combinations(sorted(tiles), size) if sum(c) == total]


@functools.cache
def second(tiles: frozenset[int], target: int) -> float:
    """The second player's chance to win (a tie half) from ``tiles`` open, against
    ``target``, playing its best, choosing one die when it may."""
    options = [TWO] + ([ONE] if sum(tiles) <= 6 else [])
    best = 0.0
    for dice in options:
        total = 0.0
        for roll, p in dice.items():
            moves = shuts(tiles, roll)
            if not moves:
                left = sum(tiles)
                total += p * (1.0 if left < target else 0.5 if left == target else 0.0)
            else:
                total += p * max(second(tiles - m, target) if tiles - m else
                                 (1.0 if target > 0 else 0.5) for m in moves)
        best = max(best, total)
    return best


@functools.cache
def first(tiles: frozenset[int], full: frozenset[int]) -> float:
    """The first player's chance to win (a tie half), playing its best against a second
    player who plays its best knowing the first one's score."""
    options = [TWO] + ([ONE] if sum(tiles) <= 6 else [])
    best = 0.0
    for dice in options:
        total = 0.0
        for roll, p in dice.items():
            moves = shuts(tiles, roll)
            if not moves:
                total += p * (1 - second(full, sum(tiles)))
            else:
                total += p * max(
                    first(tiles - m, full) if tiles - m else 1 - second(full, 0) for m in moves
                )
        best = max(best, total)
    return best


@pytest.mark.parametrize("tiles", [3, 4, 5])
def test_the_first_players_chance_is_brute_forces(tiles: int) -> None:
    game = get_game(f"shutthebox:{tiles}")
    full = frozenset(range(1, tiles + 1))
    result = Searcher().search(game.initial())
    assert result.exact and result.score.probability == pytest.approx(first(full, full))


@pytest.mark.parametrize(("text", "tiles", "target"), [
    ("scores 3 open 1,2", {1, 2}, 3),
    ("scores 2 open 1-3", {1, 2, 3}, 2),
    ("scores 0 open 1-4", {1, 2, 3, 4}, 0),
    ("scores 5 open 1-5", {1, 2, 3, 4, 5}, 5),
])
def test_the_second_players_chance_is_brute_forces(
    text: str, tiles: set[int], target: int
) -> None:
    state = get_game("shutthebox:5").parse_position(text)
    assert state.to_move == 1
    for algorithm in ("expectiminimax", "star1", "star2"):
        chance = Searcher(algorithm).search(state).score.probability
        assert chance == pytest.approx(second(frozenset(tiles), target))


def test_rules_and_notation() -> None:
    game = get_game("shutthebox")
    assert isinstance(game, ShutTheBox)
    check_game(game, games=10)
    state = game.initial()
    assert state.is_chance and len(state.chance_outcomes()) == 11
    state = state.play_text("7")
    assert {state.move_text(m) for m in state.legal_moves()} == {
        "7", "1+6", "2+5", "3+4", "1+2+4"
    }
    state = game.parse_position("7 3+4 12 1+2+9")
    assert str(state) == "scores - open 5,6,7,8"
    assert game.parse_position(str(state)) == state
    ended = game.parse_position("scores - open 1,2 roll 3")
    assert ended.legal_moves() == [(1, 2)]
    after = ended.play((1, 2))
    assert after.to_move == 1 and after.scores == (0,)
    for text, message in [
        ("13", "is not a roll of two dice"),
        ("7 3+5", "does not shut open tiles that add up to 7"),
        ("7 three", "is not tiles to shut"),
        ("scores 50 open 1-9", "a score above 45"),
        ("scores - open 1,2 roll 7", "no open tiles add up to it"),
        ("scores - open 10", "tile 10 in 'scores - open 10' does not exist"),
    ]:
        with pytest.raises(GameError, match=message):
            game.parse_position(text)
    small = game.parse_position("scores - open 1,5")  # 6 or less open: one die or two
    assert small.legal_moves() == ["1d", "2d"] and not small.is_chance
    roll, probability = small.play("1d").chance_outcomes()[0]
    assert roll == 1 and probability == pytest.approx(1 / 6)
