"""The chess family's transposition table: two entries a bucket, each a key and a packed word.

An entry packs ``move | (score + 32768) << 20 | depth << 36 | bound << 44 | age << 46``; a
word of -1 is an empty entry. A bucket is the pair of entries at an even index. A new entry
takes the slot of its own position, else an empty one, else the one worth least: an entry of an
earlier search (its age differs from the table's) counts as eight plies shallower. The move
``NO_MOVE`` stores "no best move known" and keeps the move an earlier entry had.
"""

from __future__ import annotations

import numpy as np

from ..._core.bits import jit

BOUND_EXACT = 1
BOUND_LOWER = 2
BOUND_UPPER = 3
#: the stored move when the search found none (an all-node): the earlier move stays
NO_MOVE = 0xFFFFF
MATE_BOUND = 29000  # scores beyond this are mates (search.MATE - 1000)
#: a stale entry is worth this many plies less than a current one when a slot is chosen
AGE_PLIES = 8


@jit
def _bucket(tt_keys: np.ndarray, key: np.uint64) -> int:
    return int(np.int64(key & np.uint64(len(tt_keys) - 1)) & ~np.int64(1))


@jit
def tt_probe(tt_keys: np.ndarray, tt_data: np.ndarray, key: np.uint64) -> int:
    """The entry word stored for ``key``, or -1."""
    index = _bucket(tt_keys, key)
    if tt_keys[index] == key and tt_data[index] >= 0:
        return tt_data[index]
    if tt_keys[index + 1] == key and tt_data[index + 1] >= 0:
        return tt_data[index + 1]
    return -1


@jit
def entry_move(entry: int) -> int:
    """The entry's move, or -1 (none, or no entry)."""
    if entry < 0:
        return -1
    move = entry & 0xFFFFF
    return -1 if move == NO_MOVE else move


@jit
def entry_score(entry: int) -> int:
    return ((entry >> 20) & 0xFFFF) - 32768


@jit
def entry_depth(entry: int) -> int:
    return (entry >> 36) & 255


@jit
def entry_bound(entry: int) -> int:
    return (entry >> 44) & 3


@jit
def _worth(entry: int, age: int) -> int:
    if entry < 0:
        return -1000
    stale = ((entry >> 46) & 255) != age
    return entry_depth(entry) - (AGE_PLIES if stale else 0)


@jit
def tt_store(
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    key: np.uint64,
    move: int,
    score: int,
    depth: int,
    bound: int,
    age: int,
) -> None:
    """Store a search result for ``key`` (``move`` -1: none found)."""
    index = _bucket(tt_keys, key)
    if not (tt_keys[index] == key and tt_data[index] >= 0):
        second_holds_it = tt_keys[index + 1] == key and tt_data[index + 1] >= 0
        if second_holds_it or _worth(tt_data[index + 1], age) < _worth(tt_data[index], age):
            index += 1
    old = tt_data[index]
    same = tt_keys[index] == key and old >= 0
    stored_move = NO_MOVE if move < 0 else np.int64(move) & 0xFFFFF
    if same:
        if stored_move == NO_MOVE:
            stored_move = old & 0xFFFFF
        if entry_depth(old) > depth + 2 and bound != BOUND_EXACT and ((old >> 46) & 255) == age:
            # keep the deeper result, but learn the move
            tt_data[index] = (old & ~np.int64(0xFFFFF)) | stored_move
            return
    tt_keys[index] = key
    # 64-bit arithmetic throughout, so the packing is the same with NUMBA_DISABLE_JIT
    # (pure Python, used by mutation testing), where a move arrives as an int32
    tt_data[index] = (
        stored_move
        | ((np.int64(score) + 32768) << 20)
        | (np.int64(depth) << 36)
        | (np.int64(bound) << 44)
        | (np.int64(age & 255) << 46)
    )


@jit
def score_to_tt(score: int, ply: int) -> int:
    """A mate score as distance from this node, as the table keeps it."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@jit
def score_from_tt(score: int, ply: int) -> int:
    """A stored mate score as distance from the root."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


__all__ = [
    "BOUND_EXACT",
    "BOUND_LOWER",
    "BOUND_UPPER",
    "NO_MOVE",
    "entry_bound",
    "entry_depth",
    "entry_move",
    "entry_score",
    "score_from_tt",
    "score_to_tt",
    "tt_probe",
    "tt_store",
]
