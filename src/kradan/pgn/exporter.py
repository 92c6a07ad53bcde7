"""Writing PGN: visitors that turn a game (walked by :meth:`~kradan.pgn.Game.accept`) into
text. They know no game tree, so the tree's ``str()`` can use them."""

from __future__ import annotations

from typing import Any, TextIO

from ..games import AnyBoard
from .headers import RESULTS, SEVEN_TAGS
from .moves import AnyMove, move_text
from .visitor import SKIP, BaseVisitor


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
        return None

    def end_variation(self) -> None:
        self._flush_commands()
        self._tokens.append(")")
        self._force_number = True

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
        # a tag that is no result ("[Result "e4 {"]") must not end the movetext as moves
        self._tokens.append(result if result in RESULTS else "*")

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


__all__ = ["FileExporter", "StringExporter"]
