"""The PGN export of ``kradan serve`` (``GET /api/games.pgn``) under a little load: how long
until its first byte, how long in all, and how long other requests wait meanwhile.

    python benchmarks/pgn_export.py                  # 300 games of 40 plies, SQLite
    python benchmarks/pgn_export.py --games 1000 --plies 60

The script fills a new SQLite file with ``--games`` finished Makruk games of random legal moves
(seeded), written straight into the tables (the server's own migrations make them), then starts
the real ``kradan serve`` on it (a subprocess on 127.0.0.1). It times:

* the export of every game: one request where the server answers it whole (before issue 46,
  or ``?limit=`` as large as the games), and, where the server pages its export (a ``Link:
  <...>; rel="next"`` header), the walk of every page at the default size;
* meanwhile, a second client asks for one game (``GET /api/games/{id}``) again and again: the
  time each of those answers takes, against the same requests on the idle server.

The games are marked public where the schema has the column (issue 46), so that the export
lists them; on a server from before it every game is listed anyway.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchmarks/ as a package

from benchmarks.serve_load import Server  # noqa: E402


def seed(url: str, games: int, plies: int, rng: random.Random) -> list[str]:
    """``games`` finished Makruk games of up to ``plies`` random legal moves in the database at
    ``url`` (migrated first); their public ids."""
    from sqlalchemy import create_engine, insert

    from kradan.games import find_game
    from kradan.web import storage, tables
    from kradan.web.model import new_public_id

    async def migrate() -> None:
        engine = storage.make_engine(url)
        await storage.migrate(engine)
        await engine.dispose()

    asyncio.run(migrate())
    makruk = find_game("makruk")
    has_public = "public" in tables.GAMES.c
    ids = []
    sync = create_engine(url.replace("+aiosqlite", ""))
    with sync.begin() as connection:
        for _ in range(games):
            board = makruk.new_board()
            start = board.fen()
            ucis = []
            for _ in range(plies):
                moves = list(board.legal_moves)
                if not moves or board.outcome() is not None:
                    break
                move = rng.choice(moves)
                ucis.append(move.uci())
                board.push(move)
            now = tables.utcnow()
            public_id = new_public_id()
            row: dict[str, Any] = {
                "public_id": public_id, "variant": "makruk", "options": {},
                "start_fen": start, "white_token": "a" * 64, "black_token": "b" * 64,
                "players": {"white": {"kind": "human"}, "black": {"kind": "human"}},
                "clock": None, "status": "ended", "result": "1/2-1/2",
                "termination": "agreement", "ply": len(ucis), "created_at": now,
                "updated_at": now, "ended_at": now, "rated": False,
            }  # fmt: skip
            if has_public:
                row["public"] = True
            game_id = connection.execute(
                insert(tables.GAMES).values(**row).returning(tables.GAMES.c.id)
            ).scalar_one()
            moves = [
                {"game_id": game_id, "ply": ply, "uci": uci, "white_ms": None,
                 "black_ms": None, "created_at": now}
                for ply, uci in enumerate(ucis)
            ]  # fmt: skip
            connection.execute(insert(tables.MOVES), moves)
            ids.append(public_id)
    sync.dispose()
    return ids


@dataclass
class Fetch:
    """One export request: its status, time to the first byte of the body and in all, the
    bytes and games it held, and the next page's link."""

    status: int
    first_byte: float
    total: float
    size: int
    games: int
    next: str | None


def fetch(base: str, path: str) -> Fetch:
    """GET ``path``, timed to the first byte of the body and to the last."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    started = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    first = response.read(1)
    first_byte = time.perf_counter() - started
    body = first + response.read()
    total = time.perf_counter() - started
    link = response.getheader("link")
    connection.close()
    following = None
    if link and 'rel="next"' in link:
        following = link.split("<", 1)[1].split(">", 1)[0]
    return Fetch(response.status, first_byte, total, len(body),
                 body.count(b"[Event "), following)  # fmt: skip


@dataclass
class Pinger:
    """A client asking for one game again and again (``GET /api/games/{id}``) in a thread of its
    own, keeping each answer's time."""

    base: str
    game_id: str
    times: list[float] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        parts = urlsplit(self.base)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
        while not self.stop.is_set():
            started = time.perf_counter()
            connection.request("GET", f"/api/games/{self.game_id}")
            response = connection.getresponse()
            response.read()
            self.times.append(time.perf_counter() - started)
        connection.close()


def during(base: str, game_id: str, work: Any) -> tuple[Any, list[float]]:
    """``work()`` while a :class:`Pinger` asks for game ``game_id``: its result, and the
    pinger's times."""
    pinger = Pinger(base, game_id)
    thread = threading.Thread(target=pinger.run)
    thread.start()
    time.sleep(0.2)
    try:
        found = work()
    finally:
        pinger.stop.set()
        thread.join()
    return found, pinger.times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def latencies(times: list[float]) -> str:
    if not times:
        return "none"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"{len(times)} requests, median {ms(statistics.median(times))}, "
            f"p95 {ms(p95)}, max {ms(ordered[-1])}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--seed", type=int, default=46)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'games.db'}"
        started = time.perf_counter()
        ids = seed(url, args.games, args.plies, random.Random(args.seed))
        print(f"seeded {len(ids)} games in {time.perf_counter() - started:.1f} s")
        server = Server(url, Path(folder) / "server.log").start()
        try:
            base = server.base
            fetch(base, "/api/games.pgn?limit=1")  # warm up (imports, first queries)
            _, idle = during(base, ids[0], lambda: time.sleep(2.0))
            print(f"idle server, one game:          {latencies(idle)}")
            everything = f"/api/games.pgn?limit={len(ids)}"
            whole, busy = during(base, ids[0], lambda: fetch(base, everything))
            print(f"export in one request:          status {whole.status}, {whole.games} games, "
                  f"{whole.size} bytes, first byte {ms(whole.first_byte)}, "
                  f"total {ms(whole.total)}")  # fmt: skip
            print(f"  meanwhile, one game:          {latencies(busy)}")
            if whole.next is None and whole.games < len(ids):
                print("  (the server left games out of one request and gave no next link)")

            def walk() -> list[Fetch]:
                pages = [fetch(base, "/api/games.pgn")]
                while pages[-1].next is not None:
                    pages.append(fetch(base, pages[-1].next))
                return pages

            pages, busy = during(base, ids[0], walk)
            if len(pages) > 1 or pages[0].games < whole.games:
                total = sum(page.total for page in pages)
                print(f"export page by page (default):  {len(pages)} pages, "
                      f"{sum(page.games for page in pages)} games, first byte "
                      f"{ms(pages[0].first_byte)}, total {ms(total)}")  # fmt: skip
                print(f"  meanwhile, one game:          {latencies(busy)}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
