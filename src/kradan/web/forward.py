"""Requests for a game another process serves go to that process (:class:`Forwarder`).

With several ``kradan serve`` processes on one PostgreSQL, each game is served by one of them
(:mod:`.owners`). A request or websocket for a game reaches whichever process the proxy in
front chose; that process asks where the game is (:meth:`~kradan.web.hall.Hall.locate`): here
(served, or taken over from a process that has gone), or at another process's internal URL,
to which it passes the request on and the answer back (HTTP, streamed answers included), or
relays the websocket both ways. When the owner goes away under a relayed websocket (killed:
the connection drops without a close), the process takes the game over, rebuilt from the
database as a restart rebuilds it, and serves the same websocket itself: a spectator's board
goes on, and the players' next moves are played here.

A forwarded request carries ``x-kradan-forwarded``; a process that receives one for a game it
cannot serve answers 421, and the sender asks again where the game is. The sender has already
checked the ``Host`` and ``Origin`` of the browser's request: the websocket it opens to the
owner is a program's (no ``Origin``), for the owner's internal name, which each process
answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .api import cookie_name
from .model import GameError
from .origins import same_origin
from .room.view import SEAT_FIELDS
from .watch import Spectators

log = logging.getLogger("kradan.web")

#: the paths of one game's requests and websockets: the game's id is the first group
GAME_PATHS = re.compile(
    r"^/(?:api/games/([A-Za-z0-9_-]{12})(?:/.*)?|join/([A-Za-z0-9_-]{12})"
    r"|api/bot/game/(?:stream/)?([A-Za-z0-9_-]{12})(?:/.*)?)$"
)
#: the path of a game's own websocket (not its chat's)
GAME_SOCKET = re.compile(r"^/api/games/[A-Za-z0-9_-]{12}/socket$")
#: the paths of one seek's requests (asked after, taken, withdrawn, a challenge's answer)
SEEK_PATHS = re.compile(r"^/api/(?:seeks|challenge)/([A-Za-z0-9_-]{12})(?:/.*)?$")
#: the header of a request one process passes to another
FORWARDED = b"x-kradan-forwarded"
#: how long a request waits for a game whose process has gone to be free to take over
HANDOVER_SECONDS = 10.0
#: the headers not passed on (hop by hop, or set again for the owner)
HOP_HEADERS = {
    b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"te", b"trailer",
    b"proxy-authorization", b"proxy-connection", b"content-length",
    b"x-forwarded-for", b"x-forwarded-proto",
}  # fmt: skip
#: websocket close codes that mean the owner went away, not that it closed the socket
LOST_CODES = {1001, 1006, 1011, 1012, 1013}


def client_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    """Who asked, as this process sees it (the proxy's ``X-Forwarded-*`` already applied by
    uvicorn), for the owner, which believes these headers from the addresses of its
    ``FORWARDED_ALLOW_IPS`` (the other processes' addresses, or 127.0.0.1 on one machine)."""
    headers = [(b"x-forwarded-proto", str(scope.get("scheme", "http")).encode())]
    client = scope.get("client")
    if client:
        headers.append((b"x-forwarded-for", str(client[0]).encode()))
    return headers


def game_of(path: str) -> str | None:
    """The id of the game ``path`` is about, or ``None``."""
    found = GAME_PATHS.match(path)
    if found is None:
        return None
    return next(group for group in found.groups() if group)


async def _here(public_id: str) -> str | None:
    return None


class Forwarder:
    """ASGI middleware: a game's request goes to the process that serves the game, a seek's
    to the process that holds the seek."""

    def __init__(
        self,
        app: ASGIApp,
        locate: Callable[[str], Any],
        address: str,
        seek_home: Callable[[str], str | None] | None = None,
        spectators: Callable[[], Spectators | None] | None = None,
    ) -> None:
        self.app = app
        #: ``await locate(public_id)``: ``None`` here, else the owner's internal URL
        self.locate = locate
        self.address = address
        #: ``seek_home(seek_id)``: ``None`` here, else the holder's internal URL
        self.seek_home = seek_home or (lambda seek_id: None)
        #: ``spectators()``: where a spectator's socket of a game served elsewhere is fed
        #: (:mod:`.watch`), or ``None``: relayed as any other
        self.spectators = spectators or (lambda: None)
        self.client: Any = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        forwarded = any(name == FORWARDED for name, _ in scope.get("headers", []))
        public_id = game_of(path)
        if public_id is None:
            seek = SEEK_PATHS.match(path)
            home = None if seek is None or forwarded else self.seek_home(seek.group(1))
            if home is None or scope["type"] != "http":
                await self.app(scope, receive, send)
            else:  # a home that has gone took its seeks along: then answered here (404)
                await self._http(scope, receive, send, seek.group(1) if seek else "", home, _here)
            return
        address = await self._owner(public_id)
        if address is None:
            await self.app(scope, receive, send)
        elif forwarded:
            await _misdirected(scope, send, public_id)
        elif scope["type"] == "http":
            await self._http(scope, receive, send, public_id, address, self.locate)
        else:
            await self._socket(scope, receive, send, public_id, address)

    async def _owner(self, public_id: str) -> str | None:
        """Where ``public_id`` is served (``None``: here); a process that could not be named
        (it is going away) is waited for."""
        deadline = time.monotonic() + HANDOVER_SECONDS
        while True:
            address = await self.locate(public_id)
            if address != "" or time.monotonic() > deadline:
                return address or None
            await asyncio.sleep(0.1)

    # --- HTTP ----------------------------------------------------------------------------------

    async def _http(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        public_id: str,
        address: str,
        locate: Callable[[str], Any],
    ) -> None:
        """Pass the request to ``address`` and its answer back; when that process is gone,
        ask ``locate`` again (``None``: answer here)."""
        import httpx2

        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        if self.client is None:
            self.client = httpx2.AsyncClient(timeout=httpx2.Timeout(30.0, read=None))
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in HOP_HEADERS]
        headers += [(FORWARDED, self.address.encode()), *client_headers(scope)]
        path = scope.get("raw_path") or scope["path"].encode()
        query = scope.get("query_string", b"")
        deadline = time.monotonic() + HANDOVER_SECONDS
        while True:
            url = address + path.decode("latin-1") + ("?" + query.decode() if query else "")
            request = self.client.build_request(
                scope["method"], url, headers=headers, content=bytes(body)
            )
            try:
                answer = await self.client.send(request, stream=True)
            except (httpx2.ConnectError, httpx2.ConnectTimeout):
                answer = None  # the owner is gone: take the game over, or find the new owner
            except httpx2.TransportError:
                # gone while it had the request: whether it did it is unknown, so it is not
                # sent again (a move or a takeback played twice); the client asks again
                await _json(send, 502, f"game {public_id!r}: its process went away while "
                            "answering; read the game again")  # fmt: skip
                return
            if answer is not None and answer.status_code != 421:
                await _relay(answer, receive, send)
                return
            if answer is not None:
                await answer.aclose()
            if time.monotonic() > deadline:
                await _unavailable(scope, send, public_id)
                return
            await asyncio.sleep(0.1)
            located = await locate(public_id)
            if located is None:  # ours now: served here, with the body as it came
                await self.app(scope, replay_body(bytes(body), receive), send)
                return
            address = located or address

    # --- websockets ----------------------------------------------------------------------------

    async def _socket(
        self, scope: Scope, receive: Receive, send: Send, public_id: str, address: str
    ) -> None:
        import websockets

        first = await receive()
        if first["type"] != "websocket.connect":
            return
        try:
            same_origin(HTTPConnection(scope))
        except GameError:
            await send({"type": "websocket.close", "code": 4403})
            return
        accepted = False
        spectators = self.spectators()
        seated = cookie_name(public_id) in HTTPConnection(scope).cookies
        if spectators is not None and not seated and GAME_SOCKET.match(scope["path"]):
            await send({"type": "websocket.accept"})
            accepted = True
            message = await spectators.watch(public_id, receive, send)
            if message is None:
                return  # it closed
            receive = _first(message, receive)  # it proves a seat: relayed from now on
        deadline = time.monotonic() + HANDOVER_SECONDS
        while True:
            try:
                outcome = await self._pump(scope, receive, send, address, accepted)
            except (OSError, websockets.exceptions.InvalidHandshake, TimeoutError):
                outcome = "lost"  # the owner is gone, or going
            if outcome == "accepted-lost":
                accepted, outcome = True, "lost"
                deadline = time.monotonic() + HANDOVER_SECONDS
            if outcome == "done":
                return
            if time.monotonic() > deadline:
                await send({"type": "websocket.close", "code": 1013})
                return
            await asyncio.sleep(0.1)
            located = await self.locate(public_id)
            if located is None:  # ours now: the same socket goes on here
                await self.app(scope, _connected(receive, accepted), _accepted(send, accepted))
                return
            address = located or address

    async def _pump(
        self, scope: Scope, receive: Receive, send: Send, address: str, accepted: bool
    ) -> str:
        """Relay the websocket to ``address`` and back until one side closes: ``"done"``
        when the client or the owner closed it, ``"lost"`` or ``"accepted-lost"`` (the
        client's socket was accepted) when the owner went away."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        url = "ws" + address[4:] + scope["path"]
        if scope.get("query_string"):
            url += "?" + scope["query_string"].decode()
        passed = {b"cookie", b"accept-language", b"authorization"}
        headers = [
            (k.decode(), v.decode("latin-1")) for k, v in scope["headers"] if k.lower() in passed
        ]
        headers.append((FORWARDED.decode(), self.address))
        headers += [(k.decode(), v.decode("latin-1")) for k, v in client_headers(scope)]
        async with connect(url, additional_headers=headers, open_timeout=5) as upstream:
            if not accepted:
                await send({"type": "websocket.accept"})
                accepted = True

            async def client_to_owner() -> str:
                while True:
                    message = await receive()
                    if message["type"] == "websocket.disconnect":
                        await upstream.close()
                        return "done"
                    if message.get("text") is not None:
                        await upstream.send(message["text"])
                    elif message.get("bytes") is not None:
                        await upstream.send(message["bytes"])

            async def owner_to_client() -> str:
                try:
                    async for data in upstream:
                        if isinstance(data, str):
                            await send({"type": "websocket.send", "text": data})
                        else:
                            await send({"type": "websocket.send", "bytes": data})
                except ConnectionClosed:
                    pass
                code = upstream.close_code or 1006
                if code in LOST_CODES:
                    return "accepted-lost"
                await send({"type": "websocket.close", "code": code})
                return "done"

            tasks = [
                asyncio.ensure_future(client_to_owner()),
                asyncio.ensure_future(owner_to_client()),
            ]
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            return str(next(iter(done)).result())

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()


def replay_body(body: bytes, receive: Receive) -> Receive:
    """The client's messages with the request's body, read already, given back first."""
    return _first({"type": "http.request", "body": body, "more_body": False}, receive)


def _first(message: Message, receive: Receive) -> Receive:
    """The client's messages, ``message`` first."""
    given = False

    async def first() -> Message:
        nonlocal given
        if not given:
            given = True
            return message
        return await receive()

    return first


async def read_game(client: Any, address: str, public_id: str) -> str | None:
    """The websocket message of game ``public_id`` as a spectator gets it, read from the
    process at ``address`` that serves it (``None`` when it does not answer with the game)."""
    try:
        answer = await client.get(
            f"{address}/api/games/{public_id}", headers={FORWARDED.decode(): "spectators"}
        )
    except Exception:
        return None
    if answer.status_code != 200:
        return None
    view = answer.json()
    for name in SEAT_FIELDS:
        view.pop(name, None)
    return json.dumps({"type": "game", "game": view}, separators=(",", ":"))


def _connected(receive: Receive, accepted: bool) -> Receive:
    """The client's messages, beginning with the ``websocket.connect`` the relay took."""
    given = False

    async def connected() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "websocket.connect"}
        return await receive()

    return connected


def _accepted(send: Send, accepted: bool) -> Send:
    """``send``, less the app's ``websocket.accept`` of a socket the relay accepted already."""

    async def sender(message: Message) -> None:
        if accepted and message["type"] == "websocket.accept":
            return
        await send(message)

    return sender


async def _relay(answer: Any, receive: Receive, send: Send) -> None:
    """Send the owner's ``answer`` to the client as it comes (a stream stops when the client
    goes away)."""
    headers = [(k.lower(), v) for k, v in answer.headers.raw if k.lower() not in HOP_HEADERS]
    await send({"type": "http.response.start", "status": answer.status_code, "headers": headers})

    async def body() -> None:
        async for chunk in answer.aiter_raw():
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(body()), asyncio.ensure_future(gone())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        await answer.aclose()


async def _json(send: Send, status: int, error: str) -> None:
    body = json.dumps({"error": error}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _misdirected(scope: Scope, send: Send, public_id: str) -> None:
    """The answer to a forwarded request for a game this process does not serve."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1013})
        return
    await _json(send, 421, f"game {public_id!r} is not served by this process")


async def _unavailable(scope: Scope, send: Send, public_id: str) -> None:
    await _json(send, 503, f"game {public_id!r} is being handed to another process: try again")


__all__ = ["FORWARDED", "Forwarder", "game_of", "read_game"]
