"""Analysis in ``kradan serve``: the engine's best lines for any position, as one answer
(``POST /api/analysis``) or live over a websocket (``/api/analysis/socket``), documented at
``/docs``.

The searches run in the engine pool's workers at analysis priority (:mod:`.engine_pool`: every
move of a game goes first, and clients share the workers fairly); the lines are written there,
in SAN and Thai SAN (:mod:`.analysis_work`). A position is checked here before any worker sees
it: bad input is a 400 (or 413 for an oversized body) whose message quotes it, and changes
nothing. A search nobody waits for is stopped: the HTTP client left, or the socket closed, or
sent a newer request (the latest wins) or ``stop``.

The socket: send ``{"t": "analyse", "id": ..., "variant": ..., "fen": ..., "moves": [...],
"options": {...}, "multipv": 1..5, "movetime_ms": ...}`` or ``{"t": "stop"}``; the server sends
``{"t": "lines", "id": ..., "fen": ..., "depth": ..., "nodes": ..., "lines": [...], "table":
..., "proven": ..., "done": false}`` as the search deepens (at most every :data:`SEND_EVERY`
seconds, the latest lines only), then the deepest lines with ``"done": true`` when the time is
up or a ``stop`` came; a refused message gets ``{"t": "error", "id": ..., "error": ...,
"status": ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from concurrent.futures.process import BrokenProcessPool
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.websockets import WebSocketDisconnect

from ..errors import EngineError, KradanError
from ..games import find_game
from . import i18n
from .analysis_work import AnalysisRequest, position
from .api import MAX_BODY, OptionValue, same_origin
from .api import error_responses as _errors
from .engine_pool import AnalysisJob, EnginePool
from .i18n import N_
from .model import GameError
from .room.moves import why_illegal

router = APIRouter()
log = logging.getLogger("kradan.web")

#: the shortest and longest search ``POST /api/analysis`` runs, and its default, in ms
MIN_MOVETIME_MS = 20
MAX_MOVETIME_MS = 10_000
DEFAULT_MOVETIME_MS = 1_000
#: the socket's longest search and its default (a board left open stops after it), in ms
MAX_SOCKET_MOVETIME_MS = 120_000
DEFAULT_SOCKET_MOVETIME_MS = 30_000
#: the socket sends lines at most this often, in seconds (as lichess's client shows them)
SEND_EVERY = 0.125
#: a socket that takes no message for this many seconds is dropped (and its search stopped)
SEND_SECONDS = 5.0
#: how often an HTTP request's client is checked for having gone, in seconds
DISCONNECT_POLL = 0.1

_sockets = itertools.count(1)

# --- the shapes of requests and answers --------------------------------------------------------

MoveText = Annotated[str, Field(min_length=1, max_length=16)]
ClientId = int | Annotated[str, Field(max_length=40)]


class AnalysisBody(BaseModel):
    """A position to analyse: ``fen`` (default: the game's start) with ``moves`` played from it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variant: str = Field("makruk", min_length=1, max_length=40, description="any game name")
    fen: str | None = Field(None, max_length=200, description="the position (default: the start)")
    moves: list[MoveText] = Field(
        default_factory=list, max_length=600, description="moves in UCI played from the FEN"
    )
    options: dict[str, OptionValue] = Field(
        default_factory=dict, max_length=40, description="rule options, e.g. counting=declared"
    )
    multipv: int = Field(1, ge=1, le=5, description="how many best lines")
    movetime_ms: int = Field(
        DEFAULT_MOVETIME_MS,
        ge=MIN_MOVETIME_MS,
        le=MAX_MOVETIME_MS,
        description="how long to search, in milliseconds",
    )


class AnalyseMessage(AnalysisBody):
    """The socket's request: an analysis, which replaces the one before."""

    t: Literal["analyse"]
    id: ClientId = Field(0, description="echoed in the answers, so stale ones can be told apart")
    movetime_ms: int = Field(
        DEFAULT_SOCKET_MOVETIME_MS, ge=MIN_MOVETIME_MS, le=MAX_SOCKET_MOVETIME_MS
    )


class StopMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    t: Literal["stop"]
    id: ClientId | None = None


class CpScore(BaseModel):
    cp: int = Field(description="centipawns, from White's point of view")


class MateScore(BaseModel):
    mate: int = Field(description="moves to mate: positive, White mates; negative, Black does")


class LineView(BaseModel):
    multipv: int = Field(description="the line's rank, 1 the best")
    depth: int
    seldepth: int
    score: CpScore | MateScore
    moves: list[str] = Field(description="the line in UCI")
    san: list[str]
    thai_san: list[str] | None = Field(description="in Thai SAN (null for a game without)")
    nodes: int = Field(description="nodes the search had visited")


class CountView(BaseModel):
    honour: str = Field(description='the count that applies, e.g. "pieces\' honour"')
    moves_left: int = Field(description="moves the winning side may still make")
    fits: bool = Field(description="whether the mate comes within them")
    exact: bool = Field(description="false when a capture on the way could restart the count")
    text: str


class TableView(BaseModel):
    """The endgame tables' verdict, exact, the count included, for the side to move."""

    result: Literal["win", "draw", "loss"]
    text: str = Field(description='in words, e.g. "win: mate in 12 ..., the count allows 15"')
    table: str
    mate_in: int | None = Field(description="moves to mate (null when drawn)")
    plies: int | None = Field(description="plies to mate, ignoring the count (null: drawn)")
    best_move: str | None
    best_san: str | None
    count: CountView | None


class ProvenView(BaseModel):
    """A proven value of an Alquerque position under Bell's rules, for the side to move:
    from the solved strategy table or a short df-pn search (docs/alquerque-solved.md)."""

    result: Literal["win", "loss"]
    plies: int = Field(description="plies to the end: the winner following the proof, the "
                       "loser holding out longest")  # fmt: skip
    text: str = Field(description='e.g. "proven win in 47"')
    source: Literal["table", "search"] = Field(
        description="the shipped strategy table, or a df-pn search of a late position"
    )
    best_move: str = Field(description="in UCI: the winning move, or the longest resistance")
    best_san: str
    line: list[str] = Field(description="the proven line to the end, in UCI")


class AnalysisView(BaseModel):
    fen: str = Field(description="the position analysed (after the moves)")
    depth: int = Field(description="the deepest depth completed (0: the game is over)")
    nodes: int
    lines: list[LineView]
    table: TableView | None = Field(description="the endgame tables' verdict, if they know it")
    proven: ProvenView | None = Field(
        None, description="a Bell Alquerque position's proven value, if it is known"
    )


# --- checking input ----------------------------------------------------------------------------


def checked_board(body: AnalysisBody) -> Any:
    """The board ``body`` names.

    :raises GameError: 400 for an unknown game, one the engine does not play, a bad option,
        position or move (quoting it).
    """
    try:
        game = find_game(body.variant)
    except (KradanError, ValueError) as error:
        raise GameError(400, str(error)) from None
    if game.searcher is None:
        raise GameError(400, N_("kradan's engine does not play {game}"), game=repr(game.name))
    start = AnalysisRequest(body.variant, dict(body.options), body.fen)
    try:
        board = position(start)
    except (KradanError, ValueError, TypeError) as error:
        raise GameError(400, str(error)) from None
    for text in body.moves:
        fen = board.fen()
        try:
            board.push_uci(text)
        except (KradanError, ValueError) as error:
            reason = why_illegal(error, text, fen)
            if isinstance(reason, str):
                raise GameError(400, reason) from None
            raise GameError(400, reason.template, **reason.params) from None
    return board


def request_for(body: AnalysisBody) -> AnalysisRequest:
    return AnalysisRequest(
        variant=body.variant,
        options=dict(body.options),
        fen=body.fen,
        moves=tuple(body.moves),
        multipv=body.multipv,
        seconds=body.movetime_ms / 1000,
    )


def game_over_answer(board: Any) -> dict[str, Any]:
    return {"fen": board.fen(), "depth": 0, "nodes": 0, "lines": [], "table": None,
            "proven": None}  # fmt: skip


def pool_of(connection: Request | WebSocket) -> EnginePool:
    pool: EnginePool = connection.app.state.pool
    return pool


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def invalid(error: ValidationError) -> GameError:
    """A message that failed its model, as the HTTP API words a bad body (in English)."""
    words = []
    for problem in error.errors()[:3]:
        location = ".".join(str(part) for part in problem.get("loc", ())) or "message"
        got = f" (got {_shown(problem['input'])})" if "input" in problem else ""
        words.append(f"{location}: {problem.get('msg', 'invalid')}{got}")
    said = "; ".join(words)  # pydantic's words, in English as the HTTP API gives them
    return GameError(400, said)


# --- HTTP --------------------------------------------------------------------------------------


@router.post(
    "/api/analysis",
    response_model=AnalysisView,
    responses=_errors(400, 403, 413, 503),
    summary="Analyse a position",
)
async def analyse_position(body: AnalysisBody, request: Request) -> dict[str, Any]:
    """The engine's ``multipv`` best lines after ``movetime_ms`` of search (the answer comes
    then), the endgame tables' verdict with the count when the position is in them, and a Bell
    Alquerque position's proven value when it is known. Moves of games in progress go first:
    under load an analysis waits, and may be paused for them."""
    same_origin(request)
    board = checked_board(body)
    if board.outcome() is not None:
        return game_over_answer(board)
    pool = pool_of(request)
    host = request.client.host if request.client else "unknown"
    submitted = pool.analyse(request_for(body), f"http:{host}")
    watcher = asyncio.create_task(_cancel_when_gone(request, pool, submitted))
    try:
        answer = await asyncio.shield(submitted.result)
    except asyncio.CancelledError:
        if not submitted.result.cancelled():
            pool.cancel(submitted.job)  # this request itself was cancelled
            raise
        raise GameError(503, N_("the analysis was cancelled: the server is stopping")) from None
    except (EngineError, BrokenProcessPool):
        log.exception("an analysis failed in the engine's worker")
        raise GameError(503, N_("the engine could not analyse this position")) from None
    finally:
        watcher.cancel()
    return {"fen": board.fen(), **answer}


async def _cancel_when_gone(request: Request, pool: EnginePool, submitted: AnalysisJob) -> None:
    """Cancel ``submitted`` when the client of ``request`` disconnects before the answer."""
    while not await request.is_disconnected():
        await asyncio.sleep(DISCONNECT_POLL)
    pool.cancel(submitted.job)


# --- the socket --------------------------------------------------------------------------------


def parse_message(text: str | None, data: bytes | None) -> dict[str, Any]:
    """A socket message as a JSON object with a ``t``.

    :raises GameError: 413 for one over :data:`MAX_BODY` bytes, 400 for anything else bad.
    """
    if text is None:
        size = len(data or b"")
        if size > MAX_BODY:
            raise GameError(
                413, N_("message of {size} bytes refused: the limit is {limit}"),
                size=size, limit=MAX_BODY,
            )  # fmt: skip
        raise GameError(400, N_("binary messages are not understood: send JSON text"))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BODY:
        raise GameError(
            413, N_("message of {size} characters refused: the limit is {limit} bytes"),
            size=len(text), limit=MAX_BODY,
        )  # fmt: skip
    try:
        message = json.loads(text)
    except ValueError:
        raise GameError(400, N_("malformed JSON {text}"), text=repr(text[:80])) from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise GameError(400, N_("expected an object with a 't', not {text}"), text=repr(text[:80]))
    return message


class AnalysisSession:
    """One socket's analysis: the running search (one at a time: a new request replaces it)
    and the sender that passes on its latest lines at most every :data:`SEND_EVERY` s."""

    def __init__(self, socket: WebSocket, pool: EnginePool) -> None:
        self.socket = socket
        self.pool = pool
        self.key = f"socket:{next(_sockets)}"
        self.current: AnalysisJob | None = None
        self.current_id: Any = None
        self.fen = ""
        self.pending: dict[str, Any] | None = None
        self.wake = asyncio.Event()
        self.send_lock = asyncio.Lock()
        self.sender = asyncio.create_task(self._send_loop())

    async def handle(self, message: dict[str, Any]) -> None:
        """Act on one message (checked here).

        :raises GameError: for a message refused; the analysis running goes on.
        """
        kind = message["t"]
        if kind == "stop":
            try:
                StopMessage.model_validate(message)
            except ValidationError as error:
                raise invalid(error) from None
            if self.current is not None:
                self.pool.stop(self.current.job)
            return
        if kind != "analyse":
            raise GameError(400, N_("unknown message type {kind}"), kind=repr(kind[:40]))
        try:
            body = AnalyseMessage.model_validate(message)
        except ValidationError as error:
            raise invalid(error) from None
        board = checked_board(body)
        self.cancel()
        self.current_id, self.fen = body.id, board.fen()
        if board.outcome() is not None:
            self.offer(body.id, game_over_answer(board), done=True)
            return
        ident = body.id
        submitted = self.pool.analyse(
            request_for(body), self.key, lambda data: self.offer(ident, data, done=False),
            replaces=True,
        )  # fmt: skip
        self.current = submitted
        submitted.result.add_done_callback(lambda result: self._ended(ident, result))

    def _ended(self, ident: Any, result: asyncio.Future[Any]) -> None:
        if not result.cancelled() and result.exception() is None:
            self.offer(ident, result.result(), done=True)
        elif not result.cancelled():
            log.error("an analysis failed in the engine's worker: %s", result.exception())
            error = GameError(503, N_("the engine could not analyse this position"))
            self.pending = self._error_message(error, ident)
            self.wake.set()

    def offer(self, ident: Any, data: dict[str, Any], *, done: bool) -> None:
        """Lines of request ``ident`` to send (replacing any not sent yet); a replaced
        request's are dropped."""
        if ident != self.current_id:
            return
        self.pending = {"t": "lines", "id": ident, "fen": self.fen, **data, "done": done}
        self.wake.set()

    async def _send_loop(self) -> None:
        """Send what is pending: a request's lines at most every :data:`SEND_EVERY` seconds
        (the latest only); its last lines, a newer request's and errors at once."""
        loop = asyncio.get_running_loop()
        while True:
            if self.pending is None:
                self.wake.clear()
                await self.wake.wait()
                continue
            message, self.pending = self.pending, None
            await self.send(message)
            deadline = loop.time() + SEND_EVERY
            while (left := deadline - loop.time()) > 0:
                pending = self.pending
                if pending is not None and (
                    pending["t"] != "lines" or pending["id"] != message.get("id") or pending["done"]
                ):
                    break
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), left)

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message``; a client that does not take it in :data:`SEND_SECONDS` is
        dropped."""
        try:
            async with self.send_lock, asyncio.timeout(SEND_SECONDS):
                await self.socket.send_text(json.dumps(message))
        except Exception:
            self.cancel()
            with contextlib.suppress(Exception):
                await self.socket.close(code=1011)

    def _error_message(self, error: GameError, ident: Any) -> dict[str, Any]:
        text = error.text(i18n.connection_language(self.socket))
        return {"t": "error", "id": ident, "error": text, "status": error.status}

    async def refuse(self, error: GameError, message: dict[str, Any] | None) -> None:
        ident = message.get("id") if isinstance(message, dict) else None
        if not isinstance(ident, (int, str)) or isinstance(ident, bool):
            ident = None
        await self.send(self._error_message(error, ident))

    def cancel(self) -> None:
        """Drop the running analysis: its lines are not wanted any more."""
        if self.current is not None:
            self.pool.cancel(self.current.job)
            self.current = None
        self.current_id = None
        self.pending = None

    async def close(self) -> None:
        self.cancel()
        self.sender.cancel()
        with contextlib.suppress(BaseException):
            await self.sender


@router.websocket("/api/analysis/socket")
async def analysis_socket(socket: WebSocket) -> None:
    """Live analysis: see the module's docstring for the messages."""
    try:
        same_origin(socket)
    except GameError:
        await socket.close(code=4403)
        return
    await socket.accept()
    session = AnalysisSession(socket, pool_of(socket))
    try:
        while True:
            received = await socket.receive()
            if received["type"] == "websocket.disconnect":
                break
            message: dict[str, Any] | None = None
            try:
                message = parse_message(received.get("text"), received.get("bytes"))
                await session.handle(message)
            except GameError as error:
                await session.refuse(error, message)
    except WebSocketDisconnect:
        pass
    finally:
        await session.close()


__all__ = [
    "AnalysisBody",
    "AnalysisSession",
    "AnalysisView",
    "LineView",
    "ProvenView",
    "TableView",
    "checked_board",
    "router",
]
