"""The admin (issue 47 item 2), through the API: users (disable, enable, reset, the admin
role, never the last admin), games (abort, adjudicate, delete), chat moderation, the access
log (which never keeps a secret), the settings kept in the database, and the audit trail.
Who may use these routes at all is judged in tests/test_web_access.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web_helpers import (
    PASSWORD,
    People,
    bearer,
    create,
    database_url,
    game,
    move,
    serving,
    wait_for,
)


def kradan_main(args: list[str]) -> int:
    """``kradan ARGS`` in a thread of its own (it runs an event loop)."""
    from concurrent.futures import ThreadPoolExecutor

    from kradan.cli.main import main

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(main, args).result()


class Club(People):
    """An admin (Root, made as ``kradan admin create-user --admin`` makes one) and members."""

    def __init__(self, client: TestClient) -> None:
        super().__init__(client)
        accounts = client.app.state.accounts  # type: ignore[attr-defined]
        assert client.portal is not None
        client.portal.call(partial(accounts.sign_up, "Root", PASSWORD, admin=True))
        self.sign_in("Root")

    def sign_in(self, username: str, password: str = PASSWORD) -> Any:
        answer = self.call(None, "POST", "/api/session",
                           json={"username": username, "password": password})  # fmt: skip
        if answer.status_code == 200:
            self.sessions[username] = answer.cookies["kradan_session"]
        return answer

    def admin(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.call("Root", method, f"/api/admin{path}", **kwargs)

    def rated_game(self, white: str, black: str) -> tuple[str, str, str]:
        """A rated game from the lobby: its id, White's and Black's seat tokens."""
        seek = self.call(white, "post", "/api/seeks", json={"rated": True, "color": "white"})
        taken = self.call(black, "post", f"/api/seeks/{seek.json()['id']}/accept").json()
        state = self.call(white, "get", f"/api/seeks/{seek.json()['id']}",
                          headers=bearer(seek.json()["token"])).json()  # fmt: skip
        return taken["game"], state["token"], taken["token"]

    def actions(self, who: str = "Root") -> list[tuple[str, str, str]]:
        """The audit trail, newest first, as ``who`` reads it."""
        answer = self.call(who, "get", "/api/admin/audit").json()
        return [(a["admin"], a["action"], a["target"]) for a in answer["actions"]]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    with serving(database_url(tmp_path)) as client:
        yield Club(client)


def test_users_are_listed_and_searched(club: Club) -> None:
    for name in ("Anan", "Boon", "anchalee"):
        club.sign_up(name)
    names = [u["username"] for u in club.admin("get", "/users").json()["users"]]
    assert names == ["Anan", "anchalee", "Boon", "Root"]  # in case-folded order
    found = club.admin("get", "/users?q=AN").json()["users"]
    assert [u["username"] for u in found] == ["Anan", "anchalee"]
    assert found[0] == {"username": "Anan", "admin": False, "bot": False, "disabled": False,
                        "created": found[0]["created"]}  # fmt: skip
    assert club.admin("get", "/users?q=%25").json()["users"] == []  # a wildcard is a letter


def test_a_disabled_account_is_shut_out_at_once_and_comes_back(club: Club) -> None:
    club.sign_up("Anan")
    club.sign_up("Boon")
    game_id, white, _ = club.rated_game("Anan", "Boon")
    token = club.call("Anan", "post", "/api/tokens").json()["token"]
    assert club.call(None, "get", "/api/account", headers=bearer(token)).status_code == 200
    seek = club.call("Anan", "post", "/api/seeks", json={"rated": True}).json()
    assert seek["id"] in {s["id"] for s in club.client.get("/api/seeks").json()["seeks"]}

    disabled = club.admin("post", "/users/Anan/disable")
    assert disabled.status_code == 200, disabled.text
    assert disabled.json()["disabled"] is True
    # the session opens nothing, the token neither, the seek is gone, the game stays
    assert club.call("Anan", "get", "/api/session").json()["username"] is None
    assert club.call(None, "get", "/api/account", headers=bearer(token)).status_code == 401
    assert seek["id"] not in {s["id"] for s in club.client.get("/api/seeks").json()["seeks"]}
    assert game(club.client, game_id)["status"] == "playing"
    # the right password is refused, and says why; a wrong one learns nothing
    refused = club.sign_in("Anan")
    assert refused.status_code == 403 and "'Anan' is disabled" in refused.json()["error"]
    assert club.sign_in("Anan", "wrong password!").status_code == 401

    assert club.admin("post", "/users/Anan/enable").json()["disabled"] is False
    assert club.sign_in("Anan").status_code == 200
    assert club.call(None, "get", "/api/account", headers=bearer(token)).status_code == 200
    assert club.actions()[:2] == [("Root", "enable", "Anan"), ("Root", "disable", "Anan")]
    assert move(club.client, game_id, white, "e3e4")["ply"] == 1


def test_a_password_reset_is_shown_once_and_closes_the_sessions(club: Club) -> None:
    club.sign_up("Anan")
    reset = club.admin("post", "/users/anan/password")
    assert reset.status_code == 200, reset.text
    password = reset.json()["password"]
    assert reset.json()["username"] == "Anan" and len(password) >= 12
    assert club.call("Anan", "get", "/api/session").json()["username"] is None
    assert club.sign_in("Anan").status_code == 401  # the old password no longer opens it
    assert club.sign_in("Anan", password).status_code == 200
    assert ("Root", "reset_password", "Anan") in club.actions()
    assert password not in str(club.admin("get", "/audit").json())  # never stored


def test_the_admin_role_is_given_and_taken_but_the_last_admin_stays(club: Club) -> None:
    club.sign_up("Anan")
    last = club.admin("put", "/users/Root/admin", json={"admin": False})
    assert last.status_code == 409 and "last admin" in last.json()["error"]
    assert club.admin("post", "/users/Root/disable").status_code == 409  # oneself
    granted = club.admin("put", "/users/Anan/admin", json={"admin": True})
    assert granted.status_code == 200 and granted.json()["admin"] is True
    assert club.call("Anan", "get", "/api/admin/users").status_code == 200
    # Anan may now take Root's role away; then Anan is the last admin
    assert club.call("Anan", "put", "/api/admin/users/Root/admin",
                     json={"admin": False}).status_code == 200  # fmt: skip
    assert club.admin("get", "/users").status_code == 403
    assert club.call("Anan", "put", "/api/admin/users/Anan/admin",
                     json={"admin": False}).status_code == 409  # fmt: skip
    assert ("Anan", "revoke_admin", "Root") in club.actions("Anan")


def test_refusals_quote_the_input(club: Club) -> None:
    missing = club.admin("post", "/users/nobody/disable")
    assert missing.status_code == 404 and "'nobody'" in missing.json()["error"]
    bad = club.admin("put", "/users/Root/admin", json={"admin": "yes"})
    assert bad.status_code == 400 and "admin" in bad.json()["error"]
    assert club.admin("post", "/games/nosuchgame12/abort").status_code == 404
    made = create(club.client, opponent="human")
    wrong = club.admin("post", f"/games/{made['id']}/adjudicate", json={"result": "2-0"})
    assert wrong.status_code == 400 and "'2-0'" in wrong.json()["error"]
    assert club.admin("get", "/games?status=lost").status_code == 400
    too_long = club.admin("put", "/settings", json={"notice": "x" * 501})
    assert too_long.status_code == 400


def test_an_admin_aborts_a_started_game_and_the_players_see_it(club: Club) -> None:
    made = create(club.client, opponent="human")
    with club.client.websocket_connect(f"/api/games/{made['id']}/socket") as socket:
        socket.receive_json()
        move(club.client, made["id"], made["token"], "e3e4")
        socket.receive_json()
        answer = club.admin("post", f"/games/{made['id']}/abort")
        assert answer.status_code == 204, answer.text
        told = socket.receive_json()["game"]
        assert (told["status"], told["result"], told["termination"]) == ("ended", "*", "aborted")
    again = club.admin("post", f"/games/{made['id']}/abort")
    assert again.status_code == 409
    assert ("Root", "abort", made["id"]) in club.actions()


def test_an_adjudicated_rated_game_is_rated_and_told_live(club: Club) -> None:
    club.sign_up("Anan")
    club.sign_up("Boon")
    game_id, white, black = club.rated_game("Anan", "Boon")
    move(club.client, game_id, white, "e3e4")
    with club.client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        socket.receive_json()
        answer = club.admin("post", f"/games/{game_id}/adjudicate", json={"result": "0-1"})
        assert answer.status_code == 204, answer.text
        told = socket.receive_json()["game"]
        assert (told["result"], told["termination"]) == ("0-1", "adjudication")
    state = game(club.client, game_id)
    assert (state["status"], state["result"]) == ("ended", "0-1")
    # the ratings move in the background once the game has ended (Hall.finished)
    wait_for(lambda: game(club.client, game_id)["rating_changes"], timeout=20)
    ratings = club.call(None, "get", "/api/accounts/Boon").json()["ratings"]
    assert ratings["makruk"]["games"] == 1 and ratings["makruk"]["rating"] > 1500
    assert club.admin("post", f"/games/{game_id}/adjudicate",
                      json={"result": "1-0"}).status_code == 409  # fmt: skip
    detail = club.admin("get", "/audit").json()["actions"][0]
    assert (detail["action"], detail["target"], detail["detail"]) == (
        "adjudicate", game_id, {"result": "0-1"})  # fmt: skip
    del black


def test_a_game_is_deleted_with_its_moves_events_and_chat(club: Club) -> None:
    made = create(club.client, opponent="human")
    said = club.call(None, "post", f"/api/games/{made['id']}/chat", json={"text": "hi"},
                     headers=bearer(made["token"]))  # fmt: skip
    assert said.status_code == 201
    move(club.client, made["id"], made["token"], "e3e4")
    refused = club.admin("delete", f"/games/{made['id']}")
    assert refused.status_code == 409 and "abort it first" in refused.json()["error"]
    club.call(None, "post", f"/api/games/{made['id']}/actions", json={"action": "resign"},
              headers=bearer(made["token"]))  # fmt: skip
    assert club.admin("delete", f"/games/{made['id']}").status_code == 204
    assert club.client.get(f"/api/games/{made['id']}").status_code == 404
    assert made["id"] not in {g["id"] for g in club.admin("get", "/games").json()["games"]}
    assert said.json()["id"] not in {m["id"] for m in club.admin("get", "/chat").json()["messages"]}
    counts = _rows_of(club.client, made["id"])
    assert counts == (0, 0, 0)
    assert club.admin("delete", f"/games/{made['id']}").status_code == 404


def _rows_of(client: TestClient, public_id: str) -> tuple[int, int, int]:
    """The moves, events and chat messages left of game ``public_id`` in the database."""
    from sqlalchemy import func, select

    from kradan.web.chat_tables import ChatRow
    from kradan.web.tables import EventRow, GameRow, MoveRow

    accounts = client.app.state.accounts  # type: ignore[attr-defined]

    async def count() -> tuple[int, int, int]:
        async with accounts.sessions() as session:
            # the game's row is gone: its moves and events are those of no game left
            games = select(GameRow.id)
            moves = await session.scalar(
                select(func.count()).select_from(MoveRow).where(MoveRow.game_id.not_in(games))
            )
            events = await session.scalar(
                select(func.count()).select_from(EventRow).where(EventRow.game_id.not_in(games))
            )
            chat = await session.scalar(
                select(func.count()).select_from(ChatRow).where(ChatRow.game == public_id)
            )
            return int(moves or 0), int(events or 0), int(chat or 0)  # fmt: skip

    assert client.portal is not None
    return client.portal.call(count)


def test_chat_moderation_lists_every_games_messages_and_removes(club: Club) -> None:
    first = create(club.client, opponent="human")
    second = create(club.client, opponent="human")
    for made, text in ((first, "hello"), (second, "a rude word")):
        club.call(None, "post", f"/api/games/{made['id']}/chat", json={"text": text},
                  headers=bearer(made["token"]))  # fmt: skip
    listed = club.admin("get", "/chat").json()["messages"]
    assert [(m["game"], m["text"], m["removed"]) for m in listed] == [
        (second["id"], "a rude word", False), (first["id"], "hello", False)]  # fmt: skip
    assert club.call("Root", "delete", f"/api/chat/{listed[0]['id']}").status_code == 204
    assert club.admin("get", "/chat").json()["messages"][0]["removed"] is True
    assert ("Root", "remove_message", str(listed[0]["id"])) in club.actions()


def test_the_access_log_keeps_no_secret(club: Club) -> None:
    club.sign_up("Anan", "a secret password")
    made = create(club.client, opponent="human")
    invite = made["invite"]
    club.call(None, "get", f"/join/{made['id']}?seat={invite}")
    move(club.client, made["id"], made["token"], "e3e4")
    token = club.call("Anan", "post", "/api/tokens").json()["token"]
    club.call(None, "get", "/api/account", headers=bearer(token))
    club.call(None, "get", "/api/games?limit=5")
    log = club.admin("get", "/access-log?limit=500")
    assert log.status_code == 200
    text = log.text
    session = club.sessions["Anan"]
    for secret in (made["token"], invite, token, session, "a secret password", PASSWORD):
        assert secret not in text
    entries = log.json()["requests"]
    paths = [e["path"] for e in entries]
    assert f"/join/{made['id']}?seat=%2A%2A%2A" in paths
    assert "/api/games?limit=5" in paths  # a harmless value stays
    mine = [e for e in entries if e["path"] == "/api/account"]
    assert mine[0]["account"] == "Anan" and mine[0]["status"] == 200
    assert mine[0]["method"] == "GET" and mine[0]["client"] and mine[0]["duration_ms"] >= 0
    # the filters: a part of the path, a status or its hundred, an account
    only = club.admin("get", "/access-log?path=JOIN").json()["requests"]
    assert [e["path"].split("?")[0] for e in only] == [f"/join/{made['id']}"]
    assert all(e["status"] // 100 == 4
               for e in club.admin("get", "/access-log?status=4").json()["requests"])  # fmt: skip
    by_anan = club.admin("get", "/access-log?account=anan").json()["requests"]
    assert by_anan and {e["account"] for e in by_anan} == {"Anan"}
    # a page asks nobody who is signed in: the session it carries names the account
    club.call("Anan", "get", "/ratings")
    club.call(None, "get", "/ratings")
    pages = club.admin("get", "/access-log?path=/ratings").json()["requests"]
    assert [e["account"] for e in pages] == [None, "Anan"]


def test_settings_close_sign_up_show_a_notice_and_outlive_a_restart(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    with serving(url) as client:
        club = Club(client)
        assert club.admin("get", "/settings").json() == {"sign_up_open": True, "notice": ""}
        closing = {"sign_up_open": False, "notice": "Club night  Friday"}
        changed = club.admin("put", "/settings", json=closing)
        assert changed.json() == {"sign_up_open": False, "notice": "Club night Friday"}
        refused = club.sign_up("Anan")
        assert refused.status_code == 403 and "closed" in refused.json()["error"]
        assert "Club night Friday" in client.get("/").text
        assert 'id="sign-up-closed"' in client.get("/login").text
    with serving(url) as client:
        club = People(client)
        assert "Club night Friday" in client.get("/").text
        assert club.sign_up("Anan").status_code == 403
        # an admin still makes accounts from the command line
    assert kradan_main(["admin", "disable-user", "Root", "--db", url]) == 2  # the last admin
    with serving(url) as client:
        club2 = People(client)
        answer = club2.call(None, "POST", "/api/session",
                            json={"username": "Root", "password": PASSWORD})  # fmt: skip
        club2.sessions["Root"] = answer.cookies["kradan_session"]
        opened = club2.call("Root", "put", "/api/admin/settings", json={"sign_up_open": True})
        assert opened.json() == {"sign_up_open": True, "notice": "Club night Friday"}
        assert club2.sign_up("Anan").status_code == 201
        assert 'id="sign-up-closed"' not in client.get("/login").text
        cleared = club2.call("Root", "put", "/api/admin/settings", json={"notice": ""})
        assert cleared.json()["notice"] == ""
        assert 'id="notice"' not in client.get("/").text


def test_the_command_line_disables_and_enables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database_url(tmp_path)
    with serving(url) as client:
        Club(client).sign_up("Anan")
    assert kradan_main(["admin", "disable-user", "anan", "--db", url]) == 0
    assert "Anan is disabled" in capsys.readouterr().out
    with serving(url) as client:
        club = Club.__new__(Club)
        People.__init__(club, client)
        assert club.sign_in("Anan").status_code == 403
        club.sign_in("Root")
        assert ("(command line)", "disable", "Anan") in club.actions()
    assert kradan_main(["admin", "enable-user", "Anan", "--db", url]) == 0
    assert kradan_main(["admin", "enable-user", "nobody", "--db", url]) == 2
    assert "'nobody'" in capsys.readouterr().err
    with serving(url) as client:
        assert People(client).call(None, "POST", "/api/session", json={
            "username": "Anan", "password": PASSWORD}).status_code == 200  # fmt: skip


def test_a_disabled_bots_open_event_stream_ends(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream opened before the account was disabled does not go on: it ends at its next
    keepalive."""
    from concurrent.futures import ThreadPoolExecutor

    from kradan.web import bot_api

    monkeypatch.setattr(bot_api, "KEEPALIVE_SECONDS", 0.2)
    club.sign_up("Robo")
    token = club.call("Robo", "post", "/api/tokens").json()["token"]
    upgraded = club.call(None, "post", "/api/bot/account/upgrade", headers=bearer(token))
    assert upgraded.status_code == 200, upgraded.text
    with ThreadPoolExecutor(1) as thread:
        # the test client answers once the stream has ended: here, only after the disable
        streamed = thread.submit(club.client.get, "/api/stream/event", headers=bearer(token))
        time.sleep(1.0)  # a few keepalives: the stream goes on while the account is enabled
        assert not streamed.done()
        assert club.admin("post", "/users/Robo/disable").status_code == 200
        try:
            answer = streamed.result(timeout=30)
        except TimeoutError:  # it goes on: break it, so that the thread (and the test) ends

            def broken(*args: Any) -> None:
                raise RuntimeError("the event stream went on after the disable")

            monkeypatch.setattr(club.client.app.state.lobby, "open_seeks", broken)  # type: ignore[attr-defined]
            streamed.exception(timeout=30)
            pytest.fail("the event stream went on after the account was disabled")
    assert answer.status_code == 200 and set(answer.text) <= {"\n"}


def test_an_admins_changes_refuse_another_sites_page(club: Club) -> None:
    club.sign_up("Anan")
    evil = {"Origin": "https://evil.example"}
    for method, path, body in (
        ("post", "/users/Anan/disable", None),
        ("post", "/users/Anan/password", None),
        ("put", "/users/Anan/admin", {"admin": True}),
        ("put", "/settings", {"sign_up_open": False}),
    ):
        answer = club.admin(method, path, headers=evil, json=body)
        assert answer.status_code == 403 and "evil.example" in answer.json()["error"], path
    assert club.admin("get", "/users?q=anan").json()["users"][0]["disabled"] is False
    assert club.admin("get", "/settings").json()["sign_up_open"] is True
    assert club.actions() == []


def test_the_admin_page_is_served_and_its_link_is_the_admins(club: Club) -> None:
    """The page itself is a shell (the API refuses others); the header's link to it is drawn
    from GET /api/session's ``admin``."""
    club.sign_up("Anan")
    page = club.call("Anan", "get", "/admin")
    assert page.status_code == 200 and 'id="admin-refused"' in page.text
    assert club.call("Anan", "get", "/api/session").json()["admin"] is False
    assert club.call("Root", "get", "/api/session").json()["admin"] is True
    thai = club.call("Root", "get", "/admin", headers={"Accept-Language": "th"})
    assert "การตั้งค่าเซิร์ฟเวอร์" in thai.text  # Server settings
