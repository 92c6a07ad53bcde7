"""Which games the lists of ``kradan serve`` show, and the PGN export, page by page.

A game is listed only when it is public (``games.public``, :mod:`.tables`): ``GET /api/games``,
the front page's list, ``GET /api/games.pgn`` and an account's games as other people see them
hold only public games. A private game (an invitation, by default) is read by whoever has its id,
and its players see it in their own account's lists. :class:`Listing` says which games a list
holds.

The PGN export (``GET /api/games.pgn``, ``GET /api/accounts/{name}/games.pgn``) walks a list in a
stable order, the oldest first (creation time, then the row's id), ``limit`` games a page
(:data:`DEFAULT_LIMIT`, at most :data:`MAX_LIMIT`). ``after=<game id>`` starts a page after that
game, and a page followed by more has the RFC 8288 header ``Link: <...>; rel="next"``. The games
are read from the database :data:`BATCH` at a time (three queries a batch) and their PGN is sent
as each is written, so neither the list nor its PGN is ever held whole, and the event loop serves
other requests between two games.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from fastapi.responses import StreamingResponse
from sqlalchemy import ColumnElement, and_, or_, select, true
from starlette.requests import Request

from .hall import Hall
from .i18n import N_
from .model import GameError, players_text
from .room import rebuild
from .storage import Store
from .tables import GameRow

#: the games of an export page when the request names no ``limit``, and the most it may ask for
DEFAULT_LIMIT, MAX_LIMIT = 100, 1000
#: the games read from the database at once while a page is written
BATCH = 25
#: what a cursor is: a game's id
CURSOR = re.compile(r"[A-Za-z0-9_-]{12}")

log = logging.getLogger("kradan.web")


@dataclass(frozen=True)
class Listing:
    """The games a list holds: every public game, or one account's (``account_id``) public
    games; ``with_private`` adds the private ones (the account's own view of itself)."""

    account_id: int | None = None
    with_private: bool = False

    def where(self) -> ColumnElement[bool]:
        """The SQL condition of a game in the list."""
        conditions: list[ColumnElement[bool]] = []
        if not self.with_private:
            conditions.append(GameRow.public == true())
        if self.account_id is not None:
            conditions.append(
                or_(
                    GameRow.white_account_id == self.account_id,
                    GameRow.black_account_id == self.account_id,
                )
            )
        return and_(true(), *conditions)


#: every public game
PUBLIC = Listing()


async def newest(store: Store, listing: Listing, limit: int) -> list[GameRow]:
    """The newest ``limit`` games of ``listing``, the newest first."""
    async with store.sessions() as session:
        found = await session.scalars(
            select(GameRow)
            .where(listing.where())
            .order_by(GameRow.created_at.desc(), GameRow.id.desc())
            .limit(limit)
        )
        return list(found)


def summary(row: GameRow) -> dict[str, Any]:
    """A game as ``GET /api/games`` lists it."""
    return {
        "id": row.public_id,
        "variant": row.variant,
        "players": players_text(row.players),
        "result": row.result,
        "termination": row.termination,
        "created": row.created_at.isoformat(timespec="seconds") + "Z",
        "ply": row.ply,
    }


# --- the export, page by page ------------------------------------------------------------------


def page_size(text: str | None) -> int:
    """The ``limit`` of an export page: :data:`DEFAULT_LIMIT` when absent.

    :raises GameError: 422 for anything but a whole number from 1 to :data:`MAX_LIMIT`,
        quoting it.
    """
    if text is None:
        return DEFAULT_LIMIT
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and 1 <= int(text) <= MAX_LIMIT):
        raise GameError(
            422,
            N_("bad limit {limit}: a whole number from 1 to {most}"),
            limit=repr(text[:40]),
            most=MAX_LIMIT,
        )
    return int(text)


async def cursor(store: Store, listing: Listing, text: str | None) -> tuple[datetime, int] | None:
    """Where a page starts: after the game ``text`` names (its creation time and row id);
    ``None`` (from the first game) when absent.

    :raises GameError: 422 for an id that names no game of ``listing``, quoting it.
    """
    if text is None:
        return None
    found = None
    if CURSOR.fullmatch(text):
        async with store.sessions() as session:
            found = (
                await session.execute(
                    select(GameRow.created_at, GameRow.id).where(
                        GameRow.public_id == text, listing.where()
                    )
                )
            ).first()
    if found is None:
        raise GameError(
            422,
            N_("bad cursor {after}: no game of this list has that id"),
            after=repr(text[:40]),
        )
    return found[0], found[1]


async def page_keys(
    store: Store, listing: Listing, after: tuple[datetime, int] | None, limit: int
) -> tuple[list[tuple[int, str]], bool]:
    """The row ids and game ids of a page's games in order, and whether more follow."""
    query = select(GameRow.id, GameRow.public_id).where(listing.where())
    if after is not None:
        created, row_id = after
        query = query.where(
            or_(
                GameRow.created_at > created,
                and_(GameRow.created_at == created, GameRow.id > row_id),
            )
        )
    query = query.order_by(GameRow.created_at, GameRow.id).limit(limit + 1)
    async with store.sessions() as session:
        keys = [(row_id, public_id) for row_id, public_id in await session.execute(query)]
    return keys[:limit], len(keys) > limit


async def pgn_texts(hall: Hall, keys: Sequence[tuple[int, str]]) -> AsyncIterator[str]:
    """The PGN of each game of ``keys`` in order, each followed by a blank line (so that pages
    put end to end are one PGN file): a game in memory as it is there, the others rebuilt from
    the store, :data:`BATCH` games read at a time. A game that cannot be rebuilt is left out
    (and logged)."""
    for start in range(0, len(keys), BATCH):
        chunk = keys[start : start + BATCH]
        stored = {game.row.id: game for game in await hall.store.load_many([i for i, _ in chunk])}
        for row_id, public_id in chunk:
            try:
                room = hall.rooms.get(public_id)
                if room is None and row_id in stored:
                    room = rebuild(hall, stored[row_id])
                text = None if room is None else room.pgn()
            except Exception:
                log.exception("game %s left out of the PGN export", public_id)
                text = None
            if text is not None:
                yield text + "\n"
            await asyncio.sleep(0)  # the other requests' turn


async def export(
    request: Request, hall: Hall, listing: Listing, limit: str | None, after: str | None
) -> StreamingResponse:
    """A page of ``listing``'s games as PGN, streamed, with the ``Link`` to the next page.

    :raises GameError: 422 for a bad ``limit`` or ``after`` (before anything is sent).
    """
    size = page_size(limit)
    keys, more = await page_keys(
        hall.store, listing, await cursor(hall.store, listing, after), size
    )
    headers = {}
    if more:
        query = urlencode({"limit": size, "after": keys[-1][1]})
        headers["link"] = f'<{request.url.path}?{query}>; rel="next"'
    return StreamingResponse(
        pgn_texts(hall, keys), media_type="text/plain; charset=utf-8", headers=headers
    )


__all__ = [
    "BATCH",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "PUBLIC",
    "Listing",
    "cursor",
    "export",
    "newest",
    "page_keys",
    "page_size",
    "pgn_texts",
    "summary",
]
