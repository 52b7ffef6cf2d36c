"""Issue 12 item 3: a subtraction position won in one move is answered at once and in little
memory, and a spec whose search could not fit in memory is refused up front."""

from __future__ import annotations

import subprocess
import sys

import pytest

from unbeatable import get_game
from unbeatable.game import GameError
from unbeatable.search import Limits, search

# Runs one solve in a child and prints the child's peak resident memory in KiB: Linux's VmHWM
# (ru_maxrss would carry over the forking test process's own peak across exec).
CHILD = """
import sys
from unbeatable import get_game, solve
game = get_game(sys.argv[1])
score = solve(game.initial())
with open("/proc/self/status") as status:
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
print(score, peak)
"""


def peak(spec: str) -> tuple[int, int]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, spec], capture_output=True, text=True, timeout=120, check=True
    )
    score, kib = done.stdout.split()
    return int(score), int(kib)


def test_a_pile_taken_whole_is_solved_in_one_move_and_little_memory() -> None:
    # Before: 9 GB after 30 s and still climbing (the search walked every pile size down to 0).
    score, kib = peak("subtraction:100000,100000")
    assert score > 0
    assert kib < 300 * 1024


def test_the_winning_take_is_searched_first() -> None:
    state = get_game("subtraction:100000,100000").initial()
    assert state.winning_move() == 100000
    assert state.ordered_moves()[0] == 100000
    assert search(state, Limits(depth=1)).move == 100000
    # 10 = 2 + 8: the take that leaves a multiple of take + 1 comes first.
    assert get_game("subtraction:10,3").initial().ordered_moves()[0] == 2


def test_a_spec_too_large_to_search_is_refused_with_its_bound() -> None:
    with pytest.raises((GameError, ValueError), match="from 1 to 100,000"):
        get_game("subtraction:1000000,3")


def test_the_command_line_refuses_it_with_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable", "solve", "subtraction:1000000,3"],
        input="", capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "1,000,000" in done.stderr or "1000000" in done.stderr
    assert "Traceback" not in done.stderr
