"""Counts in a room (the chess family's declared counting): a side declares or stops a count;
it is tried on the board, taken back, stored, then made."""

from __future__ import annotations

from collections.abc import Callable

from ...counting import CountAction
from ...errors import KradanError
from ..i18n import N_, Term
from ..model import GameError
from .base import RoomBase


class Counts:
    """Declares and stops the counts of one room."""

    def __init__(self, room: RoomBase) -> None:
        self.room = room

    async def declare(self, color: bool) -> None:
        await self.count(color, "declare")

    async def stop(self, color: bool) -> None:
        await self.count(color, "stop")

    async def count(self, color: bool, kind: str) -> None:
        """``color`` declares (``kind`` ``"declare"``) or stops (``"stop"``) a count.

        :raises GameError: 409 when it is not ``color``'s turn, the game has no counting, or
            the rules refuse it now.
        """
        room = self.room
        room.check_turn(color)
        board = room.counting
        if board is None:
            raise GameError(409, N_("{game} has no counting"), game=Term(room.game.title))
        at = len(room.board.move_stack)
        change = board.declare_count if kind == "declare" else board.stop_count
        try:
            change()
        except KradanError as error:
            template = (
                N_("cannot declare a count: {error}")
                if kind == "declare"
                else N_("cannot stop a count: {error}")
            )
            raise GameError(409, template, error=str(error)) from None
        room.board.pop()  # until it is stored
        await room.store_event(room.event(f"count_{kind}", color, {"at": at}))
        change()
        room.version += 1

    def allowed(self) -> tuple[bool, bool]:
        """Whether the side to move may declare a count now, and whether it may stop one."""
        board = self.room.counting
        if board is None or not self.room.playing:
            return False, False
        return self._can(board.declare_count), self._can(board.stop_count)

    def _can(self, change: Callable[[], CountAction]) -> bool:
        try:
            change()
        except KradanError:
            return False
        self.room.board.pop()
        return True


__all__ = ["Counts"]
