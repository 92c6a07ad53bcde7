"""The access log of ``kradan serve`` (issue 47 item 2): what requests this process answered,
kept in memory, the newest :data:`KEPT` of them (a ring buffer).

Why a ring buffer and not a table: a row per request would add a database write to every
request, as many as the moves themselves under load, for a record whose use is "what is
happening now"; the proxy in front of a deployment (Caddy, nginx) keeps the long record.
The cost: a restart forgets it, and with several processes each shows its own.

What is kept of a request: the time, the method, the path, the query with the values of every
parameter not known to be harmless replaced by ``***`` (``/join/ID?seat=...`` carries a seat's
token), the status, the account, the client's address and the duration. Never a header, a
cookie, a body or a token.

The account is the one the route found signed in (:func:`note_account`); for a route that did
not ask (a page, a file), the one whose session cookie or API token the request carried, as
this process last saw it open an account: the log remembers the SHA-256 of the
:data:`KNOWN` credentials seen last, never the credentials themselves.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import HTTPConnection, cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the requests kept, per process
KEPT = 5000
#: the query parameters whose values are shown; any other's value is ``***``
HARMLESS = frozenset({
    "room", "limit", "after", "status", "variant", "q", "white", "black", "player", "result",
    "family", "page", "fen", "moves", "depth", "lang", "next", "action", "account", "path",
})  # fmt: skip
#: the key of the account's name in a request's state
ACCOUNT_KEY = "kradan_account"
#: the credentials (sessions, API tokens) whose account the log remembers, per process
KNOWN = 10_000


@dataclass(frozen=True)
class Access:
    """One request answered."""

    at: datetime
    method: str
    path: str
    status: int
    account: str | None
    client: str
    duration_ms: float

    def as_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "method": self.method,
            "path": self.path,
            "status": self.status,
            "account": self.account,
            "client": self.client,
            "duration_ms": round(self.duration_ms, 1),
        }


def shown_query(query: str) -> str:
    """``query`` as the log keeps it: each value not known harmless replaced by ``***``.

    >>> shown_query("seat=abc123&room=players")
    'seat=%2A%2A%2A&room=players'
    """
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(key, value if key in HARMLESS else "***") for key, value in pairs])


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def note_account(connection: HTTPConnection, username: str, secret: str | None = None) -> None:
    """Say, for the log, which account ``connection`` was answered for, and that ``secret``
    (its session cookie or API token) opens it."""
    state = connection.scope.get("state")
    if isinstance(state, dict):
        state[ACCOUNT_KEY] = username
    log = getattr(connection.app.state, "access_log", None)
    if secret and isinstance(log, AccessLog):
        log.remember(secret, username)


def credential(scope: Scope, cookie: str) -> str | None:
    """The session cookie (named ``cookie``) or the bearer token of a request, if it carries
    one."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = str(value.decode("latin-1")).partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
        elif name == b"cookie":
            session = cookie_parser(value.decode("latin-1")).get(cookie)
            if session:
                return session
    return None


class AccessLog:
    """The newest :data:`KEPT` requests of this process."""

    def __init__(self, kept: int = KEPT) -> None:
        self.entries: deque[Access] = deque(maxlen=kept)
        #: the SHA-256 of a credential: the account it opened when last seen
        self.names: OrderedDict[str, str] = OrderedDict()

    def remember(self, secret: str, username: str) -> None:
        digest = _digest(secret)
        self.names[digest] = username
        self.names.move_to_end(digest)
        if len(self.names) > KNOWN:
            self.names.popitem(last=False)

    def name_of(self, secret: str | None) -> str | None:
        """The account ``secret`` opened when this process last saw it (``None``: unknown)."""
        return None if not secret else self.names.get(_digest(secret))

    def add(self, entry: Access) -> None:
        self.entries.append(entry)

    def newest(
        self,
        limit: int = 200,
        *,
        path: str | None = None,
        status: int | None = None,
        account: str | None = None,
    ) -> list[Access]:
        """The newest entries first, those whose path holds ``path`` (any case), whose status
        is ``status`` (a hundred, ``4``: every 4xx) and whose account is ``account``."""
        found = []
        needle = path.casefold() if path else None
        for entry in reversed(self.entries):
            if needle and needle not in entry.path.casefold():
                continue
            if status is not None and entry.status != status and entry.status // 100 != status:
                continue
            if account and (entry.account or "").casefold() != account.casefold():
                continue
            found.append(entry)
            if len(found) >= limit:
                break
        return found


class AccessLogger:
    """ASGI middleware: every HTTP request answered goes into ``log``; ``cookie`` names the
    session cookie."""

    def __init__(self, app: ASGIApp, log: AccessLog, cookie: str) -> None:
        self.app = app
        self.log = log
        self.cookie = cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        state = scope.setdefault("state", {})
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            query = scope.get("query_string", b"").decode("latin-1")
            path = scope.get("path", "")[:300] + (f"?{shown_query(query)}" if query else "")
            client = scope.get("client")
            account = state.get(ACCOUNT_KEY) if isinstance(state, dict) else None
            if account is None:
                account = self.log.name_of(credential(scope, self.cookie))
            self.log.add(Access(
                datetime.now(UTC), scope.get("method", ""), path[:500], status, account,
                client[0] if client else "unknown", (time.perf_counter() - started) * 1000,
            ))  # fmt: skip


__all__ = ["KEPT", "Access", "AccessLog", "AccessLogger", "note_account", "shown_query"]
