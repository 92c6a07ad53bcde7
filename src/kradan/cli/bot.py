"""``kradan bot``: an engine plays on a ``kradan serve`` through its bot API
(:mod:`kradan.runners.bot`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import EXIT_BAD_INPUT

EXAMPLES = """examples:
  kradan bot --server https://HOST --token TOKEN kradan:level=8
  kradan bot --server https://HOST --token TOKEN --upgrade uci:/usr/local/bin/fairy-stockfish
  kradan bot --server https://HOST --token TOKEN --variants makruk,cambodian kradan

A token comes from POST /api/tokens in a signed-in browser (docs/bots.md)."""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "bot",
        help="play on a kradan serve as a bot: any UCI or XBoard engine, or kradan's",
        description="Connect an engine to a kradan serve's bot API: take the challenges made "
        "to the bot account and play its games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "engine",
        metavar="ENGINE",
        help="the player: kradan, kradan:level=N, uci:PATH or xboard:PATH",
    )
    parser.add_argument("--server", required=True, metavar="URL", help="the server's address")
    parser.add_argument("--token", required=True, help="the bot account's API token")
    parser.add_argument(
        "--variants",
        default="",
        metavar="LIST",
        help="the games it plays, comma-separated (default: every one)",
    )
    parser.add_argument(
        "--upgrade",
        action="store_true",
        help="make the account a bot's first (for good; a new account only)",
    )
    parser.add_argument(
        "--games", type=int, metavar="N", help="stop after N games (default: play until stopped)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..runners.bot import Bot, BotError, BotServer
    from ..runners.players import PlayerSpecError, make_player

    try:
        make_player(args.engine).close()  # a bad spec is said now, not at the first game
    except (PlayerSpecError, OSError) as error:
        print(f"kradan: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    variants = frozenset(word.strip() for word in args.variants.split(",") if word.strip())
    bot = Bot(
        BotServer(args.server, args.token),
        args.engine,
        variants,
        log=lambda text: print(text, flush=True),
    )
    try:
        name = bot.account(upgrade=args.upgrade)
        print(f"playing as {name} with {args.engine}", flush=True)
        bot.run(args.games)
    except BotError as error:
        print(f"kradan: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 1 if bot.errors else 0


__all__ = ["add_parser", "run"]
