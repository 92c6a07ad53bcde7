"""``kradan``: the command-line entry point. Subcommands live in their own modules."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import re
import signal
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import KradanError
from ..interrupts import Terminated, sigterm_as_interrupt
from . import (
    admin,
    analyse,
    archive,
    book,
    bot,
    convert,
    egtb,
    match,
    perft,
    play,
    serve,
    show,
    solve,
    tune,
    uci,
    validate,
    xboard,
)
from .common import EXIT_BAD_INPUT, fail


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kradan",
        description="Makruk, Ouk Chatrang, Kar Ouk, Sittuyin and Alquerque: tools and engine.",
        epilog="Example: kradan perft makruk 5",
    )
    parser.add_argument("--version", action="version", version=f"kradan {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    perft.add_parser(commands)
    uci.add_parser(commands)
    match.add_parser(commands)
    xboard.add_parser(commands)
    play.add_parser(commands)
    show.add_parser(commands)
    analyse.add_parser(commands)
    convert.add_parser(commands)
    validate.add_parser(commands)
    serve.add_parser(commands)
    egtb.add_parser(commands)
    book.add_parser(commands)
    archive.add_parser(commands)
    admin.add_parser(commands)
    bot.add_parser(commands)
    tune.add_parser(commands)
    solve.add_parser(commands)
    for command_parser in commands.choices.values():  # for a command's own usage on errors
        command_parser.set_defaults(command_parser=command_parser)
    return parser


def _refuse_unknown(
    parser: argparse.ArgumentParser, args: argparse.Namespace, unknown: list[str]
) -> None:
    """Exit with the command's own usage (not the top-level one) for arguments it does not
    know, naming the option that was probably meant."""
    target: argparse.ArgumentParser = getattr(args, "command_parser", parser)
    known = re.findall(r"--?[A-Za-z][\w-]*", target.format_help())
    guesses = [
        close[0]
        for word in unknown
        if word.startswith("-")
        and (close := difflib.get_close_matches(word.split("=")[0], known, 1))
    ]
    hint = f" (did you mean {' or '.join(guesses)}?)" if guesses else ""
    target.error(f"unrecognized arguments: {' '.join(unknown)}{hint}")


def _flush_each_line() -> None:
    """Write each line as it is printed, also into a file or a pipe (``kradan egtb generate >
    log``), where Python would otherwise hold minutes of output in its buffer."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # a stream that cannot change (closed, or not a text wrapper) stays as it is
            with contextlib.suppress(ValueError, OSError):
                reconfigure(line_buffering=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input, never a traceback)."""
    parser = build_parser()
    words = sys.argv[1:] if argv is None else list(argv)
    held = next((word for word in words if "\0" in word), None)
    if held is not None:  # no shell passes one; a program calling main() might
        return fail(f"an argument holds a NUL byte: {held!r}")
    args, unknown = parser.parse_known_args(words)
    if unknown:
        _refuse_unknown(parser, args, unknown)
    _flush_each_line()
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        with sigterm_as_interrupt():
            return int(args.run(args))
    except KradanError as error:
        return fail(str(error))
    except UnicodeDecodeError as error:
        return fail(f"the input is not UTF-8 text ({error.reason} at byte {error.start})")
    except BrokenPipeError:
        # the reader of our output went away (``kradan convert ... | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Terminated:
        print("kradan: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("kradan: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
