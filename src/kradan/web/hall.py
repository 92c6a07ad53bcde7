"""The hall of ``kradan serve``: the games in memory, persisted per move. :class:`Hall` holds a
:class:`~kradan.web.room.Room` per game, loads games from the store on first use (rebuilt by
:func:`~kradan.web.room.rebuild`), and answers for them to the API.

When the server starts, every game still being played is rebuilt from its stored moves and
events, and its clock resumes where the last acknowledged move left it: the side to move gets
back the time it had then.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import KradanError
from ..games import SetupBoard, StatusBoard, find_game
from .accounts import Accounts
from .archive import ArchiveStore
from .engine_pool import EnginePool
from .i18n import N_
from .model import (
    GameError,
    NewGame,
    Player,
    changed_options,
    new_public_id,
    new_token,
    parse_clock,
    token_hash,
)
from .owners import Elsewhere, Owners
from .room import Room, RoomBase, rebuild
from .room.abandon import ABORTED
from .room.dead_rules import DeadGameRules
from .room.pgn import pgn_text
from .storage import Store
from .tables import GameRow, utcnow
from .watch import Spectators

#: how long a broadcast waits for a subscriber whose connection does not take its message
SEND_SECONDS = 5.0
#: with several processes: how often each looks for games no process serves (their process
#: was stopped or killed) and takes them over
SWEEP_SECONDS = 1.0

log = logging.getLogger("kradan.web")


@dataclass(frozen=True)
class Created:
    room: Room
    token: str
    color: str
    invite: str | None
    #: what is odd about the start position (it is played all the same, as Fairy-Stockfish
    #: would): the side not to move in check, counting fields no rule produces, ...
    warnings: list[str] = field(default_factory=list)


def idle(room: RoomBase) -> bool:
    """Whether forgetting ``room`` loses nothing: nobody watches it, no move is being made, and
    nothing runs for it: the game has ended, or a person is to move on no running clock (not
    the engine, not a flag timer, not a screened setup, not the short wait for a first move;
    the long wait of an unstarted game is counted from the stored time, and runs again when
    the game is loaded)."""
    if room.subscribers or room.lock.locked():
        return False
    if not room.playing:
        return True
    clock_runs = room.clock is not None and room.clock.running is not None
    if isinstance(room, Room) and room.abandonment.first_move_deadline() is not None:
        return False
    return not (clock_runs or room.in_setup or room.is_engine(bool(room.board.turn)))


class Hall:
    """The games in memory, loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        pool: EnginePool,
        archive: ArchiveStore | None = None,
        dead_games: DeadGameRules | None = None,
    ) -> None:
        self.store = store
        self.pool = pool
        #: the waits of games nobody plays (:mod:`kradan.web.room.abandon`)
        self.dead_games = dead_games or DeadGameRules()
        #: the clock of those waits and of the players' presence (a test sets its own)
        self.now: Callable[[], float] = time.time
        #: where the games that end go (:meth:`finished`); ``None``: nowhere
        self.archive = archive
        #: the accounts whose ratings rated games move (:meth:`finished`); ``None``: no ratings
        self.accounts: Accounts | None = None
        #: called with each game that ends, aborted ones included (the tournament director's)
        self.ended_hooks: list[Callable[[RoomBase], None]] = []
        self.rooms: dict[str, Room] = {}
        #: how many games are kept in memory before idle ones are forgotten
        self.kept = 1000
        self.loading = asyncio.Lock()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False
        #: with several processes on one PostgreSQL: the locks of the games this process
        #: serves (:mod:`.owners`); ``None``: this process is the only one
        self.owners: Owners | None = None
        #: with several processes: the spectators here of games served elsewhere, and the
        #: news of this process's games for the others (:mod:`.watch`)
        self.spectators: Spectators | None = None

    def spawn(self, room: RoomBase, work: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``work`` for ``room`` in the background, keeping a reference until it ends."""
        return self.spawn_task(f"game {room.public_id}", work)

    def spawn_task(self, what: str, work: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``work`` in the background; its failure is logged as ``what`` failing."""

        async def guarded() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s: background work failed", what)

        def done(task: asyncio.Task[Any]) -> None:
            self.tasks.discard(task)
            if inspect.iscoroutine(work):
                work.close()  # cancelled before it began: never awaited, and no warning

        task = asyncio.get_running_loop().create_task(guarded())
        self.tasks.add(task)
        task.add_done_callback(done)
        return task

    async def create(self, spec: NewGame) -> Created:
        """A new game as ``spec`` asks; stored before it is returned.

        :raises GameError: 400 for an unknown game, a bad option, position or clock.
        """
        try:
            game = find_game(spec.variant)
            board = game.new_board(spec.fen, **(spec.options or {}))
        except (KradanError, ValueError, TypeError) as error:
            raise GameError(400, str(error)) from None
        if spec.opponent == "engine" and game.searcher is None:
            raise GameError(400, N_("kradan's engine does not play {game}"), game=repr(game.name))
        if (
            isinstance(board, SetupBoard)
            and board.screened_setup
            and bool(board.hand(True)) != bool(board.hand(False))
        ):
            raise GameError(
                400, N_("a screened setup needs both sides' camps in hand, or neither's")
            )
        clock = None if spec.clock is None else parse_clock(spec.clock)
        color = spec.color if spec.color != "random" else secrets.choice(["white", "black"])
        mine = color == "white"
        token, other = new_token(), new_token()
        opponent = spec.them if spec.opponent == "human" else Player("engine", spec.level)
        seats = {mine: (spec.me, token_hash(token)), (not mine): (opponent, None)}
        if spec.opponent == "human":
            seats[not mine] = (opponent, token_hash(other))
        accounts = {mine: spec.my_account_id, (not mine): spec.their_account_id}
        outcome = board.outcome()
        now = utcnow()
        row = GameRow(
            public_id=new_public_id(),
            variant=game.name,
            options=changed_options(game, board),
            start_fen=board.fen(),
            white_token=seats[True][1],
            black_token=seats[False][1],
            players={"white": seats[True][0].as_json(), "black": seats[False][0].as_json()},
            clock=None if clock is None else {"base_ms": clock[0], "increment_ms": clock[1]},
            status="playing" if outcome is None else "ended",
            result="*" if outcome is None else outcome.result(),
            termination=None if outcome is None else outcome.termination.value,
            ply=0,
            created_at=now,
            updated_at=now,
            ended_at=None if outcome is None else now,
            rated=spec.rated,
            white_account_id=accounts[True],
            black_account_id=accounts[False],
            public=spec.listed,
        )
        if self.owners is not None:  # claimed before any other process can see it
            row.id = await self.owners.new_game_id()
        await self.store.create(row)
        room = Room(self, row, board)
        room.mark_seen(mine)  # the creator is there (a lobby's: both asked to play now)
        self.trim()
        self.rooms[row.public_id] = room
        room.schedule()
        invite = other if spec.opponent == "human" else None
        warnings = board.status_text() if isinstance(board, StatusBoard) else []
        return Created(room, token, color, invite, warnings)

    async def get(self, public_id: str) -> Room | None:
        """The room of game ``public_id``, loaded from the store if need be.

        :raises Elsewhere: with several processes, when another one serves the game
        """
        room = self.rooms.get(public_id)
        if room is not None:
            return room
        async with self.loading:
            room = self.rooms.get(public_id)
            if room is None:
                if self.owners is not None and not await self._claim(public_id):
                    return None
                stored = await self.store.load(public_id)
                if stored is None:
                    return None
                room = rebuild(self, stored)
                self.trim()
                self.rooms[public_id] = room
                room.schedule()
            return room

    async def _claim(self, public_id: str) -> bool:
        """Take game ``public_id`` before it is loaded (so that no other process writes to it
        once it is read); ``False`` when there is no such game.

        :raises Elsewhere: when another process serves it
        """
        assert self.owners is not None
        game_id = await self.owners.game_id(public_id)
        if game_id is None:
            return False
        if not await self.owners.claim(game_id):
            raise Elsewhere(public_id, await self.owners.owner_of(game_id))
        return True

    async def locate(self, public_id: str) -> str | None:
        """Where game ``public_id`` is served: ``None`` here (it is loaded, taken over from a
        process that has gone, or there is no such game), else the internal URL of the
        process that serves it (``""`` when that process could not be named)."""
        try:
            await self.get(public_id)
        except Elsewhere as elsewhere:
            return elsewhere.address or ""
        return None

    async def take_over(self) -> None:
        """With several processes: every :data:`SWEEP_SECONDS`, load the games being played
        that no process serves, as a restart would (engines to move think again, clocks
        run): their process was stopped or killed."""
        while not self.closed:
            await asyncio.sleep(SWEEP_SECONDS)
            await self.resume()

    async def _give_up(self, room: RoomBase) -> None:
        """Free the lock of ``room``'s game, forgotten by :meth:`trim`, unless it was loaded
        again meanwhile (both under :attr:`loading`, as :meth:`get` claims)."""
        assert self.owners is not None
        async with self.loading:
            if room.public_id not in self.rooms:
                await self.owners.release(room.row.id)

    def trim(self) -> None:
        """Forget the idle games (:func:`idle`) once more than :attr:`kept` games are in
        memory; they are loaded again from the store when asked for. Abandoned games without
        a clock would otherwise stay in memory for ever."""
        if len(self.rooms) < self.kept:
            return
        for public_id, room in list(self.rooms.items()):
            if idle(room):
                del self.rooms[public_id]
                room.release()
                if self.owners is not None:  # another process may take it now
                    self.spawn_task("giving a game up", self._give_up(room))

    async def resume(self) -> None:
        """Load every game still being played: engines to move think again, clocks run, and
        the games not started within their wait (counted from the time stored with them) are
        aborted. With several processes, only the games no process serves."""
        if self.owners is None:
            found = await self.store.playing()
        elif len(self.rooms) < self.kept:
            found = await self.owners.orphans()
        else:
            found = []  # full: what it would load, it would forget again
        for public_id in found:
            try:
                room = await self.get(public_id)
                if room is not None:
                    await room.refresh()
            except Elsewhere:
                pass  # another process took it first
            except Exception:  # a game that cannot be rebuilt must not stop the server
                log.exception("game %s could not be resumed", public_id)

    async def pgn(self, public_id: str) -> str | None:
        """Game ``public_id`` as PGN (from memory, or rebuilt without keeping it)."""
        room = self.rooms.get(public_id)
        if room is None:
            stored = await self.store.load(public_id)
            if stored is None:
                return None
            room = rebuild(self, stored)
        return room.pgn()

    def finished(self, room: RoomBase) -> None:
        """Add the game of ``room``, which has just ended, to the archive, and move its
        players' ratings if it was rated, in the background (its PGN is written once the change
        that ended it has been applied). An aborted game is neither rated nor archived; the
        :attr:`ended_hooks` hear of every game."""
        for hook in self.ended_hooks:
            hook(room)
        if room.row.termination == ABORTED:
            return
        if room.row.rated and self.accounts is not None:
            self.spawn(room, self._rate(room))
        archive = self.archive
        if archive is None:
            return

        async def add() -> None:
            report = await archive.import_text(pgn_text(room), source="live")
            for error in report.errors:
                log.warning("game %s not archived: %s", room.public_id, error.message)

        self.spawn(room, add())

    async def _rate(self, room: RoomBase) -> None:
        """Move the ratings of the rated game of ``room`` (stored with it), then tell its
        subscribers the change."""
        assert self.accounts is not None  # (the game's end is stored before the room ends it)
        changes = await self.accounts.rate(room.row.id, room.row.variant, room.row.result)
        if changes is not None and isinstance(room, Room):
            room.row.rating_changes = changes
            async with room.lock:
                await room.announce()

    async def broadcast(self, room: RoomBase, text: str) -> None:
        """Send ``text`` (the game's message, encoded once for every subscriber) to every
        subscriber of ``room``; drop the ones that fail, and the one that holds the others up
        for more than ``SEND_SECONDS``."""
        async with room.send_lock:
            await send_to_all(room.subscribers, text)
        if self.spectators is not None:
            self.spectators.changed(room.public_id, text)

    async def close(self) -> None:
        self.closed = True
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task
        await self.store.close()  # the writes under way are committed
        if self.owners is not None:
            await self.owners.close()  # then the games are given up


async def send_to_all(subscribers: set[Any], text: str, limit: float = SEND_SECONDS) -> None:
    """Send ``text`` to every socket of ``subscribers``; remove the ones that fail, and the one
    that holds the others up for more than ``limit`` seconds."""
    waiting = list(subscribers)
    while waiting:
        # one timer for all of them: a send returns at once unless that client stopped reading
        # and its buffer is full; after a failure the rest go on with a new timer
        socket = None
        try:
            async with asyncio.timeout(limit):
                while waiting:
                    socket = waiting.pop()
                    await socket.send_text(text)
        except Exception:
            subscribers.discard(socket)


__all__ = ["Created", "Hall", "idle", "send_to_all"]
