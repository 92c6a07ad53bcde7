"""Alembic's environment for kradan's web database.

``kradan serve`` runs the migrations on its own connection (``config.attributes
["connection"]``, see :func:`kradan.web.upgrade.migrate`). Run from the ``alembic`` command, the
URL comes from ``sqlalchemy.url`` or ``KRADAN_DB``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from alembic import context
from sqlalchemy.ext.asyncio import create_async_engine

from kradan.web.storage import default_database_url
from kradan.web.tables import Base

config = context.config
target_metadata = Base.metadata


def run_with(connection: Any) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def run_async(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(run_with)
    await engine.dispose()


def run_offline(url: str) -> None:
    context.configure(
        url=url, target_metadata=target_metadata, literal_binds=True, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()


url = config.get_main_option("sqlalchemy.url") or os.environ.get("KRADAN_DB")
shared = config.attributes.get("connection")
if shared is not None:
    run_with(shared)
elif context.is_offline_mode():
    run_offline(url or default_database_url())
else:
    asyncio.run(run_async(url or default_database_url()))
