"""When the engine declares or stops a count (``counting="declared"``; docs/rules.md 2.6.4).

In declared mode a count runs only when a player asks for it, so an engine that never asks
gives away the draws the count exists for, and an engine that counts while winning draws by
mating (the counter's own mate is a draw while its board's-honour count runs). The search
plays moves, not declarations; this policy decides the declarations, by material, the measure
the counting rules themselves use:

* **declare** board's honour when the engine is not ahead and has no mate in one: the count
  can only end in a draw for the side that counts, or be stopped;
* **declare** pieces' honour (with ``pieces_count_optional``) as the lone king at once, and
  restart it (``allow_voluntary_restart``) whenever the restart leaves the stronger side fewer
  moves to mate;
* **stop** its own board's-honour count once it is clearly ahead or has a mate in one, so that
  its mate wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from ..board import Board
from ..counting import BOARD_HONOUR
from ..errors import KradanError

#: how far ahead the counter must be before it stops its count to play for the win
STOP_MARGIN = 200

CountDecision = Literal["declare", "stop"]


def material_balance(board: Board) -> int:
    """The material of the side to move less its opponent's, in the evaluation's centipawns
    (a promoted pawn is a met)."""
    from .kernels.evaluate import VALUES  # on first use: importing players loads no kernel

    kernel_types = board.variant.piece_types
    balance = 0
    for piece in board.piece_map().values():
        value = int(VALUES[kernel_types.index(piece.piece_type)])
        balance += value if piece.color == board.turn else -value
    return balance


def has_mate_in_one(board: Board) -> bool:
    """Whether the side to move can mate at once."""
    return any(board.gives_checkmate(move) for move in board.legal_moves)


def count_decision(board: Board) -> CountDecision | None:
    """What the side to move should do about the count before its move: ``"declare"``,
    ``"stop"`` or nothing (``None``, always so outside declared mode)."""
    state = board.counting_state()
    balance = material_balance(board)
    trial = board.copy()
    if (
        state is not None
        and state.declared
        and state.counting_side == board.turn
        and state.honour == BOARD_HONOUR
        and (balance >= STOP_MARGIN or has_mate_in_one(board))
    ):
        return "stop" if _succeeds(trial.stop_count) else None
    if not _succeeds(trial.declare_count):
        return None
    declared = trial.counting_state()
    if declared is None:  # pragma: no cover - a declaration always starts a count
        return None
    if declared.honour == BOARD_HONOUR:
        return "declare" if balance <= 0 and not has_mate_in_one(board) else None
    if state is None or declared.moves_left < state.moves_left:
        return "declare"  # a lone king's count, or a restart that shortens it
    return None


def apply_count_decision(board: Board) -> CountDecision | None:
    """Make :func:`count_decision`'s declaration or stop on ``board``; returns it."""
    decision = count_decision(board)
    if decision == "declare":
        board.declare_count()
    elif decision == "stop":
        board.stop_count()
    return decision


def _succeeds(change: Callable[[], object]) -> bool:
    try:
        change()
    except KradanError:
        return False
    return True
