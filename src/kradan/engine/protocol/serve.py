"""The read-execute loop shared by the UCI and XBoard front ends.

The loop reads the process's standard input as bytes and decodes each line itself, so that
invalid UTF-8, NUL bytes or a very long line become a complaint rather than an exception that
ends the engine, whatever the locale or ``PYTHONIOENCODING`` say.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO, Protocol, TextIO

#: the longest line read whole; the rest of a longer one is skipped (memory stays bounded)
MAX_LINE = 16 * 1024 * 1024


class Session(Protocol):
    def handle(self, line: str) -> bool: ...

    def complain(self, message: str) -> None: ...

    def shutdown(self) -> None: ...

    def begin_warmup(self) -> None: ...


class TooLong(str):
    """What :func:`read_lines` yields for a line over :data:`MAX_LINE` bytes: its length."""


def read_lines(source: BinaryIO, limit: int = MAX_LINE) -> Iterator[str]:
    """The lines of ``source``, decoded as UTF-8 with undecodable bytes replaced (U+FFFD); a
    line over ``limit`` bytes is skipped to its end and yields a :class:`TooLong`."""
    while True:
        raw = source.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            length = len(raw)
            while raw and not raw.endswith(b"\n"):
                raw = source.readline(limit)
                length += len(raw)
            yield TooLong(f"a line of {length} bytes is longer than {limit}: skipped")
            continue
        yield raw.decode("utf-8", errors="replace")


def serve(
    make_session: Callable[[Callable[[str], None]], Session],
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    *,
    warm: bool = False,
) -> int:
    """Feed lines from ``stdin`` (default: the process's, read as bytes) to a session writing
    to ``stdout`` until it says stop or the input ends (then any search in progress is
    stopped). Output to a reader that has gone away is dropped, never an error. With ``warm``
    the session makes its search ready in the background from the start."""
    sink = stdout or sys.stdout
    binary = sys.stdout.buffer if stdout is None else None
    gone = False

    def write(line: str) -> None:
        nonlocal gone
        if gone:
            return
        try:
            if binary is not None:
                binary.write((line + "\n").encode("utf-8", errors="backslashreplace"))
                binary.flush()
            else:
                sink.write(line + "\n")
                sink.flush()
        except (BrokenPipeError, ValueError):  # the GUI closed our output (ValueError: closed)
            gone = True
            if binary is not None:  # what is still buffered goes nowhere at exit, quietly
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

    session = make_session(write)
    if warm:
        session.begin_warmup()
    lines: Iterable[str] = stdin if stdin is not None else read_lines(sys.stdin.buffer)
    for line in lines:
        if isinstance(line, TooLong):
            session.complain(line)
        elif not session.handle(line):
            return 0
    session.shutdown()
    return 0
