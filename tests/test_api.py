"""The public API: one options object, the namespace, clear errors, Ctrl-C keeps what is known,
ties broken by the order hook (issue 8 items 1 and 4; issue 12 items 4, 7, 9 and 11)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import pytest

import unbeatable
import unbeatable.search
from unbeatable import (
    Limits,
    ParallelSearcher,
    Score,
    Searcher,
    SearchInterrupted,
    SearchOptions,
    get_game,
    solve,
)
from unbeatable.game import Move, State
from unbeatable.search import search, solve_score
from unbeatable.search.score import WIN


def test_the_search_subpackage_is_the_module_and_still_a_shorthand() -> None:
    assert unbeatable.search.ParallelSearcher is ParallelSearcher
    assert unbeatable.search.Searcher is Searcher
    assert str(search(get_game("tictactoe").initial()).score) == "draw"
    assert unbeatable.ParallelSearcher is ParallelSearcher


def test_options_check_themselves_where_they_are_written() -> None:
    with pytest.raises(ValueError, match="unknown algorithm 'alfabeta'"):
        SearchOptions(algorithm="alfabeta")
    with pytest.raises(ValueError, match="table capacity"):
        SearchOptions(table_size=0)
    with pytest.raises(TypeError, match="hints must be True or False"):
        SearchOptions(hints="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unknown search option 'depth'"):
        Searcher(depth=3)
    options = SearchOptions(algorithm="negamax")
    assert options.table is False  # plain negamax keeps no table unless asked
    assert Searcher(options=options).table is None
    assert Searcher(options=options, table=True).table is not None


def test_serial_and_parallel_take_the_same_options() -> None:
    state = get_game("mnk:3,3,3").initial().play(4)
    options = SearchOptions(algorithm="alphabeta", table_size=1 << 12)
    serial = Searcher(options=options).search(state, analyze=True)
    with ParallelSearcher(2, options=options) as parallel:
        assert parallel.options == options
        result = parallel.search(state, analyze=True)
    assert result.score == serial.score
    assert result.move_scores == serial.move_scores


def test_iterative_deepening_works_in_parallel_too() -> None:
    state = get_game("mnk:4,4,4").initial().play(5).play(6)
    seen: list[int] = []
    with ParallelSearcher(2, iterative=True) as parallel:
        result = parallel.search(
            state, Limits(depth=4), on_iteration=lambda r: seen.append(r.depth)
        )
    assert seen == [1, 2, 3, 4]
    assert result.score == search(state, Limits(depth=4)).score


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: search(s, 0.5), r"limits must be a Limits, e.g. Limits\(time=0.5\)"),  # type: ignore[arg-type]
        (lambda s: search(None), "search needs a State, not NoneType"),  # type: ignore[arg-type]
        (lambda s: solve(None), "search needs a State, not NoneType"),  # type: ignore[arg-type]
    ],
)
def test_api_misuse_is_named(call: object, message: str) -> None:
    state = get_game("tictactoe").initial()
    with pytest.raises((TypeError, ValueError), match=message):
        call(state)  # type: ignore[operator]


class Stuck(State):
    """A position with no legal moves that does not say the game is over."""

    to_move = 0

    def legal_moves(self) -> list[Move]:
        return []

    def play(self, move: Move) -> Stuck:
        raise AssertionError("no moves")

    def outcome(self) -> None:
        return None


class Wordy(Stuck):
    def outcome(self) -> str:  # type: ignore[override]
        return "first wins"


def test_a_state_that_breaks_the_protocol_is_named() -> None:
    with pytest.raises(ValueError, match="no legal moves but outcome"):
        search(Stuck())
    refused = r"outcome\(\) must return an Outcome, a Payoff or None, not 'first"
    with pytest.raises(TypeError, match=refused):
        search(Wordy())


def test_ctrl_c_keeps_the_last_completed_iteration() -> None:
    state = get_game("mnk:4,4,4").initial()
    calls = 0

    def order(s: State, moves: Sequence[Move]) -> Sequence[Move]:
        nonlocal calls
        calls += 1
        if calls == 5000:
            raise KeyboardInterrupt
        return moves

    with pytest.raises(SearchInterrupted) as caught:
        search(state, Limits(time=60), order=order)
    result = caught.value.result
    assert result is not None and not result.complete
    assert result.depth >= 1 and result.move in state.legal_moves()


def test_ctrl_c_in_an_exact_search_keeps_the_root_moves_already_searched() -> None:
    state = get_game("tictactoe").initial()
    calls = 0
    stop_at = 0

    def order(s: State, moves: Sequence[Move]) -> Sequence[Move]:
        nonlocal calls
        calls += 1
        if calls == stop_at:
            raise KeyboardInterrupt
        return moves

    search(state, order=order, table=False)
    stop_at, calls = calls * 9 // 10, 0  # Ctrl-C near the end: some root moves are done

    with pytest.raises(KeyboardInterrupt) as caught:  # still a KeyboardInterrupt
        search(state, order=order, table=False)
    assert isinstance(caught.value, SearchInterrupted)
    result = caught.value.result
    assert result is not None and not result.complete and not result.exact
    assert result.move in state.legal_moves()


def backwards(s: State, moves: Sequence[Move]) -> Sequence[Move]:
    """A move order hook (module-level: the parallel searcher pickles it)."""
    return list(reversed(moves))


def test_ties_go_to_the_order_hook_in_serial_and_parallel() -> None:
    state = get_game("tictactoe").initial()

    # Every first move draws: the move played is the first in the hook's order.
    assert search(state, order=backwards).move == 8  # the last square, 9 in notation
    assert search(state).move == 0
    with ParallelSearcher(2, order=backwards, split_depth=3) as parallel:
        assert parallel.search(state).move == 8


def test_a_worker_whose_manager_is_already_gone_exits_at_once() -> None:
    # Issue 12 item 4: the manager's pid is handed over, not read after the manager may have
    # died (an orphan's parent is then another process and the worker would run on).
    code = (
        "import os\n"
        "from unbeatable.search.parallel import init_worker\n"
        "init_worker(os.getppid() + 12345)\n"
        "print('still running')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "still running" not in done.stdout


def test_score_equality_and_ordering_agree() -> None:
    from unbeatable import Score

    scores = [Score(v, e) for v in (-5, 0, 3, 999_999_990) for e in (True, False)]
    for a in scores:
        for b in scores:
            assert [a < b, a == b, a > b].count(True) == 1, (a, b)
            assert (a <= b) == (a < b or a == b)
    assert Score(0, False) < Score(0) and Score(0) != Score(0, False)


class HalfSolved:
    """Subtraction positions whose 'solver' answers part of the moves (a budget ran out) or
    reports Ctrl-C: the driver must keep what it said, marked incomplete."""

    @staticmethod
    def make(interrupted: bool) -> State:
        from unbeatable.game import SolveAnswer, SolveRequest
        from unbeatable.games.subtraction import SubtractionState

        class Partial(SubtractionState):
            has_solver = True

            def solver_moves(self, request: SolveRequest) -> SolveAnswer | None:
                # 7 tokens, take up to 3: taking 3 (leaving 4) wins; only take 1 is solved
                # (a loss: 6 left is a win for the opponent), take 3 is open with bounds.
                return SolveAnswer(
                    values={1: -3}, bounds={3: (-3, 3), 2: (-3, 3)}, complete=False,
                    nodes=10, interrupted=interrupted,
                )

        return Partial(7, 3, 0, 7)


def test_a_solver_cut_short_gives_an_incomplete_result_and_ctrl_c_keeps_it() -> None:
    state = HalfSolved.make(interrupted=False)
    result = search(state)
    assert result.algorithm == "solver" and not result.complete and not result.exact
    assert result.move in (1, 2, 3)
    with pytest.raises(SearchInterrupted) as caught:
        search(HalfSolved.make(interrupted=True))
    assert caught.value.result is not None and not caught.value.result.complete


@pytest.mark.slow  # three searches of 20,000 nodes: 0.9 s (2026-12-02)
def test_a_budgeted_player_moves_by_the_evaluation_when_the_solver_settles_nothing() -> None:
    # one stone, no database: the bare solver settles nothing in 20,000 nodes
    state = get_game("connect4").parse_position("4")
    options = SearchOptions(book=False, threads=1)
    player = search(state, Limits(nodes=20_000), options=options)
    assert player.algorithm == "alphabeta" and not player.exact and player.move is not None
    assert player.nodes <= 20_000  # the solver's half and the generic search's rest
    # an analysis keeps what the solver proved (bounds), for every move
    analysis = search(state, Limits(nodes=20_000), analyze=True, options=options)
    assert analysis.algorithm == "solver" and analysis.move_bounds
    # with the database the solver settles the move at once: no evaluation needed
    settled = search(state, Limits(nodes=20_000))
    assert settled.algorithm == "solver" and settled.exact


def test_a_budgeted_player_keeps_a_column_proven_to_hold_a_draw() -> None:
    from unbeatable.game import SolveAnswer, SolveRequest
    from unbeatable.games.connect4 import Connect4State

    def answer(proven: dict[int, int]) -> type[Connect4State]:
        class Partial(Connect4State):
            def solver_moves(self, request: SolveRequest) -> SolveAnswer | None:
                wide = {m: (-20, 20) for m in range(7) if m not in proven}
                return SolveAnswer(values=proven, bounds=wide, complete=False, nodes=5)

        return Partial

    start = get_game("connect4").parse_position("4")
    assert isinstance(start, Connect4State)
    for proven, solver in (({2: 0}, True), ({2: 1}, True), ({2: -3}, False)):
        cls = answer(proven)
        state = cls(start.game, start.current, start.mask, start.moves, None)
        result = search(state, Limits(nodes=2_000))
        # a draw or better proven: that column; only a loss proven: the evaluation chooses
        assert (result.algorithm == "solver") is solver, proven
        if solver:
            assert result.move == 2


def test_ctrl_c_before_the_solver_proved_anything_leaves_a_player_no_move() -> None:
    from unbeatable.game import SolveAnswer, SolveRequest
    from unbeatable.games.subtraction import SubtractionState

    class Nothing(SubtractionState):
        has_solver = True

        def solver_moves(self, request: SolveRequest) -> SolveAnswer | None:
            wide = {m: (-3, 3) for m in (1, 2, 3)}
            return SolveAnswer(values={}, bounds=wide, complete=False, nodes=5, interrupted=True)

    state = Nothing(7, 3, 0, 7)
    with pytest.raises(SearchInterrupted) as caught:
        search(state)
    assert caught.value.result is None  # the front end makes a short search of its own
    with pytest.raises(SearchInterrupted) as caught:
        search(state, analyze=True)
    assert caught.value.result is not None and caught.value.result.move_bounds


class BestOnly:
    """Subtraction positions (7 tokens, take up to 3: taking 3 wins) whose 'solver' answers a
    best-only request with the best move exact and the others as bounds, recording what it was
    asked. ``ceiling``: the upper end of the other moves' bounds."""

    @staticmethod
    def make(ceiling: int, asked: list[bool]) -> State:
        from unbeatable.game import SolveAnswer, SolveRequest
        from unbeatable.games.subtraction import SubtractionState

        class Best(SubtractionState):
            has_solver = True

            def solver_moves(self, request: SolveRequest) -> SolveAnswer | None:
                asked.append(request.best_only)
                if not request.best_only:
                    return SolveAnswer(values={1: -3, 2: -3, 3: 3}, nodes=9)
                return SolveAnswer(
                    values={3: 3}, bounds={1: (-3, ceiling), 2: (-3, ceiling)}, nodes=3
                )

        return Best(7, 3, 0, 7)


def test_a_player_asks_the_solver_for_the_best_moves_only() -> None:
    asked: list[bool] = []
    result = search(BestOnly.make(ceiling=1, asked=asked))
    assert asked[0] is True
    assert result.complete and result.exact and result.best_moves == (3,) and result.move == 3
    assert result.move_scores is None
    asked.clear()
    analyzed = search(BestOnly.make(ceiling=1, asked=asked), analyze=True)
    assert asked[0] is False and analyzed.move_scores is not None
    assert analyzed.best_moves == result.best_moves and analyzed.score == result.score


def test_a_best_only_answer_whose_other_moves_might_tie_is_incomplete() -> None:
    result = search(BestOnly.make(ceiling=3, asked=[]))
    assert not result.complete and result.move == 3


class Bounded:
    """Subtraction positions (7 tokens, take up to 3) whose 'solver' answers ``values`` exactly
    and ``bounds`` as (lower, upper) pairs, as one cut short by a budget does."""

    @staticmethod
    def make(values: dict[int, int], bounds: dict[int, tuple[int, int]]) -> State:
        from unbeatable.game import SolveAnswer, SolveRequest
        from unbeatable.games.subtraction import SubtractionState

        class Open(SubtractionState):
            has_solver = True

            def solver_moves(self, request: SolveRequest) -> SolveAnswer | None:
                return SolveAnswer(values=values, bounds=bounds, complete=False, nodes=5)

        return Open(7, 3, 0, 7)


def _ends(state: State, pair: tuple[Score, Score]) -> tuple[int, int]:
    """Bounds in the solve convention, each end an exact score."""
    assert pair[0].exact and pair[1].exact
    return solve_score(state, pair[0]), solve_score(state, pair[1])


def test_a_solver_cut_short_keeps_the_bounds_of_its_open_moves_and_of_the_score() -> None:
    state = Bounded.make({1: -3}, {2: (-3, 1), 3: (-1, 3)})
    result = search(state, analyze=True)
    assert not result.complete and not result.exact and result.move == 3
    assert result.move_bounds is not None and set(result.move_bounds) == {2, 3}
    assert _ends(state, result.move_bounds[2]) == (-3, 1)
    assert _ends(state, result.move_bounds[3]) == (-1, 3)
    # the lower ends still rank the moves; the exact move has no bounds
    assert result.move_scores is not None
    assert all(result.move_scores[m].value == result.move_bounds[m][0].value for m in (2, 3))
    assert result.move_scores[1].exact and 1 not in result.move_bounds
    # the position: the best lower end, and the greatest upper end
    assert result.score_bounds is not None and _ends(state, result.score_bounds) == (-1, 3)
    assert result.score.value == result.score_bounds[0].value
    # a player's search (best moves only) keeps them too
    assert search(state).score_bounds == result.score_bounds


def test_an_exact_score_has_no_bounds_even_with_moves_left_open() -> None:
    state = Bounded.make({1: -3, 3: 3}, {2: (-3, 1)})
    result = search(state, analyze=True)
    assert result.exact and result.score_bounds is None and not result.complete
    assert result.move_bounds is not None and list(result.move_bounds) == [2]
    assert _ends(state, result.move_bounds[2]) == (-3, 1)
    solved = search(Bounded.make({1: -3, 2: -3, 3: 3}, {}), analyze=True)
    assert solved.move_bounds is None and solved.score_bounds is None


def test_a_move_the_solver_left_out_could_be_anything() -> None:
    state = Bounded.make({1: -3}, {3: (-1, 2)})
    result = search(state, analyze=True)
    assert result.score_bounds is not None
    lower, upper = result.score_bounds
    assert solve_score(state, lower) == -1 and upper == Score(WIN - 1)


def test_ctrl_c_in_the_solver_keeps_the_bounds() -> None:
    with pytest.raises(SearchInterrupted) as caught:
        search(HalfSolved.make(interrupted=True), analyze=True)
    result = caught.value.result
    assert result is not None and result.move_bounds is not None
    assert set(result.move_bounds) == {2, 3} and result.score_bounds is not None


#: The empty Connect Four board's column values (solve convention), from the opening book.
EMPTY_BOARD: dict[Move, int] = {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}


def test_connect4_cut_short_proves_bounds_that_hold() -> None:
    state = get_game("connect4").initial()
    searcher = Searcher(book=False, threads=1)
    result = searcher.search(state, Limits(nodes=300_000), analyze=True)
    assert result.algorithm == "solver" and not result.complete and not result.exact
    assert result.move_scores is not None and result.move_bounds is not None
    for move, score in result.move_scores.items():
        if score.exact:
            assert move not in result.move_bounds
            assert solve_score(state, score) == EMPTY_BOARD[move]
        else:
            low, high = _ends(state, result.move_bounds[move])
            assert low <= EMPTY_BOARD[move] <= high and low < high, move
            assert score.value == result.move_bounds[move][0].value
    assert result.score_bounds is not None
    low, high = _ends(state, result.score_bounds)
    assert low <= 1 <= high


def test_connect4_best_moves_alone_are_those_of_the_whole_analysis() -> None:
    game = get_game("connect4")
    for moves in ("4433", "444444", "43443", "4455", "3"):
        state = game.parse_position(moves)
        quick = search(state)
        full = search(state, analyze=True)
        assert quick.complete and quick.exact and quick.move_scores is None
        assert quick.best_moves == full.best_moves and quick.score == full.score, moves
        assert quick.pv[0] in quick.best_moves


def _evaluate_none(state: State) -> float:
    return None  # type: ignore[return-value]


def _search_with_a_silent_evaluation() -> None:
    search(get_game("tictactoe").initial(), Limits(depth=1), evaluate=_evaluate_none)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: get_game(None), "a game is named by a string"),  # type: ignore[arg-type]
        (lambda: get_game("tictactoe").parse_position(None), "position is given as text"),  # type: ignore[arg-type]
        (lambda: get_game("connect4").parse_position(4), "position is given as text"),  # type: ignore[arg-type]
        (_search_with_a_silent_evaluation, "must be a number, not None"),
    ],
)
def test_more_misuse_is_named(call: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()  # type: ignore[operator]


def test_the_old_spelling_analyse_still_works_and_warns() -> None:
    from unbeatable import report
    from unbeatable.search import parallel_search

    state = get_game("tictactoe").parse_position("5")
    with pytest.warns(DeprecationWarning, match="'analyse' is now spelled 'analyze'"):
        old = search(state, analyse=True)
    assert old.move_scores == search(state, analyze=True).move_scores
    with pytest.warns(DeprecationWarning):
        assert Searcher().search(state, analyse=True).move_scores == old.move_scores
    with pytest.warns(DeprecationWarning):
        assert parallel_search(state, workers=1, analyse=True).move_scores == old.move_scores
    with pytest.warns(DeprecationWarning, match="report.analyze"):
        found = report.analyse(get_game("tictactoe"), state, Searcher())
    assert found.result is not None and found.result.move_scores == old.move_scores
