"""A tournament's standings: the players sorted by points, then by the tie-breaks in the order
the tournament chose (:mod:`.tiebreaks`), then by pairing number; players equal on all of them
share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import tiebreaks as tb
from .crosstable import Cell, crosstable
from .records import DEFAULT_POINTS, Points, Round, TournamentError, scores

#: the order used when a tournament names none (FIDE's usual order for a Swiss)
DEFAULT_TIEBREAKS: tuple[tb.TieBreak, ...] = (
    "buchholz-cut1",
    "buchholz",
    "sonneborn-berger",
    "direct-encounter",
    "wins",
)


@dataclass(frozen=True)
class Standing:
    """One line of the standings: the shared rank, the player, the points and each tie-break's
    value, in the order asked for."""

    rank: int
    player: str
    points: float
    tiebreaks: Mapping[str, float]


def standings(
    players: Sequence[str],
    rounds: Sequence[Round],
    *,
    points: Points = DEFAULT_POINTS,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Standing]:
    """The standings after ``rounds`` (unfinished games count nothing yet)."""
    if isinstance(tiebreaks, str):
        raise TournamentError(f"the tie-breaks are a list of names, not the text {tiebreaks!r}")
    for name in tiebreaks:
        if name not in tb.TIEBREAKS:
            raise TournamentError(f"unknown tie-break {name!r}: one of {', '.join(tb.TIEBREAKS)}")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise TournamentError(f"a tie-break is named twice in {list(tiebreaks)!r}")
    players = list(players)
    table = crosstable(players, rounds, points)
    total = scores(players, rounds, points)
    values: dict[str, dict[str, float]] = {player: {} for player in players}
    for name in tiebreaks:
        if name == "direct-encounter":
            groups: dict[tuple[float, ...], list[str]] = {}
            for player in players:
                key = (total[player], *values[player].values())
                groups.setdefault(key, []).append(player)
            for group in groups.values():
                for player, value in tb.direct_encounter(group, table).items():
                    values[player][name] = value
            continue
        for player in players:
            values[player][name] = _value(name, player, table[player], total)
    number = {player: index for index, player in enumerate(players)}

    def sort_key(player: str) -> tuple[float, ...]:
        return (-total[player], *(-value for value in values[player].values()))

    ordered = sorted(players, key=lambda player: (sort_key(player), number[player]))
    lines: list[Standing] = []
    for place, player in enumerate(ordered, 1):
        tied = lines and sort_key(ordered[place - 2]) == sort_key(player)
        shared = lines[-1].rank if tied else place
        lines.append(Standing(shared, player, total[player], dict(values[player])))
    return lines


def _value(name: str, player: str, cells: Sequence[Cell], total: Mapping[str, float]) -> float:
    """One player's value of a tie-break read from their own rounds."""
    if name == "buchholz":
        return tb.buchholz(player, cells, total)
    if name == "buchholz-cut1":
        return tb.buchholz_cut1(player, cells, total)
    if name == "sonneborn-berger":
        return tb.sonneborn_berger(player, cells, total)
    return tb.wins(cells)
