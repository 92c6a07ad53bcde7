"""Game review over the JSON API: ``POST /api/games/{id}/analysis`` starts one in the background,
``GET /api/games/{id}/analysis`` tells how far it is and, once done, the review
(:mod:`kradan.runners.review`, docs/review.md).

A review is of an ended game only (a review of a game in play would be an engine's help to a
player). It runs through kradan's executor seam (:mod:`kradan.executors`): one local worker
process beside the engine that plays, or the Ray cluster that ``RAY_ADDRESS`` names, so a club
with a cluster reviews there. Reviews run one at a time: the others wait, ``queued``. A finished
review is stored (the ``reviews`` table) and outlives a restart; one under way does not (asking
again starts it afresh), and neither does a failed one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlalchemy.orm import Session

from ..engine.winning import BLUNDER, INACCURACY, MARKS, MISTAKE
from .api import ErrorView, GameId, hall_of, room_of, same_origin
from .i18n import N_
from .model import GameError
from .storage import sqlite_pragmas
from .tables import ReviewRow, utcnow

log = logging.getLogger("kradan.web")

#: the deepest review a request may ask for, and the most nodes a position
MAX_DEPTH = 16
MAX_NODES = 2_000_000
#: the review of a request that names no limit
DEFAULT_DEPTH = 10
#: the loss of expected score from which a move is marked (the browser's "find a better move"
#: accepts a move that loses less than the first)
THRESHOLDS = dict(zip(MARKS, (INACCURACY, MISTAKE, BLUNDER), strict=True))


# --- the shapes of requests and answers --------------------------------------------------------


class ReviewBody(BaseModel):
    """How deep to search each position: a depth or a node count (or both), never a time, so
    that the review is the same wherever it runs."""

    model_config = ConfigDict(extra="forbid", strict=True)

    depth: int | None = Field(None, ge=1, le=MAX_DEPTH, description="plies searched per position")
    nodes: int | None = Field(None, ge=1, le=MAX_NODES, description="nodes searched per position")


class ScoreView(BaseModel):
    """White's score: ``{"cp": 35}`` (clipped to ±2000; a game already won or lost on the
    board is ±2000), or ``{"mate": 3}`` (negative: Black mates)."""

    cp: int | None = None
    mate: int | None = None


class BestView(BaseModel):
    uci: str
    san: str
    line: list[str] = Field(description="the engine's line from this move, in SAN")
    score: ScoreView


class PlyView(BaseModel):
    ply: int = Field(description="1 for the first move")
    color: Literal["white", "black"]
    uci: str
    san: str
    score: ScoreView = Field(description="White's score after the move")
    expected: float = Field(description="White's expected score after the move, 0..1")
    best: BestView | None = Field(description="the engine's move in the position before")
    loss: float = Field(description="what the move cost its mover in expected score, 0..1")
    mark: Literal["?!", "?", "??"] | None


class SideView(BaseModel):
    moves: int
    inaccuracies: int
    mistakes: int
    blunders: int
    average_loss: float = Field(description="mean loss of expected score, in points of 100")
    average_cp_loss: float


class SummaryView(BaseModel):
    white: SideView
    black: SideView


class StartView(BaseModel):
    score: ScoreView
    expected: float


class ReviewView(BaseModel):
    """A game's review, as far as it has gone."""

    status: Literal["none", "queued", "running", "done", "failed"]
    progress: float = Field(description="the share of positions searched, 0..1")
    limit: str | None = Field(None, description="what each position is searched to")
    error: str | None = Field(None, description="why it failed")
    scale: float | None = Field(None, description="the winning-chance curve's scale per cp")
    start: StartView | None = None
    plies: list[PlyView] = Field(default_factory=list)
    summary: SummaryView | None = None
    thresholds: dict[str, float] = Field(
        default_factory=dict,
        description="the loss of expected score from which each mark is given: ?!, ?, ??",
    )


# --- the reviews -------------------------------------------------------------------------------


class Stopped(Exception):
    """A review given up because the server stops."""


@dataclass
class Job:
    """A review under way (or failed) in this process."""

    status: str
    limit: Any
    progress: float = 0.0
    error: str | None = None


class Reviews:
    """The reviews of one server: the jobs under way, the executor they run on (made on first
    use) and the finished reviews' table."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        #: SQLite file: the synchronous engine that stores finished reviews (see :meth:`store`)
        self.sync_engine: Engine | None = None
        self.jobs: dict[int, Job] = {}
        self.turn = asyncio.Lock()
        self.executor: Any = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    async def stored(self, game_id: int) -> dict[str, Any] | None:
        async with self.sessions() as session:
            row = await session.get(ReviewRow, game_id)
            return None if row is None else dict(row.review)

    async def store(self, game_id: int, limit: str, review: dict[str, Any]) -> None:
        """Keep a finished review (unless one is kept already).

        On an SQLite file the transaction runs in a worker thread through the standard
        library's driver, from its first statement to its commit. Through the async driver it
        held the file's write lock across awaits, while the live games' store
        (:class:`~.storage.Store`), which writes on the event loop's own thread, waited for
        that lock: neither went on until the busy timeout failed the game's write (the
        archive's imports do the same, :class:`~.archive.ArchiveStore`)."""
        sync_engine = self._sqlite_file_engine()
        if sync_engine is not None:
            await asyncio.to_thread(_store_sqlite, sync_engine, game_id, limit, review)
            return
        async with self.sessions.begin() as session:
            found = await session.scalar(select(ReviewRow).where(ReviewRow.game_id == game_id))
            if found is None:
                session.add(ReviewRow(game_id=game_id, limit=limit, review=review,
                                      created_at=utcnow()))  # fmt: skip

    def _sqlite_file_engine(self) -> Engine | None:
        """SQLite file: a synchronous engine on it (made on first use), or ``None``."""
        url = self.engine.url
        if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
            return None
        if self.sync_engine is None:
            self.sync_engine = create_engine(url.set(drivername="sqlite"))
            event.listen(self.sync_engine, "connect", sqlite_pragmas)
        return self.sync_engine

    def start(self, game_id: int, board: Any, limit: Any) -> Job:
        job = self.jobs[game_id] = Job("queued", limit)
        task = asyncio.get_running_loop().create_task(self._run(game_id, job, board))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job

    def _executor(self) -> Any:
        if self.executor is None:
            from ..executors import make_executor

            self.executor = make_executor(workers=1)
        return self.executor

    async def _run(self, game_id: int, job: Job, board: Any) -> None:
        from ..runners.review import limit_text, review_game

        def progress(done: int, total: int) -> None:
            if self.closed:
                raise Stopped("the server stops")  # its tasks are cancelled on the way out
            job.progress = done / max(total, 1)

        try:
            async with self.turn:
                job.status = "running"
                executor = await asyncio.to_thread(self._executor)
                review = await asyncio.to_thread(
                    review_game, board, job.limit, executor=executor, progress=progress
                )
            await self.store(game_id, limit_text(job.limit), review.as_json())
            self.jobs.pop(game_id, None)
        except asyncio.CancelledError:
            self.jobs.pop(game_id, None)
            raise
        except Exception as error:  # kept to answer with; asking again starts afresh
            log.exception("the review of game %s failed", game_id)
            job.status, job.error = "failed", f"{type(error).__name__}: {error}"

    async def close(self) -> None:
        self.closed = True
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):  # cancelled, or failed and logged
                await task
        if self.executor is not None:
            await asyncio.to_thread(self.executor.shutdown)
            self.executor = None
        if self.sync_engine is not None:
            self.sync_engine.dispose()
            self.sync_engine = None


def _store_sqlite(engine: Engine, game_id: int, limit: str, review: dict[str, Any]) -> None:
    """:meth:`Reviews.store` on an SQLite file, in one synchronous transaction."""
    with Session(engine) as session, session.begin():
        found = session.scalar(select(ReviewRow).where(ReviewRow.game_id == game_id))
        if found is None:
            session.add(ReviewRow(game_id=game_id, limit=limit, review=review,
                                  created_at=utcnow()))  # fmt: skip


def reviews_of(request: Request) -> Reviews:
    """The server's reviews, made on first use on the hall's database."""
    found: Reviews | None = getattr(request.app.state, "reviews", None)
    if found is None:
        found = request.app.state.reviews = Reviews(hall_of(request).store.engine)
    return found


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Stop the reviews under way and let their workers go when the server stops."""
    try:
        yield
    finally:
        found: Reviews | None = getattr(app.state, "reviews", None)
        if found is not None:
            await found.close()
            app.state.reviews = None


router = APIRouter(lifespan=lifespan)


def _limit(body: ReviewBody | None) -> Any:
    from ..engine.types import Limit

    if body is None or (body.depth is None and body.nodes is None):
        return Limit(depth=DEFAULT_DEPTH)
    return Limit(depth=body.depth, nodes=body.nodes)


def _answer(state: dict[str, Any], status: int = 200) -> Response:
    return Response(json.dumps(state), status_code=status, media_type="application/json")


def _state(job: Job | None, stored: dict[str, Any] | None) -> dict[str, Any]:
    return {**_progress(job, stored), "thresholds": THRESHOLDS}


def _progress(job: Job | None, stored: dict[str, Any] | None) -> dict[str, Any]:
    from ..runners.review import limit_text

    if stored is not None:
        return {"status": "done", "progress": 1.0, **stored, "error": None}
    if job is None:
        return {"status": "none", "progress": 0.0, "plies": []}
    return {"status": job.status, "progress": round(job.progress, 4),
            "limit": limit_text(job.limit), "error": job.error, "plies": []}  # fmt: skip


_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorView} for code in (400, 403, 404, 409, 413)
}


@router.post(
    "/api/games/{game_id}/analysis",
    status_code=202,
    response_model=ReviewView,
    responses=_ERRORS,
    summary="Review an ended game",
)
async def start_review(
    game_id: GameId,
    request: Request,
    body: Annotated[ReviewBody | None, Body()] = None,
) -> Response:
    """Start reviewing the game in the background (every position searched to ``depth``,
    default 10, or ``nodes``): the answer is the review's state, as ``GET`` gives it. Asking
    again while it runs, or once it is done, starts nothing new; asking after a failure tries
    again. Only an ended game can be reviewed."""
    same_origin(request)
    room = await room_of(request, game_id)
    if room.playing:
        raise GameError(
            409, N_("game {game} is still being played: review it once it has ended"),
            game=repr(game_id),
        )  # fmt: skip
    if not room.board.move_stack:
        raise GameError(409, N_("game {game} has no moves to review"), game=repr(game_id))
    if room.game.searcher is None:
        raise GameError(409, N_("kradan's engine does not play {game}"), game=repr(room.game.name))
    limit = _limit(body)
    reviews = reviews_of(request)
    game_key = room.row.id
    stored = await reviews.stored(game_key)
    job = reviews.jobs.get(game_key)
    if stored is None and (job is None or job.status == "failed"):
        job = reviews.start(game_key, room.board.copy(), limit)
    return _answer(_state(job, stored), 202)


@router.get(
    "/api/games/{game_id}/analysis",
    response_model=ReviewView,
    responses=_ERRORS,
    summary="A game's review",
)
async def get_review(game_id: GameId, request: Request) -> Response:
    """The review's state: ``none`` (never asked for), ``queued``, ``running`` (with
    ``progress``), ``failed`` (with ``error``), or ``done`` with every move's score, the
    engine's better move, the mark (``?!``, ``?``, ``??`` or ``null``) and each side's
    summary. Scores are White's."""
    room = await room_of(request, game_id)
    reviews = reviews_of(request)
    stored = await reviews.stored(room.row.id)
    return _answer(_state(reviews.jobs.get(room.row.id), stored))


__all__ = ["ReviewBody", "ReviewView", "Reviews", "router"]
