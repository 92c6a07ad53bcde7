"""Static evaluation for the chess family, compiled with numba.

Material and piece-square tables, pawn advancement toward promotion, rooks on open files,
mobility, king shelter, passed pawns, pawns that attack pieces, pieces in hand (Sittuyin's
setup), each with a middlegame and an endgame weight from a row of ``engine/weights.py`` (one set
per game, given at run time) blended by the pieces left, and endgame knowledge: a lone king is
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
from ..._core.tables import (
    FERZ_ATTACKS,
    FILE_MASKS,
    KHON_ATTACKS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
)
from ..weights import (
    MIRROR,
    P_ENDGAME,
    P_MATERIAL,
    P_MOBILITY,
    P_OPEN_FILE,
    P_PASSED,
    P_PAWN_THREAT,
    P_PST,
    P_SHELTER,
    P_TEMPO,
    PHASE_MAX,
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


def _passed_spans() -> np.ndarray:
    """The squares ahead of a pawn of each colour on its file and the two beside it: no enemy
    pawn there, and the pawn is passed."""
    spans = np.zeros((2, 64), dtype=np.uint64)
    for color in range(2):
        for sq in range(64):
            file, rank = sq & 7, sq >> 3
            ahead = range(rank + 1, 8) if color == 0 else range(rank)
            squares = [8 * r + f for r in ahead for f in (file - 1, file, file + 1) if 0 <= f < 8]
            spans[color, sq] = np.uint64(sum(1 << s for s in squares))
    return spans


PASSED_SPANS = _passed_spans()
#: the pieces of the start, pawns and kings aside, by their VALUES: the phase's full scale
START_MATERIAL = 2 * (2 * 320 + 2 * 290 + 220 + 2 * 520)


@jit
def _side_score(
    bbs: np.ndarray, info: np.ndarray, color: int, endgame: bool, w: np.ndarray
) -> tuple[int, int]:
    """One side's share of the weighted sums, middlegame and endgame: material (on the board
    and in hand), piece-square tables, mobility, rooks on open files, king shelter, passed
    pawns and the pieces its pawns attack."""
    own = bbs[BB_COLOR + color]
    theirs = bbs[BB_COLOR + 1 - color]
    occupied = own | theirs
    flip = 0 if color == 0 else 56
    early = 0
    late = 0
    pawns = bbs[BB_TYPE + PAWN]
    pawn_attacks = ZERO
    for ptype in range(PIECE_TYPE_NB):
        pieces = bbs[BB_TYPE + ptype] & own
        while pieces:
            sq = lsb(pieces)
            pieces = pop_lsb(pieces)
            square = MIRROR[sq ^ flip]
            if ptype == KING:
                table = KING_ENDGAME_TABLE if endgame else KING
                early += w[P_PST + 32 * table + square]
                late += w[P_ENDGAME + P_PST + 32 * table + square]
                continue
            early += w[P_MATERIAL + ptype] + w[P_PST + 32 * ptype + square]
            late += w[P_ENDGAME + P_MATERIAL + ptype] + w[P_ENDGAME + P_PST + 32 * ptype + square]
            term = -1
            count = 0
            if ptype == PAWN:
                pawn_attacks |= PAWN_ATTACKS[color, sq]
                if PASSED_SPANS[color, sq] & pawns & theirs == ZERO:
                    term = P_PASSED + ((sq ^ flip) >> 3)
                    count = 1
            elif ptype == KNIGHT:
                term, count = P_MOBILITY, popcount(KNIGHT_ATTACKS[sq] & ~own)
            elif ptype == KHON:
                term, count = P_MOBILITY + 1, popcount(KHON_ATTACKS[color, sq] & ~own)
            elif ptype == MET:
                term, count = P_MOBILITY + 2, popcount(FERZ_ATTACKS[sq] & ~own)
            elif ptype == ROOK:
                term, count = P_MOBILITY + 3, popcount(rook_attacks(sq, occupied) & ~own)
                if (FILE_MASKS[sq & 7] & pawns) == ZERO:
                    early += w[P_OPEN_FILE]
                    late += w[P_ENDGAME + P_OPEN_FILE]
            if term >= 0:
                early += w[term] * count
                late += w[P_ENDGAME + term] * count
    for ptype in range(KNIGHT, KING):  # the pieces a pawn attacks (THREATENED)
        count = popcount(pawn_attacks & theirs & bbs[BB_TYPE + ptype])
        early += w[P_PAWN_THREAT + ptype - KNIGHT] * count
        late += w[P_ENDGAME + P_PAWN_THREAT + ptype - KNIGHT] * count
    for ptype in range(KING):
        in_hand = info[I_HAND + color * PIECE_TYPE_NB + ptype]
        early += w[P_MATERIAL + ptype] * in_hand
        late += w[P_ENDGAME + P_MATERIAL + ptype] * in_hand
    king = bbs[BB_TYPE + KING] & own
    if king and not endgame:
        shelter = min(popcount(KING_ATTACKS[lsb(king)] & own), 4)
        early += w[P_SHELTER] * shelter
        late += w[P_ENDGAME + P_SHELTER] * shelter
    return early, late


ENDGAME_MATERIAL = 1400  # at most this much on the board, pawns and kings aside: an endgame


@jit
def board_material(bbs: np.ndarray) -> int:
    """Both sides' material on the board, pawns and kings aside: the one sum from which the
    phase and the endgame test are both derived."""
    total = 0
    for ptype in (KNIGHT, KHON, MET, ROOK):
        total += VALUES[ptype] * popcount(bbs[BB_TYPE + ptype])
    return total


@jit
def phase_of(material: int, info: np.ndarray) -> int:
    """The phase from the board's material (:func:`board_material`) and what is in hand:
    ``PHASE_MAX`` at the start (or above it) .. 0 with none."""
    total = material
    for color in range(2):
        for ptype in (KNIGHT, KHON, MET, ROOK):
            total += VALUES[ptype] * info[I_HAND + color * PIECE_TYPE_NB + ptype]
    return min(total, START_MATERIAL) * PHASE_MAX // START_MATERIAL


@jit
def phase(bbs: np.ndarray, info: np.ndarray) -> int:
    """How much of the start's material is left, pawns and kings aside, on the board or in
    hand: ``PHASE_MAX`` at the start (or above it) .. 0 with none."""
    return phase_of(board_material(bbs), info)


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
def endgame_knowledge(bbs: np.ndarray, info: np.ndarray, score: int, endgame: bool) -> int:
    """``score`` (White's, centipawns) with what a sum of terms does not know: extra material
    that cannot mate is worth little, and a side far ahead drives the enemy king to the edge
    (with pieces left to it, at half strength) and closes in on a lone king."""
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
    return score


@jit
def evaluate(bbs: np.ndarray, info: np.ndarray, w: np.ndarray) -> int:
    """The position's value for the side to move, in centipawns, with the weights ``w`` (one
    row of :mod:`kradan.engine.weights`)."""
    us = info[I_STM]
    material = board_material(bbs)
    endgame = material <= ENDGAME_MATERIAL  # the king comes out; its shelter no longer counts
    # the colours as plain integers: a constant would compile _side_score twice
    white_early, white_late = _side_score(bbs, info, np.int64(0), endgame, w)  # type: ignore[arg-type]
    black_early, black_late = _side_score(bbs, info, np.int64(1), endgame, w)  # type: ignore[arg-type]
    weight = phase_of(material, info)
    early, late = white_early - black_early, white_late - black_late
    score = (early * weight + late * (PHASE_MAX - weight)) // PHASE_MAX
    score = endgame_knowledge(bbs, info, score, endgame)
    return (score if us == 0 else -score) + w[P_TEMPO]


@jit
def network_evaluate(bbs: np.ndarray, info: np.ndarray, raw: int) -> int:
    """The network's value ``raw`` (centipawns for the side to move) with the endgame
    knowledge of :func:`endgame_knowledge`, which the network does not have (the counts)."""
    endgame = board_material(bbs) <= ENDGAME_MATERIAL
    white = raw if info[I_STM] == 0 else -raw
    white = endgame_knowledge(bbs, info, white, endgame)
    return white if info[I_STM] == 0 else -white
