"""Connect Four as a game: notation, validation, bitboard helpers against plain loops."""

from __future__ import annotations

import random

import pytest

from unbeatable import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Limits,
    get_game,
)
from unbeatable.games import UnknownGameError
from unbeatable.games.connect4.fours import aligned, open_lines, winning_cells
from unbeatable.games.connect4.game import Connect4State
from unbeatable.search import search


def random_states(count: int, seed: int, spec: str = "connect4") -> list[Connect4State]:
    rng = random.Random(seed)
    game = get_game(spec)
    states = []
    for _ in range(count):
        state = game.initial()
        for _ in range(rng.randrange(0, game.params["width"] * game.params["height"])):
            moves = state.legal_moves()
            if not moves:
                break
            child = state.play(rng.choice(moves))
            if child.outcome() is not None:
                break
            state = child
        assert isinstance(state, Connect4State)
        states.append(state)
    return states


def cell(game_height: int, column: int, row: int) -> int:
    return 1 << (column * (game_height + 1) + row)


def test_open_lines_count_what_a_loop_over_windows_counts() -> None:
    game = get_game("connect4")
    for state in random_states(200, seed=1):
        own, other = state.current, state.current ^ state.mask
        for a, b in ((own, other), (other, own)):
            twos = threes = 0
            for window in game.windows:  # type: ignore[attr-defined]
                if a & window and not b & window:
                    n = (a & window).bit_count()
                    twos += n == 2
                    threes += n == 3
            empty = game.board & ~state.mask  # type: ignore[attr-defined]
            assert open_lines(a, a | empty, game.shifts) == (twos, threes)  # type: ignore[attr-defined]


def test_winning_cells_are_the_cells_that_complete_four() -> None:
    game = get_game("connect4")
    h, w = 6, 7
    for state in random_states(150, seed=2):
        stones = state.current
        expected = 0
        for c in range(w):
            for r in range(h):
                bit = cell(h, c, r)
                if aligned(stones | bit, h) and not aligned(stones, h):
                    expected |= bit
        found = winning_cells(stones, h, game.board)  # type: ignore[attr-defined]
        empty = game.board & ~state.mask  # type: ignore[attr-defined]
        assert found & empty == expected & empty


def test_the_evaluation_is_the_same_for_mirror_images() -> None:
    game = get_game("connect4")
    for moves in ["4453", "1122", "71", "3344556"]:
        mirrored = "".join(str(8 - int(c)) for c in moves)
        a, b = game.parse_position(moves), game.parse_position(mirrored)
        assert a.evaluate() == b.evaluate()
        assert a.key() == b.key()


def test_moves_may_be_separated_by_any_white_space() -> None:
    game = get_game("connect4")
    assert game.parse_position("4\t4 5\n3") == game.parse_position("4453")


def test_move_sequence_and_picture_notations() -> None:
    game = get_game("connect4")
    state = game.parse_position("4453")
    assert str(state) == "......./......./......./......./...o.../..oxx.."
    assert game.parse_position(str(state)) == state
    assert game.picture(state).splitlines()[-1] == "1 2 3 4 5 6 7"
    wide = get_game("connect4:width=10,height=5")
    assert wide.parse_position("10,1,10") == wide.parse_position("10 1 10")
    # past 9 columns, each column's number reads downwards: tens above units
    wider = get_game("connect4:width=12,height=2")
    assert wider.picture(wider.parse_position("12")).splitlines() == [
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . X",
        "                  1 1 1",
        "1 2 3 4 5 6 7 8 9 0 1 2",
    ]


def test_bad_moves_name_the_column_and_the_position() -> None:
    game = get_game("connect4")
    with pytest.raises(
        InvalidMoveError, match=r"column 8 does not exist \(1-7\).*move 5 of '44538'"
    ):
        game.parse_position("44538")
    with pytest.raises(InvalidMoveError, match=r"'a' is not a column \(1-7\)"):
        game.parse_position("44a")
    with pytest.raises(IllegalMoveError, match=r"column 4 is full .*move 7 of '4444444'"):
        game.parse_position("4444444")
    with pytest.raises(IllegalMoveError, match="after the game ended"):
        game.parse_position("12121212")


@pytest.mark.parametrize(
    ("picture", "why"),
    [
        ("......./......./......./......./...x.../.......", "floats"),
        ("......./......./......./......./......./xx.....", "x has 2 stones and o 0"),
        ("......./......./......./......./......./xq.....", "not a cell"),
        ("......./......./......./......./......./.......x", "needs 7 cells"),
        (".../...", "has 2 rows"),
        ("......./......./......./......./oooo.../xxxx...", "both players"),
        ("......./......./......./o....../oooxxxx/xxxxooo", "first four in a row"),
    ],
)
def test_impossible_pictures_are_rejected(picture: str, why: str) -> None:
    with pytest.raises(InvalidPositionError, match=why):
        get_game("connect4").parse_position(picture)


def test_pictures_no_game_reaches_are_rejected() -> None:
    # x moved first, so one of the bottom cells is x's; with o on both it cannot arise
    with pytest.raises(InvalidPositionError, match="no alternating order of play"):
        get_game("connect4:width=3,height=2").parse_position("xx./oo.")
    with pytest.raises(InvalidPositionError, match="no alternating order of play"):
        get_game("connect4:width=4,height=4").parse_position("..../..../xx../oo..")
    # every position reached by play reads back from its picture
    for state in random_states(40, seed=9):
        assert get_game("connect4").parse_position(str(state)) == state


def test_sizes_beyond_a_64_bit_board_are_refused() -> None:
    with pytest.raises(UnknownGameError, match="does not fit a 64-bit bitboard"):
        get_game("connect4:width=9,height=7")
    assert get_game("connect4:width=8,height=7").params == {"width": 8, "height": 7}


def test_small_boards_solved_by_the_generic_search() -> None:
    # 4x4 is a draw; on 5 columns and 4 rows as well
    assert search(get_game("connect4:4,4").initial()).score.is_draw
    result = search(get_game("connect4:width=4,height=4").parse_position("1"), analyze=True)
    assert result.exact and result.move_scores is not None


def test_the_evaluation_guides_a_depth_limited_player_to_beat_random_play() -> None:
    rng = random.Random(5)
    game = get_game("connect4")
    wins = 0
    for g in range(6):
        state = game.initial()
        ai = g % 2
        while state.outcome() is None:
            if state.to_move == ai:
                state = state.play(search(state, Limits(depth=3)).move)
            else:
                state = state.play(rng.choice(state.legal_moves()))
        wins += state.outcome().winner == ai  # type: ignore[union-attr]
    assert wins == 6
