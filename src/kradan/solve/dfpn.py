"""Depth-first proof-number search (Nagai's df-pn with Pawlewicz and Lew's 1+epsilon trick) on
the compiled Alquerque kernel, for Bell's rules: no draws, a side without moves loses.

Numbers are from the side to move (phi: proof that it wins, delta: disproof), so every node
is an OR node: ``phi(n) = min delta(child)``, ``delta(n) = sum phi(child)``. A new child starts at
``phi = 1``, ``delta = its number of moves`` (a child with none is a proven loss for its mover,
which proves the node at once). Games cannot repeat (no-return rule), so there is no cycle to
handle.

The transposition table is four-way buckets, replaced by least work. Proven positions come
from it, from the proof database (sorted keys, searched on a table miss), and each position
proven is written to the ``found`` buffer (key, packed record) for the caller to save. A search
stops when its node budget is spent or the buffer is nearly full; the table keeps the numbers,
so the next call goes on where it stopped.
"""

from __future__ import annotations

import numba
import numpy as np

from ..alquerque import _kernel as K
from .keys import KEY_WORDS, state_key_nb

INF = 1 << 40
#: a record: the winning move (0 for a loss) | the value << VALUE_SHIFT
VALUE_SHIFT = 60
WIN = 1
LOSS = 2
MAX_DEPTH = 96  # plies below the searched position; a Bell game lasts at most about 70
WIDTH = 512  # moves kept per ply (Bell positions have a few dozen)

# the context array
C_NODES = 0
C_LIMIT = 1
C_FOUND = 2  # records in the found buffer
C_EPS_NUM = 3  # epsilon as a fraction NUM / 64
C_DB_HITS = 4
NB_CONTEXT = 8

jit = numba.njit(cache=True, nogil=True)


@jit
def _probe(tt_key: np.ndarray, key: np.uint64) -> int:
    base = int(key & np.uint64(tt_key.shape[0] - 1)) & ~3
    for i in range(base, base + 4):
        if tt_key[i] == key:
            return i
    return -1


@jit
def _store(
    tt_key: np.ndarray, tt_num: np.ndarray, key: np.uint64, phi: int, delta: int, work: int,
    move: int,
) -> None:  # fmt: skip
    base = int(key & np.uint64(tt_key.shape[0] - 1)) & ~3
    slot = -1
    least = INF * 4
    for i in range(base, base + 4):
        if tt_key[i] == key:
            slot = i
            break
        weight = tt_num[i, 2]
        if tt_num[i, 0] == 0 or tt_num[i, 1] == 0:
            weight += INF  # keep proven positions longest
        if weight < least:
            least = weight
            slot = i
    tt_key[slot] = key
    tt_num[slot, 0] = phi
    tt_num[slot, 1] = delta
    tt_num[slot, 2] = work
    tt_num[slot, 3] = move


@jit
def _db_find(db_keys: np.ndarray, key: np.uint64) -> int:
    n = db_keys.shape[0]
    if n == 0:
        return -1
    i = np.searchsorted(db_keys, key)
    if i < n and db_keys[i] == key:
        return int(i)
    return -1


@jit
def _record(found_keys: np.ndarray, found_recs: np.ndarray, ctx: np.ndarray, key: np.uint64,
            rec: int) -> None:  # fmt: skip
    i = ctx[C_FOUND]
    if i < found_keys.shape[0]:
        found_keys[i] = key
        found_recs[i] = rec
        ctx[C_FOUND] = i + 1


@jit
def _child_numbers(
    stack: np.ndarray, ply: int, rules: np.ndarray, key: np.uint64, tt_key: np.ndarray,
    tt_num: np.ndarray, db_keys: np.ndarray, db_recs: np.ndarray, scratch: np.ndarray,
    work: np.ndarray, ctx: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """(phi, delta) of the position ``stack[ply]`` with key ``key``, into ``out``."""
    i = _probe(tt_key, key)
    if i >= 0:
        out[0] = tt_num[i, 0]
        out[1] = tt_num[i, 1]
        return
    j = _db_find(db_keys, key)
    if j >= 0:
        ctx[C_DB_HITS] += 1
        if (db_recs[j] >> VALUE_SHIFT) == WIN:
            out[0] = 0
            out[1] = INF
        else:
            out[0] = INF
            out[1] = 0
        _store(tt_key, tt_num, key, out[0], out[1], 0, db_recs[j] & ((1 << VALUE_SHIFT) - 1))
        return
    n = K.generate(stack, ply, rules, scratch, True, work)
    if n == 0:
        out[0] = INF
        out[1] = 0
        _store(tt_key, tt_num, key, INF, 0, 0, 0)
    else:
        out[0] = 1
        out[1] = n


@jit
def _mid(
    stack: np.ndarray, ply: int, rules: np.ndarray, root_key: np.uint64, tt_key: np.ndarray,
    tt_num: np.ndarray, db_keys: np.ndarray, db_recs: np.ndarray, found_keys: np.ndarray,
    found_recs: np.ndarray, ctx: np.ndarray,
) -> None:  # fmt: skip
    """Search ``stack[ply]`` until it is proven or the budget ends (an explicit stack of
    frames, one per ply below it: numba's recursion does not survive its cache); every node's
    numbers are left in the table."""
    moves = np.zeros((MAX_DEPTH, K.MAX_MOVES), dtype=np.int64)
    keys = np.zeros((MAX_DEPTH, WIDTH), dtype=np.uint64)
    frame_key = np.zeros(MAX_DEPTH, dtype=np.uint64)
    th_phi = np.zeros(MAX_DEPTH, dtype=np.int64)
    th_delta = np.zeros(MAX_DEPTH, dtype=np.int64)
    counts = np.zeros(MAX_DEPTH, dtype=np.int64)
    starts = np.zeros(MAX_DEPTH, dtype=np.int64)
    scratch = np.zeros(K.MAX_MOVES, dtype=np.int64)
    work = np.zeros(K.WORK_NB, dtype=np.int64)
    cur = np.zeros(2, dtype=np.int64)
    eps = ctx[C_EPS_NUM]
    depth = 0
    frame_key[0] = root_key
    th_phi[0] = INF
    th_delta[0] = INF
    entering = True
    while depth >= 0:
        p = ply + depth
        if entering:
            entering = False
            ctx[C_NODES] += 1
            starts[depth] = ctx[C_NODES]
            n = K.generate(stack, p, rules, moves[depth], False, work)
            if n == 0:
                _store(tt_key, tt_num, frame_key[depth], INF, 0, 1, 0)
                depth -= 1
                continue
            n = min(n, WIDTH)
            counts[depth] = n
            for c in range(n):
                K.make(stack, p, rules, moves[depth, c])
                keys[depth, c] = state_key_nb(stack[p + 1], KEY_WORDS)
        n = counts[depth]
        key = frame_key[depth]
        phi = INF
        delta = 0
        best = -1
        best_delta = INF
        second = INF
        best_phi = 0
        for c in range(n):
            K.make(stack, p, rules, moves[depth, c])
            _child_numbers(stack, p + 1, rules, keys[depth, c], tt_key, tt_num, db_keys,
                           db_recs, scratch, work, ctx, cur)  # fmt: skip
            cphi = cur[0]
            cdelta = cur[1]
            if cdelta < best_delta:
                second = best_delta
                best_delta = cdelta
                best = c
                best_phi = cphi
            elif cdelta < second:
                second = cdelta
            if cdelta < phi:
                phi = cdelta
            if cphi >= INF:
                delta = INF
            elif delta < INF:
                delta = min(delta + cphi, INF - 1)
            if cdelta == 0:
                break  # a move that wins: proven
        spent = ctx[C_NODES] - starts[depth] + 1
        if phi == 0:
            move = moves[depth, best]
            _store(tt_key, tt_num, key, 0, INF, spent, move)
            _record(found_keys, found_recs, ctx, key, move | (WIN << VALUE_SHIFT))
            depth -= 1
            continue
        if delta == 0:
            _store(tt_key, tt_num, key, INF, 0, spent, 0)
            _record(found_keys, found_recs, ctx, key, LOSS << VALUE_SHIFT)
            depth -= 1
            continue
        if (
            phi >= th_phi[depth]
            or delta >= th_delta[depth]
            or ctx[C_NODES] >= ctx[C_LIMIT]
            or ctx[C_FOUND] >= found_keys.shape[0] - 2 * MAX_DEPTH  # room to unwind
            or depth + 2 >= MAX_DEPTH
        ):
            _store(tt_key, tt_num, key, phi, delta, spent, 0)
            depth -= 1
            continue
        child_th_phi = th_delta[depth] - delta + best_phi
        if child_th_phi > INF:
            child_th_phi = INF
        grown = second + (second * eps) // 64 + 1 if second < INF else INF
        K.make(stack, p, rules, moves[depth, best])
        depth += 1
        frame_key[depth] = keys[depth - 1, best]
        th_phi[depth] = child_th_phi
        th_delta[depth] = min(th_phi[depth - 1], grown)
        entering = True


@jit
def search(
    stack: np.ndarray, ply: int, rules: np.ndarray, tt_key: np.ndarray, tt_num: np.ndarray,
    db_keys: np.ndarray, db_recs: np.ndarray, found_keys: np.ndarray, found_recs: np.ndarray,
    ctx: np.ndarray, result: np.ndarray,
) -> None:  # fmt: skip
    """Search ``stack[ply]`` until it is proven or ``ctx[C_LIMIT]`` nodes are spent; its phi,
    delta and (for a win) winning move go to ``result``. ``stack`` needs MAX_DEPTH free rows."""
    key = state_key_nb(stack[ply], KEY_WORDS)
    j = _db_find(db_keys, key)
    if j >= 0:
        win = (db_recs[j] >> VALUE_SHIFT) == WIN
        result[0] = 0 if win else INF
        result[1] = INF if win else 0
        result[2] = db_recs[j] & ((1 << VALUE_SHIFT) - 1)
        return
    _mid(stack, ply, rules, key, tt_key, tt_num, db_keys, db_recs, found_keys, found_recs, ctx)
    i = _probe(tt_key, key)
    result[0] = tt_num[i, 0]
    result[1] = tt_num[i, 1]
    result[2] = tt_num[i, 3]
