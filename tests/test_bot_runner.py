"""``kradan bot``'s turn (issue 47 item 3), with a server that records what the bot posts and a
player whose answers are set: a count goes before the move, a resignation alone, a draw offer
after the move, a screened setup once, and a position the bot has answered is not answered
twice (a count told back on the stream is the same turn)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kradan.engine.types import PlayResult
from kradan.games import new_board
from kradan.runners import bot as bot_module
from kradan.runners.bot import Bot
from kradan.web.bot_api import game_state

FEN = "8/8/4k3/8/3m4/8/3KR3/8 b - - 0 40"


class Recorder:
    """A server whose game stream sends ``messages`` and that records every call."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages
        self.calls: list[tuple[str, str, Any]] = []

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        yield from self.messages

    def call(self, method: str, path: str, body: Any = None) -> Any:
        self.calls.append((method, path, body))
        return {}


class SetPlayer:
    """A player that answers every position with ``answer`` and counts the questions."""

    def __init__(self, answer: PlayResult) -> None:
        self.answer = answer
        self.asked: list[str] = []

    def new_game(self) -> None:
        pass

    def choose_move(self, board: Any, limit: Any) -> PlayResult:
        self.asked.append(board.fen())
        return self.answer

    def close(self) -> None:
        pass


def _view(**changes: Any) -> dict[str, Any]:
    """A game view as the server tells it, Black (the bot) to move in ``FEN``."""
    view = {
        "moves": [], "clock": None, "status": "playing", "result": "*", "termination": None,
        "turn": "black", "draw_offer": None,
        "can_declare_count": True, "setup": None,
    }  # fmt: skip
    view.update(changes)
    return view


def _full(state: dict[str, Any], variant: str = "makruk", fen: str = FEN,
          options: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    return {
        "type": "gameFull", "id": "g", "variant": variant, "initialFen": fen,
        "options": {"counting": "declared"} if options is None else options,
        "white": {"name": "Anan", "account": "Anan"}, "black": {"name": "Robo", "account": "Robo"},
        "state": state,
    }  # fmt: skip


def _play(messages: list[dict[str, Any]], answer: PlayResult,
          monkeypatch: pytest.MonkeyPatch) -> tuple[Recorder, SetPlayer]:  # fmt: skip
    player = SetPlayer(answer)
    monkeypatch.setattr(bot_module, "make_player", lambda spec, game: player)
    server = Recorder(messages)
    robo = Bot(server, "any", log=lambda _: None)  # type: ignore[arg-type]
    robo.username = "Robo"
    robo.play("g")
    return server, player


def test_a_count_goes_before_the_move_and_the_turn_is_answered_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = new_board("makruk", FEN, counting="declared")
    reply = board.parse_uci("e6f6")
    state = game_state(_view())
    # the count declared is told back on the stream: still Black's turn, the same position
    counted = game_state(_view(count_actions=[{"ply": 0, "kind": "declare", "side": "black"}]))
    answer = PlayResult(move=reply, count="declare")
    server, player = _play([_full(state), {"type": "gameState", **counted}], answer, monkeypatch)
    assert [path for _, path, _ in server.calls] == [
        "/api/bot/game/g/count/declare", "/api/bot/game/g/move/e6f6"]  # fmt: skip
    assert len(player.asked) == 1


def test_a_resignation_is_posted_alone_and_a_draw_offer_after_the_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = game_state(_view())
    server, _ = _play([_full(state)], PlayResult(move=None, resigned=True), monkeypatch)
    assert [path for _, path, _ in server.calls] == ["/api/bot/game/g/resign"]
    reply = new_board("makruk", FEN, counting="declared").parse_uci("e6f5")
    server, _ = _play([_full(state)], PlayResult(move=reply, draw_offered=True), monkeypatch)
    assert [path for _, path, _ in server.calls] == [
        "/api/bot/game/g/move/e6f5", "/api/bot/game/g/draw/yes"]  # fmt: skip


def test_a_screened_setup_is_handed_in_once_and_nothing_is_moved_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = new_board("sittuyin", sittuyin_setup="screened").fen()
    waiting = game_state(_view(turn="white", setup={"white": False, "black": False}))
    white_in = game_state(_view(turn="white", setup={"white": True, "black": False}))
    full = _full(waiting, "sittuyin", start, {"sittuyin_setup": "screened"})
    server, player = _play([full, {"type": "gameState", **white_in}], PlayResult(move=None),
                           monkeypatch)  # fmt: skip
    assert len(server.calls) == 1 and player.asked == []
    method, path, body = server.calls[0]
    assert (method, path) == ("POST", "/api/bot/game/g/setup")
    assert body["arrangement"] in bot_module.PRESETS
