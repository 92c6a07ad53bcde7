"""Packing moves and writing them into the move list (shared by every generator)."""

from __future__ import annotations

import numpy as np

from .bits import jit_inline, lsb, pop_lsb, popcount
from .layout import MOVE_FROM_SHIFT, MOVE_KIND_SHIFT, MOVE_PIECE_SHIFT


@jit_inline
def pack_move(from_sq: int, to_sq: int, kind: int, piece: int) -> int:
    """The ``int32`` form of a move used inside the kernel."""
    return (
        to_sq
        | (from_sq << MOVE_FROM_SHIFT)
        | (kind << MOVE_KIND_SHIFT)
        | (piece << MOVE_PIECE_SHIFT)
    )


@jit_inline
def emit(
    out: np.ndarray,
    n: int,
    from_sq: int,
    targets: np.uint64,
    kind: int,
    piece: int,
    count_only: bool,
) -> int:
    """Append one move per target square (or just count them); returns the new length."""
    if count_only:
        return n + popcount(targets)
    head = pack_move(from_sq, 0, kind, piece)
    while targets:
        out[n] = head | lsb(targets)
        targets = pop_lsb(targets)
        n += 1
    return n


@jit_inline
def emit_one(out: np.ndarray, n: int, move: int, count_only: bool) -> int:
    """Append a single packed move (or count it)."""
    if not count_only:
        out[n] = move
    return n + 1
