"""Proofs for tic-tac-toe and its m,n,k cousins, against an independent brute force."""

from __future__ import annotations

import random
from functools import cache

import pytest

from tests.brute import move_value
from unbeatable import Limits, Searcher, State, get_game, solve
from unbeatable.search import search

# --- an independent brute force: boards as 9-character strings, nothing from the library ---

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def has_line(board: str, mark: str) -> bool:
    return any(all(board[i] == mark for i in line) for line in LINES)


def mover(board: str) -> str:
    return "x" if board.count("x") == board.count("o") else "o"


@cache
def brute_score(board: str) -> int:
    """The solve-convention score of ``board`` for the side to move, by full enumeration."""
    stones = 9 - board.count(".")
    if has_line(board, "x") or has_line(board, "o"):
        # the previous player won with the stone placed when stones - 1 were on the board
        return -((9 + 1 - (stones - 1)) // 2)
    if stones == 9:
        return 0
    me = mover(board)
    best = -99
    for cell in range(9):
        if board[cell] == ".":
            child = board[:cell] + me + board[cell + 1 :]
            if has_line(child, me):
                value = (9 + 1 - stones) // 2
            elif stones + 1 == 9:
                value = 0
            else:
                value = -brute_score(child)
            best = max(best, value)
    return best


def all_positions() -> set[str]:
    seen = {"........."}
    frontier = ["........."]
    while frontier:
        board = frontier.pop()
        if has_line(board, "x") or has_line(board, "o") or "." not in board:
            continue
        me = mover(board)
        for cell in range(9):
            if board[cell] == ".":
                child = board[:cell] + me + board[cell + 1 :]
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)
    return seen


def picture(board: str) -> str:
    return "/".join((board[0:3], board[3:6], board[6:9]))


POSITIONS = sorted(all_positions())


def test_there_are_5478_legal_positions() -> None:
    assert len(POSITIONS) == 5478


def test_the_empty_board_is_a_draw() -> None:
    result = search(get_game("tictactoe").initial())
    assert result.exact and result.score.is_draw and str(result.score) == "draw"
    assert result.best_moves == tuple(range(9))  # every first move draws


@pytest.mark.slow  # 5,478 positions: 1.2 s (2026-12-02); the sample below stays in test-fast
def test_every_legal_position_gets_the_brute_force_value() -> None:
    game = get_game("tictactoe")
    searcher = Searcher()  # one table across all positions: also tests reuse across roots
    for board in POSITIONS:
        state = game.parse_position(picture(board))
        assert solve(state, searcher=searcher) == brute_score(board), board


@pytest.mark.parametrize("algorithm", ["minimax", "negamax", "alphabeta", "alphabeta-stack"])
def test_every_algorithm_matches_the_brute_force_on_a_sample(algorithm: str) -> None:
    game = get_game("tictactoe")
    rng = random.Random(2026)
    sample = [b for b in rng.sample(POSITIONS, 300) if b.count(".") <= 6]
    searcher = Searcher(algorithm, table=algorithm.startswith("alphabeta"))
    for board in sample:
        state = game.parse_position(picture(board))
        assert solve(state, searcher=searcher) == brute_score(board), (algorithm, board)


def never_loses(searcher: Searcher, ai_side: int) -> int:
    """Play the AI against every possible sequence of opponent replies; return the number of
    finished games. Fails at the first game the AI loses."""
    finished = 0
    stack: list[State] = [get_game("tictactoe").initial()]
    while stack:
        state = stack.pop()
        outcome = state.outcome()
        if outcome is not None:
            assert outcome.winner != 1 - ai_side, f"the AI lost in {state}"
            finished += 1
        elif state.to_move == ai_side:
            move = searcher.search(state).move
            stack.append(state.play_checked(move))
        else:
            stack.extend(state.play(m) for m in state.legal_moves())
    return finished


@pytest.mark.parametrize("ai_side", [0, 1])
def test_the_ai_never_loses_against_any_opponent_line(ai_side: int) -> None:
    games = never_loses(Searcher(), ai_side)
    assert games >= 8  # at least one finished game for each of the first replies


@pytest.mark.parametrize("seed", [1, 2])
def test_the_ai_with_random_tie_breaks_never_loses_either(seed: int) -> None:
    for side in (0, 1):
        never_loses(Searcher(rng=random.Random(seed)), side)


@pytest.mark.slow  # a search of every position: 1.1 s (2026-12-02)
def test_the_ai_plays_only_value_keeping_moves() -> None:
    game = get_game("tictactoe")
    searcher = Searcher()
    for board in POSITIONS:
        state = game.parse_position(picture(board))
        if state.outcome() is not None:
            continue
        result = searcher.search(state)
        child = "".join(mover(board) if i == result.move else board[i] for i in range(9))
        # the move's value equals the position's value
        assert -brute_score(child) == brute_score(board) or (
            has_line(child, mover(board))
            and brute_score(board) == (10 - (9 - board.count("."))) // 2
        ), board


@pytest.mark.slow
def test_minimax_visits_the_whole_game_tree() -> None:
    """549,946 nodes, the root included: the known size of tic-tac-toe's game tree."""
    start = get_game("tictactoe").initial()
    assert search(start, algorithm="minimax").nodes == 549_946
    assert search(start, algorithm="negamax").nodes == 549_946


def test_pruning_the_table_and_symmetry_each_save_nodes() -> None:
    start = get_game("tictactoe").initial()
    plain = 549_946  # the whole tree, which negamax visits (test_minimax_visits_the_whole_...)
    pruned = search(start, algorithm="alphabeta", table=False, hints=False).nodes
    tabled = search(start, algorithm="alphabeta", symmetry=False, hints=False).nodes
    symmetric = search(start, algorithm="alphabeta", hints=False).nodes
    hinted = search(start, algorithm="alphabeta").nodes
    assert plain > pruned > tabled > symmetric > hinted


@pytest.mark.slow  # solved from the empty board: 1.6 s (2026-12-02)
def test_4x4_with_four_in_a_row_is_a_draw() -> None:
    result = search(get_game("mnk:4,4,4").initial(), table_size=1 << 21)
    assert result.exact and result.score.is_draw


def test_principal_variation_plays_out_to_the_predicted_result() -> None:
    game = get_game("tictactoe")
    for text in ["12", "1", "5", "15", "1526"]:
        state = game.parse_position(text)
        result = search(state)
        line = state
        for move in result.pv:
            line = line.play_checked(move)
        if result.score.is_win or result.score.is_loss:
            assert len(result.pv) == result.score.plies
            assert line.outcome() is not None
            winner = line.outcome().winner  # type: ignore[union-attr]
            assert (winner == state.to_move) == result.score.is_win


def test_sooner_wins_are_preferred() -> None:
    # x to move can win at once (cell 3) or later; it must take the immediate win
    state = get_game("tictactoe").parse_position("xx./oo./...")
    result = search(state, analyze=True)
    assert result.best_moves == (2,)
    assert str(result.score) == "win in 1"
    assert result.move_scores is not None
    assert str(result.move_scores[2]) == "win in 1"
    assert all(score < result.move_scores[2] for m, score in result.move_scores.items() if m != 2)
    # every other move lets o win at once (cell 6), but blocking there only draws: o blocks
    # at 3 and threatens 3-5-7, x blocks at 7, and nobody can win any more
    assert str(result.move_scores[5]) == "draw"
    assert str(result.move_scores[6]) == "loss in 1"
    # each move's score is its brute-force value
    assert {m: s.value for m, s in result.move_scores.items()} == {
        m: move_value(state, m) for m in state.legal_moves()
    }


@pytest.mark.slow  # 15 x 15 searched two plies deep: 1.2 s (2026-12-02)
def test_depth_limited_search_uses_the_evaluation() -> None:
    state = get_game("mnk:15,15,5").initial()
    result = search(state, Limits(depth=2))
    assert not result.exact and result.score.kind == "heuristic"
    assert result.evaluations > 0 and result.move in state.legal_moves()
    # the best cells lie in the most five-cell windows: at least 4 cells from every edge
    assert isinstance(result.move, int)
    row, column = divmod(result.move, 15)
    assert 4 <= row <= 10 and 4 <= column <= 10
