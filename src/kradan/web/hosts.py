"""The ``Host`` allowlist of ``kradan serve``: a request whose ``Host`` header (its port
ignored) is not one of the allowed names is refused with 400 before any route sees it, and a
websocket is closed before it opens.

Why: a page of another site can make its own name point at this server's address (DNS
rebinding); the browser then sends that page's requests here with the other site's name as
``Host`` and lets the page read the answers as its own, from inside the visitor's network. A
server that answers only its own names gives such a page nothing. The names come from
:attr:`~kradan.web.settings.ServeSettings.allowed_hosts` (``kradan serve --allowed-hosts``);
``*`` turns the check off.

The refusal quotes the host, in the reader's language: a page for a browser that asks for
HTML, else ``{"error": ...}``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from . import i18n
from .i18n import N_
from .settings import ANY_HOST, host_name

#: the websocket close code of a refused host (before the socket opens: the handshake is refused)
REFUSED_CLOSE = 4400


class HostAllowlist:
    """Let through the requests and websockets whose ``Host`` is one of ``allowed`` (names or
    addresses, compared by :func:`~kradan.web.settings.host_name`; ``*``: any); refuse the rest."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        names = tuple(allowed)
        self.any = ANY_HOST in names
        self.allowed = frozenset(host_name(name) for name in names if name != ANY_HOST)

    def allows(self, host: str) -> bool:
        """Whether a request with ``Host: host`` is answered."""
        return self.any or host_name(host) in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.any:
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if host is not None and self.allows(host):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": REFUSED_CLOSE})
            return
        await _refuse(scope, send, host)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def refusal_text(host: str | None, language: str) -> str:
    """Why a request for ``host`` (``None``: no ``Host`` header) is refused, in ``language``."""
    if host is None:
        message = i18n.Message(N_("a request without a Host header is refused"))
    else:
        message = i18n.Message(
            N_("host {host} is not served here: kradan serve answers only the names given to "
               "its --allowed-hosts"),
            host=repr(host[:80]),
        )  # fmt: skip
    return message.text(language)


async def _refuse(scope: Scope, send: Send, host: str | None) -> None:
    """Answer 400 with :func:`refusal_text`: a small page for a browser, else JSON."""
    connection = HTTPConnection(scope)
    language = i18n.connection_language(connection)
    text = refusal_text(host, language)
    if "text/html" in (_header(scope, b"accept") or ""):
        body = (
            f'<!doctype html>\n<html lang="{html.escape(language)}"><meta charset="utf-8">'
            f"<title>400</title>\n<p>{html.escape(text)}</p>\n</html>\n"
        ).encode()
        kind = b"text/html; charset=utf-8"
    else:
        body = json.dumps({"error": text}).encode()
        kind = b"application/json"
    await send(
        {
            "type": "http.response.start",
            "status": 400,
            "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["REFUSED_CLOSE", "HostAllowlist", "refusal_text"]
