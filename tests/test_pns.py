"""Proof-number search (df-pn) against alpha-beta: the class of every reachable position of
tic-tac-toe and 3x3 Hex, and of seeded samples of m,n,k and 4x4 Hex positions; its bounds hold
the exact value; its limits, its refusals, its figures and its command line."""

from __future__ import annotations

import io
import json
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from tests.brute import reachable, truth
from tests.test_cli import _schema, validate
from unbeatable import Limits, Outcome, Payoff, State, cli, get_game
from unbeatable.games import MNKState
from unbeatable.search import ParallelSearcher, Searcher, SearchOptions, SearchResult, search
from unbeatable.search.mcts import outcome_class
from unbeatable.search.pns import AT_LEAST_DRAW, DFPN, INFINITE, WINS, move_bounds


def classes(result: SearchResult) -> dict[object, int]:
    assert result.move_scores is not None
    return {m: outcome_class(s.value) for m, s in result.move_scores.items()}


def check_against_alphabeta(
    state: State, found: SearchResult, exact: SearchResult
) -> None:
    """pns's analysis of ``state`` and alpha-beta's: the same class for every move and the
    position, the same set of moves of the best class, and pns's bounds around the value."""
    assert found.algorithm == "pns" and found.complete and found.exact
    assert found.move_scores is not None and exact.move_scores is not None
    assert classes(found) == classes(exact), str(state)
    assert outcome_class(found.score.value) == outcome_class(exact.score.value)
    top = outcome_class(exact.score.value)
    assert set(found.best_moves) == {m for m, c in classes(exact).items() if c == top}
    bounds = found.move_bounds or {}
    for move, score in found.move_scores.items():
        true = exact.move_scores[move].value
        low, high = bounds.get(move, (score, score))
        assert low.value <= true <= high.value, (str(state), move, low, high, true)
    low, high = found.score_bounds or (found.score, found.score)
    assert low.value <= exact.score.value <= high.value


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["tictactoe", "hex:3"])
def test_every_reachable_position_equals_alphabeta(spec: str) -> None:
    """Every reachable unfinished position: analyzed by pns (one searcher, whose table is
    new every search) and by alpha-beta."""
    positions = [s for s in reachable(get_game(spec).initial()) if s.outcome() is None]
    assert len(positions) > 1000
    pns, alphabeta = Searcher("pns"), Searcher("alphabeta")
    for state in positions:
        check_against_alphabeta(
            state, pns.search(state, analyze=True), alphabeta.search(state, analyze=True)
        )


def test_the_values_equal_brute_force_with_one_table_for_all() -> None:
    """One df-pn table kept over every position of tic-tac-toe, questions asked in a random
    order: the answers do not depend on what the table held before."""
    search = DFPN(SearchOptions())
    positions = reachable(get_game("tictactoe").initial())
    random.Random(2).shuffle(positions)
    for state in positions:
        assert search.value_class(state) == outcome_class(truth(state)), str(state)


def sample(spec: str, count: int, seed: int, plies: tuple[int, int]) -> list[State]:
    """``count`` positions of ``spec`` reached by random moves, between ``plies`` moves in,
    unfinished and all different."""
    rng = random.Random(seed)
    game = get_game(spec)
    found: dict[State, None] = {}
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randint(*plies)):
            if state.outcome() is not None:
                break
            state = state.play(rng.choice(list(state.legal_moves())))
        if state.outcome() is None:
            found[state] = None
    return list(found)


def check_sample(positions: Sequence[State]) -> None:
    """pns (one table for the sample, as a researcher would keep it, emptied when the game
    changes) against alpha-beta: the class of every position, and the class after pns's best
    move."""
    pns = DFPN(SearchOptions())
    alphabeta = Searcher("alphabeta")
    for state in positions:
        value = outcome_class(alphabeta.search(state).score.value)
        assert pns.value_class(state) == value, str(state)
    for state in positions[:200]:  # and the public door: the move it plays keeps the value
        result = search(state, algorithm="pns")
        assert result.move is not None
        after = state.play(result.move)
        worth = truth(after) if after.outcome() is not None else alphabeta.search(after).score.value
        if after.to_move != state.to_move:
            worth = -worth
        assert outcome_class(worth) == outcome_class(result.score.value), str(state)


@pytest.mark.slow
def test_a_seeded_sample_of_mnk_positions_equals_alphabeta() -> None:
    positions = (
        sample("mnk:4,4,3", 700, 1, (2, 10))
        + sample("mnk:4,4,4", 700, 2, (8, 12))
        + sample("mnk:3,5,3", 600, 3, (1, 9))
    )
    assert len(positions) == 2000
    check_sample(positions)


@pytest.mark.slow
def test_a_seeded_sample_of_4x4_hex_positions_equals_alphabeta() -> None:
    positions = sample("hex:4", 2000, 4, (6, 14))
    check_sample(positions)


def test_a_few_hex_4x4_and_mnk_positions_equal_alphabeta() -> None:
    """The samples' fast cousin, for test-fast."""
    check_sample(sample("hex:4", 40, 5, (6, 12)) + sample("mnk:4,4,3", 40, 6, (4, 10)))


# --- what it proves and reports ------------------------------------------------------------


def test_a_proof_gives_zero_proof_numbers_to_the_winning_moves() -> None:
    state = get_game("hex:3").initial()
    result = search(state, algorithm="pns", analyze=True)
    assert result.move_stats is not None and result.move_scores is not None
    for move, stats in result.move_stats.items():
        assert stats.proof is not None and stats.disproof is not None
        if result.move_scores[move].is_win:
            assert stats.proof == 0 and stats.disproof == INFINITE
        else:
            assert stats.disproof == 0 and stats.proof == INFINITE


def test_a_win_at_once_is_exact_and_a_longer_one_has_bounds() -> None:
    game = get_game("tictactoe")
    at_once = search(game.parse_position("1425"), algorithm="pns")  # x plays 3 or 7... or 9
    assert at_once.score.is_win and at_once.score.plies == 1 and at_once.score_bounds is None
    later = search(game.parse_position("15"), algorithm="pns")
    assert later.score.is_draw and later.score_bounds is None
    won = search(get_game("hex:3").initial(), algorithm="pns")
    assert won.exact and won.score_bounds is not None
    low, high = won.score_bounds
    assert low.is_win and high.is_win and low.value < high.value


def test_move_bounds_hold_on_every_move_of_every_position() -> None:
    for state in reachable(get_game("mnk:3,3,2").initial()):
        if state.outcome() is not None:
            continue
        for move in state.legal_moves():
            child = state.play(move)
            true = truth(child) if child.to_move == state.to_move else -truth(child)
            true = true - 1 if true >= 900_000_000 else true + 1 if true <= -900_000_000 else true
            low, high = move_bounds(state, move, outcome_class(true))
            assert low <= true <= high, (str(state), move)


def test_mnk_threats_are_the_cells_that_complete_the_other_players_line() -> None:
    for state in sample("mnk:5,5,4", 150, 9, (3, 14)):
        assert isinstance(state, MNKState)
        other = 1 - state.to_move
        own = state.second if other else state.first
        expected = {
            cell
            for cell in state.legal_moves()
            if any((own | 1 << cell) & line == line for line in state.game.lines)
        }
        assert set(state.threats() or ()) == expected, str(state)


def test_the_tree_is_data_with_numbers_for_the_roots_question() -> None:
    state = get_game("tictactoe").parse_position("15")
    search_ = DFPN(SearchOptions())
    assert search_.prove(state, WINS) is False
    tree = search_.export(state, WINS, max_depth=2, max_nodes=60)
    assert tree["kind"] == "or" and tree["disproof"] == 0 and tree["expanded"]
    children = tree["children"]
    assert isinstance(children, list) and len(children) == 7
    for child in children:  # x's question disproved under every move: o (AND) holds it
        assert child["kind"] == "and" and child["disproof"] == 0
    grandchildren = [g for c in children for g in c["children"]]
    assert all(g["kind"] == "or" for g in grandchildren)
    assert any(g["proof"] == 0 for g in grandchildren)  # o's mistakes, x wins at once
    assert json.dumps(tree)
    small = search_.export(state, WINS, max_depth=5, max_nodes=5)
    assert len(small["children"]) == 7  # type: ignore[arg-type]


def test_a_game_without_draws_asks_one_question() -> None:
    search_ = DFPN(SearchOptions())
    state = get_game("hex:3").parse_position("a1")
    assert search_.value_class(state) == 1
    assert {question for _, question in search_.table} == {WINS}
    tictactoe = DFPN(SearchOptions())
    assert tictactoe.value_class(get_game("tictactoe").parse_position("1")) == 0
    assert {question for _, question in tictactoe.table} == {WINS, AT_LEAST_DRAW}


def test_a_small_table_gives_the_same_answers() -> None:
    positions = reachable(get_game("tictactoe").parse_position("5"))
    small = DFPN(SearchOptions(table_size=40))
    for state in positions:
        assert small.value_class(state) == outcome_class(truth(state))
        assert len(small.table) <= 40


def test_the_parallel_searcher_answers_the_same() -> None:
    state = get_game("hex:3").parse_position("b2")
    with ParallelSearcher(2, algorithm="pns") as parallel:
        found = parallel.search(state, analyze=True)
    assert found.algorithm == "pns"
    assert classes(found) == classes(search(state, algorithm="pns", analyze=True))


# --- limits and refusals ---------------------------------------------------------------------


def test_a_node_limit_stops_it_with_a_legal_move() -> None:
    state = get_game("hex:5").initial()
    result = search(state, Limits(nodes=50), algorithm="pns")
    assert not result.complete and not result.exact
    assert result.move in state.legal_moves()
    assert 50 <= result.nodes <= 51


def test_a_stop_event_and_a_time_limit_stop_it() -> None:
    state = get_game("hex:6").initial()
    stop = threading.Event()
    stop.set()
    searcher = Searcher("pns")
    assert not searcher.search(state, Limits(time=30), stop=stop).complete
    assert not searcher.search(state, Limits(time=0.2)).complete


def test_what_it_cannot_search_is_refused_by_name() -> None:
    state = get_game("tictactoe").initial()
    with pytest.raises(ValueError, match="no depth limit"):
        search(state, Limits(depth=3), algorithm="pns")
    with pytest.raises(ValueError, match="payoffs"):
        search(Leaf(), algorithm="pns")
    with pytest.raises(ValueError, match="length is bounded"):
        search(Endless(), algorithm="pns")
    with pytest.raises(ValueError, match="emits no search events"):
        search(state, algorithm="pns", observer=lambda event: None)


@dataclass(frozen=True)
class Leaf(State):
    """A one-move game that ends with a payoff."""

    done: bool = False

    @property
    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list[int]:
        return [] if self.done else [0]

    def play(self, move: object) -> Leaf:
        return Leaf(True)

    def outcome(self) -> Payoff | None:
        return Payoff.zero_sum(1) if self.done else None

    numeric_outcomes = True


@dataclass(frozen=True)
class Endless(State):
    """A game with no bound on its length (it happens to end after one move)."""

    done: bool = False

    @property
    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list[int]:
        return [] if self.done else [0]

    def play(self, move: object) -> Endless:
        return Endless(True)

    def outcome(self) -> Outcome | None:
        return Outcome.FIRST_WINS if self.done else None


# --- the command line ------------------------------------------------------------------------


def test_analyze_json_reports_the_algorithm_that_answered() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(
        ["analyze", "hex:3", "a1", "--algorithm", "pns", "--json"], stdout=out, stderr=err
    )
    assert code == 0, err.getvalue()
    report = json.loads(out.getvalue())
    schema = _schema()
    validate(report, schema, schema)
    assert report["algorithm"] == "pns"
    # a1 loses for x: o, to move, wins
    assert report["score"]["kind"] == "bounds" and report["score"]["lower"]["kind"] == "win"
    assert all("proof" in move and "disproof" in move for move in report["moves"])
    text = io.StringIO()
    assert cli.main(["analyze", "hex:3", "a1", "--algorithm", "pns"], stdout=text) == 0
    assert "proof" in text.getvalue() and "pns" in text.getvalue()


@pytest.mark.parametrize(("moves", "nodes"), [("d1 a1 b2", 249), ("b3 c2 b2 c3", 40)])
def test_a_search_cut_short_claims_only_what_it_proved(moves: str, nodes: int) -> None:
    """An analysis of 4x4 Hex stopped after some moves are proven: those keep their class,
    with bounds around the true value (alpha-beta's); the others read ``unknown`` (the widest
    bounds, not a made-up heuristic 0); the position's bounds hold its value; the move played
    is a proven win when there is one, and never a move proven to lose; the JSON report says
    bounds."""
    from unbeatable.report import build_report, describe_result

    game = get_game("hex:4")
    state = game.parse_position(moves)
    found = Searcher("pns").search(state, Limits(nodes=nodes), analyze=True)
    exact = Searcher("alphabeta").search(state, analyze=True)
    assert exact.exact and not found.complete and not found.exact
    assert found.move_scores is not None and exact.move_scores is not None
    bounds = found.move_bounds or {}
    _, labels = describe_result(found, state)
    proven = [m for m, text in labels.items() if text != "unknown"]
    assert 0 < len(proven) < len(labels), labels
    for move, score in found.move_scores.items():
        low, high = bounds.get(move, (score, score))
        true = exact.move_scores[move].value
        assert low.value <= true <= high.value, (state.move_text(move), low, high, true)
        if move in proven:
            assert outcome_class(low.value) == outcome_class(high.value) == outcome_class(true)
    low, high = found.score_bounds or (found.score, found.score)
    assert low.value <= exact.score.value <= high.value
    wins = [m for m in proven if outcome_class(exact.move_scores[m].value) > 0]
    assert found.move in wins if wins else found.move not in proven
    report = build_report(game, state, found).to_json()
    schema = _schema()
    validate(report, schema, schema)
    assert report["score"]["kind"] == "bounds" and not report["exact"]
    texts = {move["move"]: move["text"] for move in report["moves"]}
    assert "heuristic" not in " ".join(texts.values())
    assert sorted(m for m, t in texts.items() if t != "unknown") == sorted(
        state.move_text(m) for m in proven
    )


def test_a_search_that_proved_nothing_says_unknown() -> None:
    from unbeatable.report import describe_result

    state = get_game("hex:4").initial()
    nothing = Searcher("pns").search(state, Limits(nodes=50), analyze=True)
    label, labels = describe_result(nothing, state)
    assert label == "unknown" and set(labels.values()) == {"unknown"}
    played = Searcher("pns").search(state, Limits(nodes=50))
    assert describe_result(played, state)[0] == "unknown"


def test_the_clock_is_read_at_every_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time limit holds whatever a node costs: with a clock that moves a second at every
    reading, a 3.5 s limit stops df-pn after a handful of nodes (not a few dozen, as when it
    looked at the clock every 64 nodes: on 11 x 11 Hex, where a node costs milliseconds, that
    overran a 0.2 s limit by 0.15 s)."""
    import itertools
    import types

    from unbeatable.search import pns

    ticks = itertools.count()
    clock = types.SimpleNamespace(perf_counter=lambda: float(next(ticks)))
    monkeypatch.setattr(pns, "time", clock)
    result = pns.run(get_game("hex:11").initial(), Limits(time=3.5), SearchOptions(), False, None)
    found = next(iter(result))
    assert not found.complete and found.move is not None
    assert 1 <= found.nodes <= 4


def test_a_search_cut_short_plays_its_most_promising_move() -> None:
    """Stopped before anything is proven, df-pn plays the move nearest to a proof (the least
    proof number the table holds, never a disproved move), not the first legal move."""
    from unbeatable.search import Limits, search

    state = get_game("hex:7").parse_position("d4")
    result = search(state, Limits(nodes=300), algorithm="pns")
    assert not result.complete
    stats = result.move_stats
    assert stats is not None
    proofs = {m: s.proof for m, s in stats.items() if s.proof is not None and s.disproof != 0}
    assert proofs, "the table holds numbers for some moves"
    assert result.move in proofs
    assert proofs[result.move] == min(proofs.values())
    assert result.move != next(iter(state.legal_moves())) or min(proofs.values()) == 1
