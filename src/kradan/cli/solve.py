"""``kradan solve alquerque-bell``: prove who wins Alquerque under Bell's rules (issue 48;
docs/solving.md), on the local pool or a Ray cluster, stoppable and resumable; ``--check``
walks what the proof database proves with the public board alone."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import add_executor_arguments, executor_from_args
from .progress import show_progress

#: a late Bell position that the solver proves in a second (an example of the help's)
LATE = "'P2p1/p1p2/p3p/P4/P4 w - 0 12 e3:e5c1,a5:e3c3,d5:c5'"

EXAMPLES = f"""examples:
  kradan solve alquerque-bell --db proofs --depth 2 --seconds 600
  kradan solve alquerque-bell --db proofs --concurrency 2 --nodes 5000000
  kradan solve alquerque-bell --db proofs --executor ray --address ray://head:10001
  kradan solve alquerque-bell --db proofs --depth 2 --check     walk the proofs it holds
  kradan solve alquerque-bell --db late --position {LATE}
                                         prove a late position (seconds)
  kradan solve alquerque-bell --db late --position {LATE} --export late.kst
                                         its proof tree as a strategy table
  kradan solve alquerque-bell --check --table late.kst      walk a strategy table
                                         (without --table FILE: the one kradan ships)"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "solve",
        help="prove who wins Alquerque under Bell's rules",
        description="df-pn over a persistent proof database: positions DEPTH plies below the\n"
        "root are tasks; a task that spends --nodes unproven is split further. Stop it at any\n"
        "time (Ctrl-C); run it again with the same --db to go on.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=("alquerque-bell",), help="the game (Bell's rules)")
    parser.add_argument("--db", metavar="DIR", help="the proof database directory (needed but "
                        "for --check --table)")  # fmt: skip
    parser.add_argument("--position", metavar="TEXT", help="the root (default the start)")
    parser.add_argument("--depth", type=int, default=2, help="plies to the tasks (default 2)")
    parser.add_argument(
        "--nodes", type=int, default=2_000_000, help="node budget of a task (default 2,000,000)"
    )
    parser.add_argument("--seconds", type=float, help="stop after this long (default: never)")
    parser.add_argument(
        "--table-bits", type=int, default=22, help="a task's table: 2**N entries (default 22)"
    )
    parser.add_argument(
        "--check", action="store_true", help="do not search: walk the proofs of the root and of "
        "every position DEPTH plies below it that the database holds",
    )  # fmt: skip
    parser.add_argument(
        "--export", metavar="FILE", help="do not search: write the proof tree of the root that "
        "the database holds as a strategy table (.kst)",
    )  # fmt: skip
    parser.add_argument(
        "--table", metavar="FILE", nargs="?", const="", help="with --check: walk a strategy "
        "table instead (FILE, or without it the one kradan ships) from its root",
    )  # fmt: skip
    add_executor_arguments(parser, "tasks")
    parser.set_defaults(run=run_solve)


def _board(args: argparse.Namespace) -> Any:
    from ..alquerque import Board
    from ..errors import UsageError

    if args.depth < 0 or args.nodes < 1 or not 10 <= args.table_bits <= 30:
        raise UsageError(
            f"--depth {args.depth}, --nodes {args.nodes}, --table-bits {args.table_bits}: "
            "need depth >= 0, nodes >= 1 and 10 <= table bits <= 30"
        )
    return Board(args.position, variant="alquerque-bell")


def run_solve(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..solve.tasks import Driver

    if args.table is not None:
        if not args.check:
            raise UsageError("--table FILE goes with --check (walk a strategy table)")
        return run_check_table(args.table)
    if args.db is None:
        raise UsageError("--db DIR is needed (the proof database)")
    board = _board(args)
    if args.export:
        return run_export(args, board)
    if args.check:
        return run_check(args, board)
    driver = Driver(board, args.db, split_depth=args.depth, max_nodes=args.nodes,
                    table_bits=args.table_bits)  # fmt: skip
    executor, in_flight = executor_from_args(args)
    where = executor.describe() if executor is not None else "this process"
    print(f"kradan: solving on {where}; {len(driver.database):,} positions in {args.db}",
          file=sys.stderr)  # fmt: skip
    try:
        report = driver.run(executor, seconds=args.seconds, in_flight=in_flight,
                            on_progress=lambda r: show_progress(r.line()))  # fmt: skip
    finally:
        driver.close()
        if executor is not None:
            executor.shutdown()
    print(report.line(), file=sys.stderr)
    for depth in range(args.depth + 1):
        nodes = sorted(driver.at_depth(depth), key=lambda node: node.text)
        won = sum(node.win is True for node in nodes)
        lost = sum(node.win is False for node in nodes)
        print(f"depth {depth}: {len(nodes)} positions, {won} won and {lost} lost for the side "
              f"to move, {len(nodes) - won - lost} open")  # fmt: skip
    root = driver.root
    value = "open" if root.win is None else "won" if root.win else "lost"
    print(f"root {root.text}: {value} for the side to move")
    return 0


def run_check(args: argparse.Namespace, board: Any) -> int:
    """Walk the proofs the database holds for the root and the positions DEPTH plies below."""
    from ..solve.check import ProofError, check
    from ..solve.keys import text_key
    from ..solve.proofdb import ProofDatabase

    database = ProofDatabase(args.db)
    layer = {board.text(): board}
    failed = 0
    for depth in range(args.depth + 1):
        proven = [b for text, b in sorted(layer.items()) if database.get(text_key(text))]
        for position in proven:
            try:
                print(f"depth {depth}: " + check(database, position).describe())
            except ProofError as error:
                failed += 1
                print(f"depth {depth}: REFUSED {position.text()!r}: {error}")
        print(f"depth {depth}: {len(proven)} of {len(layer)} positions have a proof to walk")
        following: dict[str, Any] = {}
        for position in layer.values():
            for move in list(position.legal_moves):
                child = position.copy()
                child.push(move)
                following.setdefault(child.text(), child)
        layer = following
    return 1 if failed else 0


def run_export(args: argparse.Namespace, board: Any) -> int:
    """Write the proof tree of the root that the database holds as a strategy table."""
    import time

    from ..solve.export import extract
    from ..solve.proofdb import ProofDatabase

    began = time.perf_counter()
    database = ProofDatabase(args.db)

    def lookup(key: int) -> tuple[bool, int] | None:
        entry = database.get(key)
        return None if entry is None else (entry.win, entry.move)

    table = extract(board, lookup)
    size = table.write(args.export)
    root = table.get(_key(board))
    verdict = "open" if root is None else "won" if root.win else "lost"
    print(f"wrote {args.export}: {len(table):,} positions ({table.wins:,} won, "
          f"{len(table) - table.wins:,} lost for the side to move), {size:,} bytes; the root is "
          f"{verdict} for the side to move, {0 if root is None else root.depth} plies to the end; "
          f"{time.perf_counter() - began:.1f} s")  # fmt: skip
    return 0


def _key(board: Any) -> int:
    from ..solve.keys import text_key

    return text_key(board.text())


def run_check_table(path: str) -> int:
    """Walk a strategy table (``path``, or the packaged one for ``""``) from its root."""
    import time

    from ..errors import UsageError
    from ..solve.answers import PACKAGED, packaged_table
    from ..solve.check import ProofError, check_table
    from ..solve.table import read_table

    began = time.perf_counter()
    if path:
        try:
            table = read_table(path)
        except OSError as error:
            raise UsageError(f"cannot read {path!r}: {error.strerror}") from None
    else:
        found = packaged_table()
        if found is None:
            raise UsageError(f"this kradan has no packaged strategy table ({PACKAGED})")
        table = found
    print(f"{table.path}: {len(table):,} positions, root {table.root!r}")
    try:
        report = check_table(table)
    except ProofError as error:
        print(f"REFUSED: {error}")
        return 1
    print(report.describe() + f"; {time.perf_counter() - began:.1f} s")
    return 0
