"""The opening book: built by the solver, consistent, and right where results are published."""

from __future__ import annotations

import pytest

from unbeatable import get_game
from unbeatable.games.connect4 import Solver, hooks
from unbeatable.games.connect4.book import PLIES, load, lookup
from unbeatable.games.connect4.book_build import build, positions_by_ply
from unbeatable.games.connect4.game import Connect4, Connect4State
from unbeatable.games.connect4.published import first_player_score
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


# --- the books of other board sizes -----------------------------------------------------------

OTHER_SIZES = sorted(size for size in PLIES if size != (7, 6))
SIZE_IDS = [f"{w}x{h}" for w, h in OTHER_SIZES]


def _game(width: int, height: int) -> Connect4:
    game = get_game(f"connect4:width={width},height={height}")
    assert isinstance(game, Connect4)
    return game


def test_the_books_of_other_sizes_ship_whole() -> None:
    """Every size in PLIES ships its book: every position of at most PLIES stones (one of each
    pair of mirror images), each one's score within the board's range, the empty board's equal
    to the published result (Tromp's, Steininger's) where there is one."""
    assert OTHER_SIZES, "no board size but 7 x 6 ships a book"
    for width, height in OTHER_SIZES:
        game = _game(width, height)
        book = load(width, height)
        layers = positions_by_ply(PLIES[width, height], game)
        assert set(book) == {key for layer in layers for key in layer}, (width, height)
        reach = (width * height + 1) // 2
        assert all(-reach <= score <= reach for score in book.values())
        published = first_player_score(width, height)
        if published is not None:
            assert book[0] == published, (width, height)


@pytest.mark.parametrize("size", OTHER_SIZES, ids=SIZE_IDS)
def test_a_book_is_consistent_between_layers(size: tuple[int, int]) -> None:
    """Each position's score is the best of its moves' (the deepest layer, the solver's, holds
    the others): the file was not cut or mixed with another size's."""
    game = _game(*size)
    book = load(*size)
    for layer in positions_by_ply(PLIES[size] - 1, game):
        for key, state in layer.items():
            values = hooks._from_book(state)
            assert values is not None and book[key] == max(values.values()), (size, str(state))


#: The sample of each size's deepest layer (the layer the solver built) solved again, as moves
#: (columns from 1): a position the side to move wins, one it draws and one it loses, where the
#: layer has one, each the quickest of its kind to solve from nothing on one thread, timed on
#: 2026-11-28 over the whole layer (6 x 7: its 2 wins of score 4, its 8 losses of -3 and every
#: fifth of its 38 draws, 18 of its 78). The three spread over the layer by key that were solved
#: before took 83 s of CPU for the five sizes on one thread and 124 s on two (make test's
#: costliest file); these take about 55 s, 8 x 5's loss 18 s of it (its layer's only two
#: losses take about 20 s each). 8 x 5 again on 2026-12-04, after the rules for its search had
#: changed: each of its layer's draws and losses (both sides of the board; the layer keeps one
#: of each mirrored pair) solved from nothing, the draw 24 and the loss 85 now take the fewest
#: nodes (79 M and 123 M; 33 and 15 before, 85 M and 149 M; with the win 41 first, as here,
#: 219 M in all, 248 M before: the three share a table).
SAMPLES: dict[tuple[int, int], tuple[str, ...]] = {
    (5, 8): ("24", "33", "22"),
    (6, 6): ("26", "33", "34"),
    (6, 7): ("243", "344", "363"),
    (8, 5): ("41", "24", "85"),
    (9, 4): ("41", "53", "55"),
}


def _sample(size: tuple[int, int]) -> list[Connect4State]:
    game = _game(*size)
    return [game.parse_position(moves) for moves in SAMPLES[size]]


def test_each_book_has_a_sample_of_its_deepest_layer_of_each_kind() -> None:
    """The samples below are positions of the deepest layer (not derived from it), of the
    book's size, and a win, a draw and a loss for the side to move where the layer has each."""
    assert set(SAMPLES) == set(OTHER_SIZES)
    for size in OTHER_SIZES:
        book = load(*size)
        deepest = positions_by_ply(PLIES[size], _game(*size))[-1]
        kinds = {(score > 0) - (score < 0) for key, score in book.items() if key in deepest}
        sample = _sample(size)
        assert all(state.key() in deepest for state in sample), size
        signs = [(book[s.key()] > 0) - (book[s.key()] < 0) for s in sample]  # type: ignore[index]
        assert sorted(signs) == sorted(kinds), (size, signs, kinds)


@pytest.mark.slow
@pytest.mark.parametrize("size", OTHER_SIZES, ids=SIZE_IDS)
def test_a_sample_of_a_book_agrees_with_a_fresh_solve(size: tuple[int, int]) -> None:
    """The deepest layer (which the solver built; the rest follows from it, tested above): its
    sample (SAMPLES) solved again by a fresh solver without the book, on one thread (on two,
    as before, each solve took more CPU: both threads search)."""
    book = load(*size)
    solver = Solver(table_bytes=1 << 26, width=size[0], height=size[1], book=False, threads=1)
    for state in _sample(size):
        found = solver.bounds(state.current, state.mask, state.moves, book=False)
        assert found.complete and book[state.key()] == found.lower[0], (size, str(state))  # type: ignore[index]


def test_a_book_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A size's file is read at its first lookup, and never again in the process."""
    from importlib import resources

    from unbeatable.games.connect4 import book as book_module

    width, height = OTHER_SIZES[0]
    reads: list[str] = []
    files = resources.files

    class Counting:
        def __init__(self, package: str) -> None:
            self.root = files(package)

        def joinpath(self, name: str) -> object:
            reads.append(name)
            return self.root.joinpath(name)

    monkeypatch.setattr(resources, "files", Counting)
    load.cache_clear()
    try:
        game = _game(width, height)
        state = game.initial()
        for move in game.initial().legal_moves():
            assert lookup(state.play(move)) is not None
        assert lookup(state) is not None
        assert reads == [book_module.resource_name(width, height)]
    finally:
        load.cache_clear()  # the next test reads the real files again, once


def test_a_size_without_a_book_is_solved_by_search() -> None:
    game = _game(5, 4)
    assert (5, 4) not in PLIES and load(5, 4) == {}
    state = game.initial()
    assert lookup(state) is None
    result = search(state, analyze=True)
    assert result.algorithm == "solver" and result.exact
    assert result.score.is_draw and result.move_scores is not None  # 5 x 4 is a draw (published)
    assert result.move_scores[2].is_draw  # the centre holds it


@pytest.mark.parametrize("size", OTHER_SIZES, ids=SIZE_IDS)
def test_the_first_moves_of_a_booked_size_come_from_its_book(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The AI's and the analysis' answers at every position before the book's last layer are the
    book's, with no solver asked; the line walks the book first."""
    from unbeatable.game import SolveRequest

    def no_solver(game: object, table_size: int | None = None) -> None:
        raise AssertionError("the solver was asked about a book position")

    monkeypatch.setattr(hooks, "solver_for", no_solver)
    monkeypatch.setattr(hooks, "ready_solver", no_solver)
    game = _game(*size)
    book = load(*size)
    for layer in positions_by_ply(PLIES[size] - 1, game):
        for state in layer.values():
            answer = hooks.move_values(state, SolveRequest())
            assert answer is not None and answer.complete
            assert set(answer.values) == set(state.legal_moves())
            assert max(answer.values.values()) == book[state.key()]  # type: ignore[index]
            assert hooks.value(state, SolveRequest()) == book[state.key()]  # type: ignore[index]
            weak = hooks.value(state, SolveRequest(weak=True))
            assert weak == (book[state.key()] > 0) - (book[state.key()] < 0)  # type: ignore[index]
    state = game.initial()
    walked = hooks._book_line(state)
    assert len(walked) == PLIES[size]
    score = book[0]
    for column, _, _ in walked:  # each move keeps the score, the side to move's each time
        state = state.play(column)
        score = -score
        assert book[state.key()] == score  # type: ignore[index]
    with pytest.raises(AssertionError, match="the solver was asked"):
        search(state, analyze=True)  # past the book: the solver's
