"""What a room knows of its game, and the one way to change it: stored first, then applied.

:class:`RoomBase` holds the game's row, its board (made by the registry), the moves as written
(UCI, SAN, Thai SAN, the position after each ply, the clocks stored with each), the seats, the
clock, the standing draw offer and the room's lock. Each concern of the room (:mod:`.moves`,
:mod:`.counts`, :mod:`.draws`, :mod:`.takeback`, :mod:`.clock`, :mod:`.setup`,
:mod:`.engine_turn`) is a small object over it, called under the lock; each stores its change
(:meth:`RoomBase.store_event`, or one of the store's other writes) before it touches these
fields, and :class:`~kradan.web.room.room.Room` announces the change after.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import time
from collections.abc import Awaitable
from typing import Any, Protocol

from ...games import CheckBoard, CountingBoard, GameBoard, SetupBoard, find_game, new_board
from ..engine_pool import EnginePool
from ..i18n import N_
from ..model import COLORS, SIDES, Clock, GameError, Player, token_hash
from ..storage import Store
from ..tables import Ending, EventRow, GameRow, utcnow
from .dead_rules import DeadGameRules

#: a square or point in a UCI move (``e3e4,e1e3``, ``R@a1``, ``hc3,b2c3``, ``b3d3d5``)
SQUARE = re.compile(r"[a-p](?:1[0-6]|[1-9])")


def touched_squares(uci: str) -> list[str]:
    """The squares the move written ``uci`` touches, in order (for the last-move highlight)."""
    return SQUARE.findall(uci)


class RoomHost(Protocol):
    """What a room needs of the server around it (:class:`kradan.web.hall.Hall`)."""

    store: Store
    pool: EnginePool
    #: the waits of games nobody plays (:mod:`.abandon`)
    dead_games: DeadGameRules

    def now(self) -> float:
        """The time now in seconds (:func:`time.time`; a test's own clock)."""
        ...

    def spawn(self, room: RoomBase, work: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``work`` for ``room`` in the background."""
        ...

    async def broadcast(self, room: RoomBase, text: str) -> None:
        """Send ``text`` (a message as JSON) to ``room``'s subscribers."""
        ...

    def finished(self, room: RoomBase) -> None:
        """``room``'s game has ended (and its end is stored): add it to the archive."""
        ...


def screened_start(board: GameBoard) -> bool:
    """Whether ``board`` starts a screened setup: both sides hold their camps in hand, to be
    handed in whole (Sittuyin)."""
    return (
        isinstance(board, SetupBoard)
        and board.screened_setup
        and bool(board.hand(True))
        and bool(board.hand(False))
    )


class RoomBase:
    """One game in memory: its state, and the steps every change shares."""

    def __init__(self, host: RoomHost, row: GameRow, board: GameBoard) -> None:
        self.host = host
        self.row = row
        self.game = find_game(row.variant)
        self.board = board
        #: the board's capabilities, asked once (a protocol check is too slow to repeat per move)
        self.counting: CountingBoard | None = board if isinstance(board, CountingBoard) else None
        self.checking: CheckBoard | None = board if isinstance(board, CheckBoard) else None
        self.ucis: list[str] = []
        self.sans: list[str] = []
        #: Thai SAN beside SAN, for the games that write it (the chess games)
        self.thai: list[str] | None = [] if "thai" in self.game.notations else None
        #: the position (FEN) at the start and after each ply, so that the browser replays nothing
        self.positions: list[str] = [board.fen(show_promoted=True)]
        #: the squares each ply touched (:func:`touched_squares`)
        self.move_squares: list[list[str]] = []
        #: the clocks stored with each move
        self.move_clocks: list[tuple[int | None, int | None]] = []
        self.players = {
            True: Player.from_json(row.players.get("white")),
            False: Player.from_json(row.players.get("black")),
        }
        self.tokens = {True: row.white_token, False: row.black_token}
        self.clock: Clock | None = None
        if row.clock:
            self.clock = Clock(int(row.clock["base_ms"]), int(row.clock["increment_ms"]))
        self.draw_offer: bool | None = None
        #: a rematch offered or agreed once the game has ended (:mod:`kradan.web.rematch`)
        self.rematch: Any = None
        #: the next event's number
        self.seq = 0
        #: bumped whenever the position changes, so that stale engine answers are dropped
        self.version = 0
        #: the number of the latest state told to the subscribers (:meth:`next_revision`)
        self.revision = time.time_ns() // 1000
        #: whether a screened setup is still going on, and how many plies of drops it became
        self.in_setup = screened_start(board)
        self.setup_plies = 0
        #: the seats taken by their invitation link since the room was loaded
        self.seen: set[bool] = set()
        self.lock = asyncio.Lock()
        self.send_lock = asyncio.Lock()
        self.subscribers: set[Any] = set()

    # --- reading ------------------------------------------------------------------------------

    @property
    def public_id(self) -> str:
        return self.row.public_id

    @property
    def playing(self) -> bool:
        return self.row.status == "playing"

    def is_engine(self, color: bool) -> bool:
        return self.players[color].kind == "engine"

    def first_mover(self) -> bool:
        """The side to move at the game's start."""
        board = new_board(self.row.variant, self.row.start_fen, **self.row.options)
        return bool(board.turn)

    def seat_of(self, token: str | None) -> bool:
        """The side whose seat ``token`` proves.

        :raises GameError: 401 without a token, 403 for a token of no seat of this game.
        """
        if not token:
            raise GameError(
                401, N_("no seat: game {game} needs a seat token"), game=repr(self.public_id)
            )
        digest = token_hash(token)
        for color in (True, False):
            stored = self.tokens[color]
            if stored is not None and hmac.compare_digest(digest, stored):
                return color
        raise GameError(
            403, N_("the token is not a seat of game {game}"), game=repr(self.public_id)
        )

    def joined(self) -> list[bool]:
        """The sides known to have a player: the engine's, a side that has moved, a seat taken
        by its invitation link since the room was loaded; both once the game is over."""
        plies = len(self.ucis)
        moved = {True, False} if plies >= 2 or not self.playing else set()
        if plies == 1:
            moved.add(not self.board.turn)
        return [c for c in (True, False) if self.is_engine(c) or c in self.seen or c in moved]

    # --- the steps every change shares ----------------------------------------------------------

    def over(self) -> GameError:
        """The error of a change asked for after the game ended."""
        return GameError(
            409,
            N_("game {game} is over ({result})"),
            game=repr(self.public_id),
            result=self.row.result,
        )

    def check_turn(self, color: bool) -> None:
        """:raises GameError: 409 when the game is over or it is not ``color``'s turn."""
        if not self.playing:
            raise self.over()
        if bool(self.board.turn) != color:
            raise GameError(
                409,
                N_("not {color}'s turn: {mover} is to move"),
                color=SIDES[color],
                mover=SIDES[bool(self.board.turn)],
            )

    def event(self, kind: str, color: bool, payload: dict[str, Any] | None = None) -> EventRow:
        """The next event of the game: ``kind``, done by ``color``."""
        return EventRow(
            game_id=self.row.id,
            seq=self.seq,
            kind=kind,
            side=COLORS[color],
            ply=len(self.ucis),
            payload=payload or {},
            created_at=utcnow(),
        )

    async def store_event(self, row: EventRow, ending: Ending | None = None) -> None:
        """Store ``row`` (and the game's end, if it ends it); once it is stored, the game ends."""
        await self.host.store.add_event(self.row.id, row, ending)
        self.seq += 1
        if ending is not None:
            self.end(ending)

    def next_revision(self) -> None:
        """Number the state about to be told: it grows with every announcement and stays
        above the numbers of an earlier process (microseconds of the wall clock), so that a
        page drops a view that reaches it after a newer one (an HTTP answer overtaken by the
        socket)."""
        self.revision = max(self.revision + 1, time.time_ns() // 1000)

    def end(self, ending: Ending) -> None:
        """End the game (stored already): the result, no offer, the clocks stopped."""
        self.row.status = "ended"
        self.row.result = ending.result
        self.row.termination = ending.termination
        self.draw_offer = None
        if self.clock is not None:
            now = time.monotonic()
            self.clock.ms = {color: self.clock.left(color, now) for color in (True, False)}
            self.clock.running = None
        self.host.finished(self)

    async def resign(self, color: bool) -> None:
        """``color`` resigns."""
        ending = Ending("0-1" if color else "1-0", "resignation")
        await self.store_event(self.event("resign", color), ending)
        self.board.resign(color)


__all__ = ["RoomBase", "RoomHost", "screened_start"]
