"""The application of ``kradan serve``: :func:`create_app` puts together the storage, the hall
of rooms, the engine's workers, the JSON API (games, analysis, the analysis board's lines and
PGN), the pages and the guards every response passes (the ``Host`` allowlist, :mod:`.hosts`;
bodies of at most 4 KB, but for PGN text and the archive's PGN imports, streamed up to their
own limit; a ``Content-Security-Policy`` on every response, errors as ``{"error": ...}``), the
limits per client address of :class:`~kradan.web.settings.ServeSettings`, the archive's and
explorer's routes (:mod:`.archive_api`), whose store gets every game that ends, the admin's
routes (:mod:`.admin_api`) with the access log every request goes into (:mod:`.access_log`),
and ``/docs``, Swagger UI served from the package (``static/docs/``, copied there by
board-bundle/build.mjs).
"""

from __future__ import annotations

import base64
import gc
import hashlib
import json
import logging
import os
import re
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from . import i18n, study
from .access_log import AccessLog, AccessLogger
from .accounts import SESSION_COOKIE, Accounts
from .accounts_api import router as accounts_router
from .admin_api import router as admin_router
from .admin_games import GameAdmin
from .admin_users import UserAdmin
from .analysis import router as analysis_router
from .api import MAX_BODY, router, unknown_game
from .api_tokens import ApiTokens
from .archive import ArchiveStore
from .archive_api import ARCHIVE_MAX_BODY
from .archive_api import router as archive_router
from .audit import Audit
from .bot_api import router as bot_router
from .bus import PostgresBus
from .chat import Chat
from .chat_api import router as chat_router
from .engine_pool import EnginePool
from .forward import Forwarder, read_game, replay_body
from .hall import Hall
from .hosts import HostAllowlist
from .i18n import N_
from .limits import create_limit
from .lobby import Lobby
from .lobby_api import router as lobby_router
from .model import GameError
from .owners import Elsewhere, Owners
from .rate_limit import ImportLimit
from .rematch import router as rematch_router
from .review_api import router as review_router
from .room.dead_rules import DeadGameRules
from .room.view import game_message
from .server_settings import RuntimeSettings
from .settings import UNSET, ServeSettings, Unset
from .storage import Store, default_database_url, make_engine, migrate
from .storage import database_url as normalise_url
from .tournament_director import Director
from .tournament_store import TournamentStore
from .tournaments_api import router as tournaments_router
from .watch import Spectators

log = logging.getLogger("kradan.web")

#: the policy of every page: scripts, styles, pictures and sockets from this server only
CSP = "default-src 'self'"
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


#: routes whose bodies may be larger than MAX_BODY: PGN text and the analysis board's trees
LARGER_BODIES = {"/api/pgn/read": study.MAX_PGN, "/api/pgn/write": study.MAX_PGN}
#: the routes that read their bodies as a stream and keep to a limit of their own (``POST``)
STREAMED_BODIES = {"/api/archive": ARCHIVE_MAX_BODY}


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (``larger`` ones on the paths it names) with
    413, whether announced by ``Content-Length`` or streamed. A ``POST`` to a route of
    ``streamed`` is refused here only when its ``Content-Length`` passes that route's limit;
    its body goes on unread, for the route to read as it comes."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY,
        larger: dict[str, int] | None = None,
        streamed: dict[str, int] | None = None,
    ) -> None:
        self.app = app
        self.default = limit
        self.larger = LARGER_BODIES if larger is None else larger
        self.streamed = STREAMED_BODIES if streamed is None else streamed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.default)
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        own = self.streamed.get(scope["path"]) if scope["method"] == "POST" else None
        if own is not None:
            limit = own
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(scope, send, limit, length.decode("latin-1")[:20])
            return
        if own is not None:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _too_large(scope, send, limit, f"{size}+")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, replay_body(b"".join(chunks), receive), send)


async def _too_large(scope: Scope, send: Send, limit: int, size: str) -> None:
    error = GameError(
        413,
        N_("request body of {size} bytes refused: the limit is {limit}"),
        size=size,
        limit=limit,
    )
    text = error.text(i18n.connection_language(HTTPConnection(scope)))
    body = json.dumps({"error": text})
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"content-security-policy", CSP.encode()),
                *((name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body.encode()})


class SecurityHeaders:
    """Add the content security policy (unless a route set its own) and the other guards to
    every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                wanted = {"content-security-policy": CSP, **SECURITY_HEADERS}
                for name, value in wanted.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, guarded)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _refused(request: Request, error: GameError) -> JSONResponse:
    """``error`` in the language of ``request`` (English without a cookie or header)."""
    return _error(error.status, error.text(i18n.connection_language(request)))


async def _game_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, GameError)
    return _refused(request, error)


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    """Path parameters that cannot be a game's id: 404; a body that is not JSON: 400; a body or
    query of the wrong shape: 400, quoting the bad part (pydantic's words, in English)."""
    assert isinstance(error, RequestValidationError)
    problems = error.errors()
    for problem in problems:
        location = problem.get("loc", ())
        if location and location[0] == "path":
            game_id = request.path_params.get("game_id", "")
            return _refused(request, unknown_game(str(game_id)[:40]))
    for problem in problems:
        if problem.get("type") == "json_invalid":
            refused = GameError(
                400, N_("malformed JSON: {problem}"), problem=str(problem.get("msg", ""))
            )
            return _refused(request, refused)
    words = []
    for problem in problems[:3]:
        location = ".".join(str(part) for part in problem.get("loc", ())[1:]) or "body"
        got = f" (got {_shown(problem['input'])})" if "input" in problem else ""
        words.append(f"{location}: {problem.get('msg', 'invalid')}{got}")
    return _error(400, "; ".join(words))


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    detail = error.detail if isinstance(error.detail, str) else "error"
    if error.status_code == 404 and detail == "Not Found":
        missing = GameError(404, N_("no such page {path}"), path=repr(request.url.path[:80]))
        detail = missing.text(i18n.connection_language(request))
    return JSONResponse(
        {"error": detail}, status_code=error.status_code, headers=error.headers or None
    )


async def _elsewhere(request: Request, error: Exception) -> JSONResponse:
    """A game that another process took while this request was on its way to it."""
    assert isinstance(error, Elsewhere)
    text = f"game {error.public_id!r} is served by another process: try again"
    return JSONResponse({"error": text}, status_code=503, headers={"retry-after": "1"})


async def _server_error(request: Request, error: Exception) -> JSONResponse:
    """A bug: logged; the answer has the same guards as every other."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=error)
    headers = {"content-security-policy": CSP, **SECURITY_HEADERS}
    text = i18n.Message(N_("internal server error")).text(i18n.connection_language(request))
    return JSONResponse({"error": text}, status_code=500, headers=headers)


#: where ``/docs`` finds Swagger UI: swagger-ui-dist's files, copied by board-bundle/build.mjs
DOCS_FILES = "/static/docs/"


def _docs_page(app: FastAPI) -> HTMLResponse:
    """Swagger UI for ``/docs``, from the package's own copy (it works offline and asks no
    other site for anything: no online validator either), with a policy that lets only its
    own script run inline."""
    page = get_swagger_ui_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title="kradan API",
        swagger_js_url=DOCS_FILES + "swagger-ui-bundle.js",
        swagger_css_url=DOCS_FILES + "swagger-ui.css",
        swagger_favicon_url=DOCS_FILES + "favicon-32x32.png",
        swagger_ui_parameters={"validatorUrl": None},
    )
    html = bytes(page.body).decode("utf-8")
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    ]
    policy = (
        f"default-src 'self'; script-src 'self' {' '.join(hashes)}; "
        "style-src 'self' 'unsafe-inline'; img-src 'self' data:"
    )
    return HTMLResponse(html, headers={"content-security-policy": policy})


def _include_pages(app: FastAPI) -> None:
    """The HTML pages (``/``, ``/games/{id}``, assets), when the package has them."""
    try:
        from . import pages, tournament_pages  # type: ignore[attr-defined, unused-ignore]
    except ImportError as error:
        if getattr(error, "name", None) not in ("kradan.web.pages", None):
            raise
        log.info("kradan.web.pages is missing: the server offers the JSON API only")
        return
    app.include_router(pages.router)
    app.include_router(tournament_pages.router)


def spectated(hall: Hall, client: Any) -> Callable[[str], Awaitable[str | None]]:
    """How the spectators here read a game: from this process if it serves the game (or
    takes it over from a process that has gone), else from the one that serves it."""

    async def read(public_id: str) -> str | None:
        try:
            address = await hall.locate(public_id)
        except Exception:
            log.exception("game %s could not be located", public_id)
            return None
        if address is None:
            room = await hall.get(public_id)
            return None if room is None else game_message(room.view())
        return await read_game(client, address, public_id) if address else None

    return read


async def own_games(url: str, address: str) -> Owners:
    """This process's share of the games on ``url`` (PostgreSQL), known to the others as
    ``address`` (:mod:`.owners`); losing its connection stops the process (a supervisor
    starts it again), since it no longer owns its games."""
    owners = Owners(url, address)
    await owners.open()

    def lost() -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    owners.on_lost = lost
    return owners


#: with ``freeze_startup``: new objects between two collections of the youngest generation
YOUNG_OBJECTS = 10_000


def create_app(
    database_url: str | None = None,
    *,
    engine_workers: int | None = None,
    warm_engine: bool = False,
    freeze_startup: bool = False,
    settings: ServeSettings | None = None,
    import_rate: int | Unset | None = UNSET,
    dead_games: DeadGameRules | None = None,
) -> FastAPI:
    """The ``kradan serve`` application on the database at ``database_url``
    (``sqlite+aiosqlite:///...`` or ``postgresql+asyncpg://...``; default: ``games.db`` in the
    user's data folder). The schema is upgraded and the games in progress resume when it
    starts. ``engine_workers`` is the number of engine processes (default:
    :func:`~kradan.web.engine_pool.default_engines`, from the cores), started when first
    needed; with ``warm_engine`` they all start at once and load their searches.

    With ``freeze_startup`` (for a process that serves only this app, as ``kradan serve``
    does) what exists once it has started is moved out of the garbage collector's sight
    (:func:`gc.freeze`): the modules, the compiled kernels and the resumed games live as long
    as the server, and a full collection that walks them all would pause every game for tens
    of milliseconds under load. The youngest generation is collected after ``YOUNG_OBJECTS``
    new objects instead of 700: the objects of the moves in flight then die before a collection
    sees them, instead of being promoted to the older generations (measured with 200 games:
    the collector's time fell from 300 ms to 60 ms, and no full collection ran).

    ``settings`` says what the server lets in (:class:`~kradan.web.settings.ServeSettings`:
    the allowed hosts, the games and PGN one client address may create and import a minute);
    the default answers the loopback names only. ``import_rate``, when given, replaces
    ``settings.import_rate`` (``None`` or 0: no limit), as before the settings.

    ``dead_games`` are the waits of games nobody plays (the first moves before the server
    aborts a game, an opponent's absence before a claim; :mod:`kradan.web.room.abandon`),
    :class:`~kradan.web.room.dead_rules.DeadGameRules`'s defaults unless given."""
    url = normalise_url(database_url) if database_url else default_database_url()
    settings = settings or ServeSettings()
    if not isinstance(import_rate, Unset):
        settings = replace(settings, import_rate=import_rate or 0)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(url)
        pool = EnginePool(engine_workers)
        await migrate(engine)
        archive = ArchiveStore(engine)
        hall = Hall(Store(engine), pool, archive, dead_games)
        if settings.internal_url is not None:
            hall.owners = await own_games(url, settings.internal_url)
        hall.accounts = app.state.accounts = Accounts(engine)
        reader = None
        if hall.owners is None:
            app.state.lobby = Lobby(hall)
        else:
            bus = PostgresBus(hall.owners)
            app.state.lobby = Lobby(hall, bus, settings.internal_url)
            await app.state.lobby.listen()
            import httpx2  # (the web extra's HTTP client: only with several processes)

            reader = httpx2.AsyncClient(timeout=10.0)
            hall.spectators = app.state.spectators = Spectators(
                bus, spectated(hall, reader), hall.spawn_task
            )
            await hall.spectators.listen()
        app.state.chat = Chat(engine)
        app.state.api_tokens = ApiTokens(engine)
        director = app.state.director = Director(hall, TournamentStore(engine), hall.accounts)
        hall.ended_hooks.append(director.game_ended)
        app.state.user_admin = UserAdmin(engine)
        app.state.game_admin = GameAdmin(engine, hall)
        app.state.audit = Audit(engine)
        app.state.runtime_settings = RuntimeSettings(engine, settings)
        app.state.hall = hall
        app.state.pool = pool
        app.state.archive = archive
        await hall.resume()
        await director.resume()
        if hall.owners is not None:
            hall.spawn_task("taking over games", hall.take_over())
        if warm_engine:
            hall.spawn_task("warming the engine", pool.warm())
        thresholds = gc.get_threshold()
        if freeze_startup:
            gc.collect()
            gc.freeze()
            gc.set_threshold(YOUNG_OBJECTS, *thresholds[1:])
        try:
            yield
        finally:
            if freeze_startup:
                gc.set_threshold(*thresholds)
                gc.unfreeze()
            await hall.close()
            if reader is not None:
                await reader.aclose()
            await archive.close()
            pool.close()
            await engine.dispose()

    app = FastAPI(
        title="kradan",
        version=__version__,
        summary="Play Makruk, Ouk Chatrang, Kar Ouk, Sittuyin and Alquerque",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    rate = settings.import_rate
    app.state.import_limit = ImportLimit(rate, clock=settings.clock) if rate else None
    app.state.create_limit = create_limit(settings)
    app.add_exception_handler(GameError, _game_error)
    app.add_exception_handler(Elsewhere, _elsewhere)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _server_error)
    if settings.internal_url is not None:
        if not url.startswith("postgresql"):
            raise ValueError(
                "several processes (an internal URL) need PostgreSQL: an SQLite database is "
                "served by one process"
            )

        async def locate(public_id: str) -> str | None:
            hall: Hall = app.state.hall
            return await hall.locate(public_id)

        def seek_home(seek_id: str) -> str | None:
            lobby: Lobby = app.state.lobby
            return lobby.home_of(seek_id)

        def spectators() -> Spectators | None:
            return getattr(app.state, "spectators", None)

        app.add_middleware(
            Forwarder,
            locate=locate,
            address=settings.internal_url,
            seek_home=seek_home,
            spectators=spectators,
        )
    app.add_middleware(BodyLimit)
    app.add_middleware(HostAllowlist, allowed=settings.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.state.access_log = AccessLog()
    app.add_middleware(AccessLogger, log=app.state.access_log, cookie=SESSION_COOKIE)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return _docs_page(app)

    app.include_router(router)
    app.include_router(study.router)
    app.include_router(analysis_router)
    app.include_router(archive_router)
    app.include_router(review_router)
    app.include_router(accounts_router)
    app.include_router(lobby_router)
    app.include_router(rematch_router)
    app.include_router(chat_router)
    app.include_router(bot_router)
    app.include_router(tournaments_router)
    app.include_router(admin_router)
    _include_pages(app)
    return app


__all__ = ["CSP", "ServeSettings", "create_app"]
