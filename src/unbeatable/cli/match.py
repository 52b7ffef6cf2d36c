"""``unbeatable match``: N games between two players, tabulated."""

from __future__ import annotations

import argparse
import random

from .. import render
from ..games import load_game
from ..players import PLAYER_SPECS, Tally, parse_player, play_match, score_game
from . import common
from .common import Streams, UsageError


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "match",
        help="play N games between two players and tabulate the results",
        description=(
            "Play N games between players A and B (or A, B, C, ... in a game of more players), "
            "turning the seats round from game to game, and print wins, draws, losses, the "
            "average payoff (a game that ends with numbers) and the average time per move of "
            f"each; the dice of a game of chance are rolled from the seed. A player is "
            f"{PLAYER_SPECS}. "
            "Ties between equally good moves are broken at random from --seed (printed, so a "
            "match can be repeated)."
        ),
        epilog="Example: unbeatable match perfect random --game tictactoe -n 20 --seed 7",
    )
    p.add_argument(
        "players",
        metavar="PLAYER",
        nargs="+",
        help="one player a side, in order (A B, or A B C ... for a game of more players), "
        "e.g. perfect depth:3 random",
    )
    p.add_argument("--game", default="tictactoe", help="the game (default tictactoe)")
    p.add_argument("-n", "--games", type=common.positive_int, default=10, help="games (default 10)")
    p.add_argument("--seed", type=common.whole, help="the random seed (default: a random one)")
    p.add_argument("--position", default="", help="start every game from this position")
    p.set_defaults(handler=run)


def row(tally: Tally, payoff: bool = False) -> list[str]:
    average = tally.seconds_per_move
    points = tally.points
    found = [
        tally.label,
        str(tally.games),
        str(tally.wins),
        str(tally.draws),
        str(tally.losses),
        "-" if points is None else f"{points * 100:.0f}%",
    ]
    if payoff:
        mean = tally.mean_payoff
        found.append("-" if mean is None else f"{mean:.3g}")
    found.append("-" if average is None else f"{average * 1000:.2f}")
    return found


def run(args: argparse.Namespace, streams: Streams) -> int:
    game = load_game(args.game)
    start = common.parse_position(game, args.position)
    if start.outcome() is not None:
        raise common.game_over(start, args.position)
    count = start.players
    if len(args.players) != count:
        raise UsageError(
            f"{game.spec} has {count} players: give {count} players, one a side (not "
            f"{len(args.players)})"
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    master = random.Random(seed)
    players = [parse_player(spec, random.Random(master.getrandbits(64))) for spec in args.players]
    dice = random.Random(master.getrandbits(64))  # the rolls of a game of chance
    names = [p.name for p in players]
    same = len(set(names)) < len(names)
    tags = "ABCDEFGHIJ"
    tallies = [
        Tally(f"{tag}: {p.name}" if same else p.name) for tag, p in zip(tags, players, strict=False)
    ]
    streams.out.write(
        f"{game.spec}: {' vs '.join(names)}, {args.games} games, "
        f"seed {seed} (repeat with --seed {seed})\n"
    )
    streams.out.flush()
    interrupted = False
    try:
        with render.progress(streams.err, args.games, "match") as bar:
            for number in range(args.games):
                # player i sits at side (start's side to move + game number + i) mod the sides:
                # the seats turn round from game to game
                sides = {(start.to_move + number + i) % count: i for i in range(count)}
                seats = [players[sides[side]] for side in range(count)]
                record = play_match(start, *seats, rng=dice)
                score_game(record, start, {side: tallies[i] for side, i in sides.items()})
                bar.advance()
    except KeyboardInterrupt:
        interrupted = True
        streams.error("interrupted: the games finished so far follow")
    numeric = start.numeric_outcomes
    head = ["player", "games", "wins", "draws", "losses", "score"]
    render.print_table(
        streams.out,
        [*head, *(["payoff"] if numeric else []), "ms/move"],
        [row(t, numeric) for t in tallies],
        color=render.is_tty(streams.out),
    )
    return common.INTERRUPTED if interrupted else common.OK
