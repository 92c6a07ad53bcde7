"""Games listed only when public, and the PGN export page by page (issue 46), on SQLite and on
PostgreSQL: a private game (an invitation, by default) is in no list that others see, yet read
by its id; the export walks every public game once, in pages linked by ``Link: rel="next"``,
read from the database a batch at a time; a database from before the flag keeps its games."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

import sqlalchemy as sa
from fastapi.testclient import TestClient

from kradan import pgn
from kradan.web import listing, storage, upgrade
from kradan.web.listing import Listing
from kradan.web.storage import Store
from kradan.web.tables import GameRow, MoveRow

from .web_helpers import (
    DATABASES,
    People,
    act,
    bearer,
    create,
    game,
    in_own_thread,
    move,
    new_database,
    on_database,
    serving,
)

ON_BOTH = pytest.mark.parametrize("client", DATABASES, indirect=True)


@pytest.fixture
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """An app on a new database: SQLite, or what ``ON_BOTH`` asks for."""
    kind = getattr(request, "param", "sqlite")
    with serving(new_database(kind, request, tmp_path)) as client:
        yield client


def listed(client: TestClient) -> list[str]:
    """The ids ``GET /api/games`` lists."""
    response = client.get("/api/games")
    assert response.status_code == 200, response.text
    return [entry["id"] for entry in response.json()["games"]]


def exported(text: str) -> list[str]:
    """The ids of the games of a PGN export, in order (from their ``[Site]``)."""
    return re.findall(r'\[Site "kradan serve game ([A-Za-z0-9_-]{12})"\]', text)


def walk(client: TestClient, path: str, **headers: str) -> tuple[list[str], list[str]]:
    """Every page of the export at ``path``, following ``Link: rel="next"``: the games' ids in
    order, and the pages' URLs."""
    ids: list[str] = []
    pages = [path]
    while True:
        response = client.get(pages[-1], headers=headers)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/plain")
        ids += exported(response.text)
        link = response.headers.get("link")
        if link is None:
            return ids, pages
        found = re.fullmatch(r'<([^>]+)>; rel="next"', link)
        assert found is not None, link
        pages.append(found.group(1))


# --- public and private ------------------------------------------------------------------------


@ON_BOTH
def test_a_private_game_is_in_no_list_yet_read_by_its_id(client: TestClient) -> None:
    invitation = create(client, opponent="human")  # private unless asked
    engine = create(client)  # against the engine: public unless asked
    asked = create(client, opponent="human", public=True)
    hidden = create(client, public=False)
    client.cookies.clear()
    assert listed(client) == [asked["id"], engine["id"]]  # the newest first
    assert exported(client.get("/api/games.pgn").text) == [engine["id"], asked["id"]]
    for made, public in ((invitation, False), (engine, True), (asked, True), (hidden, False)):
        view = game(client, made["id"])  # a spectator, by the id alone
        assert view["public"] is public, made
        pgn = client.get(f"/api/games/{made['id']}/pgn")
        assert pgn.status_code == 200 and exported(pgn.text) == [made["id"]]
    # its players play it as ever
    move(client, invitation["id"], invitation["token"], "e3e4")
    assert game(client, invitation["id"])["ply"] == 1
    assert invitation["id"] not in listed(client)


def test_the_defaults_are_what_a_player_expects(client: TestClient) -> None:
    """The form sends what its box says; without it, the API's defaults: against the engine
    listed, between people not, and a box that is not a boolean is refused."""
    defaults = {
        "engine": create(client)["id"],
        "human": create(client, opponent="human")["id"],
        "engine, asked private": create(client, public=False)["id"],
        "human, asked public": create(client, opponent="human", public=True)["id"],
    }
    assert {name: game(client, i)["public"] for name, i in defaults.items()} == {
        "engine": True, "human": False, "engine, asked private": False,
        "human, asked public": True,
    }  # fmt: skip
    refused = client.post("/api/games", json={"public": "yes"})
    assert refused.status_code == 400 and "public" in refused.json()["error"]
    page = client.get("/").text
    box = re.search(r'<input type="checkbox" name="public" id="public"[^>]*>', page)
    assert box is not None and "checked" in box.group(0)


def test_lobby_games_and_rematches_of_public_games_are_public(client: TestClient) -> None:
    people = People(client)
    people.sign_up("Anan")
    people.sign_up("Boon")
    seek = people.call("Anan", "POST", "/api/seeks", json={"color": "white"}).json()
    taken = people.call("Boon", "POST", f"/api/seeks/{seek['id']}/accept").json()
    lobby_game = taken["game"]
    assert game(client, lobby_game)["public"] and lobby_game in listed(client)
    # a rematch is listed as its game was: here two games against the engine
    for public in (True, False):
        made = create(client, public=public)
        client.cookies.clear()
        assert act(client, made["id"], made["token"], "resign").status_code == 200
        again = client.post(f"/api/games/{made['id']}/rematch", headers=bearer(made["token"]))
        assert again.status_code == 200 and again.json()["status"] == "agreed", again.text
        assert game(client, again.json()["game"])["public"] is public
    # and between people, the lobby's game's rematch
    white = people.call(
        "Anan", "GET", f"/api/seeks/{seek['id']}", headers=bearer(seek["token"])
    ).json()["token"]
    assert act(client, lobby_game, white, "resign").status_code == 200
    for token in (white, taken["token"]):
        answer = client.post(f"/api/games/{lobby_game}/rematch", headers=bearer(token)).json()
    assert answer["status"] == "agreed" and game(client, answer["game"])["public"] is True


@ON_BOTH
def test_an_accounts_private_games_are_its_own_to_list(client: TestClient) -> None:
    people = People(client)
    for name in ("Anan", "Boon"):
        assert people.sign_up(name).status_code == 201
    mine = {}
    for public in (False, True, False):
        made = people.call("Anan", "POST", "/api/games", json={"public": public})
        assert made.status_code == 201, made.text
        mine[made.json()["id"]] = public
    public_ids = [i for i, public in mine.items() if public]
    every_id = list(mine)
    for viewer, expected in ((None, public_ids), ("Boon", public_ids), ("Anan", every_id)):
        page = people.call(viewer, "GET", "/api/accounts/anan").json()
        assert [entry["id"] for entry in page["games"]] == expected[::-1], viewer
        text = people.call(viewer, "GET", "/api/accounts/anan/games.pgn").text
        assert exported(text) == expected, viewer
        # page by page too, one game a page, with the viewer's session on each page
        people.client.cookies.clear()
        cookie = {} if viewer is None else {"cookie": f"kradan_session={people.sessions[viewer]}"}
        ids, pages = walk(people.client, "/api/accounts/anan/games.pgn?limit=1", **cookie)
        assert ids == expected and len(pages) == len(expected), viewer
    # a private game of Anan's is no cursor in the list others see
    private = every_id[0]
    refused = people.call("Boon", "GET", f"/api/accounts/anan/games.pgn?after={private}")
    assert refused.status_code == 422 and repr(private) in refused.json()["error"]
    own = people.call("Anan", "GET", f"/api/accounts/anan/games.pgn?after={private}")
    assert own.status_code == 200 and exported(own.text) == every_id[1:]
    assert people.call(None, "GET", "/api/accounts/nobody/games.pgn").status_code == 404


# --- the export, page by page ------------------------------------------------------------------


@ON_BOTH
def test_the_export_walks_every_public_game_once_in_pages(client: TestClient) -> None:
    made = []
    for index in range(7):
        made.append(create(client, opponent="human", public=index != 3))
        create(client, opponent="human")  # a private game between every two
    client.cookies.clear()
    first, white = made[0]["id"], made[0]["token"]
    move(client, first, white, "e3e4")
    public = [m["id"] for i, m in enumerate(made) if i != 3]
    ids, pages = walk(client, "/api/games.pgn?limit=2")
    assert ids == public and len(pages) == 3  # 2 + 2 + 2, and the last says no more
    assert all(
        re.fullmatch(r"/api/games\.pgn\?limit=2&after=[\w-]{12}", page) for page in pages[1:]
    )
    assert walk(client, "/api/games.pgn?limit=3")[0] == public
    whole = client.get("/api/games.pgn")
    assert "link" not in whole.headers and exported(whole.text) == public  # 100 a page
    assert exported(client.get("/api/games.pgn?limit=1000").text) == public
    # each game as its own PGN says, each followed by a blank line (pages end to end are one
    # PGN file)
    singles = [client.get(f"/api/games/{i}/pgn").text for i in public]
    assert whole.text == "".join(single + "\n" for single in singles)
    pages_text = "".join(client.get(page).text for page in pages)
    assert pages_text == whole.text
    stream = io.StringIO(pages_text)
    read = [pgn.read_game(stream) for _ in range(len(public) + 1)]
    assert [game.headers["Site"][-12:] for game in read[:-1]] == public and read[-1] is None
    assert "1. e4 *" in singles[0]
    # a page that starts after the last game is empty
    last = client.get(f"/api/games.pgn?after={public[-1]}")
    assert last.status_code == 200 and last.text == "" and "link" not in last.headers
    # a game made during the walk comes at its end
    ids = exported(client.get(f"/api/games.pgn?limit=2&after={public[1]}").text)
    later = create(client, public=True)["id"]
    assert walk(client, f"/api/games.pgn?after={ids[-1]}")[0] == [*public[4:], later]


@ON_BOTH
def test_bad_limits_and_cursors_are_refused_quoting_them(client: TestClient) -> None:
    public = create(client, opponent="human", public=True)["id"]
    private = create(client, opponent="human")["id"]
    client.cookies.clear()
    for query, quoted in [
        ("limit=0", "'0'"), ("limit=1001", "'1001'"), ("limit=abc", "'abc'"),
        ("limit=-1", "'-1'"), ("limit=", "''"), ("limit=99999999999999999999", "'9999"),
        ("limit=1.5", "'1.5'"), ("limit=%D9%A3", "'٣'"),
        ("after=AAAAAAAAAAAA", "'AAAAAAAAAAAA'"), ("after=short", "'short'"),
        ("after=", "''"), (f"after={private}", repr(private)),
        (f"after={public}&limit=0", "'0'"),
    ]:  # fmt: skip
        for path in ("/api/games.pgn", "/api/accounts/nobody/games.pgn"):
            response = client.get(f"{path}?{query}")
            if path.startswith("/api/accounts"):
                assert response.status_code == 404, (query, response.text)  # no such account
                continue
            assert response.status_code == 422, (query, response.text)
            assert quoted in response.json()["error"], (query, response.text)
    thai = client.get("/api/games.pgn?limit=0", headers={"Accept-Language": "th"})
    assert thai.status_code == 422 and "'0'" in thai.json()["error"]
    assert "limit" not in thai.json()["error"]  # in Thai
    assert client.get(f"/api/games.pgn?limit=1000&after={public}").status_code == 200


def test_an_accounts_export_refuses_bad_limits_and_cursors(client: TestClient) -> None:
    people = People(client)
    people.sign_up("Anan")
    for query, quoted in [("limit=0", "'0'"), ("limit=x", "'x'"), ("after=AAAAAAAAAAAA", "AAAA")]:
        response = people.call(None, "GET", f"/api/accounts/anan/games.pgn?{query}")
        assert response.status_code == 422 and quoted in response.json()["error"], response.text


def test_the_export_reads_its_games_a_batch_at_a_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = [create(client, opponent="human", public=True)["id"] for _ in range(5)]
    client.cookies.clear()
    client.app.state.hall.rooms.clear()  # type: ignore[attr-defined]  # all from the store
    asked: list[int] = []
    load_many = Store.load_many

    async def counted(self: Store, ids: Any) -> Any:
        asked.append(len(ids))
        return await load_many(self, ids)

    monkeypatch.setattr(Store, "load_many", counted)
    monkeypatch.setattr(listing, "BATCH", 2)
    assert exported(client.get("/api/games.pgn").text) == made
    assert asked == [2, 2, 1]


# --- the order, ties included, on the store ------------------------------------------------------


@pytest.fixture(params=DATABASES)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return new_database(request.param, request, tmp_path)


def test_games_made_at_the_same_moment_are_paged_by_their_order(db: str) -> None:
    moment = datetime(2026, 12, 6, 10, 0, 0, 123456)
    later = datetime(2026, 12, 6, 10, 0, 1)

    def row(public_id: str, created: datetime, public: bool = True) -> GameRow:
        return GameRow(public_id=public_id, variant="makruk", options={},
                       start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
                       white_token="a" * 64, black_token="b" * 64,
                       players={"white": {"kind": "human"}, "black": {"kind": "human"}},
                       clock=None, status="playing", result="*", ply=0, created_at=created,
                       updated_at=created, public=public)  # fmt: skip

    async def work(store: Store) -> Any:
        # the later game is made first: the order is the time, then the row
        await store.create(row("LLLLLLLLLLLL", later))
        for letter in "ABCDE":
            await store.create(row(letter * 12, moment, public=letter != "C"))
        pages = []
        after = None
        while True:
            start = await listing.cursor(store, listing.PUBLIC, after)
            keys, more = await listing.page_keys(store, listing.PUBLIC, start, 2)
            pages.append([public_id for _, public_id in keys])
            if not more:
                return pages
            after = keys[-1][1]

    pages = on_database(db, Store, work)
    assert pages == [["A" * 12, "B" * 12], ["D" * 12, "E" * 12], ["L" * 12]]


# --- a database from before the flag -----------------------------------------------------------


@pytest.mark.parametrize("revision", ["0003", "0004"])
def test_an_older_database_keeps_its_games_and_lists_the_expected_ones(
    db: str, revision: str
) -> None:
    """An older revision's games, upgraded: every row and move is kept (0004 copies the games
    table on SQLite, which once took every move with it); games against the engine and rated
    games become public, the other games between people private (the migration's docstring
    says why)."""
    players = {"white": {"kind": "human"}, "black": {"kind": "human"}}
    engine = {"white": {"kind": "human"}, "black": {"kind": "engine", "level": 3}}
    games = {
        # public_id: (white token, black token, players, rated)
        "EEEEEEEEEEEE": ("a" * 64, None, engine, False),
        "IIIIIIIIIIII": ("a" * 64, "b" * 64, players, False),
        "RRRRRRRRRRRR": ("a" * 64, "b" * 64, players, True),
    }

    async def main() -> Any:
        from alembic import command

        engine_ = storage.make_engine(db)
        try:
            async with engine_.begin() as connection:
                await connection.run_sync(
                    lambda sync: command.upgrade(upgrade.alembic_config(sync), revision)
                )
                table = sa.table(
                    "games", *(sa.column(name) for name in (
                        "public_id", "variant", "start_fen", "white_token", "black_token",
                        "status", "result", "ply", "created_at", "updated_at",
                        *(["rated"] if revision == "0004" else []))),
                    sa.column("options", sa.JSON()), sa.column("players", sa.JSON()),
                )  # fmt: skip
                now = datetime(2026, 1, 1)
                for public_id, (white, black, seats, rated) in games.items():
                    await connection.execute(sa.insert(table).values(
                        public_id=public_id, variant="makruk", options={},
                        start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
                        white_token=white, black_token=black, players=seats,
                        status="playing", result="*", ply=1, created_at=now, updated_at=now,
                        **({"rated": rated} if revision == "0004" else {}),
                    ))  # fmt: skip
                moves = sa.table("moves", *(sa.column(name) for name in (
                    "game_id", "ply", "uci", "white_ms", "black_ms", "created_at")))  # fmt: skip
                rows = await connection.execute(sa.text("SELECT id FROM games"))
                for (game_id,) in rows.all():
                    await connection.execute(sa.insert(moves).values(
                        game_id=game_id, ply=0, uci="e3e4", white_ms=None, black_ms=None,
                        created_at=now))  # fmt: skip
            await storage.migrate(engine_)
            store = Store(engine_)
            async with engine_.connect() as connection:
                reached = await storage.schema_revision(connection)
            loaded = {i: await store.load(i) for i in games}
            public = [row.public_id for row in await listing.newest(store, Listing(), 10)]
            await store.close()
            return reached, loaded, public
        finally:
            await engine_.dispose()

    reached, loaded, public = in_own_thread(main())
    from alembic.script import ScriptDirectory

    (head,) = ScriptDirectory(str(Path(storage.__file__).parent / "migrations")).get_heads()
    assert reached == head  # every migration ran, the newest included
    for public_id, stored in loaded.items():
        assert stored is not None and stored.row.players == games[public_id][2]
        assert [m.uci for m in stored.moves] == ["e3e4"]
    rated = revision == "0004"  # (before 0004 no game was rated)
    assert {i: stored.row.public for i, stored in loaded.items()} == {
        "EEEEEEEEEEEE": True, "IIIIIIIIIIII": False, "RRRRRRRRRRRR": rated
    }  # fmt: skip
    expected = ["EEEEEEEEEEEE", "RRRRRRRRRRRR"] if rated else ["EEEEEEEEEEEE"]
    assert sorted(public) == expected
    # the upgraded games are served: the invitation by its id only
    with serving(db) as client:
        assert sorted(listed(client)) == expected
        assert game(client, "IIIIIIIIIIII")["moves"] == ["e3e4"]
        assert game(client, "IIIIIIIIIIII")["public"] is False


def test_nothing_is_left_out_of_a_stored_game(db: str) -> None:
    """``Store.load_many`` reads what ``Store.load`` reads, for several games at once."""

    async def work(store: Store) -> Any:
        now = datetime(2026, 12, 6)
        made = []
        for letter in "XY":
            row = await store.create(GameRow(
                public_id=letter * 12, variant="makruk", options={}, start_fen="8/8/8/8/8/8/8/8 w",
                white_token=None, black_token=None, players={}, clock=None, status="playing",
                result="*", ply=0, created_at=now, updated_at=now))  # fmt: skip
            made.append(row)
        for ply, uci in enumerate(("e3e4", "d6d5")):
            await store.add_move(made[1].id, MoveRow(game_id=made[1].id, ply=ply, uci=uci,
                                 white_ms=1, black_ms=2, created_at=now), None)  # fmt: skip
        many = await store.load_many([made[1].id, made[0].id])
        singles = [await store.load("Y" * 12), await store.load("X" * 12)]
        return many, singles

    many, singles = on_database(db, Store, work)
    for got, expected in zip(many, singles, strict=True):
        assert expected is not None
        assert got.row.public_id == expected.row.public_id
        assert [(m.ply, m.uci, m.white_ms) for m in got.moves] == [
            (m.ply, m.uci, m.white_ms) for m in expected.moves
        ]
        assert got.events == [] == expected.events
