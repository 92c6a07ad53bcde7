"""``kradan analyse``: the engine's view of a position (its lines, depth by depth), of every
move of a game (an annotated PGN), or one game reviewed (``--review``: every move judged by its
loss of winning chances, the summary printed and the annotated game written; docs/review.md)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any, cast

from ..errors import UsageError
from .common import (
    add_executor_arguments,
    add_game_argument,
    announce_compilation,
    counted,
    executor_from_args,
    fail,
    load_position,
    read_game_number,
    seconds,
)
from .progress import Progress, open_text

EXAMPLES = """examples:
  kradan analyse                                     Makruk's start position, 5 seconds
  kradan analyse '4k3/8/8/8/8/8/3R4/4K3 w - - 0 1' --depth 12 --multipv 3
  kradan analyse --variant alquerque-bell --time 2
  kradan analyse games.pgn --game 2 --ply 30          a position of a saved game
  kradan analyse games.pgn --annotate annotated.pgn --time 0.5
                                                     every move of every game judged
  kradan analyse games.pgn --review reviewed.pgn --depth 10
                                                     one game reviewed: marks, the better
                                                     moves, each side's summary
  kradan analyse games.pgn --annotate out.pgn --concurrency 2
                                                     two games at a time
  kradan analyse games.pgn --annotate out.pgn --executor ray --address ray://HOST:10001
                                                     on a Ray cluster (docs/cluster.md)"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="the engine's lines for a position, or an annotated copy of a game",
        description="Search POSITION (a FEN, the game's position text, or a PGN file) and\n"
        "print the engine's best lines as they deepen. With --annotate, judge every move of a\n"
        "PGN game instead: each gets an evaluation, mistakes get ?!, ? or ?? and the line the\n"
        "engine prefers.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", nargs="*", metavar="POSITION",
                        help="a FEN or position text (as words), or a PGN file")  # fmt: skip
    add_game_argument(parser)
    parser.add_argument("--time", type=seconds, help="seconds per position (default 5; 0.5 with"
                        " --annotate)")  # fmt: skip
    parser.add_argument("--depth", type=int, help="search this many plies deep instead")
    parser.add_argument("--nodes", type=int, help="search this many nodes instead")
    parser.add_argument("--multipv", type=int, default=1, metavar="K", help="show K lines")
    parser.add_argument(
        "--game",
        type=int,
        metavar="N",
        help="a PGN file's N-th game (default: the first; with --annotate, all)",
    )
    parser.add_argument("--ply", type=int, metavar="N", help="the position after N plies")
    parser.add_argument("--annotate", metavar="OUT.pgn",
                        help="judge every move of the PGN file's games (or --game N), write "
                        "them to OUT.pgn")  # fmt: skip
    parser.add_argument("--review", metavar="OUT.pgn",
                        help="review the PGN file's game (--game N, default the first): every "
                        "move judged by its loss in winning chances, to a depth or node count "
                        "(default depth 10); the summary printed, the game written to "
                        "OUT.pgn")  # fmt: skip
    add_executor_arguments(parser, "with --annotate or --review: chunks of work")
    parser.set_defaults(run=run)


def _limit(args: argparse.Namespace, default_seconds: float) -> Any:
    from ..engine.types import Limit

    if args.depth is not None:
        if not 1 <= args.depth <= 60:
            raise UsageError(f"--depth {args.depth} is outside 1..60")
        return Limit(depth=args.depth)
    if args.nodes is not None:
        if args.nodes < 1:
            raise UsageError(f"--nodes {args.nodes} must be 1 or more")
        return Limit(nodes=args.nodes)
    seconds = default_seconds if args.time is None else args.time
    if seconds <= 0:
        raise UsageError(f"--time {seconds} must be above 0")
    return Limit(time=seconds)


def _score(info: Any) -> str:
    score = info.score
    if score.mate is not None:
        return f"mate {score.mate}"
    return f"{score.cp / 100:+.2f}"


def _print_table_lines(board: Any, count: int) -> None:
    """The ``count`` best moves as the endgame tables rank them, each with its best line."""
    from ..engine.tablebase import default_tables, table_line, table_moves

    tables = default_tables()
    judged = table_moves(tables, board)[:count]
    print(f"\n{len(judged)} best lines:")
    for rank, (move, result, plies) in enumerate(judged, start=1):
        if result == 0:
            verdict = "draw"
        else:
            verdict = f"{'mate' if result > 0 else 'mated'} in {(plies or 0) // 2 + (result > 0)}"
        child = board.copy(stack=False)
        child.push(move)
        found = tables.root(child)
        rest = table_line(tables, child, found, 19) if found is not None else []
        print(f"{rank:>3}. {verdict:>12}  {board.variation_san([move, *rest])}")


def _print_alfonso_table(board: Any) -> bool:
    """Print Alfonso X's Alquerque table's verdict for ``board`` when it holds the position;
    ``True`` when that verdict is exact, so no search is needed (docs/egtb.md)."""
    from ..engine.alquerque_tables import describe

    described = describe(board)
    if described is None:
        return False
    lines, exact = described
    print("\n".join(lines))
    return exact


def _print_proven(board: Any) -> bool:
    """Print the proven value of a Bell position (the solved strategy, or a short df-pn of a
    late one: docs/alquerque-solved.md) and its line; ``False`` when none is known."""
    from ..solve.answers import is_bell, proven

    verdict = proven(board) if is_bell(board) else None
    if verdict is None or verdict.move is None:
        return False
    side = "White" if board.turn else "Black"
    where = "the solved strategy table" if verdict.source == "table" else "a df-pn search"
    print(f"{verdict.text()} plies for {side} to move (from {where})")
    print(f"line: {board.variation_san(list(verdict.line))}")
    print(f"best move: {board.san(verdict.move)}")
    return True


def _analyse_position(args: argparse.Namespace) -> int:
    from ..board import Board
    from ..engine.searchers import Searchers
    from ..engine.tablebase import default_tables, table_answer, table_line

    text = " ".join(args.position) if args.position else None
    board = load_position(text, args.variant, game=args.game or 1, ply=args.ply)
    if board.outcome() is not None:
        print(f"the game is over: {board.outcome()}")
        return 0
    limit = _limit(args, 5.0)
    if not 1 <= args.multipv <= 20:
        raise UsageError(f"--multipv {args.multipv} is outside 1..20")
    found = table_answer(board)
    # the tables are exact, the count included: no search can add to them
    if found is not None:  # only the chess family's tables answer
        print(f"endgame table: {found}")
        if found.best_move is not None:
            chess = cast(Board, board)  # only the chess kernel's boards have tables
            line = table_line(default_tables(), chess, found, 20 if found.wdl else 1)
            print(f"line: {board.variation_san(line)}")
            if args.multipv > 1:
                _print_table_lines(chess, args.multipv)
            print(f"best move: {board.san(found.best_move)}")
        return 0
    if _print_alfonso_table(board) or _print_proven(board):
        return 0
    searchers = Searchers()
    searchers.warm(board)  # compile or load the search before the clock starts
    search = searchers.for_board(board)
    print(f"{'depth':>5} {'score':>9} {'nodes':>10} {'nps':>9} {'time':>6}  line")
    last: list[Any] = []
    for lines in search.search_multipv(board, limit, args.multipv):
        last = lines
        best = lines[0]
        print(f"{best.depth:>5} {_score(best):>9} {best.nodes:>10} {best.nps:>9} "
              f"{best.seconds:>6.2f}  {board.variation_san(best.pv)}", flush=True)  # fmt: skip
    if args.multipv > 1 and last:
        print(f"\n{len(last)} best lines:")
        for rank, info in enumerate(last, start=1):
            print(f"{rank:>3}. {_score(info):>9}  {board.variation_san(info.pv)}")
    if last and last[0].pv:
        print(f"best move: {board.san(last[0].pv[0])}")
    return 0


def _annotate(args: argparse.Namespace) -> int:
    if args.game is not None:
        return _annotate_one(args)
    return _annotate_file(args)


def _annotate_one(args: argparse.Namespace) -> int:
    from ..engine.annotate import annotate

    game = read_game_number(" ".join(args.position), args.game, args.variant)
    progress = Progress(len(game.mainline_moves()) + 1, "positions searched")
    annotate(game, _limit(args, 0.5), progress=lambda done, _total: progress.update(done))
    progress.close()
    try:
        with open(args.annotate, "w", encoding="utf-8", newline="\n") as out:
            out.write(str(game) + "\n")
    except OSError as error:
        return fail(f"cannot write {args.annotate!r}: {error.strerror}")
    marked = sum(1 for node in game.mainline() if node.nags)
    judged = counted(len(game.mainline_moves()), "move")
    print(f"{judged} judged, {marked} marked; written to {args.annotate}")
    return 0


def _chunks_here(chunks: list[Any], progress: Progress) -> Iterator[tuple[int, Any]]:
    """Annotate the chunks one by one in this process, the bar moving within each chunk."""
    from ..engine.annotate_file import annotate_chunk

    done = 0

    def advanced(count: int) -> None:
        progress.update(done + count)  # ``done``: the games of the chunks before this one

    for index, chunk in enumerate(chunks):
        result = annotate_chunk(chunk, advanced)
        done += result.games
        yield index, result


def _chunks_on(
    executor: Any, chunks: list[Any], concurrency: int, progress: Progress
) -> Iterator[tuple[int, Any]]:
    """Annotate the chunks on ``executor``, ``concurrency`` at a time, as they finish."""
    from ..engine.annotate_file import annotate_chunk
    from ..executors import run_tasks

    done = 0
    for index, result in run_tasks(executor, annotate_chunk, chunks, in_flight=concurrency):
        done += result.games
        progress.update(done)
        yield index, result


def _annotate_file(args: argparse.Namespace) -> int:
    """Every game of the file, in chunks, here or on an executor; written in the file's order."""
    import sys

    from ..engine.annotate_file import ChunkResult, plan_chunks
    from ..executors import in_order

    path = " ".join(args.position)
    open_text(path).close()  # refuses, at once, a file that is not there or is not text
    limit = _limit(args, 0.5)
    executor, concurrency = executor_from_args(args)
    chunks = plan_chunks(path, args.variant, limit, concurrency)
    total = sum(chunk.games for chunk in chunks)
    progress = Progress(total, "games annotated")
    games = moves = marked = 0
    problems: list[str] = []
    if executor is not None:
        print(f"kradan: {total} games in {len(chunks)} chunks, {concurrency} at a time, on "
              f"{executor.describe()}", file=sys.stderr, flush=True)  # fmt: skip

    try:
        with open(args.annotate, "w", encoding="utf-8", newline="\n") as out:
            if executor is None:
                finished = _chunks_here(chunks, progress)
            else:
                finished = _chunks_on(executor, chunks, concurrency, progress)
            for _index, result in in_order(finished):
                chunk_result: ChunkResult = result
                out.write(chunk_result.text)
                out.flush()
                games += chunk_result.games
                moves += chunk_result.moves
                marked += chunk_result.marked
                problems += chunk_result.problems
    except OSError as error:
        return fail(f"cannot write {args.annotate!r}: {error.strerror}")
    except KeyboardInterrupt:
        print(f"\nkradan: stopped; {args.annotate} holds the first {games} games",
              file=sys.stderr)  # fmt: skip
        raise
    finally:
        progress.close()
        if executor is not None:
            executor.shutdown()
    for problem in problems[:20]:
        print(f"kradan: {problem}", file=sys.stderr)
    count = len(problems)
    kept = f" ({counted(count, 'problem')} read past)" if problems else ""
    print(f"{counted(games, 'game')}, {counted(moves, 'move')} judged, {marked} marked; written to "
          f"{args.annotate}{kept}")  # fmt: skip
    return 0


# --- --review: one game reviewed (kradan.runners.review, docs/review.md) ----------------------


def _review_limit(args: argparse.Namespace) -> Any:
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


def _summary_lines(review: Any) -> list[str]:
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


def _review(args: argparse.Namespace) -> int:
    import sys

    from ..runners.review import board_of_pgn, limit_text, review_game
    from ..runners.review_pgn import write_review

    limit = _review_limit(args)
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
    for line in _summary_lines(review):
        print(line)
    print(f"written to {args.review}")
    return 0


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    if args.review:
        if args.annotate:
            raise UsageError("--review and --annotate: choose one")
        if not args.position or not " ".join(args.position).lower().endswith(".pgn"):
            raise UsageError("--review needs a PGN file as POSITION")
        return _review(args)
    if args.annotate:
        if not args.position or not " ".join(args.position).lower().endswith(".pgn"):
            raise UsageError("--annotate needs a PGN file as POSITION")
        return _annotate(args)
    return _analyse_position(args)


__all__ = ["add_parser", "run"]
