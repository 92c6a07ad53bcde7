"""The archive at scale: PGN import rate and opening-explorer latency on SQLite and PostgreSQL.

    python benchmarks/archive.py                      # 100,000 games, both databases
    python benchmarks/archive.py --games 5000 --db sqlite
    python benchmarks/archive.py --jobs 2             # write the PGN with two processes

The games are weighted-random legal Makruk games (seeded), 60 to 90 plies: for the first 16
plies each position orders its legal moves by a hash of the position and the move and picks
the n-th with probability ~ 1/2^n, so that openings repeat as in a real archive; later moves
are uniform. Players are drawn from 500 names (the first ones most often), dates from
2015-2026, results 40% 1-0, 35% 0-1, 25% draws. The PGN is written once (SAN, by kradan's
writer) and kept in ``--cache`` (the temporary folder by default) for the next runs.

Each database starts empty (a file of its own; a throw-away PostgreSQL cluster with fsync on,
skipped with the reason printed when PostgreSQL's programs are missing). The file is imported
through :class:`kradan.web.archive.ArchiveStore` as ``POST /api/archive`` does (1 MiB chunks,
pieces of 300 games read in a thread while the previous piece is written), then ``ANALYZE``
(PostgreSQL: ``VACUUM ANALYZE``, which lets the explorer read the index alone).

The explorer is timed through the async engine as the server calls it, uncached: the start
position (repeated), 100 positions at ply 4 and 100 at ply 8 taken from the games, without
filters and with a player, a date range or a result; and a page of the search.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _table import peak_memory_mb, print_table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchmarks/ as a package, as the tests import it

from benchmarks.postgres_cluster import Cluster, find_bindir  # noqa: E402

PLAYERS = [f"Player {n:03d}" for n in range(500)]
OPENING_PLIES = 16
CHUNK = 1 << 20


# --- the games ------------------------------------------------------------------------------


def _pick(rng: random.Random, count: int) -> int:
    """The n-th of ``count`` with probability about 1/2^(n+1)."""
    index = 0
    while index < count - 1 and rng.random() < 0.5:
        index += 1
    return index


def _player(rng: random.Random) -> str:
    return PLAYERS[min(int(rng.expovariate(1 / 60)), len(PLAYERS) - 1)]


def write_games(first: int, count: int, seed: int) -> str:
    """PGN of games ``first`` .. ``first + count - 1`` (each seeded by its number)."""
    from kradan import Board, pgn

    texts = []
    for number in range(first, first + count):
        rng = random.Random(seed * 1_000_003 + number)
        board = Board()
        for ply in range(rng.randint(60, 90)):
            moves = list(board.legal_moves)
            if not moves:
                break
            if ply < OPENING_PLIES:
                key = board.zobrist_key()

                def weight(move: Any, key: int = key) -> bytes:
                    return hashlib.blake2b(f"{key}{move.uci()}".encode(), digest_size=8).digest()

                moves.sort(key=weight)
                board.push(moves[_pick(rng, len(moves))])
            else:
                board.push(rng.choice(moves))
        roll = rng.random()
        result = "1-0" if roll < 0.4 else "0-1" if roll < 0.75 else "1/2-1/2"
        headers = {
            "Event": "benchmark",
            "Site": "kradan",
            "Date": f"{rng.randint(2015, 2026)}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}",
            "Round": str(number + 1),
            "White": _player(rng),
            "Black": _player(rng),
            "Result": result,
        }
        texts.append(pgn.game_text(board, headers))
    return "\n".join(texts) + "\n"


def games_file(games: int, seed: int, jobs: int, folder: Path) -> Path:
    """The PGN file of ``games`` games (written unless the cache has it)."""
    path = folder / f"kradan-archive-{games}-{seed}.pgn"
    if path.exists():
        print(f"games: {path} (from the cache)")
        return path
    started = time.perf_counter()
    part = 1000
    starts = range(0, games, part)
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as out:
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                sizes = [min(part, games - start) for start in starts]
                for text in pool.map(write_games, starts, sizes, [seed] * len(sizes)):
                    out.write(text)
        else:
            for start in starts:
                out.write(write_games(start, min(part, games - start), seed))
    partial.rename(path)
    seconds = time.perf_counter() - started
    print(f"games: wrote {games:,} games to {path} in {seconds:.0f} s ({games / seconds:.0f}/s)")
    return path


# --- importing and querying -----------------------------------------------------------------


async def file_chunks(path: Path) -> AsyncIterator[bytes]:
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            yield chunk


def sample_positions(path: Path, count: int, seed: int) -> dict[int, list[list[str]]]:
    """UCI move lists that lead to positions at plies 4 and 8, from the file's first games."""
    import io

    from kradan import pgn

    rng = random.Random(seed)
    found: dict[int, list[list[str]]] = {4: [], 8: []}
    seen: set[str] = set()
    with path.open(encoding="utf-8") as handle:
        head = io.StringIO("".join(handle.readline() for _ in range(40 * count * 4)))
    games = []
    while (game := pgn.read_game(head)) is not None:
        games.append([node.move.uci() for node in game.mainline()])
    rng.shuffle(games)
    for ply in found:
        for moves in games:
            line = moves[:ply]
            if len(line) == ply and " ".join(line) not in seen and len(found[ply]) < count:
                seen.add(" ".join(line))
                found[ply].append(line)
    return found


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99


async def measure(url: str, path: Path, samples: dict[int, list[list[str]]]) -> dict[str, Any]:
    """Import ``path`` into the empty database at ``url``; time the explorer and a search."""
    from sqlalchemy import text

    from kradan.web import storage
    from kradan.web.archive import ArchiveStore
    from kradan.web.archive_queries import Filters, board_after, explore, search

    engine = storage.make_engine(url)
    await storage.migrate(engine)
    archive = ArchiveStore(engine)
    started = time.perf_counter()
    report = await archive.import_stream(file_chunks(path))
    imported = time.perf_counter() - started
    async with engine.connect() as connection:
        autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
        postgres = engine.dialect.name == "postgresql"
        await autocommit.execute(text("VACUUM ANALYZE" if postgres else "ANALYZE"))
        rows = await autocommit.scalar(text("SELECT count(*) FROM archive_positions"))
        if postgres:
            size = await autocommit.scalar(text("SELECT pg_database_size(current_database())"))
        else:
            size = Path(engine.url.database or "").stat().st_size
    out: dict[str, Any] = {
        "games/s": report.imported / imported,
        "seconds": imported,
        "imported": report.imported,
        "errors": len(report.errors) + report.more_errors,
        "rows": int(rows or 0),
        "MB": size / 1e6,
    }
    since = Filters(since=20240000)
    player = Filters(player=PLAYERS[0])
    won = Filters(result="1-0")
    sets = {"start": [[]] * 30, "ply 4": samples[4], "ply 8": samples[8]}
    for name, lines in sets.items():
        for label, filters in (("", Filters()), ("player", player), ("since 2024", since),
                               ("1-0", won)):  # fmt: skip
            times = []
            for moves in lines:
                board = board_after("makruk", None, moves)
                began = time.perf_counter()
                await explore(engine, board, "makruk", filters)
                times.append(time.perf_counter() - began)
            out[f"{name} {label}".strip()] = percentiles(times)
    times = []
    for _ in range(30):
        began = time.perf_counter()
        await search(engine, Filters(player=PLAYERS[3]), None, None, 50)
        times.append(time.perf_counter() - began)
    out["search player"] = percentiles(times)
    await engine.dispose()
    return out


def run_on(url: str, path: Path, samples: dict[int, list[list[str]]]) -> dict[str, Any]:
    return asyncio.run(measure(url, path, samples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    path = games_file(args.games, args.seed, args.jobs, args.cache)
    samples = sample_positions(path, 100, args.seed)
    results: dict[str, dict[str, Any]] = {}
    folder = Path(tempfile.mkdtemp(prefix="kradan-archive-bench-"))
    if args.db in ("sqlite", "both"):
        print("importing into SQLite ...", flush=True)
        results["SQLite"] = run_on(f"sqlite+aiosqlite:///{folder / 'archive.db'}", path, samples)
    if args.db in ("postgresql", "both"):
        bindir, why = find_bindir()
        if bindir is None:
            print(f"PostgreSQL skipped: {why}")
        else:
            print("importing into PostgreSQL ...", flush=True)
            with Cluster(bindir, durable=True) as cluster:
                results["PostgreSQL"] = run_on(cluster.new_database(), path, samples)
    names = list(results)
    if not names:
        return
    first = results[names[0]]
    rows = [
        [key, *(f"{results[name][key]:,.0f}" for name in names)]
        for key in ("imported", "errors", "seconds", "games/s", "rows", "MB")
    ]
    print_table(f"Import of {args.games:,} games", ["", *names], rows)
    timed = [key for key in first if isinstance(first[key], tuple)]
    rows = [
        [key, *(f"{results[n][key][0] * 1e3:.2f} / {results[n][key][1] * 1e3:.2f}" for n in names)]
        for key in timed
    ]
    print_table("Explorer and search, p50 / p99 ms (uncached)", ["query", *names], rows)
    print(f"\npeak memory {peak_memory_mb():.0f} MB")


if __name__ == "__main__":
    main()
