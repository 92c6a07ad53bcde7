"""The settings an admin changes while the server runs (issue 47 item 2), kept in the
database (``server_settings``, :mod:`.admin_tables`) so that they outlive a restart and every
process reads the same: whether sign-up is open, and a notice on the front page. What the
command line gave (:class:`~kradan.web.settings.ServeSettings`) is the default of each until
an admin changes it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from starlette.requests import HTTPConnection

from .admin_tables import ServerSettingRow
from .settings import ServeSettings
from .tables import utcnow

#: the longest notice, in characters
MAX_NOTICE = 500
#: the settings, by name
NAMES = ("sign_up_open", "notice")


class RuntimeSettings:
    """The run-time settings of one server, over the defaults of its command line."""

    def __init__(self, engine: AsyncEngine, defaults: ServeSettings) -> None:
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.defaults = {"sign_up_open": defaults.sign_up_open, "notice": defaults.notice}

    async def current(self) -> dict[str, Any]:
        """``{sign_up_open, notice}``: each as stored, else its default."""
        async with self.sessions() as session:
            rows = (await session.scalars(select(ServerSettingRow))).all()
        values = dict(self.defaults)
        values.update({row.name: row.value for row in rows if row.name in values})
        return values

    async def change(self, values: dict[str, Any]) -> dict[str, Any]:
        """Store ``values`` (names of :data:`NAMES`, checked by the caller); the settings
        after."""
        async with self.sessions.begin() as session:
            for name, value in values.items():
                assert name in NAMES, name
                row = await session.get(ServerSettingRow, name)
                if row is None:
                    session.add(ServerSettingRow(name=name, value=value, updated_at=utcnow()))
                else:
                    row.value, row.updated_at = value, utcnow()
        return await self.current()


def runtime_settings(connection: HTTPConnection) -> RuntimeSettings:
    settings: RuntimeSettings = connection.app.state.runtime_settings
    return settings


__all__ = ["MAX_NOTICE", "NAMES", "RuntimeSettings", "runtime_settings"]
