"""``kradan convert``: games between PGN, position (FEN) lists and UCI move lines; SAN and Thai
SAN; kradan's, pychess.org's and cutechess's PGN."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from .. import pgn
from ..errors import PgnError
from ..games import games
from ..pgn.dialects import DIALECTS
from .common import EXIT_PROBLEMS, add_game_argument, announce_compilation, fail
from .progress import open_input

FORMATS = ("pgn", "fen", "uci")

EXAMPLES = """examples:
  kradan convert games.pgn --to fen -o positions.fen     every position of every game
  kradan convert positions.fen --to pgn                  the moves that link them, as PGN
  kradan convert moves.uci --variant cambodian --to pgn  'startpos moves e3e4 ...' lines
  kradan convert games.pgn --notation thai               the same games in Thai SAN
  kradan convert games.pgn --dialect pychess -o for-pychess.pgn

formats:
  pgn  PGN games (any dialect is read)
  fen  positions one per line, a blank line between games (the start position first)
  uci  one game per line: 'startpos moves ...', 'fen <FEN> moves ...' or moves alone"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "convert",
        help="convert games between PGN, FEN lists and UCI lines, SAN and Thai SAN, dialects",
        description="Read games from INPUT and write them to OUTPUT (standard output by default)\n"
        "in another format, notation or PGN dialect.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", metavar="INPUT", help="the input file ('-' for standard input)")
    parser.add_argument("-o", "--output", metavar="OUTPUT", help="the output file")
    parser.add_argument(
        "--from", dest="source", choices=["auto", *FORMATS], default="auto",
        help="the input format (default: from the extension or the text)",
    )  # fmt: skip
    parser.add_argument(
        "--to", dest="target", choices=FORMATS, default="pgn", help="the output format (pgn)"
    )
    add_game_argument(parser, purpose="the game of FEN and UCI input, and of PGN without [Variant]")
    parser.add_argument(
        "--notation", choices=_notations(), default="san",
        help="PGN move notation (san); a game without it keeps its own",
    )  # fmt: skip
    parser.add_argument(
        "--dialect", choices=DIALECTS, default="kradan",
        help="PGN output for kradan, pychess.org or cutechess",
    )  # fmt: skip
    parser.add_argument(
        "--strict", action="store_true",
        help="stop at the first problem in PGN input instead of skipping it",
    )  # fmt: skip
    parser.set_defaults(run=run)


def _notations() -> list[str]:
    """Every registered game's move notations, the default ones first."""
    found = dict.fromkeys(["san"])
    for game in games():
        found.update(dict.fromkeys(game.notations))
    return list(found)


def _detect(path: str, first_line: str) -> str:
    extension = os.path.splitext(path)[1].lower()
    if extension == ".pgn":
        return "pgn"
    if extension in (".fen", ".epd"):
        return "fen"
    if extension == ".uci":
        return "uci"
    line = first_line.strip()
    if line.startswith("[") or line[:1].isdigit() or line.startswith("{"):
        return "pgn"
    if line.split()[:1] in (["startpos"], ["fen"], ["position"], ["moves"]):
        return "uci"
    return "fen" if "/" in line else "uci"


def _blocks(handle: TextIO) -> Iterator[list[str]]:
    block: list[str] = []
    for line in iter(handle.readline, ""):
        if line.strip():
            block.append(line.strip())
        elif block:
            yield block
            block = []
    if block:
        yield block


def _games(handle: TextIO, source: str, args: argparse.Namespace) -> Iterator[pgn.Game]:
    from ..pgn import formats

    if source == "pgn":
        number = 0
        while (game := pgn.read_game(handle, strict=args.strict,
                                     default_variant=args.variant)) is not None:  # fmt: skip
            number += 1
            for error in game.errors:
                start = f" (from line {error.game_line})" if error.game_line else ""
                line = f"line {error.line}, " if error.line else ""
                print(f"kradan: game {number}{start}, {line}{error.message} (skipped)",
                      file=sys.stderr)  # fmt: skip
            if game.errors and not game.headers and not game.variations:
                continue  # text between games that holds nothing of a game: reported, not written
            yield game
    elif source == "fen":
        for block in _blocks(handle):
            yield formats.game_from_positions(block, args.variant)
    else:
        for block in _blocks(handle):
            for line in block:
                yield formats.game_from_uci(line, args.variant)


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    handle, reader = open_input(args.input, "bytes converted")
    first = handle.readline()
    source = args.source if args.source != "auto" else _detect(args.input, first)
    if handle is sys.stdin:
        stream: Any = _Prepend(first, handle)
    else:
        handle.seek(0)
        stream = reader
    try:
        out = open(args.output, "w", encoding="utf-8", newline="\n") if args.output else sys.stdout  # noqa: SIM115
    except OSError as error:
        return fail(f"cannot write {args.output!r}: {error.strerror}")
    try:
        separator = "\n" if args.target == "uci" else "\n\n"
        for game in _games(stream, source, args):
            out.write(_render(game, args) + separator)
    except PgnError as error:
        return fail(str(error), EXIT_PROBLEMS)
    finally:
        reader.close()
        if out is not sys.stdout:
            out.close()
        if handle is not sys.stdin:
            handle.close()
    return 0


def _render(game: pgn.Game, args: argparse.Namespace) -> str:
    from ..pgn import formats

    if args.target == "fen":
        return "\n".join(formats.positions(game))
    if args.target == "uci":
        return formats.uci_line(game)
    return next(iter(formats.export([game], dialect=args.dialect, notation=args.notation)))


class _Prepend:
    """Standard input with its first line, already read for format detection, put back."""

    def __init__(self, first: str, handle: TextIO) -> None:
        self.first: str | None = first
        self.handle = handle

    def readline(self, size: int = -1) -> str:
        if self.first is not None:
            line, self.first = self.first, None
            return line
        return self.handle.readline(size)
