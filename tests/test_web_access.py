"""Who may do what (issue 46's done-when): every route of the API is tried as a stranger (no
session, no seat), with another account's session, and with the other player's seat, and each
that changes a game, a seek or a session is refused where it should be. A route the table below
does not name fails the test, so that each new route is judged here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web_helpers import People, bearer, database_url, serving

#: the routes anyone may read (they change nothing, or only make something new of one's own)
OPEN = {
    ("get", "/api/games"), ("get", "/api/games.pgn"), ("get", "/api/games/{game_id}"),
    ("get", "/api/games/{game_id}/pgn"), ("post", "/api/games"), ("post", "/api/line"),
    ("post", "/api/pgn/read"), ("post", "/api/pgn/write"), ("post", "/api/analysis"),
    ("get", "/api/archive"), ("post", "/api/archive"), ("get", "/api/archive.pgn"),
    ("get", "/api/archive/{game_id}"), ("get", "/api/explorer"),
    ("get", "/api/games/{game_id}/analysis"), ("post", "/api/games/{game_id}/analysis"),
    ("post", "/api/accounts"), ("post", "/api/session"), ("get", "/api/session"),
    ("delete", "/api/session"), ("get", "/api/accounts/{username}"),
    ("get", "/api/accounts/{username}/games.pgn"), ("get", "/api/ratings/{family}"),
    ("get", "/api/seeks"), ("post", "/api/seeks"), ("post", "/api/seeks/{seek_id}/accept"),
    ("get", "/join/{game_id}"), ("get", "/api/games/{game_id}/read-move"),
    ("get", "/api/tournaments"), ("get", "/api/tournaments/{tournament_id}"),
    ("get", "/api/tournaments/{tournament_id}.pgn"),
}  # fmt: skip
#: the routes that act for a seat of a game: (method, path, body)
SEATED = {
    ("post", "/api/games/{game_id}/moves"): {"move": "e3e4"},
    ("post", "/api/games/{game_id}/actions"): {"action": "resign"},
    ("post", "/api/games/{game_id}/abort"): None,
    ("post", "/api/games/{game_id}/claim-win"): None,
    ("post", "/api/games/{game_id}/setup"): {"arrangement": "standard"},
    ("post", "/api/games/{game_id}/rematch"): None,
    ("post", "/api/games/{game_id}/chat"): {"text": "hello"},
}
#: the routes that read for a seat of a game (what only the players may see)
SEAT_READ = {("get", "/api/games/{game_id}/chat")}
#: the routes of an admin
ADMIN = {
    ("delete", "/api/chat/{message_id}"), ("get", "/api/admin/users"),
    ("post", "/api/admin/users/{username}/disable"), ("post", "/api/admin/users/{username}/enable"),
    ("post", "/api/admin/users/{username}/password"), ("put", "/api/admin/users/{username}/admin"),
    ("get", "/api/admin/games"), ("post", "/api/admin/games/{game_id}/abort"),
    ("post", "/api/admin/games/{game_id}/adjudicate"), ("delete", "/api/admin/games/{game_id}"),
    ("get", "/api/admin/chat"), ("get", "/api/admin/access-log"), ("get", "/api/admin/settings"),
    ("put", "/api/admin/settings"), ("get", "/api/admin/audit"),
}  # fmt: skip
#: the routes that act for a signed-in account (its session cookie)
SESSION = {("post", "/api/tokens"), ("post", "/api/tournaments")}
#: the routes of a tournament's organiser (or an admin)
ORGANISED = {
    ("post", "/api/tournaments/{tournament_id}/start"),
    ("post", "/api/tournaments/{tournament_id}/cancel"),
}
#: the routes of a program: an account's API token (a bot's, for /api/bot/, streams and
#: challenges)
TOKEN = {
    ("delete", "/api/tokens"), ("get", "/api/account"), ("post", "/api/bot/account/upgrade"),
    ("get", "/api/stream/event"), ("post", "/api/challenge/{seek_id}/accept"),
    ("post", "/api/challenge/{seek_id}/decline"), ("get", "/api/bot/game/stream/{game_id}"),
    ("post", "/api/bot/game/{game_id}/move/{move}"), ("post", "/api/bot/game/{game_id}/resign"),
    ("post", "/api/bot/game/{game_id}/abort"), ("post", "/api/bot/game/{game_id}/draw/{accept}"),
    ("post", "/api/bot/game/{game_id}/claim-draw"),
    ("post", "/api/bot/game/{game_id}/claim-victory"),
    ("post", "/api/bot/game/{game_id}/count/{kind}"), ("post", "/api/bot/game/{game_id}/setup"),
}  # fmt: skip
#: the routes that act for a seek's owner
OWNED = {("get", "/api/seeks/{seek_id}"), ("delete", "/api/seeks/{seek_id}")}


class World(People):
    """Three accounts; a rated game between Anan (White) and Boon from the lobby; a seek of
    Anan's that is still open."""

    def __init__(self, client: TestClient) -> None:
        super().__init__(client)
        for name in ("Anan", "Boon", "Chai"):
            self.sign_up(name)
        seek = self.call("Anan", "post", "/api/seeks", json={"rated": True, "color": "white"})
        taken = self.call("Boon", "post", f"/api/seeks/{seek.json()['id']}/accept")
        self.game = taken.json()["game"]
        self.black = taken.json()["token"]
        state = self.call("Anan", "get", f"/api/seeks/{seek.json()['id']}",
                          headers=bearer(seek.json()["token"]))  # fmt: skip
        self.white = state.json()["token"]
        other = self.call("Anan", "post", "/api/seeks", json={"name": "x"}).json()
        self.seek, self.seek_token = other["id"], other["token"]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with serving(database_url(tmp_path_factory.mktemp("access"))) as client:
        yield World(client)


def test_every_route_is_judged_here(world: World) -> None:
    spec = world.client.get("/openapi.json").json()
    routes = {
        (method, path)
        for path, ops in spec["paths"].items()
        for method in ops
        if path.startswith(("/api/", "/join/"))  # (the rest are pages and their files)
    }
    judged = OPEN | set(SEATED) | OWNED | SEAT_READ | ADMIN | SESSION | TOKEN | ORGANISED
    assert routes - judged == set(), "a new route: say who may use it"
    assert judged - routes == set(), "a route that is gone"


@pytest.mark.parametrize("route", sorted(SEATED), ids=lambda route: " ".join(route))
def test_a_games_seat_is_proved_by_its_token_not_by_an_account(
    world: World, route: tuple[str, str]
) -> None:
    method, path = route
    url = path.format(game_id=world.game)
    body = SEATED[route]
    kwargs: dict[str, Any] = {} if body is None else {"json": body}
    stranger = world.call(None, method, url, **kwargs)
    assert stranger.status_code == 401, stranger.text
    # an account of no seat, and even the players' own accounts, prove no seat without it
    for who in ("Chai", "Anan", "Boon"):
        signed_in = world.call(who, method, url, **kwargs)
        assert signed_in.status_code == 401, (who, signed_in.text)
    wrong = world.call("Chai", method, url, headers=bearer("x" * 43), **kwargs)
    assert wrong.status_code == 403, wrong.text
    assert world.client.get(f"/api/games/{world.game}").json()["ply"] == 0  # nothing moved


def test_one_side_cannot_act_for_the_other(world: World) -> None:
    url = f"/api/games/{world.game}/moves"
    refused = world.call("Boon", "post", url, json={"move": "e3e4"}, headers=bearer(world.black))
    assert refused.status_code in (403, 409), refused.text  # not Black's turn, or seat
    assert world.client.get(f"/api/games/{world.game}").json()["ply"] == 0


@pytest.mark.parametrize("route", sorted(SEAT_READ), ids=lambda route: " ".join(route))
def test_what_only_the_players_see_needs_a_seat(world: World, route: tuple[str, str]) -> None:
    method, path = route
    url = path.format(game_id=world.game)
    assert world.call(None, method, url).status_code == 401
    for who in ("Chai", "Anan"):  # an account is not a seat, not even the player's own
        assert world.call(who, method, url).status_code == 401
    assert world.call("Chai", method, url, headers=bearer("x" * 43)).status_code == 403
    assert world.call(None, method, url, headers=bearer(world.white)).status_code == 200


@pytest.mark.parametrize("route", sorted(ADMIN), ids=lambda route: " ".join(route))
def test_an_admins_routes_refuse_everyone_else(world: World, route: tuple[str, str]) -> None:
    method, path = route
    url = path.format(message_id=1, username="Chai", game_id=world.game)
    assert world.call(None, method, url).status_code == 401
    for who in ("Chai", "Anan"):
        assert world.call(who, method, url).status_code == 403
    # a seat's token or an API token is no admin's session
    assert world.call(None, method, url, headers=bearer(world.white)).status_code == 401
    state = world.client.get(f"/api/games/{world.game}").json()
    assert (state["status"], state["ply"]) == ("playing", 0)  # nothing changed


@pytest.mark.parametrize("route", sorted(SESSION), ids=lambda route: " ".join(route))
def test_an_accounts_routes_need_its_session(world: World, route: tuple[str, str]) -> None:
    method, path = route
    assert world.call(None, method, path, json={}).status_code == 401
    assert world.call(None, method, path, json={}, headers=bearer(world.white)).status_code == 401


@pytest.mark.parametrize("route", sorted(ORGANISED), ids=lambda route: " ".join(route))
def test_a_tournament_is_run_by_its_organiser_only(world: World, route: tuple[str, str]) -> None:
    """A stranger, a player of the tournament and another account are refused; the tournament
    stays as it was."""
    made = world.call("Chai", "post", "/api/tournaments",
                      json={"system": "swiss", "rounds": 1, "clock": "300+0",
                            "players": ["Anan", "Boon"]})  # fmt: skip
    tid = made.json()["id"]
    method, path = route
    url = path.format(tournament_id=tid)
    assert world.call(None, method, url).status_code == 401
    for who in ("Anan", "Boon"):
        assert world.call(who, method, url).status_code == 403
    assert world.call(None, method, url, headers=bearer(world.white)).status_code == 401
    assert world.call(None, "get", f"/api/tournaments/{tid}").json()["status"] == "created"


@pytest.mark.parametrize("route", sorted(TOKEN), ids=lambda route: " ".join(route))
def test_a_programs_routes_need_an_api_token(world: World, route: tuple[str, str]) -> None:
    """Neither a session, nor a seat's token, nor a made-up one is an API token; a token of an
    account that is no bot opens none of the bot's routes."""
    method, path = route
    url = path.format(seek_id=world.seek, game_id=world.game, move="e3e4", accept="yes",
                      kind="declare")  # fmt: skip
    body = {"json": {"arrangement": "standard"}} if path.endswith("/setup") else {}
    assert world.call(None, method, url, **body).status_code == 401
    assert world.call("Chai", method, url, **body).status_code == 401
    assert world.call(None, method, url, headers=bearer(world.white), **body).status_code == 401
    assert world.call(None, method, url, headers=bearer("x" * 43), **body).status_code == 401
    if path.startswith(("/api/bot/game", "/api/stream", "/api/challenge")):
        token = world.call("Chai", "post", "/api/tokens").json()["token"]
        assert world.call(None, method, url, headers=bearer(token), **body).status_code == 403
        world.call(None, "delete", "/api/tokens", headers=bearer(token))  # 10 at most
    assert world.client.get(f"/api/games/{world.game}").json()["ply"] == 0


@pytest.mark.parametrize("route", sorted(OWNED), ids=lambda route: " ".join(route))
def test_a_seek_answers_only_its_owners_token(world: World, route: tuple[str, str]) -> None:
    method, path = route
    url = path.format(seek_id=world.seek)
    assert world.call(None, method, url).status_code == 403
    assert world.call("Anan", method, url).status_code == 403  # the account is not the token
    assert world.call("Chai", method, url, headers=bearer(world.black)).status_code == 403
    assert world.client.get("/api/seeks").json()["seeks"][0]["id"] == world.seek  # still open


def test_a_session_opens_only_its_account(world: World) -> None:
    assert world.call("Chai", "get", "/api/session").json()["username"] == "Chai"
    forged = world.call(None, "get", "/api/session", cookies={"kradan_session": "x" * 43})
    assert forged.json()["username"] is None
    # a rated seek in another's name is impossible: the seek is the session's account's
    seek = world.call("Chai", "post", "/api/seeks", json={"rated": True}).json()
    listed = {s["id"]: s for s in world.client.get("/api/seeks").json()["seeks"]}
    assert listed[seek["id"]]["account"] == "Chai"


@pytest.mark.parametrize("origin", ["https://evil.example", "null"])
def test_changing_routes_refuse_another_site(world: World, origin: str) -> None:
    """Another site's page, or one with no origin to show (``null``: a sandboxed frame, a
    ``file:`` page)."""
    evil = {"Origin": origin}
    for (method, path), body in SEATED.items():
        url = path.format(game_id=world.game)
        kwargs: dict[str, Any] = {} if body is None else {"json": body}
        answer = world.call("Anan", method, url, headers={**evil, **bearer(world.white)}, **kwargs)
        assert answer.status_code == 403, (path, answer.text)
    for method, path in (("post", "/api/seeks"), ("delete", "/api/session"),
                         ("post", f"/api/seeks/{world.seek}/accept")):  # fmt: skip
        assert world.call("Chai", method, path, headers=evil, json={}).status_code == 403
