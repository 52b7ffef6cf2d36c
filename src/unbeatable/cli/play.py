"""``unbeatable play``: a game against the AI in the terminal or from a pipe, or a demo."""

from __future__ import annotations

import argparse
import random
import time

from .. import render
from ..game import Move, Outcome, State, player_name
from ..games import load_game
from ..messages import cut
from ..players import roll
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
        help="the side you play: first/x or second/o (default first); in a game of more "
        "players third, fourth ... or 1, 2, 3 ...; several, for people at one keyboard: "
        "first,third; all: people only",
    )
    p.add_argument(
        "--dice",
        choices=("random", "typed"),
        default="random",
        help="a game of chance: the dice are rolled for you (random, from --seed), or you type "
        "each roll as your own dice show it (typed)",
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


def side(text: str, players: int = 2) -> int:
    """One side: ``first``/``x``/``1``, ``second``/``o``/``2``, ``third``/``3`` ..."""
    name = text.strip().lower()
    names = {player_name(p): p for p in range(players)}
    names.update({str(p + 1): p for p in range(players)})
    names.update({"x": 0, "o": 1})
    if name in names and names[name] < players:
        return names[name]
    choices = "first (x) or second (o)" if players == 2 else (
        ", ".join(player_name(p) for p in range(players)) + " (or 1 to " + str(players) + ")"
    )
    raise UsageError(f"--human {cut(text)!r}: choose {choices}, or several: first,second")


def sides(text: str, players: int) -> frozenset[int]:
    """The sides people play: one (``first``), several (``first,third``), or ``all``."""
    if text.strip().lower() in ("all", "both", "everyone"):
        return frozenset(range(players))
    return frozenset(side(part, players) for part in text.split(",") if part.strip()) or (
        frozenset({side(text, players)})
    )


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
        # the dice: a generator of their own (from the seed, so a game can be played again)
        self.dice = random.Random(None if args.seed is None else f"dice {args.seed}")
        self.typed_dice = args.dice == "typed"
        self.limits = common.limits(args)
        policy.warm_for_own_clock(self.searcher.options, self.start)
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
            with render.console(self.out).status(render.Thinking()):
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

    def roll(self, state: State) -> Move:
        """Chance's move: the dice rolled, and said."""
        move = roll(state, self.dice)
        self.out.write(f"{player_name(state.to_move)} player rolls {shown(state, move)}\n")
        return move

    def demo(self, delay: float) -> int:
        out = self.out
        ai = strength(self.limits, self.start)
        sides = "both sides" if self.start.players == 2 else f"all {self.start.players} sides"
        out.write(f"{self.game.spec}: the AI ({ai}) plays {sides}\n")
        self.warn_if_slow()
        state = self.start
        while state.outcome() is None:
            if state.is_chance:
                state = state.play(self.roll(state))
                continue
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

    def undo(self, humans: frozenset[int]) -> bool:
        """Back to before the last move a person made (not a roll); False when there is
        none."""
        history = self.history
        for index in range(len(history) - 2, -1, -1):
            if history[index].to_move in humans and not history[index].is_chance:
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

    def verdict(self, state: State, humans: frozenset[int]) -> str:
        outcome = state.outcome()
        assert outcome is not None
        winner = outcome.winner
        if len(humans) != 1:
            return str(outcome)
        if winner is None:  # a draw, or a win shared (a payoff says how)
            return "draw" if isinstance(outcome, Outcome) else str(outcome)
        return "you win" if winner in humans else "the AI wins"

    def command(self, text: str, humans: frozenset[int]) -> bool:
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
            if self.undo(humans):
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

    def run(self, humans: frozenset[int]) -> int:
        out = self.out
        players = self.start.players
        you = " and ".join(player_name(p) for p in sorted(humans))
        tip = "; Ctrl-C while it thinks makes it move at once" if self.limits == Limits() else ""
        ai = strength(self.limits, self.start)
        others = [player_name(p) for p in range(players) if p not in humans]
        against = "no AI" if not others else f"the AI ({ai}{tip})"
        if others and players > 2:
            against = f"the AI as {' and '.join(others)} ({ai}{tip})"
        out.write(f"{self.game.spec}: you play {you} against {against}. Type {PLAY_HELP}.\n")
        self.warn_if_slow()
        show = True
        while True:
            state = self.history[-1]
            outcome = state.outcome()
            if outcome is None and state.is_chance and not self.typed_dice:
                self.history.append(state.play(self.roll(state)))
                continue
            if outcome is None and not state.is_chance and state.to_move not in humans:
                move, result = self.think(state)
                label = describe_result(result)[0]
                who = "AI" if players == 2 else f"AI ({player_name(state.to_move)})"
                out.write(f"{who} plays {shown(state, move)} ({who}: {label})\n")
                self.history.append(state.play(move))
                show = True
                continue
            if show:
                self.board(state)
                if outcome is not None:
                    verdict = self.verdict(state, humans)
                    out.write(f"game over: {verdict}. Type new, undo or quit.\n")
                show = False
            mover = player_name(state.to_move)
            if outcome is not None:
                out.write("> ")
            elif state.is_chance:
                example = shown(state, state.legal_moves()[-1])
                out.write(f"the {mover} player's roll (as the dice show it, e.g. {example}): ")
            else:
                out.write(f"your move ({mover}): ")
            text = self.read()
            if text is None:
                out.write("\nend of input: game left unfinished\n" if outcome is None else "\n")
                return common.FAILED if outcome is None else common.OK
            if text.lower() in ("quit", "q", "exit"):
                return common.OK
            if text:
                show = self.command(text, humans)


def run(args: argparse.Namespace, streams: Streams) -> int:
    session = Session(args, streams)
    if args.demo:
        delay = args.delay if args.delay is not None else (0.5 if session.color else 0.0)
        return session.demo(delay)
    return session.run(sides(args.human, session.start.players))
