"""``kradan serve``'s websocket: the game on connect and after every change, moves and actions
from seats, spectators who only watch, bad messages answered on their own socket only; and
clocks that flag."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .web_helpers import (
    WebSocketDisconnect,
    act,
    bearer,
    create,
    database_url,
    game,
    move,
    next_game,
    next_game_within,
    serving,
    without_clock,
)

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(database_url(tmp_path)) as client:
        yield client


def humans(client: TestClient, **body: Any) -> tuple[str, str, str]:
    created = create(client, opponent="human", **body)
    client.cookies.clear()
    return created["id"], created["token"], created["invite"]


def next_error(socket: Any) -> str:
    message = socket.receive_json()
    assert message["type"] == "error", message
    text: str = message["error"]
    return text


def test_moves_over_the_socket_reach_players_and_spectators(client: TestClient) -> None:
    game_id, white, black = humans(client)
    url = f"/api/games/{game_id}/socket"
    with (
        client.websocket_connect(url) as white_socket,
        client.websocket_connect(url) as black_socket,
        client.websocket_connect(url) as spectator,
    ):
        for socket in (white_socket, black_socket, spectator):
            assert next_game(socket)["ply"] == 0
        white_socket.send_json({"type": "auth", "token": white})
        black_socket.send_json({"type": "auth", "token": black})
        white_socket.send_json({"type": "move", "move": "e3e4"})
        for socket in (white_socket, black_socket, spectator):
            assert next_game(socket)["moves"] == ["e3e4"]
        black_socket.send_json({"type": "move", "move": "d6d5"})
        for socket in (white_socket, black_socket, spectator):
            assert next_game(socket)["moves"] == ["e3e4", "d6d5"]
        # a move over HTTP reaches the sockets too
        move(client, game_id, white, "e4d5")
        for socket in (white_socket, black_socket, spectator):
            assert next_game(socket)["ply"] == 3
        # spectators only watch; the error goes to their socket alone
        spectator.send_json({"type": "move", "move": "c6d5"})
        assert "spectators" in next_error(spectator)
        spectator.send_json({"type": "action", "action": "resign"})
        assert "no seat" in next_error(spectator)
        act(client, game_id, black, "offer_draw")
        for socket in (white_socket, black_socket, spectator):
            assert next_game(socket)["draw_offer"] == "black"
        white_socket.send_json({"type": "action", "action": "decline_draw"})
        for socket in (white_socket, black_socket, spectator):
            assert next_game(socket)["draw_offer"] is None
    assert game(client, game_id)["moves"] == ["e3e4", "d6d5", "e4d5"]


def test_bad_messages_get_errors_and_change_nothing(client: TestClient) -> None:
    game_id, white, black = humans(client)
    other_id, other_white, _ = humans(client)
    before = without_clock(game(client, game_id))
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        next_game(socket)
        socket.send_json({"type": "move", "move": "e3e4"})
        assert "no seat" in next_error(socket)
        for text, quoted in [
            ("{not json", "malformed JSON"),
            ("[1, 2]", "'type'"),
            ('{"type": 5}', "'type'"),
            ('{"type": "dance"}', "'dance'"),
            ('{"type": "auth"}', "token"),
            ('{"type": "auth", "token": 12}', "token"),
            ('{"type": "auth", "token": "wrong"}', "not a seat"),
            ('{"type": "auth", "token": "' + other_white + '"}', "not a seat"),
            ("x" * 5000, "4096"),
        ]:
            socket.send_text(text)
            assert quoted in next_error(socket), text
        socket.send_bytes(b"\x00\x01")
        assert "binary" in next_error(socket)
        socket.send_json({"type": "auth", "token": black})
        for message, quoted in [
            ({"type": "move", "move": "d6d5"}, "turn"),
            ({"type": "move"}, "move"),
            ({"type": "move", "move": 42}, "move"),
            ({"type": "move", "move": "x" * 100}, "move"),
            ({"type": "action", "action": "explode"}, "explode"),
            ({"type": "action", "action": "stop_count"}, "turn"),
        ]:
            socket.send_json(message)
            assert quoted in next_error(socket), message
        socket.send_json({"type": "auth", "token": white})
        socket.send_json({"type": "move", "move": "e3e5"})
        assert "illegal move 'e3e5'" in next_error(socket)
    assert without_clock(game(client, game_id)) == before
    assert game(client, other_id)["moves"] == []


def test_the_seat_cookie_of_the_handshake(client: TestClient) -> None:
    created = create(client, opponent="human")
    # what a browser sends with the handshake (the test client keeps cookies for 127.0.0.1,
    # but opens sockets on "testserver")
    cookie = {"cookie": f"kradan_seat_{created['id']}={created['token']}"}
    with client.websocket_connect(f"/api/games/{created['id']}/socket", headers=cookie) as socket:
        next_game(socket)
        socket.send_json({"type": "move", "move": "e3e4"})
        assert next_game(socket)["moves"] == ["e3e4"]
        socket.send_json({"type": "move", "move": "d6d5"})
        assert "turn" in next_error(socket)


def test_unknown_games_and_other_origins_are_refused(client: TestClient) -> None:
    for game_id in ("AAAAAAAAAAAA", "a" * 500, "bad!id"):
        url = f"/api/games/{game_id}/socket"
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url) as socket:
            socket.receive_json()
        assert refused.value.code == 4404
    game_id, _, _ = humans(client)
    headers = {"Origin": "http://evil.example"}
    url = f"/api/games/{game_id}/socket"
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url, headers=headers) as socket,
    ):
        socket.receive_json()
    assert refused.value.code == 4403


# --- clocks ------------------------------------------------------------------------------------


def test_the_clock_runs_with_increment_and_flags(client: TestClient) -> None:
    game_id, white, black = humans(client, clock="1+1")
    state = game(client, game_id)
    assert state["clock"] == {
        "white_ms": 1000, "black_ms": 1000, "increment_ms": 1000, "running": None
    }  # fmt: skip
    move(client, game_id, white, "e3e4")  # the first move of each side is free
    state = move(client, game_id, black, "d6d5")
    assert state["clock"]["running"] == "white" and state["clock"]["white_ms"] > 900
    state = move(client, game_id, white, "e4d5")
    assert 1500 < state["clock"]["white_ms"] <= 2000  # the increment was added
    assert state["clock"]["running"] == "black"
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        assert next_game(socket)["status"] == "playing"
        # the flag falls by itself, about a second later (the timer wakes when the time is up;
        # 30 s would mean it slept through the fall)
        state = next_game_within(socket, 30)
    assert state["status"] == "ended" and state["result"] == "1-0"
    assert state["termination"] == "time forfeit" and state["clock"]["black_ms"] == 0
    assert state["clock"]["running"] is None
    response = client.post(
        f"/api/games/{game_id}/moves", json={"move": "c6d5"}, headers=bearer(black)
    )
    assert response.status_code == 409
    text = client.get(f"/api/games/{game_id}/pgn").text
    assert '[Termination "time forfeit"]' in text and '[TimeControl "1+1"]' in text
    assert "1. e4 {[%clk 0:00:01.0]} 1... d5 {[%clk 0:00:01.0]} 2. exd5 {[%clk 0:00:0" in text

    from kradan import pgn

    clocks = [node.clock() for node in pgn.read_game(io.StringIO(text)).mainline()]
    assert clocks[:2] == [1.0, 1.0] and 1.5 < clocks[2] <= 2.0


def test_a_flag_against_a_lone_king_draws(client: TestClient) -> None:
    game_id, white, black = humans(client, clock="1+0", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    move(client, game_id, white, "a1a2")
    move(client, game_id, black, "e8d8")
    time.sleep(1.2)
    # White ran out; Black, with a lone king, could never mate: a draw
    response = client.post(
        f"/api/games/{game_id}/moves", json={"move": "a2a3"}, headers=bearer(white)
    )
    assert response.status_code == 409
    state = game(client, game_id)
    assert (
        state["result"] == "1/2-1/2" and state["termination"] == "timeout vs insufficient material"
    )


def test_the_socket_sends_the_game_view_the_api_answers_with(client: TestClient) -> None:
    """One game view: the socket's game is the API's, less the asking seat's own fields."""
    game_id, white, _ = humans(client, variant="thai", options={"counting": "declared"})
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        assert next_game(socket)["ply"] == 0
        answered = move(client, game_id, white, "e3e4")
        sent = next_game(socket)
    assert set(answered) - set(sent) == {"seat", "my_setup"}
    assert without_clock(sent) == without_clock(
        {key: value for key, value in answered.items() if key not in ("seat", "my_setup")}
    )
