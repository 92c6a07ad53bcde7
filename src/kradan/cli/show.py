"""``kradan show [POSITION]``: a position as a text board, an SVG picture or a PNG picture."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from .._core.warmup import announce_compilation
from ..games import AnyBoard, game_names, new_board
from .render import text_board

if TYPE_CHECKING:
    from ..pgn import Game

EXIT_BAD_INPUT = 2

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
        description="Show POSITION (a FEN, or an Alquerque position text with --variant\n"
        "alquerque or alquerque-bell; the variant's start position when left out) in the\n"
        "terminal, or draw it with kradan's own pieces as an SVG or PNG file.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "position",
        nargs="*",
        metavar="POSITION",
        help="a FEN or Alquerque position text (quote it, or give its fields as separate words),"
        " or a PGN file",
    )
    parser.add_argument(
        "--variant",
        default="makruk",
        help=f"the game ({', '.join(game_names())}; default makruk)",
    )
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


def load_position(
    text: str | None, variant: str, *, game: int = 1, ply: int | None = None
) -> AnyBoard:
    """The board of ``variant`` at ``text`` (a FEN, or an Alquerque position text); the
    variant's start position when ``text`` is ``None`` or blank. When ``text`` names a PGN file,
    the position after ``ply`` plies (default: the end of the main line) of its ``game``-th game.

    :raises VariantError: for an unknown variant;
    :raises InvalidFenError: for a position that cannot be read;
    :raises PgnError: for a game that is not in the file or a ply beyond its end.
    """
    if text is not None and not text.strip():
        text = None
    if text is not None and text.strip().lower().endswith(".pgn"):
        return _pgn_position(text.strip(), variant, game, ply)
    return new_board(variant, None if text is None else " ".join(text.split()))


def read_game_number(path: str, number: int, variant: str) -> Game:
    """The ``number``-th game (from 1) of the PGN file at ``path``.

    :raises UsageError: for a number below 1; InputFileError for a file that cannot be read;
        PgnError when the file has fewer games.
    """
    from .. import pgn
    from ..errors import InputFileError, PgnError, UsageError

    if number < 1:
        raise UsageError(f"--game {number}: games are numbered from 1")
    try:
        with open(path, encoding="utf-8-sig") as handle:
            for _ in range(number - 1):
                if not pgn.skip_game(handle):
                    break
            game = pgn.read_game(handle, default_variant=variant)
    except OSError as error:
        raise InputFileError(f"cannot read {path!r}: {error.strerror}") from error
    if game is None:
        raise PgnError(f"{path!r} has no game {number}")
    return game


def _pgn_position(path: str, variant: str, number: int, ply: int | None) -> AnyBoard:
    from ..errors import PgnError

    game = read_game_number(path, number, variant)
    nodes = [game, *game.mainline()]
    if ply is None:
        return nodes[-1].board()
    if not 0 <= ply < len(nodes):
        raise PgnError(f"game {number} of {path!r} has {len(nodes) - 1} plies, not {ply}")
    return nodes[ply].board()


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
        print(f"kradan: error: cannot write the picture: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


__all__ = ["add_parser", "load_position", "read_game_number", "run", "text_board"]
