"""Time controls under a minute and in seconds (issue 46): one reader (``parse_clock``) for the
forms people write (``300+2`` in seconds as the API always took it, ``30s+0``, ``1m+0``,
lichess's ``½+0``), a clear error quoting anything else, and the same clock however written in
a new game, its PGN, and the lobby's seeks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kradan.web.model import ClockError, GameError, clock_text, parse_clock
from tests.web_helpers import People, create, database_url, game, serving


@pytest.mark.parametrize(
    ("text", "base_s", "increment_s"),
    [
        ("300+2", 300, 2),  # seconds, the API's form
        ("30+0", 30, 0),
        ("1+0", 1, 0),  # a bare number is seconds, however short
        ("30s+0", 30, 0),
        ("45 sec + 0", 45, 0),
        ("1m+0", 60, 0),
        ("5min+3", 300, 3),
        ("0.5m+0", 30, 0),
        ("1.5 min+1s", 90, 1),
        ("½+0", 30, 0),  # lichess's parts of a minute
        ("¼+0", 15, 0),
        ("¾+1", 45, 1),
        ("1½+0", 90, 0),
        ("30s", 30, 0),  # no increment: none
        (" 3m+2 ", 180, 2),
        ("36000+600", 36000, 600),
    ],
)
def test_the_forms_of_a_clock(text: str, base_s: int, increment_s: int) -> None:
    assert parse_clock(text) == (base_s * 1000, increment_s * 1000)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("0.5+0", "a bare number is seconds"),  # half a second, or half a minute?
        ("½s+0", "parts of a minute"),
        ("1.55s+0", "whole number of seconds"),
        ("0.01m+0", "whole number of seconds"),
        ("0+0", "1 to 36000 seconds"),
        ("36001+0", "1 to 36000 seconds"),
        ("601m+0", "1 to 36000 seconds"),
        ("5+601", "1 to 36000 seconds"),
        ("5h+0", "expected base+increment"),
        ("+3", "expected base+increment"),
        ("5+", "expected base+increment"),
        ("5+3+1", "expected base+increment"),
        ("", "expected base+increment"),
        ("9" * 60, "expected base+increment"),
    ],
)
def test_a_bad_clock_is_a_clear_error_quoting_it(text: str, why: str) -> None:
    with pytest.raises(ClockError) as caught:
        parse_clock(text)
    error = caught.value
    assert isinstance(error, GameError) and error.status == 400
    assert repr(text[:40]) in error.message and why in error.message


def test_the_apis_own_form_reads_back_as_it_was() -> None:
    for text in ("30+0", "60+0", "300+2", "5400+30"):
        assert clock_text(*parse_clock(text)) == text
    assert clock_text(*parse_clock("½+0")) == clock_text(*parse_clock("30s")) == "30+0"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(database_url(tmp_path)) as client:
        yield client


@pytest.mark.parametrize("written", ["30+0", "30s+0", "½+0", "0.5m"])
def test_a_thirty_second_game(client: TestClient, written: str) -> None:
    created = create(client, opponent="human", clock=written)
    state = game(client, created["id"])
    assert state["clock"] == {
        "white_ms": 30_000, "black_ms": 30_000, "increment_ms": 0, "running": None,
    }  # fmt: skip
    assert '[TimeControl "30+0"]' in client.get(f"/api/games/{created['id']}/pgn").text


def test_a_one_minute_game_and_a_bad_clock(client: TestClient) -> None:
    created = create(client, opponent="engine", level=1, clock="1m+0")
    assert game(client, created["id"])["clock"]["white_ms"] == 60_000
    refused = client.post("/api/games", json={"opponent": "human", "clock": "0.5+0"})
    assert refused.status_code == 400 and "'0.5+0'" in refused.json()["error"]
    refused = client.post("/api/games", json={"opponent": "human", "clock": "1" * 21})
    assert refused.status_code == 400  # longer than any clock: refused before it is read


def test_seeks_of_one_clock_fit_however_written(client: TestClient) -> None:
    people = People(client)
    posted = people.call(None, "POST", "/api/seeks", json={"clock": "30s+0", "name": "Anan"})
    assert posted.status_code == 201, posted.text
    listed = people.call(None, "GET", "/api/seeks").json()["seeks"]
    assert [seek["clock"] for seek in listed] == ["30+0"]  # the API's own form
    paired = people.call(None, "POST", "/api/seeks",
                         json={"clock": "½+0", "name": "Boon", "quick": True})  # fmt: skip
    assert paired.status_code == 200 and paired.json()["game"], paired.text
    assert game(client, paired.json()["game"])["clock"]["white_ms"] == 30_000
    refused = people.call(None, "POST", "/api/seeks", json={"clock": "0.5+0"})
    assert refused.status_code == 400 and "'0.5+0'" in refused.json()["error"]
