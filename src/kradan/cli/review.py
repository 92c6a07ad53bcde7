"""``kradan analyse GAME.pgn --review OUT.pgn``: one game reviewed (every position searched to a
depth or a node count, here or on an executor), its summary printed and the annotated game
written (:mod:`kradan.runners.review`, docs/review.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import UsageError
from .common import executor_from_args, fail, read_game_number
from .progress import Progress


def review_limit(args: argparse.Namespace) -> Any:
    """The review's limit: ``--depth`` or ``--nodes`` (default depth 10); never a time.

    :raises UsageError: for ``--time``, or a depth or node count out of range.
    """
    from ..engine.types import Limit
    from ..runners.review import DEFAULT_LIMIT

    if args.time is not None:
        raise UsageError(
            "--review searches to a depth or a node count, so that a review is the same "
            "wherever it runs: use --depth or --nodes, not --time"
        )
    if args.depth is not None and not 1 <= args.depth <= 60:
        raise UsageError(f"--depth {args.depth} is outside 1..60")
    if args.nodes is not None and args.nodes < 1:
        raise UsageError(f"--nodes {args.nodes} must be 1 or more")
    if args.depth is None and args.nodes is None:
        return DEFAULT_LIMIT
    return Limit(depth=args.depth, nodes=args.nodes)


def summary_lines(review: Any) -> list[str]:
    """The summary table and the marked moves, as printed."""
    from ..runners.review import marked

    lines = [f"{'':6}{'?!':>4}{'?':>4}{'??':>4}  average loss (cp)"]
    for name, side in (("White", review.white), ("Black", review.black)):
        lines.append(f"{name:6}{side.inaccuracies:>4}{side.mistakes:>4}{side.blunders:>4}  "
                     f"{side.average_loss:.1f} ({side.average_cp_loss:.0f})")  # fmt: skip
    for ply in marked(review):
        number = f"{(ply.ply + 1) // 2}{'.' if ply.white else '...'}"
        better = f"; better {ply.best.san}" if ply.best is not None else ""
        lines.append(f"{number} {ply.san}{ply.mark} (lost {100 * ply.loss:.0f}{better})")
    return lines


def run_review(args: argparse.Namespace) -> int:
    from ..runners.review import board_of_pgn, limit_text, review_game
    from ..runners.review_pgn import write_review

    limit = review_limit(args)
    game = read_game_number(" ".join(args.position), args.game or 1, args.variant)
    board = board_of_pgn(game)
    executor, _concurrency = executor_from_args(args)
    progress = Progress(len(game.mainline_moves()) + 1, "positions searched")
    where = executor.describe() if executor is not None else "this process"
    print(f"kradan: reviewing {len(game.mainline_moves())} moves, {limit_text(limit)}, on "
          f"{where}", file=sys.stderr, flush=True)  # fmt: skip
    try:
        review = review_game(board, limit, executor=executor,
                             progress=lambda done, _total: progress.update(done))  # fmt: skip
    finally:
        progress.close()
        if executor is not None:
            executor.shutdown()
    write_review(game, review)
    try:
        with open(args.review, "w", encoding="utf-8", newline="\n") as out:
            out.write(str(game) + "\n")
    except OSError as error:
        return fail(f"cannot write {args.review!r}: {error.strerror}")
    for line in summary_lines(review):
        print(line)
    print(f"written to {args.review}")
    return 0


__all__ = ["review_limit", "run_review", "summary_lines"]
