"""A match between our UCI engine and another (Sunfish, Stockfish at an ``UCI_Elo``, or our own
engine with other options): every game's result and why it ended, a tally of the reasons per
engine (losses on time and engine errors, the forfeits, apart), the clocks' closest calls, the
score and an Elo difference with its 95 % interval; a fixed number of games, or a sequential
probability ratio test (SPRT) that stops once it has decided.

Usage (from the repository root)::

    python benchmarks/chess_match.py --opponent /tmp/sf/bin/sunfish-uci --games 100 \\
        --base 10 --inc 0.1 --record benchmarks/results/match-sunfish.jsonl
    python benchmarks/chess_match.py --opponent /usr/games/stockfish --option Threads=1 \\
        --option Hash=16 --option UCI_LimitStrength=true --option UCI_Elo=2400 \\
        --games 100 --base 10 --inc 0.1 --record benchmarks/results/match-sf2400.jsonl
    # our engine on two threads against itself on one, until an SPRT decides (0 vs +20 Elo)
    python benchmarks/chess_match.py --opponent "python -m unbeatable.uci" --option Threads=1 \\
        --our-option Threads=2 --sprt 0 20 --games 400 --record benchmarks/results/threads.jsonl

``--record FILE`` keeps every game (one JSON line: its result, reason, plies, opening, the
load average when it ended) after a first line of the match's settings: run the same command
again and the match resumes after the last recorded game (a match with other settings is
refused), so a long match can run across sittings; the report counts every recorded game.
``--report`` prints the report of a record without playing (from its own settings: ``--record
FILE --report`` alone); ``--also FILE`` (repeatable) counts the games of more records of the
same match (the same opponent, options and clock; refused otherwise) in that report, as one.
``--nodes N`` plays every move to N nodes instead of on clocks (fixed-node matches, to decide
an evaluation term without the machine's load in the result). ``--openings FILE`` plays the
openings of a file (one a line, its moves in UCI from the start;
``benchmarks/data/openings-8ply.txt`` holds 300, from ``chess_openings.py``) instead of the 32
below: at fixed nodes the same opening played twice is the same game, so a longer match needs
more openings. ``--jobs N`` plays N games at a time, each between its own pair of engine
processes (for fixed-node matches; on clocks the games would take each other's CPU).

Protocol: both engines are whole processes speaking UCI through python-chess's client, each
with its own clock: ``--base`` seconds plus ``--inc`` a move, sent as ``go wtime btime winc
binc``. A move's time is the wall-clock time from sending the position to reading the
``bestmove``, as a tournament manager counts it (the pipe, the client and the engine's own
start-up are the engine's to pay for). An engine whose clock goes below zero loses on time,
and the match says by how much. Openings are the first four plies of common openings, each
played once with each colour (game 1 has us White, game 2 Black, ...). A game ends by the rules
(checkmate, stalemate, threefold repetition and the fifty-move rule claimed at once,
insufficient material), on time, by an engine's error (a crash or an illegal move: a loss), or
is adjudicated a draw at ``--max-plies``.

Our engine is run from this checkout (its ``src`` first on ``PYTHONPATH``).

On a shared machine a match on clocks measures the CPU its engines get. Give them the CPU:
run the match at a higher priority than the other work (``nice -n -10``, or the others at
``nice -n 19``). With the kernel's autogroup scheduling on (``/proc/sys/kernel/
sched_autogroup_enabled`` 1, the default of many distributions) a process's nice counts only
within its own session: each session gets an equal share whatever its nice. On 2 cores beside
three sessions of niced work, Stockfish lost 14 of 15 games on time (2026-11-25); with
autogroup off but a ``perf record`` sampling another process, 11 of 13, and our engine 1.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))

from uci_engines import OURS, Engine, load

US = "unbeatable"

#: The first four plies of common openings (UCI), each played once with each colour.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6",  # open game
    "d2d4 d7d5 c2c4 e7e6",  # Queen's Gambit Declined
    "e2e4 c7c5 g1f3 d7d6",  # Sicilian
    "c2c4 e7e5 b1c3 g8f6",  # English
    "e2e4 e7e6 d2d4 d7d5",  # French
    "d2d4 g8f6 c2c4 g7g6",  # King's Indian / Grünfeld
    "e2e4 c7c6 d2d4 d7d5",  # Caro-Kann
    "d2d4 d7d5 c2c4 c7c6",  # Slav
    "g1f3 d7d5 g2g3 g8f6",  # Réti
    "d2d4 g8f6 c2c4 e7e6",  # Nimzo / Queen's Indian
    "e2e4 d7d5 e4d5 d8d5",  # Scandinavian
    "d2d4 f7f5 g2g3 g8f6",  # Dutch
    "e2e4 g8f6 e4e5 f6d5",  # Alekhine
    "e2e4 e7e5 f2f4 e5f4",  # King's Gambit
    "e2e4 d7d6 d2d4 g8f6",  # Pirc
    "d2d4 d7d5 c2c4 d5c4",  # Queen's Gambit Accepted
    "e2e4 g7g6 d2d4 f8g7",  # Modern
    "c2c4 c7c5 g1f3 b8c6",  # symmetrical English
    "e2e4 e7e5 g1f3 g8f6",  # Petrov
    "d2d4 g8f6 c2c4 c7c5",  # Benoni
    "b2b3 e7e5 c1b2 b8c6",  # Larsen
    "e2e4 c7c5 b1c3 b8c6",  # closed Sicilian
    "f2f4 d7d5 g1f3 g8f6",  # Bird
    "e2e4 e7e5 b1c3 g8f6",  # Vienna
    "d2d4 d7d5 g1f3 g8f6",  # queen's pawn
    "e2e4 c7c5 c2c3 g8f6",  # Alapin
    "e2e4 e7e5 g1f3 d7d6",  # Philidor
    "g2g3 e7e5 f1g2 d7d5",  # King's fianchetto
    "d2d4 g8f6 g1f3 g7g6",  # King's Indian, quiet
    "e2e4 b8c6 d2d4 d7d5",  # Nimzowitsch
    "c2c4 e7e6 b1c3 d7d5",  # English, QGD style
    "d2d4 e7e6 c2c4 f8b4",  # Bogo-Indian style
]

REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "fifty-move rule",
    chess.Termination.FIFTY_MOVES: "fifty-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "threefold repetition",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}
TIME = "loss on time"
ERROR = "engine error"
CAP = "ply cap (adjudicated draw)"
REASON_ORDER = [
    "checkmate", TIME, ERROR, "stalemate", "threefold repetition", "fifty-move rule",
    "insufficient material", CAP,
]

#: A move that leaves less than this on the clock is a near miss.
NEAR_MISS = 0.1


@dataclass
class Clocks:
    """Each engine's time use over the match."""

    lowest: dict[str, float] = field(default_factory=dict)  # the least left after a move
    longest: dict[str, float] = field(default_factory=dict)  # the longest move
    where: dict[str, str] = field(default_factory=dict)  # the longest move's game and ply
    near_misses: Counter[str] = field(default_factory=Counter)
    moves: Counter[str] = field(default_factory=Counter)
    spent: dict[str, float] = field(default_factory=dict)  # seconds in all
    depths: dict[str, list[int]] = field(default_factory=dict)

    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, name: str, spent: float, left: float, depth: int | None, where: str) -> None:
        with self.lock:
            self._record(name, spent, left, depth, where)

    def _record(self, name: str, spent: float, left: float, depth: int | None, where: str) -> None:
        self.lowest[name] = min(self.lowest.get(name, math.inf), left)
        if spent > self.longest.get(name, 0.0):
            self.longest[name] = spent
            self.where[name] = where
        self.near_misses[name] += 0 <= left < NEAR_MISS
        self.moves[name] += 1
        self.spent[name] = self.spent.get(name, 0.0) + spent
        if depth is not None:
            self.depths.setdefault(name, []).append(depth)


@dataclass
class Result:
    """One game: the winner's name (None for a draw), why it ended and the moves."""

    winner: str | None
    reason: str
    board: chess.Board
    detail: str = ""


class Player(Engine):
    """An engine process under a name (see :class:`uci_engines.Engine`)."""


def play(
    white: Player, black: Player, opening: str, base: float, inc: float, max_plies: int,
    clocks: Clocks, number: int, nodes: int | None = None,
) -> Result:
    """One game from ``opening`` on both clocks (or, with ``nodes``, each move searched to
    that many nodes: no clock, nothing lost on time)."""
    board = chess.Board()
    for move in opening.split():
        board.push_uci(move)
    clock = {chess.WHITE: base, chess.BLACK: base}
    players = {chess.WHITE: white, chess.BLACK: black}
    game = object()  # a new key: python-chess sends ``ucinewgame`` before the first move
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            winner = None if outcome.winner is None else players[outcome.winner].name
            return Result(winner, REASONS.get(outcome.termination, str(outcome.termination)), board)
        if board.ply() >= max_plies:
            return Result(None, CAP, board)
        side = board.turn
        player, other = players[side], players[not side]
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
            white_inc=inc, black_inc=inc,
        ) if nodes is None else chess.engine.Limit(nodes=nodes)
        start = time.perf_counter()
        try:
            played = player.engine.play(board, limit, game=game, info=chess.engine.INFO_BASIC)
        except (chess.engine.EngineError, concurrent.futures.TimeoutError) as err:
            spent = time.perf_counter() - start
            player.restart()
            if spent > clock[side]:  # hung past its clock
                late = spent - clock[side]
                return Result(other.name, TIME, board, f"{player.name} by {late:.3f} s")
            return Result(other.name, ERROR, board, f"{player.name}: {type(err).__name__}: {err}")
        spent = time.perf_counter() - start
        if nodes is None:
            clock[side] -= spent
        depth = played.info.get("depth")
        clocks.record(
            player.name, spent, clock[side], depth if isinstance(depth, int) else None,
            f"game {number}, ply {board.ply() + 1}, {clock[side] + spent:.3f} s on the clock",
        )
        if clock[side] < 0:
            return Result(
                other.name, TIME, board,
                f"{player.name} by {-clock[side]:.3f} s (move took {spent:.3f} s)",
            )
        if played.move is None or not board.is_legal(played.move):
            player.restart()
            return Result(other.name, ERROR, board, f"{player.name} played {played.move}")
        clock[side] += inc
        board.push(played.move)


def elo(scores: list[float]) -> tuple[float, float, float, float]:
    """The Elo difference of a mean score; its 95% error bar (the scores' own spread, draws
    included, times the slope of the logistic curve there); and the ends of the 95% interval
    of the score mapped through the curve (infinite past a score of 0 or 1). Every game won
    (or every game lost) has no spread to measure: the interval is then the exact binomial one
    (Clopper-Pearson: n wins of n put the chance of a win at least 0.025 ** (1 / n)), and the
    error bar is infinite."""

    def to_elo(p: float) -> float:
        if p <= 0:
            return -math.inf
        if p >= 1:
            return math.inf
        return -400 * math.log10(1 / p - 1) + 0.0  # never -0

    mean = statistics.fmean(scores)
    n = len(scores)
    if mean in (0.0, 1.0):
        bound = 0.025 ** (1 / n)
        if mean == 1.0:
            return math.inf, math.inf, to_elo(bound), math.inf
        return -math.inf, math.inf, -math.inf, to_elo(1 - bound)
    sd = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    p = min(max(mean, 1e-3), 1 - 1e-3)
    bar = 1.96 * sd * 400 / (math.log(10) * p * (1 - p))
    return to_elo(mean), bar, to_elo(mean - 1.96 * sd), to_elo(mean + 1.96 * sd)


def sprt(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (Elo ``elo1``) against H0 (Elo ``elo0``) after these
    games, by the normal approximation of the trinomial model (the GSPRT that fishtest's
    first version used): the mean score and its variance from the games, the two hypotheses'
    expected scores from the logistic curve."""
    n = wins + draws + losses
    if n == 0 or wins + losses == 0 or draws == n:
        return 0.0
    mean = (wins + draws / 2) / n
    variance = (wins + draws / 4) / n - mean**2
    if variance <= 0:
        return 0.0

    def expected(diff: float) -> float:
        return 1 / (1 + 10 ** (-diff / 400))

    s0, s1 = expected(elo0), expected(elo1)
    return (s1 - s0) * (2 * mean - s0 - s1) * n / (2 * variance)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The LLR bounds of an SPRT with error rates ``alpha`` (accepting H1 when H0 holds) and
    ``beta``: below the first H0 is accepted, above the second H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def load_numbers() -> list[float]:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except OSError:
        return []


class Record:
    """The match's record file: a first line of settings, then one line per game."""

    def __init__(self, path: Path | None, settings: dict[str, object]) -> None:
        self.path = path
        self.games: list[dict[str, object]] = []
        if path is None:
            return
        if path.exists() and path.stat().st_size:
            first, self.games = read_record(path)
            if first != settings:
                raise SystemExit(
                    f"{path} records another match: {first}; these settings are {settings} "
                    "(choose another --record file)"
                )
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(settings) + "\n", encoding="utf-8")

    def add(self, game: dict[str, object]) -> None:
        self.games.append(game)
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(game) + "\n")

    def played(self) -> set[int]:
        """The numbers of the games recorded (with ``--jobs`` they may finish out of order)."""
        return {int(g["game"]) for g in self.games}  # type: ignore[call-overload]


def read_record(path: Path) -> tuple[dict[str, object], list[dict[str, object]]]:
    """A record file's settings (its first line; none in an empty file) and its games."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines:
        return {}, []
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def read_openings(path: Path) -> list[str]:
    """The openings of a file: one a line, moves in UCI from the start (``#`` comments)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise SystemExit(f"--openings {path}: {err.strerror}") from None
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        board = chess.Board()
        try:
            for move in line.split():
                board.push_uci(move)
        except ValueError:
            raise SystemExit(f"--openings {path}, line {number}: not legal moves: {line}") from None
        openings.append(line)
    if not openings:
        raise SystemExit(f"--openings {path}: no opening in it")
    return openings


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise SystemExit(f"--option wants NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--opponent", help="the other engine's UCI command (not needed with --report)"
    )
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for it")
    parser.add_argument("--ours", default=None, help="our engine's command")
    parser.add_argument(
        "--our-option", action="append", default=[], help="NAME=VALUE for our engine"
    )
    parser.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    parser.add_argument("--base", type=float, default=2.0, help="seconds on each clock")
    parser.add_argument("--inc", type=float, default=0.1, help="seconds added after each move")
    parser.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw here")
    parser.add_argument(
        "--nodes", type=int, default=None, help="every move searched to N nodes (no clocks)"
    )
    parser.add_argument(
        "--openings", type=Path, default=None, help="a file of openings (UCI moves a line)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    parser.add_argument("--pgn", type=Path, default=None, help="write the games here")
    parser.add_argument(
        "--record", type=Path, default=None, help="keep every game here; resume from it"
    )
    parser.add_argument(
        "--report", action="store_true", help="print the report of --record without playing"
    )
    parser.add_argument(
        "--also", type=Path, action="append", default=[],
        help="with --report: the games of another record of the same match too",
    )  # fmt: skip
    parser.add_argument(
        "--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"), default=None,
        help="stop when an SPRT (5%% errors each way) decides between these Elo differences",
    )  # fmt: skip
    return parser.parse_args()


class Match:
    """The games of a match, played one or ``--jobs`` at a time (each job with its own pair of
    engines), recorded and printed as they end."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.openings = OPENINGS if args.openings is None else read_openings(args.openings)
        self.theirs, self.mine = parse_options(args.option), parse_options(args.our_option)
        settings: dict[str, object] = {
            "opponent": args.opponent, "options": self.theirs, "ours": args.ours,
            "our_options": self.mine, "base": args.base, "inc": args.inc,
            "max_plies": args.max_plies,
        }  # fmt: skip
        if args.nodes is not None:
            settings["nodes"] = args.nodes
        if args.openings is not None:
            settings["openings"] = args.openings.name
        self.record = Record(args.record, settings)
        self.clocks = Clocks()
        self.lock = threading.Lock()  # the record, the printing, the PGN file, the pairs
        self.local = threading.local()
        self.pairs: list[tuple[Player, Player]] = []  # every pair started
        self.spare: list[tuple[Player, Player]] = []  # started, not yet taken by a job
        self.pgn: TextIO | None = None

    def players(self) -> tuple[Player, Player]:
        """A new pair of engines: ours and the opponent."""
        args = self.args
        ours = Player(US, args.ours.split() if args.ours else OURS, self.mine)
        name = Path(args.opponent.split()[0]).name
        other = Player(name, args.opponent.split(), self.theirs)
        name = other.engine.id.get("name", name)
        other.name = name if name != US else f"{US} (opponent)"
        with self.lock:
            self.pairs.append((ours, other))
        return ours, other

    def run(self) -> None:
        args = self.args
        ours, other = self.players()
        self.spare.append((ours, other))
        described = "".join(f" {name}={value}" for name, value in self.theirs.items())
        our_settings = "".join(f" {name}={value}" for name, value in self.mine.items())
        pace = f"{args.base:g} s + {args.inc:g} s a move" if args.nodes is None else (
            f"{args.nodes} nodes a move"
        )
        openings = "openings of four plies" if args.openings is None else (
            f"the {len(self.openings)} openings of {args.openings.name}"
        )
        print(
            f"{US}{our_settings} vs {other.name}{described}: {args.games} games at "
            f"{pace}, {openings}, colours alternating, draw at {args.max_plies} plies"
            + (f", SPRT {args.sprt[0]:g} vs {args.sprt[1]:g} Elo" if args.sprt else "")
            + (f", {args.jobs} games at a time" if args.jobs > 1 else ""),
            flush=True,
        )
        if self.record.games:
            print(
                f"resuming after the {len(self.record.games)} games recorded in {args.record}"
            )
        print(f"load average at the start: {load()}", flush=True)
        self.pgn = open(args.pgn, "a", encoding="utf-8") if args.pgn else None  # noqa: SIM115
        played = self.record.played()
        todo = [n for n in range(args.games) if n + 1 not in played]
        try:
            if args.jobs == 1:
                for number in todo:
                    if not self.one(number):
                        break
            else:
                with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                    for future in [pool.submit(self.one, number) for number in todo]:
                        future.result()
        finally:
            for us, them in self.pairs:
                us.close()
                them.close()
            if self.pgn is not None:
                self.pgn.close()
        if self.clocks.moves:
            print()
            times(self.clocks, other.name)
        summarize(self.record.games, args.sprt, other.name)
        print(f"load average at the end: {load()}")

    def one(self, number: int) -> bool:
        """Play game ``number`` (from 0) with this job's engines; False once an SPRT has
        decided (the game is not played)."""
        args = self.args
        with self.lock:
            if args.sprt and decided(self.record.games, args.sprt):
                return False
            pair = getattr(self.local, "pair", None) or (self.spare.pop() if self.spare else None)
        if pair is None:
            pair = self.players()
        self.local.pair = pair
        us, them = pair
        opening = self.openings[(number // 2) % len(self.openings)]
        we_are_white = number % 2 == 0
        white, black = (us, them) if we_are_white else (them, us)
        started = time.time()
        result = play(
            white, black, opening, args.base, args.inc, args.max_plies, self.clocks, number + 1,
            args.nodes,
        )
        score = 1.0 if result.winner == US else 0.5 if result.winner is None else 0.0
        with self.lock:
            self.record.add(
                {
                    "game": number + 1, "white": white.name, "black": black.name,
                    "opening": opening, "score": score,
                    "winner": "us" if result.winner == US else result.winner and "them",
                    "reason": result.reason, "detail": result.detail,
                    "plies": result.board.ply(), "seconds": round(time.time() - started, 1),
                    "ended": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
                    "load": load_numbers(),
                }
            )  # fmt: skip
            verdict = f"{result.winner} wins" if result.winner else "draw"
            print(
                f"game {number + 1:3d}  {US} {'white' if we_are_white else 'black'}  "
                f"[{opening}]  {score:g}  {verdict} by {result.reason}"
                f"{f' ({result.detail})' if result.detail else ''}, {result.board.ply()} plies, "
                f"load {load()}",
                flush=True,
            )
            if self.pgn is not None:
                self.write_pgn(result, number, white.name, black.name)
        return True

    def write_pgn(self, result: Result, number: int, white: str, black: str) -> None:
        assert self.pgn is not None
        game = chess.pgn.Game.from_board(result.board)
        game.headers.update(
            Event="chess_match.py", Round=str(number + 1), White=white, Black=black,
            Termination=result.reason, TimeControl=f"{self.args.base:g}+{self.args.inc:g}",
        )  # fmt: skip
        game.headers["Result"] = (
            "1/2-1/2" if result.winner is None else "1-0" if result.winner == white else "0-1"
        )
        print(game, file=self.pgn, end="\n\n", flush=True)


def main() -> None:
    args = arguments()
    if args.report:  # the record's own settings: no need to repeat them
        if args.record is None or not args.record.exists():
            raise SystemExit("--report wants an existing --record file")
        summarize(recorded_games(args.record, args.also), args.sprt)
        return
    if args.also:
        raise SystemExit("--also goes with --report")
    if args.opponent is None:
        raise SystemExit("--opponent is needed to play a match")
    if args.games < 1 or args.base <= 0 or args.inc < 0 or args.jobs < 1:
        raise SystemExit(
            "--games and --jobs must be at least 1, --base positive, --inc not negative"
        )
    Match(args).run()


def recorded_games(record: Path, also: list[Path]) -> list[dict[str, object]]:
    """The games of ``record`` and of each of ``also``, whose first lines (the settings: the
    opponent, both engines' options, the clock) must all be ``record``'s; our engine's command
    is not compared, since it names a snapshot of the tree that differs from one sitting to the
    next."""
    settings, games = read_record(record)
    settings.pop("ours", None)
    for path in also:
        if not path.is_file():
            raise SystemExit(f"--also {path}: no such record")
        head, more = read_record(path)
        head.pop("ours", None)
        if head != settings:
            raise SystemExit(f"--also {path}: another match's record (its settings differ)")
        games += more
    return games


def decided(games: list[dict[str, object]], bounds: list[float]) -> bool:
    """Whether an SPRT between the Elo differences ``bounds`` has decided after ``games``."""
    wins, draws, losses = _wdl(games)
    low, high = sprt_bounds()
    llr = sprt(wins, draws, losses, bounds[0], bounds[1])
    return not low < llr < high


def _wdl(games: list[dict[str, object]]) -> tuple[int, int, int]:
    scores = [float(g["score"]) for g in games]  # type: ignore[arg-type]
    return scores.count(1.0), scores.count(0.5), scores.count(0.0)


def summarize(
    games: list[dict[str, object]], bounds: list[float] | None, other: str = "the opponent"
) -> None:
    """The tally of why the games ended (forfeits apart), the score, the Elo difference with
    its 95 % interval, the SPRT's verdict, and the load averages of the games."""
    if not games:
        print("no game played yet")
        return
    tally: dict[str, Counter[str]] = {"us": Counter(), "them": Counter(), "draw": Counter()}
    for g in games:
        tally[str(g["winner"]) if g["winner"] else "draw"][str(g["reason"])] += 1
    print()
    print(f"{'why the games ended':30} {US + ' won':>16} {other + ' won':>16} {'drawn':>8}")
    seen = set().union(*tally.values())
    for reason in REASON_ORDER + sorted(seen - set(REASON_ORDER)):
        counts = [tally["us"][reason], tally["them"][reason], tally["draw"][reason]]
        if any(counts):
            print(f"{reason:30} {counts[0]:16d} {counts[1]:16d} {counts[2]:8d}")
    scores = [float(g["score"]) for g in games]  # type: ignore[arg-type]
    wins, draws, losses = _wdl(games)
    diff, bar, low, high = elo(scores)
    print(
        f"{US} vs {other}: +{wins} ={draws} -{losses} of {len(scores)}, score "
        f"{statistics.fmean(scores):.1%}, Elo {diff:+.0f} +/- {bar:.0f} (95%; the score's "
        f"interval maps to {low:+.0f} .. {high:+.0f})"
    )
    forfeits = [g for g in games if g["reason"] in (TIME, ERROR)]
    if forfeits:
        board = [float(g["score"]) for g in games if g not in forfeits]  # type: ignore[arg-type]
        lost = sum(1 for g in forfeits if g["winner"] == "them")
        print(
            f"forfeits: {len(forfeits)} ({lost} by {US}); the {len(board)} games decided on "
            "the board alone: "
            + (
                f"score {statistics.fmean(board):.1%}, Elo {elo(board)[0]:+.0f} +/- "
                f"{elo(board)[1]:.0f}"
                if board else "none"
            )
        )  # fmt: skip
    if bounds:
        llr = sprt(wins, draws, losses, bounds[0], bounds[1])
        lo, hi = sprt_bounds()
        verdict = (
            f"H1 accepted (at least {bounds[1]:g})" if llr >= hi
            else f"H0 accepted (at most {bounds[0]:g})" if llr <= lo
            else "undecided"
        )  # fmt: skip
        print(f"SPRT {bounds[0]:g} vs {bounds[1]:g} Elo: LLR {llr:.2f} ({lo:.2f}, {hi:.2f}): "
              f"{verdict}")  # fmt: skip
    loads = [float(g["load"][0]) for g in games if g.get("load")]  # type: ignore[index]
    if loads:
        first, last = games[0].get("ended"), games[-1].get("ended")
        print(
            f"load average (1 min) as the games ended: mean {statistics.fmean(loads):.2f}, "
            f"{min(loads):.2f} to {max(loads):.2f}; games ended {first} to {last} UTC"
        )


def times(clocks: Clocks, other: str) -> None:
    """Each engine's time use in this sitting."""
    for name in (US, other):
        depths = clocks.depths.get(name, [])
        mean = clocks.spent.get(name, 0) / max(clocks.moves[name], 1)
        print(
            f"{name}: {clocks.moves[name]} moves in this sitting, {mean:.3f} s "
            f"a move on average, the longest {clocks.longest.get(name, 0):.3f} s "
            f"({clocks.where.get(name, '-')}), "
            f"least left on the clock after a move {clocks.lowest.get(name, math.nan):.3f} s, "
            f"{clocks.near_misses[name]} moves left under {NEAR_MISS:g} s; "
            f"mean depth {statistics.fmean(depths) if depths else math.nan:.1f}"
        )


if __name__ == "__main__":
    main()
