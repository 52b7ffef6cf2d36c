"""The analysis report: what every front end shows about a searched position.

:func:`build_report` turns a :class:`~unbeatable.search.SearchResult` into a :class:`Report`, a
plain object of strings and numbers; :meth:`Report.to_json` is its JSON form, which follows
:data:`SCHEMA` (shipped as ``unbeatable/data/report.schema.json``). The command line's
``analyze --json``, its tables and the web page all read the same report, so that they show the
same numbers.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .game import Game, Move, State, player_name
from .search import Limits, Score, SearchInterrupted, SearchResult, solve_score
from .search.deepening import Searching
from .search.result import MoveStats, Progress
from .search.score import heuristic_text

__all__ = [
    "REPORT_VERSION",
    "SCHEMA",
    "Analysis",
    "LineReport",
    "MoveReport",
    "Report",
    "ScoreReport",
    "analyze",
    "bounds_text",
    "build_report",
    "describe",
    "describe_result",
    "line_text",
    "progress_text",
    "shown",
    "unknown",
    "values_text",
]


def _load_schema() -> dict[str, Any]:
    text = resources.files("unbeatable.data").joinpath("report.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


#: The JSON Schema of :meth:`Report.to_json` (also printed in docs/cli.md).
SCHEMA: dict[str, Any] = _load_schema()

#: The version of :data:`SCHEMA` that :meth:`Report.to_json` follows (its ``version`` field).
REPORT_VERSION = 2


@dataclass(frozen=True)
class ScoreReport:
    """A score as people and programs read it.

    ``kind``: win, loss, draw, value (a number), heuristic or bounds; ``text``: as printed
    (``win in 3``); ``value``: the library's integer, or a number (a game of payoffs, of
    chance, of more players); ``meaning``: what a number means (see
    :data:`~unbeatable.search.score.MEANINGS`); ``values``: the value to every player, where
    the search gives numbers; ``win_probability``: an expected score's chance to win;
    ``plies`` and ``moves_to_end`` for a win or loss;
    ``solve_score`` when the value is exact and the game has the solve convention. A search
    cut short may know only bounds of a value (a game's own solver stopped by a budget or
    Ctrl-C): then ``kind`` is bounds, ``lower`` and ``upper`` are the proven ends (each a win,
    loss or draw), ``text`` reads ``between loss in 17 and win in 14`` (worse end first; or
    ``loss in 17 or better``, ``win in 14 or worse``, ``unknown`` where an end is the widest
    there is, see :func:`bounds_text`) and ``value`` is the lower end's,
    which ranks the moves but is not their value.
    """

    kind: str
    text: str
    value: int
    plies: int | None = None
    moves_to_end: int | None = None
    solve_score: int | None = None
    lower: ScoreReport | None = None
    upper: ScoreReport | None = None
    meaning: str | None = None
    values: tuple[float, ...] | None = None
    win_probability: float | None = None

    @classmethod
    def of(
        cls,
        state: State,
        score: Score,
        bounds: tuple[Score, Score] | None = None,
        values: tuple[float, ...] | None = None,
    ) -> ScoreReport:
        """The report of ``score``, or of ``bounds`` (lower, upper) when given: the one score
        when both ends meet; ``values``: the value to every player."""
        if bounds is not None:
            lower, upper = bounds
            if lower.value == upper.value:
                return cls.of(state, lower)
            low, high = cls.of(state, lower), cls.of(state, upper)
            return cls(
                kind="bounds",
                text=bounds_text(lower, upper, low.text, high.text),
                value=lower.value,
                lower=low,
                upper=high,
            )
        exact = score.exact and state.max_plies is not None and not score.numeric
        return cls(
            kind=score.kind,
            text=str(score),
            value=score.value,
            plies=score.plies,
            moves_to_end=score.moves,
            solve_score=solve_score(state, score) if exact else None,
            meaning=score.meaning,
            values=None if values is None else tuple(values),
            win_probability=score.probability,
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "text": self.text, "value": self.value}
        if self.meaning is not None:
            data["meaning"] = self.meaning
        if self.values is not None:
            data["values"] = list(self.values)
        if self.win_probability is not None:
            data["win_probability"] = round(self.win_probability, 12)
        if self.plies is not None:
            data["plies"] = self.plies
            data["moves_to_end"] = self.moves_to_end
        if self.solve_score is not None:
            data["solve_score"] = self.solve_score
        if self.lower is not None and self.upper is not None:
            data["lower"] = self.lower.to_json()
            data["upper"] = self.upper.to_json()
        return data


@dataclass(frozen=True)
class MoveReport:
    """One legal move with its score and whether it is among the best."""

    move: str
    score: ScoreReport
    best: bool
    #: the score as :func:`describe` prints it (with the depth of a heuristic value)
    label: str
    #: an algorithm's own figures for the move (mcts: visits and mean; pns: proof numbers)
    stats: MoveStats | None = None
    #: where the dice are to roll, how likely this outcome is
    probability: float | None = None

    def to_json(self) -> dict[str, Any]:
        data = {"move": self.move, **self.score.to_json(), "best": self.best}
        if self.probability is not None:
            data["probability"] = self.probability
        if self.stats is not None:
            for name in ("visits", "mean", "proof", "disproof"):
                figure = getattr(self.stats, name)
                if figure is not None:
                    data[name] = figure
        return data


@dataclass(frozen=True)
class LineReport:
    """One of the best lines (a game's own searcher's MultiPV): its moves and its score."""

    pv: tuple[str, ...]
    score: ScoreReport

    def to_json(self) -> dict[str, Any]:
        return {"pv": list(self.pv), "score": self.score.to_json()}


@dataclass(frozen=True)
class Report:
    """Everything a front end shows about one analysis, in the game's own notation."""

    game: str
    position: str
    to_move: str
    score: ScoreReport
    label: str  #: the position's score as :func:`describe` prints it
    best_moves: tuple[str, ...]
    moves: tuple[MoveReport, ...]
    pv: tuple[str, ...]
    nodes: int
    table_hits: int
    cutoffs: int
    depth: int
    seconds: float
    exact: bool
    complete: bool
    interrupted: bool
    algorithm: str
    players: int = 2
    #: the dice are to roll: the moves are the outcomes, the score their expectation
    chance: bool = False
    #: the best lines, best first (empty when the search gave only ``pv``)
    lines: tuple[LineReport, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data, valid against :data:`SCHEMA`."""
        lines = {"lines": [line.to_json() for line in self.lines]} if self.lines else {}
        return {
            "version": REPORT_VERSION,
            "game": self.game,
            "position": self.position,
            "to_move": self.to_move,
            "players": self.players,
            "chance": self.chance,
            "score": self.score.to_json(),
            "best_moves": list(self.best_moves),
            "moves": [m.to_json() for m in self.moves],
            "pv": list(self.pv),
            "nodes": self.nodes,
            "table_hits": self.table_hits,
            "cutoffs": self.cutoffs,
            "depth": self.depth,
            "seconds": round(self.seconds, 6),
            "exact": self.exact,
            "complete": self.complete,
            "interrupted": self.interrupted,
            "algorithm": self.algorithm,
            **lines,
        }


#: The text of bounds that say nothing yet (see :func:`unknown`).
UNKNOWN = "unknown"


def unknown(lower: Score, upper: Score) -> bool:
    """Whether bounds are the widest a solver starts from, a loss at the opponent's next move
    to a win at once or at the next move (which of the two depends on the parity of the
    stones): a search cut short before it looked at the move. Its own solver sees at once
    whether the opponent wins next, so a lower end of loss in 1 never comes from a search."""
    return _widest_lower(lower) and _widest_upper(upper)


def _widest_lower(lower: Score) -> bool:
    """A lower end that says nothing: a loss at the opponent's next move."""
    return lower.is_loss and lower.moves == 1


def _widest_upper(upper: Score) -> bool:
    """An upper end that says nothing: a win at once or at the next move."""
    return upper.is_win and (upper.moves or 0) <= 2


def bounds_text(lower: Score, upper: Score, low: str, high: str) -> str:
    """How bounds read (``low`` and ``high``: the two ends as written): ``between loss in 12
    and win in 14``; ``loss in 12 or better`` when the upper end is still the widest there is
    (a win at once or at the next move: nothing proven above), ``win in 14 or worse`` when the
    lower end is (a loss at the opponent's next move); ``unknown`` when both are. (``between
    loss in 12 and win in 2`` would read as if it were the narrower of the two ranges.)"""
    if unknown(lower, upper):
        return UNKNOWN
    if _widest_upper(upper):
        return f"{low} or better"
    if _widest_lower(lower):
        return f"{high} or worse"
    return f"between {low} and {high}"


def describe(
    score: Score,
    state: State | None = None,
    depth: int | None = None,
    *,
    bounds: tuple[Score, Score] | None = None,
) -> str:
    """A score for people: ``win in 3``, ``draw``, ``loss in 2`` (with the solve-convention
    score in brackets when ``state`` is given and the game has one), or ``+23 (heuristic,
    depth 4)``. With ``bounds`` (lower, upper; a search cut short proved no more) the score is
    the pair, ``between loss in 17 [-10] and win in 14 [+9]`` (``... or better``, ``... or
    worse``, ``unknown`` where an end is the widest there is: :func:`bounds_text`), or the one
    score where they meet: ``score``, their lower end, is then
    left out."""
    if bounds is not None:
        lower, upper = bounds
        if lower.value != upper.value:
            return bounds_text(lower, upper, describe(lower, state), describe(upper, state))
        score = lower
    if score.kind == "heuristic":
        value = heuristic_text(score.value)
        return f"{value} (heuristic{'' if depth is None else f', depth {depth}'})"
    text = str(score)
    if state is not None and score.exact and state.max_plies is not None and not score.numeric:
        text += f" [{solve_score(state, score):+d}]" if score.value else " [0]"
    return text


def describe_result(
    result: SearchResult, state: State | None = None
) -> tuple[str, dict[Move, str]]:
    """The position's score and every analyzed move's (``result.move_scores``), as
    :func:`describe` prints them: heuristic values with the search's depth, and the bounds of
    a search cut short where it left them (never their lower end alone). ``state`` (the
    searched position) adds the solve-convention scores. Every front end labels scores so."""
    depth = None if result.exact else result.depth
    bounds = result.move_bounds or {}
    vectors = result.move_values or {}
    many = state is not None and state.players > 2
    moves = {
        m: describe(s, state, depth, bounds=bounds.get(m)) + (
            f" ({values_text(vectors[m])})" if many and m in vectors else ""
        )
        for m, s in (result.move_scores or {}).items()
    }
    label = describe(result.score, state, depth, bounds=result.score_bounds)
    if many and result.values is not None:
        label += f" ({values_text(result.values)})"
    return label, moves


def progress_text(result: SearchResult, state: State | None = None) -> str:
    """One line of what a search has proven so far (a result that a search's ``progress``
    told, :meth:`~.search.deepening.Searching.iterate`): the time spent, the position's score
    or its bounds, then every legal move's, short, in the solve convention where the game has
    one (``score [0..+15]; moves 1 ?, 2 [-8..+7], 4 [0]``: ``?`` for a move not looked at yet,
    whose bounds are the widest), else in words. ``state``: the searched position (else the
    result's own)."""
    state = state if state is not None else result.state
    label = _short(result.score, result.score_bounds, state)
    bounds = result.move_bounds or {}
    scores = result.move_scores or {}
    order = list(state.legal_moves()) if state is not None else list(scores)
    moves = []
    for move in (m for m in order if m in scores):
        name = state.move_text(move) if state is not None else str(move)
        moves.append(f"{name} {_short(scores[move], bounds.get(move), state)}")
    tail = f"; moves {', '.join(moves)}" if moves else ""
    return f"{result.elapsed:.1f} s: score {label}{tail}"


def _short(score: Score, bounds: tuple[Score, Score] | None, state: State | None) -> str:
    """A move's score or bounds in a progress line (see :func:`progress_text`)."""
    if bounds is not None and unknown(*bounds):
        return "?"
    lower, upper = bounds if bounds is not None else (score, score)
    if state is None or state.max_plies is None or lower.numeric or not lower.exact:
        return describe(score, state, bounds=bounds)
    low, high = (_signed(solve_score(state, end)) for end in (lower, upper))
    return f"[{low}]" if low == high else f"[{low}..{high}]"


def _signed(number: int) -> str:
    """A solve-convention score as the command line writes it: ``+3``, ``-2``, ``0``."""
    return f"{number:+d}" if number else "0"


def values_text(values: Iterable[float]) -> str:
    """The value to every player, as people read it: ``first 1, second -1, third -1``."""
    return ", ".join(f"{player_name(p)} {v:.4g}" for p, v in enumerate(values))


def line_text(state: State, moves: Iterable[Move], *, labels: bool = False) -> tuple[str, ...]:
    """A line of moves from ``state`` in the game's notation (``labels``: as people read
    them, :meth:`State.move_label`; chess: SAN)."""
    texts = []
    for move in moves:
        texts.append(state.move_label(move) if labels else state.move_text(move))
        state = state.play(move)
    return tuple(texts)


def shown(state: State, move: Move) -> str:
    """A move for people: its notation, and its label where the game has another (chess:
    ``h5f7 Qxf7#``)."""
    text, label = state.move_text(move), state.move_label(move)
    return text if label == text else f"{text} {label}"


def _position_text(game: Game, state: State, given: str) -> str:
    try:
        return game.format_position(state)
    except NotImplementedError:
        return given.strip()


def build_report(
    game: Game, state: State, result: SearchResult, *, interrupted: bool = False, given: str = ""
) -> Report:
    """The report of ``result``, a search of ``state`` (read from the text ``given``)."""
    best = set(result.best_moves)
    label, labels = describe_result(result, state)
    bounds = result.move_bounds or {}
    vectors = result.move_values or {}
    likely = dict(state.chance_outcomes()) if state.is_chance else {}
    moves = tuple(
        MoveReport(
            move=state.move_text(m),
            score=ScoreReport.of(state, s, bounds.get(m), vectors.get(m)),
            best=m in best,
            label=labels[m],
            stats=(result.move_stats or {}).get(m),
            probability=float(likely[m]) if m in likely else None,
        )
        for m, s in (result.move_scores or {}).items()
    )
    return Report(
        game=game.spec,
        position=_position_text(game, state, given),
        to_move=player_name(state.to_move),
        score=ScoreReport.of(state, result.score, result.score_bounds, result.values),
        label=label,
        best_moves=tuple(state.move_text(m) for m in result.best_moves),
        moves=moves,
        pv=line_text(state, result.pv),
        nodes=result.nodes,
        table_hits=result.table_hits,
        cutoffs=result.cutoffs,
        depth=result.depth,
        seconds=result.elapsed,
        exact=result.exact,
        complete=result.complete and not interrupted,
        interrupted=interrupted,
        algorithm=result.algorithm,
        players=state.players,
        chance=state.is_chance,
        lines=tuple(
            LineReport(line_text(state, line.pv), ScoreReport.of(state, line.score))
            for line in result.lines
        ),
    )


@dataclass(frozen=True)
class Analysis:
    """An analysis as every front end shows it: the search's result (None when Ctrl-C came
    before any move's value was known), whether Ctrl-C cut it short, and its report."""

    result: SearchResult | None
    interrupted: bool
    report: Report | None


def analyze(
    game: Game,
    state: State,
    searcher: Searching,
    limits: Limits | None = None,
    *,
    given: str = "",
    progress: Progress | None = None,
) -> Analysis:
    """Every legal move's score, the library's one way (the command line's ``analyze``, the
    web page and any other front end call this, so that they show the same numbers): one
    search of ``state`` by ``searcher`` within ``limits`` (none: exact, straight to the end of
    the game, or the game's own solver); Ctrl-C keeps the best result known. ``progress``:
    told what the search has proven so far while it works (a game's own solver's narrowing
    bounds: see :meth:`~.search.deepening.Searching.iterate`; :func:`progress_text` words
    it)."""
    result: SearchResult | None
    try:
        found = searcher.search(state, limits, analyze=True, progress=progress)
        result, interrupted = found, False
    except SearchInterrupted as stop:
        result, interrupted = stop.result, True
    report = None
    if result is not None:
        report = build_report(game, state, result, interrupted=interrupted, given=given)
    return Analysis(result, interrupted, report)


def analyse(*args: Any, **kw: Any) -> Analysis:
    """The old spelling of :func:`analyze` (deprecated)."""
    warnings.warn("report.analyse is now spelled report.analyze", DeprecationWarning, stacklevel=2)
    return analyze(*args, **kw)
