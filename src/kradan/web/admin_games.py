"""What an admin does to games (issue 47 item 2): abort one in progress, adjudicate it, delete
one that has ended, and list the games.

- **Abort**: at any point of a game in progress (not only before both sides have moved, as
  for the players): the result ``*``, the termination ``aborted``; unrated, not archived.
- **Adjudicate**: the admin gives the result (``1-0``, ``0-1``, ``1/2-1/2``); the termination
  is ``adjudication``. A rated game is rated and every game archived, as any game that ends.
  Both are stored as an event of the game, then announced to its players and watchers at once.
- **Delete**: only a game that has ended (abort a game in progress first); its row goes, and
  with it its moves, events and review (the tables' ``ON DELETE CASCADE``), and its chat. The
  ratings it moved stay as they are: Glicko-2 moves each rating from where the previous game
  left it, so a game cannot be taken out of a rating that later games have moved since. The
  archive's copy of its PGN (found by its players and moves, not by the live game's id) stays.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from .api import unknown_game
from .chat_tables import ChatRow
from .hall import Hall
from .i18n import N_
from .model import GameError, players_text
from .room import Room
from .room.abandon import ABORT_EVENT, ABORTED
from .tables import Ending, GameRow

#: the termination of an adjudicated game, and its event
ADJUDICATION = N_("adjudication")
ADJUDICATE_EVENT = "adjudicate"
RESULTS = ("1-0", "0-1", "1/2-1/2")


def game_json(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.public_id,
        "variant": row.variant,
        "players": players_text(row.players),
        "status": row.status,
        "result": row.result,
        "termination": row.termination,
        "rated": row.rated,
        "ply": row.ply,
        "created": row.created_at.isoformat(timespec="seconds") + "Z",
    }


async def _settle(room: Room) -> None:
    """Under the room's lock, before an admin's change: a fallen flag or an expired wait ends
    the game first (announced), and the change is refused."""
    if await room.timekeeper.flagged() or await room.abandonment.expire():
        await room.announce()
    if not room.playing:
        raise room.over()


async def abort(room: Room, admin: str) -> None:
    """Abort the game of ``room`` for the admin named ``admin``; 409 once it has ended."""
    async with room.lock:
        await _settle(room)
        mover = bool(room.board.turn)
        event = room.event(ABORT_EVENT, mover, {"admin": admin})
        await room.store_event(event, Ending("*", ABORTED))
        await room.announce()


async def adjudicate(room: Room, result: str, admin: str) -> None:
    """End the game of ``room`` with ``result`` (one of :data:`RESULTS`), termination
    ``adjudication``; 400 for another result, 409 once it has ended."""
    if result not in RESULTS:
        raise GameError(400, N_("bad result {result}: 1-0, 0-1 or 1/2-1/2"), result=repr(result))
    async with room.lock:
        await _settle(room)
        side = result != "0-1"
        event = room.event(ADJUDICATE_EVENT, side, {"admin": admin, "result": result})
        await room.store_event(event, Ending(result, ADJUDICATION))
        await room.announce()


class GameAdmin:
    """The games of one server, as an admin lists and deletes them."""

    def __init__(self, engine: AsyncEngine, hall: Hall) -> None:
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.hall = hall

    async def newest(self, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The newest games (``status``: ``playing`` or ``ended`` only)."""
        query = select(GameRow).order_by(GameRow.id.desc()).limit(limit)
        if status:
            query = query.where(GameRow.status == status)
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [game_json(row) for row in rows]

    async def delete(self, public_id: str) -> None:
        """Delete the ended game ``public_id`` with its moves, events, review and chat; 404
        for no such game, 409 for a game in progress."""
        room = self.hall.rooms.get(public_id)
        if room is not None and room.playing:
            raise _in_progress(public_id)
        async with self.sessions.begin() as session:
            row = await session.scalar(select(GameRow).where(GameRow.public_id == public_id))
            if row is None:
                raise unknown_game(public_id[:40])
            if row.status == "playing":
                raise _in_progress(public_id)
            await session.execute(delete(ChatRow).where(ChatRow.game == public_id))
            await session.execute(delete(GameRow).where(GameRow.id == row.id))
        room = self.hall.rooms.pop(public_id, None)
        if room is not None:
            room.release()


def _in_progress(public_id: str) -> GameError:
    return GameError(409, N_("game {game} is in progress: abort it first"),
                     game=repr(public_id[:40]))  # fmt: skip


__all__ = ["ADJUDICATION", "RESULTS", "GameAdmin", "abort", "adjudicate", "game_json"]
