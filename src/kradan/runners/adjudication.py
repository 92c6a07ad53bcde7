"""Ending a match game early when both players' scores agree on its result.

Matches between engines spend most of their time on games already decided: a side a rook up
converting, or two kings shuffling towards the count's end. A match runner can adjudicate
them, as cutechess-cli does, when the players themselves agree:

- **resignation**: a side resigns when, for ``moves`` moves in a row by each player, its own
  score has been at least ``cp`` centipawns below zero and its opponent's at least ``cp``
  above (a mate found counts as beyond every ``cp``);
- **draw**: from move ``from_move`` on, the game is drawn when both players' scores have stayed
  within ``cp`` of zero for ``moves`` moves in a row each.

Both sides must agree, so one engine's misjudgement (a count it does not see) cannot end a
game. A move without a score (a book move, a player that reports none) breaks every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.types import PovScore, Score
from ..errors import UsageError

#: the centipawn value a reported mate counts as (beyond every threshold)
MATE_CP = 100_000


def centipawns(info: dict[str, object]) -> int | None:
    """The score in a player's move information, for the side that moved: centipawns, a mate
    as +-:data:`MATE_CP`, or ``None`` when the player gave none. Every player reports it as
    python-chess's ``info["score"]``, a :class:`~kradan.engine.types.PovScore` whose
    ``relative`` side is the mover's."""
    score = info.get("score")
    if isinstance(score, PovScore):
        score = score.relative
    if not isinstance(score, Score):
        return None
    if score.mate is not None:
        return MATE_CP if score.mate > 0 else -MATE_CP
    return score.cp


@dataclass(frozen=True)
class ResignRule:
    moves: int
    cp: int

    @classmethod
    def parse(cls, text: str) -> ResignRule:
        """``MOVES,CP`` (``--resign 4,1000``)."""
        return cls(*_numbers(text, 2, "--resign MOVES,CP"))


@dataclass(frozen=True)
class DrawRule:
    from_move: int
    moves: int
    cp: int

    @classmethod
    def parse(cls, text: str) -> DrawRule:
        """``FROM_MOVE,MOVES,CP`` (``--draw 40,8,10``)."""
        return cls(*_numbers(text, 3, "--draw FROM_MOVE,MOVES,CP"))


def _numbers(text: str, count: int, usage: str) -> list[int]:
    parts = text.split(",")
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        numbers = []
    if len(numbers) != count or any(number < 0 for number in numbers) or numbers[-2] < 1:
        raise UsageError(f"{text!r} is not {usage} (whole numbers, at least one move)")
    return numbers


@dataclass
class Adjudicator:
    """Follows one game's scores, move by move, and says when the rules end it."""

    resign: ResignRule | None = None
    draw: DrawRule | None = None
    #: per side (True: White), the moves in a row it has been losing, winning, level
    _losing: dict[bool, int] = field(default_factory=lambda: {True: 0, False: 0})
    _winning: dict[bool, int] = field(default_factory=lambda: {True: 0, False: 0})
    _level: dict[bool, int] = field(default_factory=lambda: {True: 0, False: 0})

    def record(self, side: bool, score: int | None, move_number: int) -> tuple[str, str] | None:
        """``side`` has moved at full move ``move_number``, saying ``score`` (``None``: no score);
        the result and termination when the game ends here by adjudication."""
        if score is None:
            for run in (self._losing, self._winning, self._level):
                run[side] = 0
            return None
        resign, draw = self.resign, self.draw
        if resign is not None:
            self._losing[side] = self._losing[side] + 1 if score <= -resign.cp else 0
            self._winning[side] = self._winning[side] + 1 if score >= resign.cp else 0
            for loser in (True, False):
                if self._losing[loser] >= resign.moves and self._winning[not loser] >= resign.moves:
                    return ("0-1" if loser else "1-0"), "adjudicated: both scores agree"
        if draw is not None:
            self._level[side] = self._level[side] + 1 if abs(score) <= draw.cp else 0
            if move_number >= draw.from_move and min(self._level.values()) >= draw.moves:
                return "1/2-1/2", "adjudicated: both scores level"
        return None
