"""The bot API (issue 47 item 3), shaped as lichess's: an account that an engine plays through
an API token and streams of newline-delimited JSON. ``kradan bot`` (:mod:`kradan.cli.bot`)
connects any UCI or XBoard engine to it.

    POST   /api/tokens                       (a signed-in browser) 201 {token}: shown once
    DELETE /api/tokens                       revoke the token shown
    GET    /api/account                      {username, bot, admin}
    POST   /api/bot/account/upgrade          the account becomes a bot's (only one that has
                                             played no game; for good)
    GET    /api/stream/event                 NDJSON: {"type": "challenge", "challenge": ...},
                                             {"type": "gameStart", "game": {"id"}} and
                                             {"type": "gameFinish", "game": {"id"}}
    POST   /api/challenge/{id}/accept        take a challenge (a seek made ``to`` the bot)
    POST   /api/challenge/{id}/decline       turn it down (the seek goes)
    GET    /api/bot/game/stream/{id}         NDJSON: {"type": "gameFull", ...} then
                                             {"type": "gameState", ...} after each change
    POST   /api/bot/game/{id}/move/{uci}     a move of the bot's side
    POST   /api/bot/game/{id}/resign         resign
    POST   /api/bot/game/{id}/abort          abort, before both sides have moved
    POST   /api/bot/game/{id}/draw/{yes|no}  offer or accept a draw (yes), decline one (no)
    POST   /api/bot/game/{id}/claim-draw     claim a draw the rules allow (repetition, ...)
    POST   /api/bot/game/{id}/claim-victory  claim a game the opponent has left
    POST   /api/bot/game/{id}/count/{declare|stop}  declared counting: before the bot's move
    POST   /api/bot/game/{id}/setup          Sittuyin's screened setup: the bot's camp

Every route but the first takes ``Authorization: Bearer <token>``. A stream sends an empty
line every :data:`KEEPALIVE_SECONDS` when nothing happens, so that a client or proxy sees the
connection alive; the event stream ends then if its token no longer opens anything (revoked,
or the account disabled by an admin).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from .accounts import Account, accounts_of, signed_in, username_key
from .api import SetupBody, hall_of, room_of, same_origin, view_response
from .api import error_responses as _errors
from .api_tokens import ApiTokens, bearer_of, token_account
from .hall import Hall
from .i18n import N_
from .lobby import Lobby
from .model import GameError
from .room import Room
from .room.view import GameView

router = APIRouter()

#: seconds between an event stream's looks at the games and challenges
POLL_SECONDS = 0.5
#: seconds of silence after which a stream sends an empty line
KEEPALIVE_SECONDS = 6.0
#: game messages a slow game stream may hold before it is dropped
STREAM_BACKLOG = 64
NDJSON = "application/x-ndjson"


class TokenView(BaseModel):
    token: str = Field(description="the API token: shown this once")


class ApiAccountView(BaseModel):
    username: str
    bot: bool
    admin: bool


class ChallengeTaken(BaseModel):
    game: str
    color: str


def _tokens(request: Request) -> ApiTokens:
    tokens: ApiTokens = request.app.state.api_tokens
    return tokens


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


async def _bot(request: Request) -> Account:
    account = await token_account(request)
    if not account.bot:
        raise GameError(403, N_("{name} is no bot: POST /api/bot/account/upgrade first"),
                        name=repr(account.username))  # fmt: skip
    return account


def _side_of(room: Room, account: Account) -> bool:
    """The side ``account`` plays in ``room``; 403 for a game it does not play."""
    for color in (True, False):
        if room.players[color].account == account.username:
            return color
    raise GameError(403, N_("{name} does not play game {game}"),
                    name=repr(account.username), game=repr(room.public_id))  # fmt: skip


# --- tokens and the account -------------------------------------------------------------------


@router.post("/api/tokens", status_code=201, response_model=TokenView,
             responses=_errors(401, 403, 409), summary="Make an API token")  # fmt: skip
async def make_token(request: Request) -> dict[str, str]:
    """A new API token of the signed-in account (a browser's session makes it)."""
    same_origin(request)
    account = await signed_in(request)
    if account is None:
        raise GameError(401, N_("sign in to make an API token"))
    return {"token": await _tokens(request).make(account)}


@router.delete("/api/tokens", status_code=204, responses=_errors(401),
               summary="Revoke the token shown")  # fmt: skip
async def revoke_token(request: Request) -> Response:
    await token_account(request)
    token = bearer_of(request)
    assert token is not None
    await _tokens(request).revoke(token)
    return Response(status_code=204)


@router.get("/api/account", response_model=ApiAccountView, responses=_errors(401),
            summary="The token's account")  # fmt: skip
async def token_owner(request: Request) -> dict[str, Any]:
    account = await token_account(request)
    return {"username": account.username, "bot": account.bot, "admin": account.admin}


@router.post("/api/bot/account/upgrade", response_model=ApiAccountView,
             responses=_errors(401, 409), summary="Make the account a bot's")  # fmt: skip
async def upgrade(request: Request) -> dict[str, Any]:
    account = await token_account(request)
    if not account.bot:
        account = await accounts_of(request).make_bot(account)
    return {"username": account.username, "bot": account.bot, "admin": account.admin}


# --- the event stream and challenges ----------------------------------------------------------


async def _games_of(hall: Hall, account: Account, started: set[str]) -> list[tuple[str, str, bool]]:
    """The games of ``account`` being played, and those of ``started``: each game's id, its
    variant and whether it is being played. Alone, the process has them all in memory; among
    several processes (docs/scaling.md) they are read from the database, since another
    process may serve them."""
    if hall.owners is not None:
        return await hall.store.games_of(account.id, started)
    found = []
    for room in list(hall.rooms.values()):
        if account.username in (room.players[True].account, room.players[False].account):
            found.append((room.public_id, room.row.variant, room.row.status == "playing"))
    return found


async def _events(request: Request, account: Account) -> AsyncIterator[bytes]:
    """The bot's events as they come: its games starting and ending, the challenges to it;
    the stream ends at a keepalive once its token opens nothing (revoked, or its account
    disabled)."""
    hall, lobby, key = hall_of(request), _lobby(request), username_key(account.username)
    tokens = _tokens(request)
    token = bearer_of(request)
    started: set[str] = set()
    challenged: set[str] = set()
    quiet = 0.0
    while True:
        lines = []
        for public_id, variant, playing in await _games_of(hall, account, started):
            game = {"id": public_id, "variant": variant}
            if playing and public_id not in started:
                started.add(public_id)
                lines.append(_line({"type": "gameStart", "game": game}))
            elif not playing and public_id in started:
                started.discard(public_id)
                lines.append(_line({"type": "gameFinish", "game": game}))
        for seek in lobby.open_seeks(account):
            if seek.to == key and seek.id not in challenged:
                challenged.add(seek.id)
                lines.append(_line({"type": "challenge", "challenge": seek.as_json()}))
        if lines:
            quiet = 0.0
            yield b"".join(lines)
        elif quiet >= KEEPALIVE_SECONDS:
            quiet = 0.0
            if await tokens.account_of(token) is None:
                return  # the token was revoked, or an admin disabled the account
            yield b"\n"
        await asyncio.sleep(POLL_SECONDS)
        quiet += POLL_SECONDS


@router.get("/api/stream/event", responses=_errors(401, 403),
            summary="The bot's events (NDJSON)")  # fmt: skip
async def event_stream(request: Request) -> StreamingResponse:
    account = await _bot(request)
    return StreamingResponse(_events(request, account), media_type=NDJSON)


@router.post("/api/challenge/{seek_id}/accept", response_model=ChallengeTaken,
             responses=_errors(401, 403, 404, 409), summary="Take a challenge")  # fmt: skip
async def accept_challenge(seek_id: str, request: Request) -> dict[str, Any]:
    account = await _bot(request)
    created = await _lobby(request).accept(seek_id, account, account.username)
    return {"game": created.room.public_id, "color": created.color}


@router.post("/api/challenge/{seek_id}/decline", status_code=204,
             responses=_errors(401, 403, 404, 409), summary="Turn a challenge down")  # fmt: skip
async def decline_challenge(seek_id: str, request: Request) -> Response:
    account = await _bot(request)
    _lobby(request).decline(seek_id, account)
    return Response(status_code=204)


# --- a game -----------------------------------------------------------------------------------


class _Feed:
    """A game's subscriber that keeps its messages for a stream (it looks like a socket to
    :func:`~kradan.web.hall.send_to_all`)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue(STREAM_BACKLOG)

    async def send_text(self, text: str) -> None:
        self.queue.put_nowait(text)  # a full queue raises: the hall drops this subscriber


def game_state(view: dict[str, Any]) -> dict[str, Any]:
    """The part of a game view that changes with each move, as lichess's ``gameState``."""
    clock = view.get("clock") or {}
    return {
        "type": "gameState",
        "moves": " ".join(view["moves"]),
        "wtime": clock.get("white_ms"),
        "btime": clock.get("black_ms"),
        "winc": clock.get("increment_ms"),
        "binc": clock.get("increment_ms"),
        "status": "started" if view["status"] == "playing" else "ended",
        "result": view["result"],
        "termination": view["termination"],
        "turn": view["turn"],
        "draw_offer": view.get("draw_offer"),
        # what the rules let the bot do besides moving (its seat's view says the same)
        "count_actions": view.get("count_actions") or [],
        "counting": view.get("counting"),
        "can_declare_count": view.get("can_declare_count", False),
        "can_stop_count": view.get("can_stop_count", False),
        "can_claim_draw": view.get("can_claim_draw", False),
        "can_abort": view.get("can_abort", False),
        "setup": view.get("setup"),
        "gone": view.get("gone"),
    }


def _seat(data: dict[str, Any], side: str) -> dict[str, Any]:
    """A side's player: the name shown, and the account (``None``: a guest or the engine)."""
    accounts = data.get("accounts") or {}
    return {"name": data["players"][side], "account": accounts.get(side)}


def game_full(view: GameView) -> dict[str, Any]:
    data = view.model_dump()
    return {
        "type": "gameFull",
        "id": data["id"],
        "variant": data["variant"],
        "options": data["options"],
        "initialFen": data["start_fen"],
        "rated": data["rated"],
        "white": _seat(data, "white"),
        "black": _seat(data, "black"),
        "state": game_state(data),
    }


async def _game_lines(room: Room, feed: _Feed, color: bool) -> AsyncIterator[bytes]:
    """The game's lines while the bot reads them; the bot's seat counts as present meanwhile
    (an opponent cannot claim the game as abandoned while the bot's stream is open)."""
    try:
        yield _line(game_full(room.view()))
        if not room.playing:
            return
        while True:
            try:
                text = await asyncio.wait_for(feed.queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                if feed not in room.subscribers:  # dropped as too slow: end, the bot reconnects
                    return
                yield b"\n"
                continue
            message = json.loads(text)
            if message.get("type") != "game":
                continue
            state = game_state(message["game"])
            yield _line(state)
            if state["status"] == "ended":
                return
    finally:
        room.subscribers.discard(feed)
        room.host.spawn(room, room.leave(color))  # not awaited here: the stream may be cancelled


@router.get("/api/bot/game/stream/{game_id}", responses=_errors(401, 403, 404),
            summary="A game of the bot's (NDJSON)")  # fmt: skip
async def game_stream(game_id: str, request: Request) -> StreamingResponse:
    account = await _bot(request)
    room = await room_of(request, game_id)
    color = _side_of(room, account)
    feed = _Feed()
    await room.arrive(color, feed)
    room.subscribers.add(feed)
    return StreamingResponse(_game_lines(room, feed, color), media_type=NDJSON)


@router.post("/api/bot/game/{game_id}/move/{move}", response_model=GameView,
             responses=_errors(400, 401, 403, 404, 409), summary="The bot's move")  # fmt: skip
async def bot_move(game_id: str, move: str, request: Request) -> Response:
    account = await _bot(request)
    room = await room_of(request, game_id)
    color = _side_of(room, account)
    room.mark_seen(color)
    return view_response(await room.play(color, move[:64]))


@router.post("/api/bot/game/{game_id}/resign", response_model=GameView,
             responses=_errors(401, 403, 404, 409), summary="The bot resigns")  # fmt: skip
async def bot_resign(game_id: str, request: Request) -> Response:
    account = await _bot(request)
    room = await room_of(request, game_id)
    return view_response(await room.act(_side_of(room, account), "resign"))


async def _act(game_id: str, request: Request, action: str) -> Response:
    """The bot's side of game ``game_id`` takes ``action`` (:meth:`Room.act`)."""
    account = await _bot(request)
    room = await room_of(request, game_id)
    color = _side_of(room, account)
    room.mark_seen(color)
    return view_response(await room.act(color, action))


@router.post("/api/bot/game/{game_id}/abort", response_model=GameView,
             responses=_errors(401, 403, 404, 409),
             summary="The bot aborts a game before both sides have moved")  # fmt: skip
async def bot_abort(game_id: str, request: Request) -> Response:
    return await _act(game_id, request, "abort")


@router.post("/api/bot/game/{game_id}/draw/{accept}", response_model=GameView,
             responses=_errors(401, 403, 404, 409, 422),
             summary="The bot offers or accepts a draw (yes), or declines one (no)")  # fmt: skip
async def bot_draw(game_id: str, accept: str, request: Request) -> Response:
    """``yes``: accept the opponent's offer, or offer a draw when there is none; ``no``:
    decline the opponent's offer (409 when there is none)."""
    if accept not in ("yes", "no"):
        raise GameError(422, N_("a draw is answered yes or no, not {answer}"),
                        answer=repr(accept[:20]))  # fmt: skip
    account = await _bot(request)
    room = await room_of(request, game_id)
    color = _side_of(room, account)
    offered_to_bot = room.draw_offer is (not color)
    if accept == "no":
        return await _act(game_id, request, "decline_draw")
    return await _act(game_id, request, "accept_draw" if offered_to_bot else "offer_draw")


@router.post("/api/bot/game/{game_id}/claim-draw", response_model=GameView,
             responses=_errors(401, 403, 404, 409),
             summary="The bot claims a draw the rules allow now")  # fmt: skip
async def bot_claim_draw(game_id: str, request: Request) -> Response:
    return await _act(game_id, request, "claim_draw")


@router.post("/api/bot/game/{game_id}/claim-victory", response_model=GameView,
             responses=_errors(401, 403, 404, 409),
             summary="The bot claims a game its opponent has left")  # fmt: skip
async def bot_claim_victory(game_id: str, request: Request) -> Response:
    """As ``POST /api/games/{id}/claim-win``: once the view's ``gone.claim_in_ms`` is 0."""
    return await _act(game_id, request, "claim_win")


@router.post("/api/bot/game/{game_id}/count/{kind}", response_model=GameView,
             responses=_errors(401, 403, 404, 409, 422),
             summary="The bot declares or stops a count (declared counting)")  # fmt: skip
async def bot_count(game_id: str, kind: str, request: Request) -> Response:
    """``declare`` or ``stop``, on the bot's turn and before its move, where the state's
    ``can_declare_count`` / ``can_stop_count`` allow it."""
    if kind not in ("declare", "stop"):
        raise GameError(422, N_("a count is declared or stopped, not {kind}"),
                        kind=repr(kind[:20]))  # fmt: skip
    return await _act(game_id, request, f"{kind}_count")


@router.post("/api/bot/game/{game_id}/setup", response_model=GameView,
             responses=_errors(400, 401, 403, 404, 409, 413, 422),
             summary="The bot hands in its camp (Sittuyin's screened setup)")  # fmt: skip
async def bot_setup(game_id: str, body: SetupBody, request: Request) -> Response:
    """As ``POST /api/games/{id}/setup``: an arrangement, or a preset's name."""
    account = await _bot(request)
    room = await room_of(request, game_id)
    color = _side_of(room, account)
    room.mark_seen(color)
    return view_response(await room.setup(color, body.arrangement))


__all__ = ["router"]
