"""Visitors: what the reader (and :meth:`Game.accept`) call for each part of a game.

Subclass :class:`BaseVisitor` to stream a large file without building trees, e.g. to collect
headers or count moves; :class:`GameBuilder` builds a :class:`~kradan.pgn.Game`,
:class:`StringExporter` and :class:`FileExporter` write PGN.
"""

from __future__ import annotations

import abc
from typing import Any, Generic, TextIO, TypeVar

from ..games import AnyBoard
from .moves import move_text, parse_move
from .tree import SEVEN_TAGS, SKIP, AnyMove, Game, GameNode, Headers, ReadError

ResultT = TypeVar("ResultT")

#: suffix annotations and the NAGs they stand for
SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


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


class GameBuilder(BaseVisitor[Game]):
    """Builds a :class:`Game`; errors are collected in ``game.errors``."""

    def begin_game(self) -> None:
        self.game = Game(headers={})
        self._stack: list[GameNode] = [self.game]
        self._in_variation_start = False
        self._pending_start = ""

    def visit_header(self, tag: str, value: str) -> None:
        self.game.headers[tag] = value

    def visit_move(self, board: AnyBoard, move: AnyMove) -> None:
        node = self._stack[-1]._add_unchecked(move)
        if self._in_variation_start:
            node.starting_comment = self._pending_start
            self._in_variation_start = False
        self._stack[-1] = node

    def visit_count(self, kind: str) -> None:
        self._stack[-1].count_actions.append(kind)

    def visit_comment(self, comment: str) -> None:
        if self._in_variation_start:
            self._pending_start = _join(self._pending_start, comment)
        else:
            node = self._stack[-1]
            node.comment = _join(node.comment, comment)

    def visit_nag(self, nag: int) -> None:
        self._stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self._stack[-1].parent
        assert parent is not None, "the reader opens variations only after a move"
        self._stack.append(parent)
        self._in_variation_start = True
        self._pending_start = ""

    def end_variation(self) -> None:
        self._stack.pop()
        self._in_variation_start = False

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def handle_error(self, error: ReadError) -> None:
        self.game.errors.append(error)

    def result(self) -> Game:
        return self.game


def _join(first: str, second: str) -> str:
    return f"{first} {second}" if first else second


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


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


class StringExporter(BaseVisitor[str]):
    """Writes PGN text: the Seven Tag Roster then the other headers, a blank line, the
    movetext wrapped at ``columns`` (``None``: one line). ``notation`` is ``san`` or ``thai``
    (chess family). Counting declarations and stops are written as ``{[%count declare]}``
    and ``{[%count stop]}``."""

    def __init__(
        self, *, columns: int | None = 80, headers: bool = True, comments: bool = True,
        variations: bool = True, notation: str = "san",
    ) -> None:  # fmt: skip
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.notation = notation
        self._lines: list[str] = []
        self._reset()

    def _reset(self) -> None:
        self._header_lines: list[str] = []
        self._tokens: list[str] = []
        self._commands: list[str] = []
        self._force_number = True
        self._depth = 0

    def begin_game(self) -> None:
        self._reset()

    def visit_header(self, tag: str, value: str) -> None:
        if self.headers:
            self._header_lines.append(f'[{tag} "{_escape(value)}"]')

    def end_headers(self) -> None:
        if self.headers:
            self._roster_first()

    def _roster_first(self) -> None:
        def order(line: str) -> int:
            tag = line[1 : line.index(" ")]
            return SEVEN_TAGS.index(tag) if tag in SEVEN_TAGS else len(SEVEN_TAGS)

        self._header_lines.sort(key=order)

    def _flush_commands(self) -> None:
        if self._commands:
            self._tokens.append("{" + " ".join(self._commands) + "}")
            self._commands = []
            self._force_number = True

    def visit_count(self, kind: str) -> None:
        self._commands.append(f"[%count {kind}]")

    def visit_comment(self, comment: str) -> None:
        text = comment.replace("}", "").strip()
        if not self.comments:
            text = ""
        if text or self._commands:
            self._tokens.append("{" + " ".join([*self._commands, *([text] if text else [])]) + "}")
            self._commands = []
            self._force_number = True

    def visit_nag(self, nag: int) -> None:
        if self.comments:
            self._tokens.append(f"${nag}")

    def begin_variation(self) -> object:
        if not self.variations:
            return SKIP
        self._flush_commands()
        self._tokens.append("(")
        self._force_number = True
        self._depth += 1
        return None

    def end_variation(self) -> None:
        self._flush_commands()
        self._tokens.append(")")
        self._force_number = True
        self._depth -= 1

    def visit_move(self, board: AnyBoard, move: AnyMove) -> None:
        self._flush_commands()
        number = board.fullmove_number
        if board.turn:
            self._tokens.append(f"{number}.")
        elif self._force_number:
            self._tokens.append(f"{number}...")
        self._tokens.append(self.move_token(board, move))
        self._force_number = False

    def move_token(self, board: AnyBoard, move: AnyMove) -> str:
        """How a move is written (override for another dialect)."""
        return move_text(board, move, self.notation)

    def visit_result(self, result: str) -> None:
        self._flush_commands()
        self._tokens.append(result)

    def end_game(self) -> None:
        self._flush_commands()
        body = self._wrap()
        parts = []
        if self._header_lines:
            parts.append("\n".join(self._header_lines))
        parts.append(body)
        self._lines.append("\n\n".join(parts))

    def _glued(self) -> list[str]:
        """Tokens with brackets joined to their neighbours: ``(1... Nd7)``."""
        words: list[str] = []
        opening = ""
        for token in self._tokens:
            if token == "(":
                opening += "("
            elif token == ")" and words:
                words[-1] += ")"
            else:
                words.append(opening + token)
                opening = ""
        return words

    def _wrap(self) -> str:
        words = self._glued()
        if self.columns is None:
            return " ".join(words)
        lines, line = [], ""
        for token in words:
            if line and len(line) + 1 + len(token) > self.columns:
                lines.append(line)
                line = token
            else:
                line = f"{line} {token}" if line else token
        if line:
            lines.append(line)
        return "\n".join(lines)

    def result(self) -> str:
        return "\n\n".join(self._lines)


class FileExporter(StringExporter):
    """Writes each game to ``handle``, followed by a blank line."""

    def __init__(self, handle: TextIO, **options: Any) -> None:
        super().__init__(**options)
        self.handle = handle
        self.written = 0

    def end_game(self) -> None:
        super().end_game()
        text = self._lines.pop()
        self.handle.write(text + "\n\n")
        self.written += len(text) + 2

    def result(self) -> str:
        return ""


__all__ = [
    "SUFFIX_NAGS",
    "BaseVisitor",
    "FileExporter",
    "GameBuilder",
    "HeadersBuilder",
    "SkipVisitor",
    "StringExporter",
]
