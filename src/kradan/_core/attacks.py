"""Attack queries on a kernel position: rook lookups, attackers of a square, checkers, pins."""

from __future__ import annotations

import numpy as np

from .bits import ZERO, jit, jit_inline, lsb, pop_lsb, popcount
from .layout import BB_COLOR, BB_TYPE, KHON, KING, KNIGHT, MET, PAWN, ROOK
from .tables import (
    A_FILE,
    BETWEEN,
    FERZ_ATTACKS,
    FILE_LOOKUP,
    FILE_MAGIC,
    KHON_ATTACKS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    RANK_LOOKUP,
    ROOK_EMPTY_ATTACKS,
)

_SIX = np.uint64(63)
_SHIFT_58 = np.uint64(58)


@jit_inline
def rook_attacks(square: int, occupied: np.uint64) -> np.uint64:
    """Squares a rook on ``square`` attacks, stopping at the first piece in each direction."""
    file = square & 7
    rank_shift = np.uint64((square & 56) + 1)
    rank_index = (occupied >> rank_shift) & _SIX
    file_bits = (occupied >> np.uint64(file)) & A_FILE
    file_index = (file_bits * FILE_MAGIC) >> _SHIFT_58
    return RANK_LOOKUP[square, rank_index] | FILE_LOOKUP[square, file_index]


@jit
def attackers_of_color(bbs: np.ndarray, color: int, square: int, occupied: np.uint64) -> np.uint64:
    """Pieces of ``color`` that attack ``square``, with ``occupied`` blocking the rooks."""
    mine = bbs[BB_COLOR + color]
    result = KNIGHT_ATTACKS[square] & bbs[BB_TYPE + KNIGHT]
    result |= KING_ATTACKS[square] & bbs[BB_TYPE + KING]
    result |= FERZ_ATTACKS[square] & (bbs[BB_TYPE + MET] | bbs[BB_TYPE + KHON])
    # a pawn or khon of ``color`` attacks ``square`` when ``square`` is in its forward set,
    # i.e. when it stands where the opposite colour's pawn on ``square`` would attack
    result |= PAWN_ATTACKS[1 - color, square] & bbs[BB_TYPE + PAWN]
    result |= (KHON_ATTACKS[1 - color, square] & ~FERZ_ATTACKS[square]) & bbs[BB_TYPE + KHON]
    result |= rook_attacks(square, occupied) & bbs[BB_TYPE + ROOK]
    return result & mine


@jit
def is_attacked(bbs: np.ndarray, color: int, square: int, occupied: np.uint64) -> bool:
    """Whether any piece of ``color`` attacks ``square``."""
    return attackers_of_color(bbs, color, square, occupied) != ZERO


@jit_inline
def king_square(bbs: np.ndarray, color: int) -> int:
    """Square of the king of ``color`` (the position always has one)."""
    return lsb(bbs[BB_TYPE + KING] & bbs[BB_COLOR + color])


@jit
def checkers_of(bbs: np.ndarray, color: int) -> np.uint64:
    """Enemy pieces giving check to the king of ``color`` (none while the king is in hand)."""
    king = bbs[BB_TYPE + KING] & bbs[BB_COLOR + color]
    if king == ZERO:
        return ZERO
    occupied = bbs[BB_COLOR] | bbs[BB_COLOR + 1]
    return attackers_of_color(bbs, 1 - color, lsb(king), occupied)


@jit
def in_check(bbs: np.ndarray, color: int) -> bool:
    """Whether the king of ``color`` is attacked."""
    return checkers_of(bbs, color) != ZERO


@jit
def pinned_pieces(bbs: np.ndarray, color: int, king_sq: int, occupied: np.uint64) -> np.uint64:
    """Own pieces that alone stand between the own king and an enemy rook on its rank or file."""
    pinned = ZERO
    snipers = ROOK_EMPTY_ATTACKS[king_sq] & bbs[BB_TYPE + ROOK] & bbs[BB_COLOR + 1 - color]
    while snipers:
        sniper = lsb(snipers)
        snipers = pop_lsb(snipers)
        blockers = BETWEEN[king_sq, sniper] & occupied
        if blockers != ZERO and popcount(blockers) == 1:
            pinned |= blockers & bbs[BB_COLOR + color]
    return pinned
