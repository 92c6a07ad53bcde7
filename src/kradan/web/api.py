"""The JSON API of ``kradan serve`` and its websocket, as FastAPI routes (documented at
``/docs``).

Every error is ``{"error": "<message quoting the bad input>"}`` with a 4xx status, and leaves
the game as it was. The message is in the language the pages would be shown in (the
``kradan_lang`` cookie, else ``Accept-Language``), English for a client that sends neither.
A request proves its seat with ``Authorization: Bearer <token>`` or the seat cookie
``kradan_seat_<id>`` (HttpOnly, SameSite=Lax) that creating or joining a game sets.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response, WebSocket
from fastapi.responses import PlainTextResponse, RedirectResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect

from . import i18n, listing
from .accounts import player_name, signed_in
from .hall import Hall
from .i18n import N_
from .limits import creation_allowed
from .model import GameError, NewGame, Player
from .origins import same_origin
from .room import GameView, Room
from .room.view import PlayersView, game_message

#: the largest request body and websocket message, in bytes
MAX_BODY = 4096
#: a game id: 12 URL-safe characters
GAME_ID = r"^[A-Za-z0-9_-]{12}$"
COOKIE_PREFIX = "kradan_seat_"
COOKIE_MAX_AGE = 365 * 24 * 3600

GameId = Annotated[
    str,
    Path(
        min_length=12,
        max_length=12,
        pattern=GAME_ID,
        description="the game's id: 12 URL-safe characters",
        examples=["Xk2_9aQw-Lm3"],
    ),
]

router = APIRouter()

# --- the shapes of requests and answers --------------------------------------------------------

OptionValue = bool | int | str | list[str]


class NewGameBody(BaseModel):
    """A new game."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variant: str = Field("makruk", min_length=1, max_length=40, description="any game name")
    options: dict[str, OptionValue] = Field(
        default_factory=dict, max_length=40, description="rule options, e.g. counting=declared"
    )
    opponent: Literal["engine", "human"] = "engine"
    level: int = Field(10, ge=1, le=20, description="the engine's level")
    color: Literal["white", "black", "random"] = "white"
    clock: str | None = Field(
        None,
        max_length=20,
        description="base+increment: the base in seconds ('300+2', '30+0'), or with a unit "
        "('30s+0', '5m+3', '½+0'); the increment in seconds",
        examples=["300+2", "30s+0", "1m+0"],
    )
    fen: str | None = Field(None, max_length=200, description="the start position")
    name: str | None = Field(
        None, max_length=64, description="your name as a guest (signed in: your account's)"
    )
    rated: bool = Field(
        False,
        description="a game against the engine that moves your rating (signed in); rated "
        "games between people start from the lobby (POST /api/seeks)",
    )
    public: bool | None = Field(
        None,
        description="list the game publicly (GET /api/games, the PGN export); by default a "
        "game against the engine is listed and a game between people (an invitation) is not. "
        "A private game is still read by whoever has its id",
    )


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    move: str = Field(min_length=1, max_length=64, description="the move in UCI, e.g. e3e4")


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    action: Literal[
        "resign", "offer_draw", "accept_draw", "decline_draw", "claim_draw", "takeback",
        "declare_count", "stop_count", "abort", "claim_win",
    ]  # fmt: skip


class SetupBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    arrangement: dict[str, str] | str = Field(
        description="your camp: squares to piece letters (K, F, S, N, R), e.g. "
        '{"e2": "K", "d2": "F", "c1": "S", ...}, or a preset: standard, mirrored, fortress',
        examples=[
            {"a1": "R", "b2": "N", "c1": "S", "d2": "F", "e2": "K", "f1": "S", "g2": "N", "h1": "R"}
        ],
    )


class ErrorView(BaseModel):
    error: str


class ReadMove(BaseModel):
    uci: str = Field(description="the move in UCI, as POST /api/games/{id}/moves takes it")
    san: str = Field(description="the move in SAN")


class CreatedView(BaseModel):
    id: str
    token: str = Field(description="your seat's token")
    color: Literal["white", "black"]
    invite: str | None = Field(description="the other seat's token (a game between people)")
    warnings: list[str] = Field(
        default_factory=list,
        description="what is odd about the start position (it is played all the same)",
    )


class GameSummary(BaseModel):
    id: str
    variant: str
    players: PlayersView
    result: str
    termination: str | None
    created: str
    ply: int


class GameList(BaseModel):
    games: list[GameSummary]


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that answers ``codes`` with an :class:`ErrorView`."""
    return {code: {"model": ErrorView} for code in codes}


# --- helpers -----------------------------------------------------------------------------------


def unknown_game(game_id: str) -> GameError:
    """The 404 of a game id that names no game."""
    return GameError(404, N_("unknown game {game}"), game=repr(game_id))


def hall_of(request: Request | WebSocket) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


def cookie_name(game_id: str) -> str:
    return COOKIE_PREFIX + game_id


def seat_token(request: Request, game_id: str) -> str | None:
    """The token the request shows: ``Authorization: Bearer``, else the seat cookie."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise GameError(
                401,
                N_("bad Authorization header {header}: use 'Bearer <token>'"),
                header=repr(header[:40]),
            )
        return value.strip()
    return request.cookies.get(cookie_name(game_id))


async def room_of(request: Request | WebSocket, game_id: str) -> Room:
    room = await hall_of(request).get(game_id)
    if room is None:
        raise unknown_game(game_id)
    return room


async def seated(request: Request, game_id: str) -> tuple[Room, bool]:
    """The game a changing request is for, and the side whose seat its token proves (a
    same-origin request only)."""
    same_origin(request)
    room = await room_of(request, game_id)
    color = room.seat_of(seat_token(request, game_id))
    room.mark_seen(color)  # a seat that asks is there
    return room, color


def view_response(view: GameView) -> Response:
    """``view`` as the answer, sent as it is (the route's ``response_model`` documents it)."""
    return Response(view.model_dump_json(), media_type="application/json")


def set_seat_cookie(response: Response, game_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(game_id),
        token,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
    )


# --- routes ------------------------------------------------------------------------------------


@router.post(
    "/api/games",
    status_code=201,
    response_model=CreatedView,
    responses=error_responses(400, 403, 413, 429),
    summary="Start a game",
    dependencies=[Depends(creation_allowed)],
)
async def create_game(body: NewGameBody, request: Request, response: Response) -> dict[str, Any]:
    """Start a game against the engine or between two people. The answer holds your seat's
    token (also set as the cookie ``kradan_seat_<id>``) and, between people, the other seat's
    token for the invitation link ``/join/<id>?seat=<invite>``. Each client address may create
    so many games a minute (``kradan serve --create-rate``); past that: 429 with
    ``Retry-After``."""
    same_origin(request)
    account = await signed_in(request)
    fields = body.model_dump(exclude={"name"})
    if body.rated and account is None:
        raise GameError(401, N_("a rated game needs an account: sign in first"))
    if body.rated and body.opponent != "engine":
        raise GameError(400, N_("a rated game between people starts from the lobby"))
    me = Player("human", name=player_name(account, body.name) if account or body.name else None,
                account=None if account is None else account.username)  # fmt: skip
    created = await hall_of(request).create(
        NewGame(**fields, me=me, my_account_id=None if account is None else account.id)
    )
    set_seat_cookie(response, created.room.public_id, created.token)
    return {
        "id": created.room.public_id,
        "token": created.token,
        "color": created.color,
        "invite": created.invite,
        "warnings": created.warnings,
    }


@router.get(
    "/api/games",
    response_model=GameList,
    responses=error_responses(400),
    summary="The newest public games",
)
async def list_games(
    request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> dict[str, Any]:
    """The newest games listed publicly, the newest first (private games are left out)."""
    rows = await listing.newest(hall_of(request).store, listing.PUBLIC, limit)
    return {"games": [listing.summary(row) for row in rows]}


#: the query parameters of a PGN export, documented for /docs (checked by :mod:`.listing`, which
#: answers 422 quoting a bad one)
ExportLimit = Annotated[
    str | None,
    Query(
        description=f"games in the page: 1 to {listing.MAX_LIMIT} "
        f"(default {listing.DEFAULT_LIMIT})",
        examples=["100"],
    ),
]
ExportAfter = Annotated[
    str | None,
    Query(
        description="the cursor: the page starts after the game of this id (the Link header's "
        "next page names it)",
        examples=["Xk2_9aQw-Lm3"],
    ),
]


@router.get(
    "/api/games.pgn",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/plain": {}}}, **error_responses(422)},
    summary="The public games as PGN, page by page",
)
async def all_games_pgn(
    request: Request, limit: ExportLimit = None, after: ExportAfter = None
) -> StreamingResponse:
    """The public games as PGN, the oldest first (creation time, then the order they were
    made), ``limit`` games a page, streamed game by game. A page followed by more has the header
    ``Link: </api/games.pgn?limit=100&after=<id>>; rel="next"``: follow it until a page has
    none."""
    return await listing.export(request, hall_of(request), listing.PUBLIC, limit, after)


@router.get(
    "/api/games/{game_id}",
    response_model=GameView,
    responses=error_responses(404),
    summary="A game",
)
async def get_game(game_id: GameId, request: Request) -> Response:
    """The game as everyone sees it, and ``seat``: the side the request's token or cookie
    holds (``null`` for a spectator)."""
    room = await room_of(request, game_id)
    token = seat_token(request, game_id)
    try:
        seat = room.seat_of(token) if token else None
    except GameError:
        seat = None
    if seat is not None:
        room.mark_seen(seat)
    await room.refresh()  # a game whose first moves did not come in time is aborted
    return view_response(room.view(seat))


@router.get(
    "/api/games/{game_id}/pgn",
    response_class=PlainTextResponse,
    responses=error_responses(404),
    summary="A game as PGN",
)
async def game_pgn(game_id: GameId, request: Request) -> PlainTextResponse:
    text = await hall_of(request).pgn(game_id)
    if text is None:
        raise unknown_game(game_id)
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8")


@router.post(
    "/api/games/{game_id}/moves",
    response_model=GameView,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    summary="Play a move",
)
async def play_move(game_id: GameId, body: MoveBody, request: Request) -> Response:
    """Play a move (UCI) from your seat. The answer comes after the move is stored."""
    room, color = await seated(request, game_id)
    return view_response(await room.play(color, body.move))


@router.get(
    "/api/games/{game_id}/read-move",
    response_model=ReadMove,
    responses=error_responses(400, 404, 409, 422),
    summary="Read a typed move",
)
async def read_move(
    game_id: GameId,
    request: Request,
    move: Annotated[str, Query(min_length=1, max_length=64)],
) -> dict[str, str]:
    """The legal move that ``move`` writes in the game's position now, in UCI (``e3e4``,
    ``R@a1``), SAN (``e4``, ``Rb1+``) or Thai SAN (``จ๔``): its UCI and SAN. Nothing is played
    (the board's move box plays the UCI it answers)."""
    room = await room_of(request, game_id)
    uci, san = room.read_move(move)
    return {"uci": uci, "san": san}


@router.post(
    "/api/games/{game_id}/actions",
    response_model=GameView,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    summary="Resign, offer or answer a draw, claim one, take back, declare or stop a count, "
    "abort, claim a game the opponent left",
)
async def take_action(game_id: GameId, body: ActionBody, request: Request) -> Response:
    """``takeback`` is for games against the engine: it takes back the engine's reply and
    your move. ``abort`` and ``claim_win`` are ``POST .../abort`` and ``POST .../claim-win``."""
    room, color = await seated(request, game_id)
    return view_response(await room.act(color, body.action))


@router.post(
    "/api/games/{game_id}/abort",
    response_model=GameView,
    responses=error_responses(401, 403, 404, 409),
    summary="Abort a game before both sides have moved",
)
async def abort_game(game_id: GameId, request: Request) -> Response:
    """Until each side has made its first move, either player may abort the game: it ends
    with the result ``*`` and the termination ``aborted``, unrated. (Between people the server
    aborts it too when the side to move does not make its first move in time: the view's
    ``abort_in_ms``.) 409 once both sides have moved."""
    room, color = await seated(request, game_id)
    return view_response(await room.act(color, "abort"))


@router.post(
    "/api/games/{game_id}/claim-win",
    response_model=GameView,
    responses=error_responses(401, 403, 404, 409),
    summary="Claim a game your opponent has left",
)
async def claim_win(game_id: GameId, request: Request) -> Response:
    """Once both sides have moved, when your opponent (a person) has had no connection to the
    game for long enough (the view's ``gone``: its ``claim_in_ms`` is 0), the game is yours:
    a win, or a draw if you could not possibly mate; the termination is ``abandoned``. 409
    before that, while the opponent is connected, and against the engine."""
    room, color = await seated(request, game_id)
    return view_response(await room.act(color, "claim_win"))


@router.post(
    "/api/games/{game_id}/setup",
    response_model=GameView,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    summary="Hand in your camp in Sittuyin's screened setup",
)
async def hand_in_setup(game_id: GameId, body: SetupBody, request: Request) -> Response:
    """For a Sittuyin game with ``sittuyin_setup=screened``: your seat hands in its whole
    arrangement, once. Nobody else sees it until both sides have handed in; then both are
    played as drops (White first) and the game begins. The answer comes after it is stored."""
    room, color = await seated(request, game_id)
    return view_response(await room.setup(color, body.arrangement))


@router.get(
    "/join/{game_id}",
    status_code=303,
    responses=error_responses(401, 403, 404),
    summary="Take a seat by an invitation link",
    response_class=RedirectResponse,
)
async def join(
    game_id: GameId,
    request: Request,
    seat: Annotated[str, Query(min_length=1, max_length=100)],
) -> RedirectResponse:
    """Sets the seat cookie of the invitation's token and goes on to the game's page. It
    never makes a move."""
    room = await room_of(request, game_id)
    await room.take_seat(seat)  # the inviter's page learns that the invitation was taken up
    response = RedirectResponse(f"/games/{game_id}", status_code=303)
    set_seat_cookie(response, game_id, seat)
    response.headers["cache-control"] = "no-store"
    return response


# --- the websocket -----------------------------------------------------------------------------


async def _send_error(socket: WebSocket, error: GameError) -> None:
    """Tell ``socket`` why its message was refused, in the language its page is shown in (the
    ``kradan_lang`` cookie and ``Accept-Language`` of the connection; English without them)."""
    text = error.text(i18n.connection_language(socket))
    await socket.send_json({"type": "error", "error": text, "status": error.status})


def _message(text: str | None, data: bytes | None) -> dict[str, Any]:
    if text is None:
        size = len(data or b"")
        if size > MAX_BODY:
            raise GameError(
                413,
                N_("message of {size} bytes refused: the limit is {limit}"),
                size=size,
                limit=MAX_BODY,
            )
        raise GameError(400, N_("binary messages are not understood: send JSON text"))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BODY:
        raise GameError(
            413,
            N_("message of {size} characters refused: the limit is {limit} bytes"),
            size=len(text),
            limit=MAX_BODY,
        )
    try:
        message = json.loads(text)
    except ValueError:
        raise GameError(400, N_("malformed JSON {text}"), text=repr(text[:80])) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise GameError(
            400, N_("expected an object with a 'type', not {text}"), text=repr(text[:80])
        )
    return message


def _text_field(message: dict[str, Any], name: str, limit: int) -> str:
    value = message.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        shown = json.dumps(value)[:80]
        raise GameError(
            400,
            N_("{kind} needs {field} as a string, not {value}"),
            kind=repr(message["type"]),
            field=repr(name),
            value=shown,
        )
    return value


async def socket_game(socket: WebSocket, game_id: str) -> Room | None:
    """The game a websocket opening is for; ``None`` once it is closed: 4403 for another
    site's page, 4404 for no such game."""
    try:
        same_origin(socket)
    except GameError:
        await socket.close(code=4403)
        return None
    room = await hall_of(socket).get(game_id) if re.fullmatch(GAME_ID, game_id) else None
    if room is None:
        await socket.close(code=4404)
    return room


@router.websocket("/api/games/{game_id}/socket")
async def game_socket(socket: WebSocket, game_id: str) -> None:
    """The game's live feed: ``{"type": "game", "game": ...}`` on connect and after every
    change; send ``{"type": "move", "move": "e3e4"}``, ``{"type": "action", "action": ...}``
    (``"abort"`` and ``"claim_win"`` among the actions), ``{"type": "setup", "arrangement":
    {...}}`` or ``{"type": "auth", "token": ...}``. A socket that proves a seat (its cookie or
    ``auth``) keeps that player present: when the seat's last socket closes, the opponent may
    claim the game after a while (the view's ``gone``)."""
    room = await socket_game(socket, game_id)
    if room is None:
        return
    await socket.accept()
    color: bool | None = None
    cookie = socket.cookies.get(cookie_name(game_id))
    if cookie:
        try:
            color = room.seat_of(cookie)
        except GameError:
            color = None
    if color is not None:
        await room.arrive(color, socket)  # the others learn that this seat is back
    async with room.send_lock:
        room.subscribers.add(socket)
        await socket.send_text(game_message(room.view()))
    try:
        while True:
            received = await socket.receive()
            if received["type"] == "websocket.disconnect":
                break
            try:
                message = _message(received.get("text"), received.get("bytes"))
                kind = message["type"]
                if kind == "auth":
                    proved = room.seat_of(_text_field(message, "token", 100))
                    if proved != color:
                        if color is not None:
                            await room.leave(color)
                        color = proved
                        await room.arrive(color, socket)
                    continue
                if kind not in ("move", "action", "setup"):
                    raise GameError(400, N_("unknown message type {kind}"), kind=repr(kind[:40]))
                if color is None:
                    raise GameError(
                        401,
                        N_("no seat: spectators of game {game} only watch"),
                        game=repr(game_id),
                    )
                if kind == "move":
                    await room.play(color, _text_field(message, "move", 64))
                elif kind == "setup":
                    await room.setup(color, message.get("arrangement"))
                else:
                    await room.act(color, _text_field(message, "action", 20))
            except GameError as error:
                async with room.send_lock:
                    await _send_error(socket, error)
    except WebSocketDisconnect:
        pass
    finally:
        room.subscribers.discard(socket)
        if color is not None:
            await room.leave(color)  # the others learn that this seat is gone


__all__ = ["MAX_BODY", "router", "same_origin"]  # same_origin: from .origins
