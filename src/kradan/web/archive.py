"""The archive's store: PGN imported into the archive tables (:mod:`.archive_tables`), streamed,
in batches, with Core bulk statements; reading is in :mod:`.archive_queries`.

An import takes bytes as they arrive (a request body, a file), cuts them into pieces of a few
hundred games (:class:`~.archive_reader.GameSplitter`), reads each piece with kradan's PGN
reader in a worker thread (:func:`~.archive_reader.read_records`) and writes each piece in one
transaction while the next one is read. A transaction writes the players it has not seen, the
games (``INSERT ... ON CONFLICT (game_hash) DO NOTHING RETURNING``: a game already there is
counted as a duplicate and left as it is) and their positions, sorted by key: on SQLite through
the driver's ``executemany``, on PostgreSQL by ``COPY`` (asyncpg's ``copy_records_to_table``),
the fastest way each has (``research/study-in-browser.md``). One import writes at a time per
process; on PostgreSQL several processes may import at once (the conflict clause settles who
stores a game both bring).

A game with a problem (a bad tag, an unknown game, an illegal move) is left out whole and
reported with its line; the others are stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import await_

from ..games import AnyBoard
from .archive_queries import ExplorerCache, Filters, explore
from .archive_reader import (
    POSITION_TAGS,
    GameSplitter,
    LineError,
    Record,
    date_key,
    position_key,
    read_records,
)
from .archive_tables import ARCHIVE_GAMES, ARCHIVE_PLAYERS, ARCHIVE_POSITIONS
from .i18n import SOURCE_LANGUAGE
from .storage import sqlite_pragmas
from .tables import utcnow

#: the errors an import reports one by one; the rest are counted
MAX_ERRORS = 100
#: names per ``IN (...)`` list
_CHUNK = 500
#: players' ids kept in memory before the memo starts again
_MEMO_PLAYERS = 100_000


@dataclass
class ImportReport:
    """What an import did: games stored, games already there, and the games left out."""

    imported: int = 0
    duplicates: int = 0
    errors: list[LineError] = field(default_factory=list)
    #: games left out beyond the :data:`MAX_ERRORS` reported
    more_errors: int = 0

    def add_errors(self, errors: Iterable[LineError]) -> None:
        for error in errors:
            if len(self.errors) < MAX_ERRORS:
                self.errors.append(error)
            else:
                self.more_errors += 1

    def as_json(self, language: str = SOURCE_LANGUAGE) -> dict[str, Any]:
        """The report as the API sends it, the errors' messages in ``language``."""
        return {
            "imported": self.imported,
            "duplicates": self.duplicates,
            "errors": [
                {"line": error.line, "message": error.content.text(language)}
                for error in self.errors
            ],
            "more_errors": self.more_errors,
        }


class ArchiveStore:
    """The archive of one database: imports (:meth:`import_stream`, :meth:`import_text`) and
    the reads of :mod:`.archive_queries` (through :attr:`engine`)."""

    def __init__(self, engine: AsyncEngine, *, piece_games: int = 300) -> None:
        self.engine = engine
        self.piece_games = piece_games
        self._players: dict[str, int] = {}
        self._writing = asyncio.Lock()
        self._sync_engine: Engine | None = None
        self.explorer_cache = ExplorerCache()

    # --- importing -------------------------------------------------------------------------

    async def import_stream(
        self,
        chunks: AsyncIterable[bytes],
        *,
        source: str = "import",
        progress: Callable[[ImportReport], None] | None = None,
    ) -> ImportReport:
        """Import the PGN in ``chunks`` (bytes as they come), a piece at a time: the memory it
        takes is bounded by a piece, whatever the size of the whole. ``progress`` hears the
        report so far after each piece is stored."""
        report = ImportReport()
        splitter = GameSplitter(self.piece_games)
        writing: asyncio.Task[None] | None = None

        async def take(text: str, first_line: int) -> None:
            nonlocal writing
            batch = await asyncio.to_thread(read_records, text, first_line)
            if writing is not None:
                await writing
            report.add_errors(batch.errors)
            writing = asyncio.ensure_future(self.write(batch.records, report, source=source))
            if progress is not None:
                tell = progress

                def written(done: asyncio.Future[None]) -> None:
                    if not done.cancelled() and done.exception() is None:
                        tell(report)

                writing.add_done_callback(written)

        try:
            async for chunk in chunks:
                for text, first_line in splitter.feed(chunk):
                    await take(text, first_line)
            for text, first_line in splitter.finish():
                await take(text, first_line)
        finally:
            if writing is not None:
                await writing
        return report

    async def import_text(self, text: str, *, source: str = "import") -> ImportReport:
        """Import the PGN ``text`` (one game or many)."""

        async def one() -> Any:
            yield text.encode("utf-8", "surrogatepass")

        return await self.import_stream(one(), source=source)

    async def write(
        self, records: Sequence[Record], report: ImportReport, *, source: str = "import"
    ) -> None:
        """Store ``records`` in one transaction; count them into ``report`` as imported or
        as duplicates (already stored, or twice in ``records``)."""
        unique: dict[str, Record] = {}
        for record in records:
            unique.setdefault(record.game_hash(), record)
        duplicates = len(records) - len(unique)
        if not unique:
            report.duplicates += duplicates
            return
        memo = dict(self._players)
        async with self._writing:
            sync_engine = self._sqlite_file_engine()
            if sync_engine is None:
                async with self.engine.begin() as connection:
                    ids, players = await connection.run_sync(_store, unique, memo, source)
            else:
                ids, players = await asyncio.to_thread(
                    _store_sqlite, sync_engine, unique, memo, source
                )
        self._remember(players)
        report.imported += len(ids)
        report.duplicates += duplicates + len(unique) - len(ids)

    def _sqlite_file_engine(self) -> Engine | None:
        """SQLite file: a synchronous engine on it (made on first use), or ``None``.

        On an SQLite file a batch is written in a worker thread through the standard library's
        driver, one transaction from the first insert to the commit. Through the async driver
        the transaction would hold the file's write lock across awaits, while the live games'
        store (:class:`~.storage.Store`), which writes on the event loop's own thread, waits
        for that lock, so that neither could go on until the busy timeout failed a move."""
        url = self.engine.url
        if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
            return None
        if self._sync_engine is None:
            self._sync_engine = create_engine(url.set(drivername="sqlite"))
            event.listen(self._sync_engine, "connect", sqlite_pragmas)
        return self._sync_engine

    def _remember(self, players: dict[str, int]) -> None:
        """Keep committed players' ids for the next batches."""
        if len(self._players) + len(players) > _MEMO_PLAYERS:
            self._players.clear()
        self._players.update(players)

    async def close(self) -> None:
        """Let go of the SQLite writer's engine (a later import makes it again)."""
        if self._sync_engine is not None:
            self._sync_engine.dispose()
            self._sync_engine = None

    # --- reading ---------------------------------------------------------------------------

    async def explore(
        self, board: AnyBoard, variant: str, filters: Filters, *, cached: bool = True
    ) -> dict[str, Any]:
        """The explorer's answer for ``board`` (:func:`.archive_queries.explore`), from the
        cache while the archive has not changed."""
        if not cached:
            return await explore(self.engine, board, variant, filters)
        key = (position_key(board, variant), variant, filters, await self.version())
        answer = self.explorer_cache.get(key)
        if answer is None:
            answer = await explore(self.engine, board, variant, filters)
            self.explorer_cache.put(key, answer)
        return answer

    async def version(self) -> int:
        """A number that changes whenever a game is added (the newest game's id): what the
        explorer's cache is keyed by, right across processes sharing PostgreSQL."""
        async with self.engine.connect() as connection:
            newest = await connection.scalar(select(func.max(ARCHIVE_GAMES.c.id)))
            return int(newest or 0)

    async def count(self) -> int:
        async with self.engine.connect() as connection:
            return int(await connection.scalar(select(func.count(ARCHIVE_GAMES.c.id))) or 0)


def _store_sqlite(
    engine: Engine, unique: dict[str, Record], memo: dict[str, int], source: str
) -> tuple[dict[str, int], dict[str, int]]:
    with engine.begin() as connection:
        return _store(connection, unique, memo, source)


def _store(
    connection: Connection, unique: dict[str, Record], memo: dict[str, int], source: str
) -> tuple[dict[str, int], dict[str, int]]:
    """Write ``unique`` (games by hash) in the connection's transaction: their new players,
    the games not already stored, and those games' positions, sorted by key. Returns the ids
    of the games stored, by hash, and the ids of their players, by name."""
    names = {name for record in unique.values() for name in (record.white, record.black) if name}
    players = _player_ids(connection, names, memo)
    now = utcnow()
    rows = [_game_row(hash_, record, players, source, now) for hash_, record in unique.items()]
    ids = _insert_games(connection, rows)
    positions = [
        (key, game_id, ply, move, record.result_code)
        for hash_, record in unique.items()
        if (game_id := ids.get(hash_)) is not None
        for key, ply, move in record.positions()
    ]
    positions.sort()
    _insert_positions(connection, positions)
    return ids, players


def _player_ids(connection: Connection, names: set[str], memo: dict[str, int]) -> dict[str, int]:
    """The id of every name (new names stored); ``memo`` holds ids known already."""
    found = {name: memo[name] for name in names if name in memo}
    missing = sorted(names - set(found))
    if not missing:
        return found
    found.update(_select_players(connection, missing))
    new = [{"name": name} for name in missing if name not in found]
    if new:
        insert = _dialect(connection).insert(ARCHIVE_PLAYERS)
        connection.execute(insert.on_conflict_do_nothing(index_elements=["name"]), new)
        found.update(_select_players(connection, [row["name"] for row in new]))
    return found


def _dialect(connection: Connection) -> Any:
    """The dialect module whose ``insert`` has the connection's ``ON CONFLICT`` clause."""
    return postgresql if connection.dialect.name == "postgresql" else sqlite


def _select_players(connection: Connection, names: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for start in range(0, len(names), _CHUNK):
        part = names[start : start + _CHUNK]
        rows = connection.execute(
            select(ARCHIVE_PLAYERS.c.name, ARCHIVE_PLAYERS.c.id).where(
                ARCHIVE_PLAYERS.c.name.in_(part)
            )
        )
        found.update({name: int(id_) for name, id_ in rows})
    return found


def _game_row(
    game_hash: str, record: Record, players: dict[str, int], source: str, now: Any
) -> dict[str, Any]:
    headers = {tag: value for tag, value in record.headers.items() if tag not in POSITION_TAGS}
    headers["Result"] = record.result
    return {
        "game_hash": game_hash,
        "variant": record.variant,
        "start_fen": record.start_fen[:200],
        "white_id": players.get(record.white or ""),
        "black_id": players.get(record.black or ""),
        "result": record.result,
        "date_key": date_key(record.headers.get("Date")),
        "ply_count": len(record.moves),
        "moves": " ".join(record.moves),
        "counts": [list(count) for count in record.counts] or None,
        "headers": headers,
        "source": source,
        "created_at": now,
    }


def _insert_games(connection: Connection, rows: list[dict[str, Any]]) -> dict[str, int]:
    """Insert the games not already stored; the ids of those inserted, by hash."""
    statement = (
        _dialect(connection)
        .insert(ARCHIVE_GAMES)
        .on_conflict_do_nothing(index_elements=["game_hash"])
        .returning(ARCHIVE_GAMES.c.game_hash, ARCHIVE_GAMES.c.id)
    )
    inserted = connection.execute(statement, rows)
    return {game_hash: int(id_) for game_hash, id_ in inserted}


_POSITION_COLUMNS = ("pos_key", "game_id", "ply", "next_move", "result")


def _insert_positions(connection: Connection, rows: list[tuple[Any, ...]]) -> None:
    """The position rows through the driver, in the connection's transaction: ``COPY`` on
    PostgreSQL (asyncpg's ``copy_records_to_table``, awaited from the sync facade that
    :meth:`~sqlalchemy.ext.asyncio.AsyncConnection.run_sync` gives), ``executemany`` on
    SQLite."""
    if not rows:
        return
    if connection.dialect.name == "postgresql":
        driver: Any = connection.connection.driver_connection
        copy = driver.copy_records_to_table(
            ARCHIVE_POSITIONS.name, records=rows, columns=list(_POSITION_COLUMNS)
        )
        await_(copy)
    else:
        columns = ", ".join(_POSITION_COLUMNS)
        connection.exec_driver_sql(
            f"INSERT INTO {ARCHIVE_POSITIONS.name} ({columns}) VALUES (?, ?, ?, ?, ?)", rows
        )


__all__ = ["MAX_ERRORS", "ArchiveStore", "ImportReport"]
