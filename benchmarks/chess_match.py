"""A match between our UCI engine and another (Sunfish, Stockfish at a low skill level): every
game's result and why it ended, a tally of the reasons per engine, the clocks' closest calls,
the score and an Elo difference with its error bar.

Usage (from the repository root)::

    python benchmarks/chess_match.py --opponent /tmp/sf/bin/sunfish-uci --games 40
    python benchmarks/chess_match.py --opponent /usr/games/stockfish --option "Skill Level=0" \\
        --games 10 --base 2 --inc 0.1

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
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

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

    def record(self, name: str, spent: float, left: float, depth: int | None, where: str) -> None:
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
    clocks: Clocks, number: int,
) -> Result:
    """One game from ``opening`` on both clocks."""
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
        )
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
    of the score mapped through the curve (infinite past a score of 0 or 1)."""

    def to_elo(p: float) -> float:
        if p <= 0:
            return -math.inf
        if p >= 1:
            return math.inf
        return -400 * math.log10(1 / p - 1) + 0.0  # never -0

    mean = statistics.fmean(scores)
    sd = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    p = min(max(mean, 1e-3), 1 - 1e-3)
    bar = 1.96 * sd * 400 / (math.log(10) * p * (1 - p))
    return to_elo(mean), bar, to_elo(mean - 1.96 * sd), to_elo(mean + 1.96 * sd)


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise SystemExit(f"--option wants NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", required=True, help="the other engine's UCI command")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for it")
    parser.add_argument("--ours", default=None, help="our engine's command")
    parser.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    parser.add_argument("--base", type=float, default=2.0, help="seconds on each clock")
    parser.add_argument("--inc", type=float, default=0.1, help="seconds added after each move")
    parser.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw here")
    parser.add_argument("--pgn", type=Path, default=None, help="write the games here")
    args = parser.parse_args()
    if args.games < 1 or args.base <= 0 or args.inc < 0:
        raise SystemExit("--games must be at least 1, --base positive, --inc not negative")
    ours = Player(US, args.ours.split() if args.ours else OURS, {})
    other_name = Path(args.opponent.split()[0]).name
    other = Player(other_name, args.opponent.split(), parse_options(args.option))
    other_name = other.engine.id.get("name", other_name)
    other.name = other_name if other_name != US else f"{US} (opponent)"
    settings = "".join(f" {name}={value}" for name, value in parse_options(args.option).items())
    print(
        f"{US} vs {other.name}{settings}: {args.games} games at "
        f"{args.base:g} s + {args.inc:g} s a move, openings of four plies, colours alternating, "
        f"draw at {args.max_plies} plies",
        flush=True,
    )
    print(f"load average at the start: {load()}", flush=True)
    clocks = Clocks()
    tally: dict[str, Counter[str]] = {US: Counter(), other.name: Counter(), "draw": Counter()}
    scores: list[float] = []
    board_scores: list[float] = []  # the games decided on the board
    pgn = open(args.pgn, "w", encoding="utf-8") if args.pgn else None  # noqa: SIM115
    try:
        for number in range(args.games):
            opening = OPENINGS[(number // 2) % len(OPENINGS)]
            we_are_white = number % 2 == 0
            white, black = (ours, other) if we_are_white else (other, ours)
            result = play(
                white, black, opening, args.base, args.inc, args.max_plies, clocks, number + 1
            )
            score = 1.0 if result.winner == US else 0.5 if result.winner is None else 0.0
            scores.append(score)
            if result.reason not in (TIME, ERROR):
                board_scores.append(score)
            tally[result.winner or "draw"][result.reason] += 1
            verdict = f"{result.winner} wins" if result.winner else "draw"
            print(
                f"game {number + 1:3d}  {US} {'white' if we_are_white else 'black'}  "
                f"[{opening}]  {score:g}  {verdict} by {result.reason}"
                f"{f' ({result.detail})' if result.detail else ''}, {result.board.ply()} plies",
                flush=True,
            )
            if pgn is not None:
                game = chess.pgn.Game.from_board(result.board)
                game.headers.update(
                    Event="chess_match.py", Round=str(number + 1), White=white.name,
                    Black=black.name, Termination=result.reason,
                    TimeControl=f"{args.base:g}+{args.inc:g}",
                )
                game.headers["Result"] = (
                    "1/2-1/2" if result.winner is None
                    else "1-0" if result.winner == white.name else "0-1"
                )
                print(game, file=pgn, end="\n\n", flush=True)
    finally:
        ours.close()
        other.close()
        if pgn is not None:
            pgn.close()
    report(tally, clocks, scores, other.name)
    if 0 < len(board_scores) < len(scores):
        diff, bar, _, _ = elo(board_scores)
        print(
            f"the {len(board_scores)} games decided on the board alone (no loss on time or "
            f"engine error): score {statistics.fmean(board_scores):.1%}, Elo {diff:+.0f} +/- "
            f"{bar:.0f}"
        )
    print(f"load average at the end: {load()}")


def report(
    tally: dict[str, Counter[str]], clocks: Clocks, scores: list[float], other: str
) -> None:
    print()
    print(f"{'why the games ended':30} {US + ' won':>16} {other + ' won':>16} {'drawn':>8}")
    for reason in REASON_ORDER + sorted(set().union(*tally.values()) - set(REASON_ORDER)):
        counts = [tally[US][reason], tally[other][reason], tally["draw"][reason]]
        if any(counts):
            print(f"{reason:30} {counts[0]:16d} {counts[1]:16d} {counts[2]:8d}")
    for name in (US, other):
        depths = clocks.depths.get(name, [])
        mean = clocks.spent.get(name, 0) / max(clocks.moves[name], 1)
        print(
            f"{name}: {sum(tally[o][TIME] for o in tally if o != name)} lost on time; "
            f"{clocks.moves[name]} moves, {mean:.3f} s "
            f"a move on average, the longest {clocks.longest.get(name, 0):.3f} s "
            f"({clocks.where.get(name, '-')}), "
            f"least left on the clock after a move {clocks.lowest.get(name, math.nan):.3f} s, "
            f"{clocks.near_misses[name]} moves left under {NEAR_MISS:g} s; "
            f"mean depth {statistics.fmean(depths) if depths else math.nan:.1f}"
        )
    wins, losses = sum(tally[US].values()), sum(tally[other].values())
    draws = sum(tally["draw"].values())
    diff, bar, low, high = elo(scores)
    print(
        f"{US} vs {other}: +{wins} ={draws} -{losses} of {len(scores)}, score "
        f"{statistics.fmean(scores):.1%}, Elo {diff:+.0f} +/- {bar:.0f} (95%; the score's "
        f"interval maps to {low:+.0f} .. {high:+.0f})"
    )


if __name__ == "__main__":
    main()
