"""The schema's upgrades: Alembic's migrations (``kradan/web/migrations``) run on the server's
own engine when it starts (:func:`migrate`), and the revision a database is at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine


def alembic_config(connection: Any) -> Any:
    """Alembic's configuration for kradan's migrations, run on ``connection`` (a synchronous
    connection, inside ``run_sync``)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    return config


async def migrate(engine: AsyncEngine) -> None:
    """Upgrade the database to the newest schema (Alembic's ``upgrade head``).

    On SQLite the foreign keys are not enforced while the migrations run: a migration that
    SQLite cannot make with ``ALTER TABLE`` copies the table into a new one and drops the old
    (Alembic's batch mode), and with the foreign keys on that drop would delete every row that
    refers to the old table (``ON DELETE CASCADE``: a game's moves, events and review), as
    SQLite's own guide to such changes warns. The keys are checked before the upgrade is
    committed (``PRAGMA foreign_key_check``), then enforced again.
    """
    from alembic import command

    def upgrade(connection: Any) -> None:
        command.upgrade(alembic_config(connection), "head")

    sqlite = engine.dialect.name == "sqlite"
    async with engine.connect() as connection:
        if sqlite:  # (a pragma that has no effect inside a transaction: none is open yet)
            await connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            await connection.commit()
        try:
            async with connection.begin():
                await connection.run_sync(upgrade)
                if sqlite:
                    broken = (await connection.exec_driver_sql("PRAGMA foreign_key_check")).all()
                    if broken:
                        raise RuntimeError(f"the migrated database breaks foreign keys: {broken}")
        finally:
            if sqlite:
                await connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                await connection.commit()


async def schema_revision(connection: AsyncConnection) -> str | None:
    """The Alembic revision the database is at."""
    from alembic.runtime.migration import MigrationContext

    def current(sync: Any) -> str | None:
        revision: str | None = MigrationContext.configure(sync).get_current_revision()
        return revision

    return await connection.run_sync(current)


__all__ = ["alembic_config", "migrate", "schema_revision"]
