"""Static evaluation for the chess family, compiled with numba.

Material and piece-square tables, pawn advancement toward promotion, rooks on open files,
mobility, king shelter, pieces in hand (Sittuyin's setup), each with its weight from a row of
``engine/weights.py`` (one set per game, given at run time), and endgame knowledge: a lone king is
driven to the edge and the winning king brought near, and a side that cannot mate gets no credit
for extra material. Scores are centipawns from the side to move's point of view.
"""

from __future__ import annotations

import numba
import numpy as np

from ..._core.attacks import rook_attacks
from ..._core.bits import ZERO, bit, lsb, pop_lsb, popcount
from ..._core.layout import (
    BB_COLOR,
    BB_TYPE,
    I_HAND,
    I_STM,
    KHON,
    KING,
    KNIGHT,
    MET,
    PAWN,
    PIECE_TYPE_NB,
    ROOK,
)
from ..._core.tables import FERZ_ATTACKS, FILE_MASKS, KHON_ATTACKS, KING_ATTACKS, KNIGHT_ATTACKS
from ..weights import (
    MIRROR,
    P_MATERIAL,
    P_MOBILITY,
    P_OPEN_FILE,
    P_PST,
    P_SHELTER,
    P_TEMPO,
    TABLES,
)

jit = numba.njit(cache=True)

#: centipawn values by kernel piece type (pawn, knight, khon, met, rook, king) for move
#: ordering, pruning margins and the game phase; the evaluation's own material weights are
#: in the data file (``engine/weights.py``) and may differ
VALUES = np.array([100, 320, 290, 220, 520, 0], dtype=np.int64)
WINNING_MARGIN = 250  # centipawns ahead in an endgame that call for driving the king


def _centre_bonus(scale: int) -> np.ndarray:
    table = np.zeros(64, dtype=np.int64)
    for sq in range(64):
        file, rank = sq & 7, sq >> 3
        distance = max(abs(2 * file - 7), abs(2 * rank - 7)) // 2  # 0 in the centre .. 3
        table[sq] = scale * (3 - distance)
    return table


EDGE_DISTANCE = _centre_bonus(1)  # 3 in the centre, 0 on the edge
#: Chebyshev distance to the nearest corner (0 in a corner .. 3 in the centre)
CORNER_DISTANCE = np.array(
    [min(max(abs((sq & 7) - x), abs((sq >> 3) - y)) for x in (0, 7) for y in (0, 7))
     for sq in range(64)],
    dtype=np.int64,
)  # fmt: skip
KING_ENDGAME_TABLE = len(TABLES) - 1


@jit
def _side_score(bbs: np.ndarray, info: np.ndarray, color: int, endgame: bool, w: np.ndarray) -> int:
    """One side's share of the weighted sum: material (on the board and in hand),
    piece-square tables, mobility, rooks on open files and king shelter."""
    own = bbs[BB_COLOR + color]
    occupied = bbs[BB_COLOR] | bbs[BB_COLOR + 1]
    flip = 0 if color == 0 else 56
    score = 0
    pawns = bbs[BB_TYPE + PAWN]
    for ptype in range(PIECE_TYPE_NB):
        pieces = bbs[BB_TYPE + ptype] & own
        while pieces:
            sq = lsb(pieces)
            pieces = pop_lsb(pieces)
            square = MIRROR[sq ^ flip]
            if ptype == KING:
                table = KING_ENDGAME_TABLE if endgame else KING
                score += w[P_PST + 32 * table + square]
                continue
            score += w[P_MATERIAL + ptype] + w[P_PST + 32 * ptype + square]
            if ptype == KNIGHT:
                score += w[P_MOBILITY] * popcount(KNIGHT_ATTACKS[sq] & ~own)
            elif ptype == KHON:
                score += w[P_MOBILITY + 1] * popcount(KHON_ATTACKS[color, sq] & ~own)
            elif ptype == MET:
                score += w[P_MOBILITY + 2] * popcount(FERZ_ATTACKS[sq] & ~own)
            elif ptype == ROOK:
                score += w[P_MOBILITY + 3] * popcount(rook_attacks(sq, occupied) & ~own)
                if (FILE_MASKS[sq & 7] & pawns) == ZERO:
                    score += w[P_OPEN_FILE]
    for ptype in range(KING):
        score += w[P_MATERIAL + ptype] * info[I_HAND + color * PIECE_TYPE_NB + ptype]
    king = bbs[BB_TYPE + KING] & own
    if king and not endgame:
        shelter = popcount(KING_ATTACKS[lsb(king)] & own)
        score += w[P_SHELTER] * min(shelter, 4)
    return score


@jit
def _non_pawn_material(bbs: np.ndarray, color: int) -> int:
    own = bbs[BB_COLOR + color]
    total = 0
    for ptype in (KNIGHT, KHON, MET, ROOK):
        total += VALUES[ptype] * popcount(bbs[BB_TYPE + ptype] & own)
    return total


@jit
def is_endgame(bbs: np.ndarray) -> bool:
    """Few pieces left (pawns aside): the king comes out, its shelter no longer counts."""
    return _non_pawn_material(bbs, 0) + _non_pawn_material(bbs, 1) <= 1400


ONE_COLOUR = np.uint64(0x55AA55AA55AA55AA)  # the squares of one colour (b1, a2, ...)


@jit
def _can_mate(bbs: np.ndarray, color: int) -> bool:
    """Rough: a rook, a khon, a pawn that may still promote, or two minor pieces, where mets
    on squares of one colour count as one (they never reach the other squares)."""
    own = bbs[BB_COLOR + color]
    if bbs[BB_TYPE + ROOK] & own or bbs[BB_TYPE + KHON] & own or bbs[BB_TYPE + PAWN] & own:
        return True
    mets = bbs[BB_TYPE + MET] & own
    minors = popcount(bbs[BB_TYPE + KNIGHT] & own)
    minors += (1 if mets & ONE_COLOUR else 0) + (1 if mets & ~ONE_COLOUR else 0)
    return minors >= 2


@jit
def evaluate(bbs: np.ndarray, info: np.ndarray, w: np.ndarray) -> int:
    """The position's value for the side to move, in centipawns, with the weights ``w`` (one
    row of :mod:`kradan.engine.weights`)."""
    us = info[I_STM]
    endgame = is_endgame(bbs)
    white = _side_score(bbs, info, 0, endgame, w)
    black = _side_score(bbs, info, 1, endgame, w)
    score = white - black
    for color in range(2):
        sign = 1 if color == 0 else -1
        own = bbs[BB_COLOR + color]
        theirs = bbs[BB_COLOR + 1 - color]
        ahead = sign * score > 0
        if ahead and not _can_mate(bbs, color) and info[I_HAND + color * PIECE_TYPE_NB + KING] == 0:
            score = score // 8  # extra material that cannot mate is worth little
        if (
            endgame
            and sign * score >= WINNING_MARGIN
            and popcount(theirs) > 1
            and bbs[BB_TYPE + PAWN] & theirs == ZERO
            and _can_mate(bbs, color)
        ):
            # far ahead against pieces only: the same drive, at half strength, so that the
            # stronger side makes progress toward a mate before a count runs out
            their_king = lsb(bbs[BB_TYPE + KING] & theirs)
            our_king = lsb(bbs[BB_TYPE + KING] & own)
            distance = max(abs((our_king & 7) - (their_king & 7)),
                           abs((our_king >> 3) - (their_king >> 3)))  # fmt: skip
            bonus = 10 * (3 - EDGE_DISTANCE[their_king]) + 6 * (
                3 - min(CORNER_DISTANCE[their_king], 3)
            )
            score += sign * (bonus + 3 * (7 - distance))
        if ahead and popcount(theirs) == 1 and bbs[BB_TYPE + KING] & theirs:
            # mop-up: drive the lone king to the edge and into a corner (mets and khons mate
            # only there), and close in on it with the king and every piece
            their_king = lsb(bbs[BB_TYPE + KING] & theirs)
            bonus = 20 * (3 - EDGE_DISTANCE[their_king]) + 15 * (
                3 - min(CORNER_DISTANCE[their_king], 3)
            )
            pieces = own
            while pieces:
                sq = lsb(pieces)
                pieces = pop_lsb(pieces)
                distance = max(abs((sq & 7) - (their_king & 7)), abs((sq >> 3) - (their_king >> 3)))
                weight = 6 if bbs[BB_TYPE + KING] & bit(sq) else 3
                bonus += weight * (7 - distance)
            score += sign * bonus
    return (score if us == 0 else -score) + w[P_TEMPO]
