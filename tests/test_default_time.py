"""A game too large to solve (chess) declares the time a search takes when it is given no
limit (``State.default_time``): a search, the AI's move and an analysis asked for "no limit"
end, and an exact solve says the game cannot be solved."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.helpers import one_error_line, run
from unbeatable import check_game
from unbeatable.game import FIRST, Outcome, State
from unbeatable.search import Limits, Searcher, solve

chess = pytest.importorskip("chess", reason="python-chess (a test-only oracle) is not installed")

from unbeatable.games import get_game  # noqa: E402
from unbeatable.games.chess.game import ChessState  # noqa: E402

SECONDS = 0.4


@pytest.fixture
def short(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chess thinks SECONDS a move instead of its own default, to keep the tests short."""
    assert ChessState.default_time is not None and ChessState.default_time > SECONDS
    monkeypatch.setattr(ChessState, "default_time", SECONDS)
    yield


class Race(State):
    """A race to 10**6 by steps of 1 or 2: the side that reaches it wins. Too long to search to
    the end in a test, so it declares its own time a search."""

    default_time = SECONDS

    def __init__(self, total: int = 0, player: int = FIRST) -> None:
        self.total, self.player = total, player

    @property
    def to_move(self) -> int:
        return self.player

    def legal_moves(self) -> list[int]:
        return [] if self.outcome() else [1, 2]

    def play(self, move: object) -> Race:
        assert isinstance(move, int)
        return Race(self.total + move, 1 - self.player)

    def outcome(self) -> Outcome | None:
        if self.total >= 10**6:
            return Outcome.win_for(1 - self.player)
        return None

    def key(self) -> tuple[int, int]:
        return self.total, self.player

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Race) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())


@pytest.mark.usefixtures("short")
def test_a_search_with_no_limit_takes_the_games_time() -> None:
    state = get_game("chess").initial()
    start = time.perf_counter()
    result = Searcher().search(state)
    assert time.perf_counter() - start < 60  # it ends (the time itself is not asserted)
    assert not result.complete and not result.exact
    assert result.move in state.legal_moves()
    # a limit given wins over the game's own time
    deeper = Searcher().search(state, Limits(depth=2))
    assert deeper.complete and deeper.depth == 2


def test_a_users_game_declares_its_time() -> None:
    result = Searcher().search(Race())
    assert not result.complete and result.move in (1, 2)
    assert Race().default_time == SECONDS
    assert State.default_time is None  # every other game still searches to the end
    assert check_game(Race(), games=3).longest == 400  # it keeps the protocol (as far as checked)


@pytest.mark.slow
@pytest.mark.usefixtures("short")
def test_an_exact_solve_says_the_game_cannot_be_solved() -> None:
    with pytest.raises(ValueError, match=r"chess cannot be solved.*0\.4 s"):
        solve(get_game("chess").initial())
    with pytest.raises(ValueError, match="cannot be solved"):
        solve(Race())
    code, out, err = run("solve", "chess", stdin="e2e4\n")
    assert code == 2 and out == ""
    assert "chess cannot be solved" in one_error_line(err)


@pytest.mark.slow  # two searches of the game's time: 0.8 s (2026-12-02)
@pytest.mark.usefixtures("short")
def test_the_cli_plays_and_analyzes_chess_with_no_limit() -> None:
    code, out, err = run("play", "chess", "--human", "first", stdin="e2e4\nquit\n")
    assert code == 0, err
    assert f"{SECONDS:g} s a move: the game is too large to solve" in out
    assert "perfect play" not in out and "minutes" not in out
    # the AI's reply is shown for people too: UCI and SAN (``b8c6 Nc6``)
    reply = next(line for line in out.splitlines() if line.startswith("AI plays "))
    uci, san = reply.split()[2:4]
    board = chess.Board()
    board.push_uci("e2e4")
    assert board.san(chess.Move.from_uci(uci)) == san

    code, out, err = run("analyze", "chess", SCHOLAR_LIKE)
    assert code == 0, err
    assert "stopped at its limit" in out and "interrupted" not in out
    pv = out.split("principal variation: ")[1].split("\n")[0].split()
    board = chess.Board(SCHOLAR_LIKE)
    for san in pv:  # the line is in SAN, legal move after move
        board.push_san(san)


SCHOLAR_LIKE = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def test_solved_games_keep_their_exact_answers() -> None:
    code, out, _ = run("analyze", "tictactoe", "5")
    assert code == 0 and "stopped at its limit" not in out and "heuristic" not in out
    assert solve(get_game("tictactoe").initial()) == 0
