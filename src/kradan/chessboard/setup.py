"""Sittuyin's setup phase on a chess-family board: whether the camps are handed in whole, and
handing them in (:mod:`kradan.sittuyin_setup` checks each arrangement)."""

from __future__ import annotations

from collections.abc import Mapping

from .. import sittuyin_setup
from ..arguments import check_color
from ..errors import InvalidSetupError
from ..pieces import BLACK, SQUARE_NAMES, WHITE, Color
from ..variants import SetupRule, SittuyinSetup
from .moves import BoardMoves


class SetupActions(BoardMoves):
    """The screened setup: each side hands in its whole camp unseen."""

    @property
    def screened_setup(self) -> bool:
        """Whether the camps are handed in whole with :meth:`submit_setup`, each unseen by the
        other side until both are in (Sittuyin's screened setup), rather than dropped one by
        one."""
        return self.variant.sittuyin_setup is SittuyinSetup.SCREENED

    def submit_setup(self, color: Color, arrangement: Mapping[str, str] | str) -> bool:
        """Sittuyin's screened setup: ``color`` hands in its whole arrangement unseen.

        ``arrangement`` maps squares to letters (``{"e2": "K", ...}``) or names a preset of
        :data:`kradan.sittuyin_setup.PRESETS`. Nothing changes on the board until both sides
        have submitted; then both arrangements are played as alternating drops. Returns whether
        that has happened.

        :raises InvalidSetupError: for an arrangement that breaks a rule (the message names the
            square and the rule), a game without a setup phase, or a second submission.
        """
        if self.variant.setup is not SetupRule.DROPS:
            raise InvalidSetupError(f"{self.variant.name} has no setup phase")
        color = check_color(color)
        if not isinstance(arrangement, str | Mapping):
            raise InvalidSetupError(
                f"arrangement {arrangement!r}: expected squares and letters or a preset's name"
            )
        side = "White" if color else "Black"
        if color in self._screened:
            raise InvalidSetupError(f"{side} has already submitted its setup")
        hand = self.hand(color)
        if not hand:
            raise InvalidSetupError(f"{side} has no pieces left to set up")
        occupied = {SQUARE_NAMES[sq] for sq in self.piece_map()}
        self._screened[color] = sittuyin_setup.arrangement_drops(hand, occupied, color, arrangement)
        if len(self._screened) < 2:
            return False
        queues = {WHITE: list(self._screened[WHITE]), BLACK: list(self._screened[BLACK])}
        self._screened = {}
        while queues[WHITE] or queues[BLACK]:
            move = queues[self.turn].pop(0)
            self._push_code(self._code_of(move), move)
        return True
