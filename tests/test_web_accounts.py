"""Accounts, sessions, the lobby and ratings over the JSON API (issue 46 items 1-3 and 6): sign
up and in with Argon2-hashed passwords and throttled failures; seeks, challenges and quick
pairing; a rated game that moves both ratings by Glicko-2; a rating period played through the
API."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kradan.ratings import Rating, rate_game
from tests.web_helpers import (
    PASSWORD,
    People,
    act,
    bearer,
    database_url,
    game,
    move,
    serving,
    wait_for,
)

Users = People


@pytest.fixture
def users(tmp_path: Path) -> Iterator[Users]:
    with serving(database_url(tmp_path)) as client:
        yield Users(client)


def test_sign_up_sign_in_and_out(users: Users, tmp_path: Path) -> None:
    created = users.sign_up("Somchai")
    assert created.status_code == 201 and created.json() == {"username": "Somchai", "admin": False}
    assert "httponly" in created.headers["set-cookie"].lower()
    assert users.call("Somchai", "GET", "/api/session").json()["username"] == "Somchai"
    assert users.call(None, "GET", "/api/session").json() == {"username": None, "admin": False}
    # the name is taken in any case; a bad name or a short password is a 400 naming it
    taken = users.sign_up("somCHAI")
    assert taken.status_code == 409 and "somCHAI" in taken.json()["error"]
    assert users.sign_up("a").status_code == 400
    assert "'x y z'" in users.sign_up("x y z").json()["error"]
    assert users.sign_up("สมชาย_2").status_code == 201  # a Thai username
    assert users.sign_up("Nok", "short").status_code == 400
    # the password is kept as an Argon2id hash, never as itself
    with sqlite3.connect(tmp_path / "games.db") as db:
        (stored,) = db.execute("SELECT password_hash FROM accounts WHERE key='somchai'").fetchone()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored

    signed_out = users.call("Somchai", "DELETE", "/api/session")
    assert signed_out.status_code == 204
    assert users.call("Somchai", "GET", "/api/session").json()["username"] is None  # gone
    wrong = users.call(None, "POST", "/api/session",
                       json={"username": "somchai", "password": "not it at all"})  # fmt: skip
    assert wrong.status_code == 401
    right = users.call(None, "POST", "/api/session",
                       json={"username": "SOMCHAI", "password": PASSWORD})  # fmt: skip
    assert right.status_code == 200 and right.json()["username"] == "Somchai"


def test_failed_sign_ins_are_throttled(users: Users) -> None:
    users.sign_up("Malee")
    body = {"username": "malee", "password": "guess guess"}
    codes = [users.call(None, "POST", "/api/session", json=body).status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]
    # the right password must wait too: the throttle is on the account, not the guess
    waiting = users.call(None, "POST", "/api/session",
                         json={"username": "malee", "password": PASSWORD})  # fmt: skip
    assert waiting.status_code == 429 and "wait" in waiting.json()["error"]


def test_an_account_change_from_another_site_is_refused(users: Users) -> None:
    response = users.client.post(
        "/api/accounts",
        json={"username": "Mallory", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert response.status_code == 403
    assert users.sign_up("Mallory").status_code == 201  # nothing was made


def _play_rated(
    users: Users, white_first: str, other: str, result: str
) -> tuple[dict[str, Any], str, str]:
    """``white_first`` posts a rated seek as White, ``other`` takes it, and the game ends with
    ``result`` (by resignation, or a draw agreed): the game's final view and both seats'
    tokens."""
    posted = users.call(white_first, "POST", "/api/seeks",
                        json={"variant": "makruk", "rated": True, "color": "white",
                              "clock": "300+3"})  # fmt: skip
    assert posted.status_code == 201, posted.text
    seek_id, seek_token = posted.json()["id"], posted.json()["token"]
    taken = users.call(other, "POST", f"/api/seeks/{seek_id}/accept")
    assert taken.status_code == 200, taken.text
    game_id, black = taken.json()["game"], taken.json()["token"]
    assert taken.json()["color"] == "black"
    state = users.call(white_first, "GET", f"/api/seeks/{seek_id}", headers=bearer(seek_token))
    assert state.json()["status"] == "accepted" and state.json()["game"] == game_id
    white = state.json()["token"]
    move(users.client, game_id, white, "e3e4")
    move(users.client, game_id, black, "d6d5")
    if result == "1/2-1/2":
        assert act(users.client, game_id, white, "offer_draw").status_code == 200
        assert act(users.client, game_id, black, "accept_draw").status_code == 200
    else:
        loser = black if result == "1-0" else white
        assert act(users.client, game_id, loser, "resign").status_code == 200
    wait_for(lambda: game(users.client, game_id)["rating_changes"], timeout=20)
    return game(users.client, game_id), white, black


def test_a_rated_game_from_a_seek_moves_both_ratings(users: Users) -> None:
    users.sign_up("Anan")
    users.sign_up("Boon")
    view, _, _ = _play_rated(users, "Anan", "Boon", "1-0")
    assert view["rated"] and view["players"] == {"white": "Anan", "black": "Boon"}
    assert view["accounts"] == {"white": "Anan", "black": "Boon"}
    expected_white, expected_black = rate_game(Rating(), Rating(), 1.0)
    changes = view["rating_changes"]
    assert changes["white"]["before"] == 1500 and changes["black"]["before"] == 1500
    assert changes["white"]["after"] == pytest.approx(expected_white.rating, abs=0.05)
    assert changes["black"]["after"] == pytest.approx(expected_black.rating, abs=0.05)
    assert changes["white"]["change"] > 0 > changes["black"]["change"]

    page = users.call(None, "GET", "/api/accounts/anan").json()
    assert page["username"] == "Anan"
    assert page["ratings"]["makruk"]["games"] == 1
    assert page["ratings"]["makruk"]["rating"] == pytest.approx(expected_white.rating, abs=0.05)
    assert page["games"][0]["id"] == view["id"] and page["games"][0]["color"] == "white"
    assert page["games"][0]["rating_change"] == changes["white"]["change"]
    pgn = users.call(None, "GET", "/api/accounts/Boon/games.pgn").text
    assert '[White "Anan"]' in pgn and '[Black "Boon"]' in pgn
    assert users.call(None, "GET", "/api/accounts/nobody").status_code == 404


def test_a_rating_period_through_the_api_follows_glicko2(users: Users) -> None:
    for name in ("Chai", "Dao", "Eak"):
        users.sign_up(name)
    ratings = {name: Rating() for name in ("Chai", "Dao", "Eak")}
    games = [("Chai", "Dao", "1-0"), ("Dao", "Eak", "1/2-1/2"), ("Eak", "Chai", "0-1"),
             ("Chai", "Dao", "0-1")]  # fmt: skip
    for white, black, result in games:
        _play_rated(users, white, black, result)
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        ratings[white], ratings[black] = rate_game(ratings[white], ratings[black], score)
    for name, expected in ratings.items():
        shown = users.call(None, "GET", f"/api/accounts/{name}").json()["ratings"]["makruk"]
        assert shown["rating"] == pytest.approx(expected.rating, abs=0.05)
        assert shown["deviation"] == pytest.approx(expected.deviation, abs=0.05)
    board = users.call(None, "GET", "/api/ratings/makruk").json()
    assert board["family"] == "makruk"
    assert board["players"] == []  # every rating is still provisional (deviation over 110)
    assert users.call(None, "GET", "/api/ratings/cambodian").json()["family"] == "ouk"
    assert users.call(None, "GET", "/api/ratings/chess").status_code == 404


def test_rated_seeks_need_accounts_and_challenges_reach_only_their_player(users: Users) -> None:
    users.sign_up("Fah")
    users.sign_up("Gun")
    users.sign_up("Hom")
    as_guest = users.call(None, "POST", "/api/seeks", json={"rated": True})
    assert as_guest.status_code == 401
    seek = users.call("Fah", "POST", "/api/seeks", json={"rated": True}).json()
    assert users.call(None, "POST", f"/api/seeks/{seek['id']}/accept").status_code == 401
    own = users.call("Fah", "POST", f"/api/seeks/{seek['id']}/accept")
    assert own.status_code == 409
    # a challenge: only Gun (and Fah) see it, only Gun may take it
    challenge = users.call("Fah", "POST", "/api/seeks", json={"to": "gun"}).json()
    seen = {who: [s["id"] for s in users.call(who, "GET", "/api/seeks").json()["seeks"]]
            for who in ("Fah", "Gun", "Hom", None)}  # fmt: skip
    assert challenge["id"] in seen["Fah"] and challenge["id"] in seen["Gun"]
    assert challenge["id"] not in seen["Hom"] and challenge["id"] not in seen[None]
    assert users.call("Hom", "POST", f"/api/seeks/{challenge['id']}/accept").status_code == 409
    assert users.call("Gun", "POST", f"/api/seeks/{challenge['id']}/accept").status_code == 200
    unknown = users.call("Fah", "POST", "/api/seeks", json={"to": "nobody"})
    assert unknown.status_code == 404


def test_a_rating_range_keeps_out_the_players_outside_it(users: Users) -> None:
    users.sign_up("Ice")
    users.sign_up("Jam")
    narrow = users.call("Ice", "POST", "/api/seeks",
                        json={"rated": True, "rating_range": [1600, 1800]}).json()  # fmt: skip
    refused = users.call("Jam", "POST", f"/api/seeks/{narrow['id']}/accept")
    assert refused.status_code == 409 and "1500" in refused.json()["error"]
    bad = users.call("Ice", "POST", "/api/seeks", json={"rated": True, "rating_range": [9, 1]})
    assert bad.status_code == 400


def test_quick_pairing_takes_a_fitting_seek_or_posts_one(users: Users) -> None:
    first = users.call(None, "POST", "/api/seeks",
                       json={"quick": True, "clock": "300+3", "name": "Kai"})  # fmt: skip
    assert first.status_code == 201 and first.json()["game"] is None
    other_clock = users.call(None, "POST", "/api/seeks",
                             json={"quick": True, "clock": "60+0", "name": "Lek"})  # fmt: skip
    assert other_clock.status_code == 201  # no fit: a seek of its own
    paired = users.call(None, "POST", "/api/seeks",
                        json={"quick": True, "clock": "300+3", "name": "Mint"})  # fmt: skip
    assert paired.status_code == 200, paired.text
    view = game(users.client, paired.json()["game"])
    assert sorted(view["players"].values()) == ["Kai", "Mint"]
    assert not view["rated"]
    state = users.call(None, "GET", f"/api/seeks/{first.json()['id']}",
                       headers=bearer(first.json()["token"])).json()  # fmt: skip
    assert state["game"] == paired.json()["game"]
    assert users.call(None, "POST", "/api/seeks", json={"name": "\x00"}).status_code == 400


def test_a_seek_its_owner_stops_asking_after_is_gone(users: Users) -> None:
    posted = users.call(None, "POST", "/api/seeks", json={"name": "Nam"}).json()
    lobby = users.client.app.state.lobby  # type: ignore[attr-defined]
    assert [s["id"] for s in users.call(None, "GET", "/api/seeks").json()["seeks"]] == [
        posted["id"]
    ]
    lobby.seeks[posted["id"]].seen -= 31
    assert users.call(None, "GET", "/api/seeks").json()["seeks"] == []
    gone = users.call(None, "GET", f"/api/seeks/{posted['id']}", headers=bearer(posted["token"]))
    assert gone.status_code == 404
    again = users.call(None, "POST", "/api/seeks", json={"name": "Nam"}).json()
    not_yours = users.call(None, "DELETE", f"/api/seeks/{again['id']}", headers=bearer("x" * 43))
    assert not_yours.status_code == 403
    withdrawn = users.call(None, "DELETE", f"/api/seeks/{again['id']}",
                           headers=bearer(again["token"]))  # fmt: skip
    assert withdrawn.status_code == 204
    assert users.call(None, "GET", "/api/seeks").json()["seeks"] == []


def test_a_signed_in_player_plays_under_the_accounts_name(users: Users) -> None:
    users.sign_up("Ploy")
    created = users.call("Ploy", "POST", "/api/games", json={"opponent": "human"}).json()
    view = game(users.client, created["id"])
    assert view["players"]["white"] == "Ploy" and view["accounts"]["white"] == "Ploy"
    guest = users.call(None, "POST", "/api/games", json={"opponent": "human", "name": "Pim"})
    assert game(users.client, guest.json()["id"])["players"]["white"] == "Pim"
    pgn = users.client.get(f"/api/games/{guest.json()['id']}/pgn").text
    assert '[White "Pim"]' in pgn


def test_a_rematch_swaps_the_colours_and_keeps_the_rest(users: Users) -> None:
    users.sign_up("Rin")
    users.sign_up("Som")
    ended, white_token, black_token = _play_rated(users, "Rin", "Som", "0-1")
    game_id = ended["id"]
    offered = users.client.post(f"/api/games/{game_id}/rematch", headers=bearer(black_token))
    assert offered.json() == {"status": "offered", "game": None, "token": None, "color": None}
    assert game(users.client, game_id)["rematch"] == {"offered_by": "black", "game": None}
    agreed = users.client.post(f"/api/games/{game_id}/rematch", headers=bearer(white_token))
    answer = agreed.json()
    assert answer["status"] == "agreed" and answer["color"] == "black"
    new = game(users.client, answer["game"])
    assert new["players"] == {"white": "Som", "black": "Rin"} and new["rated"]
    assert new["accounts"] == {"white": "Som", "black": "Rin"}
    assert new["clock"] is not None and new["clock"]["increment_ms"] == 3000
    assert game(users.client, game_id)["rematch"] == {"offered_by": None, "game": answer["game"]}
    # the one who offered collects its seat by asking again; it moves first now
    collected = users.client.post(f"/api/games/{game_id}/rematch", headers=bearer(black_token))
    assert collected.json()["game"] == answer["game"] and collected.json()["color"] == "white"
    move(users.client, answer["game"], collected.json()["token"], "e3e4")
    # a game in play has no rematch
    busy = users.client.post(f"/api/games/{answer['game']}/rematch",
                             headers=bearer(collected.json()["token"]))  # fmt: skip
    assert busy.status_code == 409


def test_the_engine_agrees_to_a_rematch_at_once(users: Users) -> None:
    created = users.client.post("/api/games", json={"opponent": "engine", "level": 1}).json()
    assert act(users.client, created["id"], created["token"], "resign").status_code == 200
    answer = users.client.post(f"/api/games/{created['id']}/rematch",
                               headers=bearer(created["token"])).json()  # fmt: skip
    assert answer["status"] == "agreed" and answer["color"] == "black"
    assert game(users.client, answer["game"])["players"]["white"] == "engine level 1"


def test_a_rated_game_against_the_engine_rates_against_its_levels_ladder(users: Users) -> None:
    from kradan.engine.levels import level_rating
    from kradan.ratings import rate

    users.sign_up("Tong")
    assert users.call(None, "POST", "/api/games", json={"rated": True}).status_code == 401
    by_invite = users.call("Tong", "POST", "/api/games", json={"rated": True, "opponent": "human"})
    assert by_invite.status_code == 400
    created = users.call("Tong", "POST", "/api/games",
                         json={"rated": True, "level": 12, "color": "white"}).json()  # fmt: skip
    assert act(users.client, created["id"], created["token"], "resign").status_code == 200
    wait_for(lambda: game(users.client, created["id"])["rating_changes"], timeout=20)
    changes = game(users.client, created["id"])["rating_changes"]
    engine = Rating(level_rating(12), 60.0)
    expected = rate(Rating(), [(engine, 0.0)])
    assert changes["white"]["after"] == pytest.approx(expected.rating, abs=0.05)
    assert changes["black"] == {"before": level_rating(12), "after": level_rating(12),
                                "change": 0.0, "deviation": 60.0}  # fmt: skip
    shown = users.call(None, "GET", "/api/accounts/Tong").json()["ratings"]["makruk"]
    assert shown["games"] == 1
