"""Draws in a room: an offer, its acceptance or refusal, and a claim (repetition, the n-move
rule, ...). Each is stored before it changes the game."""

from __future__ import annotations

from ..i18n import N_
from ..model import SIDES, GameError
from ..tables import Ending
from .base import RoomBase


class Drawer:
    """The draw offers and claims of one room."""

    def __init__(self, room: RoomBase) -> None:
        self.room = room

    async def offer(self, color: bool) -> None:
        """``color`` offers a draw; an offer to a side that offered one accepts it.

        :raises GameError: 409 when ``color`` has offered one already.
        """
        room = self.room
        if room.draw_offer is (not color):
            await self.accept(color)
            return
        if room.draw_offer is color:
            raise GameError(409, N_("{color} has already offered a draw"), color=SIDES[color])
        await room.store_event(room.event("draw_offer", color))
        room.draw_offer = color

    async def accept(self, color: bool) -> None:
        """``color`` accepts its opponent's offer: a draw by agreement.

        :raises GameError: 409 without such an offer.
        """
        room = self.room
        if room.draw_offer is not (not color):
            raise GameError(
                409, N_("there is no draw offer from {color} to accept"), color=SIDES[not color]
            )
        await room.store_event(room.event("draw_accept", color), Ending("1/2-1/2", "agreement"))
        room.board.agree_draw()

    async def decline(self, color: bool) -> None:
        """``color`` declines its opponent's offer.

        :raises GameError: 409 without such an offer.
        """
        room = self.room
        if room.draw_offer is not (not color):
            raise GameError(
                409, N_("there is no draw offer from {color} to decline"), color=SIDES[not color]
            )
        await room.store_event(room.event("draw_decline", color))
        room.draw_offer = None

    async def claim(self, color: bool) -> None:
        """``color``, to move, claims the draw the rules give it now.

        :raises GameError: 409 when it is not ``color``'s turn or there is no draw to claim.
        """
        room = self.room
        room.check_turn(color)
        board = room.board
        claim = board.outcome(claim_draw=True)
        if claim is None or board.outcome() is not None:
            raise GameError(
                409,
                N_("{color} has no draw to claim in {fen}"),
                color=SIDES[color],
                fen=repr(board.fen()),
            )
        ending = Ending(claim.result(), claim.termination.value)
        await room.store_event(room.event("draw_claim", color), ending)


__all__ = ["Drawer"]
