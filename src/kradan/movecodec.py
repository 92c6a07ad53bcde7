"""Translate between kernel move codes (packed ``int32``) and :class:`~kradan.move.Move` objects.

Each variant has one codec. Decoded moves are cached, so turning a list of legal codes into
``Move`` objects is a dictionary lookup per move.
"""

from __future__ import annotations

from functools import cache

from ._core import layout as L
from .move import Move, require_move
from .variants import PromotionRule, Variant


class MoveCodec:
    """Encode and decode moves for one variant."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self._kernel_index = {ptype: index for index, ptype in enumerate(variant.piece_types)}
        self._promotion_kind = (
            L.KIND_PIECE_PROMOTION
            if variant.promotion is PromotionRule.SEPARATE_MOVE
            else L.KIND_PROMOTION
        )
        self._decoded: dict[int, Move] = {}

    def decode(self, code: int) -> Move:
        """The ``Move`` of a kernel code."""
        move = self._decoded.get(code)
        if move is None:
            move = self._decode_new(code)
            self._decoded[code] = move
        return move

    def decode_all(self, codes: list[int]) -> list[Move]:
        """``Move`` objects for a list of kernel codes."""
        get = self._decoded.get
        moves = [get(code) for code in codes]
        if None in moves:
            moves = [self.decode(code) for code in codes]
        return moves  # type: ignore[return-value]

    def _decode_new(self, code: int) -> Move:
        to_sq = code & L.MOVE_TO_MASK
        from_sq = (code >> L.MOVE_FROM_SHIFT) & L.MOVE_TO_MASK
        kind = (code >> L.MOVE_KIND_SHIFT) & L.MOVE_KIND_MASK
        piece = self.variant.piece_types[(code >> L.MOVE_PIECE_SHIFT) & L.MOVE_PIECE_MASK]
        if kind == L.KIND_DROP:
            return Move(to_sq, to_sq, drop=piece)
        if kind in (L.KIND_PROMOTION, L.KIND_PIECE_PROMOTION):
            return Move(from_sq, to_sq, promotion=piece)
        if kind == L.KIND_SUTRA:
            # the piece field holds the mover's colour, which fixes the pawn's direction
            step = 8 if (code >> L.MOVE_PIECE_SHIFT) & L.MOVE_PIECE_MASK == L.WHITE else -8
            return Move(from_sq, to_sq, pawn_step=Move(to_sq, to_sq + step))
        return Move(from_sq, to_sq)

    def encode(self, move: Move) -> int | None:
        """The kernel code of ``move``, or ``None`` when no move of this variant can have it.

        :raises InvalidMoveError: when ``move`` is not a :class:`Move`.
        """
        require_move(move)
        if move.pawn_step is not None:
            step = move.pawn_step
            if step.from_square != move.to_square or step.promotion or step.drop or step.pawn_step:
                return None
            if step.to_square - step.from_square not in (8, -8) or move.promotion or move.drop:
                return None
            color = L.WHITE if step.to_square > step.from_square else L.BLACK
            return _pack(move.from_square, move.to_square, L.KIND_SUTRA, color)
        if move.drop is not None:
            index = self._kernel_index.get(move.drop)
            if index is None:
                return None
            return _pack(0, move.to_square, L.KIND_DROP, index)
        if move.promotion is not None:
            index = self._kernel_index.get(move.promotion)
            if index is None:
                return None
            return _pack(move.from_square, move.to_square, self._promotion_kind, index)
        return _pack(move.from_square, move.to_square, L.KIND_NORMAL, 0)


def _pack(from_sq: int, to_sq: int, kind: int, piece: int) -> int:
    return (
        to_sq
        | (from_sq << L.MOVE_FROM_SHIFT)
        | (kind << L.MOVE_KIND_SHIFT)
        | (piece << L.MOVE_PIECE_SHIFT)
    )


@cache
def codec_for(variant: Variant) -> MoveCodec:
    """The shared codec of a variant."""
    return MoveCodec(variant)
