"""The compiled alpha-beta search for Alquerque.

Negamax with move ordering (the previous best move from a table keyed by the masks, the side,
pending huffs and, where Bell's no-return rule reads them, the pieces' histories; longer chains
first; killers), and an evaluation of material, mobility and advancement. A side with
no piece has lost; a side with no move has lost under Bell's rules and drawn under Alfonso X's.
Captures are compulsory by default, so positions with captures pending are searched further.

Alfonso X's table (docs/egtb.md, "Alfonso X's tables"), when the driver hands one over
(``C_TABLE``), answers every node below the root that a capture has just reached with few
enough pieces: there no earlier position can repeat, and the no-capture count starts afresh,
so the table's value is the game's (a win or loss only when it comes within the limit).
"""

from __future__ import annotations

import numba
import numpy as np

from ...alquerque import _kernel as K
from ...egtb._alquerque_kernel import index_of

MATE = 30000
INFINITE = 32000
MATE_BOUND = MATE - 1000
MAX_PLY = 96

C_STOP = 0
C_NODES = 1
C_NODE_LIMIT = 2
C_SELDEPTH = 3
C_BELL = 4  # 1: no move loses (Bell); 0: no move draws (Alfonso X)
C_LIMIT = 5  # plies without a capture that end the game (0: no limit)
C_MORE_WINS = 6  # at the limit with unequal counts, 1: more pieces win; 0: play on
C_HISTORY = 7  # 1: the pieces' histories are part of a position (the no-return rule reads them)
C_ROOT = 8  # the ply of the root (repetitions count only below it)
C_TABLE = 9  # the most pieces Alfonso X's table holds (0: no table probed in the search)
CTX_NB = 10

MAN, KING = 100, 260

_MIX = np.array(
    [0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 0x2545F4914F6CDD1D,
     0xD6E8FEB86659FD93, 0xA0761D6478BD642F],
    dtype=np.uint64,
)  # fmt: skip


@numba.njit(cache=True)
def position_key(st: np.ndarray, history: bool) -> np.uint64:
    """A 64-bit key of the position for the transposition table."""
    key = np.uint64(0)
    for i in range(K.S_HISTORY if not history else K.STATE_NB):
        if i == K.S_NO_CAPTURE or i == K.S_PLY:
            continue
        key ^= np.uint64(st[i]) * _MIX[i % 6] + np.uint64(i)
        key = (key << np.uint64(13)) | (key >> np.uint64(51))
    return key


@numba.njit(cache=True)
def repeated(stack: np.ndarray, ply: int, history: bool) -> bool:
    """Whether ``stack[ply]`` already occurred since the last capture (a draw in the search)."""
    st = stack[ply]
    last = st[K.S_NO_CAPTURE]
    back = 2
    while back <= last and back <= ply:
        old = stack[ply - back]
        same = True
        for i in range(K.S_HISTORY if not history else K.STATE_NB):
            if i != K.S_NO_CAPTURE and i != K.S_PLY and old[i] != st[i]:
                same = False
                break
        if same:
            return True
        back += 2
    return False


@numba.njit(cache=True)
def count_pieces(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@numba.njit(cache=True)
def evaluate_at(
    stack: np.ndarray, ply: int, rules: np.ndarray, work: np.ndarray, scratch: np.ndarray,
    dummy: np.ndarray,
) -> int:  # fmt: skip
    """Material, mobility and (under Bell's rules) advancement, for the side to move."""
    st = stack[ply]
    us = st[K.S_STM]
    score = 0
    for color in range(2):
        sign = 1 if color == us else -1
        own = st[K.S_WHITE + color]
        kings = st[K.S_KINGS] & own
        for p in range(25):
            if (own >> p) & 1:
                if (kings >> p) & 1:
                    score += sign * KING
                else:
                    score += sign * MAN
                    if rules[K.R_BELL]:
                        row = p // 5
                        score += sign * 3 * (row if color == 0 else 4 - row)
    scratch[0] = st
    mine = K.generate(scratch, 0, rules, dummy, True, work)
    scratch[0] = st
    scratch[0, K.S_STM] = 1 - us
    scratch[0, K.S_HUFF] = 0
    theirs = K.generate(scratch, 0, rules, dummy, True, work)
    return score + 4 * (mine - theirs) + 8


@numba.njit(cache=True)
def table_score(
    st: np.ndarray, height: int, ctx: np.ndarray, values: np.ndarray, offsets: np.ndarray
) -> int:
    """The table's exact score of ``st`` (a position just after a capture), or ``INFINITE``
    when the table does not answer: too many pieces, a king or a huff, or a win or loss
    beyond the no-capture limit."""
    us = st[K.S_STM]
    own = st[K.S_WHITE + us]
    opp = st[K.S_WHITE + 1 - us]
    if st[K.S_KINGS] or st[K.S_HUFF] or count_pieces(own) + count_pieces(opp) > ctx[C_TABLE]:
        return INFINITE
    value = int(values[index_of(own, opp, offsets)])
    if value == 0:
        return 0
    plies = abs(value)
    if ctx[C_LIMIT] and plies > ctx[C_LIMIT]:
        return INFINITE
    return MATE - height - plies if value > 0 else height + plies - MATE


_SEARCH_SIGNATURE = (
    "int64(int64[:, ::1], int64, int64, int64, int64, int64[::1], int64[::1], uint64[::1],"
    " int64[::1], int64[:, ::1], int64[:, ::1], int64[:, ::1], int64[::1], int64[:, ::1],"
    " int64[::1], int64[:, ::1], int64[::1], int8[::1], int64[:, ::1])"
)


@numba.njit(_SEARCH_SIGNATURE, cache=True)
def search(
    stack: np.ndarray,
    ply: int,
    depth: int,
    alpha: int,
    beta: int,
    rules: np.ndarray,
    ctx: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    moves: np.ndarray,
    pv: np.ndarray,
    pv_length: np.ndarray,
    scores: np.ndarray,
    work: np.ndarray,
    scratch: np.ndarray,
    dummy: np.ndarray,
    table_values: np.ndarray,
    table_offsets: np.ndarray,
) -> int:
    """Negamax alpha-beta from ``stack[ply]``; the score is for the side to move."""
    height: int = ply - ctx[C_ROOT]
    pv_length[height] = 0
    ctx[C_NODES] += 1
    if ctx[C_NODE_LIMIT] and ctx[C_NODES] >= ctx[C_NODE_LIMIT]:  # to the node
        ctx[C_STOP] = 1
    if ctx[C_STOP]:
        return 0
    if height > ctx[C_SELDEPTH]:
        ctx[C_SELDEPTH] = height
    st = stack[ply]
    us = st[K.S_STM]
    if st[K.S_WHITE + us] == 0:
        return height - MATE  # every piece taken
    buffer = moves[height]
    n = K.generate(stack, ply, rules, buffer, False, work)
    if n == 0:
        return height - MATE if ctx[C_BELL] else 0
    if ply > ctx[C_ROOT] and repeated(stack, ply, ctx[C_HISTORY] != 0):
        return 0
    if ctx[C_LIMIT] and st[K.S_NO_CAPTURE] >= ctx[C_LIMIT]:
        mine = count_pieces(st[K.S_WHITE + us])
        theirs = count_pieces(st[K.S_WHITE + 1 - us])
        if mine == theirs:
            return 0
        if ctx[C_MORE_WINS]:
            return MATE - height if mine > theirs else height - MATE
        # otherwise unequal counts play on
    if ctx[C_TABLE] and ply > ctx[C_ROOT] and st[K.S_NO_CAPTURE] == 0:
        known = table_score(st, height, ctx, table_values, table_offsets)
        if known != INFINITE:
            return known
    capturing = (buffer[0] >> K.M_JUMPS_SHIFT) & 15 > 0 and rules[K.R_FORCED] != 0
    if (depth <= 0 and not capturing) or height >= MAX_PLY - 2:
        return evaluate_at(stack, ply, rules, work, scratch, dummy)
    key = position_key(st, ctx[C_HISTORY] != 0)
    index = np.int64(key & np.uint64(len(tt_keys) - 1))
    tt_move = tt_data[index] if tt_keys[index] == key else -1  # the table orders moves only
    line = scores[height]
    for i in range(n):
        move = buffer[i]
        value = ((move >> K.M_JUMPS_SHIFT) & 15) * 1000
        if move == tt_move:
            value = 1 << 40
        elif move == killers[height, 0] or move == killers[height, 1]:
            value += 500
        line[i] = value
    best = -INFINITE
    best_move = buffer[0]
    for i in range(n):
        pick = i
        for j in range(i + 1, n):
            if line[j] > line[pick]:
                pick = j
        buffer[i], buffer[pick] = buffer[pick], buffer[i]
        line[i], line[pick] = line[pick], line[i]
        move = buffer[i]
        K.make(stack, ply, rules, move)
        score = -search(stack, ply + 1, depth - 1, -beta, -alpha, rules, ctx, tt_keys, tt_data,
                        killers, moves, pv, pv_length, scores, work, scratch, dummy,
                        table_values, table_offsets)  # fmt: skip
        if ctx[C_STOP]:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                pv[height, 0] = move
                for j in range(pv_length[height + 1]):
                    pv[height, j + 1] = pv[height + 1, j]
                pv_length[height] = pv_length[height + 1] + 1
                if score >= beta:
                    if (move >> K.M_JUMPS_SHIFT) & 15 == 0 and killers[height, 0] != move:
                        killers[height, 1] = killers[height, 0]
                        killers[height, 0] = move
                    break
    tt_keys[index] = key
    tt_data[index] = best_move
    return best


@numba.njit(cache=True, nogil=True)
def search_root(
    stack: np.ndarray,
    ply: int,
    depth: int,
    rules: np.ndarray,
    ctx: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    pv: np.ndarray,
    pv_length: np.ndarray,
    table_values: np.ndarray,
    table_offsets: np.ndarray,
) -> int:
    """One iteration of iterative deepening; the line is left in ``pv[0, :pv_length[0]]``.
    ``table_values`` and ``table_offsets``: Alfonso X's table, probed when ``ctx[C_TABLE]``."""
    moves = np.empty((MAX_PLY + 2, K.MAX_MOVES), dtype=np.int64)
    scores = np.empty((MAX_PLY + 2, K.MAX_MOVES), dtype=np.int64)
    work = np.zeros(K.WORK_NB, dtype=np.int64)
    scratch = np.zeros((2, K.STATE_NB), dtype=np.int64)
    dummy = np.zeros(K.MAX_MOVES, dtype=np.int64)
    ctx[C_SELDEPTH] = 0
    ctx[C_ROOT] = ply
    return search(stack, ply, depth, -INFINITE, INFINITE, rules, ctx, tt_keys, tt_data, killers,
                  moves, pv, pv_length, scores, work, scratch, dummy, table_values,
                  table_offsets)  # fmt: skip
