"""Spectators of games another process serves (:class:`Spectators`), fed by the bus.

With several processes (docs/scaling.md), a websocket for a game another process serves is
relayed to that process (:mod:`.forward`). A spectator's socket (one that shows no seat) needs
less: it only listens. The process that serves a game tells the others, through the bus
(:mod:`.bus`, topic ``games``), the ids of its games that changed (gathered for
:data:`GATHER_SECONDS`, so that a busy process sends a few notifications a second, not one a
move); a process with spectators of one of them reads the game once from its owner and sends
it to each of its spectators. A game watched by many people from every process then costs its
owner one read per process and change, not one relayed message per spectator. A spectator that
sends something (it proves a seat: ``auth``) is relayed from then on, as a player's socket is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Send

from .bus import Bus

log = logging.getLogger("kradan.web")

#: the topic of the games that changed
TOPIC = "games"
#: how long the ids of changed games are gathered before they are told
GATHER_SECONDS = 0.05
#: the most ids in one message (12 characters each: far under NOTIFY's 8,000 bytes)
IDS_PER_MESSAGE = 400

Spawn = Callable[[str, Awaitable[Any]], Any]


class Spectators:
    """This process's spectators of games served elsewhere, and the news of its own games."""

    def __init__(self, bus: Bus, read: Callable[[str], Awaitable[str | None]], spawn: Spawn):
        self.bus = bus
        #: ``await read(public_id)``: the game's message as a spectator gets it, from wherever
        #: it is served (``None``: not now)
        self.read = read
        self.spawn = spawn
        self.sockets: dict[str, set[Send]] = {}
        #: the newest message of each watched game, and the one last sent
        self.latest: dict[str, str] = {}
        self.sent: dict[str, str] = {}
        #: the games whose sender or reader runs, and those to read again after it
        self.sending: set[str] = set()
        self.reading: set[str] = set()
        self.again: set[str] = set()
        #: this process's games that changed, not yet told
        self.news: set[str] = set()
        self.telling = False

    async def listen(self) -> None:
        await self.bus.subscribe(TOPIC, self.heard)

    # --- the games this process serves --------------------------------------------------------

    def changed(self, public_id: str, text: str) -> None:
        """A game this process serves changed (``text``: its message to spectators): its
        spectators here that came before it was taken over get it, the others are told."""
        if public_id in self.sockets:
            self._send(public_id, text)
        self.news.add(public_id)
        if not self.telling:
            self.telling = True
            self.spawn("telling the games' news", self._tell())

    async def _tell(self) -> None:
        try:
            await asyncio.sleep(GATHER_SECONDS)
            news, self.news = sorted(self.news), set()
        finally:
            self.telling = False
        for start in range(0, len(news), IDS_PER_MESSAGE):
            await self.bus.publish(TOPIC, {"ids": news[start : start + IDS_PER_MESSAGE]})

    # --- the games other processes serve ------------------------------------------------------

    def heard(self, message: dict[str, Any]) -> None:
        """Another process's games changed: read again those watched here."""
        for public_id in message.get("ids", []):
            if isinstance(public_id, str) and public_id in self.sockets:
                self._read(public_id)

    def _read(self, public_id: str) -> None:
        if public_id in self.reading:
            self.again.add(public_id)
            return
        self.reading.add(public_id)
        self.spawn("reading a watched game", self._reader(public_id))

    async def _reader(self, public_id: str) -> None:
        try:
            while True:
                self.again.discard(public_id)
                text = await self.read(public_id)
                if text is not None and public_id in self.sockets:
                    self._send(public_id, text)
                if public_id not in self.again:
                    return
        finally:
            self.reading.discard(public_id)

    def _send(self, public_id: str, text: str) -> None:
        """Send ``text`` to the game's spectators, in order, once."""
        self.latest[public_id] = text
        if public_id not in self.sending:
            self.sending.add(public_id)
            self.spawn("sending a watched game", self._sender(public_id))

    async def _sender(self, public_id: str) -> None:
        try:
            while public_id in self.sockets:
                text = self.latest.get(public_id)
                if text is None or text == self.sent.get(public_id):
                    return
                self.sent[public_id] = text
                for send in list(self.sockets.get(public_id, ())):
                    try:
                        async with asyncio.timeout(5):
                            await send({"type": "websocket.send", "text": text})
                    except Exception:
                        self.sockets.get(public_id, set()).discard(send)
        finally:
            self.sending.discard(public_id)

    async def watch(self, public_id: str, receive: Any, send: Send) -> dict[str, Any] | None:
        """Serve a spectator's socket, accepted already, until it closes (``None``) or sends a
        message (returned: the caller relays the socket from then on, that message first)."""
        watching = self.sockets.setdefault(public_id, set())
        watching.add(send)
        self.sent.pop(public_id, None)  # the newcomer gets the game even if unchanged
        self._read(public_id)
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return None
                if message["type"] == "websocket.receive":
                    return dict(message)
        finally:
            watching.discard(send)
            if not watching:
                self.sockets.pop(public_id, None)
                self.latest.pop(public_id, None)
                self.sent.pop(public_id, None)


__all__ = ["Spectators"]
