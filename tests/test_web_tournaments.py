"""Tournaments in ``kradan serve`` (issue 47 item 1): made, started and cancelled through the JSON
API by their organiser only, bad input refused with typed errors quoting it, rounds paired and
their games made between the accounts, results recorded as games end (a game aborted before a
move is a forfeit), the next round paired when one is complete, standings, tie-breaks,
crosstable and the PGN of every game; a restarted server goes on with the tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.web_helpers import People, bearer, database_url, serving, wait_for

FOUR = ["Anan", "Boon", "Chai", "Dao"]


def _people(client: TestClient, names: list[str]) -> People:
    people = People(client)
    for name in ["Org", *names]:
        assert people.sign_up(name).status_code == 201
    return people


def _create(people: People, who: str = "Org", **body: Any) -> Any:
    asked = {"variant": "makruk", "system": "swiss", "rounds": 3, "clock": "300+0",
             "players": FOUR, **body}  # fmt: skip
    return people.call(who, "post", "/api/tournaments", json=asked)


def _view(people: People, tid: str) -> dict[str, Any]:
    answer = people.call(None, "get", f"/api/tournaments/{tid}")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _seat(people: People, tid: str, who: str) -> tuple[str, str] | None:
    """``who``'s game under way and seat token, as their session gets it from the play link."""
    answer = people.call(who, "get", f"/tournaments/{tid}/play", follow_redirects=False)
    assert answer.status_code == 303
    place = answer.headers["location"]
    if not place.startswith("/games/"):
        return None
    game = place.removeprefix("/games/")
    return game, answer.cookies[f"kradan_seat_{game}"]


def _finish_round(people: People, tid: str, number: int, how: str = "resign") -> None:
    """Every game of round ``number`` ends: White resigns (or the like)."""
    data = _view(people, tid)
    round_ = data["rounds"][number - 1]
    for pairing in round_["pairings"]:
        game, token = _seat(people, tid, pairing["white"]) or ("", "")
        assert game == pairing["game"]
        path = f"/api/games/{game}/abort" if how == "abort" else f"/api/games/{game}/actions"
        body = None if how == "abort" else {"action": "resign"}
        answer = people.call(None, "post", path, json=body, headers=bearer(token))
        assert answer.status_code == 200, answer.text


def _round_done(people: People, tid: str, number: int) -> bool:
    data = _view(people, tid)
    done = len(data["rounds"]) >= number and all(
        p["result"] for p in data["rounds"][number - 1]["pairings"]
    )
    return done


def test_bad_tournaments_are_typed_errors_quoting_the_input(tmp_path: Path) -> None:
    with serving(database_url(tmp_path)) as client:
        people = _people(client, FOUR)
        cases = [
            ({"players": [*FOUR[:3], "Nobody"]}, 404, "'Nobody'"),
            ({"players": ["Anan"]}, 400, "not 1"),
            ({"clock": "fast"}, 400, "'fast'"),
            ({"variant": "tiddlywinks"}, 400, "tiddlywinks"),
            ({"system": "knockout"}, 400, "'knockout'"),
            ({"rounds": 9}, 400, "not 9"),
            ({"rounds": 0}, 400, "not 0"),
            ({"players": ["Anan", "anan", "Boon"]}, 400, "'anan'"),
            ({"system": "arena", "rounds": 0}, 400, "not 0"),
        ]
        for body, status, quoted in cases:
            answer = _create(people, **body)
            assert answer.status_code == status, (body, answer.text)
            assert quoted in answer.json()["error"], (body, answer.text)
        assert _create(people, who=None).status_code == 401  # type: ignore[arg-type]
        assert people.call(None, "get", "/api/tournaments/nothing-here").status_code == 404
        assert people.call(None, "get", "/api/tournaments/nothing-here.pgn").status_code == 404
        assert people.call("Org", "post", "/api/tournaments/nothing/start").status_code == 404


def test_a_swiss_plays_round_by_round_to_its_end(tmp_path: Path) -> None:
    with serving(database_url(tmp_path)) as client:
        people = _people(client, FOUR)
        made = _create(people, name="Club night")
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        assert _view(people, tid)["status"] == "created"
        assert people.call("Anan", "post", f"/api/tournaments/{tid}/start").status_code == 403
        assert people.call(None, "post", f"/api/tournaments/{tid}/start").status_code == 401
        started = people.call("Org", "post", f"/api/tournaments/{tid}/start")
        assert started.status_code == 200, started.text
        assert people.call("Org", "post", f"/api/tournaments/{tid}/start").status_code == 409
        data = started.json()
        assert data["status"] == "playing" and len(data["rounds"]) == 1
        first = data["rounds"][0]["pairings"]
        assert len(first) == 2 and all(p["game"] and p["result"] is None for p in first)
        # the games are ordinary rated, public games between the accounts
        game = client.get(f"/api/games/{first[0]['game']}").json()
        assert game["accounts"] == {"white": first[0]["white"], "black": first[0]["black"]}
        assert game["rated"] is True
        assert _seat(people, tid, "Org") is None  # not a player: back to the tournament
        for number in (1, 2, 3):
            wait_for(lambda n=number: len(_view(people, tid)["rounds"]) >= n, timeout=30)
            _finish_round(people, tid, number)
            wait_for(lambda n=number: _round_done(people, tid, n), timeout=30)
        data = wait_for(lambda: (v := _view(people, tid))["status"] == "finished" and v)
        assert [len(r["pairings"]) for r in data["rounds"]] == [2, 2, 2]
        met = [frozenset((p["white"], p["black"])) for r in data["rounds"] for p in r["pairings"]]
        assert len(set(met)) == 6  # no rematch: each pair once
        assert all(p["result"] == "0-1" for r in data["rounds"] for p in r["pairings"])
        points = {line["player"]: line["points"] for line in data["standings"]}
        assert sum(points.values()) == 6
        black_games = {name: 0 for name in FOUR}
        for r in data["rounds"]:
            for p in r["pairings"]:
                black_games[p["black"]] += 1
        assert points == {name: float(black_games[name]) for name in FOUR}
        assert set(data["standings"][0]["tiebreaks"]) >= {"buchholz", "sonneborn-berger"}
        assert [len(line["cells"]) for line in data["crosstable"]] == [3, 3, 3, 3]
        pgn = client.get(f"/api/tournaments/{tid}.pgn")
        assert pgn.status_code == 200 and pgn.text.count("[Result ") == 6
        listed = client.get("/api/tournaments").json()["tournaments"]
        assert listed[0]["id"] == tid and listed[0]["name"] == "Club night"


def test_a_round_robin_gives_the_odd_player_out_a_bye(tmp_path: Path) -> None:
    with serving(database_url(tmp_path)) as client:
        three = FOUR[:3]
        people = _people(client, three)
        tid = _create(people, system="round-robin", rounds=0, players=three).json()["id"]
        people.call("Org", "post", f"/api/tournaments/{tid}/start")
        for number in (1, 2, 3):
            wait_for(lambda n=number: len(_view(people, tid)["rounds"]) >= n, timeout=30)
            round_ = _view(people, tid)["rounds"][number - 1]
            assert len(round_["pairings"]) == 1 and len(round_["byes"]) == 1
            _finish_round(people, tid, number)
            wait_for(lambda n=number: _round_done(people, tid, n), timeout=30)
        data = wait_for(lambda: (v := _view(people, tid))["status"] == "finished" and v)
        assert data["rounds_planned"] == 3
        assert sorted(b["player"] for r in data["rounds"] for b in r["byes"]) == sorted(three)


def test_an_aborted_game_is_lost_by_the_side_that_never_moved(tmp_path: Path) -> None:
    with serving(database_url(tmp_path)) as client:
        people = _people(client, FOUR[:2])
        tid = _create(people, rounds=1, players=FOUR[:2]).json()["id"]
        people.call("Org", "post", f"/api/tournaments/{tid}/start")
        _finish_round(people, tid, 1, how="abort")
        data = wait_for(lambda: (v := _view(people, tid))["status"] == "finished" and v)
        pairing = data["rounds"][0]["pairings"][0]
        assert pairing["result"] == "0-1" and pairing["forfeit"] is True


def test_the_organiser_cancels_and_no_one_else(tmp_path: Path) -> None:
    with serving(database_url(tmp_path)) as client:
        people = _people(client, FOUR)
        tid = _create(people).json()["id"]
        assert people.call("Anan", "post", f"/api/tournaments/{tid}/cancel").status_code == 403
        cancelled = people.call("Org", "post", f"/api/tournaments/{tid}/cancel")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        assert people.call("Org", "post", f"/api/tournaments/{tid}/start").status_code == 409
        assert people.call("Org", "post", f"/api/tournaments/{tid}/cancel").status_code == 409


def test_an_arena_pairs_its_free_players(tmp_path: Path) -> None:
    with serving(database_url(tmp_path)) as client:
        people = _people(client, FOUR)
        tid = _create(people, system="arena", rounds=5).json()["id"]
        people.call("Org", "post", f"/api/tournaments/{tid}/start")
        data = wait_for(lambda: (v := _view(people, tid))["rounds"] and v, timeout=30)
        assert len(data["rounds"][0]["pairings"]) == 2 and data["ends_at"]
        _finish_round(people, tid, 1)
        # the four are free again: a second wave is paired, no one against their last opponent
        data = wait_for(lambda: len((v := _view(people, tid))["rounds"]) >= 2 and v, timeout=30)
        last = {frozenset((p["white"], p["black"])) for p in data["rounds"][0]["pairings"]}
        now = {frozenset((p["white"], p["black"])) for p in data["rounds"][1]["pairings"]}
        assert now and not (now & last)
        assert {line["player"]: line["points"] for line in data["standings"]}["Anan"] in (0, 2)
        people.call("Org", "post", f"/api/tournaments/{tid}/cancel")


def test_a_result_the_server_missed_is_read_when_it_starts(tmp_path: Path) -> None:
    """A game that ended while its result was not recorded (the server stopped in between,
    simulated by clearing the result in the database): the next server reads it from the game
    and finishes the tournament."""
    import sqlite3

    url = database_url(tmp_path)
    with serving(url) as client:
        people = _people(client, FOUR[:2])
        tid = _create(people, rounds=1, players=FOUR[:2]).json()["id"]
        people.call("Org", "post", f"/api/tournaments/{tid}/start")
        _finish_round(people, tid, 1)
        wait_for(lambda: _view(people, tid)["status"] == "finished")
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE tournament_games SET result = NULL")
        db.execute("UPDATE tournaments SET status = 'playing', ended_at = NULL")
    with serving(url) as client:
        people = People(client)
        data = wait_for(lambda: (v := _view(people, tid))["status"] == "finished" and v)
        assert data["rounds"][0]["pairings"][0]["result"] == "0-1"
        assert [line["points"] for line in data["standings"]] == [1.0, 0.0]


def test_a_restarted_server_goes_on(tmp_path: Path) -> None:
    """The server stops with round 1 under way; the next one records the results of its games
    as they end and pairs round 2."""
    url = database_url(tmp_path)
    with serving(url) as client:
        people = _people(client, FOUR)
        tid = _create(people, rounds=2).json()["id"]
        people.call("Org", "post", f"/api/tournaments/{tid}/start")
        sessions = dict(people.sessions)
    with serving(url) as client:
        people = People(client)
        people.sessions = sessions
        _finish_round(people, tid, 1)
        wait_for(lambda: len(_view(people, tid)["rounds"]) >= 2, timeout=30)
        _finish_round(people, tid, 2)
        data = wait_for(lambda: (v := _view(people, tid))["status"] == "finished" and v)
        assert sum(line["points"] for line in data["standings"]) == 4
