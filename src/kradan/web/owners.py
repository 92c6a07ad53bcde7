"""Which ``kradan serve`` process serves which game, when several share one PostgreSQL.

Each process holds one connection of its own (:class:`Owners`) and, on it, a PostgreSQL
*session advisory lock* per game it serves (``pg_try_advisory_lock(LOCK_CLASS, games.id)``).
The lock is the ownership: PostgreSQL grants it to one connection at a time, and frees it when
that connection ends, so a process killed with SIGKILL (its socket closed by the kernel) gives
its games up at once, with no lease to expire and no clock to trust. The connection's
``application_name`` is ``kradan@`` and the process's internal URL: another process finds a
game's owner by joining ``pg_locks`` with ``pg_stat_activity`` (:meth:`Owners.owner_of`), and
forwards the game's requests there (:mod:`.forward`).

A lease table was the other way (a row per game renewed every few seconds by a conditional
``UPDATE``): it needs a renewal task per process, a write per game per period, and a handover
that waits for the lease to run out; the lock costs nothing while held and hands over as soon
as PostgreSQL sees the connection close. Neither works through PgBouncer's transaction pooling,
which gives a session's locks to whoever gets the server connection next: the processes
connect to PostgreSQL directly (docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger("kradan.web")

#: the first key of every game's advisory lock ("kr"): the second is the game's ``games.id``
LOCK_CLASS = 0x6B72
#: the first key of :func:`one_at_a_time`'s locks ("ks"): the second is a hash of the name
SERIAL_CLASS = 0x6B73
#: the start of the ``application_name`` of an owner connection; the internal URL follows
APPLICATION_PREFIX = "kradan@"
#: PostgreSQL keeps this many bytes of an ``application_name``
NAME_LIMIT = 63

_OWNER = """
SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2
  AND l.objsubid = 2 AND l.database = (SELECT oid FROM pg_database
                                       WHERE datname = current_database())
"""
_ORPHANS = """
SELECT g.public_id FROM games g
WHERE g.status = 'playing' AND NOT EXISTS (
  SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1
    AND l.objid = g.id AND l.objsubid = 2
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))
ORDER BY g.id LIMIT $2
"""


@asynccontextmanager
async def one_at_a_time(engine: AsyncEngine, name: str) -> AsyncIterator[None]:
    """Run the block in one process at a time among those on ``engine``'s database, for work
    that is not a game's and that several processes could start at once (a tournament's next
    round when its last two games end on two processes): a transaction-level advisory lock
    named ``name``, held on a connection of the pool until the block ends. On SQLite (one
    process) it does nothing."""
    if engine.dialect.name != "postgresql":
        yield
        return
    async with engine.connect() as connection, connection.begin():
        await connection.execute(
            text("SELECT pg_advisory_xact_lock(:kind, hashtext(:name))"),
            {"kind": SERIAL_CLASS, "name": name},
        )
        yield


class Elsewhere(Exception):
    """Game ``public_id`` is served by the process at ``address`` (its internal URL), or, with
    ``address`` ``None``, by a process that could not be named (it is going away)."""

    def __init__(self, public_id: str, address: str | None) -> None:
        super().__init__(f"game {public_id!r} is served by {address or 'another process'}")
        self.public_id = public_id
        self.address = address


def asyncpg_dsn(url: str) -> str:
    """The libpq URL asyncpg takes for SQLAlchemy's ``postgresql+asyncpg://`` ``url`` (its
    password, if it has one, kept)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Owners:
    """This process's connection for game ownership (and the bus, :mod:`.bus`): the advisory
    locks of the games it serves. One query at a time goes over it (``self.busy``)."""

    def __init__(self, url: str, address: str) -> None:
        name = APPLICATION_PREFIX + address
        if len(name.encode()) > NAME_LIMIT:
            raise ValueError(
                f"internal URL {address!r} is too long: at most "
                f"{NAME_LIMIT - len(APPLICATION_PREFIX)} characters"
            )
        self.url = url
        self.address = address
        self.name = name
        self.connection: Any = None
        self.busy = asyncio.Lock()
        #: called once if the connection is lost: this process no longer owns anything
        self.on_lost: Callable[[], None] | None = None
        #: the games (``games.id``) whose lock this process holds
        self.held: set[int] = set()

    async def open(self) -> None:
        """Connect (the ``application_name`` names this process's internal URL)."""
        import asyncpg  # type: ignore[import-untyped]  # the web extra's PostgreSQL driver

        self.connection = await asyncpg.connect(
            asyncpg_dsn(self.url), server_settings={"application_name": self.name}
        )
        self.connection.add_termination_listener(self._terminated)

    def _terminated(self, connection: Any) -> None:
        if self.connection is None:
            return  # closed on purpose
        log.critical("the connection that holds this process's games was lost")
        self.held.clear()
        if self.on_lost is not None:
            self.on_lost()

    async def run(self, query: str, *args: Any) -> Any:
        """``fetch`` ``query`` over the connection, one query at a time."""
        async with self.busy:
            return await self.connection.fetch(query, *args)

    async def game_id(self, public_id: str) -> int | None:
        rows = await self.run("SELECT id FROM games WHERE public_id = $1", public_id)
        return int(rows[0]["id"]) if rows else None

    async def new_game_id(self) -> int:
        """An id for a new game, taken from the table's sequence and claimed before the game
        is stored: no other process can see the game before this one owns it."""
        rows = await self.run("SELECT nextval(pg_get_serial_sequence('games', 'id')) AS id")
        game_id = int(rows[0]["id"])
        await self.claim(game_id)
        return game_id

    async def claim(self, game_id: int) -> bool:
        """Take game ``game_id`` if no process serves it (``True``: it is this process's)."""
        if game_id in self.held:
            return True
        rows = await self.run("SELECT pg_try_advisory_lock($1, $2) AS ok", LOCK_CLASS, game_id)
        if rows[0]["ok"]:
            self.held.add(game_id)
            return True
        return False

    async def release(self, game_id: int) -> None:
        """Give game ``game_id`` up (another process may take it)."""
        if game_id not in self.held:
            return
        self.held.discard(game_id)
        await self.run("SELECT pg_advisory_unlock($1, $2)", LOCK_CLASS, game_id)

    async def owner_of(self, game_id: int) -> str | None:
        """The internal URL of the process that serves game ``game_id``; ``None`` when none
        does (or its holder names no URL)."""
        rows = await self.run(_OWNER, LOCK_CLASS, game_id)
        for row in rows:
            name = row["application_name"] or ""
            if name.startswith(APPLICATION_PREFIX):
                return str(name[len(APPLICATION_PREFIX) :])
        return None

    async def orphans(self, limit: int = 100) -> list[str]:
        """The public ids of games being played that no process serves (their process was
        stopped or killed)."""
        rows = await self.run(_ORPHANS, LOCK_CLASS, limit)
        return [str(row["public_id"]) for row in rows]

    async def notify(self, channel: str, payload: str) -> None:
        await self.run("SELECT pg_notify($1, $2)", channel, payload)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback`` with the payload of every notification on ``channel`` that
        another process sent."""
        own = self.connection.get_server_pid()

        def heard(connection: Any, pid: int, name: str, payload: str) -> None:
            if pid != own:
                callback(payload)

        async with self.busy:
            await self.connection.add_listener(channel, heard)

    async def close(self) -> None:
        """Close the connection: PostgreSQL frees every lock it held."""
        connection, self.connection = self.connection, None
        self.held.clear()
        if connection is not None:
            await connection.close()


__all__ = [
    "APPLICATION_PREFIX",
    "LOCK_CLASS",
    "Elsewhere",
    "Owners",
    "asyncpg_dsn",
    "one_at_a_time",
]
