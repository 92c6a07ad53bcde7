"""Compile (or load from numba's on-disk cache) every kernel entry point the Python API uses."""

from __future__ import annotations

import os
import sys

import numpy as np

from . import layout as L
from .makemove import make_move, unmake_move
from .movegen import generate_moves
from .perft import perft, perft_divide
from .position import compute_key, new_arrays
from .queries import (
    checkers,
    move_gives_check,
    reply_count,
    side_in_check,
    side_not_to_move_in_check,
)

ENTRY_POINTS = (
    generate_moves,
    make_move,
    unmake_move,
    perft,
    perft_divide,
    compute_key,
    checkers,
    move_gives_check,
    reply_count,
    side_in_check,
    side_not_to_move_in_check,
)


def is_cached() -> bool:
    """Whether numba's on-disk cache already holds compiled code for every entry point."""
    for function in ENTRY_POINTS:
        try:
            cache = function._cache  # type: ignore[union-attr]  # numba internals
            index_path = cache._cache_file._index_path
        except AttributeError:
            return True  # JIT disabled or an unknown numba layout: nothing to announce
        if not os.path.exists(index_path):
            return False
    return True


def _tiny_position() -> tuple[np.ndarray, np.ndarray]:
    """Two kings and a pawn each: enough to run every entry point once."""
    bbs, info = new_arrays()
    for color, king_sq, pawn_sq in ((L.WHITE, 3, 19), (L.BLACK, 60, 44)):
        for ptype, sq in ((L.KING, king_sq), (L.PAWN, pawn_sq)):
            info[L.I_BOARD + sq] = L.piece_code(color, ptype)
            bit = np.uint64(1) << np.uint64(sq)
            bbs[L.BB_TYPE + ptype] |= bit
            bbs[L.BB_COLOR + color] |= bit
    bbs[L.BB_KEY] = compute_key(bbs, info)
    return bbs, info


def announce_compilation() -> None:
    """Say on stderr that the first run compiles, when numba's cache is still empty."""
    if not is_cached():
        print(
            "kradan: compiling the move generator (first run only, about 15 s) ...",
            file=sys.stderr,
            flush=True,
        )


def compile_all(announce: bool = False) -> None:
    """Run every entry point once so later calls are fast; optionally say so on stderr first."""
    if announce:
        announce_compilation()
    bbs, info = _tiny_position()
    buffer = np.empty(L.MAX_MOVES, dtype=np.int32)
    counts = np.empty(L.MAX_MOVES, dtype=np.int64)
    n = generate_moves(bbs, info, buffer, False)
    move = int(buffer[0])
    make_move(bbs, info, move)
    unmake_move(bbs, info)
    perft(bbs, info, 1, True)
    perft_divide(bbs, info, 1, True, buffer, counts)
    move_gives_check(bbs, info, move)
    reply_count(bbs, info, move, buffer)
    checkers(bbs, info)
    side_in_check(bbs, info)
    side_not_to_move_in_check(bbs, info)
    assert n > 0
