"""A game's chat (issue 46): two rooms per game, kept apart.

- ``players``: the two seated players (their seat token proves it) talk to each other; nobody
  else reads it but an admin.
- ``spectators``: whoever watches reads it; signed-in accounts write in it. While the game is
  being played its players do not read it (spectators could tell them a move); once it has
  ended they do.

Messages are plain text: stripped of control and format characters (the joiners that Thai,
Khmer and Burmese writing uses stay), white space folded, 1 to :data:`MAX_TEXT` characters. The
page puts them in with ``textContent``, never as HTML. A speaker may say :data:`BURST` messages
in :data:`WINDOW` seconds (429 with how long to wait, after). An admin removes a message: it
leaves every reader's screen and its row stays, marked with who removed it.

Each message is stored, then sent to the room's listeners (the chat's websockets,
:mod:`.chat_api`).
"""

from __future__ import annotations

import json
import math
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from starlette.websockets import WebSocket

from .chat_tables import ChatRow
from .hall import send_to_all
from .i18n import N_
from .model import GameError
from .tables import utcnow

Room = Literal["players", "spectators"]
ROOMS: tuple[Room, ...] = ("players", "spectators")
#: the longest message, in characters (as lichess's)
MAX_TEXT = 140
#: how many messages a speaker may say in a window of seconds
BURST, WINDOW = 5, 10.0
#: the messages a reader is given on arrival: the newest
HISTORY = 200
#: characters of format (Cf) kept: the zero-width joiner and non-joiner shape Khmer, Burmese and
#: Thai words
JOINERS = {"\u200c", "\u200d"}
#: the speakers whose recent messages are remembered, at most (the oldest are forgotten)
MOST_SPEAKERS = 10_000


@dataclass(frozen=True)
class Speaker:
    """Who says a message: the name shown, the account (if any), and the key the rate limit
    counts by (an account, else a game's seat)."""

    name: str
    account_id: int | None
    key: str


def clean_text(text: str) -> str:
    """``text`` as it is stored and shown; 400 when nothing is left or it is too long."""
    folded = " ".join(unicodedata.normalize("NFC", text).split())  # tabs and newlines too
    cleaned = "".join(
        char
        for char in folded
        if char in JOINERS or unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs", "Cn")
    ).strip()
    if not 0 < len(cleaned) <= MAX_TEXT:
        raise GameError(
            400, N_("a message of 1 to {limit} characters, not {text}"),
            limit=MAX_TEXT, text=repr(text[:80]),
        )  # fmt: skip
    return cleaned


def message_json(row: ChatRow, account: str | None = None) -> dict[str, Any]:
    """A message as readers receive it."""
    return {
        "id": row.id,
        "room": row.room,
        "name": row.name,
        "account": account,
        "text": row.text,
        "at": row.created_at.isoformat(timespec="seconds") + "Z",
    }


class Chat:
    """The chats of one server's games: stored messages, the rate limit, the listeners."""

    def __init__(self, engine: AsyncEngine, *, clock: Callable[[], float] = time.monotonic):
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.clock = clock
        self._recent: dict[str, deque[float]] = {}
        self.listeners: dict[tuple[str, Room], set[WebSocket]] = {}

    # --- saying and removing -------------------------------------------------------------------

    async def say(self, game: str, room: Room, speaker: Speaker, text: str) -> dict[str, Any]:
        """Store ``speaker``'s message and send it to the room; the message."""
        cleaned = clean_text(text)
        self._count(speaker.key)
        row = ChatRow(game=game, room=room, name=speaker.name[:32],
                      account_id=speaker.account_id, text=cleaned, created_at=utcnow(),
                      removed=False)  # fmt: skip
        async with self.sessions.begin() as session:
            session.add(row)
        account = speaker.name if speaker.account_id is not None else None
        message = message_json(row, account)
        await self._tell(game, room, {"type": "said", "message": message})
        return message

    async def remove(self, message_id: int, admin_id: int) -> None:
        """Mark a message removed (by the admin ``admin_id``) and take it off every screen;
        404 for no such message."""
        async with self.sessions.begin() as session:
            row = await session.get(ChatRow, message_id)
            if row is None or row.removed:
                raise GameError(404, N_("no chat message {id}"), id=message_id)
            await session.execute(update(ChatRow).where(ChatRow.id == message_id)
                                  .values(removed=True, removed_by=admin_id))  # fmt: skip
            game, room = row.game, row.room
        await self._tell(game, room, {"type": "removed", "id": message_id})  # type: ignore[arg-type]

    async def history(self, game: str, room: Room) -> list[dict[str, Any]]:
        """The room's newest :data:`HISTORY` messages not removed, oldest first."""
        from .account_tables import AccountRow

        query = (
            select(ChatRow, AccountRow.username)
            .outerjoin(AccountRow, AccountRow.id == ChatRow.account_id)
            .where(ChatRow.game == game, ChatRow.room == room, ChatRow.removed.is_(False))
            .order_by(ChatRow.id.desc())
            .limit(HISTORY)
        )
        async with self.sessions() as session:
            rows = (await session.execute(query)).all()
        return [message_json(row, username) for row, username in reversed(rows)]

    async def recent(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest ``limit`` messages of every game, removed ones too (for an admin),
        newest first: each with its game and whether it was removed."""
        from .account_tables import AccountRow

        query = (
            select(ChatRow, AccountRow.username)
            .outerjoin(AccountRow, AccountRow.id == ChatRow.account_id)
            .order_by(ChatRow.id.desc())
            .limit(limit)
        )
        async with self.sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            {**message_json(row, username), "game": row.game, "removed": row.removed}
            for row, username in rows
        ]

    def _count(self, key: str) -> None:
        """Count one message of ``key``; 429 when it has said :data:`BURST` in the window."""
        now = self.clock()
        recent = self._recent.get(key)
        if recent is None:
            if len(self._recent) >= MOST_SPEAKERS:
                self._recent.pop(next(iter(self._recent)))
            recent = self._recent[key] = deque(maxlen=BURST)
        while recent and now - recent[0] >= WINDOW:
            recent.popleft()
        if len(recent) >= BURST:
            wait = math.ceil(WINDOW - (now - recent[0]))
            raise GameError(429, N_("too many messages: wait {seconds} s"), seconds=wait)
        recent.append(now)

    # --- listeners -----------------------------------------------------------------------------

    def listen(self, game: str, room: Room, socket: WebSocket) -> None:
        self.listeners.setdefault((game, room), set()).add(socket)

    def forget(self, game: str, room: Room, socket: WebSocket) -> None:
        sockets = self.listeners.get((game, room))
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.listeners[(game, room)]

    async def _tell(self, game: str, room: Room, message: dict[str, Any]) -> None:
        """Send ``message`` to the room's listeners (a slow or gone one is dropped)."""
        sockets = self.listeners.get((game, room))
        if sockets:
            await send_to_all(sockets, json.dumps(message))


__all__ = ["BURST", "MAX_TEXT", "ROOMS", "WINDOW", "Chat", "Speaker", "clean_text"]
