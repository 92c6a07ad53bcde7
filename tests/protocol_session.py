"""A scripted session with a protocol front end (UCI or XBoard), for the tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol


class Engine(Protocol):
    def handle(self, line: str) -> bool: ...


class Session:
    """Feeds commands to an engine object and collects what it writes."""

    def __init__(self, make_engine: Callable[[Callable[[str], None]], Engine]) -> None:
        self.lines: list[str] = []
        self.engine = make_engine(self.lines.append)

    def send(self, *commands: str) -> bool:
        alive = True
        for command in commands:
            alive = self.engine.handle(command)
        return alive

    def wait_for(self, prefix: str, timeout: float = 60.0) -> str:
        """The first line starting with ``prefix``, once the engine's thread has written it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if line.startswith(prefix):
                    return line
            time.sleep(0.01)
        raise AssertionError(f"no {prefix!r} line in {self.lines}")
