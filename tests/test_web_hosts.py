"""What a page of another site cannot do (issue 46): the ``Host`` allowlist
(``kradan.web.hosts``, ``kradan serve --allowed-hosts``) refuses a request for a name that is
not the server's own, as a DNS-rebinding page would send, with 400 quoting the host (a page
for a browser, JSON for the rest; a websocket is closed), and the ``Origin`` check refuses
``Origin: null`` (a sandboxed frame, a ``file:`` page) carrying a seat's cookie, as it refuses
another site's origin."""

from __future__ import annotations

import doctest
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from kradan.web import create_app, settings
from kradan.web.api import cookie_name
from kradan.web.app import settings_from_environment
from kradan.web.hosts import REFUSED_CLOSE
from kradan.web.settings import (
    LOOPBACK_HOSTS,
    ServeSettings,
    default_hosts,
    host_name,
    parse_hosts,
)

from .web_helpers import TEST_SETTINGS, WebSocketDisconnect, bearer, database_url, serving

#: Starlette's test client opens its websockets on ``ws://testserver`` unless given a whole URL
WS = "ws://127.0.0.1:8080"
REFUSED = (
    "host 'evil.example' is not served here: kradan serve answers only the names given to its "
    "--allowed-hosts"
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An app with the default settings: the loopback names only."""
    return create_app(database_url(tmp_path_factory.mktemp("hosts")))


@pytest.fixture(scope="module")
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url="http://127.0.0.1:8080") as client:
        yield client


def test_the_module_examples() -> None:
    assert doctest.testmod(settings).failed == 0


# --- the names -------------------------------------------------------------------------------


def test_hosts_are_compared_without_port_brackets_case_or_final_dot() -> None:
    assert host_name("LocalHost:8080") == "localhost"
    assert host_name("[::1]:8080") == host_name("[::1]") == host_name("::1") == "::1"
    assert host_name("play.example.org.") == "play.example.org"
    assert host_name("") == ""


def test_the_default_hosts_are_the_loopback_names_and_the_listening_address() -> None:
    assert LOOPBACK_HOSTS == ("127.0.0.1", "localhost", "::1")
    for every in ("0.0.0.0", "::", "127.0.0.1", "localhost", "::1"):
        assert default_hosts(every) == LOOPBACK_HOSTS
    assert default_hosts("192.168.1.5") == (*LOOPBACK_HOSTS, "192.168.1.5")
    assert default_hosts("fe80::1") == (*LOOPBACK_HOSTS, "fe80::1")
    assert ServeSettings().allowed_hosts == LOOPBACK_HOSTS


def test_bad_host_lists_are_refused_quoting_them() -> None:
    assert parse_hosts("*") == ("*",)
    assert parse_hosts("A.example, a.example:80,[::1]") == ("a.example", "::1")
    for bad, quoted, words in (
        ("", "''", "expected one host"),
        (" , ", "' , '", "expected one host"),
        ("ok.example,http://x.example", "'http://x.example'", "not a URL"),
        ("x y", "'x y'", "expected a host name"),
        ("ไทย.example", "'ไทย.example'", "xn--"),
        ("a\x00b", "'a\\x00b'", "expected a host name"),
    ):
        with pytest.raises(ValueError, match=words) as error:
            parse_hosts(bad)
        assert str(error.value).startswith(quoted), (bad, str(error.value))
    with pytest.raises(ValueError, match="allowed_hosts is empty"):
        ServeSettings(allowed_hosts=())
    assert ServeSettings(allowed_hosts=("[::1]:80", "X.example")).allowed_hosts == (
        "::1",
        "x.example",
    )


# --- over HTTP -------------------------------------------------------------------------------


def test_the_loopback_names_are_answered_with_any_port(client: TestClient) -> None:
    for host in ("127.0.0.1", "127.0.0.1:8080", "localhost", "LOCALHOST:1", "[::1]:8080", "[::1]"):
        answer = client.get("/api/games", headers={"host": host})
        assert answer.status_code == 200, (host, answer.text)


def test_another_name_is_refused_with_400_quoting_it(client: TestClient) -> None:
    answer = client.get("/api/games", headers={"host": "evil.example"})
    assert answer.status_code == 400
    assert answer.json() == {"error": REFUSED}
    with_port = client.get("/api/games", headers={"host": "evil.example:8080"})
    assert with_port.json()["error"].startswith("host 'evil.example:8080' is not served")
    assert answer.headers["content-security-policy"] == "default-src 'self'"
    assert answer.headers["x-frame-options"] == "DENY"
    # names that only look like the server's
    for host in ("127.0.0.1.evil.example", "localhost.evil.example", "evil-localhost", "127.0.0.2",
                 "", "[::2]:8080", "::1.evil"):  # fmt: skip
        assert client.get("/", headers={"host": host}).status_code == 400, host


def test_a_browser_is_refused_with_a_page_in_its_language(client: TestClient) -> None:
    hostile = "<script>alert(1)</script>.example"
    page = client.get("/", headers={"host": hostile, "accept": "text/html,*/*"})
    assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")
    assert "<script>" not in page.text and "&lt;script&gt;" in page.text
    assert "--allowed-hosts" in page.text
    thai = client.get("/", headers={"host": "evil.example", "accept-language": "th"})
    assert thai.status_code == 400 and "'evil.example'" in thai.json()["error"]
    assert thai.json()["error"] != REFUSED  # translated


def test_a_refused_host_changes_nothing(client: TestClient) -> None:
    before = client.get("/api/games").json()["games"]
    for method, path in (("post", "/api/games"), ("post", "/api/seeks"),
                         ("post", "/api/accounts")):  # fmt: skip
        answer = client.request(method, path, json={}, headers={"host": "evil.example"})
        assert answer.status_code == 400 and "set-cookie" not in answer.headers
    assert client.get("/api/games").json()["games"] == before
    assert client.get("/api/seeks").json()["seeks"] == []


def test_a_websocket_for_another_name_is_closed_before_it_opens(client: TestClient) -> None:
    created = client.post("/api/games", json={"opponent": "human"}).json()
    url = f"{WS}/api/games/{created['id']}/socket"
    with client.websocket_connect(url) as socket:  # the server's own name
        assert socket.receive_json()["type"] == "game"
    for socket_url in (url, f"{WS}/api/analysis/socket"):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(socket_url, headers={"host": "evil.example"}) as socket,
        ):
            socket.receive_json()
        assert refused.value.code == REFUSED_CLOSE


def test_named_hosts_and_any_host(tmp_path: Path) -> None:
    club = ServeSettings(allowed_hosts=(*LOOPBACK_HOSTS, "club.example", "192.168.1.5"))
    with TestClient(create_app(database_url(tmp_path), settings=club)) as client:
        for host in ("club.example", "CLUB.example:8080", "192.168.1.5:8080", "localhost"):
            assert client.get("/api/games", headers={"host": host}).status_code == 200, host
        assert client.get("/api/games").status_code == 400  # Starlette's own name: testserver
    anything = ServeSettings(allowed_hosts=("*",), create_rate=0)
    assert anything.any_host
    with TestClient(create_app(database_url(tmp_path), settings=anything)) as client:
        for host in ("evil.example", "testserver", ""):
            assert client.get("/api/games", headers={"host": host}).status_code == 200, host


def test_the_tests_own_settings_name_testserver(tmp_path: Path) -> None:
    assert "testserver" in TEST_SETTINGS.allowed_hosts
    with serving(database_url(tmp_path)) as client:
        assert client.get("http://testserver/api/games").status_code == 200


def test_uvicorns_app_takes_its_hosts_from_the_environment() -> None:
    assert settings_from_environment({}).allowed_hosts == LOOPBACK_HOSTS
    named = settings_from_environment({"KRADAN_ALLOWED_HOSTS": "club.example, 10.0.0.2"})
    assert named.allowed_hosts == (*LOOPBACK_HOSTS, "club.example", "10.0.0.2")
    with pytest.raises(ValueError, match="not a URL"):
        settings_from_environment({"KRADAN_ALLOWED_HOSTS": "https://club.example"})


# --- Origin: null ----------------------------------------------------------------------------


def test_origin_null_with_the_seat_cookie_is_refused(client: TestClient) -> None:
    created = client.post("/api/games", json={"opponent": "human"}).json()
    game_id, white = created["id"], created["token"]
    client.cookies.clear()
    client.cookies.set(cookie_name(game_id), white)  # White's seat, by its cookie only
    url = f"/api/games/{game_id}/moves"
    try:
        for origin in ("null", "https://evil.example", "file://"):
            answer = client.post(url, json={"move": "e3e4"}, headers={"origin": origin})
            assert answer.status_code == 403, (origin, answer.text)
            assert answer.json()["error"] == f"cross-origin request from {origin!r} refused"
        assert client.post("/api/games", json={}, headers={"origin": "null"}).status_code == 403
        assert client.get(f"/api/games/{game_id}").json()["ply"] == 0  # nothing moved
        # the server's own pages send their origin; programs send none
        own = client.post(url, json={"move": "e3e4"}, headers={"origin": "http://127.0.0.1:8080"})
        assert own.status_code == 200, own.text
    finally:
        client.cookies.clear()
    program = client.post(url, json={"move": "d6d5"}, headers=bearer(created["invite"]))
    assert program.status_code == 200, program.text


def test_origin_null_opens_no_websocket(client: TestClient) -> None:
    created = client.post("/api/games", json={"opponent": "human"}).json()
    client.cookies.clear()
    client.cookies.set(cookie_name(created["id"]), created["token"])
    url = f"{WS}/api/games/{created['id']}/socket"
    try:
        for socket_url in (url, f"{WS}/api/analysis/socket"):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(socket_url, headers={"origin": "null"}) as socket,
            ):
                socket.receive_json()
            assert refused.value.code == 4403
    finally:
        client.cookies.clear()


# --- kradan serve --allowed-hosts ----------------------------------------------------------------


def serve(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str) -> tuple[Any, Any]:
    """What ``kradan serve OPTIONS`` gives uvicorn and the app: (its exit code or the settings,
    the host uvicorn listens on); nothing is served."""
    import uvicorn

    import kradan.web
    from kradan.cli import main

    made: list[dict[str, Any]] = []
    listened: list[str] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: listened.append(kwargs["host"]))
    monkeypatch.setattr(kradan.web, "create_app", lambda url, **kwargs: made.append(kwargs))
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    code = main.main(["serve", "--db", db, *options])
    return (made[0]["settings"] if code == 0 else code), (listened or [None])[0]


def test_kradan_serve_allowed_hosts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain, host = serve(monkeypatch, tmp_path)
    assert plain.allowed_hosts == LOOPBACK_HOSTS and host == "127.0.0.1"
    assert "warning" not in capsys.readouterr().err
    lan, _ = serve(monkeypatch, tmp_path, "--host", "192.168.1.5")
    assert lan.allowed_hosts == (*LOOPBACK_HOSTS, "192.168.1.5")
    club, _ = serve(monkeypatch, tmp_path, "--host", "0.0.0.0",
                    "--allowed-hosts", "Club.example:8080, 192.168.1.5")  # fmt: skip
    assert club.allowed_hosts == (*LOOPBACK_HOSTS, "club.example", "192.168.1.5")
    warned = capsys.readouterr().err
    assert "anyone on the network" in warned and "--allowed-hosts" not in warned
    every, _ = serve(monkeypatch, tmp_path, "--host", "0.0.0.0")
    assert every.allowed_hosts == LOOPBACK_HOSTS
    assert "name the names others reach this machine by with --allowed-hosts" in (
        capsys.readouterr().err
    )
    anything, _ = serve(monkeypatch, tmp_path, "--allowed-hosts", "*")
    assert anything.any_host and "DNS rebinding" in capsys.readouterr().err
    code, listened = serve(monkeypatch, tmp_path, "--allowed-hosts", "https://club.example")
    assert code == 2 and listened is None
    assert "--allowed-hosts: 'https://club.example': name a host" in capsys.readouterr().err
