"""The lobby over the JSON API (issue 46, :mod:`.lobby`).

    POST   /api/seeks {variant, options, clock, rated, color, rating_range, to, name, quick}
              201 {id, token}: a seek posted (keep it alive: GET it at least every 30 s);
              200 {game, token, color}: quick pairing found an opponent at once
    GET    /api/seeks                  the open seeks
    GET    /api/seeks/{id}             (the owner's token) {status, game, token, color}
    DELETE /api/seeks/{id}             (the owner's token) withdraw it
    POST   /api/seeks/{id}/accept      {name} -> {game, token, color}

Posting and taking a seek count against the client address's limit on creating games
(:mod:`.limits`). A seek's owner proves it with ``Authorization: Bearer <token>``. Whoever is
signed in plays under the account's name; a guest under the name given (or "guest"). A
game's seat token comes with the game, and its seat cookie is set, as ``POST /api/games`` does.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from .accounts import player_name, signed_in
from .api import OptionValue, same_origin, set_seat_cookie
from .api import error_responses as _errors
from .hall import Created
from .limits import creation_allowed
from .lobby import Lobby, SeekSpec

router = APIRouter()


class SeekBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    variant: str = Field("makruk", min_length=1, max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=40)
    clock: str | None = Field(
        None,
        max_length=20,
        description="base+increment, e.g. 300+3 (seconds), 30s+0, 1m+0 or ½+0; the seeks "
        "list it as seconds+increment",
    )
    rated: bool = False
    color: Literal["white", "black", "random"] = "random"
    rating_range: list[int] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description="the opponents' ratings it takes, e.g. [1300, 1700] (rated seeks)",
    )
    to: str | None = Field(None, max_length=64, description="a challenge to this account")
    name: str | None = Field(None, max_length=64, description="a guest's name")
    quick: bool = Field(False, description="take a seek that fits, if one is open")


class TakeBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str | None = Field(None, max_length=64, description="a guest's name")


class SeekView(BaseModel):
    id: str
    name: str
    account: str | None
    variant: str
    options: dict[str, Any]
    clock: str | None
    rated: bool
    color: str
    rating: int | None = Field(description="the owner's rating in the game's family")
    rating_range: list[int] | None
    to: str | None


class SeekList(BaseModel):
    seeks: list[SeekView]


class PostedView(BaseModel):
    id: str | None = Field(None, description="the seek posted (null when paired at once)")
    token: str = Field(description="the seek's token, or the game's seat token when paired")
    game: str | None = Field(None, description="the game, when quick pairing found one")
    color: Literal["white", "black"] | None = None


class SeekStateView(BaseModel):
    status: Literal["open", "accepted"]
    game: str | None = None
    token: str | None = Field(None, description="your seat's token in the game")
    color: Literal["white", "black"] | None = None


class TakenView(BaseModel):
    game: str
    token: str
    color: Literal["white", "black"]


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _bearer(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _seated(response: Response, created: Created) -> dict[str, Any]:
    set_seat_cookie(response, created.room.public_id, created.token)
    return {"game": created.room.public_id, "token": created.token, "color": created.color}


@router.post("/api/seeks", status_code=201, response_model=PostedView,
             responses=_errors(400, 401, 403, 404, 429), summary="Post a seek",
             dependencies=[Depends(creation_allowed)])  # fmt: skip
async def post_seek(
    body: Annotated[SeekBody, Body()], request: Request, response: Response
) -> dict[str, Any]:
    """Post a seek for an opponent, or with ``quick`` take one that fits first (the answer is
    then 200 with the game). A rated seek needs an account."""
    same_origin(request)
    account = await signed_in(request)
    name = player_name(account, body.name)
    range_ = None if body.rating_range is None else (body.rating_range[0], body.rating_range[1])
    spec = SeekSpec(body.variant, dict(body.options), body.clock, body.rated, body.color,
                    range_, body.to)  # fmt: skip
    lobby = lobby_of(request)
    if body.quick and body.to is None:
        created = await lobby.pair(spec, account, name)
        if created is not None:
            response.status_code = 200
            return {"id": None, **_seated(response, created)}
    client = request.client.host if request.client else ""
    seek, token = await lobby.post(spec, account, name, client)
    return {"id": seek.id, "token": token}


@router.get("/api/seeks", response_model=SeekList, summary="The open seeks")
async def list_seeks(request: Request) -> dict[str, Any]:
    account = await signed_in(request)
    return {"seeks": [seek.as_json() for seek in lobby_of(request).open_seeks(account)]}


@router.get("/api/seeks/{seek_id}", response_model=SeekStateView,
            responses=_errors(403, 404), summary="Your seek: still open, or its game")  # fmt: skip
async def seek_state(seek_id: str, request: Request, response: Response) -> dict[str, Any]:
    """Asking keeps the seek open (it goes after 30 s unasked). Once taken: the game, your
    seat's token and colour (the seat cookie is set too)."""
    seek = lobby_of(request).owned(seek_id, _bearer(request))
    if seek.game is None or seek.seat_token is None:
        return {"status": "open"}
    set_seat_cookie(response, seek.game, seek.seat_token)
    return {"status": "accepted", "game": seek.game, "token": seek.seat_token,
            "color": seek.seat_color}  # fmt: skip


@router.delete("/api/seeks/{seek_id}", status_code=204, responses=_errors(403, 404),
               summary="Withdraw your seek")  # fmt: skip
async def withdraw_seek(seek_id: str, request: Request) -> Response:
    same_origin(request)
    lobby_of(request).cancel(seek_id, _bearer(request))
    return Response(status_code=204)


@router.post("/api/seeks/{seek_id}/accept", response_model=TakenView,
             responses=_errors(400, 401, 403, 404, 409, 429), summary="Take a seek",
             dependencies=[Depends(creation_allowed)])  # fmt: skip
async def accept_seek(
    seek_id: str,
    request: Request,
    response: Response,
    body: Annotated[TakeBody | None, Body()] = None,
) -> dict[str, Any]:
    same_origin(request)
    account = await signed_in(request)
    name = player_name(account, None if body is None else body.name)
    created = await lobby_of(request).accept(seek_id, account, name)
    return _seated(response, created)


__all__ = ["router"]
