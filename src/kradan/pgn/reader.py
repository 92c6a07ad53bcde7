"""Reading PGN: one game at a time from a text handle, streamed through a visitor.

Reading is lenient: a bad header, an unknown or illegal move, or a stray bracket is reported to
the visitor (``game.errors`` for the default builder) with its line and move number, and reading
goes on: after a bad move the rest of its variation is skipped. ``strict=True`` raises
:class:`~kradan.errors.PgnError` at the first problem instead.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from ..counting import CountAction
from ..errors import KradanError, PgnError
from ..games import AnyBoard
from .builder import GameBuilder
from .headers import DEFAULT_VARIANT, Headers, start_board
from .tree import apply_count_actions
from .visitor import SKIP, SUFFIX_NAGS, BaseVisitor, HeadersBuilder, ReadError, SkipVisitor

ResultT = TypeVar("ResultT")

_HEADER = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')
_TOKEN = re.compile(
    r"""(?P<comment>\{)
      | (?P<line_comment>;.*)
      | (?P<open>\()
      | (?P<close>\))
      | (?P<nag>\$\d+)
      | (?P<result>(?:1-0|0-1|1/2-1/2|½-½|\*)(?=[\s(){};]|$))
      | (?P<number>\d+\s*\.+|\d+(?=\s|$))
      | (?P<move>[^\s{}();$]+)""",
    re.VERBOSE,
)
_SUFFIX = re.compile(r"(!!|\?\?|!\?|\?!|!|\?)$")
_COUNT_COMMAND = re.compile(r"\[%count\s+(declare|stop)\s*\]")
_LEGACY_COUNT = re.compile(r"(declare|stop) count")

# a line read past the end of a game (the next game's first header), kept for the next call
_pending: weakref.WeakKeyDictionary[Any, tuple[str, int]] = weakref.WeakKeyDictionary()
_line_numbers: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


class _Lines:
    """Lines of a handle, with line numbers and one line of push-back kept across games."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        self.number = _line_numbers.get(handle, 0)

    def next(self) -> str | None:
        pending = _pending.pop(self.handle, None)
        if pending is not None:
            line, self.number = pending
            return line
        line = self.handle.readline()
        if not line:
            return None
        self.number += 1
        if self.number == 1:
            line = line.lstrip("\ufeff")
        return line

    def push_back(self, line: str) -> None:
        _pending[self.handle] = (line, self.number)

    def close(self) -> None:
        _line_numbers[self.handle] = self.number


class _Reader:
    """The state of reading one game's movetext."""

    def __init__(self, visitor: BaseVisitor[Any], lines: _Lines, strict: bool) -> None:
        self.visitor = visitor
        self.lines = lines
        self.strict = strict
        self.boards: list[AnyBoard] = []
        # per open variation: whether a move was played in it yet
        self.moved: list[bool] = []
        # nesting depth below which tokens are skipped (after an error or a SKIP), or None
        self.skip_from: int | None = None
        self.depth = 0

    def error(self, message: str, text: str = "") -> None:
        board = self.boards[-1] if self.boards else None
        number = board.fullmove_number if board is not None else None
        problem = ReadError(message, text, number, self.lines.number)
        if self.strict:
            raise PgnError(str(problem))
        self.visitor.handle_error(problem)

    @property
    def skipping(self) -> bool:
        return self.skip_from is not None

    def move(self, text: str) -> None:
        if self.skipping or not self.boards:
            return
        match = _SUFFIX.search(text)
        nag = None
        if match and match.start() > 0:
            nag = SUFFIX_NAGS[match.group(1)]
            text = text[: match.start()]
        board = self.boards[-1]
        try:
            move = self.visitor.parse_san(board, text)
        except (KradanError, ValueError) as error:
            self.error(f"{error}", text)
            self.skip_from = self.depth
            return
        self.visitor.visit_move(board, move)
        board.push(move)
        self.moved[-1] = True
        if nag is not None:
            self.visitor.visit_nag(nag)

    def comment(self, text: str) -> None:
        if self.skipping:
            return
        text = text.strip()
        kinds = _COUNT_COMMAND.findall(text)
        legacy = _LEGACY_COUNT.fullmatch(text)
        if legacy and not kinds:
            kinds = [legacy.group(1)]
        # a count follows a move (or opens the game); elsewhere the text stays a plain comment
        if kinds and self.boards and (self.moved[-1] or self.depth == 0):
            text = "" if legacy else _COUNT_COMMAND.sub("", text).strip()
            for kind in kinds:
                try:
                    apply_count_actions(self.boards[-1], [kind])
                except (KradanError, ValueError) as error:
                    self.error(f"cannot {kind} a count here: {error}", f"[%count {kind}]")
                    continue
                self.visitor.visit_count(kind)
        if text:
            self.visitor.visit_comment(text)

    def open_variation(self) -> None:
        self.depth += 1
        if self.skipping:
            return
        if not self.boards or not self.moved[-1]:
            self.error("a variation must follow a move", "(")
            self.skip_from = self.depth
            return
        if self.visitor.begin_variation() is SKIP:
            self.skip_from = self.depth
            return
        board = self.boards[-1].copy()
        while board.move_stack and isinstance(board.pop(), CountAction):
            pass
        self.boards.append(board)
        self.moved.append(False)

    def close_variation(self) -> None:
        if self.depth == 0:
            self.error("a ')' closes no variation", ")")
            return
        closing_skipped = self.skip_from is not None and self.depth == self.skip_from
        if self.skip_from is not None and not closing_skipped:
            self.depth -= 1  # inside a skipped stretch
            return
        if closing_skipped:
            self.skip_from = None
        self.depth -= 1
        # the variation's board exists unless it was never opened (an error or a SKIP at "(")
        if len(self.boards) <= self.depth + 1:
            return
        self.boards.pop()
        self.moved.pop()
        self.visitor.end_variation()

    def finish_variations(self) -> None:
        """Close variations left open at the end of the game."""
        if self.depth:
            self.error(f"{self.depth} variation(s) not closed at the end of the game", "(")
        while self.depth:
            self.close_variation()


def read_game(
    handle: TextIO,
    *,
    Visitor: Callable[[], BaseVisitor[ResultT]] = GameBuilder,  # type: ignore[assignment]
    strict: bool = False,
    default_variant: str = DEFAULT_VARIANT,
) -> ResultT | None:
    """Read the next game from ``handle``; ``None`` at the end of the input.

    The game's variant comes from ``[Variant]`` (``default_variant`` when absent), its start
    from ``[FEN]``; ``[VariantOptions]`` carries rule options.

    :raises PgnError: with ``strict=True``, at the first problem in the text.
    """
    lines = _Lines(handle)
    try:
        return _read(lines, Visitor(), strict, default_variant)
    finally:
        lines.close()


def _read(
    lines: _Lines, visitor: BaseVisitor[ResultT], strict: bool, default_variant: str
) -> ResultT | None:
    line = lines.next()
    while line is not None and (not line.strip() or line.startswith("%")):
        line = lines.next()
    if line is None:
        return None
    skip_game = visitor.begin_game() is SKIP
    reader = _Reader(visitor, lines, strict)
    headers = Headers()
    visitor.begin_headers()
    while line is not None and line.lstrip().startswith("["):
        match = _HEADER.fullmatch(line)
        if match is None:
            if not skip_game:
                reader.error(f"bad header line {line.strip()!r}", line.strip())
        else:
            tag, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
            headers[tag] = value
            if not skip_game:
                visitor.visit_header(tag, value)
        line = lines.next()
    skip_moves = skip_game or visitor.end_headers() is SKIP
    if not skip_moves:
        try:
            board = start_board(headers, default_variant)
        except PgnError as error:
            reader.error(str(error))
            skip_moves = True
        else:
            visitor.visit_board(board)
            reader.boards.append(board)
            reader.moved.append(False)
    if skip_moves:
        reader.skip_from = 0
    while line is not None and not line.strip():
        line = lines.next()
    result_seen = _movetext(reader, lines, line)
    if not skip_game:
        reader.finish_variations()
        if result_seen is not None:
            visitor.visit_result(result_seen)
        visitor.end_game()
    return visitor.result()


def _movetext(reader: _Reader, lines: _Lines, line: str | None) -> str | None:
    """Read movetext from ``line`` on; return the result token, if the game ends with one."""
    started = False
    while line is not None:
        if line.startswith("%"):
            line = lines.next()
            continue
        if not line.strip():
            if started:
                return None
            line = lines.next()
            continue
        if line.lstrip().startswith("[") and _HEADER.fullmatch(line):
            lines.push_back(line)  # the next game's headers: this game has ended
            return None
        started = True
        position = 0
        while True:
            match = _TOKEN.search(line, position)
            if match is None:
                break
            kind = match.lastgroup
            position = match.end()
            if kind == "move":
                reader.move(match.group())
            elif kind == "comment":
                text, line, position = _comment(line, position, lines)
                reader.comment(text)
                if line is None:
                    return None
            elif kind == "open":
                reader.open_variation()
            elif kind == "close":
                reader.close_variation()
            elif kind == "nag":
                if not reader.skipping and reader.boards and reader.moved[-1]:
                    reader.visitor.visit_nag(int(match.group()[1:]))
            elif kind == "result" and reader.depth == 0:
                result = match.group()
                return "1/2-1/2" if result == "½-½" else result
        line = lines.next()
    return None


def _comment(line: str, position: int, lines: _Lines) -> tuple[str, str | None, int]:
    """The text of a comment opened before ``position``, read across lines if need be; the
    line and position where reading goes on."""
    parts = []
    current: str | None = line
    while current is not None:
        end = current.find("}", position)
        if end >= 0:
            parts.append(current[position:end])
            return "".join(parts), current, end + 1
        parts.append(current[position:])
        current = lines.next()
        position = 0
    return "".join(parts), None, 0


def read_headers(handle: TextIO) -> Headers | None:
    """The headers of the next game (its moves skipped); ``None`` at the end of the input."""
    return read_game(handle, Visitor=HeadersBuilder)


def skip_game(handle: TextIO) -> bool:
    """Skip the next game; ``False`` at the end of the input."""
    skipped: bool | None = read_game(handle, Visitor=SkipVisitor)
    return bool(skipped)


__all__ = ["read_game", "read_headers", "skip_game"]
