"""Visitors: what the reader (and :meth:`Game.accept`) call for each part of a game.

Subclass :class:`BaseVisitor` to stream a large file without building trees, e.g. to collect
headers or count moves. This module knows no game tree, so that the tree can take visitors:
:class:`~kradan.pgn.GameBuilder` (in ``builder``) builds one, the exporters (in ``exporter``)
write PGN.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
from typing import Generic, TypeVar

from ..games import AnyBoard
from .headers import Headers
from .moves import AnyMove, parse_move

ResultT = TypeVar("ResultT")

#: suffix annotations and the NAGs they stand for
SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


class _Skip(enum.Enum):
    SKIP = "skip"


#: returned by visitor hooks to skip a variation or the rest of a game
SKIP = _Skip.SKIP


@dataclasses.dataclass(frozen=True)
class ReadError:
    """A problem met while reading a game: what is wrong, the offending text, where (the move
    number, ``None`` in the headers; the line of the problem) and ``game_line``, the line where
    the game holding it begins, so that a damaged game in a big file can be found."""

    message: str
    text: str = ""
    move_number: int | None = None
    line: int | None = None
    game_line: int | None = None

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.move_number is not None:
            where.append(f"move {self.move_number}")
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}{self.message}"


class BaseVisitor(abc.ABC, Generic[ResultT]):
    """Hooks called in document order; return :data:`SKIP` from ``begin_game``,
    ``end_headers`` or ``begin_variation`` to skip that part."""

    def begin_game(self) -> object:
        return None

    def begin_headers(self) -> Headers | None:
        return None

    def visit_header(self, tag: str, value: str) -> None:
        """One tag pair."""

    def end_headers(self) -> object:
        return None

    def visit_board(self, board: AnyBoard) -> None:
        """The start position, set up from the headers."""

    def parse_san(self, board: AnyBoard, text: str) -> AnyMove:
        """Turn a move token into a move (override for other notations).

        :raises ValueError: when the token names no legal move.
        """
        move: AnyMove = parse_move(board, text)
        return move

    def visit_move(self, board: AnyBoard, move: AnyMove) -> None:
        """A move, with the position before it (do not change ``board``)."""

    def visit_count(self, kind: str) -> None:
        """A count declared (``"declare"``) or stopped (``"stop"``) after the last move."""

    def visit_comment(self, comment: str) -> None:
        """A comment (the counting commands already taken out)."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph (``$1``, or a suffix such as ``!``)."""

    def begin_variation(self) -> object:
        return None

    def end_variation(self) -> None:
        """The end of a variation."""

    def visit_result(self, result: str) -> None:
        """The game termination marker."""

    def end_game(self) -> None:
        """The end of the game."""

    def handle_error(self, error: ReadError) -> None:
        """A problem in the text; the reader goes on after it (lenient reading)."""

    @abc.abstractmethod
    def result(self) -> ResultT:
        """What the visit produced."""


class HeadersBuilder(BaseVisitor[Headers]):
    """Collects the headers and skips the moves."""

    def begin_game(self) -> None:
        self.headers = Headers()

    def visit_header(self, tag: str, value: str) -> None:
        self.headers[tag] = value

    def end_headers(self) -> object:
        return SKIP

    def result(self) -> Headers:
        return self.headers


class SkipVisitor(BaseVisitor[bool]):
    """Skips a whole game."""

    def begin_game(self) -> object:
        return SKIP

    def end_headers(self) -> object:
        return SKIP

    def begin_variation(self) -> object:
        return SKIP

    def result(self) -> bool:
        return True


__all__ = [
    "SKIP",
    "SUFFIX_NAGS",
    "BaseVisitor",
    "HeadersBuilder",
    "ReadError",
    "SkipVisitor",
]
