"""Endgames a player failed to win, as start positions for a quick match on them.

Most of kradan's draws against Fairy-Max are counts that ran out with kradan ahead. This script
reads match games (PGN) and writes, for each drawn game in which PLAYER was ahead by at least
``--lead`` centipawns (the engine's piece values) while the other side's count ran, the first
such position: where the count began to matter. A change meant to convert better is then
played against the build before it from those positions, each with both colours:

    python benchmarks/conversions.py games.pgn --player kradan -o conversions.fen
    kradan match "uci:benchmarks/engine-at NEW" "uci:benchmarks/engine-at OLD" \\
        --openings conversions.fen --games 116 --tc 5+0.05 --concurrency 2

This is a pre-screen that finds a change worth an SPRT, never a verdict: the positions are
chosen for one weakness, and a change can lose elsewhere.
"""

from __future__ import annotations

import argparse
import sys

from kradan import pgn
from kradan.engine.counting_policy import material_balance


def conversion_positions(paths: list[str], player: str, lead: int) -> list[str]:
    """The FEN of each drawn game's first position where ``player`` (a prefix of its PGN
    name) leads by ``lead`` or more while its opponent counts."""
    found: list[str] = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while (game := pgn.read_game(handle)) is not None:
                if game.headers.get("Result") != "1/2-1/2":
                    continue
                ours = game.headers.get("White", "").startswith(player)
                if not ours and not game.headers.get("Black", "").startswith(player):
                    continue
                board = game.board()
                for node in game.mainline():
                    board.push(node.move)
                    state = board.counting_state()
                    if state is None or state.counting_side == ours:
                        continue
                    balance = material_balance(board)
                    if (balance if board.turn == ours else -balance) >= lead:
                        found.append(board.fen())
                        break
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="match games")
    parser.add_argument("--player", default="kradan", help="the player's name, or its start")
    parser.add_argument("--lead", type=int, default=150, help="centipawns ahead (150)")
    parser.add_argument("-o", "--output", default="-", help="FEN file (default: print)")
    args = parser.parse_args(argv)
    positions = conversion_positions(args.pgn, args.player, args.lead)
    text = "".join(fen + "\n" for fen in positions)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"{len(positions)} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
