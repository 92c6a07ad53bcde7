"""What the Swiss pairing needs to know of each player, read from the rounds played: the score,
the colours of the games played (forfeits and byes do not count, FIDE C.04.1), the opponents met
over the board, whether a point came without play (a pairing bye or a forfeit win: no second
pairing bye, C.04.1 c), and the floats of each round (FIDE C.04.3 A.4: paired with a lower
score, or the pairing bye, is a downfloat; with a higher score, an upfloat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .records import Colour, Points, Round, TournamentError, add_round

Float = Literal["down", "up"] | None


@dataclass
class History:
    """One player's record before the round to pair."""

    player: str
    #: the pairing number less one (the player's place in the field's order)
    number: int
    score: float = 0.0
    colours: list[Colour] = field(default_factory=list)
    opponents: set[str] = field(default_factory=set)
    #: a pairing bye or a forfeit win: a point scored without play
    unplayed_point: bool = False
    #: the float of every round so far, oldest first
    floats: list[Float] = field(default_factory=list)

    @property
    def difference(self) -> int:
        """Games with White less games with Black (FIDE's colour difference)."""
        return sum(1 if colour == "white" else -1 for colour in self.colours)

    def float_before(self, rounds_back: int) -> Float:
        """The float of the round ``rounds_back`` rounds before the one to pair (1: the last)."""
        return self.floats[-rounds_back] if len(self.floats) >= rounds_back else None


def histories(
    players: Sequence[str], rounds: Sequence[Round], points: Points
) -> dict[str, History]:
    """Every player's :class:`History` after ``rounds`` (each must be finished)."""
    found = {player: History(player, number) for number, player in enumerate(players)}
    totals = dict.fromkeys(players, 0.0)
    for number, round_ in enumerate(rounds, 1):
        if not round_.finished:
            raise TournamentError(f"round {number} has a game without a result")
        before = dict(totals)
        floats: dict[str, Float] = {}
        for game in round_.games:
            white, black = found[game.white], found[game.black]
            if before[game.white] != before[game.black]:
                higher = game.white if before[game.white] > before[game.black] else game.black
                floats[higher] = "down"
                floats[game.opponent_of(higher)] = "up"
            if game.forfeit:
                winner = game.white if game.result == "1-0" else game.black
                found[winner].unplayed_point = True
            else:
                white.colours.append("white")
                black.colours.append("black")
                white.opponents.add(game.black)
                black.opponents.add(game.white)
        for bye in round_.byes:
            if bye.kind == "pairing":
                found[bye.player].unplayed_point = True
                floats[bye.player] = "down"
        for player in players:
            found[player].floats.append(floats.get(player))
        add_round(totals, round_, points)
    for player, total in totals.items():
        found[player].score = total
    return found
