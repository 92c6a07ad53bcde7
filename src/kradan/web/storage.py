"""Where ``kradan serve`` keeps its games: SQLAlchemy 2's async ORM on SQLite (the default,
``sqlite+aiosqlite:///<user data dir>/games.db``) or PostgreSQL (``postgresql+asyncpg://...``).

The three tables (``games``, ``moves``, ``events``) are defined in :mod:`.tables`. The schema is
made and upgraded by the Alembic migrations shipped in ``kradan/web/migrations``;
:func:`~.upgrade.migrate` (kept here under its old name too) runs them to the newest revision when
the server starts.

SQLite connections run with ``journal_mode=WAL``, ``synchronous=FULL`` (a committed move
survives a crash of the machine, not only of the server), ``foreign_keys=ON`` and a
``busy_timeout``. A move is committed before anyone hears of it. One writer task makes every
write: the moves of many games that arrive together share a transaction (group commit), written
with Core ``INSERT``/``UPDATE`` statements of many rows each (see :class:`Store`). On an SQLite
file that transaction is made with the standard library's driver on the event loop's own thread,
which is faster than the async driver's round trips (see :meth:`Store._transaction`); reads go
through the async engine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from .tables import (
    EVENTS,
    GAMES,
    MOVES,
    Base,
    Ending,
    EventRow,
    GameRow,
    MoveRow,
    NewMove,
    StoredGame,
    utcnow,
)
from .upgrade import migrate, schema_revision

#: how long an SQLite connection waits for another writer, in milliseconds
BUSY_TIMEOUT_MS = 5000


def default_database_url() -> str:
    """``sqlite+aiosqlite:///`` on ``games.db`` in the user's data folder for kradan (made
    if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("kradan"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'games.db'}"


#: the async driver of each database kradan knows, for URLs that name none
ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg",
                 "postgres": "postgresql+asyncpg"}  # fmt: skip


def database_url(text: str) -> str:
    """The database URL for what a user wrote: a file path is an SQLite file;
    ``sqlite:///`` and ``postgresql://`` get their async drivers (aiosqlite, asyncpg).

    :raises ValueError: for a URL SQLAlchemy cannot read or one with a driver that is not
        async, quoting it.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    text = text.strip()
    if "://" not in text:
        path = Path(text).expanduser()
        if not text or path.is_dir():
            raise ValueError(f"database {text!r}: expected a file or a URL")
        return f"sqlite+aiosqlite:///{path.resolve()}"
    scheme, rest = text.split("://", 1)
    text = f"{ASYNC_DRIVERS.get(scheme, scheme)}://{rest}"
    try:
        dialect = make_url(text).get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError) as error:
        raise ValueError(f"database URL {text!r}: {error}") from None
    if not getattr(dialect, "is_async", False):
        raise ValueError(
            f"database URL {text!r}: kradan needs an async driver "
            "(sqlite+aiosqlite:///PATH or postgresql+asyncpg://...)"
        )
    return text


# --- the engine and the schema ----------------------------------------------------------------


def sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """Kradan's pragmas on a new SQLite connection (a ``connect`` event's listener)."""
    cursor = dbapi_connection.cursor()
    for pragma in (
        "journal_mode=WAL",
        "synchronous=FULL",
        "foreign_keys=ON",
        f"busy_timeout={BUSY_TIMEOUT_MS}",
    ):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; SQLite connections get kradan's pragmas."""
    engine = create_async_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine


class Store:
    """The database seen by the rooms.

    Every write (a new game, a move, an event, a takeback) is committed before its method
    returns. The writes are made by one writer task: the writes that arrive while a commit is
    under way wait for it, then go to the database together in the next transaction (group
    commit), so that many games share one commit (one ``fsync``) and each caller still hears
    back only after its own write is committed. When a transaction of several writes fails,
    each is tried again in a transaction of its own, so that one bad write fails alone.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._pending: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None
        #: SQLite: the synchronous engine that commits (see :meth:`_transaction`)
        self._sync_engine: Engine | None = None
        #: how many transactions the writer committed, and how many writes they held
        self.commits = 0
        self.writes = 0

    # --- reading ---------------------------------------------------------------------------------

    async def load(self, public_id: str) -> StoredGame | None:
        async with self.sessions() as session:
            row = await session.scalar(select(GameRow).where(GameRow.public_id == public_id))
            if row is None:
                return None
            return await self._parts(session, row)

    async def _parts(self, session: AsyncSession, row: GameRow) -> StoredGame:
        moves = await session.scalars(
            select(MoveRow).where(MoveRow.game_id == row.id).order_by(MoveRow.ply)
        )
        events = await session.scalars(
            select(EventRow).where(EventRow.game_id == row.id).order_by(EventRow.seq)
        )
        return StoredGame(row, list(moves), list(events))

    async def load_many(self, ids: Sequence[int]) -> list[StoredGame]:
        """The games of row ids ``ids``, in that order (those that exist), read in three
        queries whatever their number (the PGN export reads its pages so)."""
        if not ids:
            return []
        async with self.sessions() as session:
            rows = {
                row.id: row
                for row in await session.scalars(select(GameRow).where(GameRow.id.in_(ids)))
            }
            moves: dict[int, list[MoveRow]] = {game_id: [] for game_id in rows}
            for move in await session.scalars(
                select(MoveRow).where(MoveRow.game_id.in_(ids)).order_by(MoveRow.ply)
            ):
                moves[move.game_id].append(move)
            events: dict[int, list[EventRow]] = {game_id: [] for game_id in rows}
            for event in await session.scalars(
                select(EventRow).where(EventRow.game_id.in_(ids)).order_by(EventRow.seq)
            ):
                events[event.game_id].append(event)
        return [StoredGame(rows[i], moves[i], events[i]) for i in ids if i in rows]

    async def games_of(
        self, account_id: int, also: Collection[str] = ()
    ) -> list[tuple[str, str, bool]]:
        """The games of account ``account_id`` being played, and those of ``also`` (public
        ids) however they stand: ``(public id, variant, being played)`` each."""
        mine = or_(GameRow.white_account_id == account_id, GameRow.black_account_id == account_id)
        wanted = GameRow.status == "playing"
        if also:
            wanted = or_(wanted, GameRow.public_id.in_(list(also)))
        async with self.sessions() as session:
            found = await session.execute(
                select(GameRow.public_id, GameRow.variant, GameRow.status)
                .where(mine, wanted)
                .order_by(GameRow.id)
            )
            return [(row[0], row[1], row[2] == "playing") for row in found]

    async def playing(self) -> list[str]:
        """The public ids of every game still being played."""
        async with self.sessions() as session:
            found = await session.scalars(
                select(GameRow.public_id).where(GameRow.status == "playing").order_by(GameRow.id)
            )
            return list(found)

    async def count_games(self) -> int:
        async with self.sessions() as session:
            return int(await session.scalar(select(func.count(GameRow.id))) or 0)

    # --- writing -------------------------------------------------------------------------------

    async def create(self, row: GameRow) -> GameRow:
        """Store a new game; ``row.id`` is set once it is committed (or kept, when it was set
        already: a process among several takes its new game's id first, :mod:`.owners`)."""
        values = _row_values(row, skip=("id",) if row.id is None else ())

        def insert_game(connection: Connection) -> None:
            inserted = connection.execute(insert(GAMES).values(**values).returning(GAMES.c.id))
            row.id = int(inserted.scalar_one())

        await self._write(_Write(custom=insert_game))
        return row

    async def add_move(
        self,
        game_id: int,
        move: NewMove | MoveRow,
        ending: Ending | None,
        events: Sequence[EventRow] = (),
    ) -> None:
        """Store a move (and the events it brings, and its game's end) in one transaction."""
        game = {"ply": move.ply + 1, "updated_at": move.created_at, **_ending_values(ending)}
        values = {
            "game_id": move.game_id,
            "ply": move.ply,
            "uci": move.uci,
            "white_ms": move.white_ms,
            "black_ms": move.black_ms,
            "created_at": move.created_at,
        }
        await self._write(
            _Write(
                moves=[values],
                events=[_row_values(row) for row in events],
                game=(game_id, game),
            )
        )

    async def add_event(self, game_id: int, row: EventRow, ending: Ending | None = None) -> None:
        """Store an event (and its game's end) in one transaction."""
        game = {"updated_at": row.created_at, **_ending_values(ending)}
        await self._write(_Write(events=[_row_values(row)], game=(game_id, game)))

    async def take_back(self, game_id: int, row: EventRow, plies: int, stack: int) -> None:
        """Store a takeback to ``plies`` moves: the later moves go, and so do the count events
        at or beyond ``stack`` (their place in the board's move stack)."""
        event = _row_values(row)

        def take(connection: Connection) -> None:
            connection.execute(
                delete(MOVES).where(MOVES.c.game_id == game_id, MOVES.c.ply >= plies)
            )
            counts = connection.execute(
                select(EVENTS.c.seq, EVENTS.c.payload).where(
                    EVENTS.c.game_id == game_id,
                    EVENTS.c.kind.in_(("count_declare", "count_stop")),
                )
            )
            gone = [seq for seq, payload in counts if int(payload.get("at", 0)) >= stack]
            if gone:
                connection.execute(
                    delete(EVENTS).where(EVENTS.c.game_id == game_id, EVENTS.c.seq.in_(gone))
                )
            connection.execute(insert(EVENTS), [event])
            connection.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id)
                .values(ply=plies, updated_at=row.created_at)
            )

        await self._write(_Write(custom=take))

    async def close(self) -> None:
        """Wait for the writes under way to be committed, then let go of the SQLite writer's
        connection (a later write opens it again)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)
        if self._sync_engine is not None:
            self._sync_engine.dispose()
            self._sync_engine = None

    async def _write(self, write: _Write) -> None:
        """Hand ``write`` to the writer task and wait until it is committed.

        :raises Exception: what the database raised for this write (in a transaction of its
            own); nothing of it is stored then.
        """
        write.done = asyncio.get_running_loop().create_future()
        self._pending.append(write)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_all())
        await asyncio.shield(write.done)

    async def _write_all(self) -> None:
        """The writer: commit what is pending, in one transaction, until nothing is."""
        batch: list[_Write] = []
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                await self._commit_batch(batch)
                batch = []
        except BaseException:  # cancelled: no caller waits for ever (whether it is stored
            # is unknown, as for a server killed during a commit)
            stopped = RuntimeError("the store's writer was stopped")
            for write in [*batch, *self._pending]:
                _settle(write, stopped)
            self._pending = []
            raise

    async def _commit_batch(self, batch: list[_Write]) -> None:
        """Commit ``batch`` in one transaction; when that fails, each write in one of its own,
        so that only the bad one fails. Settles every write of the batch."""
        try:
            await self._transaction(batch)
        except Exception as error:
            if len(batch) == 1:
                _settle(batch[0], error)
                return
            for write in batch:
                try:
                    await self._transaction([write])
                except Exception as alone:
                    _settle(write, alone)
                else:
                    _settle(write, None)
        else:
            for write in batch:
                _settle(write, None)

    async def _transaction(self, batch: list[_Write]) -> None:
        """Write ``batch`` in one transaction.

        On an SQLite file the transaction runs here, on the event loop's thread, through the
        standard library's driver: it takes a few milliseconds for a batch of a hundred moves,
        ``fsync`` included. The async driver's thread cost more than that: each statement is
        a round trip to the thread and back that waits behind everything else the loop has
        to do, and the thread waits for the GIL after every step of SQLite. PostgreSQL's
        driver is async by nature and goes through the async engine; there a batch of moves
        alone is one statement (:data:`_POSTGRESQL_MOVES`), one round trip instead of four
        (``BEGIN``, the moves, the games, ``COMMIT``), each of which waits its turn in a busy
        event loop."""
        sync_engine = self._sqlite_file_engine()
        if (
            sync_engine is None
            and self.engine.dialect.name == "postgresql"
            and all(_only_a_move(write) for write in batch)
        ):
            async with self.engine.connect() as connection:
                autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
                await autocommit.execute(_POSTGRESQL_MOVES, _postgresql_move_values(batch))
        elif sync_engine is None:
            async with self.engine.begin() as connection:
                await connection.run_sync(_apply, batch)
        else:
            await _sqlite_write(sync_engine, batch)
        self.commits += 1
        self.writes += len(batch)

    def _sqlite_file_engine(self) -> Engine | None:
        """The synchronous engine on the same SQLite file (made on first use), or ``None``
        for PostgreSQL and for an SQLite database in memory."""
        url = self.engine.url
        if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
            return None
        if self._sync_engine is None:
            self._sync_engine = create_engine(url.set(drivername="sqlite"))
            event.listen(self._sync_engine, "connect", sqlite_pragmas)
            event.listen(self._sync_engine, "connect", _no_busy_wait)
        return self._sync_engine


#: how long the store's SQLite writer waits between tries while another connection writes
_RETRY_SECONDS = (0.001, 0.002, 0.005, 0.01, 0.02)


def _no_busy_wait(dbapi_connection: Any, connection_record: Any) -> None:
    """The store's own SQLite writer does not wait inside SQLite for another writer: it runs
    on the event loop's thread, and the other writer (an async connection's transaction) may
    need the loop to go on before it can finish (see :func:`_sqlite_write`)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=0")
    cursor.close()


async def _sqlite_write(engine: Engine, batch: list[_Write]) -> None:
    """``batch`` in one transaction on the SQLite file, tried again while another connection
    holds the write lock: between tries the event loop runs (so that the other transaction, if
    it is one of this server's async ones, can end), for up to SQLite's usual busy timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    tries = 0
    while True:
        try:
            with engine.begin() as connection:
                _apply(connection, batch)
            return
        except OperationalError as error:
            if not _busy(error) or loop.time() >= deadline:
                raise
        await asyncio.sleep(_RETRY_SECONDS[min(tries, len(_RETRY_SECONDS) - 1)])
        tries += 1


def _busy(error: OperationalError) -> bool:
    text = str(error.orig).lower()
    return "database is locked" in text or "database is busy" in text


#: a batch of moves on PostgreSQL in one statement (atomic by itself, so run in autocommit): the
#: moves go in through the CTE, and each game's row gets its ply and time, and its end if the
#: move ended it (``NULL`` keeps what is there)
_POSTGRESQL_MOVES = text(
    """
WITH new_moves AS (
    INSERT INTO moves (game_id, ply, uci, white_ms, black_ms, created_at)
    SELECT * FROM unnest(
        CAST(:game_id AS integer[]), CAST(:ply AS integer[]), CAST(:uci AS varchar[]),
        CAST(:white_ms AS integer[]), CAST(:black_ms AS integer[]),
        CAST(:created_at AS timestamp[]))
)
UPDATE games SET
    ply = new.ply,
    updated_at = new.updated_at,
    status = COALESCE(new.status, games.status),
    result = COALESCE(new.result, games.result),
    termination = COALESCE(new.termination, games.termination),
    ended_at = COALESCE(new.ended_at, games.ended_at)
FROM unnest(
    CAST(:game AS integer[]), CAST(:new_ply AS integer[]), CAST(:updated_at AS timestamp[]),
    CAST(:status AS varchar[]), CAST(:result AS varchar[]), CAST(:termination AS varchar[]),
    CAST(:ended_at AS timestamp[])
) AS new(id, ply, updated_at, status, result, termination, ended_at)
WHERE games.id = new.id
"""
)

#: the columns of a game's row that a move sets (``ply`` and ``updated_at``, and with its end
#: ``status``, ``result``, ``termination`` and ``ended_at``)
_MOVE_GAME_COLUMNS = ("ply", "updated_at", "status", "result", "termination", "ended_at")


def _only_a_move(write: _Write) -> bool:
    """Whether ``write`` is one move with its game's row and nothing else."""
    return (
        write.custom is None
        and not write.events
        and len(write.moves) == 1
        and write.game is not None
        and {"ply", "updated_at"} <= set(write.game[1]) <= set(_MOVE_GAME_COLUMNS)
    )


def _postgresql_move_values(batch: list[_Write]) -> dict[str, list[Any]]:
    """The arrays :data:`_POSTGRESQL_MOVES` takes, one entry per write of ``batch``."""
    arrays: dict[str, list[Any]] = {
        name: [] for name in ("game_id", "ply", "uci", "white_ms", "black_ms", "created_at")
    }
    arrays.update({"game": [], "new_ply": []})
    arrays.update({name: [] for name in _MOVE_GAME_COLUMNS[1:]})
    for write in batch:
        move = write.moves[0]
        for name in ("game_id", "ply", "uci", "white_ms", "black_ms", "created_at"):
            arrays[name].append(move[name])
        assert write.game is not None
        game_id, values = write.game
        arrays["game"].append(game_id)
        arrays["new_ply"].append(values["ply"])
        for name in _MOVE_GAME_COLUMNS[1:]:
            arrays[name].append(values.get(name))
    return arrays


def _apply(connection: Connection, batch: list[_Write]) -> None:
    """The statements of ``batch`` (in a transaction the caller holds): its functions of the
    connection, then every move, every event and every game row, in one statement each."""
    for write in batch:
        if write.custom is not None:
            write.custom(connection)
    moves = [values for write in batch for values in write.moves]
    if moves:
        connection.execute(insert(MOVES), moves)
    events = [values for write in batch for values in write.events]
    if events:
        connection.execute(insert(EVENTS), events)
    # the games' rows, in groups that set the same columns (one statement each)
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for write in batch:
        if write.game is not None:
            game_id, values = write.game
            bound = {f"new_{key}": value for key, value in values.items()}
            groups.setdefault(tuple(sorted(values)), []).append({"game": game_id, **bound})
    for columns, rows in groups.items():
        statement = (
            update(GAMES)
            .where(GAMES.c.id == bindparam("game"))
            .values({column: bindparam(f"new_{column}") for column in columns})
        )
        connection.execute(statement, rows)


@dataclass
class _Write:
    """One write for the writer: rows to insert, a game's row to update, or a function of the
    connection; ``done`` is resolved once it is committed."""

    moves: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    game: tuple[int, dict[str, Any]] | None = None
    custom: Callable[[Connection], None] | None = None
    done: asyncio.Future[None] | None = None


def _settle(write: _Write, error: BaseException | None) -> None:
    done = write.done
    if done is None or done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def _row_values(row: Base, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every column of an ORM object as a value for a Core insert (Python-side defaults
    filled in where the object has ``None``)."""
    table = cast(Table, row.__table__)
    values = {}
    for column in table.columns:
        if column.key in skip:
            continue
        value = getattr(row, column.key)
        default = column.default
        if value is None and default is not None and getattr(default, "is_scalar", False):
            value = default.arg  # type: ignore[attr-defined]
        elif value is None and default is not None and getattr(default, "is_callable", False):
            value = default.arg(None)  # type: ignore[attr-defined]
        values[column.key] = value
    return values


def _ending_values(ending: Ending | None) -> dict[str, Any]:
    if ending is None:
        return {}
    return {
        "status": "ended",
        "result": ending.result,
        "termination": ending.termination,
        "ended_at": utcnow(),
    }


__all__ = [
    "Store",
    "database_url",
    "default_database_url",
    "make_engine",
    "migrate",
    "schema_revision",
]
