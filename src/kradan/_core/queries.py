"""Kernel entry points for the Python API: one call per question, so dispatch cost stays low."""

from __future__ import annotations

import numpy as np

from .attacks import checkers_of, in_check
from .bits import jit
from .layout import I_STM
from .makemove import make_move, unmake_move
from .movegen import generate_moves


@jit
def side_in_check(bbs: np.ndarray, info: np.ndarray) -> bool:
    """Whether the side to move is in check."""
    return in_check(bbs, info[I_STM])


@jit
def side_not_to_move_in_check(bbs: np.ndarray, info: np.ndarray) -> bool:
    """Whether the side that just moved is in check (an impossible position)."""
    return in_check(bbs, 1 - info[I_STM])


@jit
def checkers(bbs: np.ndarray, info: np.ndarray) -> np.uint64:
    """Bitboard of the pieces giving check to the side to move."""
    return checkers_of(bbs, info[I_STM])


@jit
def move_gives_check(bbs: np.ndarray, info: np.ndarray, move: int) -> bool:
    """Whether the legal ``move`` attacks the opponent's king; the position is left unchanged."""
    make_move(bbs, info, move)
    result = in_check(bbs, info[I_STM])
    unmake_move(bbs, info)
    return result


@jit
def reply_count(bbs: np.ndarray, info: np.ndarray, move: int, buffer: np.ndarray) -> int:
    """Number of legal replies to the legal ``move`` (0 after mate); the position is unchanged."""
    make_move(bbs, info, move)
    n = generate_moves(bbs, info, buffer, True)
    unmake_move(bbs, info)
    return n
