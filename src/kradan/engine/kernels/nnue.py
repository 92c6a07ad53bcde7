"""A small efficiently updatable neural network (NNUE) that evaluates chess-family positions.

The network is ``(768 -> H) x 2 -> 1``: each side's *accumulator* is the sum of the rows of a
768 x H matrix chosen by the pieces on the board (a piece's colour relative to that side, its
type and its square, the board turned half round for Black, so both sides see their own king
start on d1), plus a bias. The output weighs the side to move's accumulator and then the
other's, each clipped to [0, 1] and squared (SCReLU), and adds a bias; it is scaled to
centipawns. Weights are integers (``QA`` and ``QB`` fixed-point scales), so the accumulator
updated move by move equals the one summed from scratch, to the bit.

A move changes at most two squares (its origin and its target: Makruk and Ouk have no
castling and no en passant, and a Sittuyin promotion in place or a drop touches one), so the
search updates the accumulators from the pieces on those two squares before and after it.

The network is one int32 array of ``NET_ROWS`` rows of H: the 768 feature rows, the
accumulator's bias, and the output weights for the side to move and for the other side; the
output's bias travels beside it (:mod:`kradan.engine.network` reads and writes them).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..._core.bits import jit, lsb, pop_lsb
from ..._core.layout import BB_COLOR, BB_TYPE, PIECE_TYPE_NB
from ..network import (
    FEATURES,
    MAX_PIECES,
    NET_ROWS,
    OUTPUT_LIMIT,
    QA,
    QB,
    ROW_BIAS,
    ROW_OUT_THEM,
    ROW_OUT_US,
    SCALE,
)

#: what the search is given when it has no network: an array of another type, so that the
#: search is compiled twice and the copy without a network carries none of its code
NO_NETWORK_DTYPE = np.int8


def uses_network(nnue: np.ndarray) -> bool:
    """Whether the search's network array holds a network (int32, with rows)."""
    return bool(nnue.dtype == np.int32 and nnue.shape[0] > 0)


@overload(uses_network)
def _uses_network_compiled(nnue):  # type: ignore[no-untyped-def]  # numba matches bare names
    """In compiled code the answer for the no-network type is a constant, which removes the
    network's branches from that copy of the search."""
    if isinstance(nnue, types.Array) and nnue.dtype == types.int32:
        return lambda nnue: nnue.shape[0] > 0
    return lambda nnue: False


@jit
def feature(perspective: int, piece: int, sq: int) -> int:
    """The input row of ``piece`` (a mailbox code: colour << 3 | type + 1) on ``sq`` as
    ``perspective`` (0 White, 1 Black) sees it."""
    color = piece >> 3
    relative = 0 if color == perspective else 1
    square = sq if perspective == 0 else sq ^ 63
    return (relative * PIECE_TYPE_NB + (piece & 7) - 1) * 64 + square


@jit
def white_features(bbs: np.ndarray, out: np.ndarray) -> int:
    """White's input rows of the position into ``out`` (at least 32 long); returns how many.
    Black's rows follow from these (:func:`mirror_feature`)."""
    n = 0
    for color in range(2):
        for ptype in range(PIECE_TYPE_NB):
            pieces = bbs[BB_TYPE + ptype] & bbs[BB_COLOR + color]
            while pieces:
                sq = lsb(pieces)
                pieces = pop_lsb(pieces)
                out[n] = (color * PIECE_TYPE_NB + ptype) * 64 + sq
                n += 1
    return n


@jit
def mirror_feature(index: int) -> int:
    """Black's input row for the piece that is White's row ``index``."""
    kind = index // 64
    relative_kind = (kind + PIECE_TYPE_NB) % (2 * PIECE_TYPE_NB)
    return relative_kind * 64 + ((index % 64) ^ 63)


@jit
def refresh(bbs: np.ndarray, net: np.ndarray, acc: np.ndarray, row: int) -> None:
    """Both accumulators, rows ``row`` (White's) and ``row + 1`` (Black's) of ``acc``,
    summed from scratch. (The kernels index rows rather than take views of them: numba counts
    references to every view, which costs more than the sums.)"""
    hidden = net.shape[1]
    for perspective in range(2):
        for i in range(hidden):
            acc[row + perspective, i] = net[ROW_BIAS, i]
    for color in range(2):
        for ptype in range(PIECE_TYPE_NB):
            pieces = bbs[BB_TYPE + ptype] & bbs[BB_COLOR + color]
            code = (color << 3) | (ptype + 1)
            while pieces:
                sq = lsb(pieces)
                pieces = pop_lsb(pieces)
                for perspective in range(2):
                    index = feature(perspective, code, sq)
                    for i in range(hidden):
                        acc[row + perspective, i] += net[index, i]


@jit
def _apply(
    net: np.ndarray,
    acc: np.ndarray,
    src: int,
    dst: int,
    off1: int,
    off2: int,
    on1: int,
    on2: int,
) -> None:
    """Row ``dst`` of ``acc`` is row ``src`` with the input rows ``off1`` and ``off2`` taken
    away and ``on1`` and ``on2`` added (-1: none), in one pass for the common cases: a move
    (one off, one on) and a capture (two off, one on)."""
    hidden = net.shape[1]
    if off1 >= 0 and on1 >= 0 and on2 < 0:
        if off2 < 0:
            for i in range(hidden):
                acc[dst, i] = acc[src, i] - net[off1, i] + net[on1, i]
        else:
            for i in range(hidden):
                acc[dst, i] = acc[src, i] - net[off1, i] - net[off2, i] + net[on1, i]
        return
    for i in range(hidden):
        acc[dst, i] = acc[src, i]
    for index in (off1, off2):
        if index >= 0:
            for i in range(hidden):
                acc[dst, i] -= net[index, i]
    for index in (on1, on2):
        if index >= 0:
            for i in range(hidden):
                acc[dst, i] += net[index, i]


@jit
def update(
    net: np.ndarray,
    acc: np.ndarray,
    before: int,
    after: int,
    frm: int,
    to: int,
    from_was: int,
    to_was: int,
    from_is: int,
    to_is: int,
) -> None:
    """The accumulators at rows ``after`` and ``after + 1`` of ``acc`` from those at
    ``before`` and the pieces on the move's two squares before and after it (0: empty)."""
    from_changes = from_was != from_is
    to_changes = to != frm and to_was != to_is
    for perspective in range(2):
        off1 = off2 = on1 = on2 = -1
        if from_changes and from_was:
            off1 = feature(perspective, from_was, frm)
        if from_changes and from_is:
            on1 = feature(perspective, from_is, frm)
        if to_changes and to_was:
            off2 = feature(perspective, to_was, to)
        if to_changes and to_is:
            on2 = feature(perspective, to_is, to)
        if off1 < 0:
            off1, off2 = off2, -1
        if on1 < 0:
            on1, on2 = on2, -1
        _apply(net, acc, before + perspective, after + perspective, off1, off2, on1, on2)


@jit
def output(net: np.ndarray, bias: int, acc: np.ndarray, row: int, stm: int) -> int:
    """The network's evaluation, in centipawns for the side to move ``stm``, of the position
    whose accumulators are rows ``row`` (White's) and ``row + 1`` of ``acc``. Each squared
    activation is taken to 8 bits (``a * a >> 8``), so the sum stays within 32 bits for
    output weights below ``OUTPUT_LIMIT``."""
    hidden = net.shape[1]
    us = row + stm
    them = row + 1 - stm
    total = np.int32(0)
    for i in range(hidden):
        a = min(max(acc[us, i], 0), QA)
        b = min(max(acc[them, i], 0), QA)
        total += ((a * a) >> 8) * net[ROW_OUT_US, i] + ((b * b) >> 8) * net[ROW_OUT_THEM, i]
    return int((np.int64(total) * 256 // QA + bias) * SCALE // (QA * QB))


__all__ = [
    "FEATURES",
    "MAX_PIECES",
    "NET_ROWS",
    "NO_NETWORK_DTYPE",
    "OUTPUT_LIMIT",
    "QA",
    "QB",
    "ROW_BIAS",
    "ROW_OUT_THEM",
    "ROW_OUT_US",
    "SCALE",
    "feature",
    "mirror_feature",
    "output",
    "refresh",
    "update",
    "uses_network",
    "white_features",
]
