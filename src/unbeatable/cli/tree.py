"""``unbeatable tree``: draw the search tree of a position, or print its steps."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from .. import render as screen
from ..drawing import growth_svg
from ..game import Game, State
from ..games import load_game
from ..growth import GROWTH_ALGORITHMS, Growth, grow_tree, growth_json
from ..messages import cut
from ..report import line_text
from ..steps import VIEWS, explain, step_json
from ..tree import (
    MAX_TREE_DEPTH,
    TREE_ALGORITHMS,
    GraphvizError,
    GraphvizMissingError,
    TreeTooLargeError,
    build_tree,
    format_value,
    render,
    to_dot,
    to_text,
    value_key,
)
from . import common
from .common import Streams, UsageError

TREE_LEGEND = (
    "▲ max (first player to move)  ▼ min (second)  □ game over  dotted: evaluated at the "
    "depth limit  dashed grey: pruned  red: principal variation"
)

STEPS_HELP = (
    "print the search's steps instead of a picture, one JSON object a line: the engine's own "
    "event (kind, path, alpha, beta, value, reason: its integers, null where a field does not "
    "apply), a text for people, and the numbers as the pictures write them (shown)"
)

#: The format each file suffix asks for.
SUFFIXES = {".svg": "svg", ".png": "png", ".txt": "text", ".dot": "dot", ".gv": "dot"}


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "tree",
        help="draw the search tree of a position (DOT, SVG, PNG or text)",
        description=(
            "Search POSITION to --depth plies and draw every node: max nodes (first player to "
            "move) point up, min nodes down, finished games are boxes and positions at the "
            "depth limit are dotted; values are from the first player's view, a win d plies "
            "below the root +(100 - d) and a loss -(100 - d), >= and <= mark bounds; each edge "
            "carries its move; moves alpha-beta never searched are dashed and grey; the "
            "principal variation is red. DOT goes to stdout or -o FILE; SVG and PNG need "
            "Graphviz's dot program. A --format that contradicts FILE's suffix (--format png "
            "-o t.svg) is refused. --steps prints the search step by step as JSON lines "
            "instead, the steps the web page shows. --algorithm mcts or pns grows a Monte "
            "Carlo or proof-number search's tree for --budget simulations or expansions "
            "instead (each node's visits and rewards, or proof and disproof numbers), as text, "
            "SVG or --steps."
        ),
        epilog=(
            "Example: unbeatable tree tictactoe 5137 --algorithm minimax -o tree.svg; "
            "and step by step: unbeatable tree 'leaves:[[3,5],[6,[9,1]],[1,2]]' --depth 3 "
            "--steps --textbook; a growing tree: unbeatable tree hex:3 --algorithm pns "
            "--budget 40 -o pns.svg"
        ),
    )
    common.add_game(p)
    p.add_argument("position", metavar="POSITION", nargs="?", default="", help="the position")
    p.add_argument(
        "--depth", type=common.positive_int, default=None, help="plies to search (default 2)"
    )
    p.add_argument(
        "--algorithm",
        choices=TREE_ALGORITHMS + GROWTH_ALGORITHMS,
        default="alphabeta",
        help="plain minimax (max/min form), negamax or alpha-beta (default alphabeta); or "
        "the tree a Monte Carlo tree search (mcts) or a proof-number search (pns) grows",
    )
    p.add_argument(
        "--budget",
        type=common.positive_int,
        default=None,
        metavar="N",
        help="mcts: simulations; pns: positions expanded (default 30, at most 2,000 steps)",
    )
    p.add_argument(
        "--hints",
        action="store_true",
        help="alpha-beta tries the game's move order and spots wins at once (as the solver "
        "does); default: legal order, the textbook picture",
    )
    p.add_argument(
        "--table",
        action="store_true",
        help="with a transposition table (memoization for minimax and negamax); a position "
        "it answers is a table hit",
    )
    p.add_argument(
        "--textbook",
        action="store_true",
        help="alpha-beta exactly as the textbook writes it: the root's window rises to the "
        "best value (one best move, not all) and no mate-distance cuts",
    )
    p.add_argument("--steps", action="store_true", help=STEPS_HELP)
    p.add_argument(
        "--view",
        choices=VIEWS,
        help="--steps: values from the first player's view (first, max/min) or the side to "
        "move's (mover); default mover for negamax, else first",
    )
    p.add_argument("--boards", action="store_true", help="draw each position in its node")
    p.add_argument(
        "--max-nodes",
        type=common.positive_int,
        default=500,
        metavar="N",
        help="refuse trees of more than N nodes (default 500)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    p.add_argument(
        "--format",
        choices=("dot", "svg", "png", "text"),
        help="default: from FILE's suffix, else dot",
    )
    p.set_defaults(handler=run)


def format_of(args: argparse.Namespace) -> str:
    """The format asked for: --format, else FILE's suffix, else dot. A --format that names
    another picture format than FILE's suffix is refused."""
    suffix = Path(args.output).suffix.lower() if args.output else ""
    implied = SUFFIXES.get(suffix)
    if args.format is None:
        return implied or "dot"
    if implied is not None and implied != args.format:
        raise UsageError(
            f"--format {args.format} but -o {cut(args.output)!r} is a {implied} file "
            f"name: use a .{args.format} name or --format {implied}"
        )
    return str(args.format)


def write(path: str, data: str | bytes) -> None:
    try:
        Path(path).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    except OSError as error:
        raise UsageError(f"cannot write {cut(path)!r}: {error.strerror}") from None


def run(args: argparse.Namespace, streams: Streams) -> int:
    game = load_game(args.game)
    state = common.parse_position(game, args.position)
    if state.outcome() is not None:
        raise common.game_over(state, args.position)
    if args.algorithm in GROWTH_ALGORITHMS:
        return run_growth(args, streams, game, state)
    if args.budget is not None:
        raise UsageError(f"--budget is for mcts and pns: {args.algorithm} searches to --depth")
    args.depth = args.depth or 2
    if args.hints and args.algorithm != "alphabeta":
        raise UsageError(
            f"--hints is alpha-beta's: {args.algorithm} searches every move in legal order"
        )
    if args.hints and args.textbook:
        raise UsageError("--textbook and --hints exclude each other: the textbook has no hints")
    if args.steps and args.format is not None:
        raise UsageError("--steps prints JSON lines: give no --format with it")
    if args.view is not None and not args.steps:
        raise UsageError("--view is for --steps")
    fmt = "steps" if args.steps else format_of(args)
    if fmt in ("svg", "png") and not args.output:
        raise UsageError(f"--format {fmt} writes a file: give -o FILE.{fmt}")
    where = repr(cut(args.position.strip())) if args.position.strip() else "the start"
    if args.depth > MAX_TREE_DEPTH:
        raise UsageError(f"--depth {args.depth}: no tree deeper than {MAX_TREE_DEPTH} is drawn")
    try:
        tree = build_tree(
            state,
            args.depth,
            args.algorithm,
            hints=args.hints,
            table=args.table,
            textbook=args.textbook,
            max_nodes=args.max_nodes,
        )
    except TreeTooLargeError:
        raise UsageError(
            f"the {args.algorithm} tree from {where} at depth {args.depth} has more than "
            f"{args.max_nodes} nodes: lower --depth, start from a later position, or raise "
            "--max-nodes"
        ) from None
    if fmt == "steps":
        steps = explain(tree, args.view)
        lines = [json.dumps(step_json(step), ensure_ascii=False) for step in steps]
        text = "\n".join(lines) + "\n"
        if args.output:
            write(args.output, text)
            streams.out.write(f"wrote {args.output}: {len(lines)} steps\n")
        else:
            streams.out.write(text)
        return common.OK
    pv = " ".join(line_text(state, tree.pv))
    summary = (
        f"{tree.nodes} nodes searched, {tree.pruned} pruned; value "
        f"{format_value(tree.root.value, scale=tree.scale)} for the first player; PV {pv}"
    )
    heading = f"{game.spec} from {where}, {args.algorithm} to depth {args.depth}: {summary}"
    if fmt == "text" and not args.output and screen.is_tty(streams.out):
        screen.print_search_tree(streams.out, tree, heading)
        return common.OK
    if fmt == "text":
        text = heading + "\n" + to_text(tree)
    else:
        extra = " with move hints" if args.hints else ""
        extra += " with a table" if args.table else ""
        extra += " (textbook)" if args.textbook else ""
        title = (
            f"{game.spec} from {where}: {args.algorithm} to depth {args.depth}{extra}"
            f"\n{summary}\n{TREE_LEGEND}\n{value_key(tree.scale, numeric=tree.numeric)}"
        )
        text = to_dot(tree, title=title, board=game.picture if args.boards else None)
    return emit(args, streams, fmt, text, summary)


def run_growth(args: argparse.Namespace, streams: Streams, game: Game, state: State) -> int:
    """The tree a Monte Carlo or proof-number search grows (:mod:`unbeatable.growth`): its
    steps as JSON lines, or the tree as text or SVG."""
    alien = [
        name for name, given in (
            ("--depth", args.depth is not None), ("--hints", args.hints),
            ("--table", args.table), ("--textbook", args.textbook),
            ("--view", args.view is not None), ("--boards", args.boards),
        ) if given
    ]
    if alien:
        raise UsageError(
            f"{alien[0]} is for minimax, negamax and alpha-beta: {args.algorithm} grows its "
            "tree for --budget simulations or expansions"
        )
    if args.steps and args.format is not None:
        raise UsageError("--steps prints JSON lines: give no --format with it")
    fmt = "steps" if args.steps else (format_of(args) if args.format or args.output else "text")
    if fmt in ("dot", "png"):
        raise UsageError(
            f"{args.algorithm} trees are drawn as text or SVG (-o tree.svg), not {fmt}"
        )
    if fmt == "svg" and not args.output:
        raise UsageError("--format svg writes a file: give -o FILE.svg")
    growth = grow_tree(state, args.algorithm, args.budget or 30, max_nodes=args.max_nodes)
    where = repr(cut(args.position.strip())) if args.position.strip() else "the start"
    heading = f"{game.spec} from {where}, {args.algorithm}: {growth.summary}"
    if fmt == "steps":
        data = growth_json(growth)
        lines = [json.dumps(step, ensure_ascii=False) for step in data["steps"]]
        text = "\n".join(lines) + "\n"
        summary = f"{len(lines)} steps"
    elif fmt == "svg":
        text = str(growth_svg(growth, title=heading))
        summary = growth.summary
    else:
        text = heading + "\n" + growth_text(growth)
        summary = growth.summary
    if args.output:
        write(args.output, text)
        streams.out.write(f"wrote {args.output}: {summary}\n")
    else:
        streams.out.write(text)
    return common.OK


def growth_text(growth: Growth) -> str:
    """A grown tree as indented lines: each node's move, label and mark."""
    lines: list[str] = []

    def walk(ident: int, indent: int) -> None:
        node = growth.nodes[ident]
        name = node.move or "(root)"
        mark = f"  {node.mark}" if node.mark else ""
        lines.append(f"{'  ' * indent}{name}  {node.label or '-'}{mark}")
        for child in node.children:
            walk(child, indent + 1)

    walk(0, 0)
    return "\n".join(lines) + "\n"


def emit(args: argparse.Namespace, streams: Streams, fmt: str, text: str, summary: str) -> int:
    """Write the drawing where it was asked for (drawing it with Graphviz for SVG and PNG)."""
    if fmt in ("dot", "text"):
        if args.output:
            write(args.output, text)
            streams.out.write(f"wrote {args.output}: {summary}\n")
        else:
            streams.out.write(text)
        return common.OK
    try:
        # drawn aside, then written as any output is: a path that cannot be written is the
        # user's error (exit 2), not Graphviz's
        with tempfile.TemporaryDirectory() as folder:
            drawn = Path(folder) / f"tree.{fmt}"
            render(text, fmt, drawn)
            write(args.output, drawn.read_bytes())
    except GraphvizMissingError as error:
        dot_path = str(Path(args.output).with_suffix(".dot"))
        write(dot_path, text)
        streams.error(
            f"{error}, so wrote {dot_path}; install Graphviz and run: "
            f"dot -T{fmt} {dot_path} -o {args.output}"
        )
        return common.FAILED
    except GraphvizError as error:
        streams.error(str(error))
        return common.FAILED
    streams.out.write(f"wrote {args.output}: {summary}\n")
    return common.OK
