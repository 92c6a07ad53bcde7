"""A scripted session with a protocol front end (UCI or XBoard), in process or as a real
subprocess over pipes, for the tests."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Protocol


def patience(timeout: float) -> float:
    """``timeout``, capped by ``KRADAN_TEST_PATIENCE`` seconds when that is set.

    The waits here are generous so that a busy CI machine never fails a test. A mutation run
    sets a short cap: a planted bug that silences the engine then fails its test in seconds
    instead of minutes (every answer these tests wait for comes in a few seconds).
    """
    cap = os.environ.get("KRADAN_TEST_PATIENCE")
    return min(timeout, float(cap)) if cap else timeout


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
        deadline = time.monotonic() + patience(timeout)
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if line.startswith(prefix):
                    return line
            time.sleep(0.01)
        raise AssertionError(f"no {prefix!r} line in {self.lines}")


class EngineProcess:
    """A real ``kradan uci`` or ``kradan xboard`` process driven over pipes, byte for byte.

    A thread reads its output into a queue, so that a test can wait for a line with a timeout
    instead of blocking on a dead or hung engine. Output is decoded leniently: a test then
    checks that every line is printable rather than crashing on odd bytes.
    """

    def __init__(self, protocol: str) -> None:
        env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")  # the strictest text streams
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kradan.cli.main", protocol],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
        )
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self._queue.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        self._queue.put(None)

    def send(self, *lines: str | bytes) -> None:
        """Write ``lines``, each ended by a newline (text as UTF-8, bytes as they are)."""
        assert self.process.stdin is not None
        for line in lines:
            data = line.encode() if isinstance(line, str) else line
            self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def expect(self, prefix: str, timeout: float = 120.0) -> list[str]:
        """The lines up to and including the first one starting with ``prefix``.

        :raises AssertionError: when the engine exits or says nothing like it in time.
        """
        lines: list[str] = []
        timeout = patience(timeout)
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} within {timeout} s after {lines}") from None
            if line is None:
                raise AssertionError(f"the engine ended before {prefix!r}: {self.stderr()}")
            lines.append(line)
            self.seen.append(line)
            if line.startswith(prefix):
                return lines

    def exits(self, timeout: float = 60.0) -> int:
        """The exit status, once the process has ended (it must, within ``timeout``)."""
        timeout = patience(timeout)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the engine still runs {timeout} s later") from None

    def stderr(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", errors="replace")[-2000:]

    def close(self) -> None:
        """End the process if it still runs (a failed test), and free its pipes."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self._stderr.close()
