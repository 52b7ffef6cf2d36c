"""``unbeatable play``: a game against the AI in the terminal or from a pipe, or a demo."""

from __future__ import annotations

import argparse
import random
import time

from .. import render
from ..game import Move, State, player_name
from ..games import load_game
from ..messages import cut
from ..report import describe_result, shown
from ..search import Limits, SearchResult, policy
from . import common
from .common import Streams, UsageError

PLAY_HELP = (
    "a move (as the board numbers it), or: hint (best moves and scores), moves (the legal "
    "moves), undo (take back your last move), new (start again), help, quit"
)


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "play",
        help="play against the AI in the terminal (or from a pipe), or watch it play itself",
        description=(
            "Play against the AI: type a move (a cell, a column, a number of tokens...), or "
            "hint (the best moves with their scores), moves, undo, new, help or quit. "
            "The AI plays perfectly unless --depth, --time or --nodes limits it (a game too large "
            "to solve, like chess, has its own time a move); Ctrl-C while "
            "it thinks makes it play the best move found so far. Input may come from a pipe: "
            "when it ends before the game does, the exit code is 1."
        ),
        epilog="Example: printf '5\\n9\\n2\\n7\\n6\\n' | unbeatable play tictactoe --human x",
    )
    common.add_game(p)
    p.add_argument(
        "--human",
        default="first",
        help="the side you play: first/x or second/o (default first)",
    )
    p.add_argument("--position", default="", help="start from this position")
    p.add_argument("--demo", action="store_true", help="watch the AI play both sides")
    p.add_argument(
        "--delay",
        type=common.pause,
        default=None,
        metavar="SECONDS",
        help="pause between demo moves (default 0.5 on a terminal, else 0)",
    )
    p.add_argument(
        "--seed", type=common.whole, help="break ties between equally good moves at random"
    )
    common.add_limits(p, parallel=False)
    common.add_search_options(p)
    p.set_defaults(handler=run)


def side(text: str) -> int:
    name = text.strip().lower()
    if name in ("first", "x", "1"):
        return 0
    if name in ("second", "o", "2"):
        return 1
    raise UsageError(f"--human {cut(text)!r}: choose first (x) or second (o)")


def strength(limits: Limits, state: State) -> str:
    """The AI's limits as the search will apply them to ``state`` (the library's policy)."""
    applied = policy.limits_for(state, limits)
    parts = []
    if applied.depth is not None:
        parts.append(f"depth {applied.depth}")
    if applied.time is not None:
        parts.append(f"{applied.time:g} s a move")
    if applied.nodes is not None:
        parts.append(f"{applied.nodes} nodes")
    if applied != limits:
        parts[-1] += ": the game is too large to solve"
    return ", ".join(parts) if parts else "perfect play"


class Session:
    """One play session: the history of positions, the AI and the screen."""

    def __init__(self, args: argparse.Namespace, streams: Streams) -> None:
        self.game = load_game(args.game)
        self.start = common.parse_position(self.game, args.position)
        if self.start.outcome() is not None:
            raise common.game_over(self.start, args.position)
        rng = random.Random(args.seed) if args.seed is not None else None
        self.searcher = common.searcher(args, rng=rng)
        self.limits = common.limits(args)
        self.out = streams.out
        self.inp = streams.inp
        self.interactive = render.is_tty(self.inp)
        # Colours and the spinner only for a person at a terminal, not for a scripted game.
        self.color = render.is_tty(self.out) and (self.interactive or args.demo)
        self.history = [self.start]

    def warn_if_slow(self) -> None:
        """Perfect play can take minutes a move: say so when the library's policy says it may
        (:func:`unbeatable.search.policy.may_take_long`)."""
        searcher = self.searcher
        if not policy.may_take_long(searcher.search, searcher.options, self.start, self.limits):
            return
        self.out.write(
            "note: perfect play of this game can take minutes a move; Ctrl-C makes the AI "
            "play its best move so far, --time SECONDS limits it\n"
        )

    def board(self, state: State) -> None:
        render.print_board(self.out, self.game.picture(state), color=self.color)

    def think(self, state: State) -> tuple[Move, SearchResult]:
        if self.color:
            with render.console(self.out).status("thinking..."):
                result, interrupted = common.run_search(
                    self.searcher, state, self.limits, analyze=False
                )
        else:
            result, interrupted = common.run_search(
                self.searcher, state, self.limits, analyze=False
            )
        if interrupted:  # the library's rule: the best known, or a short search's
            result, how = policy.move_when_stopped(self.searcher.search, state, result)
            self.out.write(f"interrupted: {how}\n")
        assert result is not None and result.move is not None
        return result.move, result

    def demo(self, delay: float) -> int:
        out = self.out
        ai = strength(self.limits, self.start)
        out.write(f"{self.game.spec}: the AI ({ai}) plays both sides\n")
        self.warn_if_slow()
        state = self.start
        while state.outcome() is None:
            self.board(state)
            move, result = self.think(state)
            who = player_name(state.to_move)
            label = describe_result(result)[0]
            out.write(f"{who} plays {shown(state, move)} ({who}: {label})\n")
            out.flush()
            state = state.play(move)
            if delay > 0:
                time.sleep(delay)
        self.board(state)
        out.write(f"game over: {state.outcome()}\n")
        return common.OK

    def hint(self, state: State) -> None:
        result, interrupted = common.run_search(self.searcher, state, self.limits, analyze=True)
        if result is None:
            self.out.write("hint interrupted before any result\n")
            return
        label, labels = describe_result(result)
        best = " ".join(state.move_text(m) for m in result.best_moves)
        self.out.write(f"best for you: {best} ({label})\n")
        others = [f"{state.move_text(m)} {text}" for m, text in labels.items()]
        self.out.write(f"all moves: {', '.join(others)}{' (interrupted)' if interrupted else ''}\n")

    def undo(self, human: int) -> bool:
        """Back to before the human's last move; False when there is none."""
        history = self.history
        for index in range(len(history) - 2, -1, -1):
            if history[index].to_move == human:
                del history[index + 1 :]
                return True
        return False

    def read(self) -> str | None:
        """The next line typed, stripped (None at the end of input)."""
        self.out.flush()
        try:
            line = self.inp.readline()
        except OSError as error:
            raise UsageError(f"cannot read standard input: {error.strerror or error}") from None
        except UnicodeDecodeError as error:
            raise UsageError(f"standard input is not UTF-8 text: {error.reason}") from None
        if not line:
            return None
        text = line.strip()
        if not self.interactive:
            self.out.write(cut(text) + "\n")
        return text

    def verdict(self, state: State, human: int) -> str:
        winner = state.outcome().winner  # type: ignore[union-attr]
        return "draw" if winner is None else "you win" if winner == human else "the AI wins"

    def command(self, text: str, human: int) -> bool:
        """Do what the human typed; True when the position to show changed."""
        state = self.history[-1]
        command = text.lower()
        outcome = state.outcome()
        if command in ("help", "?"):
            self.out.write(f"type {PLAY_HELP}\n")
        elif command == "moves":
            moves = " ".join(state.move_text(m) for m in state.legal_moves())
            self.out.write(f"legal moves: {moves or 'none'}\n")
        elif command == "new":
            self.history = [self.start]
            self.out.write("new game\n")
            return True
        elif command == "undo":
            if self.undo(human):
                return True
            self.out.write("nothing to undo\n")
        elif outcome is not None:
            self.out.write(f"the game is over ({outcome}): type new, undo or quit\n")
        elif command == "hint":
            self.hint(state)
        else:
            try:
                common.check_digits(text)
                self.history.append(state.play_text(text))
                return True
            except ValueError as error:  # GameError, or a game's own ValueError
                self.out.write(
                    f"{common.shorten(common.one_line(error), text)}; try again (or type help)\n"
                )
        return False

    def run(self, human: int) -> int:
        out = self.out
        you = player_name(human)
        tip = "; Ctrl-C while it thinks makes it move at once" if self.limits == Limits() else ""
        ai = strength(self.limits, self.start)
        out.write(
            f"{self.game.spec}: you play {you} against the AI ({ai}{tip}). "
            f"Type {PLAY_HELP}.\n"
        )
        self.warn_if_slow()
        show = True
        while True:
            state = self.history[-1]
            outcome = state.outcome()
            if outcome is None and state.to_move != human:
                move, result = self.think(state)
                label = describe_result(result)[0]
                out.write(f"AI plays {shown(state, move)} (AI: {label})\n")
                self.history.append(state.play(move))
                show = True
                continue
            if show:
                self.board(state)
                if outcome is not None:
                    out.write(f"game over: {self.verdict(state, human)}. Type new, undo or quit.\n")
                show = False
            out.write("> " if outcome is not None else f"your move ({you}): ")
            text = self.read()
            if text is None:
                out.write("\nend of input: game left unfinished\n" if outcome is None else "\n")
                return common.FAILED if outcome is None else common.OK
            if text.lower() in ("quit", "q", "exit"):
                return common.OK
            if text:
                show = self.command(text, human)


def run(args: argparse.Namespace, streams: Streams) -> int:
    session = Session(args, streams)
    if args.demo:
        delay = args.delay if args.delay is not None else (0.5 if session.color else 0.0)
        return session.demo(delay)
    return session.run(side(args.human))
