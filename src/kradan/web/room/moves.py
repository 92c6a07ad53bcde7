"""A move in a room: read (UCI), checked, written (SAN, Thai SAN), stored, then played."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import KradanError
from ...games import GameBoard
from ...outcome import Outcome
from ..i18n import N_, Message
from ..model import GameError
from ..tables import Ending, NewMove, utcnow
from .base import RoomBase, touched_squares
from .clock import Timekeeper


class Mover:
    """Plays the moves of one room."""

    def __init__(self, room: RoomBase, clock: Timekeeper) -> None:
        self.room = room
        self.clock = clock

    def read(self, text: str) -> tuple[str, str]:
        """The legal move ``text`` writes now, in UCI or SAN (Thai SAN too, where the game has
        it): its UCI and SAN.

        :raises GameError: 422 for text that is no legal move here.
        """
        board = self.room.board
        try:
            move = board.parse_uci(text)
        except (KradanError, ValueError, IndexError, KeyError):
            move = _parsed(board, board.parse_san, text)
        return move.uci(), board.san(move)

    async def play(self, color: bool, text: str) -> None:
        """``color`` plays ``text`` (UCI; the caller checked the turn and holds the lock).

        :raises GameError: 422 for a move that cannot be read or is not legal.
        """
        room = self.room
        board = room.board
        move = _parsed(board, board.parse_uci, text)
        san = board.san(move)
        thai = None if room.thai is None else written(board, move, "thai")
        uci = move.uci()
        # the position after the move is looked at, then taken back until the move is stored:
        # whoever reads the game meanwhile sees only acknowledged moves
        board.push(move)
        try:
            outcome: Outcome | None = board.outcome()
        finally:
            board.pop()
        white_ms, black_ms = self.clock.after_move(color)
        ending = None
        if outcome is not None:
            ending = Ending(outcome.result(), outcome.termination.value)
        row = NewMove(
            game_id=room.row.id,
            ply=len(room.ucis),
            uci=uci,
            white_ms=white_ms,
            black_ms=black_ms,
            created_at=utcnow(),
        )
        await room.host.store.add_move(room.row.id, row, ending)
        board.push(move)
        room.positions.append(board.fen(show_promoted=True))
        room.ucis.append(uci)
        room.move_squares.append(touched_squares(uci))
        room.sans.append(san)
        if room.thai is not None and thai is not None:
            room.thai.append(thai)
        room.move_clocks.append((white_ms, black_ms))
        room.row.ply = len(room.ucis)
        room.version += 1
        if room.draw_offer is (not color):  # a move declines the opponent's offer
            room.draw_offer = None
        self.clock.set(white_ms, black_ms)
        if ending is not None:
            room.end(ending)
        self.clock.run()


def written(board: GameBoard, move: Any, notation: str) -> str:
    """``move`` written in ``notation``, one of the notations of the board's game (the
    registry's ``Game.notations``, which ``board.san`` takes as its second argument)."""
    san: Callable[..., str] = board.san
    return san(move, notation)


def why_illegal(error: Exception, text: str, fen: str) -> Message | str:
    """Why kradan refused the move ``text`` in ``fen``: its usual "illegal move ... in ..." as
    a message that is translated, with the board's reason after it as the board wrote it (in
    English); any other refusal as kradan wrote it."""
    usual = Message(N_("illegal move {move} in {fen}"), move=repr(text), fen=repr(fen))
    said = str(error)
    if said == str(usual):
        return usual
    if said.startswith(f"{usual}: "):
        reason = said[len(str(usual)) + 2 :]
        return Message(
            N_("illegal move {move} in {fen}: {reason}"),
            move=repr(text),
            fen=repr(fen),
            reason=reason,
        )
    return said


def _parsed(board: Any, parse: Any, text: str) -> Any:
    """``parse(text)`` on ``board``, or a 422 that says why ``text`` is no legal move there."""
    try:
        return parse(text)
    except (KradanError, ValueError, IndexError, KeyError) as error:
        raise GameError(
            422,
            N_("illegal move {move}: {error}"),
            move=repr(text),
            error=why_illegal(error, text, board.fen()),
        ) from None


__all__ = ["Mover", "why_illegal", "written"]
