"""``kradan xboard``: serve the engine over the XBoard protocol on standard input and output."""

from __future__ import annotations

import argparse
from typing import Any

from .common import announce_compilation


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "xboard",
        help="run the engine over XBoard/CECP (for WinBoard, XBoard, cutechess)",
        description="Speak the XBoard protocol (version 2) on stdin/stdout. Choose the game "
        "with 'variant cambodian'.",
        epilog="Example: xboard -fcp 'kradan xboard' -variant makruk",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    from ..engine.protocol import xboard

    return xboard.run()
