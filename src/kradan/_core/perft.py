"""Perft: count the leaf nodes of the legal move tree, with or without bulk counting at the leaves.

The walk is iterative (an explicit stack of move lists): numba's on-disk cache mishandles
recursive functions.
"""

from __future__ import annotations

import numpy as np

from .bits import jit_nogil
from .layout import MAX_MOVES
from .makemove import make_move_inline, unmake_move_inline
from .movegen import generate_moves


@jit_nogil
def perft(bbs: np.ndarray, info: np.ndarray, depth: int, bulk: bool) -> int:
    """Leaf nodes at ``depth``; the position is left unchanged."""
    if depth <= 0:
        return 1
    moves = np.empty((depth, MAX_MOVES), dtype=np.int32)
    if bulk and depth == 1:
        return generate_moves(bbs, info, moves[0], True)
    counts = np.zeros(depth, dtype=np.int64)
    next_index = np.zeros(depth, dtype=np.int64)
    counts[0] = generate_moves(bbs, info, moves[0], False)
    nodes = 0
    ply = 0
    while True:
        if next_index[ply] == counts[ply]:
            if ply == 0:
                return nodes
            ply -= 1
            unmake_move_inline(bbs, info)
            continue
        move = moves[ply, next_index[ply]]
        next_index[ply] += 1
        left = depth - ply - 1  # plies still to go below this move
        make_move_inline(bbs, info, move)
        if left == 0:
            nodes += 1
        elif left == 1 and bulk:
            nodes += generate_moves(bbs, info, moves[ply + 1], True)
        else:
            ply += 1
            counts[ply] = generate_moves(bbs, info, moves[ply], False)
            next_index[ply] = 0
            continue
        unmake_move_inline(bbs, info)
