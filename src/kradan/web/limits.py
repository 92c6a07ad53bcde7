"""How many games one client address may create: a token bucket per address
(:class:`~kradan.web.rate_limit.TokenBuckets`), ``create_rate`` games a minute and
``create_burst`` at once (:class:`~kradan.web.settings.ServeSettings`).

Every route that may start a game (``POST /api/games``, posting or taking a seek, a rematch)
depends on :func:`creation_allowed`, which spends one token of the client's bucket, or refuses
the request with 429, ``Retry-After`` in seconds and a message in the reader's language, before
anything else is done. Without a limit (a rate of 0) every request is let in.
"""

from __future__ import annotations

from fastapi import Request
from starlette.exceptions import HTTPException

from .i18n import N_, Message, connection_language
from .origins import same_origin
from .rate_limit import TokenBuckets
from .settings import ServeSettings


def create_limit(settings: ServeSettings) -> TokenBuckets | None:
    """The buckets of ``settings``' creation limit, or ``None`` for no limit."""
    if not settings.create_rate:
        return None
    return TokenBuckets(settings.create_rate, capacity=settings.create_burst, clock=settings.clock)


def _rate_text(per_minute: float) -> str:
    return f"{per_minute:g}"


async def creation_allowed(request: Request) -> None:
    """Count a game created by the request's client address, or refuse it (429) when the
    address has created its share for now. A request from another site's page is refused
    first (403), so that such a page cannot spend its visitor's share.

    :raises GameError: 403, for another site's ``Origin``
    :raises HTTPException: 429, with ``Retry-After``
    """
    same_origin(request)
    limit: TokenBuckets | None = getattr(request.app.state, "create_limit", None)
    if limit is None:
        return
    address = request.client.host if request.client else ""
    seconds = limit.wait(address, need=1)
    if seconds is None:
        limit.take(address)
        return
    message = Message(
        N_("too many games created from this address: try again in {seconds} s (the limit is "
           "{rate} games a minute)"),
        seconds=seconds,
        rate=_rate_text(limit.per_minute),
    )  # fmt: skip
    raise HTTPException(
        429, message.text(connection_language(request)), headers={"Retry-After": str(seconds)}
    )


__all__ = ["create_limit", "creation_allowed"]
