"""A room's game as PGN: ``[Variant]``, ``[VariantOptions]``, ``[Result]``, ``[Termination]``,
and with a clock ``[TimeControl]`` and each mover's ``[%clk]``."""

from __future__ import annotations

from ...counting import CountAction
from ...games import CountingBoard, GameBoard, new_board, replay_options
from ..model import Player
from .base import RoomBase


def pgn_text(room: RoomBase) -> str:
    """``room``'s game as PGN."""
    from ...pgn import Game as PgnGame

    row = room.row
    headers = {
        "Event": "kradan serve",
        "Site": f"kradan serve game {room.public_id}",
        "Date": row.created_at.strftime("%Y.%m.%d"),
        "Round": "-",
        "White": _pgn_name(room.players[True]),
        "Black": _pgn_name(room.players[False]),
        "Result": row.result,
    }
    if row.termination:
        headers["Termination"] = row.termination
    if row.clock:
        base, increment = row.clock["base_ms"], row.clock["increment_ms"]
        headers["TimeControl"] = f"{base // 1000}+{increment // 1000}"
    record = PgnGame.from_board(_pgn_board(room), headers)
    if room.clock is not None:
        mover = room.first_mover()
        for node, clocks in zip(record.mainline(), room.move_clocks, strict=False):
            left = clocks[0] if mover else clocks[1]
            if left is not None:
                node.comment = clock_comment(left)
            mover = not mover
    return str(record) + "\n"


def _pgn_board(room: RoomBase) -> GameBoard:
    """The board the PGN is written from. The PGN reader and writer replay the moves one by
    one under the game's rules; where those rules cannot (a screened setup's camps, handed in
    whole), the game is written under the rules that play the same moves one by one."""
    options = replay_options(room.board, room.row.options)
    if options == room.row.options:
        return room.board
    board = new_board(room.row.variant, room.row.start_fen, **options)
    for entry in room.board.move_stack:
        if not isinstance(entry, CountAction):
            board.push(entry)
        elif isinstance(board, CountingBoard):
            board.declare_count() if entry.kind == "declare" else board.stop_count()
    return board


def clock_comment(ms: int) -> str:
    """``[%clk h:mm:ss.s]`` of ``ms`` milliseconds."""
    seconds = max(0, ms) / 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"[%clk {int(hours)}:{int(minutes):02d}:{seconds:04.1f}]"


def _pgn_name(player: Player) -> str:
    if player.kind == "engine":
        return f"kradan level {player.level}"
    return player.name or "player"


__all__ = ["clock_comment", "pgn_text"]
