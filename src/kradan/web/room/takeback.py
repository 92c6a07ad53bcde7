"""A takeback in a room (against the engine): the engine's reply and the person's move go,
counts made since included; stored, then undone on the board and in the record."""

from __future__ import annotations

from ...counting import CountAction
from ..i18n import N_
from ..model import SIDES, GameError
from .base import RoomBase
from .clock import Timekeeper


class Takebacker:
    """Takes back moves in one room."""

    def __init__(self, room: RoomBase, clock: Timekeeper) -> None:
        self.room = room
        self.clock = clock

    async def take_back(self, color: bool) -> None:
        """``color`` takes back its last move (and the engine's reply to it).

        :raises GameError: 409 in a game between people, or when ``color`` has no move to take
            back (none, or only a screened setup's drops).
        """
        room = self.room
        if not room.is_engine(not color):
            raise GameError(409, N_("a takeback is only for games against the engine"))
        trial = room.board.copy()
        popped = 0
        human_moves = 0
        while trial.move_stack:
            entry = trial.pop()
            popped += 1
            if not isinstance(entry, CountAction) and bool(trial.turn) == color:
                human_moves += 1
                break
        stack = len(trial.move_stack)
        plies = sum(1 for entry in trial.move_stack if not isinstance(entry, CountAction))
        if human_moves == 0 or plies < room.setup_plies:
            raise GameError(409, N_("{color} has no move to take back"), color=SIDES[color])
        row = room.event("takeback", color, {"to_ply": plies, "stack": stack})
        await room.host.store.take_back(room.row.id, row, plies, stack)
        room.seq += 1
        for _ in range(popped):
            room.board.pop()
        del room.ucis[plies:], room.sans[plies:], room.move_clocks[plies:]
        del room.positions[plies + 1 :], room.move_squares[plies:]
        if room.thai is not None:
            del room.thai[plies:]
        room.row.ply = plies
        room.version += 1
        room.draw_offer = None
        self.clock.restore()
        self.clock.run()


__all__ = ["Takebacker"]
