"""``unbeatable analyze``: every legal move of a position with its score."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from .. import render
from ..game import Game, State, player_name
from ..games import load_game
from ..report import analyze, describe_result, line_text, progress_text, shown
from ..search import SearchResult, policy
from . import common
from .common import Streams


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "analyze",
        help="score every legal move of a position",
        description="Every legal move with its score, the best moves, the principal variation "
        "and the search figures. Exact unless a limit is given (a game too large to solve, like "
        "chess, has its own time limit). Ctrl-C prints the best known "
        "so far, marked interrupted (exit code 130).",
        epilog="Example: unbeatable analyze tictactoe 51 --json",
    )
    common.add_game(p)
    p.add_argument("position", metavar="POSITION", nargs="?", default="", help="the position")
    p.add_argument("--json", action="store_true", help="print one JSON object (see README)")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="say on stderr what the search has proven so far while it works (a game's own "
        "solver's narrowing bounds): default a live line when stderr is a terminal, nothing "
        "otherwise; --progress writes a line each time elsewhere too, --no-progress never",
    )
    common.add_limits(p)
    common.add_search_options(p)
    common.add_parallel_options(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, streams: Streams) -> int:
    game = load_game(args.game)
    state = common.parse_position(game, args.position)
    if state.outcome() is not None:
        raise common.game_over(state, args.position)
    live = watch(args, streams)
    told = None if live is None else (lambda known: live.show(progress_text(known, state)))
    parallel = common.parallel(args)
    try:
        if parallel is not None:  # (it loads a game's solver itself, before it forks)
            with parallel:
                analysis = analyze(
                    game, state, parallel, common.limits(args), given=args.position,
                    progress=told,
                )  # fmt: skip
        else:
            searcher = common.searcher(args)
            policy.warm_for_own_clock(searcher.options, state)
            analysis = analyze(
                game, state, searcher, common.limits(args), given=args.position, progress=told
            )
    finally:
        if live is not None:
            live.clear()
    result, interrupted, report = analysis.result, analysis.interrupted, analysis.report
    if result is None or report is None:
        streams.error(
            "interrupted before any move's value was known (with --time or --nodes the search "
            "deepens ply by ply and has a result to show sooner)"
        )
        return common.INTERRUPTED
    if interrupted:
        streams.error("interrupted: the best known so far follows")
    if args.json:
        streams.out.write(json.dumps(report.to_json(), indent=2) + "\n")
    else:
        show(streams, game, state, result, interrupted)
    return common.INTERRUPTED if interrupted else common.OK


def watch(args: argparse.Namespace, streams: Streams) -> render.LiveLine | None:
    """Where the search's progress goes: a live line on stderr when it is a terminal (or
    ``--progress``: a line each time), none with ``--no-progress`` or elsewhere."""
    wanted = args.progress if args.progress is not None else render.is_tty(streams.err)
    return render.LiveLine(streams.err) if wanted else None


#: The best moves that the text lists (a wide game may have thousands of equal ones).
BEST_SHOWN = 20


def show(
    streams: Streams, game: Game, state: State, result: SearchResult, interrupted: bool
) -> None:
    """The analysis as a board, a table of moves and the search figures."""
    out = streams.out
    color = render.is_tty(out)
    render.print_board(out, game.picture(state), color=color)
    label, labels = describe_result(result, state)
    if state.is_chance:  # the dice roll: every outcome, how likely, and what it is worth
        out.write(f"{player_name(state.to_move)} player to roll: {label}\n")
        likely = dict(state.chance_outcomes())
        rows = [[shown(state, m), f"{float(likely[m]):.4f}", text] for m, text in labels.items()]
        render.print_table(out, ["roll", "chance", "score"], rows, align="lrl", color=color)
    else:
        out.write(f"{player_name(state.to_move)} player to move: {label}\n")
        rows = []
        stats = result.move_stats or {}
        figures = [name for name in ("visits", "mean", "proof", "disproof")
                   if any(getattr(s, name) is not None for s in stats.values())]
        for move, text in labels.items():
            mark = "*" if move in result.best_moves else ""
            own = stats.get(move)
            extra = [_figure(getattr(own, name) if own is not None else None) for name in figures]
            rows.append([f"{mark}{shown(state, move)}", text, *extra])
        render.print_table(
            out, ["move", "score", *figures], rows, align="ll" + "r" * len(figures), color=color
        )
        best = "best" if result.complete else "best so far"
        moves = [shown(state, m) for m in result.best_moves[:BEST_SHOWN]]
        more = len(result.best_moves) - len(moves)
        tail = f" ... ({len(result.best_moves)} moves; --json lists them all)" if more > 0 else ""
        out.write(f"{best}: {joined(moves)}{tail}\n")
        line = joined(line_text(state, result.pv, labels=True))
        until = " (to the next roll)" if state.has_chance else ""
        out.write(f"principal variation{until}: {line}\n")
    if result.algorithm == "solver":
        out.write(
            f"{'solved' if result.complete else 'searched'} by the game's own solver in "
            f"{result.elapsed * 1000:.1f} ms"
            f"{stopped(result, interrupted)}\n"
        )
    else:
        counted = (
            f"{result.table_hits} table hits, {result.cutoffs} cut-offs, "
            if result.counts_cutoffs
            else ""
        )
        searcher = result.algorithm == "searcher"
        algorithm = "the game's own searcher" if searcher else result.algorithm
        out.write(
            f"{result.nodes} nodes, {counted}depth {result.depth}, "
            f"{result.elapsed * 1000:.1f} ms, {algorithm}{_kind(result)}"
            f"{stopped(result, interrupted)}\n"
        )


def _kind(result: SearchResult) -> str:
    """What a result's values are, when not exact: bounds (a proof search cut short knows
    only what it proved), or heuristic values."""
    if result.exact:
        return ""
    return ", bounds" if result.score_bounds is not None else ", heuristic"


def _figure(value: float | None) -> str:
    """An algorithm's figure for a move: a count, a mean to three places, or a proof number
    too large to matter (an infinite one: the question is settled) as 'inf'."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    return "inf" if value >= 1 << 40 else str(value)


def joined(moves: Sequence[str]) -> str:
    """Moves separated by spaces, or by commas when a move's text has a space (a backgammon
    play, ``6/2 4/off``)."""
    return (", " if any(" " in m for m in moves) else " ").join(moves)


def stopped(result: SearchResult, interrupted: bool) -> str:
    """Why the search ended early, if it did: Ctrl-C, or its limit."""
    if interrupted:
        return ", interrupted"
    return "" if result.complete else ", stopped at its limit"
