"""The bot API and ``kradan bot`` (issue 47 item 3), against a real ``kradan serve``: an account
makes an API token, becomes a bot, takes a challenge from a person and plays the game to its
end through the event and game streams; a challenge in a game it does not play is turned down;
an account that has played cannot become a bot; the routes refuse a missing or wrong token."""

from __future__ import annotations

import http.cookiejar
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.loopback import free_port
from kradan.runners.bot import Bot, BotError, BotServer
from tests.test_web_restart import start_server
from tests.web_helpers import PASSWORD, database_url, wait_for


class Person:
    """A browser: its own cookies, JSON calls."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if token:
            request.add_header("authorization", f"Bearer {token}")
        with self.opener.open(request, timeout=30) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def status(self, method: str, path: str, body: Any = None, token: str | None = None) -> int:
        try:
            self.call(method, path, body, token)
        except urllib.error.HTTPError as error:
            return error.code
        return 200


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    folder: Path = tmp_path_factory.mktemp("bot")
    process = start_server(port, database_url(folder))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(20)


def _member(base: str, name: str) -> Person:
    person = Person(base)
    person.call("POST", "/api/accounts", {"username": name, "password": PASSWORD})
    return person


def test_a_bot_takes_a_challenge_and_plays_it_out(base: str) -> None:
    robo, anan = _member(base, "Robo"), _member(base, "Anan")
    token = robo.call("POST", "/api/tokens")["token"]
    guest = Person(base)
    assert guest.call("GET", "/api/account", token=token)["bot"] is False
    assert guest.status("GET", "/api/stream/event", token=token) == 403  # not a bot yet

    logged: list[str] = []
    bot = Bot(BotServer(base, token), "random", log=logged.append)
    assert bot.account(upgrade=True) == "Robo"
    playing = threading.Thread(target=bot.run, kwargs={"games": 1}, daemon=True)
    playing.start()

    seek = anan.call("POST", "/api/seeks", {"to": "Robo", "color": "white", "clock": "300+0"})
    state = wait_for(lambda: _taken(anan, seek), timeout=30)
    game, mine = state["game"], state["token"]
    assert state["color"] == "white"
    anan.call("POST", f"/api/games/{game}/moves", {"move": "e3e4"}, mine)
    wait_for(lambda: anan.call("GET", f"/api/games/{game}")["ply"] >= 2, timeout=60)
    view = anan.call("GET", f"/api/games/{game}")
    assert view["players"]["black"] == "Robo" and view["accounts"]["black"] == "Robo"
    reply = view["moves"][1]
    assert reply in _legal_after(base, game, 1)
    anan.call("POST", f"/api/games/{game}/actions", {"action": "resign"}, mine)
    playing.join(60)
    assert not playing.is_alive() and bot.errors == []
    assert bot.finished == 1
    assert any(f"game {game}" in line for line in logged)
    assert anan.call("GET", f"/api/games/{game}")["result"] == "0-1"


def _taken(person: Person, seek: dict[str, Any]) -> dict[str, Any] | None:
    state = person.call("GET", f"/api/seeks/{seek['id']}", token=seek["token"])
    return state if state["status"] == "accepted" else None


def _legal_after(base: str, game: str, ply: int) -> list[str]:
    """The legal moves of the game's position after ``ply`` plies (from its positions)."""
    from kradan.games import new_board

    view = Person(base).call("GET", f"/api/games/{game}")
    board = new_board(view["variant"], view["positions"][ply])
    return [move.uci() for move in board.legal_moves]


def test_a_bot_turns_down_a_game_it_does_not_play(base: str) -> None:
    robo2, nok = _member(base, "Robo2"), _member(base, "Nok")
    token = robo2.call("POST", "/api/tokens")["token"]
    bot = Bot(BotServer(base, token), "random", frozenset({"cambodian"}), log=lambda _: None)
    bot.account(upgrade=True)
    threading.Thread(target=bot.run, daemon=True).start()
    seek = nok.call("POST", "/api/seeks", {"to": "Robo2", "variant": "makruk"})
    # the bot declines: the challenge goes
    wait_for(lambda: nok.status("GET", f"/api/seeks/{seek['id']}", token=seek["token"]) == 404,
             timeout=30)  # fmt: skip


def test_only_a_new_account_becomes_a_bot_and_tokens_are_checked(base: str) -> None:
    dao, eak = _member(base, "Dao"), _member(base, "Eak")
    seek = dao.call("POST", "/api/seeks", {"to": "Eak"})
    eak.call("POST", f"/api/seeks/{seek['id']}/accept", {})
    token = dao.call("POST", "/api/tokens")["token"]
    assert Person(base).status("POST", "/api/bot/account/upgrade", {}, token) == 409
    with pytest.raises(BotError, match="no bot account"):
        Bot(BotServer(base, token), "random").account()
    stranger = Person(base)
    assert stranger.status("POST", "/api/tokens") == 401  # no session
    assert stranger.status("GET", "/api/account") == 401
    assert stranger.status("GET", "/api/account", token="x" * 43) == 401
    # a token, once revoked, opens nothing
    assert stranger.status("DELETE", "/api/tokens", token=token) == 200
    assert stranger.status("GET", "/api/account", token=token) == 401


def _bot_account(base: str, name: str) -> tuple[Person, str]:
    """A new member upgraded to a bot, and its API token."""
    member = _member(base, name)
    token = member.call("POST", "/api/tokens")["token"]
    member.call("POST", "/api/bot/account/upgrade", {}, token)
    return member, token


def _challenged(base: str, person: Person, bot: str, token: str, **seek: Any) -> tuple[str, str]:
    """``person`` challenges the bot ``bot`` (as White), which takes it through the API: the
    game's id and the person's seat token."""
    posted = person.call("POST", "/api/seeks", {"to": bot, "color": "white", **seek})
    taken = Person(base).call("POST", f"/api/challenge/{posted['id']}/accept", {}, token)
    state = person.call("GET", f"/api/seeks/{posted['id']}", token=posted["token"])
    assert state["game"] == taken["game"] and taken["color"] == "black"
    return taken["game"], state["token"]


def test_a_bot_aborts_offers_and_answers_draws_through_its_routes(base: str) -> None:
    """Issue 47 item 3: besides moving and resigning, a bot aborts, offers, accepts and declines
    draws, and is refused what the rules refuse now (a claim, a count, an unknown answer)."""
    ploy, bot = _member(base, "Ploy"), Person(base)
    _, token = _bot_account(base, "Robo4")
    game, mine = _challenged(base, ploy, "Robo4", token)
    route = f"/api/bot/game/{game}"
    assert bot.call("GET", "/api/account", token=token)["bot"] is True
    assert bot.status("POST", f"{route}/claim-victory", {}, token) == 409  # nobody has moved
    assert bot.status("POST", f"{route}/count/declare", {}, token) == 409  # not its turn
    assert bot.status("POST", f"{route}/count/maybe", {}, token) == 422
    assert bot.status("POST", f"{route}/draw/perhaps", {}, token) == 422
    assert bot.call("POST", f"{route}/abort", {}, token)["termination"] == "aborted"

    game, mine = _challenged(base, ploy, "Robo4", token)
    route = f"/api/bot/game/{game}"
    ploy.call("POST", f"/api/games/{game}/moves", {"move": "e3e4"}, mine)
    assert bot.status("POST", f"{route}/abort", {}, token) == 200  # Black has not moved
    game, mine = _challenged(base, ploy, "Robo4", token)
    route = f"/api/bot/game/{game}"
    ploy.call("POST", f"/api/games/{game}/moves", {"move": "e3e4"}, mine)
    bot.call("POST", f"{route}/move/d6d5", {}, token)
    assert bot.status("POST", f"{route}/abort", {}, token) == 409  # both have moved
    assert bot.status("POST", f"{route}/draw/no", {}, token) == 409  # no offer to decline
    assert bot.call("POST", f"{route}/draw/yes", {}, token)["draw_offer"] == "black"  # offered
    assert ploy.call("GET", f"/api/games/{game}")["draw_offer"] == "black"
    ploy.call("POST", f"/api/games/{game}/actions", {"action": "decline_draw"}, mine)
    ploy.call("POST", f"/api/games/{game}/actions", {"action": "offer_draw"}, mine)
    assert bot.call("POST", f"{route}/draw/no", {}, token)["draw_offer"] is None  # declined
    ploy.call("POST", f"/api/games/{game}/actions", {"action": "offer_draw"}, mine)
    ended = bot.call("POST", f"{route}/draw/yes", {}, token)  # accepted
    assert (ended["status"], ended["result"]) == ("ended", "1/2-1/2")
    # a stranger's token, and a bot that does not play the game, are refused
    _, other = _bot_account(base, "Robo5")
    assert bot.status("POST", f"{route}/draw/yes", {}, other) == 403
    assert bot.status("POST", f"{route}/draw/yes", {}, "x" * 43) == 401


def test_a_bot_hands_in_a_screened_sittuyin_setup_and_plays_on(base: str) -> None:
    """Issue 47 item 3: ``kradan bot`` hands in a camp of its own in Sittuyin's screened setup
    (one of the library's presets), then plays the game's moves."""
    _, token = _bot_account(base, "Robo6")
    bot = Bot(BotServer(base, token), "random", log=lambda _: None)
    assert bot.account() == "Robo6"
    playing = threading.Thread(target=bot.run, kwargs={"games": 1}, daemon=True)
    playing.start()
    mya = _member(base, "Mya")
    posted = mya.call("POST", "/api/seeks", {"to": "Robo6", "color": "white", "variant":
                      "sittuyin", "options": {"sittuyin_setup": "screened"}})  # fmt: skip
    state = wait_for(lambda: _taken(mya, posted), timeout=30)
    game, mine = state["game"], state["token"]
    view = wait_for(lambda: _handed_in(mya, game, "black"), timeout=60)
    assert view["setup"] == {"white": False, "black": True} and view["ply"] == 0
    mya.call("POST", f"/api/games/{game}/setup", {"arrangement": "standard"}, mine)
    view = mya.call("GET", f"/api/games/{game}")
    assert view["setup"] is None and view["setup_plies"] == view["ply"] > 0
    first = view["ply"]
    board_after = _legal_after(base, game, first)
    mya.call("POST", f"/api/games/{game}/moves", {"move": board_after[0]}, mine)
    wait_for(lambda: mya.call("GET", f"/api/games/{game}")["ply"] >= first + 2, timeout=60)
    assert mya.call("GET", f"/api/games/{game}")["moves"][first + 1] in _legal_after(
        base, game, first + 1
    )
    mya.call("POST", f"/api/games/{game}/actions", {"action": "resign"}, mine)
    playing.join(60)
    assert not playing.is_alive() and bot.errors == []


def _handed_in(person: Person, game: str, side: str) -> dict[str, Any] | None:
    view = person.call("GET", f"/api/games/{game}")
    return view if view["setup"] and view["setup"][side] else None
