"""What a tournament records, round by round: the games (who had White, who had Black, the
result), the byes, and how many points each outcome is worth.

Players are named by strings (an account's name, a seat's label); the order in which a
tournament lists them is their pairing number (the first is number 1). Everything here is plain
data: the pairing systems (:mod:`.berger`, :mod:`.swiss`, :mod:`.arena`) make rounds of it and
the tie-breaks (:mod:`.tiebreaks`, :mod:`.standings`) read it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from kradan.errors import KradanError

#: a game's result, as PGN writes it; ``None`` while the game is unfinished
Result = Literal["1-0", "0-1", "1/2-1/2"]
#: a side of the board
Colour = Literal["white", "black"]
#: a bye: ``"pairing"`` (a Swiss pairing's odd player out, worth a win by default), ``"half"``
#: and ``"zero"`` (a round the player asked to miss, or missed), ``"free"`` (a round robin's
#: round against the dummy player of an odd field: no points, and not the player's choice)
ByeKind = Literal["pairing", "half", "zero", "free"]

RESULTS: tuple[str, ...] = get_args(Result)
BYE_KINDS: tuple[str, ...] = get_args(ByeKind)


class TournamentError(KradanError, ValueError):
    """Bad tournament input: an unknown or repeated player, a player twice in one round, a
    result that is no result, a number of players or rounds out of range."""


class PairingError(TournamentError):
    """No pairing of the next round keeps the rules: every pairing left repeats a game, gives a
    second bye, or breaks the colour rules (the message says which players are in the way)."""


@dataclass(frozen=True)
class Points:
    """What each outcome is worth (FIDE's usual values by default; football scoring is
    ``Points(win=3, draw=1)``)."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    #: a Swiss pairing-allocated bye (FIDE C.04.1: a win's points unless the rules say less)
    bye: float = 1.0
    half_bye: float = 0.5
    zero_bye: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TournamentError(f"points for {name} must be a number, not {value!r}")
        if not self.win > 0:
            raise TournamentError(f"a win must be worth more than 0 points, not {self.win!r}")

    def of_bye(self, kind: ByeKind) -> float:
        """The points a bye of ``kind`` gives."""
        return {"pairing": self.bye, "half": self.half_bye}.get(kind, self.zero_bye)


#: FIDE's usual points
DEFAULT_POINTS = Points()


@dataclass(frozen=True)
class Game:
    """One pairing of a round. ``forfeit`` marks a result given without play (the loser did not
    come): it scores, but it is no game for the colours, the rematch rule or the tie-breaks."""

    white: str
    black: str
    result: Result | None = None
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise TournamentError(f"unknown result {self.result!r}: one of {', '.join(RESULTS)}")
        if self.white == self.black:
            raise TournamentError(f"{self.white!r} cannot play against themself")
        if self.forfeit and self.result not in ("1-0", "0-1"):
            raise TournamentError(f"a forfeit is won by one side: {self.result!r} is not")

    def points(self, points: Points = DEFAULT_POINTS) -> tuple[float, float] | None:
        """White's and Black's points, or ``None`` while unfinished."""
        if self.result is None:
            return None
        if self.result == "1/2-1/2":
            return points.draw, points.draw
        won, lost = (
            (points.forfeit_win, points.forfeit_loss) if self.forfeit else (points.win, points.loss)
        )
        return (won, lost) if self.result == "1-0" else (lost, won)

    def colour_of(self, player: str) -> Colour:
        return "white" if player == self.white else "black"

    def opponent_of(self, player: str) -> str:
        return self.black if player == self.white else self.white

    def fraction(self, player: str) -> float | None:
        """The player's result as a share of the game: 1, 0.5 or 0 (``None`` while unfinished)."""
        if self.result is None:
            return None
        if self.result == "1/2-1/2":
            return 0.5
        return 1.0 if (self.result == "1-0") == (player == self.white) else 0.0


@dataclass(frozen=True)
class Bye:
    """A player's round without an opponent."""

    player: str
    kind: ByeKind = "pairing"

    def __post_init__(self) -> None:
        if self.kind not in BYE_KINDS:
            raise TournamentError(f"unknown bye {self.kind!r}: one of {', '.join(BYE_KINDS)}")


@dataclass(frozen=True)
class Round:
    """One round: its games (board 1 first) and its byes."""

    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()

    def players(self) -> Iterator[str]:
        """Everyone the round names, games first."""
        for game in self.games:
            yield game.white
            yield game.black
        for bye in self.byes:
            yield bye.player

    @property
    def finished(self) -> bool:
        """Every game has its result."""
        return all(game.result is not None for game in self.games)


def by_rating(players: Sequence[str], ratings: Mapping[str, float]) -> list[str]:
    """``players`` in pairing-number order: the highest rating first, a player without a
    rating last, ties in the order given."""
    check_players(players)
    return sorted(players, key=lambda player: -ratings.get(player, float("-inf")))


def check_players(players: Sequence[str]) -> None:
    """A field of distinct, non-empty names."""
    seen: set[str] = set()
    for player in players:
        if not isinstance(player, str) or not player:
            raise TournamentError(f"a player is named by a non-empty string, not {player!r}")
        if player in seen:
            raise TournamentError(f"{player!r} is entered twice")
        seen.add(player)


def check_rounds(players: Sequence[str], rounds: Sequence[Round]) -> None:
    """Every round names only the field's players, each at most once."""
    known = set(players)
    for number, round_ in enumerate(rounds, 1):
        seen: set[str] = set()
        for player in round_.players():
            if player not in known:
                raise TournamentError(f"round {number} names {player!r}, who is not entered")
            if player in seen:
                raise TournamentError(f"round {number} names {player!r} twice")
            seen.add(player)


def scores(
    players: Sequence[str], rounds: Sequence[Round], points: Points = DEFAULT_POINTS
) -> dict[str, float]:
    """Each player's points over ``rounds`` (unfinished games count nothing yet)."""
    total = dict.fromkeys(players, 0.0)
    for round_ in rounds:
        add_round(total, round_, points)
    return total


def add_round(total: dict[str, float], round_: Round, points: Points) -> None:
    """Add one round's points to ``total`` (in place)."""
    for game in round_.games:
        got = game.points(points)
        if got is not None:
            total[game.white] += got[0]
            total[game.black] += got[1]
    for bye in round_.byes:
        total[bye.player] += points.of_bye(bye.kind)


def results_of(round_: Round) -> Mapping[str, Game | Bye]:
    """Each player's game or bye in ``round_``."""
    found: dict[str, Game | Bye] = {}
    for game in round_.games:
        found[game.white] = found[game.black] = game
    for bye in round_.byes:
        found[bye.player] = bye
    return found
