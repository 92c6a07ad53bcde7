"""The compiled part of Alfonso X's Alquerque tables (:mod:`kradan.egtb.alquerque`): the index
of a position and its inverse, and the walk that writes every position's moves as child
indices. A file of its own that imports only the Alquerque kernel, so that numba's cache
fingerprint (:mod:`kradan._core._cache`) covers it and all it calls."""

from __future__ import annotations

from math import comb

import numba
import numpy as np

from ..alquerque import _kernel as K

POINTS = 25
#: the most pieces (both sides together) a table may hold: 6 takes 12.8M positions
MAX_PIECES = 6

_BINOM = np.array([[comb(n, k) for k in range(MAX_PIECES + 1)] for n in range(POINTS + 1)],
                  dtype=np.int64)  # fmt: skip


# --- indexing (the generator's loop and probing share it) -----------------------------------


@numba.njit(cache=True)
def _popcount(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@numba.njit(cache=True)
def _rank(mask: int) -> int:
    """Colex rank of the set ``mask`` among the sets of its size."""
    rank = 0
    i = 1
    p = 0
    while mask:
        if mask & 1:
            rank += _BINOM[p, i]
            i += 1
        mask >>= 1
        p += 1
    return rank


@numba.njit(cache=True)
def _unrank(rank: int, size: int) -> int:
    """The set of ``size`` elements with colex rank ``rank``."""
    mask = 0
    p = POINTS
    for i in range(size, 0, -1):
        p -= 1
        while _BINOM[p, i] > rank:
            p -= 1
        rank -= _BINOM[p, i]
        mask |= 1 << p
    return mask


@numba.njit(cache=True)
def _compress(mask: int, holes: int) -> int:
    """``mask`` with the points of ``holes`` taken out of the numbering (the points above each
    hole move down one)."""
    out = 0
    q = 0
    for p in range(POINTS):
        if (holes >> p) & 1:
            continue
        if (mask >> p) & 1:
            out |= 1 << q
        q += 1
    return out


@numba.njit(cache=True)
def _expand(mask: int, holes: int) -> int:
    """The inverse of :func:`_compress`."""
    out = 0
    q = 0
    for p in range(POINTS):
        if (holes >> p) & 1:
            continue
        if (mask >> q) & 1:
            out |= 1 << p
        q += 1
    return out


@numba.njit(cache=True)
def index_of(mover: int, opponent: int, table: np.ndarray) -> int:
    """The index of the position with ``mover``'s and ``opponent``'s point masks (-1 when its
    class is not in the table ``offsets`` describes)."""
    m = _popcount(mover)
    o = _popcount(opponent)
    if m > MAX_PIECES or o > MAX_PIECES or m + o > MAX_PIECES:
        return -1
    start = table[m, o]
    if start < 0 or m == 0 or o == 0:
        return -1
    return int(start + _rank(mover) * _BINOM[POINTS - m, o] + _rank(_compress(opponent, mover)))


@numba.njit(cache=True)
def position_of(index: int, m: int, o: int, table: np.ndarray) -> tuple[int, int]:
    """The ``(mover, opponent)`` masks of ``index``, a position of class ``(m, o)``."""
    local = index - table[m, o]
    per_mover = _BINOM[POINTS - m, o]
    mover = _unrank(local // per_mover, m)
    opponent = _expand(_unrank(local % per_mover, o), mover)
    return mover, opponent


# --- the move graph -------------------------------------------------------------------------

#: a child index for a move that captures the opponent's last piece: the mover has won
CAPTURED_ALL = -1


@numba.njit(cache=True)
def walk(
    pieces: int, table: np.ndarray, rules: np.ndarray, first: np.ndarray, children: np.ndarray
) -> int:
    """Count every position's moves into ``first`` (when ``children`` is empty), else write
    each move's child index into ``children`` from ``first[index]`` on; returns the moves."""
    stack = np.zeros((3, K.STATE_NB), dtype=np.int64)
    moves = np.empty(K.MAX_MOVES, dtype=np.int64)
    work = np.zeros(K.WORK_NB, dtype=np.int64)
    fill = children.shape[0] > 0
    total = 0
    for m in range(1, pieces):
        for o in range(1, pieces - m + 1):
            start = table[m, o]
            size = _BINOM[POINTS, m] * _BINOM[POINTS - m, o]
            for index in range(start, start + size):
                mover, opponent = position_of(index, m, o, table)
                stack[0, :] = 0
                stack[0, K.S_WHITE] = mover
                stack[0, K.S_BLACK] = opponent
                n = K.generate(stack, 0, rules, moves, False, work)
                total += n
                if not fill:
                    first[index] = n
                    continue
                at = first[index]
                for i in range(n):
                    K.make(stack, 0, rules, moves[i])
                    # the child, from its mover's (Black's) view
                    left = stack[1, K.S_BLACK]
                    if left == 0:
                        children[at + i] = CAPTURED_ALL
                    else:
                        children[at + i] = index_of(left, stack[1, K.S_WHITE], table)
    return total


__all__ = ["CAPTURED_ALL", "MAX_PIECES", "POINTS", "index_of", "position_of", "walk"]
