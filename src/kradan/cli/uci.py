"""``kradan uci``: serve the engine over UCI on standard input and output."""

from __future__ import annotations

import argparse
from typing import Any

from .common import announce_compilation


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "uci",
        help="run the engine over UCI (for GUIs and match runners)",
        description="Speak the Universal Chess Interface on stdin/stdout. Select the game with "
        "'setoption name UCI_Variant value cambodian'.",
        epilog="Example: printf 'uci\\nposition startpos\\ngo depth 8\\n' | kradan uci",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    announce_compilation()  # first run only, on stderr: stdout belongs to the protocol
    from ..engine.protocol import uci

    return uci.run()
