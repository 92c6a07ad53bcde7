"""Accounts over the JSON API (issue 46): sign up, sign in and out, an account's page, the
leaderboards.

    POST   /api/accounts {username, password}   201, signed in (the session cookie set)
    POST   /api/session {username, password}    200, the session cookie set
    GET    /api/session                         who is signed in ({"username": null}: nobody)
    DELETE /api/session                         204, signed out
    GET    /api/accounts/{username}             its ratings and newest games (its private games
                                                only for itself)
    GET    /api/accounts/{username}/games.pgn   its games as PGN, page by page (the same)
    GET    /api/ratings/{family}                the leaderboard of a game family

The session cookie ``kradan_session`` is HttpOnly and SameSite=Lax (and Secure over HTTPS).
Requests that change something must come from the server's own pages (the ``Origin`` check
every changing route makes) and carry JSON, which a cross-site form cannot send.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from . import listing
from .accounts import (
    FAMILIES,
    SESSION_COOKIE,
    SESSION_DAYS,
    Account,
    accounts_of,
    signed_in,
)
from .api import ExportAfter, ExportLimit, hall_of, same_origin
from .api import error_responses as _errors
from .i18n import N_
from .listing import Listing
from .model import GameError, players_text
from .server_settings import runtime_settings

router = APIRouter()


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    username: str = Field(min_length=1, max_length=64, examples=["somchai"])
    password: str = Field(min_length=1, max_length=1024)


class SessionView(BaseModel):
    username: str | None = Field(description="the account signed in; null: nobody")
    admin: bool = False


class RatingView(BaseModel):
    rating: float
    deviation: float
    volatility: float
    games: int
    provisional: bool = Field(description="a deviation of 110 or more: shown with a ?")


class AccountGameView(BaseModel):
    id: str
    variant: str
    players: dict[str, str]
    color: str = Field(description="the account's side")
    result: str
    termination: str | None
    rated: bool
    rating_change: float | None
    created: str


class AccountView(BaseModel):
    username: str
    ratings: dict[str, RatingView] = Field(description="per game family")
    games: list[AccountGameView] = Field(description="the newest first")


class LeaderView(RatingView):
    username: str


class LeaderboardView(BaseModel):
    family: str
    players: list[LeaderView]


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _set_session(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


@router.post("/api/accounts", status_code=201, response_model=SessionView,
             responses=_errors(400, 403, 409), summary="Sign up")  # fmt: skip
async def sign_up(
    body: Annotated[Credentials, Body()], request: Request, response: Response
) -> dict[str, Any]:
    """A new account (a username of 3 to 24 letters, digits, ``_`` or ``-``; a password of 8 to
    256 characters), signed in at once; 403 while an admin has closed sign-up."""
    same_origin(request)
    if not (await runtime_settings(request).current())["sign_up_open"]:
        raise GameError(403, N_("sign-up is closed: ask an admin for an account"))
    accounts = accounts_of(request)
    account = await accounts.sign_up(body.username, body.password)
    _set_session(request, response, await accounts.open_session(account.id))
    return {"username": account.username, "admin": account.admin}


@router.post("/api/session", response_model=SessionView,
             responses=_errors(400, 401, 403, 429), summary="Sign in")  # fmt: skip
async def sign_in(
    body: Annotated[Credentials, Body()], request: Request, response: Response
) -> dict[str, Any]:
    """Sign in: the session cookie is set. Failed tries are slowed down, per account and per
    client (429 says how long to wait)."""
    same_origin(request)
    account, token = await accounts_of(request).sign_in(body.username, body.password,
                                                        _client(request))  # fmt: skip
    _set_session(request, response, token)
    return {"username": account.username, "admin": account.admin}


@router.get("/api/session", response_model=SessionView, summary="Who is signed in")
async def who(request: Request) -> dict[str, Any]:
    account = await signed_in(request)
    return {"username": None if account is None else account.username,
            "admin": bool(account and account.admin)}  # fmt: skip


@router.delete("/api/session", status_code=204, responses=_errors(403), summary="Sign out")
async def sign_out(request: Request) -> Response:
    same_origin(request)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await accounts_of(request).close_session(token)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def _account(request: Request, username: str) -> Account:
    account = None if len(username) > 64 else await accounts_of(request).named(username)
    if account is None:
        raise GameError(404, N_("no account is named {name}"), name=repr(username[:64]))
    return account


async def _games_of(request: Request, account: Account) -> Listing:
    """The games of ``account`` the request may list: its public games, and its private ones
    too when the account itself asks."""
    viewer = await signed_in(request)
    return Listing(account.id, with_private=viewer is not None and viewer.id == account.id)


@router.get("/api/accounts/{username}", response_model=AccountView, responses=_errors(404),
            summary="An account: its ratings and newest games")  # fmt: skip
async def account_page(
    username: str, request: Request, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> dict[str, Any]:
    """Its ratings and newest games: the public ones, and its private ones too when the
    account itself asks."""
    accounts = accounts_of(request)
    account = await _account(request, username)
    games = []
    shown = await _games_of(request, account)
    for row in await listing.newest(hall_of(request).store, shown, limit):
        color = "white" if row.white_account_id == account.id else "black"
        change = (row.rating_changes or {}).get(color)
        games.append({
            "id": row.public_id, "variant": row.variant, "players": players_text(row.players),
            "color": color, "result": row.result, "termination": row.termination,
            "rated": row.rated, "rating_change": None if change is None else change["change"],
            "created": row.created_at.isoformat(timespec="seconds") + "Z",
        })  # fmt: skip
    return {"username": account.username, "ratings": await accounts.ratings_of(account.id),
            "games": games}  # fmt: skip


@router.get("/api/accounts/{username}/games.pgn", response_class=StreamingResponse,
            responses={200: {"content": {"text/plain": {}}}, **_errors(404, 422)},
            summary="An account's games as PGN, page by page")  # fmt: skip
async def account_pgn(
    username: str, request: Request, limit: ExportLimit = None, after: ExportAfter = None
) -> StreamingResponse:
    """Its games as ``GET /api/games.pgn`` gives the public games: the oldest first, ``limit``
    a page, a ``Link`` header to the next page. Its private games are in it when the account
    itself asks."""
    account = await _account(request, username)
    shown = await _games_of(request, account)
    return await listing.export(request, hall_of(request), shown, limit, after)


@router.get("/api/ratings/{family}", response_model=LeaderboardView, responses=_errors(404),
            summary="A game family's leaderboard")  # fmt: skip
async def leaderboard(
    family: str, request: Request, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> dict[str, Any]:
    """The accounts rated in ``family`` (``makruk``, ``ouk``, ``karouk``, ``sittuyin``,
    ``alquerque``; a game's name is taken for its family), best first; provisional ratings
    (deviation 110 or more) are left out."""
    name = FAMILIES.get(family, family)
    if name not in set(FAMILIES.values()):
        raise GameError(404, N_("no rating family is named {family}"), family=repr(family[:40]))
    return {"family": name, "players": await accounts_of(request).leaderboard(name, limit)}


__all__ = ["router"]
