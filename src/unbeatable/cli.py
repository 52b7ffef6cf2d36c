"""The command line: a thin layer over the library. ``main(argv) -> exit code``.

Every user error (unknown game, bad position, bad move, bad option, missing file) is one line on
stderr and exit code 2; no traceback. Ctrl-C stops a command cleanly with exit code 130, after
printing what it has (the deepest completed iteration of a search, the games of a match so far).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from . import render
from .bench import BENCH_POSITIONS, BenchResult, run_bench
from .game import Game, GameError, Move, State, player_name
from .games import get_game, registered
from .players import PLAYER_SPECS, MatchRecord, parse_player, play_match
from .report import build_report, describe, line_text
from .search import ALGORITHMS, Limits, Searcher, SearchResult, solve
from .search.parallel import ParallelSearcher, ParallelSearchError
from .tree import (
    MAX_TREE_DEPTH,
    TREE_ALGORITHMS,
    TreeTooLargeError,
    build_tree,
    format_value,
    to_dot,
    to_text,
)

__all__ = ["build_parser", "main", "run"]

PROG = "unbeatable"

#: A node budget no search reaches: it makes the library deepen one ply at a time (so that an
#: interrupted exact search still has its last completed iteration) without ever stopping it.
_DEEPEN = 1 << 62

#: Exit code after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


class UsageError(Exception):
    """A wrong option or argument: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # argparse gives an optional positional (solve's FILE) its default as soon as the
        # positionals before it are read, so 'solve GAME --weak FILE' left FILE unrecognized.
        parsed, extras = super().parse_known_args(args, namespace)
        assert parsed is not None
        one_more = len(extras) == 1 and (not extras[0].startswith("-") or extras[0] == "-")
        if getattr(parsed, "file", None) == "-" and one_more:
            parsed.file = extras.pop()
        return parsed, extras


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return value


def _pause(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 to 60 seconds")
    return value


def _add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help="a registered game, with parameters if any: tictactoe, mnk:4,4,4, connect4 ...",
    )


def _add_search_options(parser: argparse.ArgumentParser, *, limits: bool = True) -> None:
    if limits:
        parser.add_argument("--depth", type=_positive_int, help="search at most D plies deep")
        parser.add_argument("--time", type=_positive_float, help="search at most T seconds")
        parser.add_argument("--nodes", type=_positive_int, help="visit at most N positions")
    parser.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        help="the search algorithm (default: alpha-beta with a table, or the game's own solver)",
    )
    parser.add_argument(
        "--table-size",
        type=_positive_int,
        default=1 << 20,
        metavar="N",
        help="transposition table entries (default 1048576)",
    )


def _searcher(args: argparse.Namespace) -> Searcher:
    return Searcher(args.algorithm, table_size=args.table_size)


def _add_parallel_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help="search in parallel in N local worker processes",
    )
    group.add_argument(
        "--mpi",
        action="store_true",
        help="search in parallel on MPI ranks; run under "
        "'mpiexec -n RANKS python -m mpi4py.futures -m unbeatable ...' (one rank manages)",
    )


def _parallel(args: argparse.Namespace) -> ParallelSearcher | None:
    """The parallel searcher that --workers or --mpi ask for, or None."""
    if args.mpi:
        try:
            from mpi4py.futures import MPIPoolExecutor
        except ImportError:
            raise UsageError("--mpi needs mpi4py: pip install 'unbeatable[mpi]'") from None
        return ParallelSearcher(
            executor=MPIPoolExecutor(),
            own_executor=True,
            algorithm=args.algorithm,
            table_size=args.table_size,
        )
    if args.workers is not None:
        return ParallelSearcher(args.workers, algorithm=args.algorithm, table_size=args.table_size)
    return None


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(depth=args.depth, time=args.time, nodes=args.nodes)


def build_parser() -> argparse.ArgumentParser:
    games = "; ".join(f"{name}: {text}" for name, text in registered().items())
    parser = _Parser(
        prog=PROG,
        description="Perfect play for two-player zero-sum games. Games: " + games,
        epilog="Example: echo 5193 | unbeatable solve tictactoe",
    )
    parser.add_argument("--version", action="version", version="unbeatable 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "solve",
        help="print the exact score of each position read, one per line",
        description=(
            "Read positions one per line (POSITION or POSITION SCORE) and print 'POSITION SCORE'. "
            "SCORE: 0 a draw; if the side to move wins with the stone it places when n stones "
            "are on the board, (cells + 1 - n) // 2; the negation for a loss. A line that "
            "carries a score is checked and a mismatch reported. Bad lines are reported on "
            "stderr and the others still solved; the exit code is 2 if any line was bad, "
            "1 if any score mismatched, else 0."
        ),
        epilog="Example: printf '5\\n12 3\\n' | unbeatable solve tictactoe",
    )
    _add_game(p)
    p.add_argument("file", nargs="?", default="-", metavar="FILE", help="positions (default stdin)")
    p.add_argument("--weak", action="store_true", help="print only 1 (win), 0 (draw), -1 (loss)")
    _add_search_options(p, limits=False)
    _add_parallel_options(p)

    p = sub.add_parser(
        "analyze",
        help="score every legal move of a position",
        description="Every legal move with its score, the best moves, the principal variation "
        "and the search figures. Exact unless a limit is given.",
        epilog="Example: unbeatable analyze tictactoe 51 --json",
    )
    _add_game(p)
    p.add_argument("position", metavar="POSITION", nargs="?", default="", help="the position")
    p.add_argument("--json", action="store_true", help="print one JSON object (see README)")
    _add_search_options(p)
    _add_parallel_options(p)

    p = sub.add_parser(
        "play",
        help="play against the AI in the terminal (or from a pipe), or watch it play itself",
        description=(
            "Play against the AI: type a move (a cell, a column, a number of tokens...), or "
            "hint (the best moves with their scores), moves, undo, new, help or quit. "
            "The AI plays perfectly unless --depth, --time or --nodes limits it; Ctrl-C while "
            "it thinks makes it play the best move found so far. Input may come from a pipe."
        ),
        epilog="Example: printf '5\\n1\\n9\\n' | unbeatable play tictactoe --human x",
    )
    _add_game(p)
    p.add_argument(
        "--human",
        default="first",
        help="the side you play: first/x or second/o (default first)",
    )
    p.add_argument("--position", default="", help="start from this position")
    p.add_argument("--demo", action="store_true", help="watch the AI play both sides")
    p.add_argument(
        "--delay",
        type=_pause,
        default=None,
        metavar="SECONDS",
        help="pause between demo moves (default 0.5 on a terminal, else 0)",
    )
    p.add_argument("--seed", type=int, help="break ties between equally good moves at random")
    _add_search_options(p)

    p = sub.add_parser(
        "tree",
        help="draw the search tree of a position (DOT, SVG, PNG or text)",
        description=(
            "Search POSITION to --depth plies and draw every node: max nodes (first player to "
            "move) point up, min nodes down, finished games are boxes and positions at the "
            "depth limit are dotted; values are from the first player's view, >= and <= mark "
            "bounds; each edge carries its move; moves alpha-beta never searched are dashed "
            "and grey; the principal variation is red. DOT goes to stdout or -o FILE; SVG and "
            "PNG need Graphviz's dot program."
        ),
        epilog="Example: unbeatable tree tictactoe 5137 --algorithm minimax -o tree.svg",
    )
    _add_game(p)
    p.add_argument("position", metavar="POSITION", nargs="?", default="", help="the position")
    p.add_argument("--depth", type=_positive_int, default=2, help="plies to search (default 2)")
    p.add_argument(
        "--algorithm",
        choices=TREE_ALGORITHMS,
        default="alphabeta",
        help="plain minimax or alpha-beta (default alphabeta)",
    )
    p.add_argument(
        "--hints",
        action="store_true",
        help="alpha-beta tries the game's move order and spots wins at once (as the solver "
        "does); default: legal order, the textbook picture",
    )
    p.add_argument("--boards", action="store_true", help="draw each position in its node")
    p.add_argument(
        "--max-nodes",
        type=_positive_int,
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

    p = sub.add_parser(
        "match",
        help="play N games between two players and tabulate the results",
        description=(
            "Play N games between players A and B, alternating who starts, and print wins, "
            f"draws, losses and the average time per move of each. A player is {PLAYER_SPECS}. "
            "Ties between equally good moves are broken at random from --seed (printed, so a "
            "match can be repeated)."
        ),
        epilog="Example: unbeatable match perfect random --game tictactoe -n 20 --seed 7",
    )
    p.add_argument("player_a", metavar="A", help="the first player, e.g. perfect or depth:3")
    p.add_argument("player_b", metavar="B", help="the second player, e.g. random or time:0.1")
    p.add_argument("--game", default="tictactoe", help="the game (default tictactoe)")
    p.add_argument("-n", "--games", type=_positive_int, default=10, help="games (default 10)")
    p.add_argument("--seed", type=int, help="the random seed (default: a random one)")
    p.add_argument("--position", default="", help="start every game from this position")

    p = sub.add_parser(
        "bench",
        help="search fixed positions; print nodes, time and the node-count signature",
        description=(
            "Search a fixed set of positions at fixed depths and print each one's nodes and "
            "time, then the node total: a signature that changes only when the search visits "
            "different nodes (time varies from run to run; the signature must not)."
        ),
        epilog="Example: unbeatable bench",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


# --- commands ------------------------------------------------------------------------------


def _open(path: str, stdin: IO[str]) -> IO[str]:
    if path == "-":
        return stdin
    try:
        return open(path, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot read {path!r}: {err.strerror}") from None


def cmd_solve(args: argparse.Namespace, out: IO[str], err: IO[str], inp: IO[str]) -> int:
    game = get_game(args.game)
    searcher = _searcher(args)
    parallel = _parallel(args)
    stream = _open(args.file, inp)
    bad = mismatched = solved = 0
    pending: list[tuple[int, str, State, int | None]] = []  # read, to be solved in parallel

    def write(number: int, text: str, score: int, expected: int | None) -> None:
        nonlocal solved, mismatched
        solved += 1
        out.write(f"{text} {score}\n")
        out.flush()
        if expected is not None:
            agree = (expected > 0) - (expected < 0) == score if args.weak else expected == score
            if not agree:
                mismatched += 1
                print(
                    f"{PROG}: line {number}: {text}: expected {expected}, solved {score}",
                    file=err,
                )

    try:
        for number, raw in enumerate(stream, start=1):
            line = raw.strip()
            if not line:
                continue
            tokens = line.split()
            try:
                if len(tokens) > 2:
                    raise GameError(f"expected POSITION or POSITION SCORE, got {line!r}")
                state = game.parse_position(tokens[0])
                expected = _parse_score(tokens[1]) if len(tokens) == 2 else None
                if parallel is not None:
                    pending.append((number, tokens[0], state, expected))
                    continue
                score = solve(state, weak=args.weak, searcher=searcher)
            except GameError as error:
                print(f"{PROG}: line {number}: {error}", file=err)
                bad += 1
                continue
            write(number, tokens[0], score, expected)
        if parallel is not None:
            # Many positions: one worker per position; a few: each searched by all workers.
            states = [state for _, _, state, _ in pending]
            if len(states) >= 2 * parallel.workers:
                scores: Iterable[int] = parallel.solve_many(states, weak=args.weak)
            else:
                scores = (parallel.solve(state, weak=args.weak) for state in states)
            for (number, text, _, expected), score in zip(pending, scores, strict=True):
                write(number, text, score, expected)
    finally:
        if stream is not inp:
            stream.close()
        if parallel is not None:
            parallel.close()
    if (bad or mismatched) and solved + bad > 1:
        print(
            f"{PROG}: {solved} positions solved, {mismatched} mismatched, {bad} bad lines",
            file=err,
        )
    return 2 if bad else 1 if mismatched else 0


def _parse_score(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise GameError(f"score {text!r} is not a whole number", text=text) from None


def analysis_json(
    game: Game, state: State, result: SearchResult, *, interrupted: bool = False, given: str = ""
) -> dict[str, Any]:
    """The JSON form of an analysis (:data:`unbeatable.report.SCHEMA`, also in docs/cli.md)."""
    return build_report(game, state, result, interrupted=interrupted, given=given).to_json()


def _search_limits(state: State, searcher: Searcher | ParallelSearcher, limits: Limits) -> Limits:
    """The limits to search with: with none given, deepen one ply at a time until the value is
    exact (so that Ctrl-C leaves a completed iteration to report), unless the game's own
    solver answers."""
    if limits != Limits():
        return limits
    if state.has_solver and searcher.algorithm is None and searcher.evaluate is None:
        return limits
    return Limits(nodes=_DEEPEN)


def _search(
    searcher: Searcher | ParallelSearcher, state: State, limits: Limits, *, analyse: bool
) -> tuple[SearchResult | None, bool]:
    """The last completed iteration of a search, and whether Ctrl-C cut the search short."""
    last: SearchResult | None = None
    try:
        for result in searcher.iterate(
            state, _search_limits(state, searcher, limits), analyse=analyse
        ):
            last = result
    except KeyboardInterrupt:
        return last, True
    return last, False


def _game_over(state: State, given: str) -> GameError:
    return GameError(f"the game is over in {given.strip()!r}: {state.outcome()}", text=given)


def cmd_analyze(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    game = get_game(args.game)
    state = game.parse_position(args.position)
    if state.outcome() is not None:
        raise _game_over(state, args.position)
    parallel = _parallel(args)
    if parallel is not None:
        with parallel:
            result, interrupted = _search(parallel, state, _limits(args), analyse=True)
    else:
        result, interrupted = _search(_searcher(args), state, _limits(args), analyse=True)
    if result is None:
        print(f"{PROG}: interrupted before the first iteration completed", file=err)
        return INTERRUPTED
    if interrupted:
        print(f"{PROG}: interrupted: the deepest completed iteration follows", file=err)
    if args.json:
        data = analysis_json(game, state, result, interrupted=interrupted, given=args.position)
        out.write(json.dumps(data, indent=2) + "\n")
        return INTERRUPTED if interrupted else 0
    render.print_board(out, game.picture(state), color=render.is_tty(out))
    depth = None if result.exact else result.depth
    out.write(
        f"{player_name(state.to_move)} player to move: {describe(result.score, state, depth)}\n"
    )
    rows = []
    for move, score in (result.move_scores or {}).items():
        mark = "*" if move in result.best_moves else ""
        rows.append([f"{mark}{state.move_text(move)}", describe(score, state, depth)])
    render.print_table(out, ["move", "score"], rows, align="ll", color=render.is_tty(out))
    out.write(f"best: {' '.join(state.move_text(m) for m in result.best_moves)}\n")
    out.write(f"principal variation: {' '.join(line_text(state, result.pv))}\n")
    if result.algorithm == "solver":
        out.write(f"solved by the game's own solver in {result.elapsed * 1000:.1f} ms\n")
    else:
        out.write(
            f"{result.nodes} nodes, {result.table_hits} table hits, {result.cutoffs} cut-offs, "
            f"depth {result.depth}, {result.elapsed * 1000:.1f} ms, {result.algorithm}"
            f"{'' if result.exact else ', heuristic'}"
            f"{', interrupted' if interrupted or not result.complete else ''}\n"
        )
    return INTERRUPTED if interrupted else 0


# --- play ------------------------------------------------------------------------------------


def _side(text: str) -> int:
    side = text.strip().lower()
    if side in ("first", "x", "1"):
        return 0
    if side in ("second", "o", "2"):
        return 1
    raise UsageError(f"--human {text!r}: choose first (x) or second (o)")


def _strength(limits: Limits) -> str:
    parts = []
    if limits.depth is not None:
        parts.append(f"depth {limits.depth}")
    if limits.time is not None:
        parts.append(f"{limits.time:g} s a move")
    if limits.nodes is not None:
        parts.append(f"{limits.nodes} nodes")
    return ", ".join(parts) if parts else "perfect play"


#: How long the AI searches for a move when Ctrl-C stopped a search that had nothing to show.
QUICK_MOVE_SECONDS = 1.0

#: With more plies than this left, a game's own solver may be slow (Connect Four's opening).
SLOW_SOLVER_PLIES = 30

#: A search of this many nodes that does not settle the start's value warns of slow play.
PROBE_NODES = 20_000

PLAY_HELP = (
    "a move (as the board numbers it), or: hint (best moves and scores), moves (the legal "
    "moves), undo (take back your last move), new (start again), help, quit"
)


class _Play:
    """One play session: the history of positions, the AI and the screen."""

    def __init__(self, args: argparse.Namespace, out: IO[str], inp: IO[str]) -> None:
        self.game = get_game(args.game)
        self.start = self.game.parse_position(args.position)
        if self.start.outcome() is not None:
            raise _game_over(self.start, args.position)
        rng = random.Random(args.seed) if args.seed is not None else None
        self.searcher = Searcher(args.algorithm, table_size=args.table_size, rng=rng)
        self.limits = _limits(args)
        self.out = out
        self.inp = inp
        self.interactive = render.is_tty(inp)
        # Colours and the spinner only for a person at a terminal, not for a scripted game.
        self.color = render.is_tty(out) and (self.interactive or args.demo)
        self.history = [self.start]

    def warn_if_slow(self) -> None:
        """Perfect play by plain search can take minutes a move: when a short search of the
        start does not settle its value, say so."""
        state = self.start
        if self.limits != Limits():
            return
        if _search_limits(state, self.searcher, self.limits) == self.limits:
            # The game's own solver: it cannot be probed, nor stopped until it returns.
            left = state.max_plies - state.ply if state.max_plies is not None else None
            if left is None or left > SLOW_SOLVER_PLIES:
                self.out.write(
                    "note: the game's own solver can take minutes a move this early, and Ctrl-C "
                    "reaches it only when it returns; --time SECONDS limits the AI\n"
                )
            return
        if not self.searcher.search(state, Limits(nodes=PROBE_NODES)).exact:
            self.out.write(
                "note: perfect play of this game can take minutes a move; Ctrl-C makes the AI "
                "play its best move so far, --time SECONDS limits it\n"
            )

    def board(self, state: State) -> None:
        render.print_board(self.out, self.game.picture(state), color=self.color)

    def think(self, state: State) -> tuple[Move, SearchResult]:
        if self.color:
            with render.console(self.out).status("thinking..."):
                result, interrupted = _search(self.searcher, state, self.limits, analyse=False)
        else:
            result, interrupted = _search(self.searcher, state, self.limits, analyse=False)
        if interrupted and result is None:
            # The game's own solver (or the first iteration) was cut short: move at once, by a
            # short bounded search instead.
            self.out.write(f"interrupted: the best move of a {QUICK_MOVE_SECONDS:g} s search\n")
            result = self.searcher.search(state, Limits(time=QUICK_MOVE_SECONDS))
        elif interrupted and result is not None:
            self.out.write(f"interrupted: the best move of depth {result.depth}\n")
        assert result is not None and result.move is not None
        return result.move, result

    def demo(self, delay: float) -> int:
        out = self.out
        out.write(f"{self.game.spec}: the AI ({_strength(self.limits)}) plays both sides\n")
        self.warn_if_slow()
        state = self.start
        while state.outcome() is None:
            self.board(state)
            move, result = self.think(state)
            who = player_name(state.to_move)
            out.write(f"{who} plays {state.move_text(move)} ({who}: {describe(result.score)})\n")
            out.flush()
            state = state.play(move)
            if delay > 0:
                time.sleep(delay)
        self.board(state)
        out.write(f"game over: {state.outcome()}\n")
        return 0

    def hint(self, state: State) -> None:
        result, interrupted = _search(self.searcher, state, self.limits, analyse=True)
        if result is None:
            self.out.write("hint interrupted before any result\n")
            return
        depth = None if result.exact else result.depth
        best = " ".join(state.move_text(m) for m in result.best_moves)
        self.out.write(f"best for you: {best} ({describe(result.score, None, depth)})\n")
        scores = result.move_scores or {}
        others = [f"{state.move_text(m)} {s}" for m, s in scores.items()]
        self.out.write(f"all moves: {', '.join(others)}{' (interrupted)' if interrupted else ''}\n")

    def undo(self, human: int) -> bool:
        """Back to before the human's last move; False when there is none."""
        history = self.history
        for index in range(len(history) - 2, -1, -1):
            if history[index].to_move == human:
                del history[index + 1 :]
                return True
        return False

    def run(self, human: int) -> int:
        out, game = self.out, self.game
        you = player_name(human)
        tip = "; Ctrl-C while it thinks makes it move at once" if self.limits == Limits() else ""
        out.write(
            f"{game.spec}: you play {you} against the AI ({_strength(self.limits)}{tip}). "
            f"Type {PLAY_HELP}.\n"
        )
        self.warn_if_slow()
        show = True
        while True:
            state = self.history[-1]
            outcome = state.outcome()
            if outcome is None and state.to_move != human:
                move, result = self.think(state)
                out.write(f"AI plays {state.move_text(move)} (AI: {describe(result.score)})\n")
                self.history.append(state.play(move))
                show = True
                continue
            if show:
                self.board(state)
                if outcome is not None:
                    winner = outcome.winner
                    verdict = (
                        "draw"
                        if winner is None
                        else "you win"
                        if winner == human
                        else "the AI wins"
                    )
                    out.write(f"game over: {verdict}. Type new, undo or quit.\n")
                show = False
            out.write("> " if outcome is not None else f"your move ({you}): ")
            out.flush()
            line = self.inp.readline()
            if not line:
                if outcome is None:
                    out.write("\nend of input: game left unfinished\n")
                else:
                    out.write("\n")
                return 0
            text = line.strip()
            if not self.interactive:
                out.write(text + "\n")
            command = text.lower()
            if not command:
                continue
            if command in ("quit", "q", "exit"):
                return 0
            if command in ("help", "?"):
                out.write(f"type {PLAY_HELP}\n")
            elif command == "moves":
                moves = " ".join(state.move_text(m) for m in state.legal_moves())
                out.write(f"legal moves: {moves or 'none'}\n")
            elif command == "new":
                self.history = [self.start]
                out.write("new game\n")
                show = True
            elif command == "undo":
                if self.undo(human):
                    show = True
                else:
                    out.write("nothing to undo\n")
            elif outcome is not None:
                out.write(f"the game is over ({outcome}): type new, undo or quit\n")
            elif command == "hint":
                self.hint(state)
            else:
                try:
                    self.history.append(state.play_text(text))
                    show = True
                except GameError as error:
                    out.write(f"{error}; try again (or type help)\n")


def cmd_play(args: argparse.Namespace, out: IO[str], err: IO[str], inp: IO[str]) -> int:
    session = _Play(args, out, inp)
    if args.demo:
        delay = args.delay if args.delay is not None else (0.5 if session.color else 0.0)
        return session.demo(delay)
    return session.run(_side(args.human))


# --- tree ------------------------------------------------------------------------------------

TREE_LEGEND = (
    "▲ max (first player to move)  ▼ min (second)  □ game over  dotted: evaluated at the "
    "depth limit  dashed grey: pruned  red: principal variation"
)


def _format_of(args: argparse.Namespace) -> str:
    if args.format is not None:
        return str(args.format)
    suffix = Path(args.output).suffix.lower() if args.output else ""
    return {".svg": "svg", ".png": "png", ".txt": "text"}.get(suffix, "dot")


def _write(path: str, data: str | bytes) -> None:
    try:
        if isinstance(data, bytes):
            Path(path).write_bytes(data)
        else:
            Path(path).write_text(data, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path!r}: {error.strerror}") from None


def cmd_tree(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    game = get_game(args.game)
    state = game.parse_position(args.position)
    if state.outcome() is not None:
        raise _game_over(state, args.position)
    fmt = _format_of(args)
    if fmt in ("svg", "png") and not args.output:
        raise UsageError(f"--format {fmt} writes a file: give -o FILE.{fmt}")
    where = repr(args.position.strip()) if args.position.strip() else "the start"
    if args.depth > MAX_TREE_DEPTH:
        raise UsageError(f"--depth {args.depth}: no tree deeper than {MAX_TREE_DEPTH} is drawn")
    try:
        tree = build_tree(
            state, args.depth, args.algorithm, hints=args.hints, max_nodes=args.max_nodes
        )
    except TreeTooLargeError:
        raise UsageError(
            f"the {args.algorithm} tree from {where} at depth {args.depth} has more than "
            f"{args.max_nodes} nodes: lower --depth, start from a later position, or raise "
            "--max-nodes"
        ) from None
    pv = " ".join(line_text(state, tree.pv))
    summary = (
        f"{tree.nodes} nodes searched, {tree.pruned} pruned; value "
        f"{format_value(tree.root.value).replace(chr(10), ', ')} for the first player; PV {pv}"
    )
    if fmt == "text":
        heading = f"{game.spec} from {where}, {args.algorithm} to depth {args.depth}: {summary}"
        if not args.output and render.is_tty(out):
            render.print_search_tree(out, tree, heading)
            return 0
        text = heading + "\n" + to_text(tree)
    else:
        title = (
            f"{game.spec} from {where}: {args.algorithm} to depth {args.depth}"
            f"{' with move hints' if args.hints else ''}\n{summary}\n{TREE_LEGEND}"
        )
        text = to_dot(tree, title=title, board=game.picture if args.boards else None)
    if fmt in ("dot", "text"):
        if args.output:
            _write(args.output, text)
            out.write(f"wrote {args.output}: {summary}\n")
        else:
            out.write(text)
        return 0
    program = shutil.which("dot")
    if program is None:
        dot_path = str(Path(args.output).with_suffix(".dot"))
        _write(dot_path, text)
        print(
            f"{PROG}: Graphviz's dot is not installed, so wrote {dot_path}; install Graphviz "
            f"(e.g. apt-get install graphviz) and run: dot -T{fmt} {dot_path} -o {args.output}",
            file=err,
        )
        return 1
    done = subprocess.run(
        [program, f"-T{fmt}", "-o", args.output], input=text.encode(), capture_output=True
    )
    if done.returncode != 0:
        why = (done.stderr.decode(errors="replace").strip().splitlines() or ["failed"])[0]
        print(f"{PROG}: dot could not draw {args.output}: {why}", file=err)
        return 1
    out.write(f"wrote {args.output}: {summary}\n")
    return 0


# --- match -----------------------------------------------------------------------------------


class _Tally:
    def __init__(self, label: str) -> None:
        self.label = label
        self.wins = self.draws = self.losses = self.moves = 0
        self.seconds = 0.0

    def row(self) -> list[str]:
        games = self.wins + self.draws + self.losses
        average = f"{self.seconds / self.moves * 1000:.2f}" if self.moves else "-"
        points = f"{(self.wins + self.draws / 2) / games * 100:.0f}%" if games else "-"
        return [
            self.label,
            str(games),
            str(self.wins),
            str(self.draws),
            str(self.losses),
            points,
            average,
        ]


def cmd_match(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    game = get_game(args.game)
    start = game.parse_position(args.position)
    if start.outcome() is not None:
        raise _game_over(start, args.position)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    master = random.Random(seed)
    players = [
        parse_player(args.player_a, random.Random(master.getrandbits(64))),
        parse_player(args.player_b, random.Random(master.getrandbits(64))),
    ]
    same = players[0].name == players[1].name
    tallies = [
        _Tally(f"{tag}: {p.name}" if same else p.name) for tag, p in zip("AB", players, strict=True)
    ]
    out.write(
        f"{game.spec}: {players[0].name} vs {players[1].name}, {args.games} games, "
        f"seed {seed} (repeat with --seed {seed})\n"
    )
    out.flush()
    interrupted = False
    try:
        with render.progress(err, args.games, "match") as bar:
            for number in range(args.games):
                a_side = (start.to_move + number) % 2
                sides = (0, 1) if a_side == 0 else (1, 0)  # sides[i]: the side player i plays
                seats = (players[0], players[1]) if a_side == 0 else (players[1], players[0])
                record = play_match(start, *seats)
                _score_game(record, start, sides, tallies)
                bar.advance()
    except KeyboardInterrupt:
        interrupted = True
        print(f"{PROG}: interrupted: the games finished so far follow", file=err)
    render.print_table(
        out,
        ["player", "games", "wins", "draws", "losses", "score", "ms/move"],
        [t.row() for t in tallies],
        color=render.is_tty(out),
    )
    return INTERRUPTED if interrupted else 0


def _score_game(
    record: MatchRecord, start: State, sides: tuple[int, int], tallies: list[_Tally]
) -> None:
    assert record.outcome is not None
    winner = record.outcome.winner
    for index, side in enumerate(sides):
        tally = tallies[index]
        if winner is None:
            tally.draws += 1
        elif winner == side:
            tally.wins += 1
        else:
            tally.losses += 1
        for ply, seconds in enumerate(record.times):
            if (start.to_move + ply) % 2 == side:
                tally.moves += 1
                tally.seconds += seconds


# --- bench -----------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    results: list[BenchResult] = []
    interrupted = False
    try:
        with render.progress(err, len(BENCH_POSITIONS), "bench") as bar:

            def done(result: BenchResult) -> None:
                results.append(result)
                bar.advance()

            run_bench(on_result=done)
    except KeyboardInterrupt:
        interrupted = True
        print(f"{PROG}: interrupted after {len(results)} positions", file=err)
    total = sum(r.nodes for r in results)
    seconds = sum(r.seconds for r in results)
    if args.json:
        data = {
            "positions": [
                {
                    "game": r.position.game,
                    "position": r.position.position,
                    "depth": r.position.depth,
                    "algorithm": r.position.algorithm,
                    "table": r.position.table,
                    "nodes": r.nodes,
                    "seconds": round(r.seconds, 6),
                    "score": str(r.score),
                }
                for r in results
            ],
            "signature": total,
            "seconds": round(seconds, 6),
            "complete": not interrupted,
        }
        out.write(json.dumps(data, indent=2) + "\n")
        return INTERRUPTED if interrupted else 0
    rows = [
        [
            r.position.label,
            str(r.nodes),
            f"{r.seconds * 1000:.1f}",
            f"{r.nodes / r.seconds / 1000:.0f}" if r.seconds > 0 else "-",
            str(r.score),
        ]
        for r in results
    ]
    render.print_table(
        out, ["position", "nodes", "ms", "knodes/s", "score"], rows, color=render.is_tty(out)
    )
    rate = f", {total / seconds / 1000:.0f} knodes/s" if seconds > 0 else ""
    out.write(
        f"signature: {total} nodes in {seconds:.2f} s{rate}"
        f"{' (interrupted: incomplete)' if interrupted else ''}\n"
    )
    return INTERRUPTED if interrupted else 0


# --- entry point -----------------------------------------------------------------------------

COMMANDS: dict[str, Callable[..., int]] = {
    "analyze": cmd_analyze,
    "tree": cmd_tree,
    "match": cmd_match,
    "bench": cmd_bench,
}


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    stdin: IO[str] | None = None,
) -> int:
    """Run the command line with ``argv``; return the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    inp = stdin or sys.stdin
    parser = build_parser()
    try:
        try:
            with contextlib.redirect_stdout(out):  # --help and --version write to ``out``
                args = parser.parse_args(argv)
        except SystemExit as done:
            return done.code if isinstance(done.code, int) else 0
        if args.command is None:
            parser.print_help(out)
            return 2
        if args.command == "solve":
            return cmd_solve(args, out, err, inp)
        if args.command == "play":
            return cmd_play(args, out, err, inp)
        command = COMMANDS.get(args.command)
        if command is None:
            raise UsageError(f"unknown command {args.command!r}")
        return command(args, out, err)
    except (UsageError, ValueError) as error:
        print(f"{PROG}: error: {_one_line(error)}", file=err)
        return 2
    except ParallelSearchError as error:
        print(f"{PROG}: error: {error}", file=err)
        return 3
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=err)
        return INTERRUPTED
    except BrokenPipeError:
        return 0


def run() -> NoReturn:
    """The console script."""
    sys.exit(main())
