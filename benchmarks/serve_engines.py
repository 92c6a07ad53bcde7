"""The engine pool of ``kradan serve`` (issue 45): how soon analysis answers, and how soon a
level-1 reply comes while six level-20 games think, with ``--engines 1`` against the default.

    python benchmarks/serve_engines.py                   # --engines 1 and the default
    python benchmarks/serve_engines.py --engines 1 2 4 --rounds 10

For each pool size the script starts the real ``kradan serve --engines N`` (a subprocess on
127.0.0.1, a temporary SQLite file) and measures:

* **analysis at start-up**: ``POST /api/analysis`` (start position, ``movetime_ms`` 20) sent as
  soon as the server accepts connections, while its workers are still warming up;
* **analysis, warm**: the same once the server is idle (median of ``--rounds``), and the first
  ``lines`` message of the socket ``/api/analysis/socket`` after an ``analyse`` (its first
  completed depth);
* **stop**: from ``{"t": "stop"}`` to the last lines of an analysis that had searched for half
  a second (how promptly a running search stops, the way through the worker's pipe included);
* **level 1, idle** and **level 1, 6 x level 20**: a person's move in a game against level 1
  until the engine's reply arrives over the game's socket, first on an idle server, then while
  six games against level 20 (no clock: 2 s a move) think, their human side answering at once
  so that they never stop; and the socket's first analysis line under that load.

The figures are wall-clock seconds (medians, and the worst of the rounds); the ratio column is
against ``--engines 1``. The machine's other load shows in them: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _table import print_table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.loopback import call  # noqa: E402
from benchmarks.serve_load import Server  # noqa: E402

#: games against level 20 that think while the level-1 replies are timed
LOADED_GAMES = 6


class EngineServer(Server):
    """``kradan serve --engines N``; ``settle`` only when asked (the cold figure comes first)."""

    def __init__(self, db: str, log: Path, engines: int | None) -> None:
        super().__init__(db, log)
        self.engines = engines
        self.settling = False

    def command(self) -> list[str]:
        extra = [] if self.engines is None else ["--engines", str(self.engines)]
        return [*super().command(), *extra]

    def settle(self, quiet: float = 0.05, longest: float = 60.0) -> None:
        if self.settling:
            super().settle(quiet, longest)


def post_analysis(base: str, movetime_ms: int = 20) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    answer = call(f"{base}/api/analysis", {"variant": "makruk", "movetime_ms": movetime_ms})
    return time.perf_counter() - started, answer


async def socket_first_lines(base: str, rounds: int, patience: float = 60.0) -> list[float]:
    """Seconds from ``analyse`` to its first lines, ``rounds`` times on one socket (each request
    replaces the one before); ``inf`` for one that sent nothing in ``patience`` seconds (play
    goes first: with one worker and games that never stop, analysis waits)."""
    from websockets.asyncio.client import connect

    times = []
    async with connect(base.replace("http://", "ws://") + "/api/analysis/socket") as socket:
        for ident in range(1, rounds + 1):
            started = time.perf_counter()
            moves = ["e3e4"] if ident % 2 else []  # a new position each time
            request = {"t": "analyse", "id": ident, "moves": moves, "movetime_ms": 5000}
            await socket.send(json.dumps(request))
            try:
                async with asyncio.timeout(patience):
                    while True:
                        message = json.loads(await socket.recv())
                        if message.get("id") == ident and message.get("t") == "lines":
                            times.append(time.perf_counter() - started)
                            break
            except TimeoutError:
                times.append(math.inf)
        await socket.send(json.dumps({"t": "stop"}))
    return times


async def stop_delays(base: str, rounds: int) -> list[float]:
    """Seconds from ``stop`` to the last lines (``done``) of an analysis that had searched for
    half a second: how promptly a search stops."""
    from websockets.asyncio.client import connect

    times = []
    async with connect(base.replace("http://", "ws://") + "/api/analysis/socket") as socket:
        for ident in range(1, rounds + 1):
            request = {"t": "analyse", "id": ident, "multipv": 3, "movetime_ms": 60_000}
            await socket.send(json.dumps(request))
            await asyncio.sleep(0.5)
            started = time.perf_counter()
            await socket.send(json.dumps({"t": "stop"}))
            while True:
                message = json.loads(await socket.recv())
                if message.get("id") == ident and message.get("done"):
                    times.append(time.perf_counter() - started)
                    break
    return times


async def keep_thinking(base: str, game_id: str, token: str, stop: asyncio.Event) -> None:
    """The human side of a game against the engine: a random legal move whenever it is its
    turn, until ``stop``."""
    from websockets.asyncio.client import connect

    rng = random.Random(game_id)
    url = base.replace("http://", "ws://") + f"/api/games/{game_id}/socket"
    async with connect(url, max_size=2**22) as socket:
        await socket.send(json.dumps({"type": "auth", "token": token}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), 0.5)
            except TimeoutError:
                continue
            state = json.loads(text).get("game")
            if state is None or state["status"] != "playing":
                return
            if state["turn"] == "black" and state["legal_moves"]:
                move = rng.choice(state["legal_moves"])
                await socket.send(json.dumps({"type": "move", "move": move}))


async def level_one_replies(base: str, rounds: int) -> list[float]:
    """Seconds from a move against level 1 to the engine's reply, ``rounds`` times."""
    from websockets.asyncio.client import connect

    loop = asyncio.get_running_loop()
    body = {"variant": "makruk", "level": 1, "color": "white"}
    created = await loop.run_in_executor(None, call, f"{base}/api/games", body)
    url = base.replace("http://", "ws://") + f"/api/games/{created['id']}/socket"
    rng = random.Random(1)
    times = []
    async with connect(url, max_size=2**22) as socket:
        await socket.send(json.dumps({"type": "auth", "token": created["token"]}))
        state = json.loads(await socket.recv())["game"]
        for _ in range(rounds):
            if state["status"] != "playing":
                break
            ply = state["ply"]
            started = time.perf_counter()
            move = rng.choice(state["legal_moves"])
            await socket.send(json.dumps({"type": "move", "move": move}))
            while state["ply"] < ply + 2 and state["status"] == "playing":
                state = json.loads(await socket.recv())["game"]
            times.append(time.perf_counter() - started)
    return times


async def under_load(base: str, rounds: int) -> tuple[list[float], list[float]]:
    """Level-1 replies and first analysis lines while :data:`LOADED_GAMES` games against
    level 20 think."""
    loop = asyncio.get_running_loop()
    body = {"variant": "makruk", "level": 20, "color": "black"}  # the engine moves first
    games = [
        await loop.run_in_executor(None, call, f"{base}/api/games", body)
        for _ in range(LOADED_GAMES)
    ]
    stop = asyncio.Event()
    load = [asyncio.create_task(keep_thinking(base, g["id"], g["token"], stop)) for g in games]
    await asyncio.sleep(1.0)  # every game's engine has asked for its move
    replies = await level_one_replies(base, rounds)
    lines = await socket_first_lines(base, max(2, rounds // 2), patience=15.0)
    stop.set()
    await asyncio.gather(*load, return_exceptions=True)
    return replies, lines


def measure(engines: int | None, rounds: int, folder: Path) -> dict[str, list[float]]:
    db = f"sqlite+aiosqlite:///{folder / f'engines-{engines}.db'}"
    server = EngineServer(db, folder / f"serve-{engines}.log", engines)
    figures: dict[str, list[float]] = {}
    try:
        server.start()
        seconds, answer = post_analysis(server.base)
        assert answer["lines"], answer
        figures["analysis at start-up (POST, 20 ms)"] = [seconds]
        server.settling = True
        server.settle()
        figures["analysis, warm (POST, 20 ms)"] = [
            post_analysis(server.base)[0] for _ in range(rounds)
        ]
        figures["first socket line, warm"] = asyncio.run(socket_first_lines(server.base, rounds))
        figures["stop to last lines (socket)"] = asyncio.run(stop_delays(server.base, rounds))
        figures["level 1, idle"] = asyncio.run(level_one_replies(server.base, rounds))
        replies, lines = asyncio.run(under_load(server.base, rounds))
        figures[f"level 1, {LOADED_GAMES} x level 20"] = replies
        figures[f"first socket line, {LOADED_GAMES} x level 20"] = lines
    finally:
        server.stop()
    return figures


def shown(seconds: float) -> str:
    return f"{seconds:.3f} s" if math.isfinite(seconds) else "none in 15 s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--engines", type=int, nargs="+", default=[1, 0],
        help="pool sizes to compare (0: the default, one per core from 2 to 8)",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=8, help="repeats of each figure")
    args = parser.parse_args()
    from kradan.web.engine_pool import default_engines

    sizes = [size or None for size in args.engines]
    results = {}
    with tempfile.TemporaryDirectory(prefix="kradan-serve-engines-") as name:
        for size in sizes:
            results[size] = measure(size, args.rounds, Path(name))
    names = list(next(iter(results.values())))
    header = ["measure"]
    for size in sizes:
        label = f"--engines {size}" if size else f"default ({default_engines()})"
        header += [f"{label} median", "worst"]
    if len(sizes) > 1:
        header.append("ratio")
    rows = []
    for figure in names:
        row = [figure]
        medians = []
        for size in sizes:
            values = results[size][figure]
            medians.append(statistics.median(values))
            row += [shown(medians[-1]), shown(max(values))]
        if len(sizes) > 1:
            finite = all(map(math.isfinite, medians)) and medians[-1]
            row.append(f"{medians[0] / medians[-1]:.1f}x" if finite else "-")
        rows.append(row)
    cores = os.cpu_count()
    print_table(
        f"kradan serve's engine pool ({cores} cores; seconds; ratio: first column over last)",
        header,
        rows,
    )


if __name__ == "__main__":
    main()
