"""Kernel entry points for the Python API: one call per question, so dispatch cost stays low."""

from __future__ import annotations

import numpy as np

from . import movegen
from .attacks import checkers_of
from .bits import jit
from .layout import I_STM


@jit
def legal_moves(bbs: np.ndarray, info: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves into ``out``; returns how many.

    Python's entry points: listing and counting are two functions, so that a process that only
    lists moves (the engine before its first search) compiles one copy of the generator.
    """
    return movegen.legal_moves(bbs, info, out)


@jit
def count_legal_moves(bbs: np.ndarray, info: np.ndarray, out: np.ndarray) -> int:
    """How many legal moves there are (``out`` is scratch space)."""
    return movegen.count_legal_moves(bbs, info, out)


@jit
def checkers(bbs: np.ndarray, info: np.ndarray, side_to_move: bool) -> np.uint64:
    """The pieces giving check to the side to move (or, with ``side_to_move`` false, to the side
    that just moved, which only an impossible position has)."""
    color = info[I_STM] if side_to_move else 1 - info[I_STM]
    return checkers_of(bbs, color)


def side_in_check(bbs: np.ndarray, info: np.ndarray) -> bool:
    """Whether the side to move is in check."""
    return bool(checkers(bbs, info, True))


def side_not_to_move_in_check(bbs: np.ndarray, info: np.ndarray) -> bool:
    """Whether the side that just moved is in check (an impossible position)."""
    return bool(checkers(bbs, info, False))
