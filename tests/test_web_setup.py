"""Sittuyin's screened setup in ``kradan serve`` (docs/rules.md 5.3): each seat hands in its whole
camp with ``POST /api/games/{id}/setup`` or a ``setup`` socket message; nobody sees one side's
arrangement until both are in; each arrangement is stored before it is acknowledged and
replayed when the server starts again; the engine hands in one of the library's presets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kradan import Board
from kradan.sittuyin_setup import PRESETS

from .web_helpers import bearer, create, database_url, game, move, serving, wait_for

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

SCREENED = {"variant": "sittuyin", "options": {"sittuyin_setup": "screened"}}
START = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"
WHITE_CAMP = {
    "a1": "R", "b2": "N", "c1": "S", "d2": "F", "e2": "K", "f1": "S", "g2": "N", "h1": "R",
}  # fmt: skip
BLACK_CAMP = {
    "a8": "R", "b7": "N", "c8": "S", "d7": "K", "e7": "F", "f8": "S", "g7": "N", "h8": "R",
}  # fmt: skip


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(database_url(tmp_path)) as client:
        yield client


def humans(client: TestClient, **body: Any) -> tuple[str, str, str]:
    created = create(client, opponent="human", **SCREENED, **body)
    client.cookies.clear()
    return created["id"], created["token"], created["invite"]


def hand_in(client: TestClient, game_id: str, token: str | None, arrangement: Any) -> Any:
    headers = bearer(token) if token else {}
    return client.post(
        f"/api/games/{game_id}/setup", json={"arrangement": arrangement}, headers=headers
    )


def expected_after(white: Any, black: Any) -> Board:
    board = Board(variant="sittuyin", sittuyin_setup="screened")
    board.submit_setup(True, white)
    board.submit_setup(False, black)
    return board


def test_both_camps_handed_in_become_the_first_moves(client: TestClient) -> None:
    game_id, white, black = humans(client)
    state = game(client, game_id)
    assert state["setup"] == {"white": False, "black": False}
    assert state["fen"] == START and state["legal_moves"] == [] and state["moves"] == []
    answer = hand_in(client, game_id, white, WHITE_CAMP)
    assert answer.status_code == 200, answer.text
    state = answer.json()
    assert state["setup"] == {"white": True, "black": False}
    assert state["fen"] == START and state["moves"] == [] and state["ply"] == 0
    state = hand_in(client, game_id, black, BLACK_CAMP).json()
    board = expected_after(WHITE_CAMP, BLACK_CAMP)
    assert state["setup"] is None and state["fen"] == board.fen()
    assert state["moves"] == [m.uci() for m in board.move_stack] and state["ply"] == 16
    assert state["san"][:2] == ["K@e2", "K@d7"] and len(state["thai_san"]) == 16
    # each drop's position, as the alternate setup plays the same drops
    replay = expected_after(WHITE_CAMP, BLACK_CAMP)
    positions = [replay.fen()]
    while replay.move_stack:
        replay.pop()
        positions.insert(0, replay.fen())
    assert state["positions"] == positions and state["move_squares"][0] == ["e2"]
    assert state["turn"] == "white" and "a3a4" in state["legal_moves"]
    state = move(client, game_id, white, "a3a4")
    assert state["moves"][-1] == "a3a4" and state["san"][-1] == "a4"
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert "1. K@e2 K@d7" in pgn and "9. a4" in pgn
    assert '[VariantOptions "sittuyin_setup=screened"]' in pgn  # issue 46


def test_one_camp_stays_hidden_until_both_are_in(client: TestClient) -> None:
    game_id, white, black = humans(client)
    assert hand_in(client, game_id, white, "fortress").status_code == 200
    views = [
        client.get(f"/api/games/{game_id}", headers=bearer(black)).json(),
        client.get(f"/api/games/{game_id}").json(),  # a spectator
        client.get(f"/api/games/{game_id}/pgn").text,
        client.get("/api/games").json(),
    ]
    for view in views:
        text = json.dumps(view)
        assert "g2" not in text and "fortress" not in text and "K@" not in text, text
    assert views[0]["my_setup"] is None and views[1]["my_setup"] is None
    assert views[0]["seat"] == "black" and views[0]["fen"] == START
    # the seat that handed in sees its own camp again (after a reload, say)
    own = client.get(f"/api/games/{game_id}", headers=bearer(white)).json()
    assert own["my_setup"] == PRESETS["fortress"]
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        shown = socket.receive_json()["game"]
        assert shown["setup"] == {"white": True, "black": False} and shown["fen"] == START
        assert "my_setup" not in shown or shown["my_setup"] is None
        assert hand_in(client, game_id, black, "standard").status_code == 200
        shown = socket.receive_json()["game"]
    assert shown["fen"] == expected_after("fortress", "standard").fen()


def test_bad_setups_are_refused_and_change_nothing(client: TestClient) -> None:
    game_id, white, black = humans(client)
    before = game(client, game_id)
    bad: list[tuple[str | None, Any, int, str]] = [
        (None, WHITE_CAMP, 401, "no seat"),
        ("not-a-seat-token", WHITE_CAMP, 403, "not a seat"),
        (white, BLACK_CAMP, 422, "outside White's camp"),
        (white, {**WHITE_CAMP, "a1": "N", "b2": "R"}, 422, "back rank"),
        (white, {k: v for k, v in WHITE_CAMP.items() if k != "h1"}, 422, "1 rook(s) placed"),
        (white, {**WHITE_CAMP, "e2": "Q"}, 422, "'Q' on e2"),
        (white, {**WHITE_CAMP, "z9": "K"}, 422, "'z9' is not a square"),
        (white, "castle", 422, "unknown setup preset"),
        (black, WHITE_CAMP, 422, "outside Black's camp"),
        # the shape the route takes (at most 16 squares of up to 3 characters, one letter
        # each), checked before the rules see it
        (
            white,
            {f"{f}{r}": "P" for f in "abcdefgh" for r in "12"} | {"a3": "P"},
            400,
            "an arrangement maps squares to piece letters",
        ),
        (white, {"e2e4": "K"}, 400, "an arrangement maps squares to piece letters"),
        (white, {"e2": "KK"}, 400, "an arrangement maps squares to piece letters"),
    ]
    for token, arrangement, status, words in bad:
        answer = hand_in(client, game_id, token, arrangement)
        assert answer.status_code == status, (arrangement, answer.text)
        assert words in answer.json()["error"], answer.text
        assert game(client, game_id) == before
    # wrong types: the schema refuses them before the game sees them
    for body in ({"arrangement": 3}, {"arrangement": {"e2": 1}}, {}, {"arrangement": "x", "y": 1}):
        answer = client.post(f"/api/games/{game_id}/setup", json=body, headers=bearer(white))
        assert answer.status_code in (400, 422), answer.text
        assert "error" in answer.json()
    # malformed JSON, an oversize body, an unknown game
    malformed = client.post(
        f"/api/games/{game_id}/setup",
        content=b'{"arrangement": {',
        headers={**bearer(white), "content-type": "application/json"},
    )
    assert malformed.status_code in (400, 422) and "error" in malformed.json()
    huge = hand_in(client, game_id, white, {f"a{i}": "K" for i in range(1000)})
    assert huge.status_code == 413 and "4096" in huge.json()["error"]
    unknown = hand_in(client, "x" * 12, white, WHITE_CAMP)
    assert unknown.status_code == 404
    assert game(client, game_id) == before
    # a move in the setup, then the setup handed in twice
    answer = client.post(
        f"/api/games/{game_id}/moves", json={"move": "K@e2"}, headers=bearer(white)
    )
    assert answer.status_code == 409 and "setup is not over" in answer.json()["error"]
    assert hand_in(client, game_id, white, WHITE_CAMP).status_code == 200
    twice = hand_in(client, game_id, white, "standard")
    assert twice.status_code == 409 and "already handed in" in twice.json()["error"]
    assert hand_in(client, game_id, black, BLACK_CAMP).status_code == 200
    after = hand_in(client, game_id, black, BLACK_CAMP)
    assert after.status_code == 409 and "no screened setup" in after.json()["error"]
    # a game without the screened setup has none to hand in
    plain = create(client, variant="sittuyin", opponent="human")
    client.cookies.clear()
    answer = hand_in(client, plain["id"], plain["token"], WHITE_CAMP)
    assert answer.status_code == 409 and "no screened setup" in answer.json()["error"]


def test_a_game_resigned_in_the_setup_takes_no_setup(client: TestClient) -> None:
    game_id, white, black = humans(client)
    resigned = client.post(
        f"/api/games/{game_id}/actions", json={"action": "resign"}, headers=bearer(black)
    )
    assert resigned.status_code == 200 and resigned.json()["result"] == "1-0"
    answer = hand_in(client, game_id, white, WHITE_CAMP)
    assert answer.status_code == 409 and "is over" in answer.json()["error"]


def test_the_setup_over_the_socket(client: TestClient) -> None:
    game_id, white, black = humans(client)
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        socket.receive_json()
        socket.send_json({"type": "setup", "arrangement": WHITE_CAMP})
        error = socket.receive_json()
        assert error["type"] == "error" and error["status"] == 401  # a spectator
        socket.send_json({"type": "auth", "token": white})
        socket.send_json({"type": "setup", "arrangement": ["e2", "K"]})
        error = socket.receive_json()
        assert error["status"] == 400 and "piece letters" in error["error"]
        socket.send_json({"type": "setup", "arrangement": {**WHITE_CAMP, "a1": "K"}})
        assert socket.receive_json()["status"] == 422
        socket.send_json({"type": "setup", "arrangement": WHITE_CAMP})
        state = socket.receive_json()["game"]
        assert state["setup"] == {"white": True, "black": False} and state["fen"] == START
    assert hand_in(client, game_id, black, BLACK_CAMP).json()["ply"] == 16


def test_handed_in_camps_survive_a_restart(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    with serving(url) as client:
        game_id, white, black = humans(client, clock="120+1")
        assert hand_in(client, game_id, white, WHITE_CAMP).status_code == 200
    with serving(url) as client:
        state = game(client, game_id)
        assert state["setup"] == {"white": True, "black": False} and state["fen"] == START
        assert state["clock"]["running"] is None  # no clock runs in the setup
        again = hand_in(client, game_id, white, "standard")
        assert again.status_code == 409  # White's camp was kept
        assert hand_in(client, game_id, black, BLACK_CAMP).status_code == 200
        move(client, game_id, white, "a3a4")
        before = game(client, game_id)
    with serving(url) as client:
        after = game(client, game_id)
        assert after["fen"] == before["fen"]
        assert after["moves"] == before["moves"] and after["thai_san"] == before["thai_san"]
        assert after["setup"] is None and after["ply"] == 17
        move(client, game_id, black, "h6h5")
        assert game(client, game_id)["clock"]["running"] == "white"  # both sides have moved


def test_a_screened_start_needs_both_camps_in_hand(client: TestClient) -> None:
    answer = client.post(
        "/api/games",
        json={**SCREENED, "opponent": "human", "fen": "8/8/8/8/8/8/8/K6k[R] w - - 0 1"},
    )
    assert answer.status_code == 400 and "both sides" in answer.json()["error"]


def test_the_engine_as_white_moves_once_both_camps_are_in(client: TestClient) -> None:
    created = create(client, **SCREENED, level=1, color="black")
    game_id, token = created["id"], created["token"]
    wait_for(lambda: game(client, game_id)["setup"]["white"])
    state = hand_in(client, game_id, token, BLACK_CAMP).json()
    assert state["ply"] == 16 and state["turn"] == "white"
    state = wait_for(lambda: (s := game(client, game_id))["ply"] >= 17 and s, timeout=120)
    assert state["turn"] == "black" and "@" not in state["moves"][16]


def test_the_engine_hands_in_a_preset_and_plays_on(client: TestClient) -> None:
    created = create(client, **SCREENED, level=1, color="white")
    game_id, token = created["id"], created["token"]
    state = wait_for(lambda: (s := game(client, game_id))["setup"]["black"] and s)
    assert state["setup"] == {"white": False, "black": True} and state["fen"] == START
    state = hand_in(client, game_id, token, WHITE_CAMP).json()
    engine_camp = {
        square: letter.upper()
        for square, letter in expected_fen_pieces(state["fen"]).items()
        if letter.islower() and letter != "p"
    }
    presets = [
        {sq[0] + str(9 - int(sq[1])): letter for sq, letter in preset.items()}
        for preset in PRESETS.values()
    ]
    assert engine_camp in presets
    state = move(client, game_id, token, "a3a4")
    state = wait_for(lambda: (s := game(client, game_id))["ply"] >= 18 and s, timeout=120)
    assert state["turn"] == "white" and state["status"] == "playing"


def expected_fen_pieces(fen: str) -> dict[str, str]:
    """Square names to piece letters of a FEN's board."""
    found = {}
    for index, row in enumerate(fen.split(" ")[0].split("[")[0].split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            else:
                found[chr(97 + file) + str(8 - index)] = char
                file += 1
    return found
