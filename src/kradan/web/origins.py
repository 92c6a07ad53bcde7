"""The ``Origin`` check of every request that changes something, and of every websocket: a
browser's page of another site, or one with no origin to show (``null``), is refused (403), so
that it cannot act with the cookies of the server's visitors. Programs send no ``Origin`` and
are let in (they prove a seat with its token)."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from .i18n import N_
from .model import GameError


def same_origin(request: HTTPConnection) -> None:
    """Refuse a request a page of another site sent: its ``Origin`` names another host, or is
    ``null`` (a sandboxed frame, a ``file:`` page, a redirect from elsewhere: never one of this
    server's pages, whose fetches send their own origin). A request without ``Origin`` (a
    program, not a browser's page) is let in."""
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
        raise GameError(
            403, N_("cross-origin request from {origin} refused"), origin=repr(origin[:80])
        )


__all__ = ["same_origin"]
