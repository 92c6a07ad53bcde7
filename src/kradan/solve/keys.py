"""The 64-bit key of an Alquerque position: the proof database's index.

The key folds, in this order, White's piece mask, Black's, the kings' mask, the side to move
(0 White, 1 Black), the huff-liable mask and, for each point 0..24, the no-return history of the
piece on it (the points it stood on as a 25-bit mask, or'ed with its start point shifted left
25; 0 for an empty point) through splitmix64: ``h = mix(h ^ word)`` from ``h = SEED``. The move
counters are left out: under Bell's rules they decide nothing.

:func:`state_key` reads a kernel state row (the solver's); :func:`text_key` reads the public
position text (the checker's), so that the two agree only when both are right.
"""

from __future__ import annotations

import numba
import numpy as np

from ..alquerque import _kernel as K

SEED = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1
#: kernel state offsets folded into the key, in order
KEY_WORDS = np.array(
    [K.S_WHITE, K.S_BLACK, K.S_KINGS, K.S_STM, K.S_HUFF, *range(K.S_HISTORY, K.S_HISTORY + 25)],
    dtype=np.int64,
)


def mix(x: int) -> int:
    """splitmix64's finaliser on a 64-bit int (pure Python)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def fold(words: list[int]) -> int:
    """The key of the words in :data:`KEY_WORDS` order (pure Python)."""
    h = SEED
    for word in words:
        h = mix(h ^ (word & _MASK))
    return h


@numba.njit(cache=True, nogil=True)
def _mix_nb(x: np.uint64) -> np.uint64:
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@numba.njit(cache=True, nogil=True)
def state_key_nb(st: np.ndarray, words: np.ndarray) -> np.uint64:
    """The key of a kernel state row (compiled; ``words`` is :data:`KEY_WORDS`)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(words.shape[0]):
        h = _mix_nb(h ^ np.uint64(st[words[i]]))
    return h


def state_key(state: np.ndarray) -> int:
    """The key of a kernel state row, as a Python int."""
    return int(state_key_nb(state, KEY_WORDS))


def text_key(text: str) -> int:
    """The key of a position text (:mod:`kradan.alquerque.text`), read without the kernel."""
    parts = text.split()
    masks = [0, 0, 0]
    history = [0] * 25
    for index, row in enumerate(parts[0].split("/")):
        y, x = 4 - index, 0
        for char in row:
            if char.isdigit():
                x += int(char)
                continue
            p = y * 5 + x
            masks[0 if char.isupper() else 1] |= 1 << p
            if char in "Kk":
                masks[2] |= 1 << p
            history[p] = (1 << p) | (p << 25)
            x += 1
    huff = 0
    if parts[2] != "-":
        for name in parts[2].split(","):
            huff |= 1 << _point(name)
    if len(parts) > 5 and parts[5] != "-":
        for entry in parts[5].split(","):
            current, _, earlier = entry.partition(":")
            points = [_point(earlier[i : i + 2]) for i in range(0, len(earlier), 2)]
            p = _point(current)
            visited = 1 << p
            for q in points:
                visited |= 1 << q
            history[p] = visited | (points[0] << 25)
    side = 0 if parts[1] == "w" else 1
    return fold([masks[0], masks[1], masks[2], side, huff, *history])


def _point(name: str) -> int:
    return (int(name[1]) - 1) * 5 + "abcde".index(name[0])
