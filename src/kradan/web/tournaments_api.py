"""Tournaments over the JSON API (issue 47, :mod:`.tournament_director`).

    POST /api/tournaments {variant, system, rounds, clock, players, double?, name?}
                                         (a signed-in session: the organiser) 201 {id}
    GET  /api/tournaments                the newest tournaments
    GET  /api/tournaments/{id}           {status, rounds: [{pairings: [{white, black, game,
                                         result}], byes}], standings: [{player, points,
                                         tiebreaks}], crosstable, ...}
    GET  /api/tournaments/{id}.pgn       every game of the tournament
    POST /api/tournaments/{id}/start     (the organiser or an admin) pair round 1 and go
    POST /api/tournaments/{id}/cancel    (the organiser or an admin) pair no more rounds

The players are accounts, named by username; their games are ordinary rated, public games. A
bot hears of its game on ``/api/stream/event`` (``gameStart``); a person signed in follows
``/tournaments/{id}/play`` (:mod:`.tournament_pages`) to the seat of their game under way.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from .accounts import Account, signed_in
from .api import error_responses as _errors
from .api import hall_of, same_origin
from .i18n import N_
from .model import GameError
from .tournament_director import Director, TournamentSpec
from .tournament_view import tournament_view

router = APIRouter()


class TournamentBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    variant: str = Field("makruk", min_length=1, max_length=40)
    system: str = Field("swiss", description="round-robin, swiss or arena", max_length=20)
    rounds: int = Field(
        0, description="a Swiss's rounds; an arena's minutes; a round robin's are its own"
    )
    clock: str = Field(
        "180+2", max_length=20, description="base+increment, e.g. 180+2, 30s+0, 1m+0"
    )
    players: list[str] = Field(
        default_factory=list, max_length=200, description="the accounts' usernames"
    )
    double: bool = Field(False, description="a double round robin")
    name: str = Field("", max_length=80)


class CreatedView(BaseModel):
    id: str


class PairingView(BaseModel):
    board: int
    white: str
    black: str
    game: str | None
    result: str | None
    forfeit: bool


class ByeView(BaseModel):
    player: str
    kind: str | None


class RoundView(BaseModel):
    number: int
    pairings: list[PairingView]
    byes: list[ByeView]


class StandingView(BaseModel):
    rank: int
    player: str
    points: float
    tiebreaks: dict[str, float]
    games: int | None = Field(None, description="an arena's games played")
    on_fire: bool | None = Field(None, description="an arena's: two wins running")
    sheet: list[int] | None = Field(None, description="an arena's points, game by game")


class CellView(BaseModel):
    kind: str
    opponent: str | None
    colour: str | None
    points: float | None


class CrossLineView(BaseModel):
    player: str
    cells: list[CellView]


class TournamentView(BaseModel):
    id: str
    name: str
    variant: str
    system: str
    rounds_planned: int = Field(description="the rounds to play (an arena: its minutes)")
    double: bool
    clock: str
    players: list[str]
    organiser: str | None
    status: str = Field(description="created, playing, finished or cancelled")
    created_at: str
    ends_at: str | None
    rounds: list[RoundView]
    standings: list[StandingView]
    crosstable: list[CrossLineView]


class TournamentLine(BaseModel):
    id: str
    name: str
    variant: str
    system: str
    rounds_planned: int
    clock: str
    players: int
    status: str
    created_at: str


class TournamentList(BaseModel):
    tournaments: list[TournamentLine]


def director_of(request: Request) -> Director:
    director: Director = request.app.state.director
    return director


async def _member(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise GameError(401, N_("sign in to run a tournament"))
    return account


@router.post(
    "/api/tournaments",
    status_code=201,
    response_model=CreatedView,
    responses=_errors(400, 401, 403, 404),
    summary="Make a tournament",
)
async def create_tournament(body: TournamentBody, request: Request) -> dict[str, str]:
    """A tournament of the accounts named, not started; the signed-in session's account is its
    organiser."""
    same_origin(request)
    organiser = await _member(request)
    spec = TournamentSpec(
        body.variant,
        body.system,
        body.rounds,
        body.clock,
        tuple(body.players),
        body.double,
        body.name,
    )
    row = await director_of(request).create(organiser, spec)
    return {"id": row.public_id}


@router.get("/api/tournaments", response_model=TournamentList, summary="The tournaments")
async def list_tournaments(request: Request) -> dict[str, Any]:
    rows = await director_of(request).store.listed()
    return {
        "tournaments": [
            {
                "id": r.public_id,
                "name": r.name,
                "variant": r.variant,
                "system": r.system,
                "rounds_planned": r.rounds,
                "clock": r.clock,
                "players": len(r.players),
                "status": r.status,
                "created_at": r.created_at.isoformat() + "Z",
            }
            for r in rows
        ]
    }


@router.get(
    "/api/tournaments/{tournament_id}.pgn",
    responses=_errors(404),
    summary="Every game of a tournament as PGN",
)
async def tournament_pgn(tournament_id: str, request: Request) -> Response:
    director = director_of(request)
    row = await director.get(tournament_id)
    hall = hall_of(request)
    texts = []
    for pairing in await director.store.games(row.id):
        if pairing.game is not None:
            text = await hall.pgn(pairing.game)
            if text:
                texts.append(text.strip() + "\n")
    filename = f"tournament-{row.public_id}.pgn"
    return Response(
        "\n".join(texts),
        media_type="application/x-chess-pgn",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


@router.get(
    "/api/tournaments/{tournament_id}",
    response_model=TournamentView,
    responses=_errors(404),
    summary="A tournament: rounds, standings, crosstable",
)
async def get_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    director = director_of(request)
    return await tournament_view(director.store, await director.get(tournament_id))


@router.post(
    "/api/tournaments/{tournament_id}/start",
    response_model=TournamentView,
    responses=_errors(401, 403, 404, 409),
    summary="Start a tournament",
)
async def start_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    same_origin(request)
    who = await _member(request)
    director = director_of(request)
    return await tournament_view(director.store, await director.start(tournament_id, who))


@router.post(
    "/api/tournaments/{tournament_id}/cancel",
    response_model=TournamentView,
    responses=_errors(401, 403, 404, 409),
    summary="Cancel a tournament",
)
async def cancel_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    same_origin(request)
    who = await _member(request)
    director = director_of(request)
    return await tournament_view(director.store, await director.cancel(tournament_id, who))


__all__ = ["director_of", "router"]
