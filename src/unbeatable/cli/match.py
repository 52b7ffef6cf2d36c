"""``unbeatable match``: N games between two players, tabulated."""

from __future__ import annotations

import argparse
import random

from .. import render
from ..games import load_game
from ..players import PLAYER_SPECS, Tally, parse_player, play_match, score_game
from . import common
from .common import Streams


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
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
    p.add_argument("-n", "--games", type=common.positive_int, default=10, help="games (default 10)")
    p.add_argument("--seed", type=common.whole, help="the random seed (default: a random one)")
    p.add_argument("--position", default="", help="start every game from this position")
    p.set_defaults(handler=run)


def row(tally: Tally) -> list[str]:
    average = tally.seconds_per_move
    points = tally.points
    return [
        tally.label,
        str(tally.games),
        str(tally.wins),
        str(tally.draws),
        str(tally.losses),
        "-" if points is None else f"{points * 100:.0f}%",
        "-" if average is None else f"{average * 1000:.2f}",
    ]


def run(args: argparse.Namespace, streams: Streams) -> int:
    game = load_game(args.game)
    start = common.parse_position(game, args.position)
    if start.outcome() is not None:
        raise common.game_over(start, args.position)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    master = random.Random(seed)
    players = [
        parse_player(args.player_a, random.Random(master.getrandbits(64))),
        parse_player(args.player_b, random.Random(master.getrandbits(64))),
    ]
    same = players[0].name == players[1].name
    tallies = [
        Tally(f"{tag}: {p.name}" if same else p.name) for tag, p in zip("AB", players, strict=True)
    ]
    streams.out.write(
        f"{game.spec}: {players[0].name} vs {players[1].name}, {args.games} games, "
        f"seed {seed} (repeat with --seed {seed})\n"
    )
    streams.out.flush()
    interrupted = False
    try:
        with render.progress(streams.err, args.games, "match") as bar:
            for number in range(args.games):
                a_side = (start.to_move + number) % 2  # the side player A plays in this game
                seats = (players[0], players[1]) if a_side == 0 else (players[1], players[0])
                record = play_match(start, *seats)
                score_game(record, start, {a_side: tallies[0], 1 - a_side: tallies[1]})
                bar.advance()
    except KeyboardInterrupt:
        interrupted = True
        streams.error("interrupted: the games finished so far follow")
    render.print_table(
        streams.out,
        ["player", "games", "wins", "draws", "losses", "score", "ms/move"],
        [row(t) for t in tallies],
        color=render.is_tty(streams.out),
    )
    return common.INTERRUPTED if interrupted else common.OK
