"""``kradan serve`` against its engine, which thinks in a worker process: its replies arrive
over the socket like any other move, in every game it plays; takebacks and draw offers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kradan.games import games

from .web_helpers import act, create, database_url, game, move, serving, wait_for

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


PLAYED = [entry.name for entry in games() if entry.searcher is not None]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(database_url(tmp_path)) as client:
        yield client


def reply(client: TestClient, game_id: str, ply: int) -> dict[str, Any]:
    """The game once it has ``ply`` moves."""
    found: dict[str, Any] = wait_for(
        lambda: (state := game(client, game_id))["ply"] >= ply and state, timeout=120
    )
    return found


def test_the_engine_replies_over_the_socket(client: TestClient) -> None:
    created = create(client, variant="makruk", level=1, color="white")
    game_id, token = created["id"], created["token"]
    state = game(client, game_id)
    assert state["players"] == {"white": "human", "black": "engine level 1"}
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        assert socket.receive_json()["game"]["ply"] == 0
        socket.send_json({"type": "auth", "token": token})
        socket.send_json({"type": "move", "move": "e3e4"})
        reply(client, game_id, 2)  # (waits with a time limit; the socket has it by then)
        assert socket.receive_json()["game"]["moves"] == ["e3e4"]
        answer = socket.receive_json()["game"]  # the engine's move, after its commit
    assert answer["ply"] == 2 and answer["turn"] == "white"
    assert game(client, game_id)["moves"] == answer["moves"]


@pytest.mark.parametrize("variant", PLAYED)
def test_the_engine_plays_every_game(client: TestClient, variant: str) -> None:
    created = create(client, variant=variant, level=1, color="black")
    assert created["color"] == "black" and created["invite"] is None
    state = reply(client, created["id"], 1)  # the engine, White, moves first
    assert state["players"]["white"] == "engine level 1" and state["turn"] == "black"
    ours = state["legal_moves"][0]
    state = move(client, created["id"], created["token"], ours)
    assert state["moves"][1] == ours
    state = reply(client, created["id"], 3)
    assert state["turn"] == "black" and len(state["san"]) == 3


def test_takeback_against_the_engine(client: TestClient) -> None:
    created = create(client, variant="makruk", level=1, options={"counting": "declared"})
    game_id, token = created["id"], created["token"]
    move(client, game_id, token, "e3e4")
    state = reply(client, game_id, 2)
    response = act(client, game_id, token, "takeback")
    assert response.status_code == 200, response.text
    assert response.json()["moves"] == [] and response.json()["turn"] == "white"
    # the positions and the squares go back with the moves
    assert response.json()["positions"] == [state["positions"][0]]
    assert response.json()["move_squares"] == []
    response = act(client, game_id, token, "takeback")
    assert response.status_code == 409  # nothing of White's left to take back
    move(client, game_id, token, "c3c4")
    state = reply(client, game_id, 2)
    assert state["moves"][0] == "c3c4" and state["move_squares"][0] == ["c3", "c4"]
    assert len(state["positions"]) == 3
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert "1. c4 " in pgn and "e4" not in pgn.split("\n\n", 1)[1]


def test_the_engine_answers_a_draw_offer(client: TestClient) -> None:
    created = create(client, variant="makruk", level=1)
    game_id, token = created["id"], created["token"]
    state = act(client, game_id, token, "offer_draw").json()
    assert state["draw_offer"] == "white"
    state = wait_for(lambda: (found := game(client, game_id))["draw_offer"] is None and found)
    # at the start the engine is not ahead: it accepts
    assert state["status"] == "ended" and state["termination"] == "agreement"


def test_the_engine_declares_a_count_when_behind(client: TestClient) -> None:
    # declared counting: Black, the engine, has a rook against two rooks and a knight
    created = create(
        client, variant="makruk", level=1, color="white", options={"counting": "declared"},
        fen="8/8/4k3/8/1r6/8/8/R2K1N1R w - - 0 40",
    )  # fmt: skip
    game_id, token = created["id"], created["token"]
    move(client, game_id, token, "a1a2")
    state = reply(client, game_id, 2)
    counting = state["counting"]
    assert counting is not None and counting["declared"]
    assert counting["honour"] == "board's honour" and counting["counting_side"] == "black"
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert "[%count declare]" in pgn
