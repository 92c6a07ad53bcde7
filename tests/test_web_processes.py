"""Several ``kradan serve`` processes on one PostgreSQL (docs/scaling.md): each game is served by
one process (an advisory lock, :mod:`kradan.web.owners`), the others pass its requests and
websockets on (:mod:`kradan.web.forward`), and a process killed with SIGKILL hands its games
to another with no acknowledged move lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest

from benchmarks.loopback import call, free_port

from .web_helpers import in_own_thread, wait_for


def start_process(port: int, db: str, log: Path) -> subprocess.Popen[bytes]:
    """``kradan serve`` on 127.0.0.1:``port``, one of several on ``db``, up and answering."""
    output = log.open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "kradan", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", db, "--engines", "1", "--create-rate", "off",
         "--internal-url", f"http://127.0.0.1:{port}"],
        stdout=output,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    output.close()

    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"kradan serve exited:\n{log.read_text()[-3000:]}")
        try:
            call(f"http://127.0.0.1:{port}/api/games?limit=1", timeout=5)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False
        return True

    wait_for(up, timeout=90, step=0.2)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


class Watcher:
    """A spectator's websocket on one process, read in a thread: every game message it got."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.stack = contextlib.ExitStack()
        self.socket = self.stack.enter_context(connect(url, open_timeout=20))
        self.views: list[dict[str, Any]] = []
        self.closed: str | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.socket:
                message = json.loads(text)
                if message.get("type") == "game":
                    self.views.append(message["game"])
        except ConnectionClosed as closed:
            self.closed = repr(closed)

    def moves(self) -> list[str]:
        return list(self.views[-1]["moves"]) if self.views else []

    def close(self) -> None:
        self.stack.close()
        self.thread.join(10)


def test_a_game_goes_on_through_another_process_after_sigkill(
    postgresql_cluster: Any, tmp_path: Path
) -> None:
    db = postgresql_cluster.new_database()
    ports = free_port(), free_port()
    a_url, b_url = (f"http://127.0.0.1:{port}" for port in ports)
    log = tmp_path / "serve.log"
    a = start_process(ports[0], db, log)
    b = start_process(ports[1], db, log)
    watcher: Watcher | None = None
    try:
        created = call(f"{a_url}/api/games", {"opponent": "human"})
        game_id = created["id"]
        tokens = [created["token"], created["invite"]]
        acknowledged: list[str] = []

        def play(base: str, ply: int, state: dict[str, Any]) -> dict[str, Any]:
            legal = state["legal_moves"]
            uci = legal[(ply * 7) % len(legal)]
            played = call(f"{base}/api/games/{game_id}/moves", {"move": uci}, tokens[ply % 2])
            acknowledged[:] = played["moves"]
            return dict(played)

        # a spectator on B watches the game A serves, live
        watcher = Watcher(f"ws://127.0.0.1:{ports[1]}/api/games/{game_id}/socket")
        wait_for(lambda: watcher is not None and bool(watcher.views), timeout=20)
        state = call(f"{b_url}/api/games/{game_id}")  # B answers for it, from A
        assert state["moves"] == [] and state["status"] == "playing"
        for ply in range(6):
            state = play(a_url, ply, state)
            wait_for(lambda: watcher is not None and watcher.moves() == acknowledged, timeout=20)
        # a socket on B that proves White's seat plays through A (relayed from then on)
        from websockets.sync.client import connect

        with connect(f"ws://127.0.0.1:{ports[1]}/api/games/{game_id}/socket") as player:
            player.send(json.dumps({"type": "auth", "token": tokens[0]}))
            uci = state["legal_moves"][0]
            player.send(json.dumps({"type": "move", "move": uci}))
            while uci not in acknowledged[6:]:
                message = json.loads(player.recv(timeout=20))
                assert message["type"] == "game", message
                acknowledged[:] = message["game"]["moves"]
        state = call(f"{a_url}/api/games/{game_id}")
        assert state["moves"] == acknowledged and len(acknowledged) == 7
        wait_for(lambda: watcher is not None and watcher.moves() == acknowledged, timeout=20)

        state = play(b_url, 7, state)  # a move sent to B is played by A, its owner
        wait_for(lambda: watcher is not None and watcher.moves() == acknowledged, timeout=20)
        assert call(f"{a_url}/api/games/{game_id}")["moves"] == acknowledged
        a.send_signal(signal.SIGKILL)
        a.wait(10)
        seen = list(acknowledged)
        assert len(seen) == 8
        # B takes the game over, rebuilt from the database: every acknowledged move is there
        state = call(f"{b_url}/api/games/{game_id}")
        assert state["moves"][: len(seen)] == seen and len(state["moves"]) <= len(seen) + 1
        assert state["status"] == "playing"
        for ply in range(len(state["moves"]), len(state["moves"]) + 4):
            state = play(b_url, ply, state)
        assert state["moves"][: len(seen)] == seen and len(state["moves"]) >= len(seen) + 4
        # the spectator's websocket on B went on: it sees the moves B now serves
        wait_for(lambda: watcher is not None and watcher.moves() == acknowledged, timeout=20)
        assert watcher.closed is None
    finally:
        if watcher is not None:
            watcher.close()
        for process in (a, b):
            stop(process)


def answer(url: str, method: str = "GET", body: Any = None, token: str | None = None) -> Any:
    """``(status, JSON)`` of a request to ``url`` (errors too)."""
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_seek_posted_on_one_process_is_listed_and_taken_on_another(
    postgresql_cluster: Any, tmp_path: Path
) -> None:
    db = postgresql_cluster.new_database()
    ports = free_port(), free_port()
    a_url, b_url = (f"http://127.0.0.1:{port}" for port in ports)
    log = tmp_path / "serve.log"
    a = start_process(ports[0], db, log)
    b = start_process(ports[1], db, log)
    try:
        status, posted = answer(
            f"{a_url}/api/seeks", "POST", {"variant": "makruk", "clock": "60+0"}
        )
        assert status == 201, posted
        seek_id, token = posted["id"], posted["token"]

        def listed(base: str) -> list[str]:
            return [seek["id"] for seek in call(f"{base}/api/seeks")["seeks"]]

        wait_for(lambda: seek_id in listed(b_url), timeout=20)  # told through NOTIFY
        # its owner asks after it through B: B passes the question to A, which holds it
        status, state = answer(f"{b_url}/api/seeks/{seek_id}", token=token)
        assert status == 200 and state["status"] == "open"
        assert answer(f"{b_url}/api/seeks/{seek_id}", token="wrong")[0] == 403
        # taken through B: the game is made by A, and both seats play it through either
        status, taken = answer(f"{b_url}/api/seeks/{seek_id}/accept", "POST", {})
        assert status == 200, taken
        status, state = answer(f"{b_url}/api/seeks/{seek_id}", token=token)
        assert status == 200 and state["status"] == "accepted" and state["game"] == taken["game"]
        wait_for(lambda: seek_id not in listed(b_url), timeout=20)
        assert seek_id not in listed(a_url)
        assert answer(f"{b_url}/api/seeks/{seek_id}/accept", "POST", {})[0] == 404
        game_id = taken["game"]
        white = taken["token"] if taken["color"] == "white" else state["token"]
        played = call(f"{b_url}/api/games/{game_id}/moves", {"move": "e3e4"}, white)
        assert played["moves"] == ["e3e4"]
        assert call(f"{a_url}/api/games/{game_id}")["moves"] == ["e3e4"]
        # a seek withdrawn on its home goes from the other's list
        _, second = answer(f"{a_url}/api/seeks", "POST", {"variant": "makruk"})
        wait_for(lambda: second["id"] in listed(b_url), timeout=20)
        assert (
            answer(f"{b_url}/api/seeks/{second['id']}", "DELETE", token=second["token"])[0] == 204
        )
        wait_for(lambda: second["id"] not in listed(b_url), timeout=20)
        assert second["id"] not in listed(a_url)
    finally:
        for process in (a, b):
            stop(process)


def test_a_game_is_served_by_one_process_at_a_time(postgresql_cluster: Any, tmp_path: Path) -> None:
    """Two owners on one database: a game's lock is held by one, named by its URL to the
    other, and free once the holder's connection closes."""
    from kradan.web.owners import Owners
    from kradan.web.storage import make_engine, migrate

    db = postgresql_cluster.new_database()

    async def work() -> None:
        engine = make_engine(db)
        await migrate(engine)
        await engine.dispose()
        first, second = Owners(db, "http://127.0.0.1:1"), Owners(db, "http://127.0.0.1:2")
        await first.open()
        await second.open()
        try:
            assert await first.claim(41) and await first.claim(41)  # held: claimed again
            assert not await second.claim(41)
            assert await second.owner_of(41) == "http://127.0.0.1:1"
            assert await second.owner_of(42) is None
            assert await second.claim(42)
            await first.close()
            assert await second.owner_of(41) is None
            assert await second.claim(41)
            await second.release(41)
            assert await second.owner_of(41) is None
        finally:
            await first.close()
            await second.close()

    in_own_thread(work())


def test_an_internal_url_needs_postgresql(tmp_path: Path, capsys: Any) -> None:
    from kradan.cli import main

    db = str(tmp_path / "games.db")
    assert main.main(["serve", "--db", db, "--internal-url", "http://127.0.0.1:8081"]) == 2
    assert "several processes need PostgreSQL" in capsys.readouterr().err
    assert main.main(["serve", "--db", db, "--internal-url", "ftp://x"]) == 2
    assert "'ftp://x'" in capsys.readouterr().err


def test_internal_urls() -> None:
    from kradan.web.settings import ServeSettings, parse_internal_url

    assert parse_internal_url("http://10.0.0.5:8081/") == "http://10.0.0.5:8081"
    for bad in ("10.0.0.5:8081", "http://10.0.0.5", "https://h:1", "http://h:1/x", "http://u@h:1"):
        with pytest.raises(ValueError, match="internal URL"):
            parse_internal_url(bad)
    settings = ServeSettings(internal_url="http://10.0.0.5:8081")
    assert "10.0.0.5" in settings.allowed_hosts  # the other processes reach it by that name


def test_game_paths() -> None:
    from kradan.web.forward import game_of

    game = "Xk2_9aQw-Lm3"
    for path in (f"/api/games/{game}", f"/api/games/{game}/moves", f"/api/games/{game}/socket",
                 f"/api/games/{game}/chat/socket", f"/join/{game}",
                 f"/api/bot/game/stream/{game}", f"/api/bot/game/{game}/move/e3e4"):  # fmt: skip
        assert game_of(path) == game, path
    for path in ("/api/games", "/api/games.pgn", f"/games/{game}", "/api/seeks", "/"):
        assert game_of(path) is None, path


def test_a_bot_on_one_process_plays_a_challenge_posted_on_another(
    postgresql_cluster: Any, tmp_path: Path
) -> None:
    """The bot's event stream on B hears of a challenge posted on A (the bus) and of the game
    A makes when it takes it (the database); its game stream and moves go through B to A."""
    from kradan.runners.bot import Bot, BotServer

    from .test_web_bot import Person, _member, _taken

    db = postgresql_cluster.new_database()
    ports = free_port(), free_port()
    a_url, b_url = (f"http://127.0.0.1:{port}" for port in ports)
    log = tmp_path / "serve.log"
    a = start_process(ports[0], db, log)
    b = start_process(ports[1], db, log)
    try:
        robo, anan = _member(b_url, "Robo"), _member(a_url, "Anan")
        token = robo.call("POST", "/api/tokens")["token"]
        bot = Bot(BotServer(b_url, token), "random", log=lambda line: None)
        assert bot.account(upgrade=True) == "Robo"
        playing = threading.Thread(target=bot.run, kwargs={"games": 1}, daemon=True)
        playing.start()
        seek = anan.call("POST", "/api/seeks", {"to": "Robo", "color": "white"})
        state = wait_for(lambda: _taken(anan, seek), timeout=60)
        game, mine = state["game"], state["token"]
        anan.call("POST", f"/api/games/{game}/moves", {"move": "e3e4"}, mine)
        wait_for(lambda: anan.call("GET", f"/api/games/{game}")["ply"] >= 2, timeout=60)
        assert Person(b_url).call("GET", f"/api/games/{game}")["players"]["black"] == "Robo"
        anan.call("POST", f"/api/games/{game}/actions", {"action": "resign"}, mine)
        playing.join(60)
        assert not playing.is_alive() and bot.errors == [] and bot.finished == 1
    finally:
        for process in (a, b):
            stop(process)


def test_a_forgotten_game_is_given_up_and_taken_again(postgresql_cluster: Any) -> None:
    """A process that forgets an idle game (more games than it keeps) frees its lock, so that
    another process may serve it; asked for it again, it takes it back."""
    from dataclasses import replace

    from starlette.testclient import TestClient

    from kradan.web import create_app

    from .web_helpers import BASE, TEST_SETTINGS

    db = postgresql_cluster.new_database()
    settings = replace(TEST_SETTINGS, internal_url="http://127.0.0.1:1")
    app = create_app(db, settings=settings, engine_workers=1)
    with TestClient(app, base_url=BASE) as client:
        hall = app.state.hall
        hall.kept = 1
        game = {"opponent": "engine", "color": "white"}  # the person to move: idle
        first = client.post("/api/games", json=game).json()["id"]
        first_row = hall.rooms[first].row.id
        assert client.portal.call(hall.owners.owner_of, first_row) == "http://127.0.0.1:1"
        second = client.post("/api/games", json=game).json()["id"]
        assert first not in hall.rooms and second in hall.rooms
        wait_for(lambda: client.portal.call(hall.owners.owner_of, first_row) is None, timeout=10)
        assert client.get(f"/api/games/{first}").json()["id"] == first  # taken back
        assert client.portal.call(hall.owners.owner_of, first_row) == "http://127.0.0.1:1"


def test_a_killed_processs_running_clock_falls_at_another_unasked(
    postgresql_cluster: Any, tmp_path: Path
) -> None:
    """Nobody asks for the game after its process is killed: another process's sweep takes it
    over, and the clock that was running ends the game there (read from the database)."""
    import asyncpg

    from kradan.web.owners import asyncpg_dsn

    db = postgresql_cluster.new_database()
    ports = free_port(), free_port()
    a_url = f"http://127.0.0.1:{ports[0]}"
    log = tmp_path / "serve.log"
    a = start_process(ports[0], db, log)
    b = start_process(ports[1], db, log)
    try:
        created = call(f"{a_url}/api/games", {"opponent": "human", "clock": "6+0"})
        game_id, white, black = created["id"], created["token"], created["invite"]
        call(f"{a_url}/api/games/{game_id}/moves", {"move": "e3e4"}, white)
        state = call(f"{a_url}/api/games/{game_id}/moves", {"move": "e6e5"}, black)
        assert state["clock"]["running"] == "white"
        a.send_signal(signal.SIGKILL)
        a.wait(10)

        async def stored() -> tuple[str, str | None]:
            connection = await asyncpg.connect(asyncpg_dsn(db))
            try:
                row = await connection.fetchrow(
                    "SELECT status, termination FROM games WHERE public_id = $1", game_id
                )
            finally:
                await connection.close()
            return str(row["status"]), row["termination"]

        assert in_own_thread(stored()) == ("playing", None)  # White's 6 s are not over yet
        ended = wait_for(
            lambda: (lambda found: found if found[0] == "ended" else None)(in_own_thread(stored())),
            timeout=60,
            step=0.5,
        )
        assert ended[1] == "time forfeit"
    finally:
        for process in (a, b):
            stop(process)


def test_spectators_hear_of_changes_gathered_and_read_each_game_once() -> None:
    """:class:`kradan.web.watch.Spectators` with a bus of its own: a process's changed games
    are told together; told of another's, a process reads only the games watched here, and
    each spectator gets each new message once."""
    from kradan.web.watch import Spectators

    published: list[dict[str, Any]] = []
    reads: list[str] = []
    views = {"g1": "v1"}

    class Bus:
        async def publish(self, topic: str, message: dict[str, Any]) -> None:
            published.append(message)

        async def subscribe(self, topic: str, handler: Any) -> None:
            return None

    async def read(public_id: str) -> str | None:
        reads.append(public_id)
        return views[public_id]

    async def work() -> None:
        tasks: set[asyncio.Task[Any]] = set()

        def spawn(what: str, job: Any) -> None:
            task = asyncio.ensure_future(job)
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        spectators = Spectators(Bus(), read, spawn)
        spectators.changed("mine1", "x")
        spectators.changed("mine2", "y")
        await asyncio.sleep(0.2)
        assert published == [{"ids": ["mine1", "mine2"]}]

        sent: list[str] = []
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(message["text"])

        watching = asyncio.ensure_future(spectators.watch("g1", inbox.get, send))
        await asyncio.sleep(0.05)
        assert sent == ["v1"] and reads == ["g1"]
        spectators.heard({"ids": ["other", "g1"]})  # "other" is watched by nobody here
        await asyncio.sleep(0.05)
        assert reads == ["g1", "g1"] and sent == ["v1"]  # unchanged: not sent again
        views["g1"] = "v2"
        spectators.heard({"ids": ["g1"]})
        await asyncio.sleep(0.05)
        assert sent == ["v1", "v2"]
        await inbox.put({"type": "websocket.receive", "text": '{"type": "auth"}'})
        assert await watching == {"type": "websocket.receive", "text": '{"type": "auth"}'}
        assert "g1" not in spectators.sockets

    in_own_thread(work())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_one_process_at_a_time(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """:func:`kradan.web.owners.one_at_a_time`: on PostgreSQL, blocks of one name never overlap,
    though they run on pools of their own (as two processes' would); other names do not wait.
    On SQLite it does nothing."""
    from kradan.web.owners import one_at_a_time
    from kradan.web.storage import make_engine

    from .web_helpers import new_database

    db = new_database(kind, request, tmp_path)

    async def work() -> None:
        engines = [make_engine(db), make_engine(db)]  # two pools: as two processes
        inside: list[str] = []
        overlaps: list[str] = []

        async def block(engine: Any, name: str, tag: str) -> None:
            async with one_at_a_time(engine, name):
                if any(other.startswith(name) for other in inside):
                    overlaps.append(tag)
                inside.append(f"{name}/{tag}")
                await asyncio.sleep(0.05)
                inside.remove(f"{name}/{tag}")

        try:
            jobs = [block(engines[n % 2], "round", str(n)) for n in range(6)]
            await asyncio.gather(*jobs)
            # SQLite is one process's: the block runs at once (its callers' own lock serves)
            assert overlaps == [] if kind == "postgresql" else len(overlaps) == 5
            if kind == "postgresql":  # other names go on meanwhile
                async with one_at_a_time(engines[0], "a"):
                    await asyncio.wait_for(block(engines[1], "b", "b"), timeout=10)
        finally:
            for engine in engines:
                await engine.dispose()

    in_own_thread(work())
