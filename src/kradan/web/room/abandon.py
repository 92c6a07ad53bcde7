"""Games nobody plays: an abort before both sides have moved, the server's own abort of a game
whose first moves never come, and the claim of a game whose opponent has left.

The rules (every wait is in :class:`~.dead_rules.DeadGameRules`; ``create_app(dead_games=...)``
changes them):

* **Abort.** Either player may abort the game until each side has made its first move
  (lichess's rule; a screened setup's drops are not moves). The game ends unrated, with the
  result ``*`` and the termination ``aborted``; it is not archived.
* **Auto-abort.** Between two people, the side to move must make its first move within
  :attr:`~DeadGameRules.first_move_s` of the later of the last move and the moment both seats
  were there (the invitation taken, a socket opened, a request made); else the server aborts
  the game. During a screened setup this wait does not run. Any game not started
  :attr:`~DeadGameRules.unstarted_s` after its last change is aborted too, against the engine
  as well (a person who never moves against the engine is otherwise left alone); this is
  counted from the time stored with the game, so a restart aborts the games past it.
* **Claim.** Once both sides have moved, a person whose opponent (a person) has had no
  connection for :meth:`~DeadGameRules.claim_wait` may claim the game: a win, or a draw when
  the claimant could not possibly mate (as when a flag falls). The termination is
  ``abandoned``, and a rated game is rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC

from ...games import MaterialBoard
from ..i18n import N_
from ..model import SIDES, GameError
from ..tables import Ending
from .base import RoomBase
from .dead_rules import DeadGameRules
from .presence import Presence

#: the termination of an aborted game (result ``*``), and of one ended by a claim
ABORTED = N_("aborted")
ABANDONED = N_("abandoned")
#: the events that abort a game and that claim one
ABORT_EVENT, CLAIM_EVENT = "abort", "claim_win"


@dataclass(frozen=True)
class Gone:
    """The seat away longest in a started game between people."""

    side: bool
    away_s: float
    #: seconds until its opponent may claim (0: now)
    claim_in_s: float


class Abandonment:
    """Aborts and claims in one room (each called under the room's lock)."""

    def __init__(self, room: RoomBase, presence: Presence, rules: DeadGameRules) -> None:
        self.room = room
        self.presence = presence
        self.rules = rules
        #: when the position last changed: the stored time of the game's last change, then
        #: each change seen in memory (:meth:`note_change`)
        self.changed_at = room.row.updated_at.replace(tzinfo=UTC).timestamp()
        self._version = room.version

    def note_change(self) -> None:
        """After a change announced: a new position restarts the wait for a first move."""
        if self.room.version != self._version:
            self._version = self.room.version
            self.changed_at = self.presence.now()

    # --- reading --------------------------------------------------------------------------------

    def moves_made(self) -> int:
        """The plies played, a screened setup's drops left out."""
        return len(self.room.ucis) - self.room.setup_plies

    def can_abort(self) -> bool:
        """Whether the game may still be aborted: it goes on, and a side has not moved yet."""
        return self.room.playing and self.moves_made() < 2

    def between_people(self) -> bool:
        return not (self.room.is_engine(True) or self.room.is_engine(False))

    def first_move_deadline(self) -> float | None:
        """When the server aborts a game between people whose side to move has not made its
        first move (``None``: no such wait runs)."""
        room = self.room
        if not self.can_abort() or room.in_setup or not self.between_people():
            return None
        white, black = self.presence.seen_at[True], self.presence.seen_at[False]
        if white is None or black is None:
            return None  # the opponent has not come yet: the invitation waits
        return max(white, black, self.changed_at) + self.rules.first_move_s

    def deadline(self) -> float | None:
        """When the server aborts the game if nothing changes (``None``: never)."""
        if not self.can_abort():
            return None
        unstarted = self.changed_at + self.rules.unstarted_s
        first = self.first_move_deadline()
        return unstarted if first is None else min(unstarted, first)

    def due(self) -> bool:
        """Whether the server aborts the game now."""
        deadline = self.deadline()
        return deadline is not None and self.presence.now() >= deadline

    def gone(self) -> Gone | None:
        """The seat that has been away longest in a started game between people (``None``
        while both have a socket open, before both have moved, and against the engine)."""
        if not self.room.playing or self.can_abort() or not self.between_people():
            return None
        away = {c: self.presence.away_for(c) for c in (True, False) if not self.presence.here(c)}
        if not away:
            return None
        side = max(away, key=lambda color: away[color])
        wait = self.rules.claim_wait(self.room.clock)
        return Gone(side, away[side], max(0.0, wait - away[side]))

    # --- changes ----------------------------------------------------------------------------

    async def abort(self, color: bool) -> None:
        """``color`` aborts the game.

        :raises GameError: 409 once both sides have moved.
        """
        room = self.room
        if not self.can_abort():
            raise GameError(
                409,
                N_("game {game} can no longer be aborted: both sides have moved"),
                game=repr(room.public_id),
            )
        await room.store_event(room.event(ABORT_EVENT, color), Ending("*", ABORTED))

    async def expire(self) -> bool:
        """Abort the game if its wait is over (the side to move is named as the one that did
        not move); returns whether it did."""
        room = self.room
        if not self.due():
            return False
        mover = bool(room.board.turn)
        await room.store_event(room.event(ABORT_EVENT, mover, {"auto": True}), Ending("*", ABORTED))
        return True

    async def claim(self, color: bool) -> None:
        """``color`` claims the game its opponent has left: a win, or a draw when ``color``
        could not possibly mate.

        :raises GameError: 409 against the engine, before both sides have moved (abort
            instead), while the opponent is connected or not yet gone long enough.
        """
        room = self.room
        opponent = not color
        if room.is_engine(opponent):
            raise GameError(409, N_("the engine never leaves: there is no game to claim"))
        if self.can_abort():
            raise GameError(
                409, N_("game {game} has not started: abort it instead"), game=repr(room.public_id)
            )
        if self.presence.here(opponent):
            raise GameError(
                409, N_("{color} is connected: there is no game to claim"), color=SIDES[opponent]
            )
        left = self.rules.claim_wait(room.clock) - self.presence.away_for(opponent)
        if left > 0:
            raise GameError(
                409,
                N_("{color} left only lately: a claim is possible in {seconds} s"),
                color=SIDES[opponent],
                seconds=int(left + 0.999),
            )
        board = room.board
        if isinstance(board, MaterialBoard) and board.has_insufficient_material(color):
            ending = Ending("1/2-1/2", ABANDONED)
        else:
            ending = Ending("1-0" if color else "0-1", ABANDONED)
        await room.store_event(room.event(CLAIM_EVENT, color), ending)


__all__ = [
    "ABANDONED",
    "ABORTED",
    "ABORT_EVENT",
    "CLAIM_EVENT",
    "Abandonment",
    "Gone",
]
