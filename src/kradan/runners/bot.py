"""An engine that plays on a ``kradan serve`` through its bot API (``kradan bot``; the server's
side is :mod:`kradan.web.bot_api`).

The bot reads the server's event stream: it takes the challenges of the games it plays (and
turns down the others), and plays each game that starts in a thread of its own, with a player
of its own (:func:`~kradan.runners.players.make_player`: kradan's engine at a level, or any UCI
or XBoard engine). In a game it reads the game's stream and, on its turn, rebuilds the position
from the start and the moves, asks the player for a move on the clocks the server sent, and
posts it. Standard library HTTP only: the bot needs no web extra.
"""

from __future__ import annotations

import json
import random
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..engine.types import Limit, PlayResult
from ..errors import KradanError
from ..games import CountingBoard, new_board, replay_options
from ..sittuyin_setup import PRESETS
from .players import make_player

#: seconds a stream may stay silent before the bot calls it lost (the server sends an empty
#: line every 6 s)
STREAM_TIMEOUT = 30.0


class BotError(KradanError):
    """The server refused the bot, or could not be reached; the message says which."""


@dataclass
class BotServer:
    """The server at ``url`` (``http://host:port``), as the account of ``token`` sees it."""

    url: str
    token: str

    def _request(self, method: str, path: str, body: Any = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method)
        request.add_header("authorization", f"Bearer {self.token}")
        request.add_header("content-type", "application/json")
        return request

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON answer to ``method path``; :class:`BotError` quoting the server's reason."""
        try:
            with urllib.request.urlopen(self._request(method, path, body), timeout=60) as answer:
                text = answer.read()
        except urllib.error.HTTPError as error:
            reason = error.read().decode("utf-8", "replace")[:300]
            raise BotError(f"{method} {path}: {error.code} {reason}") from None
        except (urllib.error.URLError, OSError) as error:
            raise BotError(f"{method} {path}: the server cannot be reached ({error})") from None
        return json.loads(text) if text else None

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The objects of an NDJSON stream (keep-alive empty lines skipped)."""
        try:
            answer = urllib.request.urlopen(self._request("GET", path), timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as error:
            reason = error.read().decode("utf-8", "replace")[:300]
            raise BotError(f"GET {path}: {error.code} {reason}") from None
        except (urllib.error.URLError, OSError) as error:
            raise BotError(f"GET {path}: the server cannot be reached ({error})") from None
        with answer:
            for line in answer:
                if line.strip():
                    yield json.loads(line)


@dataclass
class Bot:
    """The bot of ``server``, playing with the player ``engine`` names (a player spec), in the
    games of ``variants`` (empty: every game); ``log`` says what it does."""

    server: BotServer
    engine: str
    variants: frozenset[str] = frozenset()
    log: Callable[[str], None] = print
    finished: int = 0
    username: str = ""
    threads: list[threading.Thread] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def account(self, upgrade: bool = False) -> str:
        """The bot's username; with ``upgrade``, the account becomes a bot's first if need be."""
        me = self.server.call("GET", "/api/account")
        if not me["bot"]:
            if not upgrade:
                raise BotError(f"{me['username']} is no bot account: run with --upgrade")
            me = self.server.call("POST", "/api/bot/account/upgrade", {})
            self.log(f"{me['username']} is now a bot account")
        self.username = str(me["username"])
        return self.username

    def run(self, games: int | None = None) -> None:
        """Answer challenges and play games until ``games`` have finished (``None``: forever)."""
        for event in self.server.stream("/api/stream/event"):
            kind = event.get("type")
            if kind == "challenge":
                self._answer(event["challenge"])
            elif kind == "gameStart":
                self._start(event["game"]["id"])
            elif kind == "gameFinish":
                self.finished += 1
                self.log(f"game {event['game']['id']} finished")
                if games is not None and self.finished >= games:
                    break
        for thread in self.threads:
            thread.join(60)

    def _answer(self, challenge: dict[str, Any]) -> None:
        variant, seek = challenge["variant"], challenge["id"]
        if self.variants and variant not in self.variants:
            self.log(f"declined challenge {seek} ({variant})")
            self.server.call("POST", f"/api/challenge/{seek}/decline", {})
            return
        taken = self.server.call("POST", f"/api/challenge/{seek}/accept", {})
        self.log(f"accepted challenge {seek} from {challenge['name']}: game {taken['game']}")

    def _start(self, game_id: str) -> None:
        thread = threading.Thread(target=self._play_safely, args=(game_id,), daemon=True,
                                  name=f"kradan-bot-{game_id}")  # fmt: skip
        self.threads.append(thread)
        thread.start()

    def _play_safely(self, game_id: str) -> None:
        try:
            self.play(game_id)
        except (KradanError, OSError, ValueError) as error:
            self.errors.append(f"{game_id}: {error}")
            self.log(f"game {game_id}: {error}")

    def play(self, game_id: str) -> None:
        """Play game ``game_id`` to its end (or until its stream ends): hand in a screened
        setup, then on each turn a move (a count first, when the player declares or stops
        one in declared counting)."""
        full: dict[str, Any] | None = None
        player: Any = None
        side = ""
        handed_in = False
        moved_at: int | None = None  # the ply of the last position the bot answered
        try:
            for message in self.server.stream(f"/api/bot/game/stream/{game_id}"):
                if message.get("type") == "gameFull":
                    full = message
                    mine = full["white"].get("account") == self.username
                    side = "white" if mine else "black"
                    player = make_player(self.engine, game=full["variant"])
                    player.new_game()
                    state = full["state"]
                elif message.get("type") == "gameState":
                    state = message
                else:
                    continue
                if full is None or state["status"] != "started":
                    continue
                setup = state.get("setup")
                if setup is not None:  # Sittuyin's screened setup goes on
                    if not setup[side] and not handed_in:
                        handed_in = True
                        self.server.call("POST", f"/api/bot/game/{game_id}/setup",
                                         {"arrangement": self.arrangement()})  # fmt: skip
                    continue
                ply = len(state["moves"].split())
                if state["turn"] != side or moved_at == ply:
                    continue
                moved_at = ply
                self._answer_turn(game_id, self._choose(player, full, state))
        finally:
            if player is not None:
                player.close()

    def _answer_turn(self, game_id: str, result: Any) -> None:
        """Post what the player answered on its turn: a resignation, or its count (declared
        counting) and its move, and a draw offer where it made one."""
        route = f"/api/bot/game/{game_id}"
        if result.resigned:
            self.server.call("POST", f"{route}/resign", {})
            return
        if result.count is not None:
            self.server.call("POST", f"{route}/count/{result.count}", {})
        if result.move is not None:
            self.server.call("POST", f"{route}/move/{result.move.uci()}", {})
        if result.draw_offered:
            self.server.call("POST", f"{route}/draw/yes", {})

    @staticmethod
    def arrangement() -> str:
        """The bot's camp in a screened setup: one of the library's presets, at random (as the
        server's own engine hands in)."""
        return random.choice(sorted(PRESETS))

    @staticmethod
    def position(full: dict[str, Any], state: dict[str, Any]) -> Any:
        """The game's board rebuilt from its start: the moves, and the counts declared and
        stopped between them (declared counting), so that the player sees the count. A
        screened setup's camps are replayed as the drops they became."""
        start = new_board(full["variant"], full["initialFen"], **full["options"])
        options = replay_options(start, full["options"])
        board = new_board(full["variant"], full["initialFen"], **options)
        counts = sorted(state.get("count_actions") or [], key=lambda action: action["ply"])
        waiting = iter(counts)
        action = next(waiting, None)
        for ply, uci in enumerate([*state["moves"].split(), None]):
            while action is not None and action["ply"] == ply:
                if not isinstance(board, CountingBoard):
                    raise BotError(f"{full['variant']} has no counting, yet the server sent "
                                   f"{action!r}")  # fmt: skip
                board.declare_count() if action["kind"] == "declare" else board.stop_count()
                action = next(waiting, None)
            if uci is not None:
                board.push_uci(uci)
        return board

    @classmethod
    def _choose(cls, player: Any, full: dict[str, Any], state: dict[str, Any]) -> PlayResult:
        """The player's answer in the position ``state`` reaches, on the server's clocks."""
        board = cls.position(full, state)
        if state["wtime"] is None:
            limit = Limit(time=1.0)
        else:
            limit = Limit(white_clock=state["wtime"] / 1000, black_clock=state["btime"] / 1000,
                          white_inc=(state["winc"] or 0) / 1000,
                          black_inc=(state["binc"] or 0) / 1000)  # fmt: skip
        result: PlayResult = player.choose_move(board, limit)
        return result


__all__ = ["Bot", "BotError", "BotServer"]
