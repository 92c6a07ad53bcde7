"""A room's game as PGN: ``[Variant]``, ``[VariantOptions]``, ``[Result]``, ``[Termination]``,
and with a clock ``[TimeControl]`` (seconds+increment) and each mover's ``[%clk]``."""

from __future__ import annotations

from ..model import Player, clock_text
from .abandon import ABANDONED, ABORTED
from .base import RoomBase

#: the terminations PGN's standard names otherwise (its "abandoned": a game someone left)
PGN_TERMINATIONS = {ABORTED: ABANDONED}


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
        # an aborted game is written as PGN's "abandoned", with the result "*"
        headers["Termination"] = PGN_TERMINATIONS.get(row.termination, row.termination)
    if row.clock:
        clock = row.clock
        headers["TimeControl"] = clock_text(int(clock["base_ms"]), int(clock["increment_ms"]))
    # a screened setup's camps are written as the drops the alternate setup plays one by one,
    # under [VariantOptions "sittuyin_setup=screened"] (kradan.pgn reads them so)
    record = PgnGame.from_board(room.board, headers)
    if room.clock is not None:
        mover = room.first_mover()
        for node, clocks in zip(record.mainline(), room.move_clocks, strict=False):
            left = clocks[0] if mover else clocks[1]
            if left is not None:
                node.comment = clock_comment(left)
            mover = not mover
    return str(record) + "\n"


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


__all__ = ["PGN_TERMINATIONS", "clock_comment", "pgn_text"]
