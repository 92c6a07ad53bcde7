"""Winning chances: what a search score is worth as an expected score, and how much a move lost.

A score in centipawns becomes the mover's expected score (a win 1, a draw 1/2, a loss 0) through
a logistic curve, ``E(cp) = 1 / (1 + exp(-scale * cp))``. Each game family has its own
``scale``, fitted by maximum likelihood to the positions of kradan's own self-play games and
their results, draws (Makruk's many draws by the count among them) counted as 1/2
(:mod:`kradan.training.winning_fit`, ``benchmarks/fit_winning_curve.py``, docs/review.md).

A move is judged by the drop in its mover's expected score from the engine's best move to the
move played (:func:`judge`): ``?!`` from :data:`INACCURACY`, ``?`` from :data:`MISTAKE`,
``??`` from :data:`BLUNDER`. Nothing is marked for the only legal move, nor when the game was
already lost before the move or still won after it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .types import MATE_VALUE, Score

#: the fitted ``scale`` of each game, per centipawn (docs/review.md has the data and the fit;
#: ``benchmarks/fit_winning_curve.py`` prints them): kradan's self-play games of Makruk at
#: 30,000 nodes a move (100 games), of Ouk Chatrang and of Sittuyin at 4,000 (120 games each).
#: Most of them are drawn (80 to 84 % of the positions), by the count above all, so a lead is
#: worth less than in chess: a pawn up scores about 53 %. Alquerque has no fit of its own yet
#: and borrows Makruk's.
SCALES: dict[str, float] = {
    "makruk": 0.00111,
    "cambodian": 0.00139,
    "karouk": 0.00139,
    "sittuyin": 0.00085,
    "alquerque": 0.00111,
    "alquerque-bell": 0.00111,
}
#: the scale of a game not in :data:`SCALES` (Makruk's)
DEFAULT_SCALE = 0.00111

#: drops of the mover's expected score that earn ``?!``, ``?`` and ``??``: lichess's 0.1, 0.2
#: and 0.3 of winning chances (``2E - 1``), which are 0.05, 0.10 and 0.15 of an expected score.
#: On Makruk's curve they are about 180, 370 and 560 centipawns from an even game: a pawn and
#: a bit, a knight (371), most of a rook (652). Chess-like steps of 0.1/0.2/0.3 would ask for
#: 370/770/1250 centipawns, and a hung rook would be a mere inaccuracy.
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15
#: the marks, from the mildest; and their PGN NAGs ($6, $2, $4)
MARKS = ("?!", "?", "??")
NAGS = {"?!": 6, "?": 2, "??": 4}
#: an expected score at or below this is a lost game, at or above ``1 - LOST`` a won one
LOST = 0.03
#: centipawns beyond which a score is shown as this (a mate is shown as its own)
CP_CLIP = 2000


@dataclass(frozen=True)
class WinningCurve:
    """The logistic expected-score curve of one game family: ``scale`` per centipawn."""

    scale: float

    def expected(self, score: Score) -> float:
        """The expected score (0..1) of the side ``score`` is for: a mate for it is 1, a mate
        against it (``mate 0`` included: mated on the board) is 0."""
        if score.mate is not None:
            return 1.0 if score.mate > 0 else 0.0
        cp = score.cp or 0
        if abs(cp) >= MATE_VALUE:  # a game the side to move has already won or lost
            return 1.0 if cp > 0 else 0.0
        return expected_from_cp(cp, self.scale)

    def centipawns(self, expected: float) -> float:
        """The centipawns that give ``expected`` (the curve's inverse; ±inf at 1 and 0)."""
        if expected <= 0.0:
            return -math.inf
        if expected >= 1.0:
            return math.inf
        return math.log(expected / (1.0 - expected)) / self.scale


def expected_from_cp(cp: float, scale: float) -> float:
    """``1 / (1 + exp(-scale * cp))``, safe for any ``cp``."""
    x = scale * cp
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def curve_for(game_name: str) -> WinningCurve:
    """The curve of the game called ``game_name`` (its canonical registry name)."""
    return WinningCurve(SCALES.get(game_name, DEFAULT_SCALE))


def mark_for(loss: float) -> str | None:
    """The mark a drop of ``loss`` in the mover's expected score earns (``None``: none)."""
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    if loss >= INACCURACY:
        return "?!"
    return None


@dataclass(frozen=True)
class Judgement:
    """A move judged: the mover's expected score after its best move and after the move
    played, what it lost (never below 0) and the mark that earns (``None``: none)."""

    best: float
    played: float
    loss: float
    mark: str | None


def judge(
    curve: WinningCurve, best: Score, played: Score, *, was_best: bool, only_move: bool
) -> Judgement:
    """Judge a move from the mover's scores: ``best`` after the engine's best move, ``played``
    after the move played. The best move itself loses nothing; the only legal move, a move in a
    game already lost (``best`` at or below :data:`LOST`) and one that still wins (``played``
    at or above ``1 - LOST``) are never marked."""
    best_e = curve.expected(best)
    played_e = best_e if was_best else curve.expected(played)
    loss = 0.0 if was_best else max(0.0, best_e - played_e)
    quiet = only_move or best_e <= LOST or played_e >= 1.0 - LOST
    return Judgement(best_e, played_e, loss, None if quiet else mark_for(loss))


__all__ = [
    "BLUNDER",
    "CP_CLIP",
    "DEFAULT_SCALE",
    "INACCURACY",
    "LOST",
    "MARKS",
    "MISTAKE",
    "NAGS",
    "SCALES",
    "Judgement",
    "WinningCurve",
    "curve_for",
    "expected_from_cp",
    "judge",
    "mark_for",
]
