"""``kradan egtb generate | verify | probe | stats``: build the endgame tables, check them, ask
them about a position, and count what they hold."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ..egtb.directory import default_directory
from ..errors import MissingTableError, UsageError
from .common import add_executor_arguments, counted, executor_from_args, fail
from .progress import bar, end_progress, show_progress

EXAMPLES = """examples:
  kradan egtb generate                      the 4-piece tables and their conversion tables (79 MiB)
  kradan egtb generate --pieces 3 --dir tables
  kradan egtb generate --concurrency 2      two tables at a time (docs/cluster.md: on Ray)
  kradan egtb verify                        every value against the values after each move
  kradan egtb probe '8/8/8/4k3/8/8/8/R3K3 w - - 0 1'
  kradan egtb probe '8/8/8/4k3/8/8/8/R3K3 b - 32 10 40'    with a count running
  kradan egtb probe '8/8/8/4k3/8/8/8/R3K3 b - 30 4 40' --variant cambodian
  kradan egtb stats                         who wins each ending, and what the count takes
  kradan egtb generate --game alquerque --pieces 4     Alfonso X's Alquerque, up to 4 pieces
  kradan egtb probe '5/5/2p2/1P3/2P2 w - 0 1' --variant alquerque"""


#: the choice of ``--game`` and ``--variant`` that asks for Alfonso X's Alquerque table
ALQUERQUE = ("alquerque",)


def _pieces(text: str) -> int:
    if text not in ("3", "4", "5"):
        raise argparse.ArgumentTypeError(f"pieces {text!r}: 3, 4 or 5 (kings included)")
    return int(text)


def _any_pieces(text: str) -> int:
    if text not in ("2", "3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"pieces {text!r}: 2 to 6 (3 to 5 for the chess family)")
    return int(text)


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "egtb",
        help="endgame tables: generate them, probe a position",
        description="Endgame tables for pawnless Makruk, Ouk and Sittuyin endings (kings "
        "included,\nup to 4 pieces; 5 on request): distance to mate, and what the count makes "
        "of it.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="egtb_command", metavar="ACTION", required=True)
    generate = _action(
        actions,
        "generate",
        run_generate,
        "build the tables of up to N pieces into the table directory",
        "Build every table of 3 to N pieces (kings included) that the directory lacks.\n"
        "5-piece tables take hours and several GiB of memory each. With --game alquerque:\n"
        "Alfonso X's Alquerque, every position of 2 to N pieces in one file (N up to 6).",
        pieces_type=_any_pieces,
    )
    generate.add_argument(
        "--force", action="store_true", help="build again the tables the directory has"
    )
    generate.add_argument(
        "--game",
        choices=("chess", *ALQUERQUE),
        default="chess",
        help="chess: the Makruk, Ouk and Sittuyin tables (default); alquerque: Alfonso X's "
        "Alquerque, every position of up to N pieces in one file",
    )
    add_executor_arguments(generate, "tables built")
    _action(
        actions,
        "verify",
        run_verify,
        "check every table against its successors",
        "Re-derive every value of every table of 3 to N pieces that the directory\n"
        "(or kradan's package) holds from the values after each move, and report the tables\n"
        "where any differs (exit status 1).",
    )
    probe = _action(
        actions,
        "probe",
        run_probe,
        "the result of a position with best play, within the count",
        "Print the result of POSITION (a FEN; the counting fields, when present, say which\n"
        "count runs) with best play, the distance to mate, the best move, and whether the\n"
        "mate comes before the count (and Sittuyin's 50-move rule) runs out.",
        pieces=False,
    )
    probe.add_argument("position", nargs="+", metavar="POSITION", help="a FEN")
    probe.add_argument(
        "--variant",
        choices=("makruk", "cambodian", "sittuyin", *ALQUERQUE),
        default="makruk",
        help="the game (default makruk; cambodian: Ouk Chatrang without leap rights; "
        "alquerque: Alfonso X's rules)",
    )
    probe.add_argument(
        "--counting",
        choices=("auto", "declared"),
        default="auto",
        help="Makruk's and Ouk's counting rules (default auto, as Fairy-Stockfish)",
    )
    _action(
        actions,
        "stats",
        run_stats,
        "who wins each ending, the longest mate, the wins each game's count takes",
        "For every table of 3 to N pieces the directory (or kradan's package)\n"
        "holds: the share of positions each side wins, White's longest mate, and the share of\n"
        "White's wins that a count starting now turns into draws, in Makruk and in Ouk.",
    )


def _action(
    actions: Any,
    name: str,
    run: Any,
    summary: str,
    description: str,
    *,
    pieces: bool = True,
    pieces_type: Any = _pieces,
) -> argparse.ArgumentParser:
    """One ``kradan egtb`` action with its ``--dir`` (and ``--pieces``) option."""
    action: argparse.ArgumentParser = actions.add_parser(
        name, help=summary, description=description
    )
    if pieces:
        action.add_argument(
            "--pieces", type=pieces_type, default=4, metavar="N", help="up to N pieces (default 4)"
        )
    action.add_argument("--dir", metavar="DIR", help=f"table directory ({_where()})")
    action.set_defaults(run=run)
    return action


def _where() -> str:
    return f"default {default_directory()}, or $KRADAN_EGTB_DIR"


def _executor(args: argparse.Namespace) -> Any:
    """The executor the arguments ask for (``None``: build here, one table after another)."""
    executor, _ = executor_from_args(args)
    if executor is not None:
        print(f"kradan: building tables on {executor.describe()}", file=sys.stderr, flush=True)
    return executor


def run_generate(args: argparse.Namespace) -> int:
    if args.game in ALQUERQUE:
        return _generate_alquerque(args.pieces, args.dir)
    if args.pieces not in (3, 4, 5):
        raise UsageError(f"pieces '{args.pieces}': 3, 4 or 5 (kings included)")
    from ..egtb.generate import generate
    from ..egtb.tables import TableSet

    directory = Path(args.dir) if args.dir else default_directory()
    tables = TableSet(directory)
    on_terminal = sys.stderr.isatty()

    def report(done: int, total: int, label: str, layer: int) -> None:
        # on a terminal one line, redrawn: the tables done and the layer of the one in work;
        # in a file or a pipe one line per table built
        note = f"{label} layer {layer}" if layer >= 0 else f"{label} done"
        if on_terminal or layer < 0:
            show_progress(f"{bar(done, total)} tables  {note:<32}")

    start = time.perf_counter()
    executor = _executor(args)
    try:
        if executor is None:
            built = generate(args.pieces, directory, load=tables.values, force=args.force,
                             on_progress=report)  # fmt: skip
        else:
            from ..runners.tablebases import generate_on

            built = generate_on(executor, args.pieces, directory, force=args.force,
                                on_progress=report)  # fmt: skip
    finally:
        if executor is not None:
            executor.shutdown()
    end_progress()
    for table in built:
        how = "kept" if table.skipped else f"{table.seconds:6.2f} s"
        print(f"{table.label:20} {how:>9}  {table.file_bytes / 2**20:7.2f} MiB")
    total = sum(t.file_bytes for t in built)
    print(
        f"{counted(len(built), 'table')} in {directory}: {total / 2**20:.1f} MiB, "
        f"{time.perf_counter() - start:.1f} s"
    )
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from ..egtb.generate import children_of, jobs, verify
    from ..egtb.tables import TableSet

    tables = TableSet(Path(args.dir) if args.dir else default_directory())
    checked = failed = 0
    for material, kind in jobs(args.pieces):
        try:
            values = tables.values(material, kind)
        except MissingTableError:
            continue
        start = time.perf_counter()
        wrong = verify(material, values, children_of(material, tables.values), kind)
        seconds = time.perf_counter() - start
        checked += 1
        failed += bool(wrong)
        verdict = "ok" if not wrong else f"{len(wrong)} values differ, first at index {wrong[0]}"
        label = f"{material.key}.{kind}" if kind else material.key
        print(f"{label:20} {seconds:6.2f} s  {verdict}")
    print(f"{counted(checked, 'table')} checked, {failed} with errors")
    return 1 if failed else 0


def run_probe(args: argparse.Namespace) -> int:
    if args.variant in ALQUERQUE:
        return _probe_alquerque(" ".join(args.position), args.dir)
    from ..board import Board
    from ..egtb import Tablebase
    from ..games import find_game

    options = find_game(args.variant).applicable_options(counting=args.counting)
    board = Board(" ".join(args.position), variant=args.variant, **options)
    result = Tablebase(args.dir).probe(board)
    print(result)
    if result.best_move is not None:
        print(f"best move: {board.san(result.best_move)} ({result.best_move.uci()})")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from ..egtb.material import build_order
    from ..egtb.stats import GAMES, table_stats
    from ..egtb.tables import TableSet

    tables = TableSet(Path(args.dir) if args.dir else default_directory())

    def share(value: float) -> str:
        if value == 0:
            return "0"
        percent = 100 * value
        return f"{percent:.2f}%" if percent >= 0.01 else f"{percent:.6f}".rstrip("0") + "%"

    def pair(values: tuple[float, float] | None) -> str:
        return "missing" if values is None else f"{share(values[0])} / {share(values[1])}"

    head = ["table", "White wins (W / B to move)", "Black wins", "longest mate (moves)"]
    for game in GAMES:
        head += [f"{game}: count (moves)", f"{game}: wins it draws"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    shown = 0
    for material in sorted(build_order(args.pieces), key=lambda m: (m.pieces, m.key)):
        try:
            values = tables.values(material)
        except MissingTableError:
            continue

        def conversion(kind: str, material: Any = material) -> Any:
            try:
                return tables.values(material, kind)
            except MissingTableError:
                return None

        found = table_stats(material, values, conversion)
        longest = " / ".join("-" if m is None else str(m) for m in found.longest)
        row = [found.key, pair(found.white_wins), pair(found.black_wins), longest]
        for label, cut in found.counts.values():
            row += [label, pair(cut)]
        print("| " + " | ".join(row) + " |")
        shown += 1
    if not shown:
        print(f"no tables in {tables.directory}; make them with 'kradan egtb generate'")
        return 1
    return 0


def _generate_alquerque(pieces: int, directory: str | None) -> int:
    """Build the table of up to ``pieces`` pieces into ``directory`` and say what it took."""
    from ..egtb.alquerque import generate
    from ..egtb.alquerque_file import table_path, write_table

    made = generate(pieces)
    path = table_path(Path(directory) if directory else default_directory())
    size = write_table(path, pieces, made.values)
    values = made.values
    print(
        f"{counted(len(values), 'position')} of up to {pieces} pieces, "
        f"{counted(made.moves, 'move')}; longest win {made.longest} plies"
    )
    print(
        f"side to move wins {int((values > 0).sum()):,}, loses {int((values < 0).sum()):,}, "
        f"draws {int((values == 0).sum()):,}"
    )
    print(f"{path}: {size / 2**20:.2f} MiB, built in {made.seconds:.1f} s")
    return 0


def _probe_alquerque(text: str, directory: str | None) -> int:
    """Print the table's verdict and best move for the position ``text``."""
    from ..alquerque.board import Board
    from ..egtb.alquerque_file import load
    from ..engine.alquerque_tables import describe

    board = Board(text, variant="alquerque")
    table = load(directory)  # a missing or damaged table is an error here
    described = describe(board, directory)
    if described is None:
        pieces = board.pieces(True) + board.pieces(False)
        return fail(f"{text!r} is not in the Alfonso X table: {pieces} pieces (it holds up to "
                    f"{table.pieces}, each side one or more)")  # fmt: skip
    print("\n".join(described[0]))
    return 0
