"""``kradan validate FILE.pgn``: read every game and report every problem with its place."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import pgn
from .common import EXIT_PROBLEMS, add_game_argument, announce_compilation, counted
from .progress import open_input


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "validate",
        help="check every move of a PGN file and report each problem with its place",
        description="Read every game of FILE (PGN, any game kradan knows) and report each bad\n"
        "header and each illegal, ambiguous or unreadable move with its line, game and move\n"
        "number. Exit status 0 when all is well, 1 when problems were found.",
        epilog="example:\n  kradan validate games.pgn",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE.pgn", help="the PGN file ('-' for standard input)")
    add_game_argument(parser, purpose="the game of games without [Variant]")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    handle, reader = open_input(args.file, "bytes checked")
    games = moves = problems = bad_games = 0
    try:
        while True:
            game = pgn.read_game(reader, default_variant=args.variant)  # type: ignore[arg-type]
            if game is None:
                break
            games += 1
            moves += len(game.mainline_moves())
            if game.errors:
                bad_games += 1
            white, black = game.headers.get("White", "?"), game.headers.get("Black", "?")
            for error in game.errors:
                problems += 1
                where = f"{args.file}:{error.line}" if error.line else args.file
                move = f", move {error.move_number}" if error.move_number is not None else ""
                print(f"{where}: game {games} ({white} - {black}){move}: {error.message}")
    finally:
        reader.close()
        if handle is not sys.stdin:
            handle.close()
    summary = f"{counted(games, 'game')}, {counted(moves, 'main-line move')}: "
    summary += (
        f"{counted(problems, 'problem')} in {counted(bad_games, 'game')}"
        if problems
        else "no problems"
    )
    print(summary)
    return EXIT_PROBLEMS if problems else 0
