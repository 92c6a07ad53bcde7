"""An engine's process: a child with a reader thread, so that every read can time out, and what
the UCI and XBoard clients share (the handshake's grace, a command's words, the context
manager, quitting).

A dead or silent engine raises :class:`EngineError`; ``quit()`` (or leaving the ``with``
block) ends the process cleanly, killing it if it does not exit.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Generator
from types import TracebackType
from typing import Any, TypeVar

from ...errors import EngineError
from ..types import Limit

#: more time for an engine's first answers (``uci``, the first ``isready``): an engine may load
#: or compile its code then, slowly on a machine busy with other games
STARTUP_GRACE = 90.0

ClientT = TypeVar("ClientT", bound="Client")
ResultT = TypeVar("ResultT")


class EngineProcess:
    """A child process with a reader thread, so that every read can time out."""

    def __init__(self, command: list[str]) -> None:
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"cannot start engine {command!r}: {error}") from None
        self.command = command
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError) as error:
            raise EngineError(f"engine {self.command!r} is gone: {error}") from None

    def readline(self, deadline: float) -> str:
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise EngineError(f"engine {self.command!r} did not answer in time")
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"engine {self.command!r} did not answer in time") from None
        if line is None:
            self.lines.put(None)  # every later read hears it too
            raise EngineError(f"engine {self.command!r} exited")
        return line

    def close(self, grace: float = 2.0) -> None:
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Client:
    """What both protocols share: the process, context management, a name, ``id``."""

    name: str

    def __init__(self, command: list[str], timeout: float) -> None:
        self.timeout = timeout
        self.process = EngineProcess(command)
        self.name = command[-1]
        #: what the engine says of itself (``name``, ``author`` where it says)
        self.id: dict[str, str] = {}

    @classmethod
    def popen(cls: type[ClientT], command: str | list[str], timeout: float = 30.0) -> ClientT:
        """Start ``command`` (a list of words, or one line split as a shell would:
        ``"kradan uci"``, ``"fairymax"``) and complete the protocol's handshake.

        :raises EngineError: when the engine cannot start or does not answer in time.
        """
        client = cls(command_words(command), timeout)
        try:
            client.handshake()
        except EngineError:
            client.process.close(grace=0.0)
            raise
        return client

    def handshake(self) -> None:
        """Greet the engine and read what it says of itself (each protocol its own way)."""
        raise NotImplementedError

    def __enter__(self: ClientT) -> ClientT:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.quit()

    def deadline(self, extra: float = 0.0) -> float:
        """When an answer is late: the client's timeout (plus ``extra`` seconds) from now."""
        return time.monotonic() + self.timeout + extra

    def quit(self) -> None:
        """End the engine (politely, then by force)."""
        with contextlib.suppress(EngineError):
            self.process.send("quit")
        self.process.close()


def command_words(command: str | list[str]) -> list[str]:
    """A command as the words of a process: a string is split as a shell splits it.

    :raises EngineError: for anything else, or for an empty command.
    """
    words = shlex.split(command) if isinstance(command, str) else command
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise EngineError(f"cannot start engine {command!r}: expected a command line")
    return words


def think_time(limit: Limit, white: bool) -> float:
    """The longest an engine may think under ``limit``: its time, or its clock (an hour when
    neither binds)."""
    if limit.time is not None:
        return limit.time
    clock = limit.white_clock if white else limit.black_clock
    return clock if clock is not None else 3600.0


def outcome(thinking: Generator[Any, None, ResultT]) -> ResultT:
    """What a search generator returns, its reports passed over."""
    while True:
        try:
            next(thinking)
        except StopIteration as stop:
            result: ResultT = stop.value
            return result


__all__ = ["STARTUP_GRACE", "Client", "EngineProcess", "command_words", "outcome", "think_time"]
