"""The evaluation's counts, one per weight, for fitting the weights (the Texel method).

``features(bbs, info, out)`` fills ``out`` (``N_PARAMS`` long) with White's counts minus
Black's: how many of each piece, on which squares of the symmetric tables, how many squares
each kind of piece reaches, rooks on open files, king shelter, passed pawns by rank, pieces
attacked by pawns, each split between the middlegame's weight and the endgame's in the
proportion the evaluation blends them (the phase), and +1 or -1 for the tempo (White or Black
to move). The weighted sum ``weights @ out`` is then the evaluation from White's side, as
``evaluate`` computes it before its endgame knowledge (a lone king driven to the edge,
material that cannot mate) and before it rounds the blend down to a whole centipawn:
``tests/test_tuning.py`` holds the two together.
"""

from __future__ import annotations

import numba
import numpy as np

from ..._core.attacks import rook_attacks
from ..._core.bits import ZERO, lsb, pop_lsb, popcount
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
)
from .evaluate import (
    ENDGAME_MATERIAL,
    KING_ENDGAME_TABLE,
    PASSED_SPANS,
    board_material,
    phase_of,
)


@numba.njit(cache=True)
def features(bbs: np.ndarray, info: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` with White's counts minus Black's (see the module's text)."""
    counts = np.zeros(P_ENDGAME)  # one phase's counts; split between the phases at the end
    occupied = bbs[BB_COLOR] | bbs[BB_COLOR + 1]
    pawns = bbs[BB_TYPE + PAWN]
    material = board_material(bbs)
    endgame = material <= ENDGAME_MATERIAL
    for color in range(2):
        sign = 1.0 if color == 0 else -1.0
        own = bbs[BB_COLOR + color]
        theirs = bbs[BB_COLOR + 1 - color]
        flip = 0 if color == 0 else 56
        pawn_attacks = ZERO
        for ptype in range(PIECE_TYPE_NB):
            pieces = bbs[BB_TYPE + ptype] & own
            while pieces:
                sq = lsb(pieces)
                pieces = pop_lsb(pieces)
                square = MIRROR[sq ^ flip]
                if ptype == KING:
                    table = KING_ENDGAME_TABLE if endgame else KING
                    counts[P_PST + 32 * table + square] += sign
                    continue
                counts[P_MATERIAL + ptype] += sign
                counts[P_PST + 32 * ptype + square] += sign
                if ptype == PAWN:
                    pawn_attacks |= PAWN_ATTACKS[color, sq]
                    if PASSED_SPANS[color, sq] & pawns & theirs == ZERO:
                        counts[P_PASSED + ((sq ^ flip) >> 3)] += sign
                elif ptype == KNIGHT:
                    counts[P_MOBILITY] += sign * popcount(KNIGHT_ATTACKS[sq] & ~own)
                elif ptype == KHON:
                    counts[P_MOBILITY + 1] += sign * popcount(KHON_ATTACKS[color, sq] & ~own)
                elif ptype == MET:
                    counts[P_MOBILITY + 2] += sign * popcount(FERZ_ATTACKS[sq] & ~own)
                elif ptype == ROOK:
                    counts[P_MOBILITY + 3] += sign * popcount(rook_attacks(sq, occupied) & ~own)
                    if (FILE_MASKS[sq & 7] & pawns) == ZERO:
                        counts[P_OPEN_FILE] += sign
        for ptype in range(KNIGHT, KING):
            attacked = popcount(pawn_attacks & theirs & bbs[BB_TYPE + ptype])
            counts[P_PAWN_THREAT + ptype - KNIGHT] += sign * attacked
        for ptype in range(KING):
            counts[P_MATERIAL + ptype] += sign * info[I_HAND + color * PIECE_TYPE_NB + ptype]
        king = bbs[BB_TYPE + KING] & own
        if king and not endgame:
            counts[P_SHELTER] += sign * min(popcount(KING_ATTACKS[lsb(king)] & own), 4)
    weight = phase_of(material, info) / PHASE_MAX
    out[:P_ENDGAME] = counts * weight
    out[P_ENDGAME:P_TEMPO] = counts * (1.0 - weight)
    out[P_TEMPO] = 1.0 if info[I_STM] == 0 else -1.0
