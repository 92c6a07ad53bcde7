"""``kradan serve``: play kradan's games in the browser, against the engine or another person.

The server keeps each game in memory in a room (:mod:`.room`; every room in :mod:`.hall`),
stores every move before it answers (:mod:`.storage`, SQLite or PostgreSQL through SQLAlchemy,
schema by Alembic), lets the engine think in worker processes (:mod:`.engine_pool`) and speaks
JSON over HTTP and a websocket (:mod:`.api`). :func:`create_app` builds the application;
``kradan.web.app:app`` is one for uvicorn, on the database named by ``KRADAN_DB``. It needs
``pip install 'kradan[web]'``.

This layer sits above the command line's library layers: it imports kradan's library and
engine, and only ``kradan.cli.serve`` imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .settings import UNSET, ServeSettings, Unset

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .room.dead_rules import DeadGameRules


def create_app(
    database_url: str | None = None,
    *,
    engine_workers: int | None = None,
    warm_engine: bool = False,
    freeze_startup: bool = False,
    settings: ServeSettings | None = None,
    import_rate: int | Unset | None = UNSET,
    dead_games: DeadGameRules | None = None,
) -> FastAPI:
    """The application (see :func:`kradan.web.server.create_app`)."""
    from .server import create_app as make

    return make(
        database_url,
        engine_workers=engine_workers,
        warm_engine=warm_engine,
        freeze_startup=freeze_startup,
        settings=settings,
        import_rate=import_rate,
        dead_games=dead_games,
    )


__all__ = ["ServeSettings", "create_app"]
