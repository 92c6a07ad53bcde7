"""Games nobody plays (issue 46): a player aborts a game before both sides have moved; the server
aborts a game whose first moves do not come in time, also when it starts again; a player whose
opponent has left claims the game once the opponent has been gone long enough. The waits run on
a clock the tests move (``hall.now``), never on sleeps; one test lets the server's own timer
fire, with a wait of a fifth of a second."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kradan.web import create_app
from kradan.web.hall import idle
from kradan.web.room.dead_rules import DeadGameRules
from kradan.web.room.presence import Presence
from tests.web_helpers import (
    BASE,
    TEST_SETTINGS,
    People,
    bearer,
    create,
    database_url,
    game,
    move,
    next_game,
    next_game_within,
    serving,
    wait_for,
)


class FakeClock:
    """A clock the test moves by hand (ahead of the real one, so that the times stored with
    the games, which are real, never come after it)."""

    def __init__(self) -> None:
        self.now = float(int(time.time()) + 1000)  # whole seconds: halves add exactly

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    with serving(database_url(tmp_path)) as client:
        clock = FakeClock()
        client.app.state.hall.now = clock  # type: ignore[attr-defined]
        yield client, clock


def humans(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A game between people (the invitation not yet taken): id, White's and Black's token."""
    body.setdefault("public", True)  # listed, so that the tests see the list's status
    created = create(client, opponent="human", **body)
    client.cookies.clear()
    return created["id"], created["token"], created["invite"]


def join(client: TestClient, game_id: str, token: str) -> None:
    """Take a seat by its invitation link."""
    answer = client.get(f"/join/{game_id}", params={"seat": token}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    client.cookies.clear()


def post(client: TestClient, game_id: str, what: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/{what}", headers=bearer(token))


def seat_cookie(game_id: str, token: str) -> dict[str, str]:
    return {"cookie": f"kradan_seat_{game_id}={token}"}


# --- abort ---------------------------------------------------------------------------------------


def test_a_player_aborts_before_both_sides_have_moved(served: tuple[TestClient, FakeClock]) -> None:
    client, _ = served
    game_id, white, black = humans(client)
    state = game(client, game_id)
    assert state["can_abort"] is True and state["gone"] is None
    aborted = post(client, game_id, "abort", white)
    assert aborted.status_code == 200, aborted.text
    state = aborted.json()
    assert (state["status"], state["result"], state["termination"]) == ("ended", "*", "aborted")
    assert state["can_abort"] is False and state["legal_moves"] == []
    assert game(client, game_id)["termination"] == "aborted"
    refused = client.post(f"/api/games/{game_id}/moves", json={"move": "e3e4"},
                          headers=bearer(black))  # fmt: skip
    assert refused.status_code == 409 and "over" in refused.json()["error"]
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert '[Result "*"]' in pgn and '[Termination "abandoned"]' in pgn
    listed = client.get("/api/games").json()["games"][0]
    assert listed["id"] == game_id and listed["termination"] == "aborted"


def test_the_abort_ends_once_each_side_has_moved(served: tuple[TestClient, FakeClock]) -> None:
    client, _ = served
    game_id, white, black = humans(client)
    move(client, game_id, white, "e3e4")
    assert game(client, game_id)["can_abort"] is True  # Black has not moved yet
    move(client, game_id, black, "d6d5")
    assert game(client, game_id)["can_abort"] is False
    refused = post(client, game_id, "abort", white)
    assert refused.status_code == 409 and "both sides have moved" in refused.json()["error"]
    assert game(client, game_id)["status"] == "playing"
    # Black may abort after White's first move, through the actions too
    game_id, white, black = humans(client)
    move(client, game_id, white, "e3e4")
    answer = client.post(f"/api/games/{game_id}/actions", json={"action": "abort"},
                         headers=bearer(black))  # fmt: skip
    assert answer.status_code == 200 and answer.json()["termination"] == "aborted"


def test_a_game_against_the_engine_can_be_aborted(served: tuple[TestClient, FakeClock]) -> None:
    client, _ = served
    created = create(client, opponent="engine", level=1)
    client.cookies.clear()
    state = game(client, created["id"])
    assert state["can_abort"] is True and state["abort_in_ms"] is None  # no wait runs
    assert post(client, created["id"], "abort", created["token"]).json()["result"] == "*"


def test_an_abort_over_the_socket(served: tuple[TestClient, FakeClock]) -> None:
    client, _ = served
    game_id, white, _ = humans(client)
    url = f"/api/games/{game_id}/socket"
    with client.websocket_connect(url, headers=seat_cookie(game_id, white)) as socket:
        next_game(socket)
        socket.send_json({"type": "action", "action": "abort"})
        state = next_game(socket)
    assert state["status"] == "ended" and state["termination"] == "aborted"


def test_an_aborted_rated_game_moves_no_rating(served: tuple[TestClient, FakeClock]) -> None:
    client, _ = served
    people = People(client)
    people.sign_up("Anan")
    people.sign_up("Boon")
    seek = people.call("Anan", "POST", "/api/seeks", json={"rated": True, "color": "white"})
    taken = people.call("Boon", "POST", f"/api/seeks/{seek.json()['id']}/accept").json()
    game_id, black = taken["game"], taken["token"]
    aborted = post(client, game_id, "abort", black).json()
    assert aborted["rated"] is True and aborted["termination"] == "aborted"
    assert aborted["rating_changes"] is None
    for name in ("Anan", "Boon"):
        page = people.call(None, "GET", f"/api/accounts/{name}").json()
        assert page["ratings"].get("makruk", {}).get("games", 0) == 0, page


# --- the server's abort ---------------------------------------------------------------------------


def test_the_first_move_must_come_in_time_once_both_are_there(
    served: tuple[TestClient, FakeClock],
) -> None:
    client, clock = served
    game_id, white, black = humans(client)
    clock.advance(3600)  # the invitation is not taken: nothing runs out
    state = game(client, game_id)
    assert state["status"] == "playing" and state["abort_in_ms"] is None
    join(client, game_id, black)  # both are there now: White has 30 s
    assert game(client, game_id)["abort_in_ms"] == 30_000
    clock.advance(29)
    move(client, game_id, white, "e3e4")  # in time; Black's 30 s start with it
    assert game(client, game_id)["abort_in_ms"] == 30_000
    clock.advance(30)
    state = game(client, game_id)  # the wait is over: seen, the game is aborted
    assert (state["status"], state["result"], state["termination"]) == ("ended", "*", "aborted")
    assert state["abort_in_ms"] is None
    late = client.post(f"/api/games/{game_id}/moves", json={"move": "d6d5"},
                       headers=bearer(black))  # fmt: skip
    assert late.status_code == 409


def test_a_late_first_move_is_refused_and_aborts(served: tuple[TestClient, FakeClock]) -> None:
    client, clock = served
    game_id, white, black = humans(client)
    join(client, game_id, black)
    clock.advance(31)
    late = client.post(f"/api/games/{game_id}/moves", json={"move": "e3e4"},
                       headers=bearer(white))  # fmt: skip
    assert late.status_code == 409 and "aborted" in late.json()["error"]
    assert game(client, game_id)["moves"] == []


def test_a_game_never_started_is_aborted_after_a_day(served: tuple[TestClient, FakeClock]) -> None:
    client, clock = served
    invitation, _, _ = humans(client)
    engine = create(client, opponent="engine", level=1)["id"]
    client.cookies.clear()
    clock.advance(23 * 3600)
    assert game(client, invitation)["status"] == game(client, engine)["status"] == "playing"
    clock.advance(3600)
    assert game(client, invitation)["termination"] == "aborted"
    assert game(client, engine)["termination"] == "aborted"


def test_a_restart_aborts_the_games_past_their_wait(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    with serving(url) as client:
        old, _, _ = humans(client)
        fresh, _, _ = humans(client)
    with sqlite3.connect(tmp_path / "games.db") as database:
        two_days_ago = datetime.now(UTC).replace(tzinfo=None) - timedelta(days=2)
        database.execute(
            "UPDATE games SET updated_at = ? WHERE public_id = ?",
            (two_days_ago.isoformat(sep=" "), old),
        )
    with serving(url) as client:
        # the list reads the stored rows: the resumed server has aborted the old game itself
        listed = {row["id"]: row for row in client.get("/api/games").json()["games"]}
        assert listed[old]["termination"] == "aborted" and listed[old]["result"] == "*"
        assert listed[fresh]["termination"] is None


def test_the_servers_own_timer_aborts_the_game(tmp_path: Path) -> None:
    """The one test on the real clock: a fifth of a second for the first move, and the socket
    hears of the abort without anyone asking."""
    rules = DeadGameRules(first_move_s=0.2)
    app = create_app(database_url(tmp_path), dead_games=rules, settings=TEST_SETTINGS)
    with TestClient(app, base_url=BASE) as client:
        game_id, white, black = humans(client)
        url = f"/api/games/{game_id}/socket"
        with client.websocket_connect(url, headers=seat_cookie(game_id, white)) as socket:
            next_game(socket)
            join(client, game_id, black)
            while (state := next_game_within(socket, 30))["status"] == "playing":
                pass  # the abort is due 0.2 s after the start; 30 s means no timer woke
    assert state["termination"] == "aborted"


def test_a_forgotten_room_stops_its_timer_and_one_waiting_for_a_move_stays(
    served: tuple[TestClient, FakeClock],
) -> None:
    client, _ = served
    hall = client.app.state.hall  # type: ignore[attr-defined]
    invitation, _, _ = humans(client)  # only the long wait: counted from the stored time
    waiting, _, black = humans(client)
    join(client, waiting, black)  # the short wait runs: it lives in memory only
    forgotten = hall.rooms[invitation]
    assert forgotten.abort_task is not None
    assert idle(forgotten) and not idle(hall.rooms[waiting])

    def trim() -> None:
        hall.kept = 0
        hall.trim()

    client.portal.call(trim)  # type: ignore[union-attr]
    assert invitation not in hall.rooms and waiting in hall.rooms
    assert forgotten.abort_task is None  # its timer went with it
    again = game(client, invitation)  # loaded again, its wait with it
    assert again["status"] == "playing" and hall.rooms[invitation].abort_task is not None


# --- presence and the claim ---------------------------------------------------------------------


def started(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A game between people in which both sides have moved."""
    game_id, white, black = humans(client, **body)
    move(client, game_id, white, "e3e4")
    move(client, game_id, black, "d6d5")
    return game_id, white, black


def test_a_player_claims_the_game_the_opponent_left(served: tuple[TestClient, FakeClock]) -> None:
    client, clock = served
    game_id, white, black = started(client)
    url = f"/api/games/{game_id}/socket"
    with client.websocket_connect(url, headers=seat_cookie(game_id, white)) as white_socket:
        # Black has no connection yet (it moved over HTTP)
        assert next_game(white_socket)["gone"]["side"] == "black"
        with client.websocket_connect(url, headers=seat_cookie(game_id, black)) as black_socket:
            assert next_game(black_socket)["gone"] is None
            assert next_game(white_socket)["gone"] is None  # told that Black is back
            refused = post(client, game_id, "claim-win", white)
            assert refused.status_code == 409 and "connected" in refused.json()["error"]
        state = next_game(white_socket)  # Black closed its page
        assert state["gone"] == {"side": "black", "away_ms": 0, "claim_in_ms": 120_000}
        early = post(client, game_id, "claim-win", white)
        assert early.status_code == 409 and "120 s" in early.json()["error"]
        clock.advance(119.5)
        assert game(client, game_id)["gone"]["claim_in_ms"] == 500
        assert post(client, game_id, "claim-win", white).status_code == 409
        clock.advance(0.5)
        claimed = post(client, game_id, "claim-win", white)
        assert claimed.status_code == 200, claimed.text
        state = claimed.json()
        assert (state["status"], state["result"], state["termination"]) == (
            "ended", "1-0", "abandoned",
        )  # fmt: skip
        assert state["gone"] is None
        assert next_game(white_socket)["result"] == "1-0"
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert '[Result "1-0"]' in pgn and '[Termination "abandoned"]' in pgn


def test_the_wait_follows_the_clock(served: tuple[TestClient, FakeClock]) -> None:
    client, _ = served
    for clock_text, wait in (("60+0", 20_000), ("300+3", 42_000), ("900+10", 120_000)):
        game_id, _, _ = started(client, clock=clock_text)
        assert game(client, game_id)["gone"]["claim_in_ms"] == wait, clock_text


def test_a_request_of_the_absent_seat_restarts_its_wait(
    served: tuple[TestClient, FakeClock],
) -> None:
    client, clock = served
    game_id, _, black = started(client)
    clock.advance(100)
    assert game(client, game_id)["gone"] == {
        "side": "white", "away_ms": 100_000, "claim_in_ms": 20_000,
    }  # fmt: skip
    client.get(f"/api/games/{game_id}", headers=bearer(black))  # Black asks: it is there
    assert game(client, game_id)["gone"]["side"] == "white"
    clock.advance(20)
    assert game(client, game_id)["gone"]["side"] == "white"  # away longest
    assert post(client, game_id, "claim-win", black).json()["result"] == "0-1"


def test_a_socket_that_proves_its_seat_later_counts(served: tuple[TestClient, FakeClock]) -> None:
    client, clock = served
    game_id, white, black = started(client)
    url = f"/api/games/{game_id}/socket"
    with client.websocket_connect(url) as socket:
        next_game(socket)
        socket.send_json({"type": "auth", "token": black})
        clock.advance(500)
        assert game(client, game_id)["gone"]["side"] == "white"  # Black is here
        assert post(client, game_id, "claim-win", white).status_code == 409
    clock.advance(120)
    assert post(client, game_id, "claim-win", white).json()["result"] == "1-0"


def test_what_cannot_be_claimed(served: tuple[TestClient, FakeClock]) -> None:
    client, clock = served
    game_id, white, black = humans(client)
    move(client, game_id, white, "e3e4")
    clock.advance(1000)
    early = post(client, game_id, "claim-win", black)
    assert early.status_code == 409 and "abort it instead" in early.json()["error"]
    created = create(client, opponent="engine", level=1)
    client.cookies.clear()
    refused = post(client, created["id"], "claim-win", created["token"])
    assert refused.status_code == 409 and "engine" in refused.json()["error"]
    assert game(client, created["id"])["gone"] is None


def test_a_claim_without_mating_material_is_a_draw(served: tuple[TestClient, FakeClock]) -> None:
    client, clock = served
    game_id, white, black = humans(client, fen="4k3/8/8/8/8/8/r7/4K3 w - - 0 1")
    move(client, game_id, white, "e1d1")
    move(client, game_id, black, "a2a3")
    clock.advance(300)
    claimed = post(client, game_id, "claim-win", white).json()  # a lone king cannot mate
    assert (claimed["result"], claimed["termination"]) == ("1/2-1/2", "abandoned")


def test_a_rated_claim_is_rated(served: tuple[TestClient, FakeClock]) -> None:
    client, clock = served
    people = People(client)
    people.sign_up("Anan")
    people.sign_up("Boon")
    seek = people.call("Anan", "POST", "/api/seeks", json={"rated": True, "color": "white"})
    taken = people.call("Boon", "POST", f"/api/seeks/{seek.json()['id']}/accept").json()
    game_id, black = taken["game"], taken["token"]
    white = people.call("Anan", "GET", f"/api/seeks/{seek.json()['id']}",
                        headers=bearer(seek.json()["token"])).json()["token"]  # fmt: skip
    move(client, game_id, white, "e3e4")
    move(client, game_id, black, "d6d5")
    clock.advance(121)
    assert post(client, game_id, "claim-win", black).json()["result"] == "0-1"
    changes = wait_for(lambda: game(client, game_id)["rating_changes"], timeout=20)
    assert changes["black"]["change"] > 0 > changes["white"]["change"]


# --- the presence and the rules alone -------------------------------------------------------------


def test_presence_counts_sockets_and_the_time_away() -> None:
    clock = FakeClock()
    presence = Presence(clock)
    assert presence.seen_at == {True: None, False: None} and presence.away_for(True) == 0
    clock.advance(5)
    presence.arrive(True)
    presence.arrive(True)  # a second tab
    presence.leave(True)
    clock.advance(10)
    assert presence.here(True) and presence.away_for(True) == 0
    presence.leave(True)
    clock.advance(7)
    assert not presence.here(True) and presence.away_for(True) == 7
    assert presence.seen_at[True] == clock.now - 17 and presence.away_for(False) == 22


def test_the_claim_wait_rule() -> None:
    from kradan.web.model import Clock

    rules = DeadGameRules()
    assert rules.claim_wait(None) == 120
    assert rules.claim_wait(Clock(30_000, 0)) == rules.claim_wait(Clock(180_000, 0)) == 20
    assert rules.claim_wait(Clock(180_000, 2000)) == 26
    assert rules.claim_wait(Clock(600_000, 5000)) == 80
    assert DeadGameRules(claim_min_s=2, claim_max_s=3).claim_wait(None) == 3
