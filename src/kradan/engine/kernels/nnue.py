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

from ..._core.bits import jit, lsb, pop_lsb
from ..._core.layout import BB_COLOR, BB_TYPE, PIECE_TYPE_NB

#: inputs: two relative colours x six piece types x 64 squares
FEATURES = 2 * PIECE_TYPE_NB * 64
ROW_BIAS = FEATURES
ROW_OUT_US = FEATURES + 1
ROW_OUT_THEM = FEATURES + 2
NET_ROWS = FEATURES + 3
#: the accumulator's fixed-point scale: an accumulator of QA is 1.0 (the clip's top)
QA = 255
#: the output weights' fixed-point scale (fine: each of the 2H terms is worth up to SCALE
#: centipawns, and int64 sums leave room)
QB = 1024
#: centipawns per unit of the network's output
SCALE = 400
#: the most pieces a position holds, for the feature lists of the training data
MAX_PIECES = 32


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
def refresh(bbs: np.ndarray, net: np.ndarray, acc: np.ndarray) -> None:
    """Both accumulators ``acc[2, H]`` summed from scratch."""
    hidden = net.shape[1]
    for perspective in range(2):
        target = acc[perspective]
        for i in range(hidden):
            target[i] = net[ROW_BIAS, i]
    for color in range(2):
        for ptype in range(PIECE_TYPE_NB):
            pieces = bbs[BB_TYPE + ptype] & bbs[BB_COLOR + color]
            code = (color << 3) | (ptype + 1)
            while pieces:
                sq = lsb(pieces)
                pieces = pop_lsb(pieces)
                for perspective in range(2):
                    row = net[feature(perspective, code, sq)]
                    target = acc[perspective]
                    for i in range(hidden):
                        target[i] += row[i]


@jit
def _change(net: np.ndarray, acc: np.ndarray, piece: int, sq: int, sign: int) -> None:
    hidden = net.shape[1]
    for perspective in range(2):
        row = net[feature(perspective, piece, sq)]
        target = acc[perspective]
        if sign > 0:
            for i in range(hidden):
                target[i] += row[i]
        else:
            for i in range(hidden):
                target[i] -= row[i]


@jit
def update(
    net: np.ndarray,
    before: np.ndarray,
    after: np.ndarray,
    frm: int,
    to: int,
    from_was: int,
    to_was: int,
    from_is: int,
    to_is: int,
) -> None:
    """``after`` (accumulators ``[2, H]``) from ``before`` and the pieces on the move's two
    squares before and after it (0: empty)."""
    after[:, :] = before
    if from_was != from_is:
        if from_was:
            _change(net, after, from_was, frm, -1)
        if from_is:
            _change(net, after, from_is, frm, 1)
    if to != frm and to_was != to_is:
        if to_was:
            _change(net, after, to_was, to, -1)
        if to_is:
            _change(net, after, to_is, to, 1)


@jit
def output(net: np.ndarray, bias: int, acc: np.ndarray, stm: int) -> int:
    """The network's evaluation of the position whose accumulators are ``acc``, in
    centipawns for the side to move ``stm``."""
    hidden = net.shape[1]
    us = acc[stm]
    them = acc[1 - stm]
    out_us = net[ROW_OUT_US]
    out_them = net[ROW_OUT_THEM]
    total = np.int64(0)
    for i in range(hidden):
        a = min(max(us[i], 0), QA)
        b = min(max(them[i], 0), QA)
        total += np.int64(a * a) * out_us[i] + np.int64(b * b) * out_them[i]
    return int((total // QA + bias) * SCALE // (QA * QB))


__all__ = [
    "FEATURES",
    "MAX_PIECES",
    "NET_ROWS",
    "QA",
    "QB",
    "SCALE",
    "feature",
    "mirror_feature",
    "output",
    "refresh",
    "update",
    "white_features",
]
