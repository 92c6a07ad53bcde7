"""Alquerque moves as the kernel packs them: the origin, each step's or jump's direction, and
the huff taken first (:mod:`kradan.alquerque._kernel` describes the bits)."""

from __future__ import annotations

import numpy as np

from . import _kernel as K
from .geometry import JUMP_TO, STEP
from .move import Move, require_move


def decode(code: int, rules: np.ndarray) -> Move:
    """The :class:`Move` of a kernel move code under ``rules`` (the compiled rules array)."""
    origin = code & 31
    jumps = (code >> K.M_JUMPS_SHIFT) & 15
    path = []
    pos = origin
    if jumps == 0:
        path.append(int(STEP[origin, (code >> K.M_DIRS_SHIFT) & 7]))
    for i in range(jumps):
        pos = int(JUMP_TO[pos, (code >> (K.M_DIRS_SHIFT + 3 * i)) & 7])
        path.append(pos)
    huff = None
    if code & K.HUFF_FLAG and not rules[K.R_HUFF_ALL]:
        huff = (code >> K.HUFF_SHIFT) & 31
    return Move(origin, tuple(path), huff)


def encode(move: Move, state: np.ndarray, rules: np.ndarray) -> int | None:
    """The kernel move code of ``move`` in the position ``state`` (a row of the state stack),
    or ``None`` when it cannot be one.

    :raises InvalidMoveError: when ``move`` is not an Alquerque :class:`Move`.
    """
    code = require_move(move).origin
    if not move.is_capture:
        if len(move.path) != 1:
            return None
        dirs = [d for d in range(8) if STEP[move.origin, d] == move.path[0]]
        if not dirs:
            return None
        code |= dirs[0] << K.M_DIRS_SHIFT
    else:
        pos = move.origin
        for i, landing in enumerate(move.path):
            dirs = [d for d in range(8) if JUMP_TO[pos, d] == landing]
            if not dirs or i >= 12:
                return None
            code |= dirs[0] << (K.M_DIRS_SHIFT + 3 * i)
            pos = landing
        code |= len(move.path) << K.M_JUMPS_SHIFT
    if state[K.S_HUFF]:
        code |= K.HUFF_FLAG
        if not rules[K.R_HUFF_ALL]:
            if move.huff is None:
                return None
            code |= move.huff << K.HUFF_SHIFT
    elif move.huff is not None:
        return None
    return code


__all__ = ["decode", "encode"]
