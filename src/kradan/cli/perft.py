"""``kradan perft VARIANT DEPTH [--fen FEN] [--divide] [--no-bulk]``: count the move tree."""

from __future__ import annotations

import argparse
import inspect
import time
from typing import Any

from ..games import new_board
from .common import add_game_argument, announce_compilation

MAX_DEPTH = 12


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth {text!r} is not a whole number") from None
    if not 0 <= depth <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"depth {depth} is outside 0..{MAX_DEPTH}")
    return depth


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "perft",
        help="count the leaf nodes of the legal move tree",
        description="Count the positions reached after DEPTH plies of legal moves.",
        epilog="examples:\n  kradan perft makruk 5\n  kradan perft makruk 3 --divide "
        "--fen '4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(parser, positional=True, required=True, purpose="game name")
    parser.add_argument("depth", type=_depth, help=f"plies to search (0..{MAX_DEPTH})")
    parser.add_argument(
        "--fen", help="start from this position (FEN, or the game's position text) instead"
    )
    parser.add_argument("--divide", action="store_true", help="show the count below each move")
    parser.add_argument(
        "--no-bulk", action="store_true", help="make every leaf move instead of counting them"
    )
    parser.add_argument(
        "--threads", type=int, default=1, metavar="N", help="share the first moves among N threads"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    board = new_board(args.variant, args.fen)
    bulk = not args.no_bulk
    board.perft(1)  # compile (first run) or load the kernel before the clock starts
    start = time.perf_counter()
    if args.divide:
        counts = {move.uci(): n for move, n in board.perft_divide(args.depth, bulk=bulk).items()}
        for uci in sorted(counts):
            print(f"{uci}: {counts[uci]}")
        nodes = sum(counts.values()) if args.depth > 0 else 1
        print()
    else:
        threads = max(1, args.threads)
        perft: Any = board.perft
        # a board whose perft takes ``threads`` shares out its first moves; others count alone
        if threads > 1 and "threads" in inspect.signature(perft).parameters:
            nodes = perft(args.depth, bulk=bulk, threads=threads)
        else:
            nodes = perft(args.depth, bulk=bulk)
    seconds = time.perf_counter() - start
    speed = f"{nodes / seconds / 1e6:.1f} M nodes/s" if seconds > 0 else "-"
    print(f"nodes {nodes}  time {seconds:.3f} s  speed {speed}")
    return 0
