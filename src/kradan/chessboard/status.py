"""What is odd about a position, in python-chess's manner: :meth:`Board.status` returns flags,
:data:`Status.VALID` (no flag) for a position play can reach. kradan loads every position
Fairy-Stockfish loads, so that a FEN written by it, pychess.org or an editor opens, and these
flags say what no game could have produced."""

from __future__ import annotations

from enum import IntFlag

from .. import _core
from .._core import layout as L
from ..notation.fen import counting_problem
from ..pieces import PAWN, piece_symbol
from ..variants import PromotionRule
from .counts import CountingActions


class Status(IntFlag):
    """Flags of an odd position; ``VALID`` when there is none."""

    VALID = 0
    #: the side not to move is in check (it could be taken; kradan never takes a king)
    OPPOSITE_CHECK = 1
    #: counting fields no counting rule of the game produces
    IMPOSSIBLE_COUNT = 2
    #: more pieces of a kind than a side's set holds (promoted pawns counted as pawns)
    TOO_MANY_PIECES = 4
    #: an unpromoted pawn on or beyond the rank where it must have promoted
    PAWN_PAST_PROMOTION = 8


#: how many of each piece a side's set holds, by the letter the FEN writes (pawns, and the
#: pieces they became, are counted apart)
_SET = {"k": 1, "r": 2, "n": 2, "s": 2, "m": 1, "f": 1}
_PAWNS = 8


class StatusQueries(CountingActions):
    """``status()`` and ``is_valid()``."""

    def status(self) -> Status:
        """What is odd about this position: :data:`Status.VALID` when nothing is."""
        found = Status.VALID
        if _core.side_not_to_move_in_check(self._bbs, self._info):
            found |= Status.OPPOSITE_CHECK
        if counting_problem(self._bbs, self._info, self.variant) is not None:
            found |= Status.IMPOSSIBLE_COUNT
        if self._too_many_pieces():
            found |= Status.TOO_MANY_PIECES
        if self._pawn_past_promotion():
            found |= Status.PAWN_PAST_PROMOTION
        return found

    def is_valid(self) -> bool:
        """Whether :meth:`status` finds nothing odd."""
        return self.status() == Status.VALID

    def status_text(self) -> list[str]:
        """Each oddity of :meth:`status` in words, for a warning."""
        words = {
            Status.OPPOSITE_CHECK: "the side not to move is in check",
            Status.IMPOSSIBLE_COUNT: counting_problem(self._bbs, self._info, self.variant) or "",
            Status.TOO_MANY_PIECES: "a side has more pieces of a kind than its set holds",
            Status.PAWN_PAST_PROMOTION: "a pawn stands where it must have promoted",
        }
        found = self.status()
        return [text for flag, text in words.items() if flag in found]

    def _too_many_pieces(self) -> bool:
        """Whether a side has a piece its set cannot give it: more of a kind than the set holds,
        where only the kind pawns become may exceed it, by as many pawns as are missing."""
        promoted_letter = piece_symbol(self.variant.promoted_type)
        for color in (True, False):
            counts: dict[str, int] = {}
            pawns = 0
            for piece in self.piece_map().values():
                if piece.color != color:
                    continue
                if piece.promoted or piece.piece_type == PAWN:
                    pawns += 1  # a pawn, or what a pawn became
                    continue
                letter = piece.symbol().lower()
                counts[letter] = counts.get(letter, 0) + 1
            for kind, held in self.hand(color).items():
                letter = piece_symbol(kind)
                counts[letter] = counts.get(letter, 0) + held
            for letter, number in counts.items():
                beyond = number - _SET.get(letter, 0)
                if beyond > 0 and (letter != promoted_letter or pawns + beyond > _PAWNS):
                    return True
        return False

    def _pawn_past_promotion(self) -> bool:
        zone = (int(self._bbs[L.BB_PROMO_ZONE]), int(self._bbs[L.BB_PROMO_ZONE + 1]))
        on_move = self.variant.promotion is PromotionRule.ON_ENTRY
        for square, piece in self.piece_map().items():
            if piece.piece_type != PAWN or not on_move:
                continue
            mine = zone[L.WHITE if piece.color else L.BLACK]
            if mine >> square & 1:
                return True
        return False


__all__ = ["Status", "StatusQueries"]
