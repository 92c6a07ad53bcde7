"""What the command modules share: exit statuses, error lines, the game argument (its help
lists the registered games), and loading a position or a game named on the command line. The
command modules import this module, never each other."""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import TYPE_CHECKING, TextIO

from ..games import AnyBoard, StatusBoard, game_names, new_board

if TYPE_CHECKING:
    from ..executors import Executor
    from ..pgn import Game

#: problems found in the input (``kradan validate``, a ``kradan convert`` that stopped)
EXIT_PROBLEMS = 1
#: input that cannot be used at all: a bad argument, position or file
EXIT_BAD_INPUT = 2
#: the game of a command that names none
DEFAULT_GAME = "makruk"


#: the longest think a command accepts (about 11 days): longer is a typo, and no timer waits it
LONGEST_SECONDS = 1e6


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, above 0 and at most :data:`LONGEST_SECONDS`
    (``inf`` and ``nan`` would make a search that never ends)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= LONGEST_SECONDS):
        raise argparse.ArgumentTypeError(
            f"{text!r}: seconds must be above 0 and at most {LONGEST_SECONDS:,.0f}"
        )
    return value


def announce_compilation() -> None:
    """From now on, say on stderr (once) when numba has to compile the kernel. Imported here
    when a command runs, so that ``kradan --version`` and ``--help`` load no kernel."""
    from .._core.warmup import announce_compilation as announce

    announce()


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, in the plural unless there is one: "1 move", "2,048 moves"."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def level(text: str) -> int:
    """An argparse type: an engine level, 1..20 (the same levels ``kradan match`` takes)."""
    from ..engine.levels import MAX_LEVEL

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a level (1..{MAX_LEVEL})") from None
    if not 1 <= value <= MAX_LEVEL:
        raise argparse.ArgumentTypeError(f"level {text!r} is outside 1..{MAX_LEVEL}")
    return value


def wants_colour(no_color: bool, stream: TextIO | None = None) -> bool:
    """Whether to write ANSI colours: only to a terminal, never with ``--no-color`` or with the
    ``NO_COLOR`` environment variable set to anything (https://no-color.org)."""
    stream = stream if stream is not None else sys.stdout
    return not no_color and not os.environ.get("NO_COLOR") and stream.isatty()


def fail(message: str, status: int = EXIT_BAD_INPUT) -> int:
    """Print ``kradan: error: message`` on standard error; returns ``status`` to exit with."""
    print(f"kradan: error: {message}", file=sys.stderr)
    return status


def add_game_argument(
    parser: argparse.ArgumentParser,
    *,
    positional: bool = False,
    required: bool = False,
    purpose: str = "the game",
) -> None:
    """Add the game argument, read as ``args.variant``: ``--variant NAME``, or with
    ``positional`` a ``variant`` word (``required``: it has no default). Its help says
    ``purpose`` and lists every registered game, so a game registered later shows up."""
    names = ", ".join(game_names())
    default = None if required else DEFAULT_GAME
    text = f"{purpose} ({names})" if required else f"{purpose} ({names}; default {DEFAULT_GAME})"
    if not positional:
        parser.add_argument("--variant", default=DEFAULT_GAME, help=text)
    elif required:
        parser.add_argument("variant", help=text)
    else:
        parser.add_argument("variant", nargs="?", default=default, help=text)


#: what the commands on kradan serve's database need beyond kradan's own dependencies
DATABASE_MODULES = ("sqlalchemy", "aiosqlite", "alembic", "platformdirs")


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    """``--db URL``: kradan serve's database, as ``kradan serve`` takes it."""
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database: a file (SQLite) or a URL, sqlite+aiosqlite:///PATH or "
        "postgresql+asyncpg://... (default: games.db in your data folder)",
    )


def missing_web_extra(command: str, needed: tuple[str, ...] = DATABASE_MODULES) -> bool:
    """Whether a module of ``needed`` is missing (then said on standard error, with the way to
    install the web extra)."""
    import importlib.util

    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        print(f"kradan {command} needs the web extra: pip install 'kradan[web]' (missing: "
              f"{', '.join(missing)})", file=sys.stderr)  # fmt: skip
    return bool(missing)


def add_executor_arguments(parser: argparse.ArgumentParser, what: str = "tasks") -> None:
    """``--concurrency``, ``--executor local|ray`` and ``--address``: where parallel work runs
    and how much of it at once (docs/cluster.md); read back with :func:`executor_from_args`."""
    parser.add_argument(
        "--concurrency", type=int, metavar="N",
        help=f"{what} at once (default 1; with --executor ray the cluster's CPUs)",
    )  # fmt: skip
    parser.add_argument(
        "--executor", choices=("local", "ray"),
        help="where the work runs: local processes, or a Ray cluster (pip install "
        "'kradan[ray]'); default ray when RAY_ADDRESS is set, else local",
    )  # fmt: skip
    parser.add_argument(
        "--address", metavar="ADDRESS",
        help="the Ray cluster (ray://HOST:10001, or HOST:PORT on a node of the cluster); "
        "default RAY_ADDRESS, else a Ray instance started here",
    )  # fmt: skip


def executor_from_args(args: argparse.Namespace) -> tuple[Executor | None, int]:
    """The executor the arguments ask for and how many tasks to keep in flight on it;
    ``(None, 1)`` for work done here, one task after another (the default).

    :raises UsageError: for a ``--concurrency`` below 1.
    """
    from ..errors import UsageError
    from ..executors import default_executor_name, make_executor

    if args.concurrency is not None and args.concurrency < 1:
        raise UsageError(f"--concurrency {args.concurrency} must be at least 1")
    name = args.executor or ("ray" if args.address else default_executor_name())
    concurrency = args.concurrency or 1
    if name != "ray" and concurrency == 1:
        return None, 1
    executor = make_executor(name, args.concurrency, args.address)
    if args.concurrency is None:
        concurrency = executor.slots  # a cluster's CPUs
    return executor, concurrency


def load_position(
    text: str | None, variant: str, *, game: int = 1, ply: int | None = None
) -> AnyBoard:
    """The board of ``variant`` at ``text`` (its FEN or position text); the start position
    when ``text`` is ``None`` or blank. When ``text`` names a PGN file, the position after
    ``ply`` plies (default: the end of the main line) of its ``game``-th game.

    :raises VariantError: for an unknown variant;
    :raises InvalidFenError: for a position that cannot be read;
    :raises PgnError: for a game that is not in the file or a ply beyond its end.
    """
    if text is not None and not text.strip():
        text = None
    if text is not None and text.strip().lower().endswith(".pgn"):
        return _pgn_position(text.strip(), variant, game, ply)
    board = new_board(variant, None if text is None else " ".join(text.split()))
    warn_if_odd(board)
    return board


def warn_if_odd(board: AnyBoard) -> None:
    """Say on standard error what is odd about a loaded position (it is loaded all the same,
    as Fairy-Stockfish loads it)."""
    if isinstance(board, StatusBoard) and not board.is_valid():
        for problem in board.status_text():
            print(f"kradan: warning: odd position: {problem}", file=sys.stderr)


def read_game_number(path: str, number: int, variant: str) -> Game:
    """The ``number``-th game (from 1) of the PGN file at ``path``; ``variant`` is the game of
    games without ``[Variant]``.

    :raises UsageError: for a number below 1; InputFileError for a file that cannot be read
        or is not text; PgnError when the file has fewer games.
    """
    from .. import pgn
    from ..errors import InputFileError, PgnError, UsageError

    if number < 1:
        raise UsageError(f"--game {number}: games are numbered from 1")
    from .progress import open_text

    try:
        with open_text(path) as handle:
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


__all__ = [
    "DEFAULT_GAME",
    "EXIT_BAD_INPUT",
    "EXIT_PROBLEMS",
    "add_game_argument",
    "fail",
    "load_position",
    "read_game_number",
]
