"""Tie-breaks (after FIDE's Tie-Break Regulations, C.07, in force from 2024), each read from
the crosstable (:mod:`.crosstable`) and the final scores.

* ``"buchholz"``: the sum of the opponents' scores.
* ``"buchholz-cut1"``: the same less one contribution: the least of the player's voluntary
  unplayed rounds (a half- or zero-point bye, a forfeit lost, an absence) when there is one,
  else the lowest (C.07 14.6).
* ``"sonneborn-berger"``: the sum of the opponents' scores each times the player's result
  against them (1, ½, 0): beaten opponents whole, drawn ones half.
* ``"direct-encounter"``: the points scored in the games among the players still tied (same
  points and same earlier tie-breaks), counted only when each of them has met each other one;
  else 0 for all of them (the tie stands).
* ``"wins"``: the games won over the board (FIDE's WON; forfeits and byes not counted).

**Unplayed rounds** (byes, forfeits, rounds not played) follow the regulations' simple form:
the player is taken to have met a *dummy opponent* with the player's own final score, and the
result is the points the round gave (a pairing bye a win, a half-point bye a draw, a forfeit lost
a loss). So an unplayed round adds the player's own score to Buchholz, and that score times the
round's share to Sonneborn-Berger. An opponent's score counts as it stands, their own unplayed
rounds included. Games not finished yet count nothing yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, get_args

from .crosstable import Cell

TieBreak = Literal["buchholz", "buchholz-cut1", "sonneborn-berger", "direct-encounter", "wins"]
TIEBREAKS: tuple[str, ...] = get_args(TieBreak)


def _contributions(
    player: str, cells: Sequence[Cell], scores: Mapping[str, float]
) -> list[tuple[float, Cell]]:
    """Each finished round's opponent score (the player's own for an unplayed round)."""
    found = []
    for cell in cells:
        if cell.points is None:
            continue  # a game still on
        opponent = cell.opponent if cell.played and cell.opponent is not None else player
        found.append((scores[opponent], cell))
    return found


def buchholz(player: str, cells: Sequence[Cell], scores: Mapping[str, float]) -> float:
    return sum(value for value, _ in _contributions(player, cells, scores))


def buchholz_cut1(player: str, cells: Sequence[Cell], scores: Mapping[str, float]) -> float:
    found = _contributions(player, cells, scores)
    if not found:
        return 0.0
    voluntary = [value for value, cell in found if cell.voluntary]
    cut = min(voluntary) if voluntary else min(value for value, _ in found)
    return sum(value for value, _ in found) - cut


def sonneborn_berger(player: str, cells: Sequence[Cell], scores: Mapping[str, float]) -> float:
    return sum(value * (cell.share or 0.0) for value, cell in _contributions(player, cells, scores))


def wins(cells: Sequence[Cell]) -> float:
    return float(sum(1 for cell in cells if cell.played and cell.share == 1.0))


def direct_encounter(group: Sequence[str], table: Mapping[str, Sequence[Cell]]) -> dict[str, float]:
    """Each tied player's points against the others of ``group`` (0 for all unless each pair of
    them has met, over the board or by forfeit)."""
    members = set(group)
    met: set[frozenset[str]] = set()
    found = dict.fromkeys(group, 0.0)
    for player in group:
        for cell in table[player]:
            if cell.opponent in members and cell.points is not None:
                met.add(frozenset((player, cell.opponent)))
                found[player] += cell.points
    pairs = len(group) * (len(group) - 1) // 2
    if len(group) < 2 or len(met) < pairs:
        return dict.fromkeys(group, 0.0)
    return found
