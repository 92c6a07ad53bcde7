"""The Alfonso X Alquerque table's file, and asking it about a board (docs/egtb.md, "Alfonso X's
tables").

One file, ``alquerque-alfonso.akt`` in the table directory (:func:`default_directory`), holds
every position of up to N pieces (:mod:`kradan.egtb.alquerque`). Layout (little-endian)::

    magic "KRADANAQ" | format version u16 | pieces u8 | entries u64
    | SHA-256 of the uncompressed values (32 bytes) | zlib payload (int8 values)

A file is read whole and checked (size and checksum) before any value of it is used.

What a verdict means. The table holds the pure game's values (no repetition draw, no no-capture
limit). A draw there is a draw under those rules too: they only add draws. A win or loss in
``d`` plies is also the value under them when the game's history cannot get in the way
(:attr:`Verdict.exact`): the no-capture limit cannot be reached within the ``d`` plies
(``c + d <= 2 * limit`` for ``c`` plies already played without a capture; ``c`` counts as 0
when the piece counts differ and the limit only draws equal counts, since a capture, which
alone makes them equal, starts the count again), and no position
since the last capture could come back on the winning line (none of them is won for the same
side in fewer plies; the winner's distance falls every ply, so the line never repeats itself).
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..alquerque.board import Board
from ..alquerque.move import Move
from ..alquerque.variant import CaptureRule, ChainContinuation, NoCaptureAdjudication
from ..errors import CorruptTableError, MissingTableError
from ..pieces import KING
from .alquerque import MAX_PIECES, index_of, offsets, table_size
from .directory import default_directory

FILE_NAME = "alquerque-alfonso.akt"
MAGIC = b"KRADANAQ"
FORMAT_VERSION = 1
_HEADER = struct.Struct("<8sHBQ32s")
_offsets = lru_cache(maxsize=None)(offsets)


@dataclass(frozen=True)
class Verdict:
    """A table's answer for the side to move: ``result`` 1 (wins), 0 (draw) or -1 (loses),
    ``plies`` to the capture of the last piece (``None`` for a draw), and whether it is the
    game's value under the repetition and no-capture rules given the board's history
    (``exact``; see the module's text)."""

    result: int
    plies: int | None
    exact: bool = True

    def __str__(self) -> str:
        if self.result == 0:
            text = "draw"
        else:
            plies = f"{self.plies} ply" if self.plies == 1 else f"{self.plies} plies"
            text = f"{'win' if self.result > 0 else 'loss'} in {plies}"
        return text if self.exact else f"{text} (without the repetition and no-capture rules)"


def under_the_rules(board: object) -> bool:
    """Whether ``board`` (a board of any game) plays the rules the tables are made for: Alfonso
    X's, captures and chains compulsory, no kings. Asked of the rule set's fields, so a board
    of another game is simply not under them."""
    variant = getattr(board, "variant", None)
    return (
        getattr(variant, "bell", None) is False
        and getattr(variant, "capture_rule", None) is CaptureRule.FORCED
        and getattr(variant, "chain_continuation", None) is ChainContinuation.MANDATORY
        and getattr(variant, "alquerque_kings", None) is False
    )


@dataclass(frozen=True)
class AlfonsoTable:
    """The values of one table file (``pieces``: the most pieces, both sides together)."""

    pieces: int
    values: np.ndarray
    path: str = ""

    def covers(self, board: Board) -> bool:
        """Whether ``board`` is a position of this table under the rules it was made for."""
        if not under_the_rules(board) or board.huff_liable():
            return False
        mine, theirs = board.pieces(board.turn), board.pieces(not board.turn)
        if mine == 0 or theirs == 0 or mine + theirs > self.pieces:
            return False
        return not any(
            piece is not None and piece.piece_type == KING
            for piece in map(board.piece_at, range(25))
        )

    def value(self, board: Board) -> int:
        """The stored value of ``board`` (a position :meth:`covers` accepts)."""
        mover = theirs = 0
        for point in range(25):
            piece = board.piece_at(point)
            if piece is not None:
                if piece.color == board.turn:
                    mover |= 1 << point
                else:
                    theirs |= 1 << point
        return int(self.values[index_of(mover, theirs, _offsets(self.pieces))])

    def pure(self, board: Board) -> Verdict | None:
        """The pure game's verdict for ``board`` (``None``: not in the table)."""
        if not self.covers(board):
            return None
        value = self.value(board)
        return Verdict(int(np.sign(value)), abs(value) or None)

    def probe(self, board: Board) -> Verdict | None:
        """The verdict for ``board``, with :attr:`Verdict.exact` judged from its history
        (``None``: not in the table)."""
        found = self.pure(board)
        if found is None:
            return None
        return Verdict(found.result, found.plies, self._exact(board, found))

    def _exact(self, board: Board, found: Verdict) -> bool:
        variant = board.variant
        limit = 2 * variant.no_capture_limit
        decides = variant.no_capture_adjudication is NoCaptureAdjudication.MORE_PIECES_WINS
        if found.result == 0:
            return limit == 0 or not decides
        plies = found.plies or 0
        quiet = int(board.text().split()[3])  # plies since the last capture
        # the limit draws only equal counts, and a capture, which alone makes them equal,
        # starts the count again
        counted = 0 if not decides and board.pieces(True) != board.pieces(False) else quiet
        if limit and counted + plies > limit:
            return False
        winner = board.turn if found.result > 0 else not board.turn
        earlier = board.copy()
        for _ in range(min(quiet, len(board.move_stack))):
            earlier.pop()
            before = self.pure(earlier)
            if before is None or before.result == 0 or not before.plies:
                continue
            wins_it = (earlier.turn == winner) == (before.result > 0)
            if wins_it and before.plies < plies:
                return False  # it could come back on the winning line: a threefold repetition
        return True

    def moves(self, board: Board) -> list[tuple[Move, Verdict]]:
        """Every legal move of ``board`` with the pure verdict for its mover, best first: the
        quickest win, then draws, then the longest loss (empty when ``board`` is not in the
        table)."""
        if not self.covers(board):
            return []
        judged: list[tuple[Move, Verdict]] = []
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            if child.pieces(child.turn) == 0:
                judged.append((move, Verdict(1, 1)))
                continue
            after = self.pure(child)
            if after is None:  # cannot happen: a move never adds a piece
                return []
            plies = None if after.plies is None else after.plies + 1
            judged.append((move, Verdict(-after.result, plies)))

        def order(entry: tuple[Move, Verdict]) -> tuple[int, int]:
            verdict = entry[1]
            plies = verdict.plies or 0
            return (-verdict.result, plies if verdict.result > 0 else -plies)

        return sorted(judged, key=order)

    def best_move(self, board: Board) -> Move | None:
        """The table's best move for ``board`` (``None``: not in the table, or no move)."""
        judged = self.moves(board)
        return judged[0][0] if judged else None


def table_path(directory: str | Path | None = None) -> Path:
    """Where the table file of ``directory`` (default :func:`default_directory`) is."""
    return Path(directory if directory is not None else default_directory()) / FILE_NAME


def write_table(path: str | Path, pieces: int, values: np.ndarray, level: int = 9) -> int:
    """Write ``values`` (a table of up to ``pieces`` pieces) to ``path`` atomically; returns the
    file's size in bytes."""
    data = np.ascontiguousarray(values, dtype=np.int8).tobytes()
    if len(data) != table_size(pieces):
        raise ValueError(f"{len(data)} values for a {pieces}-piece table of {table_size(pieces)}")
    header = _HEADER.pack(MAGIC, FORMAT_VERSION, pieces, len(data), hashlib.sha256(data).digest())
    blob = header + zlib.compress(data, level)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_bytes(blob)
    os.replace(temporary, target)
    return len(blob)


def read_table(path: str | Path) -> AlfonsoTable:
    """The table in ``path``, checked.

    :raises MissingTableError: when there is no such file.
    :raises CorruptTableError: for a wrong magic, version or size, a payload that does not
        decompress, or values whose checksum differs from the header's.
    """
    where = str(path)
    try:
        blob = Path(path).read_bytes()
    except FileNotFoundError:
        raise MissingTableError(
            f"no endgame table alquerque-alfonso at {where!r}; make it with "
            "'kradan egtb generate --game alquerque'"
        ) from None
    except OSError as error:
        raise CorruptTableError(f"cannot read {where!r}: {error.strerror}") from error
    return parse_table(blob, where)


def parse_table(blob: bytes, where: str = "") -> AlfonsoTable:
    """The table in the bytes ``blob`` (read from ``where``), checked as :func:`read_table`."""

    def corrupt(reason: str) -> CorruptTableError:
        return CorruptTableError(f"corrupt Alquerque table {where!r}: {reason}")

    if len(blob) < _HEADER.size:
        raise corrupt(f"{len(blob)} bytes, shorter than the header")
    magic, version, pieces, entries, digest = _HEADER.unpack_from(blob)
    if magic != MAGIC:
        raise corrupt(f"magic {magic!r}, not {MAGIC!r}")
    if version != FORMAT_VERSION:
        raise corrupt(f"format version {version}, this kradan reads {FORMAT_VERSION}")
    if not 2 <= pieces <= MAX_PIECES or entries != table_size(pieces):
        raise corrupt(f"{entries} entries for {pieces} pieces")
    try:
        data = zlib.decompress(blob[_HEADER.size :])
    except zlib.error as error:
        raise corrupt(f"the values do not decompress ({error})") from None
    if len(data) != entries:
        raise corrupt(f"{len(data)} values, the header says {entries}")
    if hashlib.sha256(data).digest() != digest:
        raise corrupt("the values' SHA-256 differs from the header's")
    return AlfonsoTable(pieces, np.frombuffer(data, dtype=np.int8).copy(), where)


_LOADED: dict[str, tuple[tuple[int, int], AlfonsoTable]] = {}


def load(directory: str | Path | None = None) -> AlfonsoTable:
    """The table of ``directory`` (default :func:`default_directory`), read once per process
    (again when the file changes).

    :raises MissingTableError: when the directory has none.
    :raises CorruptTableError: for a damaged file.
    """
    path = table_path(directory)
    try:
        stat = path.stat()
    except OSError:
        return read_table(path)  # raises the typed error
    stamp = (stat.st_mtime_ns, stat.st_size)
    known = _LOADED.get(str(path))
    if known is None or known[0] != stamp:
        known = (stamp, read_table(path))
        _LOADED[str(path)] = known
    return known[1]


def probe(board: Board, directory: str | Path | None = None) -> Verdict | None:
    """The verdict of the table of ``directory`` for ``board`` (``None``: not in the table).

    :raises MissingTableError: when the directory has no table.
    """
    return load(directory).probe(board)


def best_move(board: Board, directory: str | Path | None = None) -> Move | None:
    """The best move of the table of ``directory`` for ``board`` (``None``: not in the table).

    :raises MissingTableError: when the directory has no table.
    """
    return load(directory).best_move(board)


__all__ = [
    "FILE_NAME",
    "AlfonsoTable",
    "Verdict",
    "best_move",
    "load",
    "parse_table",
    "probe",
    "read_table",
    "table_path",
    "under_the_rules",
    "write_table",
]
