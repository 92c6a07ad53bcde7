"""Creating kernel positions and the low-level piece and key updates shared by make and unmake."""

from __future__ import annotations

import numpy as np

from .bits import ZERO, bit, jit, jit_inline, lsb, pop_lsb
from .layout import (
    BB_COLOR,
    BB_GATES,
    BB_KEY,
    BB_STATE_NB,
    BB_TYPE,
    I_BOARD,
    I_CHECKS,
    I_HAND,
    I_STM,
    INFO_STATE_NB,
    MAX_SEARCH_PLY,
    UNDO_BB_NB,
    UNDO_INFO_NB,
    V_CHECK_WINS,
)
from .tables import ZOBRIST_CHECKS, ZOBRIST_GATE, ZOBRIST_HAND, ZOBRIST_PIECE, ZOBRIST_SIDE


def new_arrays(history: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed ``(bbs, info)`` with room for ``history`` made moves plus a search's worth."""
    plies = history + MAX_SEARCH_PLY
    bbs = np.zeros(BB_STATE_NB + plies * UNDO_BB_NB, dtype=np.uint64)
    info = np.zeros(INFO_STATE_NB + plies * UNDO_INFO_NB, dtype=np.int64)
    return bbs, info


def capacity(info: np.ndarray) -> int:
    """How many undo records ``info`` can hold."""
    return (len(info) - INFO_STATE_NB) // UNDO_INFO_NB


def grown(bbs: np.ndarray, info: np.ndarray, plies: int) -> tuple[np.ndarray, np.ndarray]:
    """Copies of ``bbs`` and ``info`` with room for at least ``plies`` undo records."""
    new_bbs, new_info = new_arrays(plies)
    new_bbs[: len(bbs)] = bbs
    new_info[: len(info)] = info
    return new_bbs, new_info


@jit_inline
def piece_color(code: int) -> int:
    """Colour of a non-empty mailbox code."""
    return code >> 3


@jit_inline
def piece_type(code: int) -> int:
    """Kernel piece type of a non-empty mailbox code."""
    return (code & 7) - 1


@jit_inline
def put_piece(bbs: np.ndarray, info: np.ndarray, code: int, square: int) -> None:
    """Place a piece on an empty square, updating bitboards, mailbox and key."""
    b = bit(square)
    bbs[BB_TYPE + piece_type(code)] |= b
    bbs[BB_COLOR + piece_color(code)] |= b
    info[I_BOARD + square] = code
    bbs[BB_KEY] ^= ZOBRIST_PIECE[code, square]


@jit_inline
def remove_piece(bbs: np.ndarray, info: np.ndarray, square: int) -> int:
    """Take the piece off ``square``; returns its code."""
    code = info[I_BOARD + square]
    b = bit(square)
    bbs[BB_TYPE + piece_type(code)] ^= b
    bbs[BB_COLOR + piece_color(code)] ^= b
    info[I_BOARD + square] = 0
    bbs[BB_KEY] ^= ZOBRIST_PIECE[code, square]
    return code


@jit
def compute_key(bbs: np.ndarray, info: np.ndarray) -> np.uint64:
    """The Zobrist key from scratch: pieces, side to move, gates, hands and check counters."""
    key = ZERO
    for square in range(64):
        code = info[I_BOARD + square]
        if code != 0:
            key ^= ZOBRIST_PIECE[code, square]
    if info[I_STM] == 1:
        key ^= ZOBRIST_SIDE[0]
    gates = bbs[BB_GATES]
    while gates:
        key ^= ZOBRIST_GATE[lsb(gates)]
        gates = pop_lsb(gates)
    for color in range(2):
        for ptype in range(6):
            count = info[I_HAND + color * 6 + ptype]
            if count:
                key ^= ZOBRIST_HAND[color, ptype, count]
        if info[V_CHECK_WINS]:
            key ^= ZOBRIST_CHECKS[color, info[I_CHECKS + color]]
    return key
