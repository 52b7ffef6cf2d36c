"""Monte Carlo tree search: MCTS-Solver's proofs against brute force, its bounds around the
truth, reproducible with a seed, its limits, the parallel searcher's merge, the player and its
tree as data."""

from __future__ import annotations

import io
import json
import random
import threading

import pytest

from tests.brute import reachable, truth
from tests.test_cli import _schema, validate
from tests.test_pns import Leaf
from unbeatable import Limits, State, cli, get_game
from unbeatable.growth import grow_tree
from unbeatable.players import AIPlayer, parse_player, play_match
from unbeatable.search import ParallelSearcher, Searcher, SearchOptions, search
from unbeatable.search.mcts import DEFAULT_TREE_NODES, MCTS, grow, outcome_class
from unbeatable.search.score import WIN_MIN


def tictactoe_sample(count: int, seed: int) -> list[State]:
    positions = [s for s in reachable(get_game("tictactoe").initial()) if s.outcome() is None]
    return random.Random(seed).sample(positions, count)


def test_the_solver_proves_the_class_of_tictactoe_positions() -> None:
    """With no limit the search runs until the root's class is proven: it equals brute force,
    the move played keeps it, and the bounds of every analyzed move hold the exact value."""
    for state in tictactoe_sample(60, 1):
        result = search(state, algorithm="mcts", analyze=True)
        true = truth(state)
        assert result.exact and result.complete, str(state)
        assert outcome_class(result.score.value) == outcome_class(true), str(state)
        low, high = result.score_bounds or (result.score, result.score)
        assert low.value <= true <= high.value
        after = state.play(result.move)
        worth = truth(after) if after.to_move == state.to_move else -truth(after)
        assert outcome_class(worth) == outcome_class(true)
        assert result.move_scores is not None
        for move, score in result.move_scores.items():
            if not score.exact:
                continue  # a heuristic value: the mean reward
            child = state.play(move)
            value = truth(child) if child.to_move == state.to_move else -truth(child)
            value = value - 1 if value >= WIN_MIN else value + 1 if value <= -WIN_MIN else value
            bounds = (result.move_bounds or {}).get(move, (score, score))
            assert bounds[0].value <= value <= bounds[1].value, (str(state), move)


@pytest.mark.slow
def test_the_solver_proves_the_empty_board_a_draw() -> None:
    result = search(get_game("tictactoe").initial(), algorithm="mcts")
    assert result.score.is_draw and result.exact


def test_a_win_at_once_is_found_and_proven() -> None:
    state = get_game("tictactoe").parse_position("1425")  # x wins with 3
    result = search(state, Limits(nodes=2000), algorithm="mcts")
    assert result.move == 2 and result.score.is_win and result.score.plies == 1


def test_a_seed_makes_it_reproducible() -> None:
    state = get_game("hex:6").parse_position("c3")
    runs = [
        search(state, Limits(nodes=600), algorithm="mcts", analyze=True, rng=random.Random(7))
        for _ in range(2)
    ]
    assert runs[0].move_stats == runs[1].move_stats and runs[0].move == runs[1].move
    default = [search(state, Limits(nodes=600), algorithm="mcts") for _ in range(2)]
    assert default[0].move_stats == default[1].move_stats  # seeded 0 when no generator
    other = search(state, Limits(nodes=600), algorithm="mcts", rng=random.Random(8))
    assert other.move_stats != runs[0].move_stats


def test_a_node_limit_counts_simulations() -> None:
    state = get_game("hex:7").initial()
    result = search(state, Limits(nodes=500), algorithm="mcts", analyze=True)
    assert result.nodes == 500 and result.complete and not result.exact
    assert result.move_stats is not None
    assert sum(s.visits or 0 for s in result.move_stats.values()) == 500
    visited = max(result.move_stats.items(), key=lambda item: item[1].visits or 0)
    assert result.move == visited[0]  # the robust child
    assert result.score.kind == "heuristic"
    mean = result.move_stats[result.move].mean
    assert mean is not None and result.score.value == round(1000 * (2 * mean - 1))


def test_results_come_as_the_simulations_double() -> None:
    state = get_game("hex:5").initial()
    results = list(Searcher("mcts").iterate(state, Limits(nodes=1100)))
    assert [r.nodes for r in results] == [256, 512, 1024, 1100]


def test_evaluation_playouts_use_the_game_or_the_hook() -> None:
    state = get_game("hex:6").parse_position("a1 c3")
    result = search(state, Limits(nodes=300), algorithm="mcts", playout="evaluation")
    assert result.evaluations == 300
    calls = []

    def flat(position: object) -> float:
        calls.append(position)
        return 0.0

    search(state, Limits(nodes=50), algorithm="mcts", playout="evaluation", evaluate=flat)
    assert len(calls) == 50


def test_the_exploration_constant_changes_the_tree() -> None:
    state = get_game("hex:5").initial()
    greedy = search(state, Limits(nodes=400), algorithm="mcts", analyze=True, exploration=0.0)
    wide = search(state, Limits(nodes=400), algorithm="mcts", analyze=True, exploration=4.0)
    assert greedy.move_stats is not None and wide.move_stats is not None
    assert max(s.visits or 0 for s in greedy.move_stats.values()) > max(
        s.visits or 0 for s in wide.move_stats.values()
    )


def test_a_full_tree_ends_a_search_without_limits() -> None:
    state = get_game("hex:5").initial()
    result = search(state, algorithm="mcts", table_size=300)
    assert not result.complete and not result.exact
    assert DEFAULT_TREE_NODES >= 100_000


def test_a_stop_event_ends_it() -> None:
    stop = threading.Event()
    stop.set()
    result = Searcher("mcts").search(get_game("hex:7").initial(), Limits(time=30), stop=stop)
    assert not result.complete and result.move is not None


def test_what_it_cannot_search_is_refused_by_name() -> None:
    state = get_game("tictactoe").initial()
    with pytest.raises(ValueError, match="no depth limit"):
        search(state, Limits(depth=3), algorithm="mcts")
    with pytest.raises(ValueError, match="payoffs"):
        search(Leaf(), algorithm="mcts")
    for bad in (-1, float("nan"), True, "1"):
        with pytest.raises(ValueError, match="exploration"):
            SearchOptions(exploration=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown playout"):
        SearchOptions(playout="heavy")


def test_a_long_game_is_not_refused_for_recursion() -> None:
    state = get_game("subtraction:5000,3").initial()  # beyond recursion, not a tree's limit
    with pytest.raises(ValueError, match="recursion"):
        search(state, Limits(nodes=20), algorithm="pns")
    result = search(state, Limits(nodes=20), algorithm="mcts")
    assert result.move in state.legal_moves()


# --- parallel ----------------------------------------------------------------------------------


def test_root_parallel_search_adds_the_workers_statistics() -> None:
    state = get_game("hex:5").parse_position("c3")
    with ParallelSearcher(2, algorithm="mcts", rng=random.Random(3)) as parallel:
        result = parallel.search(state, Limits(nodes=801), analyze=True)
        assert parallel.task_log and len(parallel.task_log) == 2
    assert result.algorithm == "mcts" and result.nodes == 801
    assert result.move_stats is not None
    assert sum(s.visits or 0 for s in result.move_stats.values()) == 801
    with ParallelSearcher(2, algorithm="mcts", rng=random.Random(3)) as parallel:
        again = parallel.search(state, Limits(nodes=801), analyze=True)
    assert again.move_stats == result.move_stats


def test_root_parallel_search_merges_proofs() -> None:
    state = get_game("tictactoe").parse_position("1425")
    with ParallelSearcher(2, algorithm="mcts") as parallel:
        result = parallel.search(state)
    assert result.score.is_win and result.move == 2 and result.exact


# --- players, the command line, the tree ---------------------------------------------------


def test_an_mcts_player_plays_a_game() -> None:
    rng = random.Random(1)
    record = play_match(
        get_game("hex:4").initial(), parse_player("mcts:0.02", rng), parse_player("random", rng)
    )
    assert record.outcome is not None
    with pytest.raises(ValueError, match="mcts plays Monte Carlo"):
        parse_player("mcts:1,algorithm=pns", rng)
    guided = parse_player("mcts:0.5,playout=evaluation", rng)
    assert isinstance(guided, AIPlayer) and guided.searcher.options.playout == "evaluation"
    with pytest.raises(ValueError, match="unknown playout"):
        parse_player("mcts:0.5,playout=heavy", rng)


def test_analyze_shows_visits_and_means() -> None:
    out = io.StringIO()
    argv = ["analyze", "hex:4", "b2", "--algorithm", "mcts", "--nodes", "300"]
    assert cli.main([*argv, "--json"], stdout=out) == 0
    report = json.loads(out.getvalue())
    schema = _schema()
    validate(report, schema, schema)
    assert report["algorithm"] == "mcts" and report["nodes"] == 300
    assert sum(move["visits"] for move in report["moves"]) == 300
    assert all(0 <= move["mean"] <= 1 for move in report["moves"])
    text = io.StringIO()
    assert cli.main(argv, stdout=text) == 0
    assert "visits" in text.getvalue() and "mean" in text.getvalue()


def test_the_tree_is_data() -> None:
    state = get_game("tictactoe").parse_position("15")
    tree = MCTS(state, SearchOptions(), random.Random(1))
    for _ in tree.run(Limits(nodes=200), analyze=False):
        pass
    data = tree.root.export(max_depth=2)
    assert data["visits"] == 200
    assert sum(child["visits"] for child in data["children"]) == 200
    assert all(set(child) >= {"move", "visits", "mean", "lower", "upper", "proven"}
               for child in data["children"])
    assert all(not grandchild["children"] for child in data["children"]
               for grandchild in child["children"])
    assert json.dumps(data)
    steps = grow(state, [1, 10, 100], max_depth=1)
    assert [step["visits"] for step in steps] == [1, 10, 100]
    assert len(steps[0]["children"]) == 1 and len(steps[2]["children"]) == 7


CTRL_C_SCRIPT = """
import os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if the parent ignored SIGINT
from unbeatable import cli
threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()
start = time.perf_counter()
code = cli.main(["analyze", "hex:7", "d4", "--algorithm", sys.argv[1], "--time", "120"])
print("exit", code, time.perf_counter() - start)
"""


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["mcts", "pns"])
def test_ctrl_c_stops_mcts_and_pns_with_what_they_know(algorithm: str) -> None:
    """Ctrl-C in the middle of a two-minute analysis: it stops at once (well before its time
    limit), shows the move it would play and says it was interrupted."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", CTRL_C_SCRIPT, algorithm],
        capture_output=True,
        text=True,
        timeout=150,
    )
    *shown, last = run.stdout.strip().splitlines()
    word, code, seconds = last.split()
    assert (word, code) == ("exit", "130"), run.stdout + run.stderr
    assert float(seconds) < 60  # not its 120 s: no tight timing on a shared machine
    text = "\n".join(shown)
    # what it knows: mcts's means (heuristic values), df-pn's proven bounds ("unknown" ones)
    kind = "heuristic" if algorithm == "mcts" else "bounds"
    assert "interrupted" in text and f"{algorithm}, {kind}" in text
    assert "Traceback" not in run.stderr


def test_tree_searches_refuse_games_of_chance_and_of_more_players() -> None:
    """MCTS and df-pn take turns between two players without dice: a roll or a third player
    is refused by name, in a search and in the growth view, never searched as a player."""
    chance = get_game("bearoff").initial()
    party = get_game("mnk:3,3,3,players=3").initial()
    for algorithm in ("mcts", "pns"):
        with pytest.raises(ValueError, match=f"{algorithm} cannot search a game of chance"):
            Searcher(algorithm).search(chance, Limits(nodes=100))
        with pytest.raises(ValueError, match="searches games of two players; this one has 3"):
            Searcher(algorithm).search(party, Limits(nodes=100))
        with pytest.raises(ValueError, match=f"{algorithm} cannot search a game of chance"):
            grow_tree(chance, algorithm, 5)
        with pytest.raises(ValueError, match="searches games of two players; this one has 3"):
            grow_tree(party, algorithm, 5)
