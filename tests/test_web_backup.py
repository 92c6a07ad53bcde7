"""``kradan admin backup`` and ``restore`` (issue 47 item 2): a database with games, moves,
accounts, ratings, chat, an archive and the admin's tables (its audit trail, a disabled account,
a setting) is backed up while it could serve, restored into an empty database, and the two
compared row for row, on SQLite and PostgreSQL; a restore over a database with tables, a backup
of the other kind and a file that is no backup are clear errors."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from kradan.cli.main import main as kradan_main
from kradan.web import storage
from kradan.web.tables import Base
from tests.web_helpers import (
    DATABASES,
    PASSWORD,
    People,
    bearer,
    create,
    in_own_thread,
    move,
    new_database,
    serving,
)

PGN = """[Event "club night"]
[White "Anan"]
[Black "Boon"]
[Result "1-0"]
[Variant "makruk"]

1. e4 e5 2. Ne2 1-0
"""


def main(args: list[str]) -> int:
    """``kradan ARGS`` in a thread of its own (it runs an event loop; Playwright's sync API may
    hold one in this thread when the browser tests run in the same process)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(kradan_main, args).result()


def _fill(url: str) -> None:
    """Games, moves, accounts, a rated game's ratings, chat, an archived game and a
    tournament with its round's game."""
    with serving(url) as client:
        people = People(client)
        people.sign_up("Anan")
        people.sign_up("Boon")
        seek = people.call("Anan", "post", "/api/seeks", json={"rated": True, "color": "white"})
        taken = people.call("Boon", "post", f"/api/seeks/{seek.json()['id']}/accept").json()
        people.call(None, "post", f"/api/games/{taken['game']}/chat",
                    json={"text": "สวัสดี"}, headers=bearer(taken["token"]))  # fmt: skip
        people.call(None, "post", f"/api/games/{taken['game']}/actions",
                    json={"action": "resign"}, headers=bearer(taken["token"]))  # fmt: skip
        tournament = people.call("Anan", "post", "/api/tournaments",
                                 json={"system": "swiss", "rounds": 1, "clock": "300+0",
                                       "players": ["Anan", "Boon"]})  # fmt: skip
        assert tournament.status_code == 201, tournament.text
        started = people.call("Anan", "post", f"/api/tournaments/{tournament.json()['id']}/start")
        assert started.status_code == 200, started.text
        made = create(client, opponent="human", variant="cambodian", clock="300+3")
        move(client, made["id"], made["token"], "e3e4")
        imported = client.post("/api/archive", content=PGN,
                               headers={"content-type": "application/x-chess-pgn"})  # fmt: skip
        assert imported.status_code in (200, 201), imported.text
        # the admin's tables: an action in the audit trail, a disabled account, a setting
        accounts = client.app.state.accounts  # type: ignore[attr-defined]
        assert client.portal is not None
        client.portal.call(partial(accounts.sign_up, "Root", PASSWORD, admin=True))
        people.sessions["Root"] = client.post("/api/session", json={
            "username": "Root", "password": PASSWORD}).cookies["kradan_session"]  # fmt: skip
        people.sign_up("Chai")
        assert people.call("Root", "post", "/api/admin/users/Chai/disable").status_code == 200
        notice = people.call("Root", "put", "/api/admin/settings", json={"notice": "ประกาศ"})
        assert notice.status_code == 200, notice.text


def _rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, in primary-key order (the schema's tables and Alembic's)."""

    async def read() -> dict[str, list[tuple[Any, ...]]]:
        engine = storage.make_engine(url)
        try:
            async with engine.connect() as connection:
                found = {}
                for table in Base.metadata.sorted_tables:
                    query = select(table).order_by(*table.primary_key.columns)
                    found[table.name] = [tuple(row) for row in await connection.execute(query)]
                version = await connection.execute(text("SELECT version_num FROM alembic_version"))
                found["alembic_version"] = [tuple(row) for row in version]
                return found
        finally:
            await engine.dispose()

    return in_own_thread(read())


@pytest.mark.parametrize("kind", DATABASES)
def test_a_backup_restores_every_row(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = new_database(kind, request, tmp_path / "a")
    target = new_database(kind, request, tmp_path / "b")
    (tmp_path / "a").mkdir(exist_ok=True)
    (tmp_path / "b").mkdir(exist_ok=True)
    _fill(source)
    saved = tmp_path / "backup.dump"
    assert main(["admin", "backup", str(saved), "--db", source]) == 0
    assert "backed up" in capsys.readouterr().out
    assert main(["admin", "restore", str(saved), "--db", target]) == 0
    assert "restored" in capsys.readouterr().out
    before, after = _rows(source), _rows(target)
    assert after == before
    counted = {name: len(rows) for name, rows in before.items()}
    for table in ("games", "moves", "accounts", "ratings", "chat_messages", "archive_games",
                  "tournaments", "tournament_games", "admin_actions",
                  "server_settings"):  # fmt: skip
        assert counted.get(table, 0) >= 1, (table, counted)
    # the restored database serves: the rated game's players sign in with their passwords
    with serving(target) as client:
        signed_in = client.post(
            "/api/session", json={"username": "Anan", "password": "correct horse battery"}
        )
        assert signed_in.status_code == 200, signed_in.text

    # a second restore over it must be asked for; a backup of the other kind is refused
    assert main(["admin", "restore", str(saved), "--db", target]) == 2
    assert "--replace" in capsys.readouterr().err
    assert main(["admin", "restore", str(saved), "--db", target, "--replace"]) == 0
    assert _rows(target) == before


def test_bad_backups_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a backup")
    assert main(["admin", "restore", str(junk), "--db", url]) == 2
    assert "is no backup" in capsys.readouterr().err
    dump = tmp_path / "pg.dump"
    dump.write_bytes(b"PGDMP" + bytes(40))
    assert main(["admin", "restore", str(dump), "--db", url]) == 2
    assert "is a postgresql backup" in capsys.readouterr().err
    assert main(["admin", "backup", str(junk), "--db", url]) == 2  # never over a file
    assert "exists" in capsys.readouterr().err
    missing = f"sqlite+aiosqlite:///{tmp_path / 'none.db'}"
    assert main(["admin", "backup", str(tmp_path / "new.db"), "--db", missing]) == 2
    assert "no database file" in capsys.readouterr().err
