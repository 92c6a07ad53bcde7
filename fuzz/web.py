"""``kradan serve``'s JSON API and game socket, through Starlette's TestClient on an app with
its own SQLite file (as the web tests do). A 500 answer, an exception out of the app (kradan's
typed errors too: the test client raises the exception behind a 500), or a socket that closes
or falls silent after a message is a crash; any 4xx answer is a pass.

An input is a first line ``KIND [N]`` and a body. ``N`` picks one of a few games made at the
start (and made again every :data:`FRESH_EVERY` inputs, as moves and resignations end them) and
one of its seats. The kinds: ``new`` (POST /api/games, the body as JSON), ``move``,
``action`` and ``setup`` (POST to the game with the seat's token), ``get``, ``pgn``,
``join`` and ``list`` (the body in the path or query), ``socket`` (the body as one message on the
game's socket, followed by a message that must be answered), ``analysis`` (POST
/api/analysis), ``analysis-socket`` (the body as one message on an analysis socket, followed by
a message that must be answered), ``review`` (POST the body to the game's review; game
:data:`REVIEWED` has ended after two moves, so a review of it runs), ``review-get`` (GET a
review: the body as the game's id, or the game's), ``page`` (GET the body as a path), ``raw``
(the body's first line is ``METHOD PATH``, the rest the request body), and the archive's:
``archive`` (POST the body as PGN), ``search``, ``export`` and ``explore`` (the body as the
query string of ``/api/archive``, ``/api/archive.pgn`` and ``/api/explorer``) and ``archived``
(GET ``/api/archive/<body>``), and the analysis board's: ``line`` (POST /api/line, the body as
JSON; a body that is no JSON and does not look like it is a line in text form, see
:func:`fuzz.study.line_body`), ``pgn-read`` (POST /api/pgn/read: a body that is a JSON object
goes as it is, any other is PGN text, sent as ``{"pgn": body}``) and ``pgn-write`` (POST
/api/pgn/write: a body that is JSON goes as it is; any other is PGN text, read by
/api/pgn/read and its tree written back); :mod:`fuzz.study` makes their seeds. The accounts' and
the lobby's: ``account``, ``sign-in`` and ``seek`` (POST the body to /api/accounts, /api/session,
/api/seeks), ``take`` (POST /api/seeks/<id>/accept: a JSON body takes the first open seek, any
other body is the seek's id), ``rematch``, ``abort`` and ``claim-win`` (POST the game's
rematch, abort, claim-win with the seat's token, the body as the request's),
``profile`` and ``leaders`` (GET /api/accounts/<body>, /api/ratings/<body>). ``read-move`` GETs
the game's reading of the body as a move. The chat's: ``chat`` (POST the body to the game's chat
with the seat's token), ``chat-read`` (GET the game's chat, the body as the room), ``chat-remove``
(DELETE /api/chat/<body> as an admin made at the start) and ``chat-socket`` (open the game's
chat socket, the body's first line as the room, send the rest, then read: a message, or the
socket closed with 4403, or 1008 for a room that is none, passes). The chat's clock moves 2.5 s
an input, so that speakers are both let through and slowed down. ``games-pgn`` GETs the PGN
export of the public games with the body as its query string (``limit``, ``after``).

:data:`KINDS_VARIABLE` (``KRADAN_FUZZ_WEB_KINDS=line,pgn-read``; ``benchmarks/fuzz.py --kinds``
sets it) keeps a run to some kinds: only their seeds, only their grammar, and an input whose
first word is no kind of them goes to one of them (chosen by ``N``).

An analysis body that is a JSON object without ``movetime_ms`` gets
:data:`FUZZ_MOVETIME_MS`: the engine then searches briefly, and the inputs keep their pace (a
body that names a time keeps it)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import traceback
from pathlib import Path
from typing import Any
from urllib.parse import quote

from . import corpus, study
from .base import Crash, Target

#: the password of the admin made at the start (``chat-remove``)
ADMIN_PASSWORD = "fuzz admin password"
#: inputs between fresh sets of games
FRESH_EVERY = 100
#: seconds a socket may take to answer
SOCKET_TIMEOUT = 10.0
SENTINEL = '{"type": "fuzz-sentinel"}'
ANALYSIS_SENTINEL = '{"t": "fuzz-sentinel"}'
#: the search time an analysis input gets when it names none, in milliseconds
FUZZ_MOVETIME_MS = 20
GAMES = (
    {"variant": "makruk", "opponent": "human"},
    {"variant": "cambodian", "opponent": "human", "options": {"counting": "declared"}},
    {"variant": "sittuyin", "opponent": "human", "options": {"sittuyin_setup": "screened"}},
    {"variant": "alquerque", "opponent": "human"},
    {"variant": "makruk", "opponent": "engine", "level": 1, "color": "white"},
)
#: the game that ends after :data:`REVIEWED_MOVES` (1. Ra2?? Rb1#), for the review's endpoints
REVIEWED = len(GAMES)
REVIEWED_GAME = {"variant": "makruk", "opponent": "human", "fen": "1r6/8/8/8/8/7k/8/R6K w - - 0 1"}
REVIEWED_MOVES = ("a1a2", "b8b1")
KINDS = ("new", "move", "action", "setup", "get", "pgn", "list", "join", "socket", "analysis",
         "analysis-socket", "review", "review-get", "page", "raw", "archive", "search", "export",
         "archived", "explore", "read-move", "line", "pgn-read", "pgn-write", "account",
         "sign-in", "seek", "take", "rematch", "profile", "leaders", "chat", "chat-read",
         "chat-remove", "chat-socket", "games-pgn", "abort", "claim-win")  # fmt: skip
#: the environment variable that keeps a run to some kinds (comma-separated)
KINDS_VARIABLE = "KRADAN_FUZZ_WEB_KINDS"
#: the kinds that never touch the games made at the start (a run of only these makes no fresh
#: ones every :data:`FRESH_EVERY` inputs)
GAMELESS = frozenset({"analysis", "analysis-socket", "archive", "search", "export", "archived",
                      "explore", "line", "pgn-read", "pgn-write", "account", "sign-in", "seek",
                      "take", "profile", "leaders", "chat-remove"})  # fmt: skip
#: the routes of the accounts and the lobby whose body is an input's (POSTed as JSON)
ACCOUNT_ROUTES = {"account": "/api/accounts", "sign-in": "/api/session", "seek": "/api/seeks"}
STUDY_ROUTES = {"line": "/api/line", "pgn-read": "/api/pgn/read",
                "pgn-write": "/api/pgn/write"}  # fmt: skip
#: the GET routes whose query string is an input's body: the archive's, and the live games' PGN
#: export
ARCHIVE_QUERIES = {"search": "/api/archive", "export": "/api/archive.pgn",
                   "explore": "/api/explorer", "games-pgn": "/api/games.pgn"}  # fmt: skip


def selected_kinds() -> tuple[str, ...]:
    """The kinds :data:`KINDS_VARIABLE` names (every kind when it is unset or empty).

    :raises ValueError: for a name that is no kind.
    """
    words = [word.strip() for word in os.environ.get(KINDS_VARIABLE, "").split(",")]
    chosen = tuple(word for word in words if word)
    unknown = sorted(set(chosen) - set(KINDS))
    if unknown:
        raise ValueError(f"{KINDS_VARIABLE}: unknown kinds {unknown}; the kinds: {KINDS}")
    return chosen or KINDS


class WebApp:
    """The app, its client, the games inputs act on, and their sockets."""

    def __init__(self, kinds: tuple[str, ...] = KINDS) -> None:
        self.kinds = kinds
        self.folder: Path | None = None
        self.client: Any = None
        self.games: list[tuple[str, str, str]] = []  # id, White's token, Black's token
        self.sockets: dict[str, Any] = {}
        self.analysis_socket: Any = None
        self.inputs = 0
        self.admin_session = ""
        self.chat_time = 0.0

    def start(self) -> None:
        from fastapi.testclient import TestClient

        from kradan.web import ServeSettings, create_app
        from kradan.web.settings import LOOPBACK_HOSTS

        self.folder = Path(tempfile.mkdtemp(prefix="kradan-fuzz-web-"))
        url = f"sqlite+aiosqlite:///{self.folder / 'games.db'}"
        # it creates many games, and its websockets ask for Starlette's host, testserver
        hosts = (*LOOPBACK_HOSTS, "testserver")
        app = create_app(url, settings=ServeSettings(allowed_hosts=hosts, create_rate=0))
        self.client = TestClient(app, base_url="http://127.0.0.1")
        self.client.__enter__()
        self._make_admin()
        self._fresh_games()

    def _make_admin(self) -> None:
        """An admin account, signed in (its session for ``chat-remove``), and the chat's clock
        that the inputs move."""
        from functools import partial

        state = self.client.app.state
        self.client.portal.call(partial(state.accounts.sign_up, "fuzz-admin", ADMIN_PASSWORD,
                                        admin=True))  # fmt: skip
        signed_in = self.client.post("/api/session", json={"username": "fuzz-admin",
                                                           "password": ADMIN_PASSWORD})  # fmt: skip
        self.admin_session = signed_in.cookies["kradan_session"]
        state.chat.clock = lambda: self.chat_time

    def stop(self) -> None:
        self._close_sockets()
        if self.client is not None:
            self.client.__exit__(None, None, None)
            self.client = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def _close_sockets(self) -> None:
        for socket in [*self.sockets.values(), self.analysis_socket]:
            with contextlib.suppress(Exception):  # a socket the server closed already
                if socket is not None:
                    socket.__exit__(None, None, None)
        self.sockets.clear()
        self.analysis_socket = None

    def _fresh_games(self) -> None:
        self._close_sockets()
        self.games = []
        for body in (*GAMES, REVIEWED_GAME):
            response = self.client.post("/api/games", json=body)
            if response.status_code != 201:
                raise RuntimeError(f"cannot make a game {body}: {response.text}")
            created = response.json()
            self.games.append((created["id"], created["token"], created["invite"] or ""))
        game_id, white, black = self.games[REVIEWED]
        for token, uci in zip((white, black), REVIEWED_MOVES, strict=True):
            response = self.client.post(f"/api/games/{game_id}/moves", json={"move": uci},
                                        headers={"Authorization": f"Bearer {token}"})  # fmt: skip
            if response.status_code != 200:
                raise RuntimeError(f"cannot play {uci} in the reviewed game: {response.text}")

    # --- one input ----------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """One input. Whatever the app raises is a crash, kradan's typed errors too: the test
        client raises the exception behind a 500 answer, and a typed error that reaches it is
        one that the route let through."""
        try:
            self._feed(data)
        except Crash:
            raise
        except Exception as error:
            where = traceback.extract_tb(error.__traceback__)[-1]
            raise Crash(
                f"the app raised {type(error).__name__}: {error} "
                f"(at {Path(where.filename).name}:{where.lineno})"
            ) from error

    def _feed(self, data: bytes) -> None:
        if self.client is None:
            self.start()
        self.inputs += 1
        if self.inputs % FRESH_EVERY == 0 and not GAMELESS.issuperset(self.kinds):
            self._fresh_games()
        head, _, body = data.partition(b"\n")
        words = head.decode("utf-8", "replace").split()
        kind = words[0] if words else "get"
        number = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
        if self.kinds != KINDS and kind not in self.kinds:
            kind = self.kinds[number % len(self.kinds)]
        game_id, white, black = self.games[number % len(self.games)]
        token = black if number // len(self.games) % 2 and black else white
        text = body.decode("utf-8", "replace")
        headers = {"Authorization": f"Bearer {token}", "content-type": "application/json"}
        client = self.client
        client.cookies.clear()  # each input stands alone (and the jar's lookups grow with it)
        self.chat_time += 2.5
        if kind == "socket":
            self._socket(game_id, text)
            return
        if kind == "chat-socket":
            self._chat_socket(game_id, token, text)
            return
        if kind == "analysis-socket":
            self._analysis_socket(brief(text))
            return
        if kind in STUDY_ROUTES:
            self._study(kind, body, text)
            return
        if kind == "new":
            response = client.post("/api/games", content=body, headers=headers)
        elif kind in ("move", "action", "setup"):
            response = client.post(f"/api/games/{game_id}/{kind}s", content=body, headers=headers)
        elif kind == "analysis":
            response = client.post("/api/analysis", content=brief(text).encode(), headers=headers)
        elif kind == "get":
            response = client.get(f"/api/games/{quote(text[:200], safe='')}", headers=headers)
        elif kind == "review":
            response = client.post(f"/api/games/{game_id}/analysis", content=body, headers=headers)
        elif kind == "review-get":
            response = client.get(f"/api/games/{quote(text[:200], safe='') or game_id}/analysis")
        elif kind == "pgn":
            response = client.get(f"/api/games/{quote(text[:200], safe='') or game_id}/pgn")
        elif kind == "list":
            response = client.get("/api/games", params={"limit": text[:40]})
        elif kind in ACCOUNT_ROUTES:
            response = client.post(ACCOUNT_ROUTES[kind], content=body, headers=headers)
        elif kind == "take":
            response = client.post(f"/api/seeks/{self._seek_for(text)}/accept", content=body,
                                   headers=headers)  # fmt: skip
        elif kind == "rematch":
            response = client.post(f"/api/games/{game_id}/rematch", headers=headers)
        elif kind in ("abort", "claim-win"):
            response = client.post(f"/api/games/{game_id}/{kind}", content=body, headers=headers)
        elif kind == "profile":
            response = client.get(f"/api/accounts/{quote(text[:80], safe='')}")
        elif kind == "leaders":
            response = client.get(f"/api/ratings/{quote(text[:40], safe='')}")
        elif kind == "chat":
            response = client.post(f"/api/games/{game_id}/chat", content=body, headers=headers)
        elif kind == "chat-read":
            response = client.get(f"/api/games/{game_id}/chat", params={"room": text[:40]},
                                  headers=headers)  # fmt: skip
        elif kind == "chat-remove":
            client.cookies.set("kradan_session", self.admin_session)
            response = client.delete(f"/api/chat/{quote(text[:20], safe='') or 'x'}")
            client.cookies.clear()
        elif kind == "read-move":
            response = client.get(f"/api/games/{game_id}/read-move", params={"move": text[:100]})
        elif kind == "join":
            response = client.get(f"/join/{game_id}", params={"seat": text[:200]},
                                  follow_redirects=False)  # fmt: skip
        elif kind == "archive":
            response = client.post("/api/archive", content=body,
                                   headers={"content-type": "application/x-chess-pgn"})  # fmt: skip
        elif kind in ARCHIVE_QUERIES:
            query = _url(text[:600]).replace("/", "%2F")
            response = client.get(f"{ARCHIVE_QUERIES[kind]}?{query}")
        elif kind == "archived":
            response = client.get(f"/api/archive/{quote(text[:40], safe='')}")
        elif kind == "page":
            response = client.get("/" + _url(text[:400].lstrip("/")), follow_redirects=False)
        else:
            first, _, rest = body.partition(b"\n")
            method, _, path = first.decode("utf-8", "replace").partition(" ")
            if method.upper() not in ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"):
                method = "POST"
            path = "/" + _url(path.strip().lstrip("/").replace("{id}", game_id))
            response = client.request(method.upper(), path[:500], content=rest, headers=headers)
        if response.status_code >= 500:
            raise Crash(f"{kind} answered {response.status_code}: {response.text[:300]!r}")

    def _study(self, kind: str, body: bytes, text: str) -> None:
        """POST ``body`` to the analysis board's route of ``kind`` (see the module's doc)."""
        headers = {"content-type": "application/json"}
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        route = STUDY_ROUTES[kind]
        if kind == "line" and value is None and not text.lstrip().startswith(("{", "[")):
            body = study.line_body(text).encode()  # a line in text form
        as_is = kind == "line" or (kind == "pgn-read" and isinstance(value, dict))
        if not as_is and not (kind == "pgn-write" and value is not None):
            # PGN text: read it, and (pgn-write) write back the tree read
            read = self.client.post("/api/pgn/read", content=json.dumps({"pgn": text}),
                                    headers=headers)  # fmt: skip
            if read.status_code >= 500:
                raise Crash(f"pgn-read answered {read.status_code}: {read.text[:300]!r}")
            if kind == "pgn-read" or read.status_code != 200:
                return
            body = read.content
        response = self.client.post(route, content=body, headers=headers)
        if response.status_code >= 500:
            raise Crash(f"{kind} answered {response.status_code}: {response.text[:300]!r}")

    def _seek_for(self, text: str) -> str:
        """The seek an input takes: an open one when the body is JSON, else the body as the
        seek's id."""
        if not text.lstrip().startswith("{"):
            return quote(text[:40], safe="") or "x"
        seeks = self.client.get("/api/seeks").json()["seeks"]
        return seeks[0]["id"] if seeks else "x"

    def _socket(self, game_id: str, text: str) -> None:
        """Send ``text`` on the game's socket, then a message that must be answered."""
        socket = self.sockets.get(game_id)
        if socket is None:
            socket = self.client.websocket_connect(f"/api/games/{game_id}/socket")
            socket.__enter__()
            self.sockets[game_id] = socket
            self._receive(socket)  # the game as it stands
        try:
            socket.send_text(text)
            socket.send_text(SENTINEL)
            while True:
                message = json.loads(self._receive(socket))
                if message.get("type") == "error" and message.get("status", 0) >= 500:
                    raise Crash(f"socket answered {message!r} to {text[:200]!r}")
                if message.get("type") == "error" and "fuzz-sentinel" in message.get("error", ""):
                    return
        except Crash:
            raise
        except Exception as error:
            self.sockets.pop(game_id, None)
            raise Crash(f"socket failed after {text[:200]!r}: {error!r}") from error

    def _chat_socket(self, game_id: str, token: str, text: str) -> None:
        """Open the game's chat socket in the room the first line names, send the rest (or
        the seat's token when there is none), then read one message or the refusal."""
        from starlette.websockets import WebSocketDisconnect

        room, _, rest = text.partition("\n")
        message = rest or json.dumps({"type": "auth", "token": token})
        path = f"/api/games/{game_id}/chat/socket?room={quote(room[:40], safe='')}"
        try:
            with self.client.websocket_connect(path) as socket:
                socket.send_text(message)
                self._receive(socket)
        except WebSocketDisconnect as closed:
            if closed.code not in (1000, 1008, 4403, 4404):  # 1008: a room that is no room
                raise Crash(f"chat socket closed with {closed.code} after {text[:200]!r}") from None
        except Crash as crash:
            if "websocket.close" not in str(crash) or "4403" not in str(crash):
                raise

    def _analysis_socket(self, text: str) -> None:
        """Send ``text`` on the analysis socket, then a message that must be answered (lines
        of an analysis may come in between)."""
        socket = self.analysis_socket
        if socket is None:
            socket = self.client.websocket_connect("/api/analysis/socket")
            socket.__enter__()
            self.analysis_socket = socket
        try:
            socket.send_text(text)
            socket.send_text(ANALYSIS_SENTINEL)
            while True:
                message = json.loads(self._receive(socket))
                if message.get("t") == "error" and message.get("status", 0) >= 500:
                    raise Crash(f"analysis socket answered {message!r} to {text[:200]!r}")
                if message.get("t") == "error" and "fuzz-sentinel" in message.get("error", ""):
                    return
        except Crash:
            raise
        except Exception as error:
            self.analysis_socket = None
            raise Crash(f"analysis socket failed after {text[:200]!r}: {error!r}") from error

    @staticmethod
    def _receive(socket: Any) -> str:
        """The next text message, or :class:`Crash` after :data:`SOCKET_TIMEOUT` seconds."""
        import anyio

        async def receive() -> Any:
            with anyio.fail_after(SOCKET_TIMEOUT):
                return await socket._send_rx.receive()

        message = socket.portal.call(receive) if hasattr(socket, "_send_rx") else socket.receive()
        if message.get("type") == "websocket.close":
            raise Crash(f"the server closed the socket: {message!r}")
        text: str = message.get("text") or ""
        return text


def brief(text: str) -> str:
    """An analysis body or message as JSON text: an object without ``movetime_ms`` gets
    :data:`FUZZ_MOVETIME_MS`; anything else stays as it is."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, dict) and "movetime_ms" not in value:
        return json.dumps({**value, "movetime_ms": FUZZ_MOVETIME_MS})
    return text


def _url(text: str) -> str:
    """``text`` as a URL's path and query: what a browser would escape, escaped (the client
    refuses to send control characters at all)."""
    return quote(text, safe="/?=&%:+,;@-_.~!$'()*")


def seeds() -> list[bytes]:
    """Requests the web tests make, over every kind, with the tests' FENs and moves."""
    fen = corpus.fen_seeds()[0]
    cases = [
        ("new", json.dumps({"variant": "thai", "options": {"counting": "declared"},
                            "opponent": "human"})),
        ("new", json.dumps({"variant": "sittuyin", "fen": fen, "clock": "60+1"})),
        ("move 0", '{"move": "e3e4"}'), ("move 5", '{"move": "e6e5"}'),
        ("move 3", '{"move": "c2c3"}'), ("action 1", '{"action": "declare_count"}'),
        ("action 0", '{"action": "offer_draw"}'), ("setup 2", '{"arrangement": "standard"}'),
        ("setup 7", '{"arrangement": {"e2": "K", "d2": "F"}}'), ("get 0", "Xk2_9aQw-Lm3"),
        ("pgn 0", ""), ("list", "50"), ("join 0", "token"), ("read-move 0", "e4"),
        ("read-move 3", "จ๔"), ("read-move 1", "R@a1"), ("page", "games/Xk2_9aQw-Lm3"),
        ("page", f"assets/position.svg?fen={quote(fen)}"), ("page", "static/js/game-page.js"),
        ("socket 0", '{"type": "move", "move": "e3e4"}'), ("socket 1", '{"type": "auth"}'),
        ("socket 2", '{"type": "setup", "arrangement": "fortress"}'),
        ("analysis", json.dumps({"variant": "makruk", "moves": ["e3e4"], "multipv": 2})),
        ("analysis", json.dumps({"variant": "alquerque", "multipv": 3, "movetime_ms": 30})),
        ("analysis", json.dumps({"fen": "8/8/3k4/8/8/3K4/8/R7 w - 32 3 40"})),
        ("analysis-socket", json.dumps({"t": "analyse", "id": 1, "fen": fen,
                                        "variant": "sittuyin", "multipv": 5})),
        ("analysis-socket", '{"t": "stop"}'), ("analysis-socket", '{"t": "analyse", "id": []}'),
        ("raw", 'POST /language\nlang=th'), ("raw", "GET /api/games/{id}/pgn\n"),
        ("archive", corpus.pgn_seeds()[0]), ("archive", '[Variant "sittuyin"]\n\n1. e4 *'),
        ("search", "player=Anan&color=white&since=2024&limit=5"),
        ("search", "variant=makruk&moves=e3e4,d6d5&after=20240315.7"),
        ("export", "result=1-0&limit=3"), ("archived", "1"), ("archived", "x"),
        ("games-pgn", "limit=2"), ("games-pgn", "limit=0&after=Xk2_9aQw-Lm3"),
        ("explore", "variant=makruk&play=e3e4&player=Anan&until=2025-01"),
        ("explore", f"variant=sittuyin&fen={quote(fen)}"),
        (f"review {REVIEWED}", '{"depth": 3}'), ("review 0", ""), ("review 1", '{"nodes": 0}'),
        (f"review-get {REVIEWED}", ""), ("review-get 0", "Xk2_9aQw-Lm3"),
        ("raw", 'POST /api/line\n{"variant": "karouk", "moves": ["e3e4"]}'),
        ("account", '{"username": "Anan", "password": "correct horse"}'),
        ("account", '{"username": "สมชาย_2", "password": "12345678"}'),
        ("sign-in", '{"username": "anan", "password": "correct horse"}'),
        ("seek", '{"variant": "makruk", "clock": "300+3", "name": "Kai"}'),
        ("seek", '{"quick": true, "clock": "180+2", "color": "black", "name": "Lek"}'),
        ("seek", '{"variant": "sittuyin", "rated": true, "rating_range": [1200, 1800]}'),
        ("seek", '{"to": "anan", "options": {"counting": "declared"}}'),
        ("take", '{"name": "Mint"}'), ("take", "Xk2_9aQw-Lm3"), ("take", "{}"),
        (f"rematch {REVIEWED}", ""), (f"rematch {REVIEWED + len(GAMES) + 1}", ""),
        ("rematch 0", ""), ("profile", "Anan"), ("profile", "nobody"),
        ("leaders", "makruk"), ("leaders", "cambodian"), ("leaders", "chess"),
        ("chat 0", '{"room": "players", "text": "good luck"}'),
        ("chat 5", '{"room": "spectators", "text": "ស្រី\u200dខ <b>x</b>"}'),
        ("chat 1", '{"text": "  \\u0007  "}'), ("chat-read 0", "players"),
        ("chat-read 0", "spectators"), ("chat-read 2", "x"), ("chat-remove", "1"),
        ("chat-remove", "99999999999999999999"), ("chat-remove", "x"),
        ("chat-socket 0", "players"), ("chat-socket 1", 'spectators\n{"type": "auth"}'),
        ("chat-socket 3", "x\nnot json"),
        ("abort 0", ""), ("abort 5", "{}"), ("claim-win 1", ""), ("claim-win 6", "x"),
        ("action 4", '{"action": "abort"}'), ("action 0", '{"action": "claim_win"}'),
        ("socket 0", '{"type": "action", "action": "claim_win"}'),
        ("new", '{"opponent": "human", "clock": "½+0"}'),
        ("seek", '{"clock": "30s+0", "name": "Nok"}'), ("new", '{"clock": "0.5+0"}'),
    ]  # fmt: skip
    cases += [("line", body) for body in study.line_bodies()]
    cases += [("line", text) for text in study.line_texts()]
    cases += [("pgn-read", text) for text in study.pgn_texts()]
    cases += [("pgn-write", body) for body in study.tree_bodies()]
    return [f"{head}\n{body}".encode() for head, body in cases]


def web_target() -> Target:
    """The web API and socket (needs the ``web`` extra), kept to the kinds
    :data:`KINDS_VARIABLE` names."""
    kinds = selected_kinds()
    app = WebApp(kinds)

    def kept_seeds() -> list[bytes]:
        found = seeds()
        if kinds == KINDS:
            return found
        return [data for data in found if data.split(b"\n", 1)[0].split(b" ")[0].decode() in kinds]

    def grammar() -> Any:
        from . import grammars

        return grammars.web_requests(None if kinds == KINDS else kinds)

    return Target("web", app.feed, kept_seeds, grammar, start=app.start, stop=app.stop,
                  short_inputs=1_000)  # fmt: skip
