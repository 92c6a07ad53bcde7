"""The archive's import limit (``kradan.web.rate_limit``): a token bucket of bytes per client
address; over HTTP an address past its share is answered 429 with ``Retry-After`` and a message
in the reader's language, before anything is read, while other addresses import on."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from kradan.web import create_app, rate_limit
from kradan.web.rate_limit import ImportLimit, amount_text

from .test_web_archive import makruk_games
from .web_helpers import BASE, database_url


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_module_examples() -> None:
    assert doctest.testmod(rate_limit).failed == 0


def test_a_bucket_fills_at_its_rate_and_lets_one_import_run_into_debt() -> None:
    clock = Clock()
    limit = ImportLimit(6000, clock=clock)  # 100 bytes a second
    assert limit.wait("a") is None
    limit.take("a", 5000)
    assert limit.wait("a") is None  # 1000 bytes left
    limit.take("a", 4000)  # one import may go past what is left
    assert limit.wait("a") == 30  # 3000 bytes of debt at 100 a second
    clock.now += 29.5
    assert limit.wait("a") == 1
    clock.now += 0.5
    assert limit.wait("a") is None
    # a bucket holds no more than a minute's worth, however long it waited
    clock.now += 3600
    limit.take("a", 6001)
    assert limit.wait("a") == 1
    # each address has a bucket of its own
    assert limit.wait("b") is None


def test_the_buckets_kept_are_bounded_full_ones_forgotten_first() -> None:
    clock = Clock()
    limit = ImportLimit(600, clock=clock, most_addresses=3)
    limit.take("busy", 1200)
    for address in ("x", "y"):
        limit.wait(address)
    limit.wait("z")  # a fourth address: the full buckets (x, y) make room
    assert limit.wait("busy") == 60
    assert sorted(limit._buckets) == ["busy", "z"]
    for address in ("p", "q", "r"):
        limit.take(address, 1200)  # every bucket in debt: the oldest half goes
    assert len(limit._buckets) <= 3


def test_amounts_and_bad_rates() -> None:
    assert [amount_text(n) for n in (900, 1536, 64 << 20)] == ["900 B", "1.5 KiB", "64 MiB"]
    with pytest.raises(ValueError, match="-1"):
        ImportLimit(-1)


def test_an_address_past_its_share_gets_429_with_retry_after(tmp_path: Path) -> None:
    played = makruk_games(6, seed=8)
    first = "\n".join(text for text, _, _ in played[:3]).encode()
    second = "\n".join(text for text, _, _ in played[3:]).encode()
    app = create_app(database_url(tmp_path), import_rate=len(first))  # one body a minute
    clock = Clock()
    with TestClient(app, base_url=BASE, client=("10.0.0.1", 5000)) as one:
        app.state.import_limit.clock = clock
        answer = one.post("/api/archive", content=first)
        assert answer.status_code == 200 and answer.json()["imported"] == 3
        # the bucket is empty, not in debt: one more import is let in, and runs into debt
        assert one.post("/api/archive", content=second).json()["imported"] == 3
        refused = one.post("/api/archive", content=first)
        assert refused.status_code == 429
        seconds = int(refused.headers["retry-after"])
        assert seconds == -(-len(second) * 60 // len(first))  # the debt, paid off
        assert refused.json() == {
            "error": f"too much PGN imported from this address: try again in {seconds} s "
            f"(the limit is {amount_text(len(first))} a minute)"
        }
        thai = one.post("/api/archive", content=first, headers={"Accept-Language": "th"})
        assert thai.status_code == 429 and "ลองใหม่ใน" in thai.json()["error"]
        with TestClient(app, base_url=BASE, client=("10.0.0.2", 5000)) as other:
            assert other.post("/api/archive", content=first).json()["duplicates"] == 3
        clock.now += seconds
        assert one.post("/api/archive", content=first).status_code == 200
        # a refused import read nothing and stored nothing: six games, each once
        assert len(one.get("/api/archive").json()["games"]) == 6


def test_without_a_limit_every_import_is_let_in(tmp_path: Path) -> None:
    body = makruk_games(1, seed=9)[0][0].encode()
    app = create_app(database_url(tmp_path), import_rate=None)
    with TestClient(app, base_url=BASE) as client:
        assert app.state.import_limit is None
        for _ in range(3):
            assert client.post("/api/archive", content=body).status_code == 200


def test_kradan_serve_import_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import uvicorn

    import kradan.web
    from kradan.cli import main

    made: list[dict[str, object]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    monkeypatch.setattr(kradan.web, "create_app", lambda url, **options: made.append(options))
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    assert main.main(["serve", "--db", db]) == 0
    assert main.main(["serve", "--db", db, "--import-limit", "0.5"]) == 0
    assert main.main(["serve", "--db", db, "--import-limit", "0"]) == 0
    assert [options["settings"].import_rate for options in made] == [
        rate_limit.DEFAULT_IMPORT_RATE,
        1 << 19,
        0,
    ]
    assert main.main(["serve", "--db", db, "--import-limit", "-1"]) == 2
    assert "--import-limit -1" in capsys.readouterr().err
