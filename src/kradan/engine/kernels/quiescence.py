"""The compiled quiescence search of the chess family.

At the horizon of :mod:`.search`, only captures and promotions that do not lose material are
searched (every move when in check), from a stand-pat score, with delta pruning; the
transposition table is probed and written here too, so that the main search finds these nodes'
best captures.
"""

from __future__ import annotations

import numba
import numpy as np

from ..._core.attacks import in_check
from ..._core.layout import BB_KEY, I_BOARD, I_STM, MOVE_TO_MASK, V_CHECK_WINS
from ..._core.makemove import unmake_move
from ..._core.movegen import legal_moves
from . import transposition as T
from .evaluate import VALUES
from .exchange import loses_material
from .node import (
    C_AGE,
    C_NODES,
    C_SELDEPTH,
    C_STOP,
    INFINITE,
    MAX_PLY,
    _bound,
    _cuts,
    _no_move_score,
    _stopped,
    make_and_update,
    static_value,
)
from .ordering import is_capture, is_tactical, order_captures, pick

# Recursive functions are compiled for explicit signatures (lazily typed recursive functions
# crash when loaded from numba's cache): one per network array type, with a network (int32)
# and without (int8), each compiled when a search first needs it (:func:`.search.compile_for`)
QUIESCE_SIGNATURE = (
    "int64(uint64[::1], int64[::1], int64, int64, int64, int64[::1], uint64[::1], int64[::1],"
    " int32[:, ::1], int64[:, ::1], int64[::1], %s[:, ::1])"
)


@numba.njit(cache=True)
def quiesce(
    bbs: np.ndarray,
    info: np.ndarray,
    alpha: int,
    beta: int,
    ply: int,
    ctx: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray,
    nnue: np.ndarray,
) -> int:
    ctx[C_NODES] += 1
    if ply > ctx[C_SELDEPTH]:
        ctx[C_SELDEPTH] = ply
    if _stopped(ctx):
        return 0
    checked = in_check(bbs, info[I_STM])
    if ply >= MAX_PLY - 1:
        return static_value(bbs, info, weights, nnue, ply, ctx)
    key = bbs[BB_KEY]
    entry = T.tt_probe(tt_keys, tt_data, key)
    tt_move = T.entry_move(entry)
    if entry >= 0 and beta - alpha == 1:
        tt_score = T.score_from_tt(T.entry_score(entry), ply)
        if _cuts(entry, tt_score, alpha, beta):
            return tt_score
    stand = -INFINITE
    if not checked:
        # stand pat before the moves are generated: most quiescence nodes end here, and the
        # rare stalemate it misses at a node already at or above beta is left to the search
        stand = static_value(bbs, info, weights, nnue, ply, ctx)
        if stand >= beta:
            return stand
    buffer = moves[ply]
    n = legal_moves(bbs, info, buffer)
    if n == 0:
        return _no_move_score(bbs, info, ctx, ply)
    original_alpha = alpha
    if stand > alpha:
        alpha = stand
    # a check ends Kar Ouk, so there even a capture that loses material is searched
    sure = not checked and info[V_CHECK_WINS] == 0
    keep = n - n  # a plain 0: a constant would compile order_captures and pick once more
    for i in range(n):
        move = buffer[i]
        if checked or is_tactical(info, move):
            buffer[keep] = move
            keep += 1
    line = scores[ply]
    order_captures(bbs, info, buffer, line, keep, tt_move)
    best = stand
    best_move = -1
    for i in range(keep):
        move = pick(buffer, line, i, keep)
        if sure and is_capture(info, move):
            victim = info[I_BOARD + (move & MOVE_TO_MASK)]
            if stand + VALUES[(victim & 7) - 1] + 200 < alpha:
                continue  # delta pruning: even the victim will not bring it back
            if loses_material(bbs, info, move):
                continue
        make_and_update(bbs, info, move, nnue, ply)
        score = -quiesce(
            bbs,
            info,
            -beta,
            -alpha,
            ply + 1,
            ctx,
            tt_keys,
            tt_data,
            moves,
            scores,
            weights,
            nnue,
        )
        unmake_move(bbs, info)
        if ctx[C_STOP]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                best_move = move
                alpha = score
                if score >= beta:
                    break
    if best == -INFINITE:
        best = alpha  # in check, every evasion mated: only when every one was searched
    bound = _bound(best, original_alpha, beta)
    depth = np.int64(0)  # a plain 0: a constant would compile tt_store once more
    stored = T.score_to_tt(best, ply)
    T.tt_store(tt_keys, tt_data, key, best_move, stored, depth, bound, ctx[C_AGE])  # type: ignore[arg-type]
    return best


__all__ = ["quiesce"]
