"""The conformance suite (``unbeatable.check_game``, in the spirit of OpenSpiel's
games_sim_test) run on every registered game and the test suite's own games, and what the
games promise beyond the protocol: notation, messages, the registry."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

from tests.dots import Dots
from tests.test_parallel import Piles
from tests.test_search import Countdown
from unbeatable import (
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    State,
    check_game,
    get_game,
    registered,
)
from unbeatable.games import UnknownGameError

EXTRA_SPECS = [
    "mnk:3,4,3",
    "mnk:4,4,4",
    "mnk:5,5,4",
    "mnk:2,5,3",
    "mnk:15,15,5",
    "subtraction:40,4",
    "connect4:5,4",
]
SPECS = sorted(registered()) + EXTRA_SPECS


def playouts(spec: str, games: int, seed: int) -> list[list[State]]:
    rng = random.Random(seed)
    game = get_game(spec)
    lines = []
    for _ in range(games):
        state = game.initial()
        line = [state]
        while state.outcome() is None:
            state = state.play(rng.choice(list(state.legal_moves())))
            line.append(state)
        lines.append(line)
    return lines


#: The long games: chess (slow), and 11 x 11 Hex and 15 x 15 five in a row (2.6 s each on
#: 2026-12-02; tests/test_hex.py checks the protocol on smaller Hex boards in make test-fast).
LONG_GAMES = {"chess", "hex", "mnk:15,15,5"}


@pytest.mark.parametrize(
    "spec", [pytest.param(s, marks=pytest.mark.slow) if s in LONG_GAMES else s for s in SPECS]
)
def test_every_game_passes_the_conformance_check(spec: str) -> None:
    """The one conformance suite, :func:`unbeatable.check_game` (the checks users run on their
    own games), holds for ours: random games from the start, every promise of the protocol
    checked at every position."""
    game = get_game(spec)
    # the long games (chess: slow; 11 x 11 Hex: 121 positions a game): 6
    games = 6 if spec in ("chess", "mnk:15,15,5", "hex") else 12
    # a seed per game that is the same in every process (hash() of a string is not)
    report = check_game(game, games=games, seed=zlib.crc32(spec.encode()) % 1000)
    assert report.games == games and report.positions > report.games
    # every registered game writes its positions, so check_game read each one back
    assert game.parse_position(game.format_position(game.initial())) == game.initial()


TEST_GAMES: dict[str, State] = {
    "dots 1x2": Dots(1, 2),  # extra turns: a player who closes a box moves again
    "dots 1x3": Dots(1, 3),
    "dots 2x2": Dots(2, 2),
    "countdown": Countdown(40),  # no known length
    "piles": Piles(3, 4),  # a bound on the length that shrinks as the game goes on
}


@pytest.mark.parametrize("name", sorted(TEST_GAMES))
def test_the_test_suites_own_games_pass_the_conformance_check(name: str) -> None:
    """The games the tests play as users' games keep the protocol too (otherwise a test of
    the search could pass or fail for the game's fault)."""
    report = check_game(TEST_GAMES[name], games=12)
    assert report.positions > report.games


def bad_texts() -> list[Any]:
    cases = []
    for spec in SPECS:
        for bad in ["z", "0", "-3", "99999", ""]:
            cases.append(pytest.param(spec, bad, id=f"{spec}-{bad!r}"))
    return cases


@pytest.mark.parametrize(("spec", "bad"), bad_texts())
def test_bad_move_text_is_rejected_with_the_text_and_position(spec: str, bad: str) -> None:
    state = get_game(spec).initial()
    with pytest.raises(GameError) as info:
        state.parse_move(bad)
    # none of these texts names a move of the game, here or anywhere
    assert isinstance(info.value, InvalidMoveError), type(info.value).__name__
    # the message names the text ('' for the empty one: a bare "in" check is always true)
    message = str(info.value)
    assert (bad.strip() in message) if bad.strip() else ("''" in message)
    assert info.value.text == bad.strip()
    assert info.value.position == str(state)


@pytest.mark.parametrize("spec", SPECS)
def test_moves_after_the_end_are_illegal(spec: str) -> None:
    final = playouts(spec, games=1, seed=7)[0][-1]
    previous = playouts(spec, games=1, seed=7)[0][-2]
    text = previous.move_text(previous.legal_moves()[0])
    with pytest.raises(IllegalMoveError):
        final.parse_move(text)


def test_transpositions_are_equal_and_hash_equal() -> None:
    game = get_game("tictactoe")
    a = game.parse_position("1539")
    b = game.parse_position("3519")
    assert a == b and hash(a) == hash(b)
    assert game.parse_position("1") != game.parse_position("2")
    # mirror images share a table key, other positions do not
    assert game.parse_position("1").key() == game.parse_position("9").key()
    assert game.parse_position("1").key() != game.parse_position("2").key()


def test_mnk_notation_examples() -> None:
    game = get_game("tictactoe")
    state = game.parse_position("5193")
    assert str(state) == "o.o/.x./..x"
    assert game.parse_position("o.o/.x./..x") == state
    assert game.format_position(state) == "o.o/.x./..x"
    assert game.parse_position("x.o/.x./..o") == game.parse_position("1 3 5 9")
    assert game.parse_position("") == game.initial()
    assert game.picture(state).splitlines() == ["O 2 O", "4 X 6", "7 8 X"]


def test_mnk_messages_name_the_text_and_position() -> None:
    game = get_game("tictactoe")
    with pytest.raises(IllegalMoveError, match=r"cell 5 is taken in \.\.\./\.x\./\.\.\."):
        game.parse_position("5").parse_move("5")
    with pytest.raises(InvalidMoveError, match=r"'z' is not a cell \(1-9\)"):
        game.initial().parse_move("z")
    with pytest.raises(InvalidMoveError, match=r"cell 10 does not exist \(1-9\)"):
        game.initial().parse_move("10")
    with pytest.raises(IllegalMoveError, match=r"cell 5 is taken .*\(move 3 of '535'\)"):
        game.parse_position("535")
    big = get_game("mnk:4,4,4")
    assert big.parse_position("1,12,16") == big.parse_position("1 12 16")


@pytest.mark.parametrize(
    "picture",
    [
        "xx/...",  # wrong shape
        "xxx/.../..",  # short row
        "xqx/.../...",  # bad character
        "xxx/ooo/...",  # both have three in a row
        "xx./.../...",  # x two stones ahead
        "ooo/xx./xx.",  # o won but x moved last
        "xxx/oo./...",  # fine in itself? x won with 3 vs 2: legal
    ],
)
def test_impossible_pictures_are_rejected(picture: str) -> None:
    game = get_game("tictactoe")
    if picture == "xxx/oo./...":
        assert game.parse_position(picture).outcome() is not None
        return
    with pytest.raises(InvalidPositionError):
        game.parse_position(picture)


def test_two_separate_lines_cannot_both_be_the_last_move() -> None:
    game = get_game("mnk:4,4,3")
    # x has two disjoint lines: play would have stopped at the first
    with pytest.raises(InvalidPositionError, match="first 3 in a row"):
        game.parse_position("xxx./oo../oo.o/xxx.")


def test_unknown_games_and_parameters_are_named() -> None:
    with pytest.raises(UnknownGameError, match=r"choose one of .*tictactoe"):
        get_game("chess960")
    with pytest.raises(UnknownGameError, match="no parameter 'q'"):
        get_game("mnk:q=3")
    with pytest.raises(UnknownGameError, match="5000 digits, too many"):
        get_game("subtraction:" + "9" * 5000 + ",3")  # not Python's own int-digits message
    with pytest.raises(UnknownGameError, match="whole number"):
        get_game("subtraction:１,3")
    with pytest.raises(UnknownGameError, match="whole number"):
        get_game("mnk:m=x")
    with pytest.raises(UnknownGameError, match="parameter k is given twice"):
        get_game("mnk:3,3,3,k=2")
    with pytest.raises(UnknownGameError, match="parameter m is given twice"):
        get_game("mnk:m=3,m=4,n=3,k=3")
    with pytest.raises(UnknownGameError, match="k must be"):
        get_game("mnk:3,3,9")
    assert get_game("mnk:4,4,4") is get_game("mnk", m=4, n=4, k=4)
    assert get_game("tictactoe").spec == "tictactoe"
    assert get_game("mnk:m=5,n=5,k=4").spec == "mnk:m=5,n=5,k=4"


@pytest.mark.parametrize("spec", ["tictactoe", "connect4", "subtraction"])
def test_non_ascii_digits_are_not_moves(spec: str) -> None:
    with pytest.raises(InvalidMoveError):
        get_game(spec).initial().parse_move("\uff15")  # a full-width 5
    with pytest.raises(GameError):
        get_game(spec).parse_position("\uff15")
