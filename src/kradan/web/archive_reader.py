"""PGN into archive records: each game's tags, moves (UCI), the key of every position it went
through, and the hash that recognises it when it is imported again. No database here: the
store (:mod:`.archive`) writes what this module reads.

Position keys. A chess-family position is filed under kradan's 64-bit Zobrist key
(``Board.zobrist_key``: the pieces, the side to move, the first-move rights of Ouk's king and
met and Makruk's sutra, Sittuyin's hands, Kar Ouk's checks still to give) XORed with a salt per
game, so that the same diagram in Makruk and in Ouk Chatrang are two positions. The counting
state (a running count and its limit) is left out, as lichess leaves out the fifty-move
counter: it decides when a game ends, never which moves may be played, and the explorer shows
what was played from a diagram. Rule options (``[VariantOptions]``) are left out too: the
explorer of a game mixes its rule sets. Alquerque, whose boards have no Zobrist key, is filed
under the first 8 bytes of a BLAKE2 digest of its points and side to move (as opening books
file it, :func:`kradan.engine.book.position_key`).

Streaming. :class:`GameSplitter` cuts a byte stream into pieces that end between games (a tag
line after movetext begins a game, as :mod:`kradan.pgn.offsets` decides), with the line each
piece begins on; :func:`read_records` reads one piece with kradan's PGN reader, in a worker
thread if need be, reporting each bad game by its line.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..engine.book import position_key as board_key
from ..games import AnyBoard, game_of
from ..pgn.headers import OPTIONS_TAG, RESULTS
from ..pgn.reader import read_game
from ..pgn.visitor import SKIP, BaseVisitor, ReadError
from .archive_tables import RESULT_CODES
from .i18n import N_, Message

#: positions past this ply are not indexed (a game of thousands of plies would otherwise add
#: thousands of rows no opening explorer shows)
MAX_INDEXED_PLY = 500
#: the longest player name and tag value kept (longer ones are cut)
MAX_NAME = 200
MAX_TAG = 1000
#: the most tags kept per game
MAX_TAGS = 60
_DATE = re.compile(r"\s*(\d{4}|\?{4})[.\-/](\d{2}|\?{2})[.\-/](\d{2}|\?{2})\s*")
#: the tags that say where a game starts; the store keeps them in columns of their own. The
#: rule options (``[VariantOptions]``) stay with the other tags: a game is replayed under them
POSITION_TAGS = ("Variant", "FEN", "SetUp")


def salt(variant: str) -> int:
    """The number a game's position keys are XORed with (from its canonical name)."""
    digest = hashlib.blake2b(variant.encode("utf-8"), digest_size=8, person=b"kradan-a").digest()
    return int.from_bytes(digest, "little")


_SALTS: dict[str, int] = {}


def signed(key: int) -> int:
    """An unsigned 64-bit key as the signed number a ``BIGINT`` column holds."""
    return key - (1 << 64) if key >= 1 << 63 else key


def position_key(board: AnyBoard, variant: str | None = None) -> int:
    """The archive's key of ``board``'s position (signed 64 bits; see the module's words)."""
    name = variant or game_of(board).name
    mixed = _SALTS.get(name)
    if mixed is None:
        mixed = _SALTS[name] = salt(name)
    return signed(board_key(board) ^ mixed)


def date_key(text: str | None) -> int:
    """``[Date "2024.03.15"]`` as 20240315; ``"2024.??.??"`` as 20240000; anything else 0."""
    match = _DATE.fullmatch(text or "")
    if match is None:
        return 0
    year, month, day = (0 if "?" in part else int(part) for part in match.groups())
    if not year or month > 12 or day > 31:
        return 0
    return year * 10000 + month * 100 + day


def player_name(text: str | None) -> str | None:
    """A player's name as stored: trimmed and cut; ``None`` for an unknown one (``?``, ``-``)."""
    name = " ".join((text or "").split())[:MAX_NAME]
    return None if name in ("", "?", "-") else name


@dataclass(slots=True)
class Record:
    """One game read for the archive."""

    variant: str
    start_fen: str
    headers: dict[str, str]
    result: str
    moves: list[str]
    #: the key of the position before each move and after the last (``len(moves) + 1`` keys)
    keys: list[int]
    counts: list[tuple[int, str]]

    @property
    def white(self) -> str | None:
        return player_name(self.headers.get("White"))

    @property
    def black(self) -> str | None:
        return player_name(self.headers.get("Black"))

    def game_hash(self) -> str:
        """BLAKE2 (128 bits, hex) of what makes the game itself: its game and start, the Seven
        Tag Roster, its rule options, its moves and its counts."""
        tags = self.headers
        parts = [self.variant, self.start_fen, tags.get(OPTIONS_TAG, "")]
        parts += [tags.get(name, "") for name in ("Event", "Site", "Date", "Round")]
        parts += [self.white or "", self.black or "", self.result, " ".join(self.moves)]
        parts += [f"{ply}:{kind}" for ply, kind in self.counts]
        return hashlib.blake2b(
            "\n".join(parts).encode("utf-8", "replace"), digest_size=16
        ).hexdigest()

    def positions(self) -> list[tuple[int, int, str | None]]:
        """``(key, ply, next move)`` of each distinct position, where the game first stood in
        it, up to :data:`MAX_INDEXED_PLY`."""
        seen: dict[int, tuple[int, int, str | None]] = {}
        moves = self.moves
        for ply, key in enumerate(self.keys[: MAX_INDEXED_PLY + 1]):
            if key not in seen:
                seen[key] = (key, ply, moves[ply] if ply < len(moves) else None)
        return list(seen.values())

    @property
    def result_code(self) -> int | None:
        return RESULT_CODES.get(self.result)


@dataclass(frozen=True, slots=True)
class LineError:
    """A game left out: the line of its problem, and what the problem is (``content``, to be
    shown in the reader's language; ``message`` is its English)."""

    line: int
    content: Message

    @property
    def message(self) -> str:
        return str(self.content)


@dataclass
class Batch:
    """What one piece of PGN gave: the games read whole, and the games left out."""

    records: list[Record] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)


class _ArchiveVisitor(BaseVisitor["_ArchiveVisitor"]):
    """Collects a game's tags, main line (UCI), position keys and counts; skips variations."""

    def begin_game(self) -> None:
        self.headers: dict[str, str] = {}
        self.board: AnyBoard | None = None
        self.variant = ""
        self.start_fen = ""
        self.moves: list[str] = []
        self.keys: list[int] = []
        self.counts: list[tuple[int, str]] = []
        self.errors: list[ReadError] = []
        self.result_token: str | None = None

    def visit_header(self, tag: str, value: str) -> None:
        if len(self.headers) < MAX_TAGS:
            self.headers[tag[:MAX_NAME]] = value[:MAX_TAG]

    def visit_board(self, board: AnyBoard) -> None:
        self.board = board
        self.variant = game_of(board).name
        self.start_fen = board.fen()

    def visit_move(self, board: AnyBoard, move: object) -> None:
        self.keys.append(position_key(board, self.variant))
        self.moves.append(move.uci())  # type: ignore[attr-defined]

    def visit_count(self, kind: str) -> None:
        self.counts.append((len(self.moves), kind))

    def begin_variation(self) -> object:
        return SKIP

    def visit_result(self, result: str) -> None:
        self.result_token = result

    def handle_error(self, error: ReadError) -> None:
        self.errors.append(error)

    def result(self) -> _ArchiveVisitor:
        return self

    def record(self, first_line: int) -> Record | LineError:
        """The game as a record, or the first problem that keeps it out (its line counted
        from ``first_line``, the line the text read began on)."""
        if self.errors:
            error = self.errors[0]
            line = error.line if error.line is not None else error.game_line or 1
            if not error.text and error.move_number is None and error.game_line:
                line = error.game_line  # the tags cannot set a game up: the game's first line
            return LineError(first_line + line - 1, _message(error))
        if self.board is None:
            return LineError(first_line, Message(N_("a game without a position to start from")))
        if not self.moves and not self.headers:
            return LineError(first_line, Message(N_("text that is no game")))
        self.keys.append(position_key(self.board, self.variant))
        result = self.headers.get("Result", "*")
        if result not in RESULTS or result == "*":
            result = self.result_token if self.result_token in RESULTS else "*"
        return Record(
            self.variant, self.start_fen, self.headers, result, self.moves, self.keys,
            self.counts,
        )  # fmt: skip


def _message(error: ReadError) -> Message:
    """A reader's problem in words that quote the text (the line is given apart). The PGN
    reader's own reason is English; the words around it are translated."""
    text = error.message
    if error.text and repr(error.text) not in text and error.text not in text:
        text = f"{text}: {error.text[:80]!r}"
    if error.move_number is not None:
        return Message(N_("move {number}: {reason}"), number=error.move_number, reason=text)
    return Message(text)  # the reader's English, shown as it is


def read_records(text: str, first_line: int = 1) -> Batch:
    """Every game of the PGN ``text`` (whose first line is line ``first_line`` of its file):
    the ones read whole, and for each game with a problem (a bad tag, an unknown game, an
    illegal move...) its line and the problem. A game with a problem is left out whole, so that
    no half game reaches the explorer."""
    batch = Batch()
    handle = io.StringIO(text)
    while True:
        visitor = read_game(handle, Visitor=_ArchiveVisitor)
        if visitor is None:
            return batch
        found = visitor.record(first_line)
        if isinstance(found, LineError):
            batch.errors.append(found)
        else:
            batch.records.append(found)


class GameSplitter:
    """Cuts a stream of PGN bytes into pieces that end between games.

    :meth:`feed` takes bytes as they come and gives back ``(text, first line)`` for each piece
    that is complete: ``piece_games`` games, or fewer games of ``piece_chars`` characters or
    more; :meth:`finish` gives back the rest. Bytes that are not UTF-8 become U+FFFD (the reader
    reports the game that holds them). A game begins at a tag line that follows movetext. A
    piece grown to ``most_chars`` without a game's start is cut where it is (memory stays
    bounded; the game cut in two is reported)."""

    def __init__(
        self, piece_games: int = 500, piece_chars: int = 1 << 20, most_chars: int = 16 << 20
    ) -> None:
        self.piece_games = piece_games
        self.piece_chars = piece_chars
        self.most_chars = most_chars
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial = ""  # a line not yet ended
        self._lines: list[str] = []
        self._chars = 0
        self._games = 0
        self._in_tags = False
        self._first_line = 1  # the line the piece being gathered begins on
        self._line = 0  # lines seen so far
        self._started = False

    def feed(self, data: bytes) -> Iterator[tuple[str, int]]:
        text = self._partial + self._decoder.decode(data)
        lines = text.splitlines(keepends=True)
        self._partial = lines.pop() if lines and not lines[-1].endswith(("\n", "\r")) else ""
        yield from self._take(lines)

    def finish(self) -> Iterator[tuple[str, int]]:
        tail = self._partial + self._decoder.decode(b"", final=True)
        self._partial = ""
        yield from self._take([tail] if tail else [])
        if self._lines:
            yield "".join(self._lines), self._first_line
            self._lines = []

    def _take(self, lines: list[str]) -> Iterator[tuple[str, int]]:
        for line in lines:
            stripped = line.strip()
            if stripped:
                is_tag = stripped.startswith("[")
                begins = is_tag and not self._in_tags
                full = self._games >= self.piece_games or self._chars >= self.piece_chars
                if (begins and full) or self._chars >= self.most_chars:
                    yield "".join(self._lines), self._first_line
                    self._lines, self._chars, self._games = [], 0, 0
                    self._first_line = self._line + 1
                if begins or not self._started:
                    self._games += 1
                self._started = True
                self._in_tags = is_tag
            self._lines.append(line)
            self._chars += len(line)
            self._line += 1


__all__ = [
    "MAX_INDEXED_PLY",
    "Batch",
    "GameSplitter",
    "LineError",
    "Record",
    "date_key",
    "player_name",
    "position_key",
    "read_records",
    "salt",
]
