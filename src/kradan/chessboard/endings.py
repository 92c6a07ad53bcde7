"""The end of the game on a chess-family board: what ends it by itself, what a player may
claim, and each draw rule on its own. The rules are :mod:`kradan.game_end`'s,
:mod:`kradan.counting`'s and :mod:`kradan.material`'s; these methods are their doors."""

from __future__ import annotations

from .. import counting, game_end, material
from ..arguments import check_color, check_number
from ..outcome import Outcome
from ..pieces import Color
from .moves import BoardMoves


class GameEndQueries(BoardMoves):
    """How and whether the game has ended, and every draw rule on its own."""

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or ``None`` while it goes on.

        Without ``claim_draw`` this reports what ends a game by itself: checkmate, stalemate,
        Kar Ouk's first check, the counting limit, a dead position, a Korean table draw with
        ``korean_material_draws="auto"``, a resignation or an agreed draw. With ``claim_draw``
        it adds what a player may claim: repetition (or a perpetual-check loss), the n-move
        rule, Sittuyin's promotion-only draw and a Korean table draw with ``"claim"``.
        """
        if self._ended is not None:
            return self._ended
        return game_end.outcome(self, claim_draw=claim_draw)

    def can_claim_draw(self) -> bool:
        """Whether the side to move may claim a draw (or a perpetual-check win) now."""
        return game_end.claimable_draw(self) is not None

    def is_repetition(self, count: int | None = None) -> bool:
        """Whether this position has occurred ``count`` times (``repetition_count`` by default)
        since the last capture, pawn move or drop; pieces, side to move, gates, hands and
        check counts must all match, as in Fairy-Stockfish."""
        if count is not None:
            count = check_number(count, "count", 1)
        return game_end.is_repetition(self, count)

    def can_claim_threefold_repetition(self) -> bool:
        """Whether the position has occurred three times."""
        return game_end.is_repetition(self, 3)

    def is_n_move_rule(self) -> bool:
        """Whether the variant's n-move rule (Sittuyin: 50 moves) has been reached."""
        return game_end.is_n_move_rule(self)

    def is_counting_limit(self) -> bool:
        """Whether the running count has reached the point where the game is drawn."""
        return counting.counting_limit_reached(self)

    def has_insufficient_material(self, color: Color) -> bool:
        """Whether ``color`` cannot possibly mate (Fairy-Stockfish's rule, docs/rules.md 2.7)."""
        return material.has_insufficient_material(self, check_color(color))

    def is_insufficient_material(self) -> bool:
        """Whether neither side can possibly mate."""
        return game_end.is_insufficient_material(self)

    def is_korean_material_draw(self) -> bool:
        """Whether the material matches a row of the Korean table (docs/rules.md 2.7)."""
        return material.korean_material_draw(self)

    def is_promotion_only_draw(self) -> bool:
        """Sittuyin: king and pawn, not in check, only promotions legal (docs/rules.md 5.5)."""
        return game_end.is_promotion_only_draw(self)
