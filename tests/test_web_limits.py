"""The limit on creating games per client address (issue 46: 200 games could be created in
1.7 s by anyone): ``create_rate`` games a minute and ``create_burst`` at once
(``kradan serve --create-rate N --create-burst N``), counted on every route that may start a
game (a new game, posting or taking a seek, a rematch); past it the answer is 429 with
``Retry-After`` and a message in the reader's language, and nothing is created. The clock is
the test's own: nothing here sleeps or times anything."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from kradan.web import create_app
from kradan.web.rate_limit import TokenBuckets
from kradan.web.settings import DEFAULT_CREATE_BURST, DEFAULT_CREATE_RATE, ServeSettings

from .web_helpers import BASE, act, bearer, database_url


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def refusal(seconds: int, rate: str = "30") -> str:
    return (
        f"too many games created from this address: try again in {seconds} s (the limit is "
        f"{rate} games a minute)"
    )


# --- the buckets -------------------------------------------------------------------------------


def test_a_burst_then_one_game_every_two_seconds_at_thirty_a_minute() -> None:
    clock = Clock()
    games = TokenBuckets(30, capacity=3, clock=clock)
    for _ in range(3):
        assert games.wait("a", need=1) is None
        games.take("a")
    assert games.wait("a", need=1) == 2
    assert games.wait("b", need=1) is None  # another address has its own bucket
    clock.now += 1.5
    assert games.wait("a", need=1) == 1  # 0.75 of a token: a quarter of 2 s to go, rounded up
    clock.now += 0.5
    assert games.wait("a", need=1) is None
    games.take("a")
    clock.now += 3600  # a bucket fills up to its capacity, no further
    for _ in range(3):
        assert games.wait("a", need=1) is None
        games.take("a")
    assert games.wait("a", need=1) == 2


def test_bad_rates_and_bursts() -> None:
    for bad in (0, -1):
        with pytest.raises(ValueError, match=f"per_minute {bad}"):
            TokenBuckets(bad)
        with pytest.raises(ValueError, match=f"capacity {bad}"):
            TokenBuckets(10, capacity=bad)
    with pytest.raises(ValueError, match="create_rate -1"):
        ServeSettings(create_rate=-1)
    with pytest.raises(ValueError, match="create_burst 0"):
        ServeSettings(create_burst=0)
    with pytest.raises(ValueError, match="import_rate -5"):
        ServeSettings(import_rate=-5)
    assert (DEFAULT_CREATE_RATE, DEFAULT_CREATE_BURST) == (30, 10)


# --- over HTTP ---------------------------------------------------------------------------------


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Any:
    """An app that lets each address create 3 games at once, then 30 a minute."""
    return create_app(
        database_url(tmp_path), settings=ServeSettings(create_rate=30, create_burst=3, clock=clock)
    )


class FromAddress:
    """``app`` seen from the client address named by the test's ``X-Test-Client`` header
    (10.0.0.1 without it): one test client plays several addresses on one running app."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope["headers"])
            address = headers.get(b"x-test-client", b"10.0.0.1").decode()
            scope = {**scope, "client": (address, 5000)}
        await self.app(scope, receive, send)


@pytest.fixture
def one(app: Any) -> Iterator[TestClient]:
    """A test client from 10.0.0.1, or another address with ``headers=elsewhere(...)``."""
    with TestClient(FromAddress(app), base_url=BASE) as client:
        yield client


def elsewhere(address: str) -> dict[str, str]:
    return {"x-test-client": address}


def new_game(client: TestClient, **body: Any) -> Any:
    # listed, so that the test can count them (a game between people is private by default)
    return client.post("/api/games", json={"opponent": "human", "public": True, **body})


def games_listed(client: TestClient) -> int:
    return len(client.get("/api/games?limit=500").json()["games"])


def test_an_address_past_its_share_gets_429_with_retry_after(one: TestClient, clock: Clock) -> None:
    for _ in range(3):
        assert new_game(one).status_code == 201
    refused = new_game(one)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "2"
    assert refused.json() == {"error": refusal(2)}
    assert "set-cookie" not in refused.headers
    assert refused.headers["content-security-policy"].startswith("default-src 'self'")
    in_thai = one.post("/api/games", json={}, headers={"accept-language": "th"})
    assert in_thai.status_code == 429 and in_thai.json()["error"] != refusal(2)
    assert "2" in in_thai.json()["error"]
    assert games_listed(one) == 3  # nothing was created past the limit
    # another address is not held back
    other = one.post("/api/games", json={}, headers=elsewhere("10.0.0.2"))
    assert other.status_code == 201
    # once the bucket has a token again
    clock.now += 2
    assert new_game(one).status_code == 201
    assert new_game(one).status_code == 429
    assert games_listed(one) == 5


def test_bad_bodies_count_too(one: TestClient) -> None:
    """The limit comes first: a flood of bad requests is held back like good ones."""
    for _ in range(3):
        assert one.post("/api/games", json={"variant": "chess"}).status_code == 400
    assert one.post("/api/games", json={}).status_code == 429


def test_seeks_and_their_games_count(one: TestClient) -> None:
    posted = one.post("/api/seeks", json={"name": "Anan"})
    assert posted.status_code == 201
    taker = elsewhere("10.0.0.3")
    for _ in range(2):
        assert one.post("/api/games", json={}, headers=taker).status_code == 201
    accept = f"/api/seeks/{posted.json()['id']}/accept"
    accepted = one.post(accept, json={}, headers=taker)
    assert accepted.status_code == 200, accepted.text  # the third game: the burst is spent
    second = one.post("/api/seeks", json={"name": "Anan"}).json()
    answer = one.post(f"/api/seeks/{second['id']}/accept", json={}, headers=taker)
    assert answer.status_code == 429 and answer.headers["retry-after"] == "2"
    assert one.post("/api/seeks", json={"quick": True}, headers=taker).status_code == 429
    assert one.post("/api/seeks", json={"name": "Anan"}).status_code == 201  # three posted
    assert one.post("/api/seeks", json={"name": "Anan"}).status_code == 429


def test_a_rematch_counts(one: TestClient, clock: Clock) -> None:
    created = new_game(one).json()
    white, black = created["token"], created["invite"]
    assert act(one, created["id"], white, "resign").status_code == 200
    url = f"/api/games/{created['id']}/rematch"
    offered = one.post(url, headers=bearer(white))
    assert offered.status_code == 200 and offered.json()["status"] == "offered"
    agreed = one.post(url, headers=bearer(black))  # the third: the new game starts
    assert agreed.status_code == 200 and agreed.json()["status"] == "agreed"
    refused = one.post(url, headers=bearer(white))  # White comes for the new seat
    assert refused.status_code == 429 and refused.json() == {"error": refusal(2)}
    clock.now += 2
    again = one.post(url, headers=bearer(white))
    assert again.status_code == 200 and again.json()["game"] == agreed.json()["game"]


def test_without_a_limit_every_game_is_created(tmp_path: Path) -> None:
    app = create_app(database_url(tmp_path), settings=ServeSettings(create_rate=0))
    with TestClient(app, base_url=BASE) as client:
        assert app.state.create_limit is None
        for _ in range(DEFAULT_CREATE_BURST + 5):
            assert new_game(client).status_code == 201


def test_the_default_limit(tmp_path: Path) -> None:
    app = create_app(database_url(tmp_path))
    with TestClient(app, base_url=BASE) as client:
        limit = app.state.create_limit
        assert (limit.per_minute, limit.capacity) == (DEFAULT_CREATE_RATE, DEFAULT_CREATE_BURST)
        limit.clock = lambda: 0.0  # the test's clock: the bucket does not fill while it runs
        for _ in range(DEFAULT_CREATE_BURST):
            assert new_game(client).status_code == 201
        assert new_game(client).status_code == 429


# --- kradan serve --create-rate ------------------------------------------------------------------


def made_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str) -> Any:
    """The settings ``kradan serve OPTIONS`` gives the app (nothing is served)."""
    import uvicorn

    import kradan.web
    from kradan.cli import main

    made: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: None)
    monkeypatch.setattr(kradan.web, "create_app", lambda url, **kwargs: made.append(kwargs))
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    code = main.main(["serve", "--db", db, *options])
    return made[0]["settings"] if code == 0 else code


def test_kradan_serve_create_rate(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain = made_settings(monkeypatch, tmp_path)
    assert (plain.create_rate, plain.create_burst) == (30, 10)
    paced = made_settings(monkeypatch, tmp_path, "--create-rate", "12.5", "--create-burst", "2")
    assert (paced.create_rate, paced.create_burst) == (12.5, 2)
    for off in ("off", "0", "OFF"):
        assert made_settings(monkeypatch, tmp_path, "--create-rate", off).create_rate == 0
    capsys.readouterr()
    for bad in ("-1", "abc", "nan", "2000000"):
        assert made_settings(monkeypatch, tmp_path, "--create-rate", bad) == 2
        said = capsys.readouterr().err
        assert f"--create-rate {bad!r}: expected games a minute, or 'off'" in said
    assert made_settings(monkeypatch, tmp_path, "--create-burst", "0") == 2
    assert "--create-burst 0: expected 1..1000000" in capsys.readouterr().err


def test_the_serve_help_names_the_limits() -> None:
    from kradan.cli import serve

    commands = argparse.ArgumentParser().add_subparsers()
    serve.add_parser(commands)
    text = commands.choices["serve"].format_help()
    for option in ("--create-rate", "--create-burst", "--allowed-hosts", "429", "DNS rebinding"):
        assert option in " ".join(text.split()), option


def test_another_sites_page_cannot_spend_an_address_share(one: TestClient) -> None:
    for origin in ("https://evil.example", "null"):
        for _ in range(3):
            answer = one.post("/api/games", json={}, headers={"origin": origin})
            assert answer.status_code == 403
    for _ in range(3):
        assert new_game(one).status_code == 201
