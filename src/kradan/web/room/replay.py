"""A room rebuilt from what the store holds: a screened setup's arrangements first, then the
moves and counts in order, the draw offer still standing, the clocks as of the last move."""

from __future__ import annotations

from collections.abc import Iterable

from ...games import CountingBoard, new_board
from ..model import COUNT_EVENTS
from ..tables import EventRow, StoredGame
from .base import RoomBase, RoomHost, touched_squares
from .moves import written
from .room import Room


def rebuild(host: RoomHost, stored: StoredGame) -> Room:
    """The room of the stored game ``stored``, served by ``host``."""
    row = stored.row
    board = new_board(row.variant, row.start_fen, **row.options)
    room = Room(host, row, board)
    counts = sorted(
        (event for event in stored.events if event.kind in COUNT_EVENTS),
        key=lambda event: int(event.payload.get("at", 0)),
    )
    # a screened setup's arrangements first: once both are in, they are the first moves
    for event in stored.events:
        if event.kind == "setup" and room.in_setup:
            room.apply_setup(event.side == "white", dict(event.payload["arrangement"]))
    moves = iter(stored.moves)
    pushed = 0

    def push_next() -> None:
        nonlocal pushed
        move_row = next(moves)
        pushed += 1
        move = board.parse_uci(move_row.uci)
        room.sans.append(board.san(move))
        if room.thai is not None:
            room.thai.append(written(board, move, "thai"))
        board.push(move)
        room.positions.append(board.fen(show_promoted=True))
        room.ucis.append(move.uci())
        room.move_squares.append(touched_squares(room.ucis[-1]))
        room.move_clocks.append((move_row.white_ms, move_row.black_ms))

    for event in counts:
        while len(board.move_stack) < int(event.payload.get("at", 0)):
            push_next()
        if isinstance(board, CountingBoard):
            board.declare_count() if event.kind == "count_declare" else board.stop_count()
    for _ in range(len(stored.moves) - pushed):
        push_next()
    room.seq = 1 + max((event.seq for event in stored.events), default=-1)
    room.draw_offer = standing_offer(stored.events, room)
    room.restore_clock()
    room.run_clock()
    return room


def standing_offer(events: Iterable[EventRow], room: RoomBase) -> bool | None:
    """The draw offer still standing after the stored events and moves, if any."""
    offer: EventRow | None = None
    for event in events:
        if event.kind == "draw_offer":
            offer = event
        elif event.kind in ("draw_decline", "draw_accept", "takeback"):
            offer = None
    if offer is None or room.row.status != "playing":
        return None
    side = offer.side == "white"
    # a move by the other side after the offer declines it
    first = room.first_mover()
    for ply in range(offer.ply, len(room.ucis)):
        if (first if ply % 2 == 0 else not first) != side:
            return None
    return side


__all__ = ["rebuild", "standing_offer"]
