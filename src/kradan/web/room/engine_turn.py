"""The engine's turn in a room: it thinks in the engine pool (never under the room's lock), and
plays its move (a count first, in declared counting), hands in its screened setup (a preset) or
answers a draw offer under the lock, as a person's seat would. An answer that comes after the
position changed is dropped."""

from __future__ import annotations

import logging
import secrets
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from ...counting import CountAction
from ...games import replay_options
from ..engine_pool import EngineAnswer, EngineRequest
from ..model import GameError
from .base import RoomBase
from .clock import Locked, Timekeeper
from .counts import Counts
from .draws import Drawer
from .moves import Mover
from .setup import ScreenedSetup, preset_names

log = logging.getLogger("kradan.web")


class EngineTurn:
    """The engine's seats in one room."""

    def __init__(
        self,
        room: RoomBase,
        locked: Locked,
        *,
        clock: Timekeeper,
        mover: Mover,
        counts: Counts,
        draws: Drawer,
        setup: ScreenedSetup,
    ) -> None:
        self.room = room
        self.locked = locked
        self.clock = clock
        self.mover = mover
        self.counts = counts
        self.draws = draws
        self.setup = setup
        #: the position (its version) the engine was last asked to move in
        self.asked_version = -1
        #: the sides whose screened setup the engine was asked to hand in
        self.setup_asked: set[bool] = set()

    def start(self) -> None:
        """Start what the position needs of the engine: its setup, or its move."""
        room = self.room
        if not room.playing:
            return
        if room.in_setup:
            for color in (True, False):
                if room.is_engine(color) and color not in self.setup_asked:
                    self.setup_asked.add(color)
                    room.host.spawn(room, self.locked(partial(self._hand_in, color)))
            return
        if room.is_engine(bool(room.board.turn)) and self.asked_version != room.version:
            self.asked_version = room.version
            room.host.spawn(room, self._move(room.version))

    def answer_draw(self, engine: bool) -> None:
        """Let the engine on side ``engine`` answer the draw offer made to it."""
        room = self.room
        room.host.spawn(room, self._answer_draw(room.version, engine))

    def request(self, level: int, **extra: Any) -> EngineRequest:
        """What the pool needs to rebuild the game and think at ``level``."""
        room = self.room
        history = [
            entry.uci() if not isinstance(entry, CountAction) else f"count:{entry.kind}"
            for entry in room.board.move_stack
        ]
        clock = room.clock
        return EngineRequest(
            variant=room.game.name,
            # the worker replays the history move by move
            options=replay_options(room.board, room.row.options),
            start_fen=room.row.start_fen,
            history=history,
            level=level,
            white_ms=None if clock is None else clock.left(True),
            black_ms=None if clock is None else clock.left(False),
            increment_ms=0 if clock is None else clock.increment_ms,
            extra=extra,
        )

    async def _hand_in(self, color: bool) -> bool:
        """The engine's screened setup: one of the library's preset arrangements."""
        room = self.room
        if not room.playing or not room.in_setup or color in self.setup.arrangements:
            return False
        await self.setup.hand_in(color, secrets.choice(preset_names()))
        return True

    async def _move(self, version: int) -> None:
        room = self.room
        color = bool(room.board.turn)
        answer = await self._think(self.request(room.players[color].level))
        if answer is None or answer.move is None:
            return

        async def play() -> bool:
            if version != room.version or not room.playing or bool(room.board.turn) != color:
                return False
            if await self.clock.flagged():
                return True
            assert answer is not None and answer.move is not None
            try:
                if answer.count is not None:  # declared counting: the count comes first
                    await self.counts.count(color, answer.count)
                await self.mover.play(color, answer.move)
            except GameError as error:  # pragma: no cover - the engine plays legal moves
                log.error("game %s: the engine's move was refused: %s", room.public_id, error)
                return False
            return True

        await self.locked(play)

    async def _think(self, request: EngineRequest) -> EngineAnswer | None:
        """The pool's answer (the pool runs it again when its worker dies, a few times);
        ``None`` when no worker could answer."""
        try:
            return await self.room.host.pool.choose_move(request, self.room.public_id)
        except BrokenProcessPool:
            log.error("game %s: the engine's workers died on this move", self.room.public_id)
            return None

    async def _answer_draw(self, version: int, engine: bool) -> None:
        room = self.room
        request = self.request(room.players[engine].level, engine_white=engine)
        try:
            accepts = await room.host.pool.accepts_draw(request, room.public_id)
        except BrokenProcessPool:
            accepts = False

        async def answer() -> bool:
            if not room.playing or room.draw_offer is not (not engine) or version != room.version:
                return False
            if accepts:
                await self.draws.accept(engine)
            else:
                await self.draws.decline(engine)
            return True

        await self.locked(answer)


__all__ = ["EngineTurn"]
