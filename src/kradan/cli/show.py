"""``kradan show [POSITION]``: a position as a text board, an SVG picture or a PNG picture."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import add_game_argument, announce_compilation, fail, load_position
from .render import text_board

EXAMPLES = """examples:
  kradan show                                   Makruk's start position in the terminal
  kradan show 'rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1' --svg e4.svg
  kradan show --variant sittuyin --png setup.png --flip --thai
  kradan show --variant alquerque 'ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1' --svg board.svg
  kradan show games.pgn --game 3 --ply 20 --svg move10.svg  a position of a saved game"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "show",
        help="show a position as a text board, or save it as an SVG or PNG picture",
        description="Show POSITION (a FEN, or the game's own position text, such as Alquerque's\n"
        "with --variant alquerque; the game's start position when left out) in the\n"
        "terminal, or draw it with kradan's own pieces as an SVG or PNG file.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "position",
        nargs="*",
        metavar="POSITION",
        help="a FEN or the game's position text (quote it, or give its fields as separate"
        " words), or a PGN file",
    )
    add_game_argument(parser)
    parser.add_argument("--svg", metavar="FILE", help="write an SVG picture to FILE")
    parser.add_argument(
        "--png", metavar="FILE", help="write a PNG picture to FILE (needs kradan[png])"
    )
    parser.add_argument("--flip", action="store_true", help="Black's view: a1 at the top right")
    parser.add_argument(
        "--thai", action="store_true", help="Thai letters and numerals as coordinates (pictures)"
    )
    parser.add_argument(
        "--no-coordinates", action="store_true", help="pictures without coordinates"
    )
    parser.add_argument(
        "--size", type=int, default=400, metavar="PIXELS", help="picture width (default 400)"
    )
    parser.add_argument(
        "--game", type=int, default=1, metavar="N", help="with a PGN file: its N-th game"
    )
    parser.add_argument(
        "--ply", type=int, metavar="N", help="with a PGN file: the position after N plies"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from .. import svg

    announce_compilation()
    text = " ".join(args.position) if args.position else None
    board = load_position(text, args.variant, game=args.game, ply=args.ply)
    if not args.svg and not args.png:
        print(text_board(board, flipped=args.flip, colour=sys.stdout.isatty()))
        return 0
    picture = svg.board(
        board,
        size=args.size,
        flipped=args.flip,
        labels="thai" if args.thai else "latin",
        coordinates=not args.no_coordinates,
    )
    try:
        if args.svg:
            with open(args.svg, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(picture)
        if args.png:
            svg.to_png(picture, args.png)
    except OSError as error:
        return fail(f"cannot write the picture: {error}")
    return 0


__all__ = ["EXAMPLES", "add_parser", "run"]
