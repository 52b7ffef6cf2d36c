"""The backgammon bear-off race (issue 22, item 3): its rules, its exact values against a
brute force written here from the rules alone, and against GNU Backgammon's exact two-sided
bear-off database (Debian's gnubg, run as an oracle: ``makebearoff`` builds a database,
``bearoffdump`` prints a position's board, as a position ID, and its cubeless equity)."""

from __future__ import annotations

import base64
import functools
import itertools
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from unbeatable import GameError, Limits, check_game, get_game
from unbeatable.games.bearoff import Bearoff, BearoffState
from unbeatable.search import Searcher

MAKEBEAROFF = shutil.which("makebearoff") or shutil.which("/usr/games/makebearoff")
BEAROFFDUMP = shutil.which("bearoffdump") or shutil.which("/usr/games/bearoffdump")
GNUBG = MAKEBEAROFF is not None and BEAROFFDUMP is not None
NO_GNUBG = (
    "GNU Backgammon's makebearoff and bearoffdump are not installed (the Debian package "
    "gnubg; make test installs it): the bear-off values are not checked against its database"
)


def board(game: Bearoff, text: str) -> BearoffState:
    state = game.parse_position(text)
    assert isinstance(state, BearoffState)
    return state


# --- the rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "games"),
    [("bearoff", 20), ("bearoff:2,2", 20), ("bearoff:5,6", 20), ("bearoff:15,6", 3)],
)
def test_the_race_keeps_the_protocol(spec: str, games: int) -> None:
    check_game(get_game(spec), games=games)


def plays(state: BearoffState) -> set[str]:
    return {state.move_text(m) for m in state.legal_moves()}


def test_the_rolls_are_the_21_of_two_dice() -> None:
    start = get_game("bearoff").initial()
    assert start.is_chance and start.to_move == 0
    outcomes = start.chance_outcomes()
    assert len(outcomes) == 21 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert dict(outcomes)[(6, 6)] == pytest.approx(1 / 36)
    assert dict(outcomes)[(6, 5)] == pytest.approx(2 / 36)
    assert [start.move_text(m) for m, _ in outcomes][:3] == ["1-1", "2-1", "2-2"]


def test_a_die_bears_off_from_its_point_or_from_the_highest() -> None:
    game = get_game("bearoff:3,6")
    assert isinstance(game, Bearoff)
    # checkers on 1 and 6 and a 2-1: the 2 cannot bear off the 1 while the 6 stands; two
    # positions can follow, each one move (6/4 4/3 and 6/5 5/3 both leave 1 and 3)
    state = board(game, "1-0-0-0-0-1/0-0-1-0-0-0 first 2-1")
    assert plays(state) == {"6/5 5/3", "6/4 1/off"}
    assert state.parse_move("6/4 4/3") == state.parse_move("6/5 5/3")
    assert state.parse_move("1/off 6/4") == state.parse_move("6/4 1/off")
    # a 6 bears off the highest checker when none stands on 6
    state = board(game, "1-1-1-0-0-0/0-0-1-0-0-0 first 6-5")
    assert plays(state) == {"3/off 2/off"}
    # a double is played four times
    assert plays(board(game, "0-0-0-0-0-1/0-0-1-0-0-0 first 1-1")) == {"6/5 5/4 4/3 3/2"}
    assert plays(board(game, "0-0-3-0-0-0/0-0-1-0-0-0 first 3-3")) == {"3/off 3/off 3/off"}


def test_the_game_ends_when_the_last_checker_is_off() -> None:
    game = get_game("bearoff:1,2")
    assert isinstance(game, Bearoff)
    state = board(game, "1-0/0-1 first 2-1")
    assert plays(state) == {"1/off"}
    after = state.play(state.legal_moves()[0])
    assert after.outcome() is not None and after.outcome().winner == 0  # type: ignore[union-attr]
    assert after.legal_moves() == [] and not after.is_chance


def test_notation_reads_back_and_names_bad_input() -> None:
    game = get_game("bearoff")
    state = game.parse_position("6-4 3/off 2/off 2-1 2/off 1/off")
    assert str(state) == "1-0-0/0-0-1 first" and state.is_chance
    assert game.parse_position(game.format_position(state)) == state
    assert game.parse_position("6-4, 2/off 3/off").first == (1, 0, 0)  # type: ignore[attr-defined]
    for text, message in [
        ("7-1", "is not a roll of two dice"),
        ("6-4 3/2", "is not a legal play of 6-4"),
        ("3/off", "is to roll first"),
        ("6-4 banana", "is not a play"),
        ("1-1-1/1-1 first", "is not 3 counts of checkers"),
        ("4-0-0/1-1-1 first", "has 4 checkers, more than 3"),
        ("1-1-1/1-1-1 third", "is not a player"),
        ("0-0-0/1-1-1 second 6-4", "the game is over"),
    ]:
        with pytest.raises(GameError, match=message):
            game.parse_position(text)


# --- brute force: the rules again, written plainly ---------------------------------------------


def _after_die(side: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    """Every side one die can leave (an independent reading of the rules)."""
    found = []
    highest = max(i for i, c in enumerate(side) if c) + 1
    for point in range(1, len(side) + 1):
        if not side[point - 1]:
            continue
        counts = list(side)
        counts[point - 1] -= 1
        if point - die >= 1:
            counts[point - die - 1] += 1
        elif point not in (die, highest):
            continue
        found.append(tuple(counts))
    return found


def _after_roll(side: tuple[int, ...], high: int, low: int) -> set[tuple[int, ...]]:
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    result = set()
    for dice in orders:
        frontier = {side}
        for die in dice:
            nxt = set()
            for position in frontier:
                nxt.update(_after_die(position, die) if any(position) else [position])
            frontier = nxt
        result |= frontier
    return result


@functools.cache
def win_chance(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
    """The chance that the side about to roll with ``mine`` wins, by brute force."""
    if not any(mine):
        return 1.0
    if not any(theirs):
        return 0.0
    total = 0.0
    for high in range(1, 7):
        for low in range(1, high + 1):
            weight = (1 if high == low else 2) / 36
            best = max(1 - win_chance(theirs, after) for after in _after_roll(mine, high, low))
            total += weight * best
    return total


def sides(checkers: int, points: int) -> list[tuple[int, ...]]:
    return [c for c in itertools.product(range(checkers + 1), repeat=points) if sum(c) <= checkers]


@pytest.mark.parametrize("algorithm", ["expectiminimax", "star1", "star2"])
def test_every_position_of_a_small_race_is_solved_as_brute_force_says(algorithm: str) -> None:
    game = get_game("bearoff:2,3")
    assert isinstance(game, Bearoff)
    searcher = Searcher(algorithm)
    for mine, theirs in itertools.product(sides(2, 3), repeat=2):
        if not any(mine) and not any(theirs):
            continue
        state = BearoffState(game, mine, theirs, 0, None)
        result = searcher.search(state)
        assert result.exact and result.score.meaning == "expected-score"
        assert result.score.probability == pytest.approx(win_chance(mine, theirs), abs=1e-12)


def test_every_play_is_searched_as_brute_force_says() -> None:
    game = get_game("bearoff:3,3")
    assert isinstance(game, Bearoff)
    searcher = Searcher("star2")
    state = board(game, "1-1-1/0-1-2 first 5-2")
    result = searcher.search(state, analyze=True)
    assert result.move_scores is not None
    for move, score in result.move_scores.items():
        after = state.play(move)
        assert isinstance(after, BearoffState)
        assert score.probability == pytest.approx(1 - win_chance(after.second, after.first))
    best = max(
        1 - win_chance(theirs, mine)
        for mine in _after_roll((1, 1, 1), 5, 2)
        for theirs in [(0, 1, 2)]
    )
    assert result.score.probability == pytest.approx(best)


# --- GNU Backgammon's database ------------------------------------------------------------------


def position_id(text: str) -> tuple[list[int], list[int]]:
    """A GNU Backgammon position ID (the base64 of an 80-bit key: for each side, for its
    points 1 to 24 and the bar, as many 1 bits as checkers and a 0 bit; least significant
    bit first) as two lists of checkers by point: (the side not on roll, the side on roll)."""
    raw = base64.b64decode(text + "==")[:10]
    bits = [raw[i // 8] >> (i % 8) & 1 for i in range(80)]
    found: list[list[int]] = []
    at = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            count = 0
            while bits[at]:
                count, at = count + 1, at + 1
            at += 1
            counts.append(count)
        found.append(counts)
    return found[0], found[1]


def test_position_ids_read_as_gnubg_documents_them() -> None:
    # the starting position of backgammon, as GNU Backgammon shows it
    other, on_roll = position_id("4HPwATDgc/ABMA")
    assert (
        on_roll[:24]
        == other[:24]
        == [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    )


def dump(database: Path, index: int) -> tuple[tuple[int, ...], tuple[int, ...], float]:
    """bearoffdump's answer for one index: the side on roll, the other, its cubeless equity."""
    assert BEAROFFDUMP is not None
    out = subprocess.run(
        [BEAROFFDUMP, str(database), "-n", str(index)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    pid = re.search(r"Position ID: (\S+)", out)
    equity = re.search(r"Cubeless equity\s*:\s*([-+]?\d+\.\d+)", out)
    assert pid is not None and equity is not None, out
    other, on_roll = position_id(pid.group(1))
    return tuple(on_roll[:6]), tuple(other[:6]), float(equity.group(1))


@pytest.mark.slow
@pytest.mark.skipif(not GNUBG, reason=NO_GNUBG)
@pytest.mark.parametrize(("points", "checkers", "every"), [(3, 3, 1), (6, 2, 3), (4, 4, 29)])
def test_the_winning_chances_are_gnubgs_two_sided_database(
    tmp_path: Path, points: int, checkers: int, every: int
) -> None:
    """Every position of the 3-point, 3-checker race (and every few of two larger ones): the
    exact chance to win of the side on roll, within 1e-4 of GNU Backgammon's."""
    assert MAKEBEAROFF is not None
    database = tmp_path / "two-sided.bd"
    subprocess.run(
        [MAKEBEAROFF, "-t", f"{points}x{checkers}", "-f", str(database)],
        capture_output=True,
        check=True,
        timeout=300,
        cwd=tmp_path,
    )
    per_side = len(sides(checkers, points))
    indices = range(1, per_side * per_side, every)  # 0: both sides off, no position
    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(lambda i: dump(database, i), indices))
    game = get_game(f"bearoff:{checkers},{points}")
    assert isinstance(game, Bearoff)
    searcher = Searcher("star2")  # one table for them all: later positions reuse it
    worst = 0.0
    for on_roll, other, equity in sorted(found, key=lambda f: (sum(f[0]) + sum(f[1]), f)):
        assert sum(on_roll[points:]) == sum(other[points:]) == 0
        state = BearoffState(game, on_roll[:points], other[:points], 0, None)
        chance = searcher.search(state).score.probability
        assert chance is not None
        worst = max(worst, abs(chance - (1 + equity) / 2))
        assert chance == pytest.approx((1 + equity) / 2, abs=1e-4), (state, equity)
    assert len(found) >= 60 and worst < 1e-4
    print(f"{points}x{checkers}: {len(found)} positions, largest difference {worst:.2e}")


def test_a_time_limited_search_of_a_long_race_returns_a_legal_play() -> None:
    game = get_game("bearoff:15,6")
    state = game.parse_position("6-5")
    result = Searcher().search(state, Limits(time=0.3))
    assert result.move in state.legal_moves() and not result.exact
    assert result.score.kind == "heuristic" and result.score.meaning == "expected-score"
