"""A :class:`Room`: one game in memory, with its board (made by the game registry), its seats,
its clock and its websocket subscribers.

Every change (a move, an action, a screened setup, a flag fall, the engine's turn) runs under
the room's lock: it is checked (seat, turn, legality), committed to the database in one
transaction, and only then applied to the room and announced. Each concern is a small object of
its own (:mod:`.moves`, :mod:`.counts`, :mod:`.draws`, :mod:`.takeback`, :mod:`.clock`,
:mod:`.setup`, :mod:`.engine_turn`, :mod:`.abandon` with :mod:`.presence`); the room keeps the
lock, hands each change to its concern, and announces the result (:mod:`.view`). It reaches
the database, the engine and its subscribers through its host
(:class:`~kradan.web.room.base.RoomHost`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ...games import GameBoard
from ..i18n import N_
from ..model import ACTIONS, GameError
from ..tables import GameRow
from .abandon import Abandonment
from .base import RoomBase, RoomHost
from .clock import Timekeeper
from .counts import Counts
from .draws import Drawer
from .engine_turn import EngineTurn
from .moves import Mover
from .pgn import pgn_text
from .presence import Presence
from .setup import ScreenedSetup
from .takeback import Takebacker
from .view import GameView, game_message, game_view


class Room(RoomBase):
    """One game in memory: the lock, and each change handed to its concern."""

    def __init__(self, host: RoomHost, row: GameRow, board: GameBoard) -> None:
        super().__init__(host, row, board)
        self.timekeeper = Timekeeper(self)
        self.mover = Mover(self, self.timekeeper)
        self.counts = Counts(self)
        self.draws = Drawer(self)
        self.takebacks = Takebacker(self, self.timekeeper)
        self.screened = ScreenedSetup(self, self.timekeeper)
        self.engine_turn = EngineTurn(
            self,
            self.locked,
            clock=self.timekeeper,
            mover=self.mover,
            counts=self.counts,
            draws=self.draws,
            setup=self.screened,
        )
        self.presence = Presence(lambda: host.now())
        self.abandonment = Abandonment(self, self.presence, host.dead_games)
        self.flag_task: asyncio.Task[Any] | None = None
        #: the timer of the server's abort of a game whose first moves do not come
        self.abort_task: asyncio.Task[Any] | None = None
        self.abort_deadline: float | None = None
        #: what each action of the API does (each checked and stored by its concern)
        self.actions: dict[str, Callable[[bool], Awaitable[None]]] = {
            "resign": self.resign,
            "offer_draw": self.draws.offer,
            "accept_draw": self.draws.accept,
            "decline_draw": self.draws.decline,
            "claim_draw": self.draws.claim,
            "takeback": self.takebacks.take_back,
            "declare_count": self.counts.declare,
            "stop_count": self.counts.stop,
            "abort": self.abandonment.abort,
            "claim_win": self.abandonment.claim,
        }

    # --- reading ----------------------------------------------------------------------------

    def view(self, seat: bool | None = None) -> GameView:
        """The game as ``GET /api/games/{id}`` shows it to the holder of ``seat`` (``None``:
        anyone)."""
        return game_view(
            self,
            self.counts,
            self.screened.handed_in(),
            self.abandonment,
            seat=seat,
            my_setup=self.screened.own(seat),
        )

    def own_setup(self, color: bool | None) -> dict[str, str] | None:
        """The arrangement ``color``'s seat handed in, while the screened setup goes on."""
        return self.screened.own(color)

    def read_move(self, text: str) -> tuple[str, str]:
        """The legal move ``text`` (UCI, SAN or Thai SAN) writes now: its UCI and SAN.

        :raises GameError: 409 when the game is over or a screened setup goes on, 422 for text
            that is no legal move here.
        """
        if not self.playing:
            raise self.over()
        if self.in_setup:
            raise GameError(
                409, N_("the screened setup is not over: each side hands in its arrangement")
            )
        return self.mover.read(text)

    def pgn(self) -> str:
        """The game as PGN (see :mod:`.pgn`)."""
        return pgn_text(self)

    # --- changes ------------------------------------------------------------------------------

    async def take_seat(self, token: str | None) -> bool:
        """The side whose seat ``token`` proves (:meth:`seat_of`), for the invitation link: the
        first time a seat is taken so, the subscribers are told (the invitation was taken up).
        """
        color = self.seat_of(token)
        self.mark_seen(color)
        if color not in self.seen:
            self.seen.add(color)
            await self.tell()
        return color

    # --- who is there -----------------------------------------------------------------------

    def mark_seen(self, color: bool) -> None:
        """A request proved ``color``'s seat: it is there now. Once both seats have been, the
        wait for the first moves runs (:mod:`.abandon`)."""
        first = self.presence.seen_at[color] is None
        self.presence.seen(color)
        if first:
            self._watch_abort()

    async def arrive(self, color: bool, socket: Any) -> None:
        """A websocket of ``color``'s seat opens (before it joins the subscribers): the other
        subscribers are told when that changes who is gone."""
        before = self.abandonment.gone()
        self.mark_seen(color)
        self.presence.arrive(color)
        await self._presence_changed(before)

    async def leave(self, color: bool) -> None:
        """A websocket of ``color``'s seat closed (and left the subscribers)."""
        before = self.abandonment.gone()
        self.presence.leave(color)
        await self._presence_changed(before)

    async def _presence_changed(self, before: Any) -> None:
        after = self.abandonment.gone()
        if (before is None) != (after is None) or (
            before is not None and after is not None and before.side != after.side
        ):
            await self.tell()

    async def refresh(self) -> None:
        """Before the game is shown: a wait for the first moves that is over aborts it."""
        if self.playing and self.abandonment.due():
            await self.locked(self.abandonment.expire)

    async def play(self, color: bool, text: str) -> GameView:
        """``color`` plays the move written ``text`` (UCI); returns the game after the commit.

        :raises GameError: 409 when the game is over, a screened setup goes on or it is not
            ``color``'s turn, 422 for an illegal move.
        """
        async with self.lock:
            await self._out_of_time()
            if self.in_setup and self.playing:
                raise GameError(
                    409, N_("the screened setup is not over: each side hands in its arrangement")
                )
            self.check_turn(color)
            await self.mover.play(color, text)
            return await self.announce()

    async def setup(self, color: bool, arrangement: Any) -> GameView:
        """Sittuyin's screened setup: ``color`` hands in its whole arrangement (squares to
        piece letters, ``{"e2": "K", ...}``, or the name of a preset). Nothing of it is shown to
        anyone until both sides have handed in; then both are played as drops. Returns the game
        after the commit.

        :raises GameError: 400 for an arrangement that is not such a mapping, 409 when the game
            has no setup going on or ``color`` has handed in already, 422 for an arrangement
            the rules refuse.
        """
        async with self.lock:
            await self._out_of_time()
            if not self.playing:
                raise self.over()
            await self.screened.hand_in(color, arrangement)
            return await self.announce()

    def apply_setup(self, color: bool, arrangement: dict[str, str]) -> None:
        """Keep an arrangement stored earlier (a game rebuilt from the store)."""
        self.screened.apply(color, arrangement)

    async def act(self, color: bool, action: str) -> GameView:
        """``color`` takes ``action`` (one of :data:`ACTIONS`); returns the game after the
        commit.

        :raises GameError: 409 when the action is not possible now, 422 for an unknown one.
        """
        change = self.actions.get(action)
        if change is None:
            raise GameError(
                422,
                N_("unknown action {action}; actions: {actions}"),
                action=repr(action),
                actions=", ".join(ACTIONS),
            )
        async with self.lock:
            await self._out_of_time()
            if not self.playing:
                raise self.over()
            await change(color)
            if action == "offer_draw" and self.draw_offer is color and self.is_engine(not color):
                self.engine_turn.answer_draw(not color)  # a new offer to the engine
            return await self.announce()

    async def _out_of_time(self) -> None:
        """Before a change: a fallen flag, or a wait for the first moves that is over, ends the
        game, is announced, and refuses the change."""
        if await self.timekeeper.flagged() or await self.abandonment.expire():
            await self.announce()
            raise self.timekeeper.out_of_time()

    # --- after a change -----------------------------------------------------------------------

    async def locked(self, change: Callable[[], Awaitable[bool]]) -> None:
        """Run ``change`` under the lock (a change that is not a request: the engine's turn, a
        flag's fall); announce the game when it changed it."""
        async with self.lock:
            if await change():
                await self.announce()

    async def announce(self) -> GameView:
        """Start what the new position needs (the engine, the flag timer), tell every
        subscriber, and return the game."""
        self.schedule()
        return await self.tell()

    async def tell(self) -> GameView:
        """Tell every subscriber the game, under a new revision, and return it."""
        self.next_revision()
        view = self.view()
        await self.host.broadcast(self, game_message(view))
        return view

    def schedule(self) -> None:
        """Start what the position needs: the engine when it is to move (or to hand in its
        setup), the flag timer when a clock runs."""
        if self.flag_task is not None and self.flag_task is not asyncio.current_task():
            self.flag_task.cancel()
        self.flag_task = None
        self.abandonment.note_change()
        self._watch_abort()
        if not self.playing:
            return
        self.engine_turn.start()
        if not self.in_setup:
            self.flag_task = self.timekeeper.watch(self.locked)

    def _watch_abort(self) -> None:
        """Start the timer of the server's abort, when the game may come to one (a timer for
        the same moment goes on)."""
        deadline = self.abandonment.deadline()
        current = self.abort_task
        if current is not None and not current.done() and deadline == self.abort_deadline:
            return
        if current is not None and current is not asyncio.current_task():
            current.cancel()
        self.abort_task, self.abort_deadline = None, deadline
        if deadline is not None:
            self.abort_task = self.host.spawn(self, self._abort_timer(deadline))

    async def _abort_timer(self, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.host.now()))
        await self.locked(self.abandonment.expire)
        if self.playing and self.abort_task is asyncio.current_task():
            self.abort_deadline = None
            self._watch_abort()  # woken early (the clock moved back): wait again

    def release(self) -> None:
        """The hall forgets this room: its timers stop (it is loaded again when asked for)."""
        for task in (self.abort_task, self.flag_task):
            if task is not None:
                task.cancel()
        self.abort_task = self.flag_task = None

    def restore_clock(self) -> None:
        """The clocks as of the last stored move (a game rebuilt from the store)."""
        self.timekeeper.restore()

    def run_clock(self) -> None:
        """Set which clock runs: the side to move's, once both sides have moved."""
        self.timekeeper.run()


__all__ = ["Room"]
