"""A proven strategy as a compact file (``.kst``): for every position of a proof tree, its
64-bit key (:mod:`.keys`), the winning move (or a mark that the side to move loses) and the
plies to the end.

Why a file of its own rather than the proof database: the database holds every position the
solver ever proved (millions), a strategy needs only the proof tree (tens of thousands), and a
shipped file must be small, read in one go and refuse damage. Lookups are a binary search in the
sorted keys (``numpy.searchsorted``).

The layout, little-endian::

    MAGIC (8 bytes)  version (u32)  count (u64)  game length (u16)  root length (u16)
    game name (utf-8)  root position text (utf-8)  zero padding to a multiple of 8
    keys: count x u64, sorted, distinct
    moves: count x u8: the winning move's index in the board's legal-move order, or LOSS
    depths: count x u8: plies to the end (the winner following the table, the loser holding out
        longest)
    SHA-256 (32 bytes) of everything before it

A file that is truncated, damaged (the digest disagrees), of another kind or version, or whose
arrays contradict themselves is refused with :class:`StrategyTableError`, quoting its path.
"""

from __future__ import annotations

import hashlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import KradanError

MAGIC = b"KRADKST\x00"
VERSION = 1
#: the move byte of a position lost for the side to move
LOSS = 255
#: the most plies to the end a depth byte holds
MAX_DEPTH = 255
_HEAD = struct.Struct("<8sIQHH")
_DIGEST = 32


class StrategyTableError(KradanError, ValueError):
    """A strategy table file that is not one, is damaged or truncated, or contradicts itself."""


@dataclass(frozen=True)
class TableEntry:
    """One position's line: ``move`` is the winning move's index in the legal-move order
    (``None``: the side to move loses), ``depth`` the plies to the end."""

    move: int | None
    depth: int

    @property
    def win(self) -> bool:
        return self.move is not None


class StrategyTable:
    """A strategy table in memory: sorted ``keys`` with parallel ``moves`` and ``depths``."""

    def __init__(self, game: str, root: str, keys: np.ndarray, moves: np.ndarray,
                 depths: np.ndarray, path: str = "<memory>") -> None:  # fmt: skip
        self.game = game
        self.root = root
        self.keys = np.ascontiguousarray(keys, dtype=np.uint64)
        self.moves = np.ascontiguousarray(moves, dtype=np.uint8)
        self.depths = np.ascontiguousarray(depths, dtype=np.uint8)
        self.path = path
        _check_arrays(self.keys, self.moves, self.depths, path)

    def __len__(self) -> int:
        return len(self.keys)

    def get(self, key: int) -> TableEntry | None:
        """The entry of the position with ``key``, or ``None`` when the table lacks it."""
        i = int(np.searchsorted(self.keys, np.uint64(key)))
        if i < len(self.keys) and int(self.keys[i]) == key:
            move = int(self.moves[i])
            return TableEntry(None if move == LOSS else move, int(self.depths[i]))
        return None

    @property
    def wins(self) -> int:
        """Positions won for the side to move."""
        return int(np.count_nonzero(self.moves != LOSS))

    def to_bytes(self) -> bytes:
        """The file's bytes."""
        game, root = self.game.encode(), self.root.encode()
        head = _HEAD.pack(MAGIC, VERSION, len(self.keys), len(game), len(root)) + game + root
        head += b"\x00" * (-len(head) % 8)
        body = head + self.keys.astype("<u8").tobytes() + self.moves.tobytes()
        body += self.depths.tobytes()
        return body + hashlib.sha256(body).digest()

    def write(self, path: str | os.PathLike[str]) -> int:
        """Write the table to ``path`` (through a temporary file, so a reader never sees half
        of it); returns the bytes written."""
        data = self.to_bytes()
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(data)
        os.replace(partial, target)
        return len(data)


def _check_arrays(keys: np.ndarray, moves: np.ndarray, depths: np.ndarray, where: str) -> None:
    if not len(keys) == len(moves) == len(depths):
        raise StrategyTableError(f"{where!r}: {len(keys)} keys, {len(moves)} moves and "
                                 f"{len(depths)} depths")  # fmt: skip
    if len(keys) > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        raise StrategyTableError(f"{where!r}: the keys are not sorted and distinct")


def from_bytes(data: bytes, where: str = "<bytes>") -> StrategyTable:
    """The table in ``data`` (``where`` names it in errors).

    :raises StrategyTableError: for data that is not a whole, undamaged table.
    """
    if len(data) < _HEAD.size + _DIGEST:
        raise StrategyTableError(f"{where!r} is not a strategy table: {len(data)} bytes, too "
                                 "short for one")  # fmt: skip
    magic, version, count, game_len, root_len = _HEAD.unpack_from(data)
    if magic != MAGIC:
        raise StrategyTableError(f"{where!r} is not a strategy table (it starts {magic!r}, "
                                 f"not {MAGIC!r})")  # fmt: skip
    if version != VERSION:
        raise StrategyTableError(f"{where!r} is a strategy table of version {version}; this "
                                 f"kradan reads version {VERSION}")  # fmt: skip
    start = _HEAD.size + game_len + root_len
    start += -start % 8
    size = start + 10 * count + _DIGEST
    if len(data) != size:
        raise StrategyTableError(f"{where!r} is truncated or has bytes after its end: "
                                 f"{len(data)} bytes, its header says {size}")  # fmt: skip
    if hashlib.sha256(data[:-_DIGEST]).digest() != data[-_DIGEST:]:
        raise StrategyTableError(f"{where!r} is damaged: its SHA-256 does not match its content")
    try:
        game = data[_HEAD.size : _HEAD.size + game_len].decode()
        root = data[_HEAD.size + game_len : _HEAD.size + game_len + root_len].decode()
    except UnicodeDecodeError:
        raise StrategyTableError(f"{where!r}: its header's names are not UTF-8") from None
    keys = np.frombuffer(data, dtype="<u8", count=count, offset=start)
    moves = np.frombuffer(data, dtype=np.uint8, count=count, offset=start + 8 * count)
    depths = np.frombuffer(data, dtype=np.uint8, count=count, offset=start + 9 * count)
    return StrategyTable(game, root, keys, moves, depths, where)


def read_table(path: str | os.PathLike[str]) -> StrategyTable:
    """The table in the file ``path``.

    :raises StrategyTableError: for a file that is not a whole, undamaged table.
    :raises OSError: for a file that cannot be read.
    """
    return from_bytes(Path(path).read_bytes(), str(path))


__all__ = ["LOSS", "StrategyTable", "StrategyTableError", "TableEntry", "read_table"]
