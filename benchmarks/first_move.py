"""The first move on a fresh install: how long ``kradan uci`` takes to answer ``uciok``,
``readyok`` and its first ``bestmove`` when numba's cache is empty, and again once it is full.

    python benchmarks/first_move.py                      # Makruk's start, go movetime 1000
    python benchmarks/first_move.py --movetime 3000 --fen '8/8/r5p1/7p/5kn1/7K/8/8 b - - 6 93'
    python benchmarks/first_move.py --peer /path/to/fairy-stockfish   # the same for a peer

A fresh cache is an empty ``NUMBA_CACHE_DIR`` (a temporary folder), as a new install has; the
warm run reuses it. Times are seconds from the process's start; "after go" is from the ``go``
command. "depth" is the last depth the engine reported before its move. Issue 44 asks for the
first ``bestmove`` within 20 s of ``go movetime 1000`` on the idle 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _table import print_table

KRADAN_UCI = [sys.executable, "-m", "kradan", "uci"]
#: the longest any answer may take before the run is given up
PATIENCE = 900.0


@dataclass
class FirstMove:
    """When each answer came, in seconds from the process's start."""

    uciok: float
    readyok: float
    go: float
    bestmove: float
    move: str
    depth: int


class _Engine:
    """An engine process whose lines are read by a thread, so every wait can time out."""

    def __init__(self, command: list[str], environment: dict[str, str]) -> None:
        self.start = time.perf_counter()
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, env=environment,
        )  # fmt: skip
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, word: str) -> tuple[float, list[str]]:
        """Seconds from the start until a line beginning with ``word``, and the lines read."""
        seen: list[str] = []
        while True:
            line = self.lines.get(timeout=PATIENCE)
            if line is None:
                raise RuntimeError(f"the engine exited before {word!r}; it said {seen[-5:]}")
            seen.append(line)
            if line.split(" ", 1)[0] == word:
                return time.perf_counter() - self.start, seen

    def close(self) -> None:
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def first_move(command: list[str], cache: Path | None, fen: str | None, movetime: int) -> FirstMove:
    """Start ``command``, ask for one move and time each answer."""
    environment = dict(os.environ)
    if cache is not None:
        environment["NUMBA_CACHE_DIR"] = str(cache)
    engine = _Engine(command, environment)
    try:
        engine.send("uci")
        uciok, _ = engine.wait_for("uciok")
        engine.send("isready")
        readyok, _ = engine.wait_for("readyok")
        engine.send("position startpos" if fen is None else f"position fen {fen}")
        go = time.perf_counter() - engine.start
        engine.send(f"go movetime {movetime}")
        bestmove, lines = engine.wait_for("bestmove")
    finally:
        engine.close()
    depths = [int(words[words.index("depth") + 1]) for words in (line.split() for line in lines)
              if words and words[0] == "info" and "depth" in words]  # fmt: skip
    return FirstMove(uciok, readyok, go, bestmove, lines[-1].split()[1], max(depths, default=0))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fen", help="the position (default: Makruk's start)")
    parser.add_argument("--movetime", type=int, default=1000, help="go movetime, ms (1000)")
    parser.add_argument("--peer", help="another UCI engine's binary, timed the same way")
    args = parser.parse_args()
    runs: list[tuple[str, FirstMove]] = []
    with tempfile.TemporaryDirectory(prefix="kradan-numba-") as folder:
        cache = Path(folder)
        runs.append(
            ("kradan uci, fresh cache", first_move(KRADAN_UCI, cache, args.fen, args.movetime))
        )
        runs.append(
            ("kradan uci, warm cache", first_move(KRADAN_UCI, cache, args.fen, args.movetime))
        )
    if args.peer:
        runs.append((Path(args.peer).name, first_move([args.peer], None, args.fen, args.movetime)))
    rows = [
        [name, f"{r.uciok:.2f}", f"{r.readyok:.2f}", f"{r.bestmove:.2f}",
         f"{r.bestmove - r.go:.2f}", str(r.depth), r.move]
        for name, r in runs
    ]  # fmt: skip
    print_table(
        f"First move: go movetime {args.movetime}, seconds from the engine's start",
        ["engine", "uciok", "readyok", "bestmove", "after go", "depth", "move"],
        rows,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
