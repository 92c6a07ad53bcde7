"""Measure the proven answers of Bell Alquerque (issue 48; docs/alquerque-solved.md): how long
``kradan.solve.answers.proven`` takes on late positions of random games (the on-line df-pn,
its recent proof trees cleared each time) and on the shipped table's positions, and how often
the short search settles a late position.

    python benchmarks/alquerque_proven.py [--games 40] [--pieces 10] [--nodes 50000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _table import print_table

from kradan.alquerque import Board
from kradan.solve import answers
from kradan.solve.answers import packaged_table, proven


def late_positions(games: int, pieces: int) -> list[Board]:
    """The first position with at most ``pieces`` pieces of each random game that gets there."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        board = Board(variant="alquerque-bell")
        while board.outcome() is None:
            if board.pieces(True) + board.pieces(False) <= pieces:
                found.append(board)
                break
            board.push(rng.choice(list(board.legal_moves)))
    return found


def timed(board: Board, nodes: int) -> tuple[float, bool]:
    answers._recent.clear()  # measure the search, not a tree found for an earlier position
    start = time.perf_counter()
    verdict = proven(board, nodes=nodes)
    return time.perf_counter() - start, verdict is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--pieces", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=50_000)
    args = parser.parse_args()
    table = packaged_table()
    timed(Board("2p2/2P2/5/5/5 w - 0 1", variant="alquerque-bell"), 10)  # compile, load
    rows = []
    boards = late_positions(args.games, args.pieces)
    results = [timed(board, args.nodes) for board in boards]
    seconds = [s for s, _ in results]
    settled = sum(ok for _, ok in results)
    rows.append([f"late ({args.pieces} pieces or fewer), df-pn {args.nodes:,} nodes",
                 str(len(boards)), f"{settled}", f"{1000 * statistics.median(seconds):.0f}",
                 f"{1000 * max(seconds):.0f}"])  # fmt: skip
    if table is not None:
        board = Board(table.root, variant="alquerque-bell")
        verdict = proven(board)
        line = list(verdict.line) if verdict is not None else []
        spent = []
        for move in line:
            start = time.perf_counter()
            proven(board)
            spent.append(time.perf_counter() - start)
            board.push(move)
        rows.append(["the shipped table's proven line", str(len(spent)), str(len(spent)),
                     f"{1000 * statistics.median(spent):.0f}",
                     f"{1000 * max(spent):.0f}"])  # fmt: skip
    print_table("proven(): answers and their time", ["positions", "count", "proven",
                "median ms", "longest ms"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
