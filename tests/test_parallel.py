"""The parallel search gives the serial search's answers, and fails cleanly."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Hashable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from unbeatable import cli
from unbeatable.game import Move, Outcome, SolveRequest, State
from unbeatable.games import get_game
from unbeatable.search import Limits, Searcher, SearchResult, search, solve, solve_score
from unbeatable.search.parallel import (
    ParallelSearcher,
    ParallelSearchError,
    WorkerLostError,
    parallel_search,
    parallel_solve,
)


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    """Two worker processes shared by the tests; each test's searcher has its own tables."""
    with ProcessPoolExecutor(2) as executor:
        yield executor


def searcher(pool: ProcessPoolExecutor, **options: Any) -> ParallelSearcher:
    return ParallelSearcher(2, executor=pool, split_depth=options.pop("split_depth", 3), **options)


def assert_same(parallel: SearchResult, serial: SearchResult) -> None:
    assert parallel.score == serial.score
    assert parallel.exact == serial.exact
    assert parallel.move in serial.best_moves
    assert parallel.best_moves == serial.best_moves
    assert parallel.complete


def positions(spec: str, count: int, seed: int) -> list[State]:
    """The initial position and ``count`` unfinished positions from random playouts."""
    rng = random.Random(seed)
    game = get_game(spec)
    found = [game.initial()]
    while len(found) <= count:
        state = game.initial()
        for _ in range(rng.randrange(1, 6)):
            if state.outcome() is not None:
                break
            state = state.play(rng.choice(list(state.legal_moves())))
        if state.outcome() is None:
            found.append(state)
    return found


# --- a user's own game, defined here ---------------------------------------------------------


class Piles(State):
    """Two piles; take 1 to 3 tokens from either; whoever takes the last token wins.

    ``die_at``/``manager``: when set, a worker process (any process but ``manager``) that
    reaches a position with ``die_at`` tokens left raises (``mode`` 'raise') or exits at once
    ('exit'); used to test faults.
    """

    __slots__ = ("a", "b", "die_at", "manager", "mode", "ply_")

    def __init__(
        self, a: int, b: int, ply: int = 0, die_at: int = -1, manager: int = 0, mode: str = ""
    ) -> None:
        self.a, self.b, self.ply_ = a, b, ply
        self.die_at, self.manager, self.mode = die_at, manager, mode

    @property
    def to_move(self) -> int:
        return self.ply_ & 1

    @property
    def ply(self) -> int:
        return self.ply_

    @property
    def max_plies(self) -> int:
        return self.ply_ + self.a + self.b

    def legal_moves(self) -> list[tuple[int, int]]:
        return [(0, n) for n in range(1, min(3, self.a) + 1)] + [
            (1, n) for n in range(1, min(3, self.b) + 1)
        ]

    def play(self, move: Move) -> Piles:
        pile, n = cast(tuple[int, int], move)
        a, b = (self.a - n, self.b) if pile == 0 else (self.a, self.b - n)
        child = Piles(a, b, self.ply_ + 1, self.die_at, self.manager, self.mode)
        if a + b == self.die_at and os.getpid() != self.manager:
            if self.mode == "exit":
                os._exit(3)
            if self.mode == "raise":
                raise RuntimeError(f"cannot handle {a + b} tokens")
        return child

    def outcome(self) -> Outcome | None:
        if self.a or self.b:
            return None
        return Outcome.win_for(1 - self.to_move)

    def key(self) -> Hashable:
        return (min(self.a, self.b), max(self.a, self.b))

    def evaluate(self) -> float:
        return 1 if (self.a % 4) ^ (self.b % 4) else -1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Piles) and (self.a, self.b, self.ply_ & 1) == (
            other.a,
            other.b,
            other.ply_ & 1,
        )

    def __hash__(self) -> int:
        return hash((self.a, self.b, self.ply_ & 1))

    def __str__(self) -> str:
        return f"{self.a}+{self.b}"


class SolvedPiles(Piles):
    """The same game with a solver of its own (the nim-sum rule)."""

    __slots__ = ()

    def play(self, move: Move) -> SolvedPiles:
        child = super().play(move)
        return SolvedPiles(child.a, child.b, child.ply_)

    has_solver = True

    def solver_value(self, request: SolveRequest) -> int | None:
        if self.outcome() is not None:
            return None
        plain = Piles(self.a, self.b, self.ply_)
        score = solve_score(plain, Searcher(algorithm="alphabeta").search(plain).score)
        return (score > 0) - (score < 0) if request.weak else score


class UnboundedPiles(Piles):
    """The same game, not telling how long it can last."""

    __slots__ = ()

    @property
    def max_plies(self) -> None:  # type: ignore[override]
        return None

    def play(self, move: Move) -> UnboundedPiles:
        child = super().play(move)
        return UnboundedPiles(child.a, child.b, child.ply_)


# --- same answers ----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["tictactoe", "mnk:4,3,3", "mnk:4,4,3"])
def test_exact_search_matches_serial(pool: ProcessPoolExecutor, spec: str) -> None:
    for state in positions(spec, 5, seed=len(spec)):
        serial = Searcher().search(state)
        with searcher(pool) as parallel:
            assert_same(parallel.search(state), serial)


@pytest.mark.parametrize("spec", ["tictactoe", "mnk:4,3,3"])
def test_analysis_matches_serial(pool: ProcessPoolExecutor, spec: str) -> None:
    for state in positions(spec, 3, seed=7):
        serial = Searcher().search(state, analyze=True)
        with searcher(pool) as parallel:
            result = parallel.search(state, analyze=True)
        assert_same(result, serial)
        assert result.move_scores == serial.move_scores


@pytest.mark.parametrize(("spec", "depth"), [("mnk:4,4,4", 4), ("mnk:5,5,4", 4), ("mnk:5,5,4", 5)])
def test_depth_limited_search_matches_serial(
    pool: ProcessPoolExecutor, spec: str, depth: int
) -> None:
    for state in positions(spec, 2, seed=depth):
        serial = Searcher().search(state, Limits(depth=depth))
        with searcher(pool) as parallel:
            result = parallel.search(state, Limits(depth=depth))
        assert_same(result, serial)
        assert not result.exact


def test_user_game_matches_serial(pool: ProcessPoolExecutor) -> None:
    for a, b in [(5, 3), (7, 6), (4, 4), (9, 2)]:
        state = Piles(a, b)
        limits = Limits(depth=3)
        # a fresh searcher each time: a table filled by an exact search answers deeper
        assert_same(searcher(pool, split_depth=2).search(state), Searcher().search(state))
        result = searcher(pool, split_depth=2).search(state, limits)
        assert_same(result, Searcher().search(state, limits))
        result = searcher(pool, split_depth=2).search(state, analyze=True)
        assert result.move_scores == Searcher().search(state, analyze=True).move_scores


def test_game_of_unknown_length(pool: ProcessPoolExecutor) -> None:
    """Without a depth limit or max_plies, only the root is split (the manager has no table)."""
    state = UnboundedPiles(9, 8)
    with searcher(pool, split_depth=2) as parallel:
        result = parallel.search(state)
        assert len(parallel.task_log) <= len(state.legal_moves())
    assert_same(result, Searcher().search(state))


@pytest.mark.parametrize("algorithm", ["minimax", "negamax", "alphabeta", "alphabeta-stack"])
def test_every_algorithm(pool: ProcessPoolExecutor, algorithm: str) -> None:
    state = get_game("tictactoe").parse_position("5")
    serial = Searcher(algorithm).search(state, analyze=True)
    with searcher(pool, algorithm=algorithm) as parallel:
        result = parallel.search(state, analyze=True)
    assert_same(result, serial)
    assert result.move_scores == serial.move_scores
    assert result.algorithm == serial.algorithm


def test_solve_matches_serial(pool: ProcessPoolExecutor) -> None:
    game = get_game("mnk:4,3,3")
    with searcher(pool) as parallel:
        for text in ["", "5", "5,1", "2,5,8"]:
            state = game.parse_position(text)
            assert parallel.solve(state) == solve(state)
            assert parallel.solve(state, weak=True) == solve(state, weak=True)


def test_solve_many_matches_serial(pool: ProcessPoolExecutor) -> None:
    states = [*positions("mnk:4,3,3", 8, seed=3), Piles(5, 4), Piles(7, 1)]
    with searcher(pool) as parallel:
        assert list(parallel.solve_many(states)) == [solve(s) for s in states]
        assert list(parallel.solve_many(states, weak=True)) == [solve(s, weak=True) for s in states]
        assert list(parallel.solve_many([])) == []


def test_solve_many_names_the_failing_position(pool: ProcessPoolExecutor) -> None:
    states = [Piles(3, 3), Piles(4, 3, die_at=2, manager=os.getpid(), mode="raise")]
    with searcher(pool) as parallel, pytest.raises(ParallelSearchError, match="4\\+3"):
        list(parallel.solve_many(states))


def test_game_with_its_own_solver(pool: ProcessPoolExecutor) -> None:
    """A game's own solver runs in the workers: a whole position per task for solve(), one
    root move per task for an analysis."""
    for a, b in [(5, 3), (6, 2)]:
        state = SolvedPiles(a, b)
        with searcher(pool) as parallel:
            assert parallel.solve(state) == solve(state)
            assert parallel.solve(state, weak=True) == solve(state, weak=True)
            result = parallel.search(state, analyze=True)
        assert result.algorithm == "solver"
        assert result.move_scores == Searcher().search(state, analyze=True).move_scores


C4_LINES = ["32751571231557 -3", "335662333565 -2", "2416615552 4"]  # Test_L1_R2


def test_connect4_solver_and_generic_search(pool: ProcessPoolExecutor) -> None:
    game = get_game("connect4")
    states = [game.parse_position(line.split()[0]) for line in C4_LINES]
    expected = [int(line.split()[1]) for line in C4_LINES]
    with searcher(pool) as parallel:
        assert list(parallel.solve_many(states)) == expected
        assert [parallel.solve(state) for state in states[:2]] == expected[:2]
        result = parallel.search(states[0], analyze=True)
    assert result.move_scores == Searcher().search(states[0], analyze=True).move_scores
    state = game.parse_position("4453")
    serial = Searcher("alphabeta").search(state, Limits(depth=5))
    with searcher(pool, algorithm="alphabeta") as parallel:
        assert_same(parallel.search(state, Limits(depth=5)), serial)


def test_connect4_solver_under_a_budget_as_serially(pool: ProcessPoolExecutor) -> None:
    """A time or node budget goes to the game's solver, as in a serial search: the answer
    comes from the solver (not from a depth-limited generic search of the evaluation)."""
    state = get_game("connect4").parse_position("4453")
    serial = Searcher().search(state, Limits(time=10), analyze=True)
    with searcher(pool) as parallel:
        timed = parallel.search(state, Limits(time=10), analyze=True)
        budget = parallel.search(state, Limits(nodes=10**7), analyze=True)
    assert serial.algorithm == timed.algorithm == budget.algorithm == "solver"
    assert timed.complete and budget.complete
    assert timed.move_scores == budget.move_scores == serial.move_scores


def test_one_shot_functions() -> None:
    state = get_game("tictactoe").parse_position("1")
    serial = Searcher().search(state)
    assert_same(parallel_search(state, workers=2, split_depth=3), serial)
    assert parallel_solve(state, workers=2) == solve(state)


def test_terminal_position(pool: ProcessPoolExecutor) -> None:
    state = get_game("tictactoe").parse_position("14253")
    with searcher(pool) as parallel:
        result = parallel.search(state)
    assert result == replace(Searcher().search(state), elapsed=result.elapsed)
    assert result.move is None


def test_exact_after_shallower_iterations(pool: ProcessPoolExecutor) -> None:
    """A depth limit beyond the game's end is exact, as serially, though the pre-search and
    the iterations of a time budget were not."""
    state = get_game("mnk:4,3,3").initial()
    for limits in (Limits(depth=12), Limits(depth=12, time=60)):
        serial = Searcher().search(state, limits)
        with searcher(pool) as parallel:
            assert_same(parallel.search(state, limits), serial)
        assert serial.exact


def test_nodes_are_summed_over_tasks(pool: ProcessPoolExecutor) -> None:
    state = get_game("mnk:4,3,3").initial()
    with searcher(pool) as parallel:
        result = parallel.search(state)
        assert result.nodes >= sum(task.nodes for task in parallel.task_log) > 0
        assert len({task.worker for task in parallel.task_log}) >= 1


def test_budgets(pool: ProcessPoolExecutor) -> None:
    state = get_game("mnk:5,5,4").initial()
    with searcher(pool) as parallel:
        result = parallel.search(state, Limits(time=0.3))
        assert result.move in state.legal_moves()
        result = parallel.search(state, Limits(nodes=3000))
        assert result.move in state.legal_moves()
        assert not result.complete


def test_table_kept_between_searches(pool: ProcessPoolExecutor) -> None:
    state = get_game("mnk:4,3,3").initial()
    with searcher(pool) as parallel:
        first = parallel.search(state)
        again = parallel.search(state)
    assert again.nodes < first.nodes
    assert again.score == first.score


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="workers"):
        ParallelSearcher(0)
    with pytest.raises(ValueError, match="split_depth"):
        ParallelSearcher(2, split_depth=1)
    with pytest.raises(ValueError, match="unknown algorithm"):
        ParallelSearcher(2, algorithm="magic")


# --- faults ----------------------------------------------------------------------------------


def test_worker_error_names_the_task(pool: ProcessPoolExecutor) -> None:
    state = Piles(6, 5, die_at=4, manager=os.getpid(), mode="raise")
    with searcher(pool, split_depth=2) as parallel, pytest.raises(ParallelSearchError) as caught:
        parallel.search(state)
    error = caught.value
    assert "cannot handle 4 tokens" in str(error)
    assert "6+5" in str(error)  # the root
    assert error.moves  # the moves to the task's position
    assert "RuntimeError" in error.detail
    # the pool survives a task's error
    assert_same(searcher(pool).search(Piles(3, 2)), Searcher().search(Piles(3, 2)))


def test_killed_worker_does_not_hang() -> None:
    state = Piles(6, 5, die_at=4, manager=os.getpid(), mode="exit")
    with ParallelSearcher(2, split_depth=2) as parallel:
        with pytest.raises(WorkerLostError, match="worker process died"):
            parallel.search(state)
        # the searcher makes a fresh pool for the next search
        assert_same(parallel.search(Piles(3, 2)), Searcher().search(Piles(3, 2)))


INTERRUPTED = textwrap.dedent(
    """
    import signal
    import sys
    signal.signal(signal.SIGINT, signal.default_int_handler)  # whatever the parent ignored
    from unbeatable.games import get_game
    from unbeatable.search import Limits
    from unbeatable.search.parallel import ParallelSearcher

    state = get_game("mnk:5,5,4").initial()
    with ParallelSearcher(2) as searcher:
        searcher.search(state, Limits(depth=2))
        print(*searcher.executor()._processes, flush=True)
        try:
            searcher.search(state, Limits(depth=30))
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
    """
)


@pytest.mark.slow
def test_interrupt_stops_every_worker(tmp_path: Path) -> None:
    script = tmp_path / "interrupted.py"
    script.write_text(INTERRUPTED)
    with subprocess.Popen(  # closes the pipes whatever happens (warnings are errors)
        [sys.executable, "-X", "faulthandler", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            pids = [int(pid) for pid in process.stdout.readline().split()]
            assert len(pids) == 2
            time.sleep(0.5)
            process.send_signal(signal.SIGINT)
            try:
                out, err = process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack
                _, stacks = process.communicate(timeout=30)
                raise AssertionError(f"no exit 60 s after Ctrl-C; its threads:\n{stacks}") from None
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 130, err
    assert "interrupted" in out
    for pid in pids:
        assert not _alive(pid), f"worker {pid} still running"


def test_workers_end_when_the_manager_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "killed.py"
    script.write_text(INTERRUPTED)
    with subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        try:
            assert process.stdout is not None
            pids = [int(pid) for pid in process.stdout.readline().split()]
            assert len(pids) == 2
            process.kill()
            process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    for pid in pids:
        assert not _alive(pid), f"worker {pid} still running"


def _alive(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(") ")[-1].startswith("Z"):
                    return False  # a zombie has stopped running
        except FileNotFoundError:
            return False
        time.sleep(0.1)
    return True


# --- the command line ------------------------------------------------------------------------


def test_cli_workers(tmp_path: Path) -> None:
    # three positions: each split over the workers; six: one worker per position
    for lines in ["5\n1,12,7\n2,5\n", "5\n1,12,7\n2,5\n3\n4,9\n11,2,7,6\n"]:
        positions_file = tmp_path / "positions.txt"
        positions_file.write_text(lines)
        serial, parallel = io.StringIO(), io.StringIO()
        assert cli.main(["solve", "mnk:4,3,3", str(positions_file)], stdout=serial) == 0
        command = ["solve", "mnk:4,3,3", str(positions_file), "--workers", "2"]
        assert cli.main(command, stdout=parallel) == 0
        assert parallel.getvalue() == serial.getvalue()
    serial, parallel = io.StringIO(), io.StringIO()
    assert cli.main(["analyze", "tictactoe", "5", "--json"], stdout=serial) == 0
    code = cli.main(["analyze", "tictactoe", "5", "--json", "--workers", "2"], stdout=parallel)
    assert code == 0
    same = ("score", "best_moves", "moves", "exact", "complete")
    one, two = json.loads(serial.getvalue()), json.loads(parallel.getvalue())
    assert {k: one[k] for k in same} == {k: two[k] for k in same}


def test_cli_file_after_the_options(tmp_path: Path) -> None:
    positions_file = tmp_path / "positions.txt"
    positions_file.write_text("5\n1,12,7\n")
    first, last = io.StringIO(), io.StringIO()
    assert cli.main(["solve", "mnk:4,3,3", str(positions_file), "--weak"], stdout=first) == 0
    command = ["solve", "mnk:4,3,3", "--weak", "--workers", "2", str(positions_file)]
    assert cli.main(command, stdout=last) == 0
    assert first.getvalue() == last.getvalue()


def test_cli_rejects_bad_worker_counts() -> None:
    err = io.StringIO()
    assert cli.main(["analyze", "tictactoe", "--workers", "0"], stderr=err) == 2
    assert "--workers" in err.getvalue()
    err = io.StringIO()
    assert cli.main(["analyze", "tictactoe", "--workers", "2", "--mpi"], stderr=err) == 2
    assert "not allowed with" in err.getvalue()


def test_a_reused_parallel_searcher_does_not_answer_one_game_from_another() -> None:
    from unbeatable.search.parallel import ParallelSearcher

    with ParallelSearcher(workers=2, split_depth=2) as searcher:
        first = searcher.search(get_game("mnk:4,4,3").initial(), Limits(depth=4))
        second = searcher.search(get_game("mnk:4,3,3").initial(), Limits(depth=4))
    assert first.score == search(get_game("mnk:4,4,3").initial(), Limits(depth=4)).score
    assert second.score == search(get_game("mnk:4,3,3").initial(), Limits(depth=4)).score
    assert second.best_moves == search(get_game("mnk:4,3,3").initial(), Limits(depth=4)).best_moves


def test_a_parallel_searcher_says_whether_its_workers_keep_tables() -> None:
    with ParallelSearcher(workers=1, algorithm="negamax") as plain:
        assert plain.uses_table is False
        with pytest.warns(DeprecationWarning, match="uses_table"):
            assert plain.table is False
    with ParallelSearcher(workers=1) as default:
        assert default.uses_table is True
