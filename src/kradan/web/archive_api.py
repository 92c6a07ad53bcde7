"""The archive's and the explorer's JSON API (FastAPI routes, documented at ``/docs``):

* ``POST /api/archive``: a PGN body of any size (streamed; up to :data:`ARCHIVE_MAX_BODY`
  bytes) -> ``{imported, duplicates, errors: [{line, message}], more_errors}``; each client
  address may import so many bytes a minute (:mod:`.rate_limit`), beyond which it is answered
  429 with ``Retry-After``;
* ``GET /api/archive?variant=&player=&color=&result=&since=&until=&moves=&after=&limit=`` ->
  ``{games: [...], next}`` (``next`` is the ``after`` of the next page);
* ``GET /api/archive/{id}`` -> ``{id, variant, fen, headers, moves, pgn}``;
* ``GET /api/archive.pgn?<the same filters>&limit=``: the selection as PGN, streamed;
* ``GET /api/explorer?variant=&fen=&play=&player=&color=&result=&since=&until=`` ->
  ``{games, white, draws, black, moves: [{uci, san, thai_san, games, white, draws, black}],
  recent}``.

Bad input is a 400 (an unknown game id a 404) with ``{"error": ...}`` quoting it, and stores
nothing. Every message (a bad filter, date, cursor, position or move, an import's errors by
line) is in the reader's language, as the rest of the API's are; the reasons kradan's rules and
PGN reader give inside them (why a FEN or a move is refused) stay English.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from .api import error_responses as _errors
from .api import same_origin, unknown_game
from .archive import ArchiveStore
from .archive_queries import (
    MAX_PAGE,
    Cursor,
    Filters,
    Opening,
    QueryError,
    board_after,
    canonical_variant,
    export,
    game,
    parse_filters,
    pgn_of,
    search,
    split_moves,
)
from .i18n import N_, Message, connection_language
from .model import GameError
from .rate_limit import ImportLimit, amount_text

#: the largest PGN body ``POST /api/archive`` takes, in bytes
ARCHIVE_MAX_BODY = 256 << 20
#: the most games one PGN export holds
MAX_EXPORT = 100_000

router = APIRouter(tags=["archive"])


# --- the shapes of answers ------------------------------------------------------------------


class LineErrorView(BaseModel):
    line: int = Field(description="the line of the problem in the body")
    message: str


class ImportView(BaseModel):
    imported: int = Field(description="games stored")
    duplicates: int = Field(description="games the archive had already (stored once)")
    errors: list[LineErrorView] = Field(description="games left out, by line (the first 100)")
    more_errors: int = Field(0, description="games left out beyond those listed")


class ArchivedGameSummary(BaseModel):
    id: int
    variant: str
    white: str | None
    black: str | None
    result: str
    date: str | None = Field(description="as PGN writes it: 2024.03.?? for a partial date")
    plies: int
    event: str | None
    source: str = Field(description="import (a PGN file) or live (played on this server)")


class ArchivePage(BaseModel):
    games: list[ArchivedGameSummary]
    next: str | None = Field(description="the 'after' of the next page; null on the last")


class ArchivedGame(BaseModel):
    id: int
    variant: str
    fen: str = Field(description="the start position (open it in the analysis board)")
    headers: dict[str, Any]
    moves: list[str] = Field(description="the main line in UCI")
    pgn: str


class ExplorerMove(BaseModel):
    uci: str
    san: str
    thai_san: str | None = Field(None, description="null for a game without Thai SAN")
    games: int
    white: int
    draws: int
    black: int


class ExplorerView(BaseModel):
    games: int = Field(description="games that stood in the position")
    white: int
    draws: int
    black: int
    moves: list[ExplorerMove] = Field(description="the moves played from it, most played first")
    recent: list[ArchivedGameSummary] = Field(description="the latest games archived with it")


# --- helpers --------------------------------------------------------------------------------


def archive_of(request: Request) -> ArchiveStore:
    archive: ArchiveStore = request.app.state.archive
    return archive


def refused(error: QueryError) -> GameError:
    """``error`` as the API's 400 (in the reader's language when it is sent)."""
    return GameError(400, error.content.template, **error.content.params)


Variant = Annotated[str | None, Query(max_length=40, description="a game's name, e.g. makruk")]
Player = Annotated[str | None, Query(max_length=200, description="a player's name, exactly")]
Color = Annotated[str | None, Query(max_length=10, description="white or black (with player)")]
Result = Annotated[str | None, Query(max_length=10, description="1-0, 0-1, 1/2-1/2 or *")]
Since = Annotated[str | None, Query(max_length=20, description="YYYY, YYYY-MM or YYYY-MM-DD")]
Moves = Annotated[
    str | None,
    Query(max_length=1000, description="opening moves in UCI, commas between: e3e4,e6e5"),
]


def game_filters(
    player: Player = None,
    color: Color = None,
    result: Result = None,
    since: Since = None,
    until: Since = None,
) -> Filters:
    """The filters on the games that every route of the archive takes (a dependency: its
    parameters are the routes' query parameters)."""
    try:
        return parse_filters(None, player, color, result, since, until)
    except QueryError as error:
        raise refused(error) from None


GameFilters = Annotated[Filters, Depends(game_filters)]


@dataclass(frozen=True)
class Selection:
    """The games a search or an export asks for: the filters, and the opening they began with."""

    filters: Filters
    opening: Opening | None


def selection(filters: GameFilters, variant: Variant = None, moves: Moves = None) -> Selection:
    """The selection of a search or an export: :func:`game_filters`, of one game (``variant``),
    that began with ``moves`` (a dependency)."""
    try:
        if variant is not None:
            filters = replace(filters, variant=canonical_variant(variant))
        played = split_moves(moves)
        opening = Opening.of(filters.variant or "makruk", played) if played else None
    except QueryError as error:
        raise refused(error) from None
    return Selection(filters, opening)


Selected = Annotated[Selection, Depends(selection)]


# --- routes ---------------------------------------------------------------------------------


class _TooLarge(Exception):
    pass


def _too_many(request: Request, limit: ImportLimit, seconds: int) -> JSONResponse:
    """The 429 of an address that has imported its share for now."""
    message = Message(
        N_("too much PGN imported from this address: try again in {seconds} s (the limit is "
           "{limit} a minute)"),
        seconds=seconds,
        limit=amount_text(limit.per_minute),
    )  # fmt: skip
    return JSONResponse(
        {"error": message.text(connection_language(request))},
        status_code=429,
        headers={"Retry-After": str(seconds)},
    )


def _announced(request: Request) -> int:
    length = request.headers.get("content-length", "")
    return int(length) if length.isdigit() else 0


@router.post(
    "/api/archive",
    response_model=ImportView,
    responses=_errors(400, 403, 413, 429),
    summary="Import PGN into the archive",
)
async def import_pgn(request: Request) -> Any:
    """The body is PGN text (any number of games, any game kradan reads), streamed. Each game
    read whole is stored, once: a game the archive has already counts as a duplicate. Each
    game with a problem is left out and reported by its line. A body with no game to store
    is refused (400) and stores nothing; a body over the limit is refused (413) once it has
    passed it (the games before that point may be stored: sending the file again stores each
    of them once). An address that has imported its share of bytes for now is refused (429,
    with ``Retry-After`` in seconds) before anything is read."""
    same_origin(request)
    limit: ImportLimit | None = getattr(request.app.state, "import_limit", None)
    address = request.client.host if request.client else ""
    charged = 0
    if limit is not None:
        wait = limit.wait(address)
        if wait is not None:
            return _too_many(request, limit, wait)
        charged = _announced(request)
        limit.take(address, charged)
    size = 0

    async def chunks() -> AsyncIterator[bytes]:
        nonlocal size, charged
        async for chunk in request.stream():
            size += len(chunk)
            if size > ARCHIVE_MAX_BODY:
                raise _TooLarge
            if limit is not None and size > charged:
                limit.take(address, size - charged)
                charged = size
            yield chunk

    try:
        report = await archive_of(request).import_stream(chunks())
    except _TooLarge:
        raise GameError(
            413,
            N_("request body of {size} bytes refused: the limit is {limit}"),
            size=f">{ARCHIVE_MAX_BODY}",
            limit=ARCHIVE_MAX_BODY,
        ) from None
    language = connection_language(request)
    answer = report.as_json(language)
    if not report.imported and not report.duplicates:
        if not report.errors:
            raise GameError(400, N_("no PGN game in the body ({size} bytes)"), size=size)
        first = report.errors[0]
        message = Message(
            N_("no game could be imported: line {line}: {error}"),
            line=first.line,
            error=first.content,
        )
        return JSONResponse({"error": message.text(language), **answer}, status_code=400)
    return answer


@router.get(
    "/api/archive",
    response_model=ArchivePage,
    responses=_errors(400),
    summary="Search the archive",
)
async def search_archive(
    request: Request,
    chosen: Selected,
    after: Annotated[str | None, Query(max_length=40, description="a page's 'next'")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> dict[str, Any]:
    """Games newest first (by date, then by when they were archived), ``limit`` a page;
    ``player`` plays either side unless ``color`` says which; ``moves`` are the first moves
    the games played."""
    try:
        cursor = None if after is None else Cursor.parse(after)
    except QueryError as error:
        raise refused(error) from None
    engine = archive_of(request).engine
    games, following = await search(engine, chosen.filters, chosen.opening, cursor, limit)
    return {"games": games, "next": following}


@router.get(
    "/api/archive.pgn",
    response_class=StreamingResponse,
    responses=_errors(400),
    summary="Games of the archive as PGN",
)
async def export_pgn(
    request: Request,
    chosen: Selected,
    limit: Annotated[int, Query(ge=1, le=MAX_EXPORT)] = 1000,
) -> StreamingResponse:
    """The games the same filters find (newest first, at most ``limit``), streamed."""
    engine = archive_of(request).engine

    async def texts() -> AsyncIterator[str]:
        async for rows in export(engine, chosen.filters, chosen.opening, limit):
            yield await asyncio.to_thread(_pgn_texts, rows)

    return StreamingResponse(texts(), media_type="application/x-chess-pgn; charset=utf-8")


def _pgn_texts(rows: list[Any]) -> str:
    return "".join(pgn_of(row) + "\n" for row in rows)


@router.get(
    "/api/archive/{game_id}",
    response_model=ArchivedGame,
    responses=_errors(404),
    summary="A game of the archive",
)
async def archived_game(
    request: Request, game_id: Annotated[int, Path(ge=1, le=2**31 - 1)]
) -> dict[str, Any]:
    """The game's tags, moves (UCI, from ``fen``) and PGN: what the analysis board opens."""
    found = await game(archive_of(request).engine, game_id)
    if found is None:
        raise unknown_game(str(game_id))
    return found


@router.get(
    "/api/explorer",
    response_model=ExplorerView,
    responses=_errors(400),
    summary="The opening explorer",
)
async def explorer(
    request: Request,
    filters: GameFilters,
    variant: Annotated[str, Query(max_length=40, description="a game's name")] = "makruk",
    fen: Annotated[str | None, Query(max_length=200, description="default: the start")] = None,
    play: Moves = None,
) -> dict[str, Any]:
    """The moves the archive's games played from the position (``fen``, then the UCI moves of
    ``play``), with how many games played each and how they ended, the most played first; and
    the latest games archived that stood there."""
    try:
        name = canonical_variant(variant)
        board = board_after(name, fen, split_moves(play))
    except QueryError as error:
        raise refused(error) from None
    return await archive_of(request).explore(board, name, filters)


__all__ = ["ARCHIVE_MAX_BODY", "router"]
