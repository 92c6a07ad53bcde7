"""``kradan serve``'s JSON API over HTTP (Starlette's TestClient, each test on its own SQLite
file; the tests marked ``ON_BOTH`` also on a PostgreSQL database): games of every game, moves,
actions, invitations, PGN, the game list, and bad input of every kind, which leaves the game as
it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kradan.games import games

from .web_helpers import (
    DATABASES,
    act,
    bearer,
    create,
    database_url,
    game,
    move,
    new_database,
    serving,
    without_clock,
)

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


PLAYED = [entry.name for entry in games() if entry.searcher is not None]
COUNTER_MATES = "k6m/2K5/8/8/8/8/7R/8 w - - 0 1"


#: a test that stores games runs on SQLite and on PostgreSQL
ON_BOTH = pytest.mark.parametrize("client", DATABASES, indirect=True)


@pytest.fixture
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """An app on a new database: SQLite, or what ``ON_BOTH`` asks for."""
    kind = getattr(request, "param", "sqlite")
    with serving(new_database(kind, request, tmp_path)) as client:
        yield client


def two_humans(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A game between people: its id, White's token and Black's token."""
    created = create(client, opponent="human", **body)
    assert created["color"] == "white" and created["invite"]
    client.cookies.clear()
    return created["id"], created["token"], created["invite"]


# --- games of every game -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", PLAYED)
def test_people_play_every_game_over_http(client: TestClient, variant: str) -> None:
    game_id, white, black = two_humans(client, variant=variant)
    state = game(client, game_id)
    assert state["variant"] == variant and state["status"] == "playing"
    assert state["players"] == {"white": "human", "black": "human"}
    assert state["turn"] == "white" and state["ply"] == 0 and state["result"] == "*"
    assert state["fen"] == state["start_fen"] and state["legal_moves"]
    first = state["legal_moves"][0]
    after = move(client, game_id, white, first)
    assert after["moves"] == [first] and len(after["san"]) == 1 and after["turn"] == "black"
    second = after["legal_moves"][-1]
    after = move(client, game_id, black, second)
    assert after["moves"] == [first, second] and after["ply"] == 2
    assert game(client, game_id)["fen"] == after["fen"] != state["fen"]
    # each ply's position, so that the browser replays nothing
    assert after["positions"] == [state["fen"], *after["positions"][1:]]
    assert len(after["positions"]) == 3 and after["positions"][-1] == after["fen"]
    assert after["move_squares"][0] and all(sq in first for sq in after["move_squares"][0])


def test_a_game_shows_what_the_contract_says(client: TestClient) -> None:
    created = create(client, variant="thai", options={"counting": "declared"}, opponent="human")
    assert len(created["id"]) == 12 and len(created["token"]) >= 43
    state = game(client, created["id"])
    assert set(state) == {
        "id", "variant", "title", "options", "start_fen", "fen", "moves", "positions",
        "move_squares", "san", "turn",
        "status", "result", "termination", "players", "clock", "legal_moves", "check", "joined",
        "counting", "can_declare_count", "can_stop_count", "can_claim_draw", "draw_offer", "ply",
        "count_actions", "revision", "setup_plies", "seat",
        "thai_san", "setup", "my_setup", "rated", "public", "accounts", "rating_changes",
        "rematch", "can_abort", "abort_in_ms", "gone",
    }  # fmt: skip
    assert state["variant"] == "makruk" and state["title"] == "Makruk"
    assert state["options"] == {"counting": "declared"}
    assert state["clock"] is None and state["check"] is None and state["draw_offer"] is None
    assert "e3e4" in state["legal_moves"] and len(state["legal_moves"]) == 23


def test_the_moves_in_thai_san_for_the_chess_games(client: TestClient) -> None:
    game_id, white, black = two_humans(client, variant="makruk")
    move(client, game_id, white, "e3e4")
    state = move(client, game_id, black, "g6g5")
    assert state["san"] == ["e4", "g5"] and state["thai_san"] == ["จ๔", "ช๕"]
    game_id, white, _ = two_humans(client, variant="alquerque")
    state = move(client, game_id, white, "d2c3")
    assert state["san"] == ["d2-c3"] and state["thai_san"] is None


def test_options_and_positions(client: TestClient) -> None:
    created = create(client, variant="makruk", options={"sut_met": True, "counting": "auto"})
    assert game(client, created["id"])["options"] == {"sut_met": True}
    created = create(client, variant="sittuyin", options={"sittuyin_setup": "alternate"})
    state = game(client, created["id"])
    assert state["options"] == {} and any("@" in m for m in state["legal_moves"])
    created = create(client, variant="ouk", opponent="human", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    state = game(client, created["id"])
    assert state["variant"] == "cambodian" and state["start_fen"].startswith("4k3/")
    created = create(client, variant="alquerque-bell", opponent="human", color="black")
    assert created["color"] == "black"
    assert game(client, created["id"])["players"] == {"white": "human", "black": "human"}


def test_an_invitation_is_taken_up_when_its_seat_comes(client: TestClient) -> None:
    """Issue 46: the view says which sides are known to have a player, so that the inviter's
    board shows the invitation link until the friend comes by it (told at once) or moves."""
    game_id, white, black = two_humans(client)
    assert game(client, game_id)["joined"] == []
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        assert socket.receive_json()["game"]["joined"] == []
        joined = client.get(f"/join/{game_id}", params={"seat": black}, follow_redirects=False)
        assert joined.status_code == 303
        assert socket.receive_json()["game"]["joined"] == ["black"]  # told at once
        client.get(f"/join/{game_id}", params={"seat": black}, follow_redirects=False)
        assert move(client, game_id, white, "e3e4")["joined"] == ["white", "black"]
        assert socket.receive_json()["game"]["ply"] == 1  # the second visit told nobody
    game_id, white, black = two_humans(client)
    assert move(client, game_id, white, "e3e4")["joined"] == ["white"]
    assert move(client, game_id, black, "d6d5")["joined"] == ["white", "black"]
    engine = create(client, opponent="engine", color="white")
    assert game(client, engine["id"])["joined"] == ["black"]
    act(client, engine["id"], engine["token"], "resign")
    assert game(client, engine["id"])["joined"] == ["white", "black"]


def test_every_state_told_has_a_higher_revision_than_the_one_before(client: TestClient) -> None:
    """A page keeps the view with the highest revision: an HTTP answer that reaches it after the
    socket told a newer state (a rated game's rating change after a resignation) is dropped.
    So every state told grows the revision, and an answer carries the revision it was told
    under."""
    game_id, white, black = two_humans(client)
    with client.websocket_connect(f"/api/games/{game_id}/socket") as socket:
        seen = [socket.receive_json()["game"]["revision"]]
        answers = [move(client, game_id, white, "e3e4")["revision"]]
        seen.append(socket.receive_json()["game"]["revision"])
        answers.append(move(client, game_id, black, "d6d5")["revision"])
        seen.append(socket.receive_json()["game"]["revision"])
        answers.append(act(client, game_id, white, "resign").json()["revision"])
        seen.append(socket.receive_json()["game"]["revision"])
    assert seen == sorted(set(seen)), seen  # strictly growing
    assert answers == seen[1:]  # each answer is the state the socket told
    assert game(client, game_id)["revision"] == seen[-1]


def test_a_typed_move_is_read_in_uci_san_or_thai_san(client: TestClient) -> None:
    """Issue 46: the board's move box asks the server which move the text writes."""
    game_id, _, _ = two_humans(client)
    url = f"/api/games/{game_id}/read-move"
    for text in ("e3e4", "e4", "จ๔"):
        answer = client.get(url, params={"move": text})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"uci": "e3e4", "san": "e4"}
    assert game(client, game_id)["ply"] == 0  # nothing was played
    for text in ("e5", "e3e5", "Zz"):
        answer = client.get(url, params={"move": text})
        assert answer.status_code == 422 and repr(text) in answer.json()["error"], answer.text
    assert client.get(url).status_code == 400
    game_id, white, _ = two_humans(
        client, variant="sittuyin", fen="r3k3/8/8/4P3/8/8/8/R3K3[] w - - 0 1"
    )
    assert (
        client.get(f"/api/games/{game_id}/read-move", params={"move": "e5e5f"}).json()["uci"]
        == "e5e5f"
    )
    act(client, game_id, white, "resign")
    assert client.get(f"/api/games/{game_id}/read-move", params={"move": "Ra2"}).status_code == 409


def test_a_check_is_shown(client: TestClient) -> None:
    game_id, white, _ = two_humans(client, fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert move(client, game_id, white, "a1a8")["check"] == "e8"


def test_the_mated_king_stays_marked(client: TestClient) -> None:
    """Issue 46: after a mate the view still names the checked king's square."""
    game_id, white, _ = two_humans(client, fen="k7/8/1K6/8/8/8/8/7R w - - 0 1")
    state = move(client, game_id, white, "h1h8")
    assert state["status"] == "ended" and state["termination"] == "checkmate"
    assert state["san"] == ["Rh8#"] and state["check"] == "a8"
    assert game(client, game_id)["check"] == "a8"


# --- actions -----------------------------------------------------------------------------------


@ON_BOTH
def test_resign(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    response = act(client, game_id, black, "resign")
    assert response.status_code == 200
    state = response.json()
    assert state["status"] == "ended" and state["result"] == "1-0"
    assert state["termination"] == "resignation" and state["legal_moves"] == []
    url = f"/api/games/{game_id}/moves"
    response = client.post(url, json={"move": "e3e4"}, headers=bearer(white))
    assert response.status_code == 409 and "over" in response.json()["error"]
    assert act(client, game_id, white, "resign").status_code == 409


@ON_BOTH
def test_draw_offers(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    assert act(client, game_id, white, "accept_draw").status_code == 409
    state = act(client, game_id, white, "offer_draw").json()
    assert state["draw_offer"] == "white"
    assert act(client, game_id, white, "offer_draw").status_code == 409
    assert act(client, game_id, white, "decline_draw").status_code == 409
    assert act(client, game_id, black, "decline_draw").json()["draw_offer"] is None
    act(client, game_id, black, "offer_draw")
    state = move(client, game_id, white, "e3e4")  # a move by the other side declines it
    assert state["draw_offer"] is None
    act(client, game_id, white, "offer_draw")
    state = act(client, game_id, black, "accept_draw").json()
    assert (state["status"], state["result"], state["termination"]) == (
        "ended", "1/2-1/2", "agreement"
    )  # fmt: skip


def test_claim_draw_and_takeback_refused_when_not_possible(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    response = act(client, game_id, white, "claim_draw")
    assert response.status_code == 409 and "no draw to claim" in response.json()["error"]
    assert act(client, game_id, black, "claim_draw").status_code == 409  # not Black's turn
    response = act(client, game_id, white, "takeback")
    assert response.status_code == 409 and "engine" in response.json()["error"]


def test_a_repetition_is_claimed(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    tokens = [white, black]
    shuffle = ["b1d2", "b8d7", "d2b1", "d7b8"] * 2
    assert not game(client, game_id)["can_claim_draw"]
    for ply, uci in enumerate(shuffle):
        state = move(client, game_id, tokens[ply % 2], uci)
        # the start position stands for the third time after the eighth move, not before
        assert state["can_claim_draw"] is (ply == 7)
    assert state["status"] == "playing"  # a repetition is claimed, it does not end the game
    assert act(client, game_id, black, "claim_draw").status_code == 409  # not Black's turn
    state = act(client, game_id, white, "claim_draw").json()
    assert state["result"] == "1/2-1/2" and state["termination"] == "repetition"
    assert not state["can_claim_draw"]


@ON_BOTH
def test_declared_counting(client: TestClient) -> None:
    game_id, white, black = two_humans(client, fen=COUNTER_MATES, options={"counting": "declared"})
    state = game(client, game_id)
    assert state["can_declare_count"] and not state["can_stop_count"]
    assert act(client, game_id, black, "declare_count").status_code == 409  # not Black's turn
    state = act(client, game_id, white, "declare_count").json()
    assert state["counting"]["declared"] and state["counting"]["counting_side"] == "white"
    assert state["counting"]["honour"] == "board's honour"
    assert state["can_stop_count"] and not state["can_declare_count"]
    assert "counts" in state["counting"]["text"]
    state = act(client, game_id, white, "stop_count").json()
    assert state["counting"] is None
    state = move(client, game_id, white, "h2a2")
    assert (state["result"], state["termination"]) == ("1-0", "checkmate")
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert "[%count declare]" in pgn and "[%count stop]" in pgn
    assert '[VariantOptions "counting=declared"]' in pgn


def test_counting_is_refused_where_it_does_not_apply(client: TestClient) -> None:
    game_id, white, _ = two_humans(client)
    response = act(client, game_id, white, "declare_count")
    assert response.status_code == 409
    assert response.json()["error"].startswith("cannot declare a count: ")
    response = act(client, game_id, white, "stop_count")
    assert response.status_code == 409
    assert response.json()["error"].startswith("cannot stop a count: ")
    game_id, white, _ = two_humans(client, variant="alquerque")
    assert act(client, game_id, white, "declare_count").status_code == 409
    assert act(client, game_id, white, "stop_count").status_code == 409


# --- seats, invitations, cookies, headers ------------------------------------------------------


def test_the_seat_cookie(client: TestClient) -> None:
    response = client.post("/api/games", json={"opponent": "human"})
    created = response.json()
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"kradan_seat_{created['id']}={created['token']}")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    # the client keeps the cookie: it proves White's seat without a header
    response = client.post(f"/api/games/{created['id']}/moves", json={"move": "e3e4"})
    assert response.status_code == 200 and response.json()["moves"] == ["e3e4"]


def test_an_invitation_sets_the_cookie_and_moves_nothing(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    before = game(client, game_id)
    response = client.get(f"/join/{game_id}", params={"seat": black}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == f"/games/{game_id}"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"kradan_seat_{game_id}={black}") and "HttpOnly" in cookie
    after = game(client, game_id)
    assert (before.pop("seat"), after.pop("seat")) == (None, "black")  # the reader's seat only
    assert (before.pop("joined"), after.pop("joined")) == ([], ["black"])
    # both are there: the wait for White's first move runs (tests/test_web_dead_games.py)
    assert before.pop("abort_in_ms") is None and after.pop("abort_in_ms") > 0
    assert before.pop("revision") < after.pop("revision")  # the arrival was told
    assert without_clock(after) == without_clock(before)
    move(client, game_id, white, "e3e4")
    response = client.post(f"/api/games/{game_id}/moves", json={"move": "d6d5"})
    assert response.status_code == 200 and response.json()["ply"] == 2
    client.cookies.clear()
    for seat in ("nonsense", white[:-1] + "x"):
        response = client.get(f"/join/{game_id}", params={"seat": seat}, follow_redirects=False)
        assert response.status_code == 403 and "set-cookie" not in response.headers
    assert client.get(f"/join/{game_id}", follow_redirects=False).status_code == 400
    assert client.get("/join/AAAAAAAAAAAA?seat=x", follow_redirects=False).status_code == 404


def test_a_game_read_with_a_seat_names_that_seat(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    assert game(client, game_id)["seat"] is None  # a spectator
    url = f"/api/games/{game_id}"
    assert client.get(url, headers=bearer(white)).json()["seat"] == "white"
    assert client.get(url, headers=bearer(black)).json()["seat"] == "black"
    assert client.get(url, headers=bearer("nonsense")).json()["seat"] is None
    client.get(f"/join/{game_id}", params={"seat": black}, follow_redirects=False)
    assert client.get(url).json()["seat"] == "black"  # the invitation's cookie


def test_every_response_has_the_content_security_policy(client: TestClient) -> None:
    created = create(client)
    responses = [
        client.get(f"/api/games/{created['id']}"),
        client.get("/api/games/AAAAAAAAAAAA"),
        client.get("/api/games"),
        client.post("/api/games", content=b"x" * 5000),
        client.get("/no/such/page"),
        client.get("/openapi.json"),
    ]
    for response in responses:
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
        assert response.headers["x-content-type-options"] == "nosniff"
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    assert docs.headers["content-security-policy"].startswith("default-src 'self'")
    assert "'unsafe-inline'" not in docs.headers["content-security-policy"].split("style-src")[0]


def test_the_api_is_documented(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/moves",
                 "/api/games/{game_id}/actions", "/api/games/{game_id}/pgn", "/api/games.pgn",
                 "/join/{game_id}"):  # fmt: skip
        assert path in paths
    moves = paths["/api/games/{game_id}/moves"]["post"]
    assert {"200", "401", "403", "404", "409", "413", "422"} <= set(moves["responses"])
    parameter = moves["parameters"][0]
    assert parameter["schema"]["maxLength"] == 12


# --- PGN and the list ------------------------------------------------------------------------


@ON_BOTH
def test_pgn_and_the_list_of_games(client: TestClient) -> None:
    first, white, black = two_humans(
        client, variant="makruk", options={"counting": "declared"}, public=True
    )
    move(client, first, white, "e3e4")
    move(client, first, black, "d6d5")
    act(client, first, white, "resign")
    second, _, _ = two_humans(client, variant="alquerque-bell", public=True)
    text = client.get(f"/api/games/{first}/pgn")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert '[Variant "makruk"]' in text.text and '[VariantOptions "counting=declared"]' in text.text
    assert '[Result "0-1"]' in text.text and "1. e4 d5 0-1" in text.text
    assert '[Termination "resignation"]' in text.text
    everything = client.get("/api/games.pgn").text
    assert everything.count("[Event ") == 2 and '[Variant "alquerque-bell"]' in everything
    listed = client.get("/api/games").json()["games"]
    assert [entry["id"] for entry in listed] == [second, first]
    assert listed[1] == {
        "id": first,
        "variant": "makruk",
        "players": {"white": "human", "black": "human"},
        "result": "0-1",
        "termination": "resignation",
        "created": listed[1]["created"],
        "ply": 2,
    }
    assert listed[1]["created"].endswith("Z")
    assert [e["id"] for e in client.get("/api/games?limit=1").json()["games"]] == [second]


# --- bad input ---------------------------------------------------------------------------------


@ON_BOTH
def test_bad_moves_leave_the_game_unchanged(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    other_id, other_white, _ = two_humans(client)
    move(client, game_id, white, "e3e4")
    before = without_clock(game(client, game_id))
    url = f"/api/games/{game_id}/moves"
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"content": b"{not json", "headers": {"content-type": "application/json"}}, 400, "JSON"),
        ({"json": {"move": 5}}, 400, "move"),
        ({"json": {"move": ["e3e4"]}}, 400, "move"),
        ({"json": {}}, 400, "move"),
        ({"json": {"move": "d6d5", "extra": 1}}, 400, "extra"),
        ({"json": {"move": ""}}, 400, "move"),
        ({"json": {"move": "x" * 65}}, 400, "move"),
        ({"json": ["d6d5"]}, 400, ""),
        ({"json": {"move": "d6d5" + " " * 5000}}, 413, "4096"),
        ({"json": {"move": "d6d4"}, "headers": bearer(black)}, 422, "d6d4"),
        ({"json": {"move": "zz"}, "headers": bearer(black)}, 422, "zz"),
        ({"json": {"move": "e4e5"}, "headers": bearer(black)}, 422, "e4e5"),
        ({"json": {"move": "d6d5"}}, 401, "seat"),
        ({"json": {"move": "d6d5"}, "headers": {"Authorization": "Basic abc"}}, 401, "Bearer"),
        ({"json": {"move": "d6d5"}, "headers": {"Authorization": "Bearer "}}, 401, ""),
        ({"json": {"move": "d6d5"}, "headers": bearer("x" * 43)}, 403, "seat"),
        ({"json": {"move": "d6d5"}, "headers": bearer(other_white)}, 403, "seat"),
        ({"json": {"move": "c3c4"}, "headers": bearer(white)}, 409, "turn"),
        ({"json": {"move": "d6d5"}, "headers": bearer(black)}, 200, ""),
    ]
    for index, (request, status, quoted) in enumerate(cases):
        response = client.post(url, **request)
        assert response.status_code == status, (index, response.text)
        if status != 200:
            assert quoted in response.json()["error"], (index, response.text)
            assert without_clock(game(client, game_id)) == before, index
    assert game(client, game_id)["moves"] == ["e3e4", "d6d5"]
    assert game(client, other_id)["moves"] == []


def test_bad_actions(client: TestClient) -> None:
    game_id, white, black = two_humans(client)
    before = without_clock(game(client, game_id))
    url = f"/api/games/{game_id}/actions"
    for body, headers, status in [
        ({"action": "explode"}, bearer(white), 400),
        ({"action": 1}, bearer(white), 400),
        ({"act": "resign"}, bearer(white), 400),
        ({"action": "resign"}, {}, 401),
        ({"action": "resign"}, bearer("nope"), 403),
        ({"action": "declare_count"}, bearer(black), 409),
    ]:
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == status, response.text
        assert response.json()["error"]
    assert without_clock(game(client, game_id)) == before


def test_unknown_games_and_huge_ids(client: TestClient) -> None:
    created = create(client, opponent="human")
    token = created["token"]
    for game_id in ("AAAAAAAAAAAA", "a" * 1000, "9" * 40, "short", "bad%20chars!", "-" * 11):
        for method, path, body in [
            ("GET", f"/api/games/{game_id}", None),
            ("GET", f"/api/games/{game_id}/pgn", None),
            ("POST", f"/api/games/{game_id}/moves", {"move": "e3e4"}),
            ("POST", f"/api/games/{game_id}/actions", {"action": "resign"}),
        ]:
            response = client.request(method, path, json=body, headers=bearer(token))
            assert response.status_code == 404, (game_id, path, response.text)
            assert "unknown game" in response.json()["error"]
    assert game(client, created["id"])["status"] == "playing"


def test_no_moves_over_get(client: TestClient) -> None:
    created = create(client, opponent="human")
    for path in ("moves", "actions"):
        response = client.get(f"/api/games/{created['id']}/{path}", params={"move": "e3e4"})
        assert response.status_code == 405
    assert game(client, created["id"])["moves"] == []


def test_bad_new_games(client: TestClient) -> None:
    for body, quoted in [
        ({"variant": "chess"}, "'chess'"),
        ({"variant": 5}, "variant"),
        ({"level": 0}, "level"),
        ({"level": 21}, "level"),
        ({"level": "5"}, "level"),
        ({"level": 5.5}, "level"),
        ({"color": "red"}, "color"),
        ({"opponent": "robot"}, "opponent"),
        ({"clock": "five minutes"}, "clock"),
        ({"clock": "0+0"}, "'0+0'"),
        ({"clock": 300}, "clock"),
        ({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "king"),
        ({"fen": "x" * 201}, "fen"),
        ({"options": {"sut_met": "yes"}}, "sut_met"),
        ({"options": {"nonsense": True}}, "'nonsense'"),
        ({"options": {"counting": "declared"}, "variant": "alquerque"}, "counting"),
        ({"options": [1, 2]}, "options"),
        ({"unknown": 1}, "unknown"),
    ]:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, (body, response.text)
        assert quoted in response.json()["error"], (body, response.text)
    response = client.post("/api/games", content=b"{", headers={"content-type": "application/json"})
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_an_odd_start_position_is_played_with_a_warning(client: TestClient) -> None:
    """Issue 43: a position Fairy-Stockfish loads is played; the answer says what is odd."""
    odd = create(client, opponent="human", fen="4k3/8/8/8/8/8/8/3KR3 w - - 0 1")
    assert odd["warnings"] == ["the side not to move is in check"]
    state = game(client, odd["id"])
    assert state["status"] == "playing" and "e1e8" not in state["legal_moves"]
    assert create(client, opponent="human")["warnings"] == []


def test_oversize_bodies_are_refused(client: TestClient) -> None:
    response = client.post("/api/games", json={"variant": "makruk", "fen": "x" * 5000})
    assert response.status_code == 413 and "4096" in response.json()["error"]

    def chunks() -> Iterator[bytes]:
        yield b'{"variant": "'
        for _ in range(10):
            yield b"m" * 1000
        yield b'"}'

    headers = {"content-type": "application/json"}
    response = client.post("/api/games", content=chunks(), headers=headers)
    assert response.status_code == 413
    assert client.get("/api/games").json()["games"] == []


def test_bad_list_queries(client: TestClient) -> None:
    for query in ("limit=0", "limit=501", "limit=abc", "limit=99999999999999999999999"):
        response = client.get(f"/api/games?{query}")
        assert response.status_code == 400 and "limit" in response.json()["error"]
    assert client.get("/api/games?limit=500").status_code == 200


def test_cross_origin_posts_are_refused(client: TestClient) -> None:
    game_id, white, _ = two_humans(client)
    headers = {**bearer(white), "Origin": "http://evil.example"}
    response = client.post(f"/api/games/{game_id}/moves", json={"move": "e3e4"}, headers=headers)
    assert response.status_code == 403 and "evil.example" in response.json()["error"]
    response = client.post("/api/games", json={}, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    headers = {**bearer(white), "Origin": "http://127.0.0.1"}
    response = client.post(f"/api/games/{game_id}/moves", json={"move": "e3e4"}, headers=headers)
    assert response.status_code == 200


# --- random input never breaks the server ------------------------------------------------------

HANDLED = {200, 201, 400, 401, 403, 404, 405, 409, 413, 422}


def test_random_moves_and_bodies_get_answers_not_crashes(tmp_path: Path) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    json_values = st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=8,
    )
    move_texts = st.text(max_size=20) | st.sampled_from(
        ["e3e4", "R@a1", "hc3,b2c3", "b3xd3xd5", "c2c3", "a1a1", "e3e4m", "@@", "h", ",", "0000"]
    )
    with serving(database_url(tmp_path)) as client:
        ids = {}
        for variant in ("makruk", "sittuyin", "alquerque", "alquerque-bell"):
            ids[variant] = two_humans(client, variant=variant)
        snapshots = {name: without_clock(game(client, found[0])) for name, found in ids.items()}

        @settings(
            max_examples=150,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(
            variant=st.sampled_from(sorted(ids)),
            text=move_texts,
            body=json_values,
            action=st.text(max_size=15),
        )
        def probe(variant: str, text: str, body: Any, action: str) -> None:
            game_id, white, _ = ids[variant]
            url = f"/api/games/{game_id}"
            answers = [
                client.post(f"{url}/moves", json={"move": text}, headers=bearer(white)),
                client.post(f"{url}/moves", json=body, headers=bearer(white)),
                client.post(f"{url}/actions", json={"action": action}, headers=bearer(white)),
                client.post("/api/games", json=body),
            ]
            for response in answers:
                assert response.status_code in HANDLED, response.text
                if response.status_code >= 400:
                    assert response.json()["error"]
            # a move that was legal is taken back by starting over: compare only what failed
            if answers[0].status_code == 200:
                ids[variant] = two_humans(client, variant=variant)
                snapshots[variant] = without_clock(game(client, ids[variant][0]))
            else:
                assert without_clock(game(client, ids[variant][0])) == snapshots[variant]

        probe()


@ON_BOTH
def test_idle_unfinished_games_are_forgotten_and_loaded_again(client: TestClient) -> None:
    """An abandoned game without a clock, a person to move: forgotten once memory is full, and
    it comes back from the store as it was (the fuzzed server grew to 2 GB without this)."""
    hall = client.app.state.hall  # type: ignore[attr-defined]
    hall.kept = 2
    first, white, black = two_humans(client)
    move(client, first, white, "e3e4")
    before = game(client, first)
    two_humans(client)
    two_humans(client)
    assert first not in hall.rooms
    again = game(client, first)
    assert without_clock(again) == without_clock(before) and again["clock"] == before["clock"]
    assert again["revision"] > before["revision"]  # a page keeps what the loaded room tells
    move(client, first, black, "e6e5")  # and play goes on
    assert game(client, first)["ply"] == 2


@ON_BOTH
def test_finished_games_are_forgotten_and_loaded_again(client: TestClient) -> None:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    hall.kept = 2
    first, white, black = two_humans(client)
    move(client, first, white, "e3e4")
    act(client, first, black, "resign")
    before = game(client, first)
    two_humans(client)
    two_humans(client)
    assert first not in hall.rooms
    again = game(client, first)
    assert without_clock(again) == without_clock(before) and again["clock"] == before["clock"]
    assert again["revision"] > before["revision"]  # a page keeps what the loaded room tells
    assert client.get(f"/api/games/{first}/pgn").text.count("1. e4") == 1


def test_a_bug_answers_500_with_the_guards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from kradan.web import create_app
    from kradan.web.hall import Hall

    async def broken(self: Hall, public_id: str) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Hall, "get", broken)
    app = create_app(database_url(tmp_path))
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        response = client.get("/api/games/AAAAAAAAAAAA")
    assert response.status_code == 500 and response.json() == {"error": "internal server error"}
    assert response.headers["content-security-policy"] == "default-src 'self'"


def test_the_new_game_page_offers_makruk_first_and_skips_games_it_cannot_draw(
    client: TestClient,
) -> None:
    from kradan import games as registry

    from .test_games import TOY

    page = client.get("/").text
    assert '<option value="makruk" selected>Makruk</option>' in page
    registry.register(TOY)  # a game registered from outside has no browser board yet
    try:
        page = client.get("/").text
        assert "Tic-tac-toe" not in page and "Alquerque (R.C. Bell)" in page
    finally:
        registry.unregister(TOY.name)


def test_only_rooms_that_lose_nothing_are_idle() -> None:
    """What :func:`kradan.web.hall.idle` keeps in memory: a watched game, one in the middle
    of a move, one whose clock runs, one in a screened setup, one where the engine is to move."""
    import asyncio
    from types import SimpleNamespace

    from kradan import Board
    from kradan.web.hall import idle

    def room(**changes: object) -> SimpleNamespace:
        fields: dict[str, object] = dict(
            subscribers=set(), lock=asyncio.Lock(), playing=True, clock=None, in_setup=False,
            board=Board(), is_engine=lambda color: False,
        )  # fmt: skip
        fields.update(changes)
        return SimpleNamespace(**fields)

    # a held lock, taken without running an event loop (another test's may still be running
    # in this thread): a lock whose locked() says so is all idle() asks of it
    locked = SimpleNamespace(locked=lambda: True)
    assert idle(room())  # a person to move, no clock: it reloads as it was
    assert idle(room(playing=False, clock=SimpleNamespace(running=True)))  # ended
    assert not idle(room(subscribers={"a socket"}))
    assert not idle(room(lock=locked))
    assert not idle(room(clock=SimpleNamespace(running=True)))
    assert idle(room(clock=SimpleNamespace(running=None)))  # a clock not yet started
    assert not idle(room(in_setup=True))
    assert not idle(room(is_engine=lambda color: color))  # White, the engine, is to move


def test_a_view_replays_its_counts_for_a_bot(client: TestClient) -> None:
    """Issue 47 item 3, RULES.md's declared counting: a game's moves and ``count_actions``
    replay its history exactly, so that ``kradan bot`` rebuilds the position with its count
    (the bot's gameState carries both)."""
    from kradan.runners.bot import Bot
    from kradan.web.bot_api import game_state

    fen = "8/8/4k3/8/3m4/8/3KR3/8 b - - 0 40"
    game_id, white, black = two_humans(
        client, variant="makruk", options={"counting": "declared"}, fen=fen
    )
    assert act(client, game_id, black, "declare_count").status_code == 200
    move(client, game_id, black, "e6f6")
    move(client, game_id, white, "e2e3")
    counting = game(client, game_id)
    full = {"variant": "makruk", "initialFen": fen, "options": {"counting": "declared"}}
    assert Bot.position(full, game_state(counting)).fen() == counting["fen"]
    without = Bot.position(full, {**game_state(counting), "count_actions": []})
    assert without.fen() != counting["fen"]  # the count is part of the position
    assert act(client, game_id, black, "stop_count").status_code == 200
    move(client, game_id, black, "f6g6")
    view = game(client, game_id)
    assert view["count_actions"] == [
        {"ply": 0, "kind": "declare", "side": "black"},
        {"ply": 2, "kind": "stop", "side": "black"},
    ]
    board = Bot.position(full, game_state(view))
    assert board.fen() == view["fen"] and len(board.move_stack) == 5
