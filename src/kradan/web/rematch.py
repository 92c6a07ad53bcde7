"""Rematch (issue 46): once a game has ended, either player offers a rematch; when the other
asks too, the new game starts with the colours swapped and everything else the same (the game,
its options, start, clock, rated or not, listed publicly or not, the players and their
accounts). Against the engine the rematch starts at once.

    POST /api/games/{id}/rematch   (a seat) -> {status: "offered"}
                                              or {status: "agreed", game, token, color}

Each player collects its own seat in the new game by asking (the one who offered asks again
when the game's view says the rematch is agreed); the seat cookie is set as well. The offer
lives in the server's memory, as a draw offer does. Each ask counts against the client
address's limit on creating games (:mod:`.limits`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from .api import ErrorView, GameId, hall_of, seated, set_seat_cookie
from .hall import Hall
from .i18n import N_
from .limits import creation_allowed
from .model import COLORS, GameError, NewGame, clock_text
from .room import Room
from .room.view import RematchView

router = APIRouter()


@dataclass
class Rematch:
    """An ended game's rematch: who offered it, and once agreed the new game and each side's
    seat token in it."""

    offered_by: bool
    game: str | None = None
    tokens: dict[bool, str] = field(default_factory=dict)

    def view(self) -> RematchView:
        if self.game is not None:
            return RematchView(game=self.game)
        return RematchView(offered_by=COLORS[self.offered_by])


class RematchAnswer(BaseModel):
    status: Literal["offered", "agreed"]
    game: str | None = None
    token: str | None = Field(None, description="your seat's token in the new game")
    color: Literal["white", "black"] | None = Field(None, description="your side in it")


def _clock_text(room: Room) -> str | None:
    clock = room.row.clock
    if not clock:
        return None
    return clock_text(int(clock["base_ms"]), int(clock["increment_ms"]))


async def _start(hall: Hall, room: Room, asker: bool) -> Rematch:
    """The new game, colours swapped: ``asker`` makes it and holds its first token."""
    row = room.row
    other = not asker
    engine = room.is_engine(other)
    account_ids = {True: row.white_account_id, False: row.black_account_id}
    created = await hall.create(
        NewGame(
            variant=row.variant,
            options=dict(row.options),
            opponent="engine" if engine else "human",
            level=room.players[other].level or 10,
            color=COLORS[other],  # the asker takes the other side's colour
            clock=_clock_text(room),
            fen=row.start_fen,
            me=room.players[asker],
            them=room.players[other],
            rated=bool(row.rated),
            public=bool(row.public),
            my_account_id=account_ids[asker],
            their_account_id=None if engine else account_ids[other],
        )
    )
    tokens = {asker: created.token}
    if created.invite is not None:
        tokens[other] = created.invite
    return Rematch(offered_by=asker, game=created.room.public_id, tokens=tokens)


@router.post(
    "/api/games/{game_id}/rematch",
    response_model=RematchAnswer,
    responses={code: {"model": ErrorView} for code in (401, 403, 404, 409, 429)},
    summary="Offer or agree to a rematch",
    dependencies=[Depends(creation_allowed)],
)
async def rematch(game_id: GameId, request: Request, response: Response) -> dict[str, Any]:
    """Offer a rematch of an ended game, or agree to the other side's offer (the new game then
    starts, colours swapped); once agreed, the answer is your seat in the new game."""
    hall = hall_of(request)
    room, color = await seated(request, game_id)
    if room.playing:
        raise GameError(409, N_("game {game} is still being played"), game=repr(game_id))
    async with room.lock:
        offer: Rematch | None = room.rematch
        if offer is None and room.is_engine(not color):
            offer = await _start(hall, room, color)  # the engine always agrees
        elif offer is None:
            offer = Rematch(offered_by=color)
        elif offer.game is None and offer.offered_by != color:
            offer = await _start(hall, room, color)
        if offer is not room.rematch:
            room.rematch = offer
            await room.announce()
    token = offer.tokens.get(color)
    if offer.game is None or token is None:
        return {"status": "offered"}
    set_seat_cookie(response, offer.game, token)
    new_color = COLORS[not color]
    return {"status": "agreed", "game": offer.game, "token": token, "color": new_color}


__all__ = ["Rematch", "router"]
