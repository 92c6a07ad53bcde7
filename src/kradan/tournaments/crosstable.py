"""A tournament's crosstable: for each player and each round, the opponent, the colour, the
points scored and what kind of round it was (a game, a forfeit, a bye, an absence). The
tie-breaks (:mod:`.tiebreaks`) are read from it, and a page can draw it as it stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .records import (
    DEFAULT_POINTS,
    Bye,
    Colour,
    Points,
    Round,
    check_players,
    check_rounds,
    results_of,
)

#: what a player's round was: a game played over the board, a forfeit (won or lost without
#: play), a bye of one of the kinds of :data:`~.records.ByeKind`, or no record at all
CellKind = Literal["game", "forfeit", "pairing", "half", "zero", "free", "absent"]


@dataclass(frozen=True)
class Cell:
    """One player's round. ``points`` is ``None`` while the game is unfinished; ``share`` is
    the result as a share of a win (1, 0.5, 0; a bye's points over a win's)."""

    kind: CellKind
    opponent: str | None = None
    colour: Colour | None = None
    points: float | None = 0.0
    share: float | None = 0.0

    @property
    def played(self) -> bool:
        """A game over the board (finished or not)."""
        return self.kind == "game"

    @property
    def voluntary(self) -> bool:
        """A round the player chose or caused to miss (FIDE's VUR: a half- or zero-point bye, a
        forfeit lost, an absence), which a Cut-1 drops first."""
        return self.kind in ("half", "zero", "absent") or (
            self.kind == "forfeit" and self.share == 0
        )


def crosstable(
    players: Sequence[str], rounds: Sequence[Round], points: Points = DEFAULT_POINTS
) -> dict[str, tuple[Cell, ...]]:
    """Every player's cells, round by round, in the field's order."""
    players = list(players)
    check_players(players)
    check_rounds(players, rounds)
    table: dict[str, list[Cell]] = {player: [] for player in players}
    for round_ in rounds:
        found = results_of(round_)
        for player in players:
            record = found.get(player)
            if record is None:
                cell = Cell("absent")
            elif isinstance(record, Bye):
                scored = points.of_bye(record.kind)
                cell = Cell(record.kind, points=scored, share=scored / points.win)
            else:
                game = record
                got = game.points(points)
                mine = None if got is None else got[0 if player == game.white else 1]
                cell = Cell(
                    "forfeit" if game.forfeit else "game",
                    game.opponent_of(player),
                    game.colour_of(player),
                    mine,
                    game.fraction(player),
                )
            table[player].append(cell)
    return {player: tuple(cells) for player, cells in table.items()}
