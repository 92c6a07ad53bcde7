"""Reading PGN: one game at a time from a text handle, streamed through a visitor.

Reading is lenient: a bad header, an unknown or illegal move, or a stray bracket is reported to
the visitor (``game.errors`` for the default builder) with its line, its move number and the
line where its game begins (``ReadError.game_line``), and reading goes on: after a bad move the
rest of its variation is skipped. ``strict=True`` raises :class:`~kradan.errors.PgnError` at the
first problem instead.

Streaming: :func:`read_game` takes the handle's lines one ``readline`` at a time and stops at
the end of one game, so a file of any size is read in memory bounded by its largest game. Between
calls it keeps, per handle, only the line count and at most one line read past a game's end (the
next game's first tag). A line longer than :data:`MAX_LINE` characters is never held whole: it
is reported and dropped, and so is the part of a comment past :data:`MAX_COMMENT` characters.

Damaged files lose only the damaged games. Garbage between games (binary bytes, half games,
broken tags, stray text) comes back as the game it breaks, or as a game of its own without tags,
with errors saying what and on which line; the games after it read as if it were not there. When
recovering, a game ends (and the next begins at its next non-blank line):

* at its result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) outside variations; what follows on that
  line is read as the start of what comes next, unless it is a comment (dropped);
* at a blank line after movetext, so that an unclosed variation ends there (reported);
* at a tag pair (``[Name "value"]``) that ends a line of movetext, or of a broken tag line;
* inside an unclosed comment, at a tag pair line (reported), so that a comment cannot swallow
  the games after it; a comment that means to hold such a line cannot;
* in the tag section, at a tag it already has: a game cut short in its tags, whose next game
  follows without a blank line (reported).

Undecodable bytes: open files with ``errors="replace"`` (as the ``kradan`` commands do), so that
bytes that are not UTF-8 become U+FFFD, which is reported on the game that holds it. A handle
that raises :class:`UnicodeDecodeError` cannot be read past that point (the decoder drops what
it had buffered): :func:`read_game` raises :class:`~kradan.errors.PgnError` naming the line
where the decoder failed (the bad bytes are there or, in the block it was decoding, after it).
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
# a tag pair that ends a line of movetext: the next game, run on after a game cut short
_TAG_AT_END = re.compile(r'\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]\s*$')
_SUFFIX = re.compile(r"(!!|\?\?|!\?|\?!|!|\?)$")
_COUNT_COMMAND = re.compile(r"\[%count\s+(declare|stop)\s*\]")
_LEGACY_COUNT = re.compile(r"(declare|stop) count")

#: the longest line kept, in characters; a longer one is reported and dropped
MAX_LINE = 1 << 20
#: the longest comment kept, in characters; the rest is reported and dropped
MAX_COMMENT = 1 << 20

# a line read past the end of a game (the next game's first header), kept for the next call
_pending: weakref.WeakKeyDictionary[Any, tuple[str, int]] = weakref.WeakKeyDictionary()
_line_numbers: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()

# a problem the lines met: message, offending text, line, whether the rest of the game is lost
_Problem = tuple[str, str, int, bool]


class _Lines:
    """Lines of a handle, with line numbers and one line of push-back kept across games.

    Lines over :data:`MAX_LINE` come back as ``"%\\n"`` (an escape line, ignored) with ``cut``
    set; such problems, and U+FFFD from undecodable bytes, go to ``report`` once a game is being
    read, and wait in ``problems`` before that.
    """

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        self.number = _line_numbers.get(handle, 0)
        self.cut = False
        self.problems: list[_Problem] = []
        self.report: Callable[[_Problem], None] | None = None

    def next(self) -> str | None:
        self.cut = False
        pending = _pending.pop(self.handle, None)
        if pending is not None:
            line, self.number = pending
            return line
        line = self._readline()
        if not line:
            return None
        self.number += 1
        line = line.lstrip("\ufeff")  # a byte order mark: the file's, or a joined file's
        if len(line) > MAX_LINE:
            while not line.endswith("\n"):  # drop the rest of the line, a piece at a time
                line = self._readline()
                if not line:
                    break
            self.cut = True
            self._problem(f"a line of more than {MAX_LINE:,} characters: dropped", "", True)
            return "%\n"
        if "\ufffd" in line:
            text = line.strip()
            self._problem("bytes that are not UTF-8 text (read as U+FFFD)", text[:80], False)
        return line

    def _readline(self) -> str:
        try:
            try:
                line: str = self.handle.readline(MAX_LINE + 1)
            except TypeError:  # a handle whose readline takes no size
                line = self.handle.readline()
        except UnicodeDecodeError as error:
            raise PgnError(
                # a text handle decodes a block at a time, so the bytes may lie further on
                f"line {self.number + 1} or after: bytes that are not UTF-8 text "
                f"({error.reason}); open the file with errors='replace' to read past them"
            ) from error
        return line

    def _problem(self, message: str, text: str, fatal: bool) -> None:
        problem = (message, text, self.number, fatal)
        if self.report is None:
            self.problems.append(problem)
        else:
            self.report(problem)

    def push_back(self, line: str) -> None:
        _pending[self.handle] = (line, self.number)

    def close(self) -> None:
        _line_numbers[self.handle] = self.number


class _Reader:
    """The state of reading one game's movetext."""

    def __init__(
        self, visitor: BaseVisitor[Any], lines: _Lines, strict: bool, start: int, silent: bool
    ) -> None:
        self.visitor = visitor
        self.lines = lines
        self.strict = strict
        # the line where the game begins; no errors for a game the visitor skips whole
        self.start = start
        self.silent = silent
        self.boards: list[AnyBoard] = []
        # per open variation: whether a move was played in it yet
        self.moved: list[bool] = []
        # nesting depth below which tokens are skipped (after an error or a SKIP), or None
        self.skip_from: int | None = None
        self.depth = 0
        # the line each open variation began on
        self.opened: list[int] = []

    def error(self, message: str, text: str = "", line: int | None = None) -> None:
        if self.silent:
            return
        board = self.boards[-1] if self.boards else None
        number = board.fullmove_number if board is not None else None
        line = self.lines.number if line is None else line
        problem = ReadError(message, text, number, line, self.start)
        if self.strict:
            raise PgnError(str(problem))
        self.visitor.handle_error(problem)

    def problem(self, problem: _Problem) -> None:
        """A problem the lines met; a fatal one loses the rest of the game."""
        message, text, line, fatal = problem
        self.error(message, text, line)
        if fatal:
            self.skip_from = 0

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
        self.opened.append(self.lines.number)
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
        self.opened.pop()
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
            first = self.opened[0]
            message = f"{self.depth} variation(s) not closed, the first opened on line {first}"
            self.error(message, "(", first)
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
    while line is not None and not lines.problems and (not line.strip() or line.startswith("%")):
        line = lines.next()
    if line is None:
        return None
    skip_game = visitor.begin_game() is SKIP
    reader = _Reader(visitor, lines, strict, lines.number, skip_game)
    lines.report = reader.problem
    for problem in lines.problems:
        reader.problem(problem)
    lines.problems.clear()
    headers = Headers()
    visitor.begin_headers()
    while line is not None and (lines.cut or line.lstrip().startswith("[")):
        whole = line
        match = None if lines.cut else _HEADER.fullmatch(line)
        if match is None and not lines.cut and (tail := _TAG_AT_END.search(line, 1)):
            # a line that ends in a tag pair: one or more tags, or a broken one and the next
            lines.push_back(line[tail.start() :])
            line = line[: tail.start()]
            match = _HEADER.fullmatch(line)
        if match is None:
            if not lines.cut:
                reader.error(f"bad header line {line.strip()!r}", line.strip())
        elif match.group(1) in headers:
            # a game cut short in its tags, the next one following at once
            reader.error(f"[{match.group(1)}] again: a new game begins on this line", line.strip())
            lines.push_back(whole)
            line = None
            break
        else:
            tag, value = match.group(1), match.group(2)
            if "\\" in value:
                value = re.sub(r"\\(.)", r"\1", value)
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
        started = True
        position = 0
        while True:
            match = _TOKEN.search(line, position)
            if match is None:
                break
            kind = match.lastgroup
            position = match.end()
            if kind == "move":
                text = match.group()
                # a tag pair (on a line of its own, or after this game's last moves): the next
                # game's tags, which end this one
                if "[" in text and (
                    tag := _TAG_AT_END.match(line, text.index("[") + match.start())
                ):
                    if tag.start() > match.start():
                        reader.move(line[match.start() : tag.start()])
                    lines.push_back(line[tag.start() :])
                    return None
                reader.move(text)
            elif kind == "comment":
                text, line, position = _comment(reader, line, position)
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
                rest = line[position:].lstrip()
                if rest and rest[0] not in "{;":  # text after the result begins what follows
                    lines.push_back(rest)
                return "1/2-1/2" if result == "½-½" else result
        line = lines.next()
    return None


def _comment(reader: _Reader, line: str, position: int) -> tuple[str, str | None, int]:
    """The text of a comment opened before ``position``, read across lines if need be; the
    line and position where reading goes on (no line: the game ends here, the comment being
    unclosed at the end of the input or before the next game)."""
    lines = reader.lines
    opened = lines.number
    parts: list[str] = []
    size = 0
    current = line
    while True:
        end = current.find("}", position)
        piece = current[position:] if end < 0 else current[position:end]
        if not lines.cut and size <= MAX_COMMENT:
            size += len(piece)
            if size <= MAX_COMMENT:
                parts.append(piece)
            else:
                reader.error(f"a comment of more than {MAX_COMMENT:,} characters: cut", "{")
        if end >= 0:
            return "".join(parts), current, end + 1
        following = lines.next()
        if following is None:
            reader.error(f"the comment opened on line {opened} is not closed", "{", opened)
            return "".join(parts), None, 0
        if following.lstrip().startswith("[") and _HEADER.fullmatch(following):
            lines.push_back(following)  # the next game's first tag
            reader.error(f"the comment opened on line {opened} is not closed", "{", opened)
            return "".join(parts), None, 0
        current, position = following, 0


def read_headers(handle: TextIO) -> Headers | None:
    """The headers of the next game (its moves skipped); ``None`` at the end of the input."""
    return read_game(handle, Visitor=HeadersBuilder)


def skip_game(handle: TextIO) -> bool:
    """Skip the next game; ``False`` at the end of the input."""
    skipped: bool | None = read_game(handle, Visitor=SkipVisitor)
    return bool(skipped)


__all__ = ["read_game", "read_headers", "skip_game"]
