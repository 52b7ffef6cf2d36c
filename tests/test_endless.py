"""A game that goes round in circles (or never ends) and declares no max_plies: a search to the
end says so in one line instead of growing its stack until memory runs out."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.helpers import one_error_line, run
from unbeatable import Limits, Searcher, State
from unbeatable.search import stack


class Loop(State):
    """Two players pass a token round a circle of four positions; nobody ever wins."""

    def __init__(self, n: int = 0, to_move: int = 0) -> None:
        self.n, self._to_move = n, to_move

    @property
    def to_move(self) -> int:
        return self._to_move

    def legal_moves(self) -> list[str]:
        return ["pass"] if self.n % 2 else ["pass", "wait"]

    def play(self, move: object) -> Loop:
        return Loop((self.n + 1) % 4, 1 - self._to_move)

    def outcome(self) -> None:
        return None

    def key(self) -> object:
        return (self.n, self._to_move)


LOOP_SOURCE = '''
from unbeatable import State

class Loop(State):
    def __init__(self, n=0, to_move=0):
        self.n, self._to_move = n, to_move
    @property
    def to_move(self):
        return self._to_move
    def legal_moves(self):
        return ["pass"] if self.n % 2 else ["pass", "wait"]
    def play(self, move):
        return Loop((self.n + 1) % 4, 1 - self._to_move)
    def outcome(self):
        return None
'''


def test_the_stack_search_of_an_endless_game_stops_with_a_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stack, "ENDLESS_PLIES", 500)
    with pytest.raises(ValueError, match="501 moves deep without the game ending"):
        Searcher(algorithm="alphabeta-stack").search(Loop())


def test_a_depth_or_time_limit_still_searches_it() -> None:
    result = Searcher(algorithm="alphabeta-stack", evaluate=lambda s: 0).search(
        Loop(), Limits(depth=6)
    )
    assert result.move in Loop().legal_moves() and not result.exact
    result = Searcher().search(Loop(), Limits(time=0.2))
    assert result.move in Loop().legal_moves() and not result.exact


def test_analyze_of_an_endless_game_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "loopgame.py").write_text(LOOP_SOURCE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(stack, "ENDLESS_PLIES", 2_000)
    try:
        code, out, err = run("analyze", "loopgame:Loop", "")
    finally:
        sys.modules.pop("loopgame", None)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "2,001 moves deep" in line and "give the search a depth or a time limit" in line
