"""Opening books: the moves strong games played in each position, with weights, keyed by the
position's Zobrist key (``kradan book build``; the engine's ``OwnBook``/``BookFile``,
``kradan play --book`` and ``kradan match --openings BOOK`` use them).

A book is one game's (its variant is in the header). The file is compact and read with one
binary search per question:

* a header: the magic ``KRADANBK``, the format version (``uint32``), the game's name
  (``uint16`` length, then UTF-8) and the number of entries (``uint64``);
* the entries, sorted by key: the position's key (``uint64``), the move in UCI (8 bytes of
  ASCII, padded with zeros) and its weight (``uint32``), little-endian, 20 bytes each.

A move's weight is two points for each game its side won and one for each draw, over the
games that reached the position (a move only lost with is left out). The keys are kradan's
own Zobrist keys (fixed random numbers, the same in every process and release that keeps the
format version).
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputFileError, KradanError
from ..games import AnyBoard, canonical_name, new_board

MAGIC = b"KRADANBK"
VERSION = 1
ENTRY = np.dtype([("key", "<u8"), ("move", "S8"), ("weight", "<u4")])
#: the largest weight an entry holds
MAX_WEIGHT = 2**32 - 1
#: plies of each game a book keeps by default
DEFAULT_PLIES = 20


class BookError(KradanError, ValueError):
    """A file that is not a book, a damaged one, or a book of another game."""


@dataclass(frozen=True)
class BookMove:
    """A move of the book for a position, with its weight."""

    uci: str
    weight: int


def position_key(board: AnyBoard) -> int:
    """The key the book files a position under: the board's Zobrist key; for Alquerque, whose
    boards have none, the first 8 bytes of a BLAKE2 digest of its points and side to move."""
    zobrist = getattr(board, "zobrist_key", None)
    if zobrist is not None:
        return int(zobrist())
    points_and_side = " ".join(board.fen().split()[:2])
    digest = hashlib.blake2b(points_and_side.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class Book:
    """A book read into memory: :meth:`moves` for a position, :meth:`choose` to play one."""

    def __init__(self, game: str, entries: np.ndarray) -> None:
        self.game = canonical_name(game)
        self.entries = np.sort(entries, order=["key", "move"])

    def __len__(self) -> int:
        return int(self.entries.size)

    @classmethod
    def read(cls, path: str | Path) -> Book:
        """The book in the file at ``path``.

        :raises InputFileError: when it cannot be read; BookError when it is not a book.
        """
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise InputFileError(f"cannot read {str(path)!r}: {error.strerror}") from error
        if not data.startswith(MAGIC):
            raise BookError(f"{str(path)!r} is not a kradan book (no {MAGIC.decode()} header)")
        try:
            version, length = struct.unpack_from("<IH", data, len(MAGIC))
            at = len(MAGIC) + 6
            game = data[at : at + length].decode("utf-8")
            (count,) = struct.unpack_from("<Q", data, at + length)
            at += length + 8
        except (struct.error, UnicodeDecodeError) as error:
            raise BookError(f"{str(path)!r}: a damaged book header ({error})") from error
        if version != VERSION:
            raise BookError(f"{str(path)!r}: book format {version}; this kradan reads {VERSION}")
        if len(data) - at != count * ENTRY.itemsize:
            raise BookError(
                f"{str(path)!r}: a damaged book ({count} entries announced, "
                f"{len(data) - at} bytes of entries)"
            )
        return cls(game, np.frombuffer(data, dtype=ENTRY, count=count, offset=at).copy())

    def write(self, path: str | Path) -> int:
        """Write the book to ``path``; returns the file's size in bytes."""
        name = self.game.encode("utf-8")
        header = MAGIC + struct.pack("<IH", VERSION, len(name)) + name
        header += struct.pack("<Q", self.entries.size)
        data = header + self.entries.astype(ENTRY).tobytes()
        Path(path).write_bytes(data)
        return len(data)

    def moves(self, board: AnyBoard) -> list[BookMove]:
        """The book's legal moves for ``board``, the heaviest first.

        :raises BookError: for a board of another game.
        """
        if canonical_name(board.variant.name) != self.game:
            raise BookError(f"a {self.game} book has no {board.variant.name} positions")
        key = np.uint64(position_key(board))
        keys = self.entries["key"]
        start = int(np.searchsorted(keys, key, side="left"))
        end = int(np.searchsorted(keys, key, side="right"))
        found = self.entries[start:end]
        legal = {move.uci() for move in board.legal_moves}
        moves = [BookMove(entry["move"].decode("ascii"), int(entry["weight"])) for entry in found]
        moves = [move for move in moves if move.uci in legal]  # a key collision never plays
        return sorted(moves, key=lambda move: (-move.weight, move.uci))

    def choose(self, board: AnyBoard, rng: random.Random | None = None) -> Any | None:
        """A book move for ``board``, drawn with the weights (``None`` when out of book)."""
        moves = self.moves(board)
        if not moves:
            return None
        pick = (rng or random.Random()).choices(moves, weights=[m.weight for m in moves])[0]
        return board.parse_uci(pick.uci)

    def lines(self, count: int, plies: int, seed: int = 0) -> list[list[str]]:
        """Up to ``count`` different opening lines of up to ``plies`` plies, each drawn move
        by move with the weights (for match openings); at most ``8 * count`` draws, so that a
        book with fewer lines gives what it has."""
        if count <= 0:
            return []
        rng = random.Random(seed)
        found: dict[tuple[str, ...], None] = {}
        for _ in range(count * 8):
            board = new_board(self.game)
            line: list[str] = []
            while len(line) < plies:
                move = self.choose(board, rng)
                if move is None:
                    break
                line.append(move.uci())
                board.push(move)
            if line:
                found.setdefault(tuple(line))
            if len(found) >= count:
                break
        return [list(line) for line in found]


def build(games: Iterable[Any], game: str, plies: int = DEFAULT_PLIES, min_weight: int = 1) -> Book:
    """A book from ``games`` (``kradan.pgn.Game``s of ``game``; others are skipped): the first
    ``plies`` plies of each game's main line, weighted by its result (see the module's doc);
    moves whose weight stays below ``min_weight`` are left out."""
    wanted = canonical_name(game)
    weights: defaultdict[tuple[int, str], int] = defaultdict(int)
    for record in games:
        board = record.board()
        if canonical_name(board.variant.name) != wanted:
            continue
        result = record.headers.get("Result", "*")
        points = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}.get(result)
        if points is None:
            continue  # an unfinished game says nothing about its moves
        for move in record.mainline_moves()[:plies]:
            earned = points[0] if board.turn else points[1]
            if earned:
                weights[(position_key(board), move.uci())] += earned
            board.push(move)
    return Book(wanted, entries_of(weights, min_weight))


def entries_of(weights: Mapping[tuple[int, str], int], min_weight: int = 1) -> np.ndarray:
    """A book's entries from ``(position key, uci) -> weight``, less the weights below
    ``min_weight``; a weight past what 32 bits hold is kept at the largest, never wrapped."""
    return np.array(
        [(key, uci.encode("ascii"), min(weight, MAX_WEIGHT))
         for (key, uci), weight in weights.items() if weight >= min_weight],
        dtype=ENTRY,
    )  # fmt: skip


__all__ = [
    "DEFAULT_PLIES",
    "MAX_WEIGHT",
    "Book",
    "BookError",
    "BookMove",
    "build",
    "entries_of",
    "position_key",
]
