"""The optional search features (principal variation search, aspiration windows, null-move
pruning, check extensions): results with a feature equal those without wherever the feature
must not change them, and mates keep their exact scores with every feature on (issue 11)."""

from __future__ import annotations

import random

import pytest

from tests.brute import check_window, reachable, truth
from tests.dots import Dots
from tests.helpers import random_position
from unbeatable import Limits, Searcher, State, get_game
from unbeatable.search import search
from unbeatable.search.engine import Engine
from unbeatable.search.options import FEATURES
from unbeatable.search.score import INFINITY

EXACT_FEATURES = frozenset({"pvs", "aspiration", "killers", "history"})
NEW = ("pvs", "aspiration", "null-move", "check-extension")


def test_the_new_features_have_names() -> None:
    assert set(NEW) <= FEATURES
    with pytest.raises(ValueError, match="unknown search feature 'null_move'"):
        Searcher(features=frozenset({"null_move"}))


@pytest.mark.parametrize(
    ("game", "depth"),
    [
        ("mnk:2,4,3", 2),
        pytest.param("mnk:2,4,3", 3, marks=pytest.mark.slow),  # 0.8 s (2026-12-02)
        pytest.param("mnk:2,4,3", 12, marks=pytest.mark.slow),  # 1.2 s: to the end
        pytest.param("dots", 2, marks=pytest.mark.slow),
        pytest.param("dots", 3, marks=pytest.mark.slow),
    ],
)
def test_pvs_keeps_the_alphabeta_contract_on_every_position(game: str, depth: int) -> None:
    """Fail-soft with principal variation search (and killers and history, which reorder
    moves): v <= alpha => V <= v; v >= beta => V >= v; otherwise v == V. Dots and boxes has
    extra turns, so the null window is also tried without a change of view."""
    start: State = Dots(2, 2) if game == "dots" else get_game(game).initial()
    positions = reachable(start, 3000)
    assert len(positions) > 200
    rng = random.Random(depth)
    for state in positions:
        true = truth(state, depth)
        windows = [(-INFINITY, INFINITY)]
        for _ in range(3):
            a, b = sorted(rng.sample([true - 2, true - 1, true, true + 1, true + 2], 2))
            windows.append((a, b))
        for a, b in windows:
            engine = Engine(
                table=None, symmetry=True, hints=True, evaluate=None, order=None,
                deadline=None, max_nodes=None, features=frozenset({"pvs", "killers", "history"}),
            )  # fmt: skip
            v = engine.alphabeta(state, depth, a, b, 0)
            check_window(state, a, b, v, true)


@pytest.mark.parametrize(
    ("spec", "plies"), [("tictactoe", 0), ("tictactoe", 2), ("mnk:3,4,3", 4), ("subtraction", 0)]
)
@pytest.mark.parametrize("seed", range(4))
def test_exact_searches_give_the_same_answer_with_pvs_and_aspiration(
    spec: str, plies: int, seed: int
) -> None:
    state = random_position(spec, plies, seed)
    plain = search(state, features=frozenset())
    for features in [frozenset({"pvs"}), frozenset({"aspiration"}), EXACT_FEATURES]:
        for iterative in (False, True):
            found = search(state, features=features, iterative=iterative)
            assert (found.score, found.best_moves) == (plain.score, plain.best_moves), features
            assert found.exact and found.complete


@pytest.mark.parametrize(
    "seed",
    # 0: the whole of Dots 2x2; 1 and 2 (one or two edges drawn): 1.7 s and 1.0 s (2026-12-02)
    [pytest.param(seed, marks=pytest.mark.slow) for seed in (0, 1, 2)] + [3, 4, 5],
)
def test_exact_values_with_extra_turns_are_unchanged_by_pvs(seed: int) -> None:
    state = Dots(2, 2)
    rng = random.Random(seed)
    for _ in range(seed):
        state = state.play(rng.choice(list(state.legal_moves())))
    plain = search(state, algorithm="alphabeta", features=frozenset())
    found = search(state, algorithm="alphabeta", features=EXACT_FEATURES, iterative=True)
    assert (found.score, found.best_moves) == (plain.score, plain.best_moves)
    assert found.score.value == truth(state, 12)


@pytest.mark.parametrize("spec", ["tictactoe", "mnk:4,4,3", "mnk:5,5,4", "connect4"])
@pytest.mark.parametrize("seed", range(3))
def test_depth_limited_values_are_unchanged_by_pvs_and_aspiration(spec: str, seed: int) -> None:
    """Without a table, PVS and aspiration windows change which nodes are searched, never the
    value or the best moves at a depth limit (iterating, so the aspiration window is used)."""
    state = random_position(spec, 3 + seed, seed)
    limits = Limits(depth=4)
    plain = search(state, limits, algorithm="alphabeta", table=False, features=frozenset())
    for features in [frozenset({"pvs"}), frozenset({"aspiration"}), EXACT_FEATURES]:
        found = search(
            state, limits, algorithm="alphabeta", table=False, features=features, iterative=True
        )
        assert (found.score, found.best_moves) == (plain.score, plain.best_moves), features


@pytest.mark.parametrize("spec", ["tictactoe", "mnk:4,4,3", "subtraction", "connect4"])
def test_a_game_without_the_hooks_is_searched_as_before(spec: str) -> None:
    """Null-move pruning and check extensions need the game's hooks: a game that does not
    offer them visits exactly the same nodes with those features asked for."""
    state = random_position(spec, 2, 0)
    assert state.null_move() is None and not state.extends()
    limits = Limits(depth=4)
    plain = search(state, limits, algorithm="alphabeta", features=frozenset())
    asked = search(
        state, limits, algorithm="alphabeta", features=frozenset({"null-move", "check-extension"})
    )
    assert (asked.score, asked.best_moves, asked.nodes) == (
        plain.score, plain.best_moves, plain.nodes
    )  # fmt: skip


def test_games_that_ask_for_nothing_still_ask_for_nothing() -> None:
    for spec in ["tictactoe", "mnk:4,4,3", "subtraction", "connect4"]:
        assert get_game(spec).initial().search_features == frozenset()


# --- chess --------------------------------------------------------------------------------

CHESS = get_game("chess")

#: (FEN, moves to mate, a mating first move): checked below against a search without features.
MATES = [
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "h5f7"),
    pytest.param("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2, None, marks=pytest.mark.slow),  # 0.7 s
    pytest.param(
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        2,
        "g3g6",
        marks=pytest.mark.slow,  # ten depth-4 searches of a middle game
    ),
    ("6k1/5ppp/8/8/8/8/5PPP/1R2R1K1 w - - 0 1", 1, None),
    ("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1, "h1h8"),
    pytest.param(
        "7k/6p1/6p1/8/8/4K3/8/RR6 w - - 0 1", 2, None, marks=pytest.mark.slow
    ),  # 0.8 s; its mate past the depth limit: test_the_check_extension_sees_a_mate_...
    ("3k4/8/8/8/8/1r6/r7/7K w - - 0 1", -1, "h1g1"),  # the only move, then mated
]


@pytest.mark.parametrize(("fen", "moves", "first"), MATES)
def test_mates_keep_their_exact_score_with_every_feature(
    fen: str, moves: int, first: str | None
) -> None:
    state = CHESS.parse_position(fen)
    depth = max(3, 2 * abs(moves))
    plain = Searcher(features=frozenset({"quiescence"})).search(state, Limits(depth=depth))
    settings = [frozenset(FEATURES), *(frozenset({"quiescence", f}) for f in NEW)]
    for features in settings:
        for iterative in (False, True):
            found = Searcher(features=features, iterative=iterative).search(
                state, Limits(depth=depth)
            )
            assert found.score.value == plain.score.value, (features, iterative, found.score)
            if first is not None:
                assert state.parse_move(first) in found.best_moves
    if moves > 0:
        assert plain.score.is_win and plain.score.moves == moves
    else:
        assert plain.score.is_loss and plain.score.moves == -moves


def test_null_move_pruning_still_finds_a_quiet_mate_in_three() -> None:
    """King and rook against king, a mate with quiet moves first (1.Rc1 Ke8 2.Rc8#, Black's
    only reply: python-chess agrees), searched deep enough for null-move pruning to act in the
    tree (depth 7): the same mate with it as without it. The lone king may not pass; the
    stronger side never needs to."""
    state = CHESS.parse_position("3k4/8/4K3/8/8/8/8/7R w - - 0 1")
    limits = Limits(depth=7)
    base = frozenset({"quiescence", "killers", "history", "pvs"})
    without = Searcher(features=base, iterative=True).search(state, limits)
    with_null = Searcher(features=base | {"null-move"}, iterative=True).search(state, limits)
    assert without.score.is_win and without.score.moves == 2
    assert with_null.score == without.score


def test_chess_offers_a_pass_only_where_zugzwang_is_rare() -> None:
    start = CHESS.initial()
    passed = start.null_move()
    assert passed is not None and passed.to_move != start.to_move
    assert CHESS.format_position(passed).split()[0] == CHESS.format_position(start).split()[0]
    check = CHESS.parse_position("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")
    assert check.extends() and check.null_move() is None
    pawns_only = CHESS.parse_position("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")
    assert not pawns_only.extends() and pawns_only.null_move() is None
    assert not start.extends()


def test_the_check_extension_sees_a_mate_past_the_depth_limit() -> None:
    """Mate in two (1.Ra8+ Kh7 2.Rh1#) needs three plies; at depth 2 only the extension of
    the checking moves reaches the mate."""
    state = CHESS.parse_position("7k/6p1/6p1/8/8/4K3/8/RR6 w - - 0 1")
    short = Searcher(features=frozenset({"quiescence"})).search(state, Limits(depth=2))
    extended = Searcher(features=frozenset({"quiescence", "check-extension"})).search(
        state, Limits(depth=2)
    )
    assert not short.score.is_win
    assert extended.score.is_win and extended.score.moves == 2


@pytest.mark.parametrize(
    "fen",
    [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        pytest.param(  # 0.6 s (2026-12-02)
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_chess_values_at_a_depth_are_unchanged_by_pvs_and_aspiration(fen: str) -> None:
    state = CHESS.parse_position(fen)
    limits = Limits(depth=3)
    plain = search(state, limits, table=False, features=frozenset({"quiescence"}))
    found = search(
        state, limits, table=False, iterative=True,
        features=frozenset({"quiescence", "pvs", "aspiration", "killers", "history"}),
    )  # fmt: skip
    assert (found.score, found.best_moves) == (plain.score, plain.best_moves)


@pytest.mark.slow
def test_the_features_benchmark_shows_every_feature_left_out() -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "chess_features.py"
    done = subprocess.run(
        [sys.executable, str(script), "--depth", "2"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    rows = [line.split("|")[1].strip() for line in done.stdout.splitlines() if "|" in line]
    for name in FEATURES:
        assert f"without {name}" in rows
    assert {"all", "none", "chess default"} <= set(rows)


def test_aspiration_re_searches_keep_the_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a window one unit wide, nearly every iteration fails high or low at the root and
    is searched again: the values and best moves are still those of a full-window search."""
    from unbeatable.search import driver

    monkeypatch.setattr(driver, "ASPIRATION", 1)
    seen = {"low": 0, "high": 0}
    root_moves = driver._SerialStep._root_moves

    def spy(self: driver._SerialStep, root, moves, depth, analyze, search, low, high):  # type: ignore[no-untyped-def]
        calls = 0

        def counted(*args: object) -> int:
            nonlocal calls
            calls += 1
            return search(*args)  # type: ignore[no-any-return]

        done = root_moves(self, root, moves, depth, analyze, counted, low, high)
        seen["low"] += not done
        seen["high"] += calls > len(moves)
        return done

    monkeypatch.setattr(driver._SerialStep, "_root_moves", spy)
    for spec in ["mnk:4,4,3", "connect4"]:
        for seed in range(4):
            state = random_position(spec, 2 + seed, seed)
            limits = Limits(depth=4)
            plain = search(state, limits, algorithm="alphabeta", table=False, features=frozenset())
            found = search(
                state, limits, algorithm="alphabeta", table=False, iterative=True,
                features=frozenset({"aspiration"}),
            )  # fmt: skip
            assert (found.score, found.best_moves) == (plain.score, plain.best_moves)
    assert seen["low"] > 0 and seen["high"] > 0, seen


@pytest.mark.slow
def test_lines_stay_legal_with_every_feature_serial_and_parallel() -> None:
    """Every line the searchers report replays legally, with the chess defaults in the
    parallel searcher's workers and with every feature in the serial one."""
    from unbeatable.search.parallel import ParallelSearcher

    state = CHESS.parse_position("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1")
    with ParallelSearcher(workers=2, algorithm="alphabeta") as parallel:
        results = [parallel.search(state, Limits(depth=4))]
    results.append(Searcher(features=FEATURES).search(state, Limits(depth=5)))
    for result in results:
        assert result.move == state.parse_move("g3g6") and result.score.is_win
        position = state
        for move in result.pv:
            assert move in position.legal_moves(), (result.pv, move)
            position = position.play(move)


@pytest.mark.parametrize(
    "fen",
    [
        pytest.param(  # a middle game: 0.6 s of the six positions' 1.2 s (2026-12-02)
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", marks=pytest.mark.slow
        ),
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
        "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        "7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1",
    ],
)
def test_a_bounded_search_leaves_a_legal_line_at_its_root(fen: str) -> None:
    """What a parallel worker replays: the line at the root of a search whose value fell
    outside its window, here in positions of Win at Chess. A node's line starts empty, so that
    a parent never extends its move with a line left by a sibling or by the pass of null-move
    pruning."""
    from unbeatable.search.table import TranspositionTable

    state = CHESS.parse_position(fen)
    for alpha, beta in [(-1, 0), (0, 1), (100, 101), (-300, -299), (300, 301)]:
        engine = Engine(
            table=TranspositionTable(1 << 16), symmetry=True, hints=True, evaluate=None,
            order=None, deadline=None, max_nodes=None, features=frozenset(FEATURES),
        )  # fmt: skip
        engine.alphabeta(state, 3, alpha, beta, 0)
        position = state
        for move in engine.line(0):
            assert move in position.legal_moves(), (fen, alpha, beta, engine.line(0))
            position = position.play(move)
