"""A progress bar on standard error for long commands (shown only on a terminal)."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from ..errors import InputFileError


def bar(done: int, total: int, width: int = 30) -> str:
    """``[#####.....] done/total``."""
    filled = width * min(done, total) // max(total, 1)
    return "[" + "#" * filled + "." * (width - filled) + f"] {done}/{total}"


def show_progress(text: str, stream: TextIO | None = None) -> None:
    """Show ``text`` as the newest progress: redrawn in place on a terminal, and one plain line
    each in a file or a pipe (where a ``\\r`` would pile every redraw onto one line)."""
    stream = stream if stream is not None else sys.stderr
    if stream.isatty():
        print(f"\r{text}", end="", file=stream, flush=True)
    else:
        print(text, file=stream, flush=True)


def end_progress(stream: TextIO | None = None) -> None:
    """End the redrawn line on a terminal (a file's lines are ended already)."""
    stream = stream if stream is not None else sys.stderr
    if stream.isatty():
        print(file=stream, flush=True)


class Progress:
    """Redraws one line on ``stream`` (standard error) as work advances; silent when the stream
    is not a terminal unless ``force`` is set."""

    def __init__(self, total: int, unit: str, *, stream: TextIO | None = None, force: bool = False):
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = force or self.stream.isatty()
        self._shown = -1

    def update(self, done: int, note: str = "") -> None:
        percent = 100 * done // max(self.total, 1)
        if not self.enabled or percent == self._shown:
            return
        self._shown = percent
        print(f"\r{bar(done, self.total)} {self.unit} {note}", end="", file=self.stream, flush=True)

    def close(self) -> None:
        if self.enabled and self._shown >= 0:
            print(file=self.stream, flush=True)


class TrackedReader:
    """A text handle that reports how far reading has gone (for files read line by line)."""

    def __init__(self, handle: TextIO, total: int, unit: str = "read") -> None:
        self.handle = handle
        self.done = 0
        self.progress = Progress(total, unit)

    def readline(self, size: int = -1) -> str:
        line = self.handle.readline(size)
        self.done += len(line.encode("utf-8", "replace")) if not line.isascii() else len(line)
        self.progress.update(self.done)
        return line

    def close(self) -> None:
        self.progress.close()


#: how much of a file's start is looked at to tell text from something else
TEXT_START = 4096


def open_text(path: str) -> TextIO:
    """The file at ``path`` as text. A file whose start (``TEXT_START`` bytes) is mostly bytes
    that are not UTF-8 (over a quarter of its characters) is not a text file and is refused at
    once. Otherwise bytes that are not UTF-8 read as U+FFFD, so that one damaged game does not
    stop a file (the PGN reader reports them with their game).

    :raises InputFileError: when the file cannot be read, or is not text.
    """
    try:
        with open(path, "rb") as raw:
            start = raw.read(TEXT_START)
        handle = open(path, encoding="utf-8-sig", errors="replace")  # noqa: SIM115
    except OSError as error:
        raise InputFileError(f"cannot read {path!r}: {error.strerror}") from error
    text = start.decode("utf-8", "replace")
    if text and text.count("\ufffd") * 4 > len(text):
        handle.close()
        where = ""
        try:
            start.decode("utf-8")
        except UnicodeDecodeError as error:
            where = f" ({error.reason} at byte {error.start})"
        raise InputFileError(f"{path!r} is not UTF-8 text{where}")
    return handle


def open_input(path: str, unit: str) -> tuple[TextIO, TrackedReader]:
    """The text file at ``path`` (``-``: standard input) and a reader of it that shows progress
    (see :func:`open_text`).

    :raises InputFileError: when the file cannot be opened or does not begin as UTF-8 text.
    """
    handle: TextIO = sys.stdin if path == "-" else open_text(path)
    size = os.fstat(handle.fileno()).st_size if handle is not sys.stdin else 0
    return handle, TrackedReader(handle, size, unit)
