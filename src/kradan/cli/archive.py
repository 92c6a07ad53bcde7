"""``kradan archive import``: PGN files into the archive of ``kradan serve``'s database (the
games its search and opening explorer find), streamed a piece at a time, each game stored
once; needs ``pip install 'kradan[web]'``."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from .common import (
    DATABASE_MODULES,
    EXIT_BAD_INPUT,
    add_database_argument,
    counted,
    missing_web_extra,
)

EXAMPLES = """examples:
  kradan archive import games.pgn                     into games.db in your data folder
  kradan archive import a.pgn b.pgn --db club.db
  kradan archive import big.pgn --db postgresql://kradan@127.0.0.1/kradan"""

#: what the archive needs beyond kradan's own dependencies
NEEDED = DATABASE_MODULES
#: bytes read from a file at a time
CHUNK = 1 << 20
#: errors printed one by one (the rest are counted)
SHOWN_ERRORS = 20


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "archive",
        help="the archive of kradan serve: import PGN files",
        description="Import PGN files into the archive that kradan serve searches and explores.\n"
        "Each game is stored once (importing a file again stores nothing new); a game with a\n"
        "problem is left out and reported with its line.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="archive_command", metavar="ACTION", required=True)
    imports = actions.add_parser("import", help="import PGN files")
    imports.add_argument("files", nargs="+", metavar="FILE.pgn", help="the games")
    add_database_argument(imports)
    parser.set_defaults(run=run)


async def _chunks(path: Path) -> AsyncIterator[bytes]:
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            yield chunk


async def _import(url: str, paths: list[Path]) -> int:
    from ..web import storage
    from ..web.archive import ArchiveStore, ImportReport

    engine = storage.make_engine(url)
    archive = ArchiveStore(engine)
    status = 0
    try:
        await storage.migrate(engine)
        for path in paths:
            started = time.monotonic()

            def progress(report: ImportReport, path: Path = path) -> None:
                done = report.imported + report.duplicates
                print(f"\r{path}: {done:,} games ...", file=sys.stderr, end="", flush=True)

            shown = progress if sys.stderr.isatty() else None
            report = await archive.import_stream(_chunks(path), progress=shown)
            if shown is not None:
                print("\r\x1b[K", file=sys.stderr, end="", flush=True)
            seconds = time.monotonic() - started
            left_out = len(report.errors) + report.more_errors
            print(
                f"{path}: {counted(report.imported, 'game')} imported, "
                f"{counted(report.duplicates, 'duplicate')}, {left_out:,} left out "
                f"({seconds:.1f} s)"
            )
            for error in report.errors[:SHOWN_ERRORS]:
                print(f"{path}:{error.line}: {error.message}", file=sys.stderr)
            if left_out > SHOWN_ERRORS:
                print(f"{path}: ... and {left_out - SHOWN_ERRORS:,} more", file=sys.stderr)
            if not report.imported and not report.duplicates:
                status = EXIT_BAD_INPUT
    finally:
        await archive.close()
        await engine.dispose()
    return status


def run(args: argparse.Namespace) -> int:
    if missing_web_extra("archive", NEEDED):
        return EXIT_BAD_INPUT
    from ..web.storage import database_url, default_database_url

    try:
        url = database_url(args.db) if args.db is not None else default_database_url()
    except ValueError as error:
        print(f"kradan: error: --db: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    paths = [Path(name) for name in args.files]
    for path in paths:
        if not path.is_file():
            print(f"kradan: error: {str(path)!r} is not a file", file=sys.stderr)
            return EXIT_BAD_INPUT
    return asyncio.run(_import(url, paths))


__all__ = ["add_parser", "run"]
