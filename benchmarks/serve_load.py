"""Load on ``kradan serve``: many games between people played at once over the websocket, both
sides moving as soon as the server acknowledges, on SQLite and on PostgreSQL.

    python benchmarks/serve_load.py                         # 200 games, 40 plies, both databases
    python benchmarks/serve_load.py --games 50 --db sqlite
    python benchmarks/serve_load.py --crash                 # SIGKILL under load, then restart
    python benchmarks/serve_load.py --think 1000            # players who think about a second
    python benchmarks/serve_load.py --lobby                 # accounts pair through rated seeks
    python benchmarks/serve_load.py --processes 2           # two processes on one PostgreSQL

The server is the real ``kradan serve`` (uvicorn, a subprocess on 127.0.0.1 and a free port) on a
temporary SQLite file, or on a throw-away PostgreSQL cluster (benchmarks/postgres_cluster.py,
fsync on) when PostgreSQL is installed. The script creates ``--games`` games with
``opponent: "human"`` (the answer holds both seats' tokens), opens one websocket per seat, and
each seat plays a random legal move (seeded) as soon as it is its turn, for ``--plies`` plies or
until the game ends.

A move is acknowledged by the game message the server sends after committing it; its latency is
the time from sending the move to that message. ``lost`` counts acknowledged moves that are not
in the database afterwards (read from the database, not from the server's memory).

Every seat's socket is open before the first move is sent: the 400 opening handshakes are
not timed. The load is closed: each game always has one move on its way, so with ``--think 0`` the
latency is about the number of games divided by the server's moves per second (Little's law);
``--think`` gives each move a pause before it is sent (not counted in the latency).

With ``--lobby`` the games are made as a club's members make them: two accounts per game sign
up (``POST /api/accounts``, Argon2 hashing included), one posts a rated seek, the other takes it
(``POST /api/seeks/{id}/accept``), and the seek's owner learns its seat by asking for its seek;
the table's second part gives each step's latency. The games are then rated: a game that ends
updates both accounts' ratings while the others are played.

With ``--processes N`` (PostgreSQL only) N ``kradan serve`` processes share the database, each
with ``--internal-url`` (docs/scaling.md). The games are created on the processes in turn (a
game is served by the process that made it), and the seats' websockets go to the processes in
turn as a proxy without sticky sessions would send them: a socket that reaches a process that
does not serve its game is relayed to the one that does. ``--sticky`` sends each seat to its
game's process instead (a proxy that routes by game). The server CPU is that of all of them.

``--crash`` kills the server with SIGKILL soon after half the moves are acknowledged (at a random
moment of the next quarter second), starts it again
on the same database, checks that every acknowledged move is stored (the database may hold one
more per game, committed but not yet acknowledged), and plays one more move in every game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from _table import print_table

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchmarks/ as a package, as the tests import it

from benchmarks.loopback import call, free_port  # noqa: E402
from benchmarks.postgres_cluster import Cluster, find_bindir  # noqa: E402

# --- the server --------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` and its reaped children, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:13]) / os.sysconf("SC_CLK_TCK")


class Server:
    """``kradan serve`` on ``db``, a subprocess; its output goes to ``log``."""

    def __init__(self, db: str, log: Path, several: bool = False) -> None:
        self.db = db
        self.log = log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.cpu_at_kill = 0.0
        #: one of several processes on the database (``--internal-url``)
        self.several = several

    def command(self) -> list[str]:
        command = [sys.executable, "-m", "kradan", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--db", self.db, "--create-rate", "off"]  # fmt: skip
        if self.several:
            command += ["--internal-url", self.base]
        return command

    def start(self) -> Server:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command(),
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"kradan serve exited:\n{self.log.read_text()[-3000:]}")
            try:
                call(f"{self.base}/api/games?limit=1")
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise SystemExit("kradan serve did not start in 120 s") from None
                time.sleep(0.1)
        self.settle()
        return self

    def settle(self, quiet: float = 0.05, longest: float = 60.0) -> None:
        """Wait until the server and the engine's worker it warms at start-up are idle."""
        assert self.process is not None
        deadline = time.monotonic() + longest
        while time.monotonic() < deadline:
            pids = [self.process.pid, *children(self.process.pid)]
            before = sum(cpu_seconds(pid) for pid in pids)
            time.sleep(0.5)
            if sum(cpu_seconds(pid) for pid in pids) - before < quiet * 0.5:
                return

    def cpu(self) -> float:
        """The server's CPU time so far (until it was killed)."""
        if self.process is None or self.process.poll() is not None:
            return self.cpu_at_kill
        return cpu_seconds(self.process.pid)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.cpu_at_kill = cpu_seconds(self.process.pid)
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


@contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """A new database of ``kind``: an SQLite file, or a PostgreSQL cluster of its own."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / 'games.db'}"
        return
    bindir, why = find_bindir()
    if bindir is None:
        raise SystemExit(why)
    with Cluster(bindir, durable=True) as cluster:
        yield cluster.new_database()


# --- the players -------------------------------------------------------------------------------


@dataclass
class Played:
    """One game as the players saw it."""

    id: str
    tokens: dict[str, str]
    acknowledged: list[str] = field(default_factory=list)
    done: bool = False
    #: the process it was created on (with several)
    home: str = ""


@dataclass
class Load:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    seats: int = 0  # seats whose socket is open (or failed to open)
    all_open: asyncio.Event = field(default_factory=asyncio.Event)

    def seat_ready(self, total: int) -> None:
        """One more seat is connected; the play starts once all ``total`` are."""
        self.seats += 1
        if self.seats >= total:
            self.all_open.set()


async def seat(
    base: str, played: Played, color: str, plies: int, load: Load, rng: random.Random,
    crashing: asyncio.Event, think: float = 0.0, seats: int = 1,
) -> None:  # fmt: skip
    """One seat of one game: waits until all ``seats`` are connected, then plays a random
    legal move whenever it is its turn."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    url = base.replace("http://", "ws://") + f"/api/games/{played.id}/socket"
    sent_at: float | None = None
    sent_ply = -1
    opened = False

    async def answer(socket: Any, text: str | bytes) -> bool:
        """Handle one message from the server; False once this seat is done."""
        nonlocal sent_at, sent_ply
        message = json.loads(text)
        if message.get("type") != "game":  # a refused move: this game stops
            load.errors.append(f"{played.id} {color}: {message}")
            return False
        state = message["game"]
        ply = state["ply"]
        if len(state["moves"]) > len(played.acknowledged):
            played.acknowledged = state["moves"]
        if sent_at is not None and ply > sent_ply:
            load.latencies.append(time.perf_counter() - sent_at)
            load.moves += 1
            sent_at = None
        if state["status"] != "playing" or ply >= plies:
            played.done = True
            return False
        if state["turn"] == color and sent_at is None and ply != sent_ply:
            move = rng.choice(state["legal_moves"])
            if think:  # a player who thinks (not counted in the latency)
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sent_at, sent_ply = time.perf_counter(), ply
            await socket.send(json.dumps({"type": "move", "move": move}))
        return True

    try:
        async with connect(url, max_size=2**22, compression=None) as socket:
            await socket.send(json.dumps({"type": "auth", "token": played.tokens[color]}))
            first = await socket.recv()  # the game as it stands
            opened = True
            load.seat_ready(seats)
            await load.all_open.wait()
            if not await answer(socket, first):
                return
            async for text in socket:
                if not await answer(socket, text):
                    return
    except (ConnectionClosed, OSError) as error:
        if not crashing.is_set():
            load.errors.append(f"{played.id} {color}: {error!r}")
    finally:
        if not opened:
            load.seat_ready(seats)


async def create_games(bases: list[str], count: int) -> list[Played]:
    """``count`` games, created on the processes of ``bases`` in turn."""

    def one(n: int) -> Played:
        base = bases[n % len(bases)]
        created = call(f"{base}/api/games", {"opponent": "human"})
        return Played(
            created["id"], {"white": created["token"], "black": created["invite"]}, home=base
        )

    loop = asyncio.get_running_loop()
    return list(await asyncio.gather(*(loop.run_in_executor(None, one, n) for n in range(count))))


class Member:
    """One account of the club, signed in: its session cookie goes with each call."""

    def __init__(self, base: str, username: str) -> None:
        import http.cookiejar

        self.base = base
        self.username = username
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
        """As :func:`call`, with this member's cookies."""
        data = None if body is None else json.dumps(body).encode()
        method = "GET" if body is None else "POST"
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if token:
            request.add_header("authorization", f"Bearer {token}")
        with self.opener.open(request, timeout=60) as response:
            return json.loads(response.read())


def timed(latencies: list[float], work: Any, *args: Any) -> Any:
    started = time.perf_counter()
    answer = work(*args)
    latencies.append(time.perf_counter() - started)
    return answer


def sign_up_pair(base: str, n: int, steps: dict[str, list[float]]) -> tuple[Member, Member]:
    """Game ``n``'s two members, signed up (Argon2 hashing included)."""
    seeker, taker = Member(base, f"seeker{n}"), Member(base, f"taker{n}")
    password = {"password": f"load-{n}-password"}
    timed(steps["sign up"], seeker.call, "/api/accounts", {"username": seeker.username, **password})
    timed(steps["sign up"], taker.call, "/api/accounts", {"username": taker.username, **password})
    return seeker, taker


def pair_in_lobby(pair: tuple[Member, Member], steps: dict[str, list[float]]) -> Played:
    """One game made through the lobby: one member seeks, the other takes the seek."""
    seeker, taker = pair
    seek = timed(steps["post a seek"], seeker.call, "/api/seeks",
                 {"variant": "makruk", "clock": "600+5", "rated": True})  # fmt: skip
    taken = timed(steps["take it"], taker.call, f"/api/seeks/{seek['id']}/accept", {})
    path = f"/api/seeks/{seek['id']}"
    state = timed(steps["seek's game"], seeker.call, path, None, seek["token"])
    if state["status"] != "accepted" or state["game"] != taken["game"]:
        raise SystemExit(f"seek {seek['id']}: {state} after it was taken: {taken}")
    return Played(taken["game"], {taken["color"]: taken["token"], state["color"]: state["token"]})


async def create_in_lobby(base: str, count: int) -> tuple[list[Played], dict[str, list[float]]]:
    """``count`` rated games paired through seeks; each step's latency. Every member signs up
    first, then the games are paired: a game waits for its first move no longer than the
    server allows (it aborts a game between people whose first moves do not come)."""
    steps: dict[str, list[float]] = {
        "sign up": [], "post a seek": [], "take it": [], "seek's game": []
    }  # fmt: skip
    loop = asyncio.get_running_loop()
    pairs = await asyncio.gather(
        *(loop.run_in_executor(None, sign_up_pair, base, n, steps) for n in range(count))
    )
    made = await asyncio.gather(
        *(loop.run_in_executor(None, pair_in_lobby, pair, steps) for pair in pairs)
    )
    return list(made), steps


async def play_all(
    bases: list[str], games: list[Played], plies: int, seed: int, kill_at: int | None,
    server: Server, think: float = 0.0, stall: float = 20, sticky: bool = False,
) -> tuple[Load, float]:  # fmt: skip
    """Every game at once; with ``kill_at``, SIGKILL the server once that many moves are
    acknowledged. Returns the load and the seconds it took. The seats' websockets go to the
    processes of ``bases`` in turn (``sticky``: to the process their game was created on)."""
    load = Load()
    crashing = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    seats = 2 * len(games)
    for n, played in enumerate(games):
        for color in ("white", "black"):
            rng = random.Random(f"{seed}/{n}/{color}")
            base = played.home if sticky else bases[len(tasks) % len(bases)]
            work = seat(base, played, color, plies, load, rng, crashing, think, seats)
            tasks.append(asyncio.create_task(work))
    # every socket is open before the first move: the opening handshakes are not timed
    await load.all_open.wait()
    start = time.perf_counter()
    if kill_at is not None:
        while load.moves < kill_at and not all(task.done() for task in tasks):
            await asyncio.sleep(0.005)
        # then at a random moment: the games move in waves (one commit for many games), and
        # the kill should not always fall between two of them
        await asyncio.sleep(random.Random(seed).uniform(0, 0.25))
        crashing.set()
        server.kill()
    # a game whose other seat stopped, or a stalled server: no move for ``stall`` seconds
    moves, last = load.moves, time.perf_counter()
    late = [task for task in tasks if not task.done()]
    while late and time.perf_counter() - last < stall:
        await asyncio.wait(late, timeout=0.5)
        late = [task for task in late if not task.done()]
        if load.moves != moves:
            moves, last = load.moves, time.perf_counter()
    for task in late:
        task.cancel()
        load.errors.append(f"a seat still waiting, no move acknowledged for {stall} s")
    return load, time.perf_counter() - start - (stall if late else 0.0)


# --- checks ------------------------------------------------------------------------------------


async def stored_moves(db: str, games: list[Played]) -> dict[str, list[str]]:
    """Each game's moves as the database holds them."""
    from kradan.web.storage import Store, make_engine

    engine = make_engine(db)
    try:
        store = Store(engine)
        found = {}
        for played in games:
            stored = await store.load(played.id)
            found[played.id] = [] if stored is None else [move.uci for move in stored.moves]
        return found
    finally:
        await engine.dispose()


def lost_moves(games: list[Played], stored: dict[str, list[str]], slack: int) -> tuple[int, int]:
    """Acknowledged moves missing from (or contradicted by) the database, and games whose
    stored moves go more than ``slack`` beyond what was acknowledged."""
    lost = beyond = 0
    for played in games:
        on_disk = stored[played.id]
        acked = played.acknowledged
        same = 0
        while same < min(len(acked), len(on_disk)) and acked[same] == on_disk[same]:
            same += 1
        lost += len(acked) - same
        if len(on_disk) > len(acked) + slack:
            beyond += 1
    return lost, beyond


def go_on(base: str, games: list[Played]) -> tuple[int, list[str]]:
    """One more move in every game still being played; how many were accepted, and errors."""
    accepted, errors = 0, []
    for played in games:
        try:
            state = call(f"{base}/api/games/{played.id}")
            if state["status"] != "playing":
                accepted += 1  # an ended game has nothing to go on with
                continue
            move = state["legal_moves"][0]
            after = call(
                f"{base}/api/games/{played.id}/moves", {"move": move}, played.tokens[state["turn"]]
            )
            if after["ply"] == state["ply"] + 1:
                accepted += 1
            else:
                errors.append(f"{played.id}: ply {after['ply']} after {state['ply']}")
        except (urllib.error.URLError, KeyError, IndexError) as error:
            errors.append(f"{played.id}: {error!r}")
    return accepted, errors


# --- a run -------------------------------------------------------------------------------------


def run_fast(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` on uvloop when it is installed (as ``kradan serve`` does), so that the load
    generator spends as little of the shared CPU as it can; on asyncio's loop otherwise."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    if os.environ.get("XCLIENT") == "asyncio":
        return asyncio.run(work)
    return uvloop.run(work)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(kind: str, args: argparse.Namespace, folder: Path, notes: list[str]) -> list[list[str]]:
    with database(kind, folder) as db:
        several = args.processes > 1
        servers = [
            Server(db, folder / f"server-{kind}-{n}.log", several).start()
            for n in range(args.processes)
        ]
        server = servers[0]
        bases = [each.base for each in servers]
        try:
            if args.lobby:
                games, steps = asyncio.run(create_in_lobby(server.base, args.games))
                for step, took in steps.items():
                    notes.append(
                        f"{kind}: {step}: {len(took)} calls, "
                        f"p50 {percentile(took, 0.5) * 1000:.0f} ms, "
                        f"p99 {percentile(took, 0.99) * 1000:.0f} ms"
                    )
            else:
                games = asyncio.run(create_games(bases, args.games))
            cpu_before = sum(each.cpu() for each in servers)
            client_before = time.process_time()
            kill_at = args.games * args.plies // 2 if args.crash else None
            load, seconds = run_fast(
                play_all(
                    bases,
                    games,
                    args.plies,
                    args.seed,
                    kill_at,
                    server,
                    args.think / 1000,
                    sticky=args.sticky,
                )
            )
            server_cpu = sum(each.cpu() for each in servers) - cpu_before
            client_cpu = time.process_time() - client_before
            if args.crash:
                server.start()  # the same database, a new server
            else:
                for each in servers:
                    each.stop()
            stored = asyncio.run(stored_moves(db, games))
            lost, beyond = lost_moves(games, stored, slack=1 if args.crash else 0)
            acknowledged = sum(len(played.acknowledged) for played in games)
            row = [
                kind if not several else f"{kind} x{args.processes}",
                str(args.games),
                str(load.moves),
                f"{seconds:.2f}",
                f"{load.moves / seconds:.0f}",
                f"{percentile(load.latencies, 0.50) * 1000:.1f}",
                f"{percentile(load.latencies, 0.99) * 1000:.1f}",
                str(len(load.errors)),
                str(lost),
            ]
            mean = statistics.fmean(load.latencies) * 1000 if load.latencies else 0.0
            notes.append(
                f"{kind}: server CPU {server_cpu:.1f} s, load generator CPU {client_cpu:.1f} s, "
                f"mean latency {mean:.1f} ms"
            )
            notes += [f"  error: {error}" for error in load.errors[:5]]
            if args.crash:
                accepted, errors = go_on(server.base, games)
                notes += [f"  could not go on: {error}" for error in errors[:5]]
                row += [
                    str(acknowledged),
                    str(sum(len(moves) for moves in stored.values())),
                    str(beyond),
                    f"{accepted}/{len(games)}",
                ]
            return [row]
        finally:
            for each in servers:
                each.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games played at once (200)")
    parser.add_argument("--plies", type=int, default=40, help="plies per game at most (40)")
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--crash", action="store_true", help="SIGKILL the server under load")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--lobby", action="store_true", help="accounts pair through rated seeks (see above)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0,
        metavar="MS",
        help="each move waits 0.5-1.5 times MS before it is sent (0: as fast as acknowledged)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="N kradan serve processes on one PostgreSQL (1); the sockets go to them in turn",
    )
    parser.add_argument(
        "--sticky", action="store_true", help="with --processes: each seat to its game's process"
    )
    args = parser.parse_args()
    if not 1 <= args.processes <= 16:
        parser.error(f"--processes {args.processes}: expected 1..16")
    if args.processes > 1 and (args.crash or args.lobby or args.db == "sqlite"):
        parser.error("--processes runs on PostgreSQL, without --crash or --lobby")
    if args.processes > 1:
        args.db = "postgresql"
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    if args.db == "both" and find_bindir()[0] is None:
        print(f"PostgreSQL skipped: {find_bindir()[1]}", file=sys.stderr)
        kinds = ["sqlite"]
    header = [
        "database",
        "games",
        "moves",
        "seconds",
        "moves/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "lost",
    ]
    if args.crash:
        header += ["acknowledged", "stored", "stored > acked+1", "went on"]
    rows: list[list[str]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="kradan-load-") as folder:
        for kind in kinds:
            rows += run(kind, args, Path(folder), notes)
    title = f"kradan serve under load: {args.games} games, {args.plies} plies, websocket, loopback"
    if args.think:
        title += f", {args.think:g} ms thinking per move"
    if args.lobby:
        title += ", rated games paired in the lobby"
    if args.crash:
        title += ", SIGKILL at half the moves, then a restart"
    if args.processes > 1:
        routed = "each seat to its game's process" if args.sticky else "sockets in turn"
        title += f", {args.processes} processes ({routed})"
    print_table(title, header, rows)
    print()
    print("\n".join(notes))


if __name__ == "__main__":
    main()
