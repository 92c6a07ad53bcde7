"""A game's chat over the JSON API and its websocket (issue 46 item 7): the players' room and
the spectators' kept apart, plain text only, a rate limit per speaker, an admin who removes a
message, and messages that outlive the server."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from kradan.web.chat import BURST, MAX_TEXT, WINDOW, clean_text
from kradan.web.model import GameError
from tests.web_helpers import (
    PASSWORD,
    People,
    act,
    bearer,
    create,
    database_url,
    serving,
)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return database_url(tmp_path)


@pytest.fixture
def people(url: str) -> Iterator[People]:
    with serving(url) as client:
        yield People(client)


def _game(people: People) -> tuple[str, str, str]:
    """A game between two guests: its id and the two seats' tokens."""
    made = create(people.client, opponent="human")
    return made["id"], made["token"], made["invite"]


def _say(people: People, game: str, text: str, room: str = "players", **kwargs: Any) -> Any:
    """Say ``text`` as whoever ``kwargs``' headers prove (no cookie)."""
    return people.call(None, "POST", f"/api/games/{game}/chat",
                       json={"room": room, "text": text}, **kwargs)  # fmt: skip


def _read(people: People, game: str, room: str = "players", **kwargs: Any) -> Any:
    return people.call(None, "GET", f"/api/games/{game}/chat", params={"room": room}, **kwargs)


def test_the_players_talk_and_nobody_else_reads_them(people: People) -> None:
    game, white, black = _game(people)
    said = _say(people, game, "  good   luck <b>!</b>  ", headers=bearer(white))
    assert said.status_code == 201, said.text
    message = said.json()
    # white space folded; the markup kept as the letters it is (the page shows it as text)
    assert message["text"] == "good luck <b>!</b>" and message["name"] == "white"
    assert _say(people, game, "ขอบคุณ", headers=bearer(black)).status_code == 201
    seen = _read(people, game, headers=bearer(black)).json()["messages"]
    assert [m["text"] for m in seen] == ["good luck <b>!</b>", "ขอบคุณ"]
    # a spectator neither reads nor writes the players' room; another game's seat proves nothing
    assert _read(people, game).status_code == 401  # no seat shown
    assert _say(people, game, "hint: Nc3").status_code == 401
    other, other_white, _ = _game(people)
    assert _read(people, game, headers=bearer(other_white)).status_code == 403
    assert _read(people, other, headers=bearer(other_white)).json()["messages"] == []


def test_spectators_need_an_account_and_players_read_them_only_after_the_game(
    people: People,
) -> None:
    game, white, _ = _game(people)
    people.sign_up("Kanya")
    assert _say(people, game, "hello", room="spectators").status_code == 401  # a guest
    said = people.call("Kanya", "POST", f"/api/games/{game}/chat",
                       json={"room": "spectators", "text": "White is better"})  # fmt: skip
    assert said.status_code == 201 and said.json()["account"] == "Kanya"
    assert [m["text"] for m in _read(people, game, "spectators").json()["messages"]] == [
        "White is better"
    ]
    # while the game is played, its players do not read what the spectators say
    assert _read(people, game, "spectators", headers=bearer(white)).status_code == 403
    assert act(people.client, game, white, "resign").status_code == 200
    after = _read(people, game, "spectators", headers=bearer(white))
    assert after.status_code == 200 and len(after.json()["messages"]) == 1


def test_text_is_cleaned_and_bounded() -> None:
    assert clean_text("a\x00b\u202ec\td") == "abc d"  # control and bidi-override characters go
    khmer = "ស្រ\u200bី"  # a zero-width space (format) goes; the script's own marks stay
    assert clean_text(khmer) == "ស្រី"
    assert clean_text("ក\u200dខ") == "ក\u200dខ"  # the zero-width joiner stays
    with pytest.raises(GameError) as empty:
        clean_text(" \x07 ")
    assert empty.value.status == 400 and "' \\x07 '" in empty.value.message
    with pytest.raises(GameError):
        clean_text("x" * (MAX_TEXT + 1))
    assert clean_text("x" * MAX_TEXT) == "x" * MAX_TEXT


def test_a_speaker_is_slowed_down(people: People) -> None:
    now = [1000.0]
    people.client.app.state.chat.clock = lambda: now[0]  # type: ignore[attr-defined]
    game, white, black = _game(people)
    for n in range(BURST):
        assert _say(people, game, f"spam {n}", headers=bearer(white)).status_code == 201
    refused = _say(people, game, "one more", headers=bearer(white))
    assert refused.status_code == 429 and f"{WINDOW:g} s" in refused.json()["error"]
    assert _say(people, game, "my turn", headers=bearer(black)).status_code == 201  # not black
    now[0] += WINDOW
    assert _say(people, game, "again", headers=bearer(white)).status_code == 201


def test_an_admin_removes_a_message_from_every_screen(people: People) -> None:
    accounts = people.client.app.state.accounts  # type: ignore[attr-defined]
    make_admin = partial(accounts.sign_up, "Boss", PASSWORD, admin=True)
    assert people.client.portal is not None
    people.client.portal.call(make_admin)
    signed_in = people.call(None, "POST", "/api/session",
                            json={"username": "Boss", "password": PASSWORD})  # fmt: skip
    assert signed_in.json() == {"username": "Boss", "admin": True}
    people.sessions["Boss"] = signed_in.cookies["kradan_session"]
    people.sign_up("Member")
    game, white, _ = _game(people)
    message = _say(people, game, "a rude word", headers=bearer(white)).json()
    with people.client.websocket_connect(
        f"/api/games/{game}/chat/socket?room=players", headers=_seat_cookie(game, white)
    ) as socket:
        first = socket.receive_json()
        assert first["type"] == "chat" and [m["id"] for m in first["messages"]] == [message["id"]]
        assert people.call(None, "DELETE", f"/api/chat/{message['id']}").status_code == 401
        assert people.call("Member", "DELETE", f"/api/chat/{message['id']}").status_code == 403
        assert people.call("Boss", "DELETE", f"/api/chat/{message['id']}").status_code == 204
        assert socket.receive_json() == {"type": "removed", "id": message["id"]}
        said = _say(people, game, "sorry", headers=bearer(white)).json()
        assert socket.receive_json() == {"type": "said", "message": said}
    assert [m["text"] for m in _read(people, game, headers=bearer(white)).json()["messages"]] == [
        "sorry"
    ]
    assert people.call("Boss", "DELETE", f"/api/chat/{message['id']}").status_code == 404
    # an id out of the column's range is refused, not a database error (the fuzzer found it)
    assert people.call("Boss", "DELETE", f"/api/chat/{10**20}").status_code == 404
    # an admin reads both rooms
    boss_reads = people.call("Boss", "GET", f"/api/games/{game}/chat?room=players")
    assert boss_reads.status_code == 200


def _seat_cookie(game: str, token: str) -> dict[str, str]:
    from kradan.web.api import cookie_name

    return {"cookie": f"{cookie_name(game)}={token}"}


def test_a_spectator_socket_is_refused_the_players_room(people: People) -> None:
    from starlette.websockets import WebSocketDisconnect

    game, _, black = _game(people)
    room = f"/api/games/{game}/chat/socket?room=players"
    with pytest.raises(WebSocketDisconnect) as refused, people.client.websocket_connect(room) as s:
        s.send_json({"type": "auth", "token": "x" * 43})  # a token of no seat
        s.receive_json()
    assert refused.value.code == 4403
    with people.client.websocket_connect(
        f"/api/games/{game}/chat/socket?room=spectators"
    ) as socket:
        assert socket.receive_json() == {"type": "chat", "room": "spectators", "messages": []}
    # a seat the page keeps (no cookie) shows its token first
    people.client.cookies.clear()
    with people.client.websocket_connect(room) as socket:
        socket.send_json({"type": "auth", "token": black})
        assert socket.receive_json() == {"type": "chat", "room": "players", "messages": []}


def test_messages_outlive_the_server(url: str) -> None:
    with serving(url) as client:
        game, white, _ = _game(People(client))
        assert _say(People(client), game, "see you", headers=bearer(white)).status_code == 201
    with serving(url) as client:
        read = _read(People(client), game, headers=bearer(white))
        assert [m["text"] for m in read.json()["messages"]] == ["see you"]
