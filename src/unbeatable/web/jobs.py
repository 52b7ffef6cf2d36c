"""What a worker process runs: one function per kind of request, plain data in and out.

Each job reads the game and the position again from their text (so any registered game works,
a user's own included: the workers are forked from the server after it registered its games),
calls the library, and returns JSON-ready data. Analyses are made exactly as the command line's
``analyze`` makes them, and reported by the same :func:`unbeatable.report.build_report`, so the
page and ``unbeatable analyze --json`` show the same numbers. For a game whose moves people read
in another notation (chess: SAN beside UCI), an answer also holds ``labels`` (each legal move's)
and ``pv_labels`` (the principal variation's), which the page shows.

Every search's limits come from the library's policy (:func:`unbeatable.search.policy.
limits_for`, with the purpose and the server's cap): a game too large to solve (chess) is never
searched to its end, any time limit is held inside the cap, and an opponent's move is one search
with a time limit (exact where it can be: a game's own solver gets half the time, then the
game's evaluation chooses).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..drawing import split_svg, timeline_svg
from ..game import Move, State
from ..games import get_game
from ..growth import GROWTH_ALGORITHMS, grow_tree
from ..players import AIPlayer, parse_player, roll
from ..report import analyze as run_analysis
from ..report import build_report, line_text
from ..search import Limits, Line, ParallelSearcher, Searcher, SearchOptions, SearchResult, policy
from ..timeline import timeline
from ..tree import TreeTooLargeError, build_tree
from .inputs import BadInput
from .treeview import algorithm_counts, growth_view, quiz_answer, tree_view

__all__ = ["Job", "run_job"]


@dataclass(frozen=True)
class Job:
    """One request's work: ``kind`` names the function, the rest are its arguments."""

    kind: str
    game: str
    moves: str
    cap: float
    depth: int | None = None
    time: float | None = None
    algorithm: str | None = None
    opponent: str = "perfect"
    seed: int | None = None
    hints: bool = False
    max_nodes: int = 500
    workers: int = 2
    table: bool = False
    textbook: bool = False
    view: str | None = None
    boards: bool | None = None
    quiz: bool = False
    budget: int = 30  # the tree view of mcts and pns: simulations, or positions expanded


def analyze(job: Job) -> dict[str, Any]:
    """Every legal move's score: the report of ``unbeatable analyze --json``, made by the
    library's one analysis (:func:`unbeatable.report.analyze`)."""
    game = get_game(job.game)
    state = game.parse_position(job.moves)
    limits = policy.limits_for(
        state, Limits(depth=job.depth, time=job.time), purpose="analysis", cap=job.cap
    )
    analysis = run_analysis(game, state, Searcher(job.algorithm), limits, given=job.moves)
    report, result = analysis.report, analysis.result
    assert report is not None and result is not None  # Ctrl-C does not reach a worker
    return with_labels(report.to_json(), state, result.pv, result.lines)


#: The best lines an analysis shows with labels (the report has every line).
LINES_SHOWN = 3


def with_labels(
    report: dict[str, Any], state: State, pv: Sequence[Move], lines: Sequence[Line] = ()
) -> dict[str, Any]:
    """``report`` with ``labels`` (every legal move's label, by its notation) and
    ``pv_labels`` (the principal variation's), when the game's labels differ from its
    notation (chess: SAN), and ``lines_labels`` (the first :data:`LINES_SHOWN` of the
    search's best ``lines``, when it gave some); else ``report`` unchanged, the report of
    ``analyze --json``."""
    legal = list(state.legal_moves())
    labels = {state.move_text(m): state.move_label(m) for m in legal}
    if all(text == label for text, label in labels.items()):
        return report
    labelled = {**report, "labels": labels, "pv_labels": list(line_text(state, pv, labels=True))}
    if lines:
        labelled["lines_labels"] = [
            list(line_text(state, line.pv, labels=True)) for line in lines[:LINES_SHOWN]
        ]
    return labelled


def choose(job: Job) -> dict[str, Any]:
    """The opponent's move (a player spec of ``unbeatable match``) and its search's report;
    where the dice are to roll, a roll (drawn with the request's seed), with ``roll`` true."""
    game = get_game(job.game)
    state = game.parse_position(job.moves)
    rng = random.Random(job.seed)
    if state.is_chance:  # the dice roll: for the AI and for people alike
        move = roll(state, rng)
        return {"move": state.move_text(move), "label": state.move_label(move), "report": None,
                "roll": True}
    player = parse_player(job.opponent, rng)
    if not isinstance(player, AIPlayer):
        move = player.choose(state)
        return {"move": state.move_text(move), "label": state.move_label(move), "report": None}
    searcher = player.searcher
    limits = policy.limits_for(state, player.limits, purpose="move", cap=job.cap)
    result = searcher.search(state, limits)
    assert result.move is not None
    report = build_report(game, state, result, given=job.moves).to_json()
    found: dict[str, Any] = {
        "move": state.move_text(result.move),
        "label": state.move_label(result.move),
        "report": with_labels(report, state, result.pv, result.lines),
    }
    note = _unsettled(state, player.limits, limits, result)
    if note:
        found["note"] = note
    return found


def _unsettled(state: State, asked: Limits, limits: Limits, result: SearchResult) -> str:
    """What a perfect opponent's move is when perfect play did not finish inside the cap."""
    if asked != Limits() or policy.too_large(state) or result.exact or limits.time is None:
        return ""
    how = (
        "bounds the game's own solver proved"
        if result.algorithm == "solver"
        else "a search with the game's evaluation"
    )
    return f"perfect play did not finish within {limits.time:g} s: this move comes from {how}"


def tree(job: Job) -> dict[str, Any]:
    """The search tree: its JSON, picture and steps (see :mod:`.treeview`), and every
    algorithm's node count beside it. A quiz draws the minimax tree and answers with the moves
    alpha-beta cuts off (``cuts``)."""
    game = get_game(job.game)
    state = game.parse_position(job.moves)
    if job.algorithm in GROWTH_ALGORITHMS and not job.quiz:
        return growth_view(grow_tree(state, job.algorithm, job.budget, max_nodes=job.max_nodes))
    depth = job.depth or 2
    algorithm = "minimax" if job.quiz else job.algorithm or "alphabeta"
    try:
        recorded = build_tree(
            state,
            depth,
            algorithm,
            hints=job.hints and not job.quiz,
            table=job.table and not job.quiz,
            textbook=job.textbook,
            max_nodes=job.max_nodes,
        )
    except TreeTooLargeError:
        where = repr(job.moves.strip()) if job.moves.strip() else "the start"
        raise BadInput(
            f"the {algorithm} tree from {where} at depth {depth} has more than "
            f"{job.max_nodes} nodes: lower the depth, start from a later position, or raise "
            "the node limit",
            "depth",
            str(depth),
        ) from None
    view = "first" if job.quiz else job.view
    data = tree_view(recorded, view=view, boards=job.boards)
    data["counts"] = algorithm_counts(state, depth)
    if job.quiz:
        data["cuts"] = quiz_answer(state, depth, job.textbook, job.max_nodes)
    return data


def _finite(value: float) -> float | None:
    return round(value, 6) if math.isfinite(value) else None


def parallel(job: Job) -> dict[str, Any]:
    """One parallel search and its task log: which worker searched what, and when; its
    timeline and split tree as pictures and in words (:mod:`unbeatable.timeline`), beside a
    serial search of the same position for the speed-up. The workers are started by a depth-1
    search first, so that the timeline shows the search, not the processes starting (their
    time is given apart)."""
    game = get_game(job.game)
    state = game.parse_position(job.moves)
    # the parallel search and the serial one share the cap
    limits = policy.limits_for(
        state, Limits(depth=job.depth), purpose="analysis", cap=job.cap / 2
    )
    algorithm = policy.split_algorithm(SearchOptions(algorithm=job.algorithm), state)
    with ParallelSearcher(job.workers, algorithm=algorithm) as searcher:
        began = time.perf_counter()
        searcher.search(state, Limits(depth=1))  # starts the worker processes
        startup = time.perf_counter() - began
        result = searcher.search(state, limits)
        log = list(searcher.task_log)
    serial = Searcher(algorithm).search(state, limits)
    line = timeline(
        log,
        result.elapsed,
        workers=job.workers,
        nodes=result.nodes,
        serial=serial.elapsed,
        serial_nodes=serial.nodes,
        startup=startup,
    )
    order: dict[int, int] = {}
    for task in sorted(log, key=lambda t: math.inf if math.isnan(t.sent) else t.sent):
        order.setdefault(task.worker, len(order))
    waits = {bar.moves: bar for bar in line.tasks}
    tasks = []
    for task in log:
        bar = waits.get(tuple(task.moves)) if task.iteration == line.depth else None
        tasks.append(
            {
                "worker": order[task.worker],
                "pid": task.worker,
                "sent": _finite(task.sent),
                "seconds": _finite(task.seconds),
                "cpu": _finite(task.cpu),
                "round_trip": _finite(task.round_trip),
                "nodes": task.nodes,
                "moves": list(task.moves),
                "iteration": task.iteration,
                "index": None if bar is None else bar.index,
                "waited_for": None if bar is None or bar.waited_for is None
                else list(bar.waited_for),
            }
        )
    return {
        "report": with_labels(
            build_report(game, state, result, given=job.moves).to_json(), state, result.pv
        ),
        "workers": job.workers,
        "tasks": tasks,
        "elapsed": round(result.elapsed, 6),
        "serial": {"seconds": round(serial.elapsed, 6), "nodes": serial.nodes},
        "speedup": None if line.speedup is None else round(line.speedup, 3),
        "startup": round(startup, 6),
        "busy": [round(b, 6) for b in line.busy()],
        "idle": [round(b, 6) for b in line.idle()],
        "explain": line.explain(),
        "timeline_svg": str(timeline_svg(line)),
        "split_svg": str(split_svg(line)),
    }


def warm_up() -> None:
    """Load what searches compile (the Connect Four solver's kernels) in this process."""
    analyze(Job("analyze", "connect4", "4444443322", 10.0))


JOBS = {"analyze": analyze, "move": choose, "tree": tree, "parallel": parallel}


def run_job(job: Job) -> dict[str, Any]:
    """Run ``job`` (in a worker process)."""
    return JOBS[job.kind](job)
