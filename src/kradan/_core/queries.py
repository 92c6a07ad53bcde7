"""Kernel entry points for the Python API: one call per question, so dispatch cost stays low."""

from __future__ import annotations

import numpy as np

from .attacks import checkers_of, in_check
from .bits import jit
from .layout import I_STM
from .movegen import generate_moves


@jit
def legal_moves_into(bbs: np.ndarray, info: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves into ``out``; returns how many. (Python's entry point: calling
    :func:`generate_moves` with a constant flag keeps numba to one compiled version per flag.)"""
    return generate_moves(bbs, info, out, False)


@jit
def legal_move_count(bbs: np.ndarray, info: np.ndarray, out: np.ndarray) -> int:
    """Number of legal moves (``out`` is scratch space)."""
    return generate_moves(bbs, info, out, True)


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
