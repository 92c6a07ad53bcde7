"""Why a move is not legal on a chess-family board, in a sentence a player understands.

``parse_uci`` and ``push`` add it to their ``IllegalMoveError``, so ``kradan play``, the web app
and a programmer all hear the same reason ("there is no piece on b1", "the rook on a1 would
leave White's king in check", "the knight on b1 can go to a3, c3, d2"), as Alquerque's board
already says why. The reason never decides legality: the move generator does; this only
describes a move the generator refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .._core import layout as L
from .._core.attacks import attackers_of_color, in_check
from ..move import Move
from ..pieces import PAWN, piece_name, square_name


@dataclass(frozen=True)
class KernelArrays:
    """The board's kernel arrays and the move's kernel code (``None`` when the kernel cannot
    express it), which the board hands over: the explanation reads them, never changes them."""

    bbs: np.ndarray
    info: np.ndarray
    code: int | None


_SIDE = {True: "White", False: "Black"}


def illegal_reason(board: Any, move: Move, kernel: KernelArrays) -> str:
    """Why ``move`` is not legal on ``board`` (a chess-family board), as ``": reason"``
    (``""`` when it is legal)."""
    if board.is_legal(move):
        return ""
    outcome = board.outcome()
    if outcome is not None:
        return f": the game is over ({outcome.termination.value})"
    legal = list(board.legal_moves)
    side = _SIDE[board.turn]
    if move.drop is not None:
        return _drop_reason(board, move, legal, side)
    piece = board.piece_at(move.from_square)
    origin = square_name(move.from_square)
    if piece is None:
        return f": there is no piece on {origin}"
    name = f"the {piece_name(piece.piece_type)} on {origin}"
    if piece.color != board.turn:
        return f": {name} is {_SIDE[piece.color]}'s, and {side} is to move"
    if any(m.drop is not None for m in legal):
        return f": {side} is still setting up, and drops a piece from the hand"
    if move.to_square == move.from_square and move.promotion is None:
        return f": {name} stays where it is (a move goes to another square)"
    target = board.piece_at(move.to_square)
    moves_away = move.to_square != move.from_square  # a Sittuyin pawn may promote in place
    if move.pawn_step is None and moves_away and target is not None and target.color == board.turn:
        own = piece_name(target.piece_type)
        return f": {side}'s own {own} stands on {square_name(move.to_square)}"
    same_squares = [
        m for m in legal if (m.from_square, m.to_square) == (move.from_square, move.to_square)
    ]
    if same_squares:
        return f": write it as {' or '.join(m.uci() for m in same_squares)}"
    if move.promotion is not None and not any(
        m.promotion is not None for m in legal if m.from_square == move.from_square
    ):
        return f": {name} cannot promote now"
    if reaches(board, move, kernel) and leaves_king_attacked(kernel):
        if board.is_check():
            return f": {side}'s king is in check, and after {name} moves it still is"
        return f": {name} would leave {side}'s king in check"
    targets = sorted(
        {
            square_name(m.to_square)
            for m in legal
            if m.from_square == move.from_square and not m.drop
        }
    )
    if targets:
        return f": {name} can go to {', '.join(targets)}"
    return f": {name} has no legal move"


def _drop_reason(board: Any, move: Move, legal: list[Move], side: str) -> str:
    assert move.drop is not None
    name = piece_name(move.drop)
    if not any(m.drop is not None for m in legal):
        return ": no piece is dropped now (pieces are dropped only while setting up)"
    if board.hand(board.turn).get(move.drop, 0) == 0:
        return f": {side} has no {name} in hand"
    if board.piece_at(move.to_square) is not None:
        return f": {square_name(move.to_square)} is taken"
    return f": a {name} is not dropped on {square_name(move.to_square)} (outside {side}'s camp)"


def reaches(board: Any, move: Move, kernel: KernelArrays) -> bool:
    """Whether the piece on the move's origin could go to its target by the way it moves, kings
    aside (a pawn's step forward, or an attack along its lines)."""
    bbs = kernel.bbs
    colour = L.WHITE if board.turn else L.BLACK
    piece = board.piece_at(move.from_square)
    if piece is not None and piece.piece_type == PAWN and board.piece_at(move.to_square) is None:
        return move.to_square - move.from_square == (8 if board.turn else -8)
    occupied = bbs[L.BB_COLOR] | bbs[L.BB_COLOR + 1]
    attackers = int(attackers_of_color(bbs, colour, move.to_square, occupied))
    return bool(attackers >> move.from_square & 1)


def leaves_king_attacked(kernel: KernelArrays) -> bool:
    """Whether the mover's king is attacked once the move is made on a copy of the position."""
    if kernel.code is None:
        return False
    bbs, info = kernel.bbs.copy(), kernel.info.copy()
    colour = int(info[L.I_STM])
    _core.make_move(bbs, info, kernel.code)
    return bool(in_check(bbs, colour))


__all__ = ["KernelArrays", "illegal_reason", "leaves_king_attacked", "reaches"]
