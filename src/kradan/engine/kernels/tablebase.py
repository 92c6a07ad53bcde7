"""Endgame-table probes inside the compiled search (docs/egtb.md).

The tables the search may reach are copied into one byte array, the *slab*, before it starts
(:mod:`kradan.engine.tablebase` chooses them). ``slots`` maps a material signature (how many
rooks, khons, knights and mets each side has, four base-4 digits per side) to where that
table starts in the slab, times two, plus one when the table stores the position's Black as
its White (the stronger side); -1 when the table is not loaded.

A probe answers only what is exact under the count: a drawn table value is a draw; a win or a
loss is a mate score when the count cannot cut it short (a lone king, whose captures never
restart the count, or no count at all in declared counting), and a draw when an automatic count
runs out first; with an n-move rule (Sittuyin) only a mate that comes before its clock runs out.
Everything else (pieces on both sides with a count running, the ply before an automatic count
starts, a mate the n-move clock may cut) is left to the search.
"""

from __future__ import annotations

import numba
import numpy as np

from ..._core.bits import lsb, pop_lsb, popcount
from ..._core.layout import (
    BB_COLOR,
    BB_GATES,
    BB_TYPE,
    I_COUNT_LIMIT,
    I_COUNT_PLY,
    I_RULE50,
    I_STM,
    KHON,
    KING,
    KNIGHT,
    MET,
    PAWN,
    ROOK,
)

#: a probe that has no exact answer: the search goes on
NO_VALUE = 1 << 20
#: table values that are not distances to mate
DRAW = 254
ILLEGAL = 255
#: the pieces besides kings in the tables' slot order (their ``ORDER`` "RSNM")
SLOT_TYPES = (ROOK, KHON, KNIGHT, MET)
#: entries of ``slots``: 4 piece kinds x 2 sides, 0-3 of each
SIGNATURES = 4**8

jit = numba.njit(cache=True)


@jit
def signature(bbs: np.ndarray) -> int:
    """The material signature of the position (counts over 3 give a signature no table has)."""
    code = 0
    for color in range(2):
        own = bbs[BB_COLOR + color]
        for kind in (ROOK, KHON, KNIGHT, MET):
            count = popcount(own & bbs[BB_TYPE + kind])
            code = code * 4 + min(count, 3)
    return code


@jit
def table_index(bbs: np.ndarray, stm: int, flipped: bool) -> int:
    """The position's index in its table (:func:`kradan.egtb.index.index_of`, in the kernel)."""
    strong = 1 if flipped else 0
    mask = 56 if flipped else 0
    kings = bbs[BB_TYPE + KING]
    first = lsb(kings & bbs[BB_COLOR + strong]) ^ mask
    flip = 7 if first & 7 >= 4 else 0
    king = first ^ flip
    table_stm = 1 - stm if flipped else stm
    index = table_stm * 32 + (king >> 3) * 4 + (king & 7)
    index = index * 64 + ((lsb(kings & bbs[BB_COLOR + 1 - strong]) ^ mask) ^ flip)
    for side in (strong, 1 - strong):
        own = bbs[BB_COLOR + side]
        for kind in (ROOK, KHON, KNIGHT, MET):
            pieces = own & bbs[BB_TYPE + kind]
            while pieces:
                index = index * 64 + ((lsb(pieces) ^ mask) ^ flip)
                pieces = pop_lsb(pieces)
    return index


@jit
def probe(
    bbs: np.ndarray,
    info: np.ndarray,
    slab: np.ndarray,
    slots: np.ndarray,
    max_pieces: int,
    declared: bool,
    clock_plies: int,
    mate: int,
    ply: int,
) -> int:
    """The exact score of the position for the side to move (mates as ``mate - plies`` from
    the root at ``ply``), or :data:`NO_VALUE`. ``clock_plies``: the plies of an n-move rule
    (Sittuyin's 100; 0 for none), within which a mate must come to be trusted."""
    occupied = bbs[BB_COLOR] | bbs[BB_COLOR + 1]
    if popcount(occupied) > max_pieces or bbs[BB_TYPE + PAWN] != 0 or bbs[BB_GATES] != 0:
        return NO_VALUE
    entry = slots[signature(bbs)]
    if entry < 0:
        return NO_VALUE
    value = slab[(entry >> 1) + table_index(bbs, info[I_STM], entry & 1 == 1)]
    if value == DRAW:
        return 0
    if value == ILLEGAL:
        return NO_VALUE
    limit = info[I_COUNT_LIMIT]
    kings = bbs[BB_TYPE + KING]
    both_sides = (bbs[BB_COLOR] & ~kings) != 0 and (bbs[BB_COLOR + 1] & ~kings) != 0
    distance = np.int64(value)
    if limit == 0:
        if not declared:
            return NO_VALUE  # an automatic count starts with the next move or the one after
    elif both_sides or declared:
        return NO_VALUE  # a capture may start a new count; a declared count may be stopped
    elif distance > limit + 1 - info[I_COUNT_PLY]:
        return 0  # a lone king and the count runs out before the fastest mate
    if clock_plies and distance > clock_plies - info[I_RULE50]:
        return NO_VALUE  # the n-move rule may end it first, unless a capture resets its clock
    if distance % 2 == 1:
        return int(mate - ply - distance)
    return int(-mate + ply + distance)


__all__ = ["NO_VALUE", "SIGNATURES", "SLOT_TYPES", "probe", "signature", "table_index"]
