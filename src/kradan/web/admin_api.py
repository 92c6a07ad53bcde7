"""The admin's JSON API (issue 47 item 2), in ``/docs``; every route is an admin's (401
without a session, 403 for an account that is no admin), and every change is written to the
audit trail (:mod:`.audit`).

    GET    /api/admin/users?q=&limit=                  the accounts (a name search)
    POST   /api/admin/users/{username}/disable         it cannot sign in; sessions closed,
                                                       API tokens refused, seeks gone
    POST   /api/admin/users/{username}/enable
    POST   /api/admin/users/{username}/password        a new random password, shown once
    PUT    /api/admin/users/{username}/admin {admin}   the admin role given or taken away
    GET    /api/admin/games?status=&limit=             the newest games
    POST   /api/admin/games/{id}/abort                 a game in progress aborted
    POST   /api/admin/games/{id}/adjudicate {result}   ... ended with ``result``
    DELETE /api/admin/games/{id}                       an ended game deleted
    GET    /api/admin/chat?limit=                      the newest messages of every game
                                                       (remove with DELETE /api/chat/{id})
    GET    /api/admin/access-log?path=&status=&account=&limit=   this process's requests
    GET    /api/admin/settings                         {sign_up_open, notice}
    PUT    /api/admin/settings {sign_up_open?, notice?}
    GET    /api/admin/audit?limit=                     the admin actions, newest first
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from . import admin_games
from .access_log import AccessLog
from .accounts import Account, signed_in
from .admin_games import RESULTS, GameAdmin
from .admin_users import UserAdmin
from .api import error_responses as _errors
from .api import room_of, same_origin
from .audit import Audit
from .chat_api import chat_of
from .i18n import N_
from .lobby import Lobby
from .model import GameError
from .server_settings import MAX_NOTICE, runtime_settings

router = APIRouter(prefix="/api/admin", tags=["admin"])

Limit = Annotated[int, Query(ge=1, le=500)]


async def an_admin(request: Request) -> Account:
    """The admin the request's session opens; 401 without a session, 403 for no admin."""
    account = await signed_in(request)
    if account is None:
        raise GameError(401, N_("sign in as an admin"))
    if not account.admin:
        raise GameError(403, N_("only an admin may do this"))
    return account


async def an_admin_changing(request: Request) -> Account:
    """:func:`an_admin`, for a change: from the server's own pages only."""
    same_origin(request)
    return await an_admin(request)


Admin = Annotated[Account, Depends(an_admin)]
Changing = Annotated[Account, Depends(an_admin_changing)]


def _users(request: Request) -> UserAdmin:
    users: UserAdmin = request.app.state.user_admin
    return users


def _games(request: Request) -> GameAdmin:
    games: GameAdmin = request.app.state.game_admin
    return games


def _audit(request: Request) -> Audit:
    audit: Audit = request.app.state.audit
    return audit


async def _record(request: Request, admin: Account, action: str, target: str,
                  detail: dict[str, Any] | None = None) -> None:  # fmt: skip
    await _audit(request).record(admin.id, admin.username, action, target, detail)


# --- users -------------------------------------------------------------------------------------


class UserView(BaseModel):
    username: str
    admin: bool
    bot: bool
    disabled: bool
    created: str = Field(description="when it was made (UTC, ISO 8601)")


class UsersView(BaseModel):
    users: list[UserView]


class PasswordView(BaseModel):
    username: str
    password: str = Field(description="the new password: shown this once, never stored")


class RoleBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    admin: bool


@router.get("/users", response_model=UsersView, responses=_errors(401, 403),
            summary="The accounts (an admin)")  # fmt: skip
async def users(
    request: Request, admin: Admin, q: Annotated[str, Query(max_length=64)] = "",
    limit: Limit = 100,
) -> dict[str, Any]:  # fmt: skip
    """The accounts whose name holds ``q`` (any case), in name order."""
    return {"users": await _users(request).search(q, limit)}


async def _set_disabled(request: Request, admin: Account, username: str, disabled: bool) -> Any:
    changed = await _users(request).set_disabled(username[:64], disabled, admin)
    detail = {}
    if disabled:
        lobby: Lobby = request.app.state.lobby
        detail["seeks"] = lobby.drop_seeks_of(changed.id)
    await _record(request, admin, "disable" if disabled else "enable", changed.username, detail)
    found = await _users(request).search(changed.username, 1)
    return found[0]


@router.post("/users/{username}/disable", response_model=UserView,
             responses=_errors(401, 403, 404, 409),
             summary="Disable an account (an admin)")  # fmt: skip
async def disable(username: str, request: Request, admin: Changing) -> Any:
    """It cannot sign in; its sessions close at once, its API tokens open nothing, its open
    seeks go; its games stay. 409 for oneself or the last admin."""
    return await _set_disabled(request, admin, username, True)


@router.post("/users/{username}/enable", response_model=UserView,
             responses=_errors(401, 403, 404), summary="Enable an account (an admin)")  # fmt: skip
async def enable(username: str, request: Request, admin: Changing) -> Any:
    return await _set_disabled(request, admin, username, False)


@router.post("/users/{username}/password", response_model=PasswordView,
             responses=_errors(401, 403, 404), summary="Reset a password (an admin)")  # fmt: skip
async def reset_password(username: str, request: Request, admin: Changing) -> Any:
    """A new random password, shown once here for the admin to hand over; the account's
    sessions close."""
    account, password = await _users(request).reset_password(username[:64])
    await _record(request, admin, "reset_password", account.username)
    return {"username": account.username, "password": password}


@router.put("/users/{username}/admin", response_model=UserView,
            responses=_errors(400, 401, 403, 404, 409),
            summary="Give or take away the admin role (an admin)")  # fmt: skip
async def set_role(
    username: str, body: Annotated[RoleBody, Body()], request: Request, admin: Changing
) -> Any:
    """409 for taking the role from the last admin."""
    changed = await _users(request).set_admin(username[:64], body.admin)
    action = "grant_admin" if body.admin else "revoke_admin"
    await _record(request, admin, action, changed.username)
    return (await _users(request).search(changed.username, 1))[0]


# --- games -------------------------------------------------------------------------------------


class AdminGameView(BaseModel):
    id: str
    variant: str
    players: dict[str, str]
    status: str
    result: str
    termination: str | None
    rated: bool
    ply: int
    created: str


class AdminGamesView(BaseModel):
    games: list[AdminGameView]


class AdjudicateBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    result: str = Field(max_length=8, description=" or ".join(RESULTS))


@router.get("/games", response_model=AdminGamesView, responses=_errors(401, 403),
            summary="The newest games (an admin)")  # fmt: skip
async def games(
    request: Request, admin: Admin,
    status: Annotated[Literal["playing", "ended"] | None, Query()] = None, limit: Limit = 100,
) -> dict[str, Any]:  # fmt: skip
    """Public and private games alike, the newest first."""
    return {"games": await _games(request).newest(status, limit)}


@router.post("/games/{game_id}/abort", status_code=204, responses=_errors(401, 403, 404, 409),
             summary="Abort a game in progress (an admin)")  # fmt: skip
async def abort(game_id: str, request: Request, admin: Changing) -> Response:
    """At any point of the game: unrated, not archived; its players see it end at once."""
    room = await room_of(request, game_id)
    await admin_games.abort(room, admin.username)
    await _record(request, admin, "abort", room.public_id)
    return Response(status_code=204)


@router.post("/games/{game_id}/adjudicate", status_code=204,
             responses=_errors(400, 401, 403, 404, 409),
             summary="Adjudicate a game in progress (an admin)")  # fmt: skip
async def adjudicate(
    game_id: str, body: Annotated[AdjudicateBody, Body()], request: Request, admin: Changing
) -> Response:
    """The game ends with ``result``, termination ``adjudication``; a rated game is rated."""
    room = await room_of(request, game_id)
    await admin_games.adjudicate(room, body.result, admin.username)
    await _record(request, admin, "adjudicate", room.public_id, {"result": body.result})
    return Response(status_code=204)


@router.delete("/games/{game_id}", status_code=204, responses=_errors(401, 403, 404, 409),
               summary="Delete an ended game (an admin)")  # fmt: skip
async def delete_game(game_id: str, request: Request, admin: Changing) -> Response:
    """Its moves, events, review and chat go too; the ratings it moved stay (later games
    have moved them on from there). 409 for a game in progress: abort it first."""
    await _games(request).delete(game_id[:40])
    await _record(request, admin, "delete_game", game_id[:40])
    return Response(status_code=204)


# --- chat, the access log, the settings, the audit trail ------------------------------------


class AdminMessageView(BaseModel):
    id: int
    game: str
    room: str
    name: str
    account: str | None
    text: str = Field(description="plain text: never HTML")
    at: str
    removed: bool


class AdminChatView(BaseModel):
    messages: list[AdminMessageView] = Field(description="the newest first")


@router.get("/chat", response_model=AdminChatView, responses=_errors(401, 403),
            summary="The newest chat messages of every game (an admin)")  # fmt: skip
async def chat(request: Request, admin: Admin, limit: Limit = 100) -> dict[str, Any]:
    """Removed ones too, marked; remove one with ``DELETE /api/chat/{id}``."""
    return {"messages": await chat_of(request).recent(limit)}


class AccessView(BaseModel):
    at: str
    method: str
    path: str = Field(description="the query's values replaced by *** but for harmless ones")
    status: int
    account: str | None = Field(
        description="the account signed in, or whose session or token the request carried"
    )
    client: str
    duration_ms: float


class AccessLogView(BaseModel):
    requests: list[AccessView] = Field(description="the newest first, of this process only")
    kept: int = Field(description="how many requests this process keeps")


@router.get("/access-log", response_model=AccessLogView, responses=_errors(401, 403),
            summary="The requests this process answered (an admin)")  # fmt: skip
async def access_log(
    request: Request, admin: Admin,
    path: Annotated[str | None, Query(max_length=200)] = None,
    status: Annotated[int | None, Query(ge=1, le=599)] = None,
    account: Annotated[str | None, Query(max_length=64)] = None,
    limit: Limit = 200,
) -> dict[str, Any]:  # fmt: skip
    """``path``: a part of the path; ``status``: a status (404) or its hundred (4: every
    4xx); ``account``: an account's name."""
    log: AccessLog = request.app.state.access_log
    found = log.newest(limit, path=path, status=status, account=account)
    return {"requests": [entry.as_json() for entry in found], "kept": log.entries.maxlen}


class SettingsView(BaseModel):
    sign_up_open: bool = Field(description="whether anyone may make an account")
    notice: str = Field(description="shown on the front page ('': none)")


class SettingsBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    sign_up_open: bool | None = None
    notice: str | None = Field(default=None, max_length=MAX_NOTICE)


@router.get("/settings", response_model=SettingsView, responses=_errors(401, 403),
            summary="The server's settings (an admin)")  # fmt: skip
async def settings(request: Request, admin: Admin) -> dict[str, Any]:
    return await runtime_settings(request).current()


@router.put("/settings", response_model=SettingsView, responses=_errors(400, 401, 403),
            summary="Change the server's settings (an admin)")  # fmt: skip
async def change_settings(
    body: Annotated[SettingsBody, Body()], request: Request, admin: Changing
) -> dict[str, Any]:
    """Kept in the database: they outlive a restart; the command line's are the defaults."""
    values = body.model_dump(exclude_none=True)
    if "notice" in values:
        values["notice"] = " ".join(str(values["notice"]).split())
    after = await runtime_settings(request).change(values)
    if values:
        await _record(request, admin, "settings", ", ".join(sorted(values)), values)
    return after


class AuditEntryView(BaseModel):
    id: int
    at: str
    admin: str
    action: str
    target: str
    detail: dict[str, Any]


class AuditView(BaseModel):
    actions: list[AuditEntryView] = Field(description="the newest first")


@router.get("/audit", response_model=AuditView, responses=_errors(401, 403),
            summary="The admin actions (an admin)")  # fmt: skip
async def audit(request: Request, admin: Admin, limit: Limit = 100) -> dict[str, Any]:
    return {"actions": await _audit(request).newest(limit)}


__all__ = ["an_admin", "router"]
