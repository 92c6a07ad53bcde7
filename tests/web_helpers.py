"""What the web tests share: an app on its own SQLite file (or PostgreSQL database), and short
ways to ask it things."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.websockets import WebSocketDisconnect

from kradan.web import create_app, storage
from kradan.web.settings import LOOPBACK_HOSTS, ServeSettings

__all__ = ["WebSocketDisconnect"]

T = TypeVar("T")

BASE = "http://127.0.0.1"
#: what the tests' apps let in: the loopback names and Starlette's default ``testserver``, and
#: any number of games from the test client (tests/test_web_limits.py tries the limit)
TEST_SETTINGS = ServeSettings(allowed_hosts=(*LOOPBACK_HOSTS, "testserver"), create_rate=0)


def database_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / 'games.db'}"


#: the databases the storage tests run on; PostgreSQL is a throw-away cluster (the
#: ``postgresql_cluster`` fixture of conftest.py), skipped where PostgreSQL is not installed
DATABASES = ["sqlite", "postgresql"]


def new_database(kind: str, request: pytest.FixtureRequest, folder: Path) -> str:
    """The URL of a new, empty database of ``kind`` (one of :data:`DATABASES`)."""
    if kind == "postgresql":
        url: str = request.getfixturevalue("postgresql_cluster").new_database()
        return url
    return database_url(folder)


class Closing(Protocol):
    async def close(self) -> None: ...


S = TypeVar("S", bound=Closing)


def in_own_thread(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` in an event loop of its own thread (Playwright's sync API, used by the
    browser tests in this process, may hold a running loop in this one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def on_database(
    url: str, open_store: Callable[[AsyncEngine], S], work: Callable[[S], Awaitable[T]]
) -> T:
    """``work(store)`` on a migrated database at ``url``, the store made by ``open_store`` from
    the database's engine and closed after, in an event loop of its own thread."""

    async def main() -> T:
        engine = storage.make_engine(url)
        try:
            await storage.migrate(engine)
            store = open_store(engine)
            try:
                return await work(store)
            finally:
                await store.close()
        finally:
            await engine.dispose()

    return in_own_thread(main())


@contextmanager
def serving(url: str) -> Iterator[TestClient]:
    """A test client of a new app on the database at ``url`` (lifespan run: migrations,
    resumed games), letting in what :data:`TEST_SETTINGS` does."""
    with TestClient(create_app(url, settings=TEST_SETTINGS), base_url=BASE) as client:
        yield client


#: the password of the tests' accounts
PASSWORD = "correct horse battery"


class People:
    """One test client used as several people: each request carries one person's session
    cookie (or none: a guest)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.sessions: dict[str, str] = {}

    def call(self, who: str | None, method: str, path: str, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        if who is not None:
            self.client.cookies.set("kradan_session", self.sessions[who])
        response = self.client.request(method, path, **kwargs)
        self.client.cookies.clear()
        return response

    def sign_up(self, username: str, password: str = PASSWORD) -> Any:
        """Make the account (its session kept for :meth:`call`); the answer."""
        response = self.call(None, "POST", "/api/accounts",
                             json={"username": username, "password": password})  # fmt: skip
        if response.status_code == 201:
            self.sessions[username] = response.cookies["kradan_session"]
        return response


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """A new game; fails the test unless it is created."""
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def game(client: TestClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def move(client: TestClient, game_id: str, token: str, uci: str) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/moves", json={"move": uci}, headers=bearer(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def act(client: TestClient, game_id: str, token: str, action: str) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions", json={"action": action}, headers=bearer(token)
    )


#: the fields of a game's view that change as one watches: the clocks' running times, and the
#: waits of a game nobody plays (:mod:`kradan.web.room.abandon`: a seat's request starts them)
WATCHED = ("clock", "abort_in_ms", "gone", "revision")


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    """The game without what changes as one watches (:data:`WATCHED`)."""
    return {key: value for key, value in state.items() if key not in WATCHED}


def wait_for(check: Any, timeout: float = 60.0, step: float = 0.05) -> Any:
    """Poll ``check()`` until it returns something true, or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s")
        time.sleep(step)


def next_game(socket: Any) -> dict[str, Any]:
    """The next message of a game socket, which must be the game."""
    message = socket.receive_json()
    assert message["type"] == "game", message
    state: dict[str, Any] = message["game"]
    return state


def next_game_within(socket: Any, seconds: float) -> dict[str, Any]:
    """The next game message, failing (not hanging) when none comes within ``seconds``: a
    liveness bound for what the server must do by itself, set far above the moment it is due
    (not a measure of speed)."""
    found: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: found.append(next_game(socket)), daemon=True)
    reader.start()
    reader.join(seconds)
    assert found, f"no game message within {seconds} s"
    return found[0]
