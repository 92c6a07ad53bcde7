"""``kradan egtb generate --game alquerque`` and ``kradan egtb probe --variant alquerque``: Alfonso
X's Alquerque table (docs/egtb.md, "Alfonso X's tables"), and the verdict ``kradan analyse``
prints for a position in it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..egtb.directory import default_directory
from .common import counted, fail


def generate_alquerque(pieces: int, directory: str | None) -> int:
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


def describe(board: Any, directory: str | Path | None = None) -> tuple[list[str], bool] | None:
    """The table's verdict, line and best move for ``board`` as lines of text, and whether the
    verdict is exact; ``None`` when the board is not Alfonso X's Alquerque, not in the table,
    or there is no table."""
    from ..egtb.alquerque_file import load, under_the_rules
    from ..engine.alquerque_tables import table_line
    from ..errors import MissingTableError

    if not under_the_rules(board):
        return None
    try:
        table = load(directory)
    except MissingTableError:
        return None
    found = table.probe(board)
    if found is None:
        return None
    lines = [f"Alfonso X table ({table.pieces} pieces): {found}"]
    line = table_line(table, board)
    if line:
        lines.append(f"line: {board.variation_san(line)}")
        lines.append(f"best move: {board.san(line[0])} ({line[0].uci()})")
    return lines, found.exact


def probe_alquerque(text: str, directory: str | None) -> int:
    """Print the table's verdict and best move for the position ``text``."""
    from ..alquerque.board import Board
    from ..egtb.alquerque_file import load

    board = Board(text, variant="alquerque")
    table = load(directory)  # a missing or damaged table is an error here
    described = describe(board, directory)
    if described is None:
        pieces = board.pieces(True) + board.pieces(False)
        return fail(f"{text!r} is not in the Alfonso X table: {pieces} pieces (it holds up to "
                    f"{table.pieces}, each side one or more)")  # fmt: skip
    print("\n".join(described[0]))
    return 0


__all__ = ["describe", "generate_alquerque", "probe_alquerque"]
