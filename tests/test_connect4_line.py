"""The principal variation of a solved Connect Four position (``_line`` kernel, ``hooks.line``,
``State.solver_line`` and the search's ``pv``): legal, to the end of the game, every move keeping
the value (checked by solving each position again with a solver of its own), the game ending as
the score says; a budget gives a shorter line whose moves are still proven. No timing is
asserted."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from tests.nojit import run_without_jit
from unbeatable import Searcher, get_game, solve
from unbeatable.cli import main
from unbeatable.game import Outcome, SolveRequest, State
from unbeatable.games.connect4 import Connect4State, database
from unbeatable.games.connect4.hooks import line, line_costs
from unbeatable.games.connect4.solver import Solver
from unbeatable.search import search

REPO = Path(__file__).resolve().parents[1]
needs_db = pytest.mark.skipif(not database.load().loaded, reason="bitbully-databases missing")


def check_line(state: Connect4State, moves: list[int], value: int, solver: Solver) -> None:
    """``moves`` from ``state`` (whose exact score is ``value``) are legal, each keeps the
    score (``solver`` re-solves every position on the way), and the game ends as the score
    says: a win or loss on the stone the score names, or a full board for a draw."""
    position = state
    for index, move in enumerate(moves):
        assert position.outcome() is None, (str(state), moves, index)
        assert move in position.legal_moves(), (str(state), moves, index)
        position = position.play(move)
        if position.outcome() is None:
            expected = value if index % 2 == 1 else -value
            got = solver.solve_bitboards(position.current, position.mask, position.moves)
            assert got == expected, (str(state), moves[: index + 1])
    outcome = position.outcome()
    assert outcome is not None, (str(state), moves)
    cells = state.game.cells
    if value == 0:
        assert outcome is Outcome.DRAW
        assert position.moves == cells
    else:
        winner = state.to_move if value > 0 else 1 - state.to_move
        assert outcome.winner == winner
        # the winning stone was placed with position.moves - 1 stones on the board
        assert (cells + 1 - (position.moves - 1)) // 2 == abs(value)


@pytest.fixture(scope="module")
def checker() -> Solver:
    return Solver(table_bytes=1 << 23, threads=1)


@needs_db
@pytest.mark.parametrize(
    "moves", ["", "4", "4444", "444441322224", "4455", "43", "3344", "1234567"]
)
def test_the_line_reaches_the_end_and_keeps_the_value(moves: str, checker: Solver) -> None:
    state = get_game("connect4").parse_position(moves)
    assert isinstance(state, Connect4State)
    found = line(state, SolveRequest())
    check_line(state, found, solve(state), checker)


@pytest.mark.slow
@needs_db
def test_random_positions_of_the_middle_game(checker: Solver) -> None:
    """Lines from positions of 8 to 20 stones, random play (with a seeded generator)."""
    rng = random.Random(7)
    game = get_game("connect4")
    checked = 0
    while checked < 6:
        state = game.initial()
        stones = rng.randrange(8, 21)
        while state.outcome() is None and state.ply < stones:
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome() is not None:
            continue
        assert isinstance(state, Connect4State)
        check_line(state, line(state, SolveRequest()), solve(state), checker)
        checked += 1


@pytest.mark.parametrize(  # 4 x 5: 1.0 s (2026-12-02)
    ("width", "height"), [(5, 4), pytest.param(4, 5, marks=pytest.mark.slow), (6, 5)]
)
def test_small_boards_keep_the_value_of_the_generic_search(width: int, height: int) -> None:
    """Boards without the database: each line is checked by the generic alpha-beta too."""
    game = get_game(f"connect4:width={width},height={height}")
    rng = random.Random(f"{width}x{height}")
    generic = Searcher("alphabeta")
    for _ in range(4):
        state = game.initial()
        while state.outcome() is None and state.ply < width * height - 14:
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome() is not None:
            continue
        assert isinstance(state, Connect4State)
        value = solve(state, searcher=generic)
        found = line(state, SolveRequest(table_size=1 << 16))
        check_line(state, found, value, Solver(1 << 19, width, height))


def check_prefix(state: Connect4State, moves: list[int], solver: Solver) -> None:
    """Each of ``moves`` keeps the score of ``state`` (a line cut short by a budget)."""
    value = solver.solve_bitboards(state.current, state.mask, state.moves)
    position = state
    for index, move in enumerate(moves):
        assert move in position.legal_moves()
        position = position.play(move)
        if position.outcome() is None:
            expected = value if index % 2 == 1 else -value
            got = solver.solve_bitboards(position.current, position.mask, position.moves)
            assert got == expected, (str(state), moves[: index + 1])


@needs_db
def test_a_node_budget_gives_a_proven_prefix(checker: Solver) -> None:
    state = get_game("connect4").parse_position("4")
    assert isinstance(state, Connect4State)
    # on a cold table (a solver of its own): a budget that proves the first moves but stops
    # inside a move costing more than two budget checks (every 4,096 nodes); the same search
    # on another cold table of the same size (the same nodes)
    costs = line_costs(state, SolveRequest(table_size=1 << 19))
    k = next(i for i, (_, nodes, _) in enumerate(costs) if i > 0 and nodes > 3 * 4096)
    budget = sum(nodes for _, nodes, _ in costs[:k]) + 4096
    short = line(state, SolveRequest(table_size=(1 << 19) + 1, max_nodes=budget))
    assert 0 < len(short) < len(costs)
    check_prefix(state, short, checker)


@needs_db
def test_a_passed_deadline_gives_at_most_a_proven_prefix(checker: Solver) -> None:
    state = get_game("connect4").parse_position("4")
    assert isinstance(state, Connect4State)
    found = line(state, SolveRequest(table_size=1 << 17, deadline=0.0))
    assert len(found) < len(line(state, SolveRequest(table_size=1 << 17)))
    check_prefix(state, found, checker)


@needs_db
@pytest.mark.parametrize("moves", ["", "4444"])
def test_search_and_analyze_print_the_line_to_the_end(moves: str, checker: Solver) -> None:
    state = get_game("connect4").parse_position(moves)
    assert isinstance(state, Connect4State)
    result = search(state, analyze=True)
    assert result.move_scores is not None and len(result.move_scores) == 7
    assert all(score.exact for score in result.move_scores.values())
    check_line(state, [cast(int, move) for move in result.pv], solve(state), checker)
    out = io.StringIO()
    assert main(["analyze", "connect4", moves], stdout=out, stderr=io.StringIO()) == 0
    printed = next(
        text for text in out.getvalue().splitlines() if text.startswith("principal variation:")
    )
    columns = [int(c) - 1 for c in printed.split(":")[1].split()]
    check_line(state, columns, solve(state), checker)


def test_a_finished_game_has_no_line() -> None:
    state: State = get_game("connect4").parse_position("1212121")
    assert state.outcome() is not None
    assert state.solver_line(SolveRequest()) is None


@pytest.mark.slow
def test_the_line_kernel_runs_without_numba_jit() -> None:
    code = """
import numba
assert numba.config.DISABLE_JIT
from unbeatable import get_game, solve
from unbeatable.game import SolveRequest
from unbeatable.games.connect4.hooks import line, line_costs
state = get_game("connect4:width=4,height=4").parse_position("1122")
moves = line(state, SolveRequest(table_size=1 << 16))
value, mover = solve(state), state.to_move
for move in moves:
    state = state.play(move)
winner = state.outcome().winner
assert winner == (None if value == 0 else mover if value > 0 else 1 - mover), moves
print(len(moves))
"""
    assert int(run_without_jit(code)) > 0


@pytest.mark.slow
def test_a_deadline_does_not_wait_for_the_solver_to_load() -> None:
    """In a fresh process the first request with a deadline already passed gets no answer at
    once (the loading goes on in the background); a request without one waits for it, and then
    every request is answered."""
    code = """
import time
from unbeatable import get_game
from unbeatable.game import SolveRequest
from unbeatable.games.connect4 import hooks
state = get_game("connect4").parse_position("4444")
late = SolveRequest(deadline=time.perf_counter())
assert hooks.move_values(state, late) is None
assert hooks.value(state, late) is None
assert hooks.line(state, late) == []
assert hooks.ready_solver(state.game, SolveRequest()) is not None
answer = hooks.move_values(state, SolveRequest(deadline=time.perf_counter() + 60))
assert answer is not None and answer.complete
print("ok")
"""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), *filter(None, [env.get("PYTHONPATH")])])
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_a_failed_load_is_raised_in_the_caller_and_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from unbeatable.games.connect4 import hooks

    game = get_game("connect4:width=5,height=4")
    assert isinstance(game.initial(), Connect4State)
    request = SolveRequest(table_size=1 << 17)
    real = hooks.solver_for

    def broken(*args: object) -> Solver:
        raise OSError("no memory for the table")

    monkeypatch.setattr(hooks, "solver_for", broken)
    with pytest.raises(OSError, match="no memory"):
        hooks.ready_solver(game, request)  # type: ignore[arg-type]
    monkeypatch.setattr(hooks, "solver_for", real)
    assert hooks.ready_solver(game, request) is not None  # type: ignore[arg-type]


@needs_db
def test_line_costs_name_the_moves_of_the_line_and_their_probes() -> None:
    from unbeatable.games.connect4.hooks import line_costs, solver_for

    state = get_game("connect4").parse_position("4")
    assert isinstance(state, Connect4State)
    request = SolveRequest(table_size=1 << 18)
    solver_for(state.game, request.table_size).reset()  # every proof paid again
    costs = line_costs(state, request)
    assert [column for column, _, _ in costs] == line(state, request)
    assert all(nodes >= 0 and probes >= 0 for _, nodes, probes in costs)
    # past the 12-stone database the moves need real probes; the first move pays the solve
    assert costs[0][1] > 0
    assert any(probes >= 1 and nodes > 1000 for _, nodes, probes in costs[11:])


def test_the_old_name_of_the_hooks_module_still_works_and_warns() -> None:
    import importlib

    sys.modules.pop("unbeatable.games.connect4.exact", None)
    with pytest.warns(DeprecationWarning, match="connect4.hooks"):
        exact = importlib.import_module("unbeatable.games.connect4.exact")
    from unbeatable.games.connect4 import hooks

    assert exact.line is hooks.line and exact.move_values is hooks.move_values
    assert exact.warm_up is hooks.warm_up and exact.LINE_NODES == hooks.LINE_NODES
