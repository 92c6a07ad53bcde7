"""The read-execute loop shared by the UCI and XBoard front ends."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Protocol, TextIO


class Session(Protocol):
    def handle(self, line: str) -> bool: ...

    def shutdown(self) -> None: ...


def serve(
    make_session: Callable[[Callable[[str], None]], Session],
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Feed lines from ``stdin`` to a session writing to ``stdout`` until it says stop or the
    input ends (then any search in progress is stopped)."""
    source = stdin or sys.stdin
    sink = stdout or sys.stdout

    def write(line: str) -> None:
        sink.write(line + "\n")
        sink.flush()

    session = make_session(write)
    for line in source:
        if not session.handle(line):
            return 0
    session.shutdown()
    return 0
