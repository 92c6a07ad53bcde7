"""Alfonso X's Alquerque table at the engine's root (docs/egtb.md, "Alfonso X's tables"): a
position the table holds as won or lost, with a verdict its history cannot change
(:attr:`kradan.egtb.alquerque_file.Verdict.exact`), is answered from the table without a search:
the quickest win or the longest resistance, the score the plies to the last capture."""

from __future__ import annotations

import time
from pathlib import Path

from ..alquerque.board import Board
from ..alquerque.move import Move
from ..egtb.alquerque import MAX_PIECES
from ..egtb.alquerque_file import AlfonsoTable, load
from ..errors import MissingTableError
from .types import MATE, PovScore, Score, SearchInfo

#: the table's line shown with its answer, in plies at most
LINE = 20


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


__all__ = ["LINE", "find_table", "root_answer", "table_line"]
