"""The screened setup in a room (Sittuyin): each side hands in its whole camp, unseen by
everyone but its own seat until both are in; then the board plays both as drops, and they
become the game's first moves."""

from __future__ import annotations

from typing import Any

from ...errors import KradanError
from ...games import SetupBoard
from ...sittuyin_setup import PRESETS
from ..i18n import N_
from ..model import SIDES, GameError
from .base import RoomBase, touched_squares
from .clock import Timekeeper
from .moves import written


class ScreenedSetup:
    """The arrangements handed in to one room, kept from every reader but their own seat."""

    def __init__(self, room: RoomBase, clock: Timekeeper) -> None:
        self.room = room
        self.clock = clock
        self.arrangements: dict[bool, dict[str, str]] = {}

    def handed_in(self) -> dict[str, bool] | None:
        """Who has handed in, while the setup goes on (``None`` otherwise)."""
        if not self.room.in_setup:
            return None
        return {"white": True in self.arrangements, "black": False in self.arrangements}

    def own(self, color: bool | None) -> dict[str, str] | None:
        """The arrangement ``color``'s seat handed in, while the setup goes on."""
        if color is None or not self.room.in_setup:
            return None
        found = self.arrangements.get(color)
        return None if found is None else dict(found)

    async def hand_in(self, color: bool, arrangement: Any) -> None:
        """``color`` hands in ``arrangement`` (squares to piece letters, or a preset's name);
        it is checked, stored, then kept (the caller holds the lock).

        :raises GameError: 400 for an arrangement that is not such a mapping, 409 when no
            setup goes on or ``color`` has handed in already, 422 for one the rules refuse.
        """
        room = self.room
        board = room.board
        if not room.in_setup or not isinstance(board, SetupBoard):
            raise GameError(
                409, N_("game {game} has no screened setup going on"), game=repr(room.public_id)
            )
        if color in self.arrangements:
            raise GameError(409, N_("{color} has already handed in its setup"), color=SIDES[color])
        placed = _checked_arrangement(arrangement, color)
        try:
            board.copy().submit_setup(color, placed)
        except KradanError as error:
            raise GameError(422, N_("setup refused: {error}"), error=str(error)) from None
        await room.store_event(room.event("setup", color, {"arrangement": placed}))
        self.apply(color, placed)

    def apply(self, color: bool, arrangement: dict[str, str]) -> None:
        """Keep a checked (and stored) arrangement; once both are in, the drops become the
        game's first moves."""
        room = self.room
        board = room.board
        if not isinstance(board, SetupBoard):  # pragma: no cover - only screened games get here
            return
        self.arrangements[color] = arrangement
        if not board.submit_setup(color, arrangement):
            return
        drops = len(board.move_stack) - len(room.ucis)
        trial = board.copy()
        sans: list[str] = []
        thais: list[str] = []
        before: list[str] = []  # the position before each drop, the last drop's first
        for _ in range(drops):
            drop = trial.pop()
            sans.append(trial.san(drop))
            thais.append(written(trial, drop, "thai"))
            before.append(trial.fen(show_promoted=True))
        room.positions.extend([*reversed(before[:-1]), board.fen(show_promoted=True)])
        room.ucis.extend(entry.uci() for entry in board.move_stack[-drops:])
        room.move_squares.extend(touched_squares(uci) for uci in room.ucis[-drops:])
        room.sans.extend(reversed(sans))
        if room.thai is not None:
            room.thai.extend(reversed(thais))
        room.move_clocks.extend([(None, None)] * drops)
        room.setup_plies = len(room.ucis)
        room.row.ply = len(room.ucis)
        room.in_setup = False
        room.version += 1
        self.clock.start_now()
        self.clock.run()


def _checked_arrangement(arrangement: Any, color: bool) -> dict[str, str]:
    """``arrangement`` as squares to letters: a preset's for ``color``, or the mapping itself
    when it has that shape (the rules check the rest).

    :raises GameError: 422 for an unknown preset, 400 for anything else.
    """
    if isinstance(arrangement, str):
        placed = preset_arrangement(arrangement, color)
        if placed is None:
            raise GameError(
                422,
                N_("unknown setup preset {preset}; presets: {presets}"),
                preset=repr(arrangement[:40]),
                presets=", ".join(sorted(PRESETS)),
            )
        return placed
    if (
        isinstance(arrangement, dict)
        and len(arrangement) <= 16
        and all(
            isinstance(key, str) and isinstance(value, str) and len(key) <= 3 and len(value) <= 1
            for key, value in arrangement.items()
        )
    ):
        return dict(arrangement)
    raise GameError(
        400,
        N_("an arrangement maps squares to piece letters, e.g. {example}, not {value}"),
        example="{'e2': 'K'}",
        value=repr(arrangement)[:80],
    )


def preset_arrangement(name: str, color: bool) -> dict[str, str] | None:
    """The library's preset arrangement ``name`` for ``color`` (Black's is White's mirrored)."""
    preset = PRESETS.get(name)
    if preset is None:
        return None
    if color:
        return dict(preset)
    return {square[0] + str(9 - int(square[1])): letter for square, letter in preset.items()}


def preset_names() -> list[str]:
    """The names of the library's preset arrangements, sorted."""
    return sorted(PRESETS)


__all__ = ["ScreenedSetup", "preset_arrangement", "preset_names"]
