"""``kradan book build | show``: make an opening book from game files, and look into one."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import add_game_argument, counted, load_position
from .progress import open_text

EXAMPLES = """examples:
  kradan book build games.pgn more.pgn -o makruk.book          the first 20 plies of each game
  kradan book build games.pgn -o short.book --plies 10 --min-weight 4
  kradan book show makruk.book                                 the moves at the start
  kradan book show makruk.book 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1'
  kradan play makruk --book makruk.book                        the engine plays from it
  kradan match kradan kradan:level=10 --openings makruk.book   openings drawn from it"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "book",
        help="opening books: build one from PGN files, show a position's book moves",
        description="An opening book holds, for each position of the first plies of many games,\n"
        "the moves played there with weights (2 per win, 1 per draw of the side that played\n"
        "them). The engine (UCI OwnBook/BookFile), kradan play --book and kradan match\n"
        "--openings use it.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="book_command", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="build a book from PGN files")
    build.add_argument("files", nargs="+", metavar="FILE.pgn", help="the games")
    build.add_argument("-o", "--output", required=True, metavar="BOOK", help="the book to write")
    build.add_argument("--plies", type=int, default=20, help="plies of each game kept (20)")
    build.add_argument(
        "--min-weight", type=int, default=1, metavar="W",
        help="leave out moves weighing less (1: every move a game won or drew with)",
    )  # fmt: skip
    add_game_argument(build, purpose="the book's game; other games are skipped")
    build.set_defaults(run=run_build)
    show = actions.add_parser("show", help="a position's book moves, with their weights")
    show.add_argument("book", metavar="BOOK")
    show.add_argument("position", nargs="*", metavar="POSITION", help="a FEN (default: start)")
    show.set_defaults(run=run_show)


def _games(files: list[str], variant: str) -> Any:
    from .. import pgn

    for path in files:
        with open_text(path) as handle:
            while (game := pgn.read_game(handle, default_variant=variant)) is not None:
                yield game


def run_build(args: argparse.Namespace) -> int:
    from ..engine.book import build
    from ..errors import InputFileError, UsageError
    from ..games import canonical_name

    if args.plies < 1 or args.min_weight < 1:
        raise UsageError("--plies and --min-weight must be at least 1")
    book = build(_games(args.files, args.variant), canonical_name(args.variant), args.plies,
                 args.min_weight)  # fmt: skip
    try:
        size = book.write(args.output)
    except OSError as error:
        raise InputFileError(f"cannot write {args.output!r}: {error.strerror}") from error
    positions = len({int(key) for key in book.entries["key"]})
    where = counted(positions, f"{book.game} position")
    print(f"{args.output}: {counted(len(book), 'move')} in {where}, "
          f"{size / 1024:.1f} KiB")  # fmt: skip
    return 0


def run_show(args: argparse.Namespace) -> int:
    from ..engine.book import Book

    book = Book.read(args.book)
    board = load_position(" ".join(args.position) or None, book.game)
    moves = book.moves(board)
    if not moves:
        print("out of book")
        return 0
    total = sum(move.weight for move in moves)
    for move in moves:
        san = board.san(board.parse_uci(move.uci))
        print(f"{san:<8} {move.uci:<7} {move.weight:>8}  {100 * move.weight / total:5.1f}%")
    print(f"{counted(len(moves), 'move')}, weight {total}", file=sys.stderr)
    return 0
