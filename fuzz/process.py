"""``kradan uci`` and ``kradan xboard`` as running processes: each input is sent as command
lines (raw bytes, so binary garbage reaches the engine's reader as it would from a GUI), then
the engine must answer ``isready`` (XBoard: ``ping``). A process that dies without ``quit``, one
that stays silent, or a traceback on its standard error is a crash.

Work that a command legitimately asks for is capped so that the time measured is the engine's
answering, not the work: ``go perft N`` over depth 3 and ``Hash`` over 64 MB are lowered (a
search is stopped by ``stop``, XBoard's ``force``, before the question)."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from typing import IO

from . import corpus
from .base import Crash, Target

#: seconds an engine may take to answer ``isready`` or ``ping`` before it counts as silent
SILENT_AFTER = 10.0
#: seconds to start (load the compiled kernels) and shake hands
START_TIMEOUT = 120.0
_PERFT = re.compile(rb"perft(\s+)(\d+)")
_HASH = re.compile(rb"(?i)(hash\s+value\s+)(\d+)")


def _capped(data: bytes) -> bytes:
    """``data`` with deep perfts and huge hash tables made small (see the module's doc)."""

    def depth(found: re.Match[bytes]) -> bytes:
        shallow = len(found.group(2)) < 2 and int(found.group(2)) <= 3
        return b"perft" + found.group(1) + (found.group(2) if shallow else b"2")

    data = _PERFT.sub(depth, data)
    return _HASH.sub(lambda m: m.group(1) + (m.group(2) if len(m.group(2)) < 3 else b"16"), data)


class EngineProcess:
    """One ``kradan uci`` or ``kradan xboard`` process, its output read by threads."""

    def __init__(self, protocol: str) -> None:
        self.protocol = protocol
        self.process: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.errors: list[bytes] = []
        self.peak_mb = 0.0
        self.pings = 0

    # --- starting and stopping --------------------------------------------------------------

    def start(self) -> None:
        """Start the engine and wait for its handshake."""
        self.lines = queue.Queue()
        self.errors = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kradan", self.protocol],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.process.stdout is not None and self.process.stderr is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        threading.Thread(target=self._read_errors, args=(self.process.stderr,), daemon=True).start()
        if self.protocol == "uci":
            self._send(b"uci\n")
            self._expect(lambda line: line == b"uciok", START_TIMEOUT)
        else:
            self._send(b"xboard\nprotover 2\n")
            self._expect(lambda line: b"done=1" in line, START_TIMEOUT)

    def stop(self) -> None:
        """End the engine (``quit``, then a kill if it does not go)."""
        process, self.process = self.process, None
        if process is None:
            return
        self._note_memory(process.pid)
        try:
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(b"quit\n")
                process.stdin.flush()
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def _read(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.lines.put(line.rstrip(b"\r\n"))
        self.lines.put(None)

    def _read_errors(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.errors.append(line)

    def current_peak_mb(self) -> float:
        """The engines' peak resident memory so far (the running one's included)."""
        if self.process is not None:
            self._note_memory(self.process.pid)
        return self.peak_mb

    def _note_memory(self, pid: int) -> None:
        """Keep the engine's peak resident memory (Linux's VmHWM)."""
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        self.peak_mb = max(self.peak_mb, int(line.split()[1]) / 1024)
        except OSError:
            pass

    # --- talking ------------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def _expect(self, wanted: object, timeout: float) -> None:
        """Read lines until ``wanted(line)``; :class:`Crash` if the engine dies or is silent."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise Crash(f"{self.protocol}: no answer within {timeout:.0f} s") from None
            if line is None:
                raise Crash(f"{self.protocol}: the engine died: {self._stderr_tail()}")
            if wanted(line):  # type: ignore[operator]
                return

    def _stderr_tail(self) -> str:
        return b"".join(self.errors[-12:]).decode("utf-8", "replace")[-1500:]

    def ensure_started(self) -> None:
        """Start the engine if there is none (the last input quit it, or it crashed)."""
        if self.process is None or self.process.poll() is not None:
            self.start()

    def feed(self, data: bytes) -> None:
        """Send ``data`` as command lines, then ask whether the engine is still there."""
        self.ensure_started()
        data = _capped(data)
        lines = data.split(b"\n")
        quits = [n for n, line in enumerate(lines) if line.split()[:1] == [b"quit"]]
        if quits:  # the engine ends here: it must go, and a new one serves the next input
            self._send(b"\n".join(lines[: quits[0] + 1]) + b"\n")
            assert self.process is not None
            try:
                self.process.wait(timeout=SILENT_AFTER)
            except subprocess.TimeoutExpired:
                raise Crash(f"{self.protocol}: 'quit' did not end the engine") from None
            self.stop()
            return
        self.pings += 1
        if self.protocol == "uci":
            self._send(data + b"\nstop\nisready\n")
            self._expect(lambda line: line == b"readyok", SILENT_AFTER)
        else:
            tag = f"fuzz{self.pings}".encode()
            self._send(data + b"\nforce\nping " + tag + b"\n")
            self._expect(lambda line: line == b"pong " + tag, SILENT_AFTER)
        if any(b"Traceback" in line for line in self.errors):
            tail = self._stderr_tail()
            self.errors.clear()
            raise Crash(f"{self.protocol}: a traceback on standard error: {tail}")
        if self.pings % 500 == 0 and self.process is not None:
            self._note_memory(self.process.pid)


def _engine_target(protocol: str, grammar: str) -> Target:
    engine = EngineProcess(protocol)

    def run(data: bytes) -> None:
        try:
            engine.feed(data)
        except Crash:
            engine.stop()  # a fresh engine for the next input
            raise

    def seeds() -> list[bytes]:
        return [line.encode() for line in corpus.protocol_seeds()]

    def make() -> object:
        from . import grammars

        return getattr(grammars, grammar)()

    return Target(
        f"{protocol}-engine",
        run,
        seeds,
        make,  # type: ignore[arg-type]
        start=engine.start,
        stop=engine.stop,
        child_peak_mb=engine.current_peak_mb,
        short_inputs=2_000,
        ready=engine.ensure_started,
    )


def process_targets() -> list[Target]:
    """``kradan uci`` and ``kradan xboard``, each one process for all inputs (restarted after
    ``quit`` or a crash)."""
    return [_engine_target("uci", "uci_lines"), _engine_target("xboard", "xboard_lines")]
