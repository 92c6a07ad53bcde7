"""The room's clock: which side's time runs, the times stored with each move, and the flag's
fall (the side to move out of time loses, or draws when its opponent could not possibly mate).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from ...games import MaterialBoard
from ..i18n import N_, Term
from ..model import TIME_FORFEIT, TIMEOUT_DRAW, GameError
from ..tables import Ending
from .base import RoomBase

#: runs a change under the room's lock and announces it when it returns ``True``
Locked = Callable[[Callable[[], Awaitable[bool]]], Awaitable[None]]


class Timekeeper:
    """The clock of one room (a room without a clock has one too: it does nothing)."""

    def __init__(self, room: RoomBase) -> None:
        self.room = room

    def run(self) -> None:
        """Set which clock runs: the side to move's, once both sides have moved."""
        room = self.room
        if room.clock is not None:
            # a screened setup's drops are not moves: the clocks start after two moves of play
            started = len(room.ucis) - room.setup_plies >= 2
            running = room.playing and not room.in_setup and started
            room.clock.running = bool(room.board.turn) if running else None

    def restore(self) -> None:
        """The times stored with the last move (the base time before any), running from now."""
        clock = self.room.clock
        if clock is None:
            return
        base = clock.base_ms
        clocks = self.room.move_clocks
        white, black = clocks[-1] if clocks else (base, base)
        clock.ms = {
            True: base if white is None else white,
            False: base if black is None else black,
        }
        clock.since = time.monotonic()

    def after_move(self, color: bool) -> tuple[int | None, int | None]:
        """White's and Black's times once ``color`` has moved now (its increment added), as
        they are stored with the move; ``(None, None)`` without a clock."""
        clock = self.room.clock
        if clock is None:
            return None, None
        ms = dict(clock.ms)
        if clock.running is color:
            ms[color] = clock.left(color) + clock.increment_ms
        return ms[True], ms[False]

    def set(self, white_ms: int | None, black_ms: int | None) -> None:
        """The times after a stored move, running from now."""
        clock = self.room.clock
        if clock is not None and white_ms is not None and black_ms is not None:
            clock.ms = {True: white_ms, False: black_ms}
            clock.since = time.monotonic()

    def start_now(self) -> None:
        """Count the running side's time from now (play begins)."""
        if self.room.clock is not None:
            self.room.clock.since = time.monotonic()

    async def flagged(self) -> bool:
        """End the game if the side to move has run out of time (the caller holds the lock);
        returns whether it did. The side that ran out loses, unless its opponent could not
        possibly mate: then it is a draw."""
        room = self.room
        clock = room.clock
        if clock is None or not room.playing or clock.running is None:
            return False
        if clock.left(clock.running) > 0:
            return False
        loser = clock.running
        winner = not loser
        board = room.board
        if isinstance(board, MaterialBoard) and board.has_insufficient_material(winner):
            ending = Ending("1/2-1/2", TIMEOUT_DRAW)
        else:
            ending = Ending("1-0" if winner else "0-1", TIME_FORFEIT)
        await room.store_event(room.event("flag", loser), ending)
        clock.ms[loser] = 0
        clock.running = None
        return True

    def out_of_time(self) -> GameError:
        """The error of a change refused because a flag fell."""
        return GameError(
            409,
            N_("game {game} is over: {termination}"),
            game=repr(self.room.public_id),
            termination=Term(self.room.row.termination or ""),
        )

    def watch(self, locked: Locked) -> asyncio.Task[object] | None:
        """Start the flag timer when a clock runs: at the fall, the game ends (under the lock,
        announced), unless the position changed meanwhile."""
        room = self.room
        if room.clock is None or room.clock.running is None:
            return None
        return room.host.spawn(room, self._timer(room.version, locked))

    async def _timer(self, version: int, locked: Locked) -> None:
        room = self.room
        clock = room.clock
        while clock is not None and clock.running is not None and version == room.version:
            left = clock.left(clock.running)
            if left <= 0:

                async def fall() -> bool:
                    return version == room.version and await self.flagged()

                await locked(fall)
                return
            await asyncio.sleep(left / 1000 + 0.005)


__all__ = ["Locked", "Timekeeper"]
