"""A UCI engine: ``unbeatable uci`` (or ``python -m unbeatable.uci``) speaks the Universal Chess
Interface on stdin and stdout, so that any chess GUI or tournament manager can play it.

The search is the library's (:class:`unbeatable.search.Searcher`), which for chess asks the
game's own searcher: the compiled engine (:mod:`unbeatable.games.chess.searcher`), through the
policy (:func:`unbeatable.search.policy.uses_searcher`). Its kernels are built (compiled the
first time, loaded from numba's cache after) before the first ``readyok``.

Commands: ``uci``, ``isready``, ``ucinewgame``, ``setoption name NAME [value VALUE]`` (the
options of :data:`OPTIONS`: ``Hash``, ``Threads``, ``MultiPV``; others are ignored, as the
protocol asks), ``position startpos|fen FEN [moves ...]``, ``go`` (``wtime btime winc binc
movestogo``, ``movetime``, ``depth``, ``nodes``, ``infinite``; ``go perft N`` counts the legal
move sequences of N plies, root move by root move), ``stop``, ``quit``, and ``bench [DEPTH]``
(the engine's node-count signature, as Stockfish's ``bench``). The search runs on a thread, so
``stop`` is heard at once; every completed iteration prints an ``info`` line per line of
``MultiPV``, the end a ``bestmove``: every ``go`` is answered with one, since a GUI waits for it.

A command the engine cannot follow is answered with one ``info string`` saying why, its echo of
a long text cut: a refused ``position`` keeps the last good position (the start if there was
none), a ``go`` word whose value is not a number is left out.
"""

from __future__ import annotations

if __name__ == "__main__":  # ``python -m unbeatable.uci``: before the imports below, so that
    # Ctrl-C is heard from the first instant (one line, exit code 130), as for ``unbeatable``
    from unbeatable.__main__ import guarded

    guarded("unbeatable.uci")  # imports this module again, by name, and runs its main()

import argparse
import gc
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import IO, NoReturn

from .clock import OVERHEAD, SHORTEST, Stability, TimeBudget, time_for_move
from .game import State
from .games import get_game
from .messages import cut, cut_echoes
from .search import DEFAULT_TABLE_SIZE, Limits, Score, Searcher, SearchResult
from .search.options import max_threads

__all__ = ["OPTIONS", "OVERHEAD", "TimeBudget", "UCISession", "main", "time_for_move"]

NAME = "unbeatable"

#: Ctrl-C ends ``python -m unbeatable.uci`` at once, one line and exit code 130, whatever it is
#: doing (:func:`.__main__.guarded`): a GUI stops a search with ``stop``, and the engine has
#: nothing to say on the way out
HEARS_CTRL_C = False

#: The least a move is taken to cost beyond its search once the engine has measured it (see
#: :class:`Lag`; :data:`~.clock.OVERHEAD` until then), and the least kept back twice on
#: the clock for it.
MIN_LAG = 0.02
MIN_RESERVE = 0.05

#: Bytes one entry of the compiled engine's transposition table takes (a bucket of four
#: entries is 64 bytes), to turn the ``Hash`` option's megabytes into entries.
ENTRY_BYTES = 16

#: The ``Hash`` option's default: the megabytes of the library's default table (2^20 entries,
#: 16 MiB).
DEFAULT_HASH = -(-DEFAULT_TABLE_SIZE * ENTRY_BYTES // 2**20)

#: The largest ``Hash`` accepted, in megabytes.
MAX_HASH = 65536

#: The most lines ``MultiPV`` asks for (more than any position's legal moves: 218).
MAX_MULTIPV = 256

#: The options ``uci`` lists and ``setoption`` accepts, as ``option`` lines: the table size in
#: megabytes, the search threads (lazy SMP over one shared table) and the lines reported.
OPTIONS = (
    f"option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}",
    f"option name Threads type spin default 1 min 1 max {max_threads()}",
    f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}",
)

#: Each option's range and what it sets: (low, high, the attribute of the session, the unit).
RANGES = {
    "hash": (1, MAX_HASH, "hash_megabytes", "megabytes"),
    "threads": (1, max_threads(), "threads", "threads"),
    "multipv": (1, MAX_MULTIPV, "multipv", "lines"),
}

#: The depth ``bench`` searches when none is given, and the deepest it takes.
BENCH_DEPTH = 10
MAX_BENCH_DEPTH = 30

#: The deepest ``go perft`` (depth 7 from the start takes about a minute).
MAX_PERFT = 12


def playable(state: State) -> State:
    """``state``, or where the game's rules have drawn it (fifty moves, a threefold
    repetition) while moves remain on the board, the same position with its clock and its
    history forgotten: a GUI that plays on gets a move."""
    from .games.chess._tables import P_HALF
    from .games.chess.core import Position
    from .games.chess.game import ChessState

    if state.outcome() is None or not isinstance(state, ChessState):
        return state
    array = state.position.array.copy()
    array[P_HALF] = 0
    return ChessState(Position(array))


class Lag:
    """The overhead of a move as the GUI's clock sees it, measured: between two ``go`` on a
    clock in the same game, the clock fell by the time the GUI counted (less the increment);
    what the engine counted itself, from reading ``go`` to writing ``bestmove``, is less by the
    lag. The estimate (:attr:`overhead`) is the largest of the last :attr:`KEEP` lags, never
    under :data:`MIN_LAG`; :data:`OVERHEAD` before any was measured."""

    KEEP = 8

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.last: tuple[int, float, float, float] | None = None  # ply, clock, increment, spent

    @property
    def overhead(self) -> float:
        return max([MIN_LAG, *self.lags]) if self.lags else OVERHEAD

    @property
    def reserve(self) -> float:
        """What is kept back, twice, on the clock: the overhead, at least :data:`MIN_RESERVE`."""
        return max(self.overhead, MIN_RESERVE)

    def forget(self) -> None:
        """A new game: the next clock follows no earlier one."""
        self.last = None

    def clock(self, ply: int, remaining: float, increment: float) -> None:
        """Our clock at a ``go`` at ``ply``: compare it with the previous one."""
        if self.last is not None and ply == self.last[0] + 2:
            _, before, added, spent = self.last
            lag = (before + added - remaining) - spent
            self.lags = [*self.lags, max(lag, 0.0)][-self.KEEP :]
        self.last = (ply, remaining, increment, 0.0)

    def answered(self, spent: float) -> None:
        """The engine's own count of the move just answered."""
        if self.last is not None:
            self.last = (*self.last[:3], spent)


@dataclass
class Go:
    """What a ``go`` command asks for."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    infinite: bool = False
    clock: dict[str, float] | None = None
    movestogo: int | None = None
    #: the words left out because their value is not a number (``depth x``)
    refused: list[str] = field(default_factory=list)

    def side_clock(self, white: bool) -> tuple[float, float] | None:
        """The clock and the increment of the side to move (None: no clock, ``movetime`` or
        ``infinite``)."""
        if self.clock is None or self.movetime is not None or self.infinite:
            return None
        side = "w" if white else "b"
        remaining = self.clock.get(f"{side}time")
        if remaining is None:
            return None
        return remaining, self.clock.get(f"{side}inc", 0.0)

    def budget(self, white: bool, lag: Lag | None = None) -> TimeBudget | None:
        """The budget on the clock of the side to move (None: no clock), with ``lag``'s
        measured overhead (:data:`OVERHEAD` without one)."""
        clock = self.side_clock(white)
        if clock is None:
            return None
        if lag is None:
            return time_for_move(*clock, self.movestogo)
        return time_for_move(*clock, self.movestogo, reserve=lag.reserve, lag=lag.overhead)

    def limits(self, budget: TimeBudget | None) -> Limits:
        """The search's limits: ``budget``'s hard limit (the side to move's clock, from
        :meth:`budget`), else ``movetime``, as its time."""
        seconds = budget.hard if budget is not None else self.movetime
        if self.infinite or (seconds is None and self.depth is None and self.nodes is None):
            if self.refused and not self.infinite:  # a limit was meant: the game's own time
                return Limits()
            seconds = 1e7 if self.infinite or self.depth is None else None  # until `stop`
        return Limits(depth=self.depth, time=seconds, nodes=self.nodes)


#: The words of ``go`` that take a number.
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movetime", "depth", "nodes", "movestogo")

#: Every word of ``go`` (those this engine skips too).
GO_WORDS = ("", *GO_NUMBERS, "infinite", "ponder", "searchmoves", "mate")

#: The longest number a ``go`` word takes, in digits (a clock of 10^12 ms is 30 years).
MAX_GO_DIGITS = 12


def _whole(value: str) -> int | None:
    """``value`` as a whole number (ASCII digits, a sign), or None when it is not one."""
    digits = value.removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_GO_DIGITS:
        return None
    return int(value)


def parse_go(words: list[str]) -> Go:
    """The ``go`` command ``words`` ask for. A word whose value is not a whole number is left
    out and listed in :attr:`Go.refused`; an unknown word (``ponder``, ``searchmoves``) is
    skipped."""
    go = Go()
    clock: dict[str, float] = {}
    index = 0
    while index < len(words):
        word = words[index]
        if word == "infinite":
            go.infinite = True
            index += 1
            continue
        if word not in GO_NUMBERS:
            index += 1  # ponder, searchmoves, mate: not supported; skip the word
            continue
        value = words[index + 1] if index + 1 < len(words) else ""
        number = _whole(value)
        index += 1 if number is None and value in GO_WORDS else 2  # `depth infinite`
        if number is None:
            go.refused.append(f"{word} {cut(value, 20)!r}" if value not in GO_WORDS else word)
        elif word in ("wtime", "btime", "winc", "binc"):
            clock[word] = max(0, number) / 1000
        elif word == "movetime":
            go.movetime = max(1, number) / 1000
        elif word == "depth":
            go.depth = max(1, number)
        elif word == "nodes":
            go.nodes = max(1, number)
        else:
            go.movestogo = max(1, number)
    go.clock = clock or None
    return go


def score_text(score: Score) -> str:
    """A score as UCI writes it: ``cp N`` (centipawns) or ``mate N`` (moves, negative when the
    side to move is mated)."""
    if score.is_win or score.is_loss:
        moves = score.moves or 0
        return f"mate {moves if score.is_win else -moves}"
    return f"cp {score.value}"


def info_lines(result: SearchResult, state: State) -> list[str]:
    """The ``info`` lines of a completed iteration: one per line of the search (``multipv
    k`` when it reports more than one), else one of its principal variation."""
    millis = max(1, int(result.elapsed * 1000))
    figures = f"nodes {result.nodes} nps {int(result.nodes * 1000 / millis)} time {millis}"
    lines = result.lines or ()
    if len(lines) <= 1:
        pv = " ".join(state.move_text(m) for m in _line(state, result.pv))
        return [
            f"info depth {result.depth} seldepth {result.seldepth} score "
            f"{score_text(result.score)} {figures}" + (f" pv {pv}" if pv else "")
        ]
    found = []
    for k, line in enumerate(lines, start=1):
        pv = " ".join(state.move_text(m) for m in _line(state, line.pv))
        found.append(
            f"info depth {result.depth} seldepth {result.seldepth} multipv {k} score "
            f"{score_text(line.score)} {figures}" + (f" pv {pv}" if pv else "")
        )
    return found


def info_line(result: SearchResult, state: State) -> str:
    """The ``info`` line of a completed iteration's principal variation."""
    return info_lines(result, state)[0]


def _line(state: State, moves: Iterable[object]) -> list[object]:
    """The moves of a principal variation that are legal one after the other."""
    line = []
    for move in moves:
        if move not in state.legal_moves():
            break
        line.append(move)
        state = state.play(move)
    return line


def start_deaf(thread: threading.Thread) -> None:
    """Start ``thread`` with Ctrl-C (SIGINT) blocked in it, and in the threads it starts (a
    thread is born with the signal mask of the one that starts it), so that the system hands
    Ctrl-C to the main thread. That thread waits for the GUI's next line in a blocking read: a
    SIGINT handed to another thread does not interrupt that read, and Python then runs the
    handler only once the main thread runs again, if ever (an engine killed by Ctrl-C while its
    kernels built went on reading, and ended with code 0 when its input closed). Where the
    system has no per-thread mask, a plain start."""
    if not hasattr(signal, "pthread_sigmask"):
        thread.start()
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def warm_up() -> None:
    """Build the compiled engine's kernels (compiled the first time, loaded from numba's cache
    after): the rules, the notation and a search. Before the first ``readyok``."""
    state = get_game("chess").parse_position("e2e4 e7e5")
    state.move_label(state.legal_moves()[0])
    Searcher().search(state, Limits(depth=2))


class UCISession:
    """One UCI conversation: the position, the searcher (its table kept within a game), the
    options set and the search thread. Not the search engine itself (the library's searcher,
    which asks chess's compiled engine): it reads commands and answers them."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.game = get_game("chess")
        self.state = self.game.initial()
        self.hash_megabytes = DEFAULT_HASH
        self.threads = 1
        self.multipv = 1
        self.searcher = self.new_searcher()
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.lag = Lag()
        self.positioned = False  # whether a position command has been accepted
        self.warm = threading.Thread(target=warm_up, daemon=True)
        start_deaf(self.warm)  # the kernels build while the GUI sets up; `isready` waits

    def new_searcher(self) -> Searcher:
        """A searcher with an empty table of :attr:`hash_megabytes`, :attr:`threads` threads
        and :attr:`multipv` lines."""
        return Searcher(
            iterative=True, table_size=self.table_size, threads=self.threads,
            multipv=self.multipv,
        )  # fmt: skip

    @property
    def table_size(self) -> int:
        """The table entries that :attr:`hash_megabytes` hold."""
        return max(1, self.hash_megabytes * 2**20 // ENTRY_BYTES)

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Act on one command; False on ``quit``."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        if command == "uci":
            self.send(f"id name {NAME}")
            self.send("id author the unbeatable developers")
            for option in OPTIONS:
                self.send(option)
            self.send("uciok")
        elif command == "isready":
            self.warm.join()
            self.send("readyok")
        elif command == "setoption":
            self.finish()
            self.set_option(rest)
        elif command == "ucinewgame":
            self.finish()
            self.searcher = self.new_searcher()
            self.lag.forget()
        elif command == "position":
            self.finish()
            self.position(rest)
        elif command == "go":
            self.finish()
            if rest[:1] == ["perft"]:
                self.perft(rest[1:])
            else:
                self.go(rest)
        elif command == "bench":
            self.finish()
            self.bench(rest)
        elif command == "stop":
            self.finish()
        elif command == "quit":
            self.finish()
            return False
        else:
            self.send(f"info string unknown command {cut(command, 20)!r}")
        return True

    def set_option(self, words: list[str]) -> None:
        """``setoption name NAME [value VALUE]``: an option of :data:`OPTIONS` is taken or
        answered with one ``info string`` saying why not; any other is ignored, as the protocol
        asks of an engine."""
        if "name" not in words:
            return
        after = words[words.index("name") + 1 :]
        cut_at = after.index("value") if "value" in after else len(after)
        name, value = " ".join(after[:cut_at]), " ".join(after[cut_at + 1 :])
        key = name.lower()
        if key not in RANGES:
            return
        low, high, attribute, unit = RANGES[key]
        number = _whole(value)
        if number is None:
            self.send(f"info string setoption {name}: {cut(value, 20)!r} is not a whole number")
        elif not low <= number <= high:
            self.send(f"info string setoption {name} {number}: choose {low} to {high} {unit}")
        elif number != getattr(self, attribute):
            setattr(self, attribute, number)
            self.searcher = self.new_searcher()

    def position(self, words: list[str]) -> None:
        """Set the position; a refused one keeps the last good position (the start if there
        was none) and says so in one ``info string``."""
        try:
            self.state = self.game.parse_position(" ".join(words))
        except ValueError as err:  # a GameError, or a game's own ValueError
            kept = (
                f"the last good one ({self.game.format_position(self.state)})"
                if self.positioned
                else "the start position"
            )
            reason = cut_echoes(" ".join(str(err).split()))
            self.send(f"info string position refused, keeping {kept}: {reason}")
            return
        self.positioned = True

    def go(self, words: list[str]) -> None:
        received = time.perf_counter()
        go = parse_go(words)
        if go.refused:
            fallback = "; searching for the game's own time" if go.limits(None) == Limits() else ""
            refused = ", ".join(go.refused)
            self.send(f"info string go: left out {refused}: not a whole number{fallback}")
        white = self.state.to_move == 0
        clock = go.side_clock(white)
        if clock is not None:
            self.lag.clock(self.state.ply, *clock)
        budget = go.budget(white, self.lag)
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=self.think,
            args=(self.state, go.limits(budget), budget, go.infinite, received),
            daemon=True,
        )
        start_deaf(self.thread)

    def think(
        self,
        state: State,
        limits: Limits,
        budget: TimeBudget | None,
        infinite: bool,
        received: float,
    ) -> None:
        """Search ``state`` and answer ``bestmove``, always (a search that fails says why in an
        ``info string`` and answers a legal move). On a clock the budget counts from
        ``received`` (when ``go`` was read): the search stops at its hard limit, and no
        iteration starts after its soft one."""
        best: object = None
        try:
            best = self.search(state, limits, budget, received)
        except Exception as error:  # the GUI waits for a bestmove whatever happened
            why = cut_echoes(" ".join(str(error).split()))
            self.send(f"info string the search failed: {type(error).__name__}: {why}")
            best = next(iter(self.legal(state)), None)
        if infinite:  # the answer waits for `stop`, even when the search ended sooner
            self.stop.wait()
        self.send(f"bestmove {state.move_text(best) if best is not None else '0000'}")
        if budget is not None:
            self.lag.answered(time.perf_counter() - received)
        # What the search keeps (its table) is moved out of the collector's sight: a full
        # collection over it would otherwise stall a later move by a large fraction of a second.
        # Objects are still freed when their last reference goes.
        gc.freeze()

    def search(
        self, state: State, limits: Limits, budget: TimeBudget | None, received: float
    ) -> object:
        """The best move of ``state`` (None when the game is over: no legal move), with
        ``info`` lines for every completed iteration, and when a limit or ``stop`` cut the
        search short, the last completed iteration's lines again with every node and the
        whole time."""
        if not self.legal(state):
            return None
        if budget is not None:
            left = budget.hard - (time.perf_counter() - received)
            limits = replace(limits, time=max(left, SHORTEST))
        result: SearchResult | None = None
        told = 0  # the nodes of the last lines sent
        state = playable(state)
        stability = Stability()
        for result in self.searcher.iterate(state, limits, stop=self.stop):
            if result.complete:
                told = result.nodes
                for line in info_lines(result, state):
                    self.send(line)
                if budget is None:
                    continue
                score = result.score
                stability.add(result.move, score.value, score.is_win or score.is_loss)
                if time.perf_counter() - received >= budget.soft_after(stability.scale):
                    self.stop.set()  # the next iteration ends at once; this one stands
        if result is not None and not result.complete and result.depth >= 1 and result.nodes > told:
            # cut short (time, nodes, stop): the last completed iteration's lines again, with
            # every node searched and the whole time, as common engines end a search
            for line in info_lines(result, state):
                self.send(line)
        return result.move if result is not None else None

    @staticmethod
    def legal(state: State) -> tuple[int, ...]:
        """The legal moves of ``state`` on the board, also where the game's rules have
        already drawn the game (fifty moves, a threefold repetition): a GUI may play on."""
        from .games.chess.game import ChessState

        assert isinstance(state, ChessState)
        return state.position.legal_moves()

    def perft(self, words: list[str]) -> None:
        """``go perft N``: each legal move with the count of legal move sequences of ``N - 1``
        plies after it, then ``Nodes searched: TOTAL`` (the convention of common engines)."""
        from .games.chess.core import divide

        depth = _whole(words[0]) if words else None
        if depth is None or not 1 <= depth <= MAX_PERFT:
            given = cut(words[0], 20) if words else ""
            self.send(f"info string go perft: {given!r} is not a depth from 1 to {MAX_PERFT}")
            return
        from .games.chess.game import ChessState

        assert isinstance(self.state, ChessState)
        position = self.state.position
        total = 0
        for move, count in divide(position, depth):
            self.send(f"{move}: {count}")
            total += count
        self.send("")
        self.send(f"Nodes searched: {total}")

    def bench(self, words: list[str]) -> None:
        """``bench [DEPTH]``: the compiled engine's fixed positions searched to ``DEPTH``
        (default :data:`BENCH_DEPTH`) on one thread with a fresh 16 MiB table each: the node
        total is a signature (the same on every machine for the same engine)."""
        from .games.chess.searcher import BENCH_FENS
        from .games.chess.searcher import bench as run_bench

        depth = _whole(words[0]) if words else BENCH_DEPTH
        if depth is None or not 1 <= depth <= MAX_BENCH_DEPTH:
            given = cut(words[0], 20) if words else ""
            self.send(f"info string bench: {given!r} is not a depth from 1 to {MAX_BENCH_DEPTH}")
            return
        self.warm.join()
        nodes, seconds = run_bench(depth)
        self.send(f"info string bench: {len(BENCH_FENS)} positions at depth {depth}")
        self.send(f"Total time (ms) : {int(seconds * 1000)}")
        self.send(f"Nodes searched  : {nodes}")
        self.send(f"Nodes/second    : {int(nodes / max(seconds, 1e-9))}")

    def finish(self) -> None:
        """Stop a search under way and wait for its ``bestmove``."""
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self.thread = None


def __getattr__(name: str) -> type[UCISession]:
    """``Engine``, the old name of :class:`UCISession`, with a DeprecationWarning."""
    if name == "Engine":
        warnings.warn(
            "unbeatable.uci.Engine is deprecated: it is the UCI session, now UCISession "
            "(the search engine is unbeatable.search.engine.Engine)",
            DeprecationWarning,
            stacklevel=2,
        )
        return UCISession
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Parser(argparse.ArgumentParser):
    """Its errors are one line on stderr and exit code 2, as the command line's."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")


class UsageError(Exception):
    """A bad option of ``unbeatable uci``."""


def main(
    argv: list[str] | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """Run the UCI loop until ``quit`` or the end of the input; the exit code (0, or 2 with
    one line on stderr for a bad option)."""
    parser = _Parser(
        prog="unbeatable uci", description="A chess engine speaking UCI on stdin and stdout."
    )
    parser.add_argument("--game", default="chess", choices=["chess"], help="the game (chess)")
    try:
        parser.parse_args(argv)
    except UsageError as error:
        print(error, file=stderr or sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    from .games.chess import check_network

    try:
        check_network()
    except ValueError as error:  # the network file UNBEATABLE_CHESS_NET names
        print(f"unbeatable uci: error: {error}", file=stderr or sys.stderr)
        return 2
    session = UCISession(stdout or sys.stdout)
    for line in stdin or sys.stdin:
        if not session.handle(line.strip()):
            break
    else:
        session.finish()
    return 0
