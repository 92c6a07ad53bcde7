"""Deciding how a game ends (docs/rules.md 2.4-2.7, 3.3-3.4, 4, 5.5-5.6; conflicts C1-C16).

These functions read a board; none of them touches move generation, so perft and search keep
their speed. ``outcome`` orders the rules so that a mate always beats a draw rule that would
end the game at the same moment, as in Fairy-Stockfish.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import counting, material
from .outcome import Outcome, Termination
from .pieces import KING, PAWN
from .variants import (
    InsufficientMaterial,
    KoreanDraws,
    PerpetualCheck,
    PromotionRule,
    StalemateRule,
)

if TYPE_CHECKING:
    from .position import ChessPosition as Board


def is_repetition(board: Board, count: int | None = None) -> bool:
    """Whether the position has occurred ``count`` times (``repetition_count`` by default)."""
    count = board.variant.repetition_count if count is None else count
    return count > 0 and len(board.repetitions()) + 1 >= count


def _perpetual_checker(board: Board) -> bool | None:
    """The side that gave check on each of its moves since the repeated position first stood on
    the board, when exactly one side did (``None`` otherwise)."""
    needed = board.variant.repetition_count - 1
    earlier = board.repetitions()
    if needed <= 0 or len(earlier) < needed:
        return None
    span = earlier[needed - 1]
    copy = board.copy()
    gave_check = {True: True, False: True}
    for _ in range(span):
        in_check = copy.is_check()
        move = copy.pop()
        while not hasattr(move, "to_square"):  # a count action: not a move
            move = copy.pop()
        gave_check[copy.turn] &= in_check
    checkers = [color for color, always in gave_check.items() if always]
    return checkers[0] if len(checkers) == 1 else None


def is_n_move_rule(board: Board) -> bool:
    """Whether ``n_move_rule`` moves (Sittuyin: 50) passed without a capture or pawn move."""
    rule = board.variant.n_move_rule
    return rule > 0 and board.halfmove_clock >= 2 * rule


def is_promotion_only_draw(board: Board) -> bool:
    """Sittuyin (docs/rules.md 5.5): king and one pawn, not in check, and every move a promotion."""
    variant = board.variant
    if variant.promotion is not PromotionRule.SEPARATE_MOVE or not variant.promotion_only_draw:
        return False
    mine = [p.piece_type for p in board.piece_map().values() if p.color == board.turn]
    if sorted(mine) != sorted([KING, PAWN]) or board.is_check():
        return False
    moves = list(board.legal_moves)
    return bool(moves) and all(m.promotion is not None for m in moves)


def is_insufficient_material(board: Board) -> bool:
    """Whether neither side can possibly mate (Fairy-Stockfish's test for both sides)."""
    return material.has_insufficient_material(board, True) and material.has_insufficient_material(
        board, False
    )


def _no_move_outcome(board: Board) -> Outcome:
    side = board.turn
    if board.variant.checks_to_win:
        for color in (True, False):
            if board.remaining_checks(color) == 0:
                return Outcome(Termination.FIRST_CHECK, color)  # it used up its checks
    if board.is_check():
        if counting.counter_gave_mate(board):
            return Outcome(Termination.MATE_WHILE_COUNTING, None)
        return Outcome(Termination.CHECKMATE, not side)
    rule = board.variant.stalemate
    if rule is StalemateRule.STALEMATER_LOSES:
        return Outcome(Termination.STALEMATE, side)
    if rule is StalemateRule.REPLAY:
        return Outcome(Termination.REPLAY, None)
    return Outcome(Termination.STALEMATE, None)


def claimable_draw(board: Board) -> Outcome | None:
    """The draw (or perpetual-check loss) a player may claim now, if any."""
    if is_repetition(board):
        if board.variant.perpetual_check is PerpetualCheck.CHECKER_LOSES:
            checker = _perpetual_checker(board)
            if checker is not None:
                return Outcome(Termination.PERPETUAL_CHECK, not checker)
        return Outcome(Termination.REPETITION, None)
    if is_n_move_rule(board):
        return Outcome(Termination.N_MOVE_RULE, None)
    if is_promotion_only_draw(board):
        return Outcome(Termination.PROMOTION_ONLY_DRAW, None)
    if board.variant.korean_material_draws is KoreanDraws.CLAIM and material.korean_material_draw(
        board
    ):
        return Outcome(Termination.KOREAN_MATERIAL_DRAW, None)
    return None


def outcome(board: Board, *, claim_draw: bool = False) -> Outcome | None:
    """How the game has ended by the rules, or ``None`` while it goes on (see
    :meth:`Board.outcome`, which also reports resignations and agreed draws)."""
    if not board.legal_moves:
        return _no_move_outcome(board)
    if counting.counting_limit_reached(board):
        return Outcome(Termination.COUNTING_LIMIT, None)
    variant = board.variant
    if variant.insufficient_material is InsufficientMaterial.DEAD_POSITION and (
        is_insufficient_material(board)
    ):
        return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
    if variant.korean_material_draws is KoreanDraws.AUTO and material.korean_material_draw(board):
        return Outcome(Termination.KOREAN_MATERIAL_DRAW, None)
    if claim_draw:
        return claimable_draw(board)
    return None
