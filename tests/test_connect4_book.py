"""The opening book: built by the solver, consistent, and right where results are published."""

from __future__ import annotations

import pytest

from unbeatable import get_game
from unbeatable.games.connect4 import Solver
from unbeatable.games.connect4.book import load, lookup
from unbeatable.games.connect4.book_build import build, positions_by_ply
from unbeatable.search import search


def test_a_book_built_on_a_small_board_agrees_with_the_solver() -> None:
    game = get_game("connect4:width=5,height=4")
    book = build(3, table_bytes=1 << 20, log=False, game=game)  # type: ignore[arg-type]
    solver = Solver(table_bytes=1 << 20, width=5, height=4)
    layers = positions_by_ply(3, game)  # type: ignore[arg-type]
    assert len(book) == sum(len(layer) for layer in layers)
    for layer in layers:
        for key, state in layer.items():
            assert book[key] == solver.solve_bitboards(state.current, state.mask, state.moves)


def test_the_book_ships_with_the_package() -> None:
    """The book is package data: missing, it is a broken install, not a reason to skip."""
    assert load(), "the opening book (src/unbeatable/data/connect4-book.txt) did not load"


def test_a_partial_book_holds_only_what_it_could_derive() -> None:
    game = get_game("connect4:width=5,height=4")
    book = build(2, table_bytes=1 << 20, log=False, seconds=0.0, game=game)  # type: ignore[arg-type]
    assert book == {}  # nothing solved: nothing derived


def test_the_shipped_book_matches_the_known_first_move_scores() -> None:
    """Published: the centre wins (score 1), columns 3 and 5 draw, the rest lose."""
    state = get_game("connect4").initial()
    assert lookup(state) == 1  # type: ignore[arg-type]
    result = search(state, analyze=True)
    assert result.algorithm == "solver" and result.move == 3
    assert result.move_scores is not None
    scores = [result.move_scores[c] for c in range(7)]
    assert [s.is_win for s in scores] == [False, False, False, True, False, False, False]
    assert [s.is_draw for s in scores] == [False, False, True, False, True, False, False]


def test_the_shipped_book_is_consistent_between_layers() -> None:
    book = load()
    for layer in positions_by_ply(2):
        for key, state in layer.items():
            children = [state.play(m).key() for m in state.legal_moves()]
            if key in book and all(c in book for c in children):
                assert book[key] == max(-book[c] for c in children)  # type: ignore[index]


def test_the_first_moves_are_answered_from_the_book_without_the_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from unbeatable.game import SolveRequest
    from unbeatable.games.connect4 import hooks

    game = get_game("connect4")
    positions = ["", "1", "4", "44", "43", "71"]
    for moves in positions:  # through the whole search (its line may go past the book)
        result = search(game.parse_position(moves), analyze=True)
        assert result.algorithm == "solver" and result.exact and result.move is not None
        assert len(result.pv) >= 1

    def no_solver(game: object, table_size: int | None = None) -> None:
        raise AssertionError("the solver was asked about a book position")

    monkeypatch.setattr(hooks, "solver_for", no_solver)
    for moves in positions:
        state = game.parse_position(moves)
        answer = hooks.move_values(state, SolveRequest())  # type: ignore[arg-type]
        assert answer is not None and answer.complete
        assert set(answer.values) == set(state.legal_moves())
