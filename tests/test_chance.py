"""Searching games of chance (issue 22, item 2): expectiminimax, Star1 and Star2 give the
brute-force expectiminimax value on random trees, exactly and to a depth limit, with and
without a table; a bounded search keeps the window contract; the budgets, the events, what a
value means, and the refusals."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from tests.trees import LEAF, Tree, expectimax, random_tree
from unbeatable import Limits, Outcome, Payoff, Searcher, State, get_game
from unbeatable.search import ParallelSearcher, SearchOptions, events
from unbeatable.search.chance import ChanceEngine, value_bounds
from unbeatable.search.parallel import ParallelSearchError
from unbeatable.search.result import UNLIMITED

ALGORITHMS = ("expectiminimax", "star1", "star2")


def trees(count: int, seed: int, depth: tuple[int, int] = (2, 6)) -> list[Tree]:
    rng = random.Random(seed)
    found: list[Tree] = []
    while len(found) < count:
        tree = Tree(random_tree(rng, rng.randint(*depth), rng.random() < 0.5))
        if tree.outcome() is None:
            found.append(tree)
    return found


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("table", [False, True])
def test_exact_values_are_brute_forces(algorithm: str, table: bool) -> None:
    for tree in trees(120, seed=1):
        result = Searcher(algorithm, table=table).search(tree, analyze=True)
        assert result.exact and result.complete
        assert result.score.value == pytest.approx(expectimax(tree), abs=1e-9)
        assert result.move_scores is not None
        for move, score in result.move_scores.items():
            child = tree.play(move)
            value = expectimax(child)
            expected = value if child.to_move == tree.to_move else -value
            assert score.value == pytest.approx(expected, abs=1e-9), (tree, move)
        if not tree.is_chance:
            best = max(s.value for s in result.move_scores.values())
            scores = result.move_scores
            first = next(m for m in tree.legal_moves() if scores[m].value >= best - 1e-9)
            assert result.move == first  # ties go to the first move in order


@pytest.mark.parametrize("algorithm", ["star1", "star2"])
def test_a_player_gets_the_best_move_without_analysis(algorithm: str) -> None:
    for tree in trees(150, seed=2):
        if tree.is_chance:
            continue
        plain = Searcher("expectiminimax").search(tree, analyze=True)
        pruned = Searcher(algorithm, hints=False).search(tree)
        assert pruned.score.value == pytest.approx(plain.score.value, abs=1e-9)
        assert pruned.best_moves == plain.best_moves and pruned.move == plain.move


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_depth_limited_values_use_the_evaluation_as_brute_force_does(
    algorithm: str, depth: int
) -> None:
    for tree in trees(60, seed=3, depth=(3, 6)):
        result = Searcher(algorithm).search(tree, Limits(depth=depth), analyze=True)
        assert result.score.value == pytest.approx(expectimax(tree, depth), abs=1e-9)
        if not result.exact:
            assert result.score.kind == "heuristic"


@pytest.mark.parametrize("algorithm", ["star1", "star2"])
def test_a_bounded_search_keeps_the_window_contract(algorithm: str) -> None:
    rng = random.Random(4)
    for tree in trees(100, seed=4):
        true = expectimax(tree)
        for _ in range(4):
            a, b = sorted(rng.uniform(-LEAF, LEAF) for _ in range(2))
            engine = ChanceEngine(
                algorithm, value_bounds(tree), table=None, symmetry=True, hints=True,
                evaluate=None, order=None, deadline=None, max_nodes=None,
            )
            v = engine.search(tree, UNLIMITED, a, b, 0)
            if v <= a:
                assert true <= v + 1e-9
            elif v >= b:
                assert true >= v - 1e-9
            else:
                assert v == pytest.approx(true, abs=1e-9)


def test_star1_and_star2_search_fewer_nodes_than_expectiminimax() -> None:
    """The *-minimax pruning, on a long bear-off race searched two moves deep (node counts
    are exact and deterministic); benchmarks/chance.py prints them beside each other."""
    state = get_game("bearoff:15,6").parse_position("2-2-3-3-3-2/2-3-2-3-2-3 first 6-3")
    found = {a: Searcher(a).search(state, Limits(depth=2)) for a in ALGORITHMS}
    counts = {a: r.nodes for a, r in found.items()}
    assert counts["star2"] < counts["star1"] < counts["expectiminimax"]
    assert counts["star2"] < counts["expectiminimax"] / 2
    for result in found.values():
        assert result.score.value == pytest.approx(found["expectiminimax"].score.value)
        assert result.move == found["expectiminimax"].move


def test_a_chance_node_is_worth_its_expectation() -> None:
    state = get_game("bearoff:2,2").initial()
    result = Searcher().search(state)
    assert state.is_chance and result.move is None and result.best_moves == ()
    assert result.move_scores is not None and len(result.move_scores) == 21
    expected = sum(p * result.move_scores[m].value for m, p in state.chance_outcomes())
    assert result.score.value == pytest.approx(expected)
    assert result.values == (result.score.value, -result.score.value)


def test_what_a_value_means_is_said() -> None:
    state = get_game("bearoff:3,3").parse_position("0-0-3/0-0-3 first")
    score = Searcher().search(state).score
    assert score.meaning == "expected-score" and score.kind == "value"
    assert score.probability == pytest.approx((1 + score.value) / 2)
    assert str(score) == "81.02% to win (expected score +0.6205)"
    tree = trees(1, seed=5)[0]
    assert Searcher().search(tree).score.meaning == "expected-payoff"
    assert str(Searcher().search(Tree(("c", ((0.5, 3), (0.5, 4))))).score) == "expected payoff 3.5"


def test_budgets_give_a_legal_move_and_say_so() -> None:
    state = get_game("bearoff:6,6").parse_position("6-5")
    for limits in (Limits(nodes=200), Limits(time=0.2), Limits(depth=1)):
        result = Searcher().search(state, limits)
        assert result.move in state.legal_moves()
        assert not result.exact
    stop = threading.Event()
    stop.set()
    result = Searcher().search(state, Limits(time=30), stop=stop)
    assert result.move in state.legal_moves() and not result.complete


def test_iterations_deepen_until_the_value_is_exact() -> None:
    state = get_game("bearoff:2,2").parse_position("2-1")
    found = list(Searcher("star2").iterate(state, Limits(time=30)))
    assert [r.depth for r in found[:2]] == [1, 2]
    assert found[-1].exact and not any(r.exact for r in found[:-1])


def test_algorithms_that_cannot_search_a_game_are_refused_by_name() -> None:
    chance = get_game("bearoff").initial()
    for algorithm in ("alphabeta", "minimax", "negamax", "alphabeta-stack"):
        with pytest.raises(ValueError, match=f"{algorithm} cannot search a game of chance"):
            Searcher(algorithm).search(chance)
    party = get_game("mnk:3,3,3,players=3").initial()
    with pytest.raises(ValueError, match="star2 searches games of two players; this one has 3"):
        Searcher("star2").search(party)

    class Unbounded(Tree):
        value_bounds = None

    tree = Unbounded(("c", ((0.5, (1, 2)), (0.5, 3))))
    with pytest.raises(ValueError, match="declares no value_bounds"):
        Searcher("star1").search(tree)
    assert Searcher().search(tree).algorithm == "expectiminimax"  # the default without bounds
    assert Searcher().search(tree).score.value == pytest.approx(2.5)


def test_the_default_for_a_game_of_chance_is_star_minimax() -> None:
    start = get_game("bearoff").initial()
    assert SearchOptions().choose_algorithm(start) == "star1"  # to the end
    assert SearchOptions().choose_algorithm(start, Limits(depth=3)) == "star2"
    assert SearchOptions().choose_algorithm(start, Limits(time=1)) == "star2"
    assert SearchOptions().choose_algorithm(get_game("mnk:3,3,3,players=3").initial()) == "maxn"
    assert SearchOptions().choose_algorithm(get_game("tictactoe").initial()) == "alphabeta"


def test_events_of_a_search_of_chance() -> None:
    state = get_game("bearoff:2,2").parse_position("1-1/0-2 first")
    seen: list[events.SearchEvent] = []
    result = Searcher("star2").search(state, observer=seen.append)
    kinds = [e.kind for e in seen]
    assert kinds[0] == events.ENTER and seen[0].path == ()
    assert kinds.count(events.ENTER) == kinds.count(events.VALUE)
    assert seen[-1].kind == events.VALUE and seen[-1].path == ()
    assert seen[-1].value == pytest.approx(result.score.value)
    reasons = {e.reason for e in seen}
    assert events.CHANCE in reasons and events.TERMINAL in reasons
    assert all(len(e.path) >= 1 for e in seen[1:-1])
    assert {e.reason for e in seen if e.kind == events.CUT} <= {events.STAR, events.BETA}
    with pytest.raises(ValueError, match="maxn emits no search events"):
        Searcher("maxn").search(state, observer=seen.append)


def test_a_searchers_table_serves_its_next_search() -> None:
    game = get_game("bearoff:3,3")
    searcher = Searcher("star2")
    first = searcher.search(game.parse_position("1-1-1/0-1-2 first"))
    again = searcher.search(game.parse_position("1-1-1/0-1-2 first"))
    assert again.score.value == pytest.approx(first.score.value)
    assert again.nodes < first.nodes / 10


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_parallel_searcher_gives_the_serial_answer(algorithm: str) -> None:
    game = get_game("bearoff:3,3")
    texts = ("1-1-1/0-1-2 first", "1-1-1/0-1-2 first 6-2", "0-2-1/1-1-1 second 2-1")
    states = [game.parse_position(text) for text in texts]
    with ParallelSearcher(2, algorithm=algorithm) as parallel:
        # depth-limited first: the workers' tables then hold no deeper values to answer with
        for state in states:
            limited = parallel.search(state, Limits(depth=1), analyze=True)
            serial = Searcher(algorithm).search(state, Limits(depth=1), analyze=True)
            assert limited.score.value == pytest.approx(serial.score.value, abs=1e-9)
            assert limited.move == serial.move and not limited.exact
        for state in states:
            serial = Searcher(algorithm).search(state, analyze=True)
            split = parallel.search(state, analyze=True)
            assert split.exact and split.score.value == pytest.approx(serial.score.value, abs=1e-9)
            assert split.best_moves == serial.best_moves and split.move == serial.move
            assert split.move_scores is not None and serial.move_scores is not None
            for move, score in serial.move_scores.items():
                assert split.move_scores[move].value == pytest.approx(score.value, abs=1e-9)
            assert split.values == pytest.approx(serial.values)
        assert len(parallel.task_log) == len(states[-1].legal_moves())


def test_a_payoff_is_worth_its_number_to_the_side_to_move() -> None:
    assert Tree(3).outcome() == Payoff.zero_sum(3)
    result = Searcher("expectiminimax").search(Tree((3, ("c", ((0.25, -4), (0.75, 8))))))
    # the first player takes move 1: the second player is then to move at a chance node
    # worth -(0.25 * -4 + 0.75 * 8) = -5 to it, so 5 to the first player
    assert result.score.value == pytest.approx(5.0) and result.move == 1


@dataclass(frozen=True)
class Circle(State):
    """A game of chance that can go round in circles: roll a coin; heads ends the game (the
    roller wins), tails hands the turn on with nothing changed, so a position comes back."""

    has_chance: ClassVar[bool] = True
    turn: int = 0
    rolling: bool = False
    won: bool = False

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def is_chance(self) -> bool:
        return self.rolling

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [("heads", 0.5), ("tails", 0.5)] if self.rolling else []

    def legal_moves(self) -> list[str]:
        if self.won:
            return []
        return ["heads", "tails"] if self.rolling else ["toss"]

    def play(self, move: Any) -> Circle:
        if move == "toss":
            return Circle(self.turn, True)
        if move == "heads":
            return Circle(self.turn, False, True)
        return Circle(1 - self.turn)

    def outcome(self) -> Outcome | None:
        return Outcome.win_for(self.turn) if self.won else None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_game_that_goes_round_in_circles_asks_for_a_limit(algorithm: str) -> None:
    """Searched to the end, it would recurse for ever: a ValueError that says what to do, not
    a RecursionError; to a depth limit it is searched."""
    with pytest.raises(ValueError, match=r"goes round in circles.*depth or a time limit"):
        Searcher(algorithm).search(Circle())
    assert Searcher(algorithm).search(Circle(), Limits(depth=6)).move == "toss"


@pytest.mark.slow
def test_a_game_that_goes_round_in_circles_asks_for_a_limit_in_parallel() -> None:
    with ParallelSearcher(2) as parallel, pytest.raises(ParallelSearchError) as raised:
        parallel.search(Circle().play("toss"))
    assert "goes round in circles" in str(raised.value)
    assert "RecursionError" not in str(raised.value)


class _Clock:
    """A clock that moves a microsecond each time it is read, and 0.2 s each time a slow
    game's ``legal_moves`` is called."""

    now = 0.0

    @classmethod
    def perf_counter(cls) -> float:
        cls.now += 1e-6
        return cls.now


@dataclass(frozen=True)
class SlowRace(State):
    """A dice race to 20 whose legal_moves takes 0.2 s of the fake clock: roll a die and add
    it; on a player's move, go on (roll again) or pass the dice."""

    has_chance: ClassVar[bool] = True
    totals: tuple[int, int] = (0, 0)
    turn: int = 0
    rolling: bool = True

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def is_chance(self) -> bool:
        return self.rolling

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(face, 1 / 6) for face in range(1, 7)] if self.rolling else []

    def legal_moves(self) -> list[Any]:
        _Clock.now += 0.2
        if self.outcome() is not None:
            return []
        return list(range(1, 7)) if self.rolling else ["on", "pass"]

    def play(self, move: Any) -> SlowRace:
        if self.rolling:
            totals = list(self.totals)
            totals[self.turn] += move
            return SlowRace((totals[0], totals[1]), self.turn, False)
        return SlowRace(self.totals, self.turn if move == "on" else 1 - self.turn, True)

    def outcome(self) -> Outcome | None:
        for player in (0, 1):
            if self.totals[player] >= 20:
                return Outcome.win_for(player)
        return None


@pytest.mark.parametrize("algorithm", [*ALGORITHMS, "maxn"])
def test_a_time_limit_holds_when_nodes_are_slow(
    algorithm: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock is looked at often enough when nodes are slow, even after a few quick ones
    (a chance node's outcomes): a 1 s limit stops within a few slow nodes of it. The clock is
    a fake one that the game's legal_moves moves, so nothing here depends on the machine's
    speed."""
    import unbeatable.search.chance as chance_module
    import unbeatable.search.engine as engine_module
    import unbeatable.search.maxn as maxn_module

    for module in (engine_module, chance_module, maxn_module):
        monkeypatch.setattr(module, "time", _Clock)
    _Clock.now = 0.0
    result = Searcher(algorithm).search(SlowRace().play(4), Limits(time=1.0))
    assert not result.complete
    assert result.move in ("on", "pass")
    stopped_at = _Clock.now
    assert stopped_at <= 1.0 + 5 * 0.2, stopped_at  # the answer's own legal_moves included
