"""Alfonso X's Alquerque table at the engine's root (docs/egtb.md, "Alfonso X's tables"): a
position the table holds as won or lost, with a verdict its history cannot change
(:attr:`kradan.egtb.alquerque_file.Verdict.exact`), is answered from the table without a search:
the quickest win or the longest resistance, the score the plies to the last capture. The
search probes it too (:func:`search_table`), at the nodes a capture has just reached."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ..alquerque.board import Board
from ..alquerque.move import Move
from ..alquerque.variant import NoCaptureAdjudication
from ..egtb.alquerque import MAX_PIECES, offsets
from ..egtb.alquerque_file import AlfonsoTable, load, under_the_rules
from ..errors import MissingTableError
from .types import MATE, PovScore, Score, SearchInfo

#: the table's line shown with its answer, in plies at most
LINE = 20
#: what the search gets when it probes no table
NO_TABLE = (0, np.zeros(1, dtype=np.int8), np.zeros((MAX_PIECES + 1, MAX_PIECES + 1), np.int64))


def find_table(directory: str | Path | bool | None) -> AlfonsoTable | None:
    """The table of ``directory`` (``None`` or ``True``: the default one; ``False``: none), or
    ``None`` when there is none there."""
    if directory is False:
        return None
    try:
        return load(None if directory is None or directory is True else directory)
    except MissingTableError:
        return None


def table_line(table: AlfonsoTable, board: Board, plies: int = LINE) -> list[Move]:
    """The table's best moves from ``board``, one after the other, ``plies`` at most."""
    line: list[Move] = []
    work = board.copy()
    while len(line) < plies and work.outcome() is None:
        move = table.best_move(work)
        if move is None:
            break
        line.append(move)
        work.push(move)
    return line


def root_answer(board: Board, directory: str | Path | bool | None) -> SearchInfo[Move] | None:
    """The table's answer for ``board``: its best move and line with the exact score, or
    ``None`` (search): no table, a position outside it, a draw, or a verdict the repetition or
    no-capture rule could change."""
    if board.pieces(True) + board.pieces(False) > MAX_PIECES:
        return None  # no table holds it: not even a file to look for
    began = time.perf_counter()
    table = find_table(directory)
    found = None if table is None else table.probe(board)
    if table is None or found is None or found.result == 0 or not found.exact:
        return None
    plies = found.plies or 0
    score = Score.from_internal(found.result * (MATE - plies))
    line = table_line(table, board)
    if not line:
        return None
    return SearchInfo(1, plies, PovScore(score, board.turn), line, 0, time.perf_counter() - began)


def search_table(
    board: Board, directory: str | Path | bool | None
) -> tuple[int, np.ndarray, np.ndarray]:
    """What the compiled search of ``board`` probes: the table's piece count (0: none), its
    values and its index offsets. None where the table's rules are not the board's, or where
    the no-capture limit decides unequal counts (a table draw would not be the game's)."""
    variant = getattr(board, "variant", None)
    decides = (
        getattr(variant, "no_capture_adjudication", None) is NoCaptureAdjudication.MORE_PIECES_WINS
        and getattr(variant, "no_capture_limit", 0) != 0
    )
    if not under_the_rules(board) or decides:
        return NO_TABLE
    table = find_table(directory)
    if table is None:
        return NO_TABLE
    return table.pieces, table.values, offsets(table.pieces)


def describe(board: Board, directory: str | Path | None = None) -> tuple[list[str], bool] | None:
    """The table's verdict, line and best move for ``board`` as lines of text, and whether the
    verdict is exact; ``None`` when the board is not Alfonso X's Alquerque, not in the table,
    or there is no table."""
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


__all__ = [
    "LINE",
    "NO_TABLE",
    "describe",
    "find_table",
    "root_answer",
    "search_table",
    "table_line",
]
