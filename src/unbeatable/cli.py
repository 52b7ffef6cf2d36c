"""The command line: a thin layer over the library. ``main(argv) -> exit code``.

Every user error (unknown game, bad position, bad move, bad option, missing file) is one line on
stderr and exit code 2; no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any, NoReturn

from .game import Game, GameError, Move, State
from .games import get_game, registered
from .players import AIPlayer
from .search import ALGORITHMS, Limits, Score, Searcher, SearchResult, solve, solve_score
from .search.parallel import ParallelSearcher, ParallelSearchError

__all__ = ["main", "run"]

PROG = "unbeatable"


class UsageError(Exception):
    """A wrong option or argument: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


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
        help="play against the AI in the terminal (or from a pipe)",
        description="Play against the AI. Type a move, or: hint, undo, quit.",
        epilog="Example: printf '5\\n1\\n9\\n' | unbeatable play tictactoe --human x",
    )
    _add_game(p)
    p.add_argument(
        "--human",
        default="first",
        help="the side you play: first/x or second/o (default first)",
    )
    p.add_argument("--position", default="", help="start from this position")
    _add_search_options(p)
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
    if bad or mismatched:
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


def describe(score: Score, state: State | None = None) -> str:
    text = str(score)
    if state is not None and score.exact and state.max_plies is not None:
        text += f" [{solve_score(state, score):+d}]" if score.value else " [0]"
    return text


def analysis_json(game: Game, state: State, result: SearchResult) -> dict[str, Any]:
    """The JSON form of an analysis (schema in the README)."""
    scores = result.move_scores or {}
    return {
        "game": game.spec,
        "position": game.format_position(state),
        "to_move": "first" if state.to_move == 0 else "second",
        "score": _score_json(state, result.score),
        "best_moves": [state.move_text(m) for m in result.best_moves],
        "moves": [
            {"move": state.move_text(m), **_score_json(state, s), "best": m in result.best_moves}
            for m, s in scores.items()
        ],
        "pv": _line_text(state, result.pv),
        "nodes": result.nodes,
        "table_hits": result.table_hits,
        "cutoffs": result.cutoffs,
        "depth": result.depth,
        "seconds": round(result.elapsed, 6),
        "exact": result.exact,
        "complete": result.complete,
        "algorithm": result.algorithm,
    }


def _score_json(state: State, score: Score) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": score.kind, "text": str(score), "value": score.value}
    if score.plies is not None:
        data["plies"] = score.plies
    if score.exact and state.max_plies is not None:
        data["solve_score"] = solve_score(state, score)
    return data


def _line_text(state: State, moves: Iterable[Move]) -> list[str]:
    texts = []
    for move in moves:
        texts.append(state.move_text(move))
        state = state.play(move)
    return texts


def cmd_analyze(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    game = get_game(args.game)
    state = game.parse_position(args.position)
    if state.outcome() is not None:
        raise GameError(f"the game is over in {args.position!r}: {state.outcome()}")
    parallel = _parallel(args)
    if parallel is not None:
        with parallel:
            result = parallel.search(state, _limits(args), analyse=True)
    else:
        result = _searcher(args).search(state, _limits(args), analyse=True)
    if args.json:
        out.write(json.dumps(analysis_json(game, state, result), indent=2) + "\n")
        return 0
    out.write(game.picture(state) + "\n")
    side = "first" if state.to_move == 0 else "second"
    out.write(f"{side} player to move: {describe(result.score, state)}\n")
    for move, score in (result.move_scores or {}).items():
        mark = "*" if move in result.best_moves else " "
        out.write(f" {mark} {state.move_text(move):>4}  {describe(score, state)}\n")
    out.write(f"best: {' '.join(state.move_text(m) for m in result.best_moves)}\n")
    out.write(f"principal variation: {' '.join(_line_text(state, result.pv))}\n")
    out.write(
        f"{result.nodes} nodes, {result.table_hits} table hits, {result.cutoffs} cut-offs, "
        f"depth {result.depth}, {result.elapsed * 1000:.1f} ms"
        f"{'' if result.exact else ', heuristic'}{'' if result.complete else ', interrupted'}\n"
    )
    return 0


def _side(text: str) -> int:
    side = text.strip().lower()
    if side in ("first", "x", "1"):
        return 0
    if side in ("second", "o", "2"):
        return 1
    raise UsageError(f"--human {text!r}: choose first (x) or second (o)")


def cmd_play(args: argparse.Namespace, out: IO[str], err: IO[str], inp: IO[str]) -> int:
    game = get_game(args.game)
    human = _side(args.human)
    history = [game.parse_position(args.position)]
    ai = AIPlayer(_limits(args), _searcher(args))
    out.write(
        f"{game.spec}: you play {'first' if human == 0 else 'second'}; "
        "type a move, hint, undo or quit\n"
    )
    while True:
        state = history[-1]
        out.write(game.picture(state) + "\n")
        outcome = state.outcome()
        if outcome is not None:
            verdict = (
                "draw"
                if outcome.winner is None
                else ("you win" if outcome.winner == human else "the AI wins")
            )
            out.write(f"game over: {verdict}\n")
            return 0
        if state.to_move != human:
            move = ai.choose(state)
            assert ai.last is not None
            out.write(f"AI plays {state.move_text(move)} ({ai.last.score})\n")
            history.append(state.play(move))
            continue
        out.write("your move: ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\nend of input: game left unfinished\n")
            return 0
        text = line.strip()
        if not inp.isatty():
            out.write(text + "\n")
        if text == "quit":
            return 0
        if text == "hint":
            result = Searcher(args.algorithm).search(state, _limits(args), analyse=True)
            best = ", ".join(state.move_text(m) for m in result.best_moves)
            out.write(f"best: {best} ({result.score})\n")
            continue
        if text == "undo":
            while len(history) > 1:
                history.pop()
                if history[-1].to_move == human:
                    break
            continue
        try:
            history.append(state.play_text(text))
        except GameError as error:
            out.write(f"{error}; try again\n")


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
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(out)
            return 2
        if args.command == "solve":
            return cmd_solve(args, out, err, inp)
        if args.command == "analyze":
            return cmd_analyze(args, out, err)
        if args.command == "play":
            return cmd_play(args, out, err, inp)
        raise UsageError(f"unknown command {args.command!r}")
    except (UsageError, ValueError) as error:
        print(f"{PROG}: error: {error}", file=err)
        return 2
    except ParallelSearchError as error:
        print(f"{PROG}: error: {error}", file=err)
        return 3
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=err)
        return 130
    except BrokenPipeError:
        return 0


def run() -> NoReturn:
    """The console script."""
    sys.exit(main())
