"""``kradan serve`` keeps its games: a second app on the same database resumes a game in
progress (moves, counts, draw offer, clocks); a real ``kradan serve`` killed with SIGKILL loses
no acknowledged move; the schema is Alembic's; ``kradan serve``'s command line."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from benchmarks.loopback import call, free_port

from .web_helpers import (
    DATABASES,
    act,
    create,
    database_url,
    game,
    move,
    new_database,
    serving,
    wait_for,
    without_clock,
)

COUNTER_MATES = "k6m/2K5/8/8/8/8/7R/8 w - - 0 1"


@pytest.fixture(params=DATABASES)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new database: SQLite, then PostgreSQL."""
    return new_database(request.param, request, tmp_path)


def test_a_second_app_resumes_a_game_in_progress(db: str) -> None:
    url = db
    with serving(url) as client:
        created = create(
            client,
            opponent="human",
            fen=COUNTER_MATES,
            options={"counting": "declared"},
            clock="60+0",
        )
        client.cookies.clear()
        game_id, white, black = created["id"], created["token"], created["invite"]
        move(client, game_id, white, "h2h3")
        move(client, game_id, black, "a8a7")
        act(client, game_id, white, "declare_count")
        time.sleep(0.3)
        move(client, game_id, white, "h3h2")
        act(client, game_id, white, "offer_draw")
        before = game(client, game_id)
    assert before["counting"] is not None and before["draw_offer"] == "white"
    stored_white = before["clock"]["white_ms"]
    assert 50000 < stored_white < 59800 and before["clock"]["running"] == "black"
    time.sleep(0.5)  # the server is down: nobody's clock runs
    with serving(url) as client:
        after = game(client, game_id)
        assert without_clock(after) == without_clock(before)
        assert after["clock"]["white_ms"] == stored_white
        assert 55000 < after["clock"]["black_ms"] <= 60000  # Black's time as of the last move
        assert after["clock"]["running"] == "black"
        # the game goes on where it stopped
        state = move(client, game_id, black, "a7a8")
        assert state["draw_offer"] is None and state["ply"] == 4
        state = act(client, game_id, white, "stop_count").json()
        assert state["counting"] is None
        assert move(client, game_id, white, "h2a2")["termination"] == "checkmate"
    with serving(url) as client:
        state = game(client, game_id)
        assert state["status"] == "ended" and state["result"] == "1-0"
        assert state["moves"] == ["h2h3", "a8a7", "h3h2", "a7a8", "h2a2"]


def test_a_takeback_survives_a_restart(db: str) -> None:
    url = db
    with serving(url) as client:
        created = create(client, level=1, options={"counting": "declared"})
        game_id, token = created["id"], created["token"]
        move(client, game_id, token, "e3e4")
        wait_for(lambda: game(client, game_id)["ply"] == 2, timeout=120)
        move(client, game_id, token, game(client, game_id)["legal_moves"][0])
        state = wait_for(lambda: (s := game(client, game_id))["ply"] == 4 and s, timeout=120)
        response = act(client, game_id, token, "takeback")
        assert response.status_code == 200 and response.json()["ply"] == 2
        before = response.json()
    with serving(url) as client:
        after = game(client, game_id)
        assert after["moves"] == before["moves"] == state["moves"][:2]
        assert after["fen"] == before["fen"]


def test_an_engine_to_move_thinks_again_after_a_restart(tmp_path: Path) -> None:
    import sqlite3

    url = database_url(tmp_path)
    with serving(url) as client:
        created = create(client, opponent="human", clock="600+5")
        game_id, white, black = created["id"], created["token"], created["invite"]
        move(client, game_id, white, "e3e4")
        move(client, game_id, black, "d6d5")
        move(client, game_id, white, "e4d5")
    # Black's seat becomes the engine's while the server is down, with Black to move
    with sqlite3.connect(tmp_path / "games.db") as connection:
        players = {"white": {"kind": "human"}, "black": {"kind": "engine", "level": 1}}
        connection.execute(
            "UPDATE games SET players = ?, black_token = NULL WHERE public_id = ?",
            (json.dumps(players), game_id),
        )
    with serving(url) as client:
        state = wait_for(lambda: (s := game(client, game_id))["ply"] == 4 and s, timeout=120)
        assert state["players"]["black"] == "engine level 1" and state["turn"] == "white"
        assert state["clock"]["running"] == "white"


def test_the_schema_is_alembics_newest(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine

    import kradan.web.storage as storage
    import kradan.web.tables as tables

    url = database_url(tmp_path)
    with serving(url) as client:
        create(client)
    engine = create_engine(url.replace("+aiosqlite", ""))
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, tables.Base.metadata) == []
        heads = ScriptDirectory(str(Path(storage.__file__).parent / "migrations")).get_heads()
        assert context.get_current_revision() in heads
        pragmas = {
            name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "foreign_keys")
        }
    engine.dispose()
    assert pragmas["journal_mode"] == "wal"

    async def pragma_of_the_app() -> Any:
        app_engine = storage.make_engine(url)
        async with app_engine.connect() as connection:
            found = [
                (await connection.exec_driver_sql(f"PRAGMA {name}")).scalar()
                for name in ("synchronous", "foreign_keys", "busy_timeout")
            ]
        await app_engine.dispose()
        return found

    # a thread of its own: Playwright's sync API may hold an event loop in this one
    with ThreadPoolExecutor(1) as thread:
        found = thread.submit(asyncio.run, pragma_of_the_app()).result()
    assert found == [2, 1, storage.BUSY_TIMEOUT_MS]


# --- a real server, killed -----------------------------------------------------------------------


def start_server(port: int, db: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "kradan", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip

    def up() -> bool:
        if process.poll() is not None:
            output = process.stdout.read().decode() if process.stdout else ""
            raise AssertionError(f"kradan serve exited: {output}")
        try:
            call(f"http://127.0.0.1:{port}/api/games?limit=1")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False
        return True

    wait_for(up, timeout=60, step=0.1)
    return process


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process has gone
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_killed_server_loses_no_acknowledged_move(db: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_server(port, db)
    acknowledged: list[str] = []
    try:
        created = call(f"{base}/api/games", {"opponent": "human"})
        game_id = created["id"]
        tokens = [created["token"], created["invite"]]
        stop = threading.Event()

        def player() -> None:
            state = call(f"{base}/api/games/{game_id}")
            for ply in range(80):
                if stop.is_set() or state["status"] != "playing":
                    return
                legal = state["legal_moves"]
                uci = legal[(ply * 7) % len(legal)]
                try:
                    url = f"{base}/api/games/{game_id}/moves"
                    state = call(url, {"move": uci}, tokens[ply % 2])
                except Exception:
                    return
                acknowledged[:] = state["moves"]

        thread = threading.Thread(target=player)
        thread.start()
        wait_for(lambda: len(acknowledged) >= 6, timeout=60, step=0.01)
        workers = wait_for(lambda: children(process.pid), timeout=60)  # the engine's worker
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        stop.set()
        thread.join(20)
        # the engine's worker leaves with the server, even a killed one
        wait_for(lambda: not any(alive(pid) for pid in workers), timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    seen = list(acknowledged)
    assert len(seen) >= 6
    process = start_server(port, db)
    try:
        state = call(f"{base}/api/games/{game_id}")
    finally:
        process.terminate()
        process.wait(20)
    # every acknowledged move is there; the disk may hold one more that was never acknowledged
    assert state["moves"][: len(seen)] == seen and len(state["moves"]) <= len(seen) + 1


# --- the command line ------------------------------------------------------------------------


def test_serve_without_the_web_extra(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from kradan.cli import main, serve

    monkeypatch.setattr(serve, "missing_web_modules", lambda: ["fastapi"])
    assert main.main(["serve"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "kradan serve needs the web extra: pip install 'kradan[web]'"
    )


def test_serve_warns_off_loopback(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    import uvicorn

    from kradan.cli import main

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    db = database_url(tmp_path)
    assert main.main(["serve", "--host", "0.0.0.0", "--port", "9999", "--db", db]) == 0
    output = capsys.readouterr()
    assert "anyone on the network" in output.err and "http://127.0.0.1:9999/" in output.out
    assert calls[0]["host"] == "0.0.0.0" and calls[0]["workers"] == 1
    assert main.main(["serve", "--db", db]) == 0
    output = capsys.readouterr()
    assert "warning" not in output.err and "http://127.0.0.1:8080/" in output.out
    assert main.main(["serve", "--port", "70000"]) == 2
    for bad in ("nonsense://x", "mysql+pymysql://h/db", str(tmp_path)):
        assert main.main(["serve", "--db", bad]) == 2
        assert "--db" in capsys.readouterr().err
    assert main.main(["serve", "--db", str(tmp_path / "plain.db")]) == 0
    assert calls[-1]["host"] == "127.0.0.1"


def test_database_urls() -> None:
    from kradan.web.storage import database_url

    assert database_url("/tmp/a.db") == "sqlite+aiosqlite:////tmp/a.db"
    assert database_url("sqlite:////tmp/a.db") == "sqlite+aiosqlite:////tmp/a.db"
    assert database_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("postgresql+asyncpg://u@h/db") == "postgresql+asyncpg://u@h/db"
    # only the scheme is read: a "://" later in the URL (here a query's value) is left alone
    named = "postgresql://u@h/db?application_name=http://club.example"
    assert database_url(named) == "postgresql+asyncpg://u@h/db?application_name=http://club.example"
    for bad in ("", "postgresql+psycopg2://u@h/db", "what://x", "sqlite+pysqlite:///a.db"):
        with pytest.raises(ValueError, match="database"):
            database_url(bad)


def test_serve_opens_the_browser_when_the_server_is_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import webbrowser

    import uvicorn

    from kradan.cli import main

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", opened.append)
    port = free_port()

    def serve_a_moment(app: Any, **options: Any) -> None:
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", options["port"]))
            listener.listen()
            wait_for(lambda: opened, timeout=30)

    monkeypatch.setattr(uvicorn, "run", serve_a_moment)
    db = database_url(tmp_path)
    assert main.main(["serve", "--port", str(port), "--db", db, "--open"]) == 0
    assert opened == [f"http://127.0.0.1:{port}/"]


def test_a_killed_server_keeps_accounts_sessions_ratings_and_chat(db: str) -> None:
    """What the club features store outlives SIGKILL: the accounts, a session cookie, the
    ratings a rated game moved and a chat message, each once the server has answered it."""
    import http.cookiejar

    port = free_port()
    base = f"http://127.0.0.1:{port}"

    def member() -> Any:
        return urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def ask(opener: Any, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data,
                                         method="GET" if body is None else "POST")  # fmt: skip
        request.add_header("content-type", "application/json")
        if token:
            request.add_header("authorization", f"Bearer {token}")
        with opener.open(request, timeout=30) as response:
            return json.loads(response.read() or b"null")

    anan, boon = member(), member()
    process = start_server(port, db)
    try:
        for opener, name in ((anan, "Anan"), (boon, "Boon")):
            ask(opener, "/api/accounts", {"username": name, "password": "correct horse battery"})
        seek = ask(anan, "/api/seeks", {"rated": True, "color": "white"})
        taken = ask(boon, f"/api/seeks/{seek['id']}/accept", {})
        game_id = taken["game"]
        said = ask(boon, f"/api/games/{game_id}/chat", {"text": "good game"}, taken["token"])
        ask(boon, f"/api/games/{game_id}/actions", {"action": "resign"}, taken["token"])
        wait_for(lambda: ask(anan, "/api/accounts/Anan")["ratings"], timeout=30)
        before = ask(anan, "/api/accounts/Anan")["ratings"]["makruk"]
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    process = start_server(port, db)
    try:
        assert ask(anan, "/api/session")["username"] == "Anan"  # the cookie still opens it
        after = ask(anan, "/api/accounts/Anan")["ratings"]["makruk"]
        kept = ("rating", "volatility", "games")  # (the deviation grows with the time away)
        assert [after[key] for key in kept] == [before[key] for key in kept]
        assert before["games"] == 1 and before["rating"] > 1500
        messages = ask(boon, f"/api/games/{game_id}/chat", None, taken["token"])["messages"]
        assert messages == [said]
    finally:
        process.terminate()
        process.wait(20)
