"""The chat's routes (:mod:`.chat`), in ``/docs``:

    GET    /api/games/{id}/chat?room=players|spectators    {room, messages}
    POST   /api/games/{id}/chat {room, text}                201 the message
    DELETE /api/chat/{message_id}                           204 (an admin)
    WS     /api/games/{id}/chat/socket?room=...             {type: "chat", messages} on arrival,
                                                            then {type: "said", message} and
                                                            {type: "removed", id}

A player proves the seat as for moves (``Authorization: Bearer <seat token>`` or the seat
cookie; the socket reads the cookie); an account by its session cookie.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request, Response, WebSocket
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from .accounts import SESSION_COOKIE, Account, accounts_of, signed_in
from .api import cookie_name, room_of, same_origin, seat_token, socket_game
from .api import error_responses as _errors
from .audit import Audit
from .chat import MAX_TEXT, Chat, Room, Speaker
from .i18n import N_
from .model import GameError
from .room import Room as GameRoom

router = APIRouter()

#: the largest message id (the column is a 32-bit integer on PostgreSQL)
MAX_ID = 2**31 - 1
ROOM_QUERY = Query(description="players (the two seats) or spectators")


class ChatBody(BaseModel):
    room: Room = "players"
    text: str = Field(min_length=1, max_length=4 * MAX_TEXT)


class ChatMessageView(BaseModel):
    id: int
    room: Room
    name: str
    account: str | None = Field(description="the speaker's account, if one was signed in")
    text: str = Field(description="plain text: never HTML")
    at: str = Field(description="when it was said (UTC, ISO 8601)")


class ChatView(BaseModel):
    room: Room
    messages: list[ChatMessageView] = Field(description="the newest 200, oldest first")


def chat_of(request: Request | WebSocket) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


def _may_read(room: Room, seat: bool | None, account: Account | None, playing: bool) -> bool:
    if account is not None and account.admin:
        return True
    if room == "players":
        return seat is not None
    return seat is None or not playing


def _speaker(game: GameRoom, room: Room, seat: bool | None, account: Account | None) -> Speaker:
    """Who speaks in ``room``, or the refusal: a players' room needs a seat, the
    spectators' an account (and, for a player, a game that has ended)."""
    playing = game.row.status == "playing"
    if room == "players":
        if seat is None:
            raise GameError(401, N_("only the players write in the players' chat"))
        player = game.players[seat]
        name = player.account or player.name or ("white" if seat else "black")
        account_id = account.id if account is not None and player.account else None
        key = f"account:{account_id}" if account_id else f"seat:{game.public_id}:{int(seat)}"
        return Speaker(name, account_id, key)
    if account is None:
        raise GameError(401, N_("sign in to write in the spectators' chat"))
    if seat is not None and playing:
        raise GameError(403, N_("a player writes in the spectators' chat once the game ends"))
    return Speaker(account.username, account.id, f"account:{account.id}")


async def _seat(request: Request, game: GameRoom) -> bool | None:
    """The seat the request proves, if any (a token of no seat of this game: 403)."""
    token = seat_token(request, game.public_id)
    return None if not token else game.seat_of(token)


@router.get("/api/games/{game_id}/chat", response_model=ChatView,
            responses=_errors(401, 403, 404), summary="A game's chat")  # fmt: skip
async def read_chat(
    game_id: str, request: Request, room: Annotated[Room, ROOM_QUERY] = "players"
) -> dict[str, Any]:
    game = await room_of(request, game_id)
    seat = await _seat(request, game)
    account = await signed_in(request)
    if room == "players" and seat is None and not (account is not None and account.admin):
        raise GameError(401, N_("no seat: game {game} needs a seat token"), game=repr(game_id))
    if not _may_read(room, seat, account, game.row.status == "playing"):
        raise GameError(403, N_("this chat of game {game} is not yours to read"),
                        game=repr(game_id))  # fmt: skip
    return {"room": room, "messages": await chat_of(request).history(game.public_id, room)}


@router.post("/api/games/{game_id}/chat", status_code=201, response_model=ChatMessageView,
             responses=_errors(400, 401, 403, 404, 429), summary="Say something")  # fmt: skip
async def say(game_id: str, body: Annotated[ChatBody, Body()], request: Request) -> Any:
    """A message in the players' chat (a seat) or the spectators' (an account); at most 5
    in 10 seconds."""
    same_origin(request)
    game = await room_of(request, game_id)
    seat = await _seat(request, game)
    speaker = _speaker(game, body.room, seat, await signed_in(request))
    return await chat_of(request).say(game.public_id, body.room, speaker, body.text)


@router.delete("/api/chat/{message_id}", status_code=204, responses=_errors(401, 403, 404),
               summary="Remove a message (an admin)")  # fmt: skip
async def remove(
    message_id: Annotated[int, Path(ge=1, le=MAX_ID, description="the message's id")],
    request: Request,
) -> Response:
    same_origin(request)
    account = await signed_in(request)
    if account is None:
        raise GameError(401, N_("sign in as an admin to remove a message"))
    if not account.admin:
        raise GameError(403, N_("only an admin removes messages"))
    await chat_of(request).remove(message_id, account.id)
    audit: Audit = request.app.state.audit
    await audit.record(account.id, account.username, "remove_message", str(message_id))
    return Response(status_code=204)


#: how long a chat socket that needs a token waits for it
AUTH_SECONDS = 10.0


def _seat_by(game: GameRoom, token: str | None) -> bool | None:
    """The seat ``token`` proves in ``game``, or ``None`` (no token, or one of no seat)."""
    if not token:
        return None
    try:
        return game.seat_of(token)
    except GameError:
        return None


async def _auth_token(socket: WebSocket) -> str | None:
    """The token of the socket's first message, ``{"type": "auth", "token": ...}``, if it
    comes within :data:`AUTH_SECONDS` and is one."""
    try:
        message = await asyncio.wait_for(socket.receive_json(), AUTH_SECONDS)
    except (TimeoutError, ValueError, KeyError, WebSocketDisconnect, RuntimeError):
        return None
    if isinstance(message, dict) and message.get("type") == "auth":
        token = message.get("token")
        return token if isinstance(token, str) and len(token) <= 100 else None
    return None


@router.websocket("/api/games/{game_id}/chat/socket")
async def chat_socket(socket: WebSocket, game_id: str, room: Room = "players") -> None:
    """The room's messages as they are said and removed (read only: say with POST). A seat
    is proved by its cookie, or by a first message ``{"type": "auth", "token": ...}``."""
    game = await socket_game(socket, game_id)
    if game is None:
        return
    account = await accounts_of(socket).of_session(socket.cookies.get(SESSION_COOKIE))
    playing = game.row.status == "playing"
    await socket.accept()
    seat = _seat_by(game, socket.cookies.get(cookie_name(game_id)))
    if not _may_read(room, seat, account, playing):
        # a seat kept by the page rather than by its cookie: its first message shows the token
        seat = _seat_by(game, await _auth_token(socket))
        if not _may_read(room, seat, account, playing):
            await socket.close(code=4403)
            return
    chat = chat_of(socket)
    chat.listen(game.public_id, room, socket)
    try:
        messages = await chat.history(game.public_id, room)
        await socket.send_json({"type": "chat", "room": room, "messages": messages})
        while True:  # nothing is read from the socket but its end
            received = await socket.receive()
            if received["type"] == "websocket.disconnect":
                break
    except WebSocketDisconnect:
        pass
    finally:
        chat.forget(game.public_id, room, socket)


__all__ = ["router"]
