"""How a game ended: :class:`Termination` and :class:`Outcome`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .pieces import Color


class Termination(Enum):
    """Every way a game can end (docs/rules.md 2.4-2.7, 3.3, 4, 5.5-5.6, 6.5)."""

    CHECKMATE = "checkmate"
    #: no legal move and not in check; a draw, or a loss for the stalemater with that option
    STALEMATE = "stalemate"
    #: Kar Ouk: the first check wins
    FIRST_CHECK = "first check"
    #: the count reached its limit without mate
    COUNTING_LIMIT = "counting limit"
    #: declared counting: the counter mated while its board's-honour count ran, which draws
    MATE_WHILE_COUNTING = "mate while counting"
    REPETITION = "repetition"
    #: repetition in which one side checked on every move, with ``perpetual_check="checker_loses"``
    PERPETUAL_CHECK = "perpetual check"
    #: Sittuyin's 50-move rule
    N_MOVE_RULE = "n-move rule"
    #: neither side can possibly mate (Fairy-Stockfish's dead-position test)
    INSUFFICIENT_MATERIAL = "insufficient material"
    #: a row of the Korean table of material draws
    KOREAN_MATERIAL_DRAW = "korean material draw"
    #: Sittuyin: king and pawn with only promotions legal
    PROMOTION_ONLY_DRAW = "promotion-only draw"
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    #: a stalemate under ``stalemate="replay"``: the game is played again, no result
    REPLAY = "replay"
    #: Alquerque: every enemy piece has been captured
    CAPTURED_ALL = "captured all"
    #: Alquerque (Bell): the side to move has no legal move and loses
    IMMOBILISED = "immobilised"
    #: Alquerque: the no-capture limit was reached
    NO_CAPTURE_LIMIT = "no-capture limit"
    #: a rule of a game registered outside kradan's rules decided it (see :mod:`kradan.games`)
    VARIANT_WIN = "variant win"
    VARIANT_DRAW = "variant draw"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why, and who won (``None`` for a draw or a replay)."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` for a game to be replayed."""
        if self.termination is Termination.REPLAY:
            return "*"
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"
