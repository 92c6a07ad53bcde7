"""The compiled alpha-beta search for the chess family.

Principal variation search with a transposition table, quiescence on captures and promotions,
move ordering (hash move, MVV-LVA, promotions, killers, history), null-move pruning, late-move
reductions, check extensions and mate scores. Repetition (within the search, a second
occurrence) and the counting limit are draws; Kar Ouk's first check ends the game because the
side in check then has no move. The search checks ``ctx[C_STOP]`` at every node, so another
thread (a clock, a UCI ``stop``) can end it within milliseconds: the kernel releases the GIL.
"""

from __future__ import annotations

import numba
import numpy as np

from ..._core.attacks import in_check
from ..._core.bits import popcount
from ..._core.layout import (
    BB_COLOR,
    BB_KEY,
    BB_STATE_NB,
    BB_TYPE,
    I_BOARD,
    I_COUNT_LIMIT,
    I_COUNT_PLY,
    I_RULE50,
    I_SP,
    I_STM,
    KIND_DROP,
    KIND_PIECE_PROMOTION,
    KIND_PROMOTION,
    KING,
    MAX_MOVES,
    MOVE_FROM_SHIFT,
    MOVE_KIND_MASK,
    MOVE_KIND_SHIFT,
    MOVE_TO_MASK,
    PAWN,
    UB_KEY,
    UNDO_BB_NB,
    V_CHECK_WINS,
)
from ..._core.makemove import make_move, make_null, unmake_move, unmake_null
from ..._core.movegen import legal_moves
from .evaluate import VALUES, evaluate
from .tablebase import NO_VALUE
from .tablebase import probe as table_probe

jit = numba.njit(cache=True)


def _lmr_table() -> np.ndarray:
    table = np.zeros((64, 64), dtype=np.int64)
    for depth in range(1, 64):
        for index in range(1, 64):
            table[depth, index] = int(0.8 + np.log(depth) * np.log(index) / 2.2)
    return table


LMR = _lmr_table()  # late-move reductions by depth and move number
MATE = 30000
INFINITE = 32000
MATE_BOUND = MATE - 1000  # scores beyond this are mates
MAX_PLY = 128

# ctx: shared int64 array
C_STOP = 0  # set to 1 to stop the search
C_NODES = 1
C_NODE_LIMIT = 2  # 0: none
C_SELDEPTH = 3
C_STALEMATE = 4  # score of being stalemated, from the stalemated side's view (0: a draw)
C_DRAW_PLY = 5  # 1: declared counting (board's honour drawn once the count ply reaches limit - 1)
C_ROOT_SP = 6  # undo stack pointer at the root
C_EGTB_PIECES = 7  # endgame tables: the most pieces of the tables loaded (0: no probes)
C_EGTB_DEPTH = 8  # endgame tables: the least depth left at which the search probes
C_TB_HITS = 9  # endgame-table probes that answered
C_EGTB_CLOCK = 10  # endgame tables: the plies of the n-move rule (Sittuyin 100; 0: none)
CTX_NB = 11

# transposition table entry: move | (score + 32768) << 20 | depth << 36 | bound << 44
BOUND_EXACT = 1
BOUND_LOWER = 2
BOUND_UPPER = 3


@jit
def _tt_probe(tt_keys: np.ndarray, tt_data: np.ndarray, key: np.uint64) -> int:
    index = np.int64(key & np.uint64(len(tt_keys) - 1))
    if tt_keys[index] == key:
        return tt_data[index]
    return -1


@jit
def _tt_store(
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    key: np.uint64,
    move: int,
    score: int,
    depth: int,
    bound: int,
) -> None:
    index = np.int64(key & np.uint64(len(tt_keys) - 1))
    old = tt_data[index]
    if tt_keys[index] == key and old >= 0 and ((old >> 36) & 255) > depth and bound != BOUND_EXACT:
        return  # keep the deeper entry for this position
    tt_keys[index] = key
    # 64-bit arithmetic throughout, so the packing is the same with NUMBA_DISABLE_JIT
    # (pure Python, used by mutation testing), where a move arrives as an int32
    tt_data[index] = (
        (np.int64(move) & 0xFFFFF)
        | ((np.int64(score) + 32768) << 20)
        | (np.int64(depth) << 36)
        | (np.int64(bound) << 44)
    )


@jit
def _score_to_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@jit
def _score_from_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@jit
def _is_draw(bbs: np.ndarray, info: np.ndarray, ctx: np.ndarray) -> bool:
    """Repetition since the last irreversible move, or an expired count."""
    limit = info[I_COUNT_LIMIT]
    if limit:
        if ctx[C_DRAW_PLY] and not _lone_counter(bbs, info):
            if info[I_COUNT_PLY] >= limit - 1:
                return True
        elif info[I_COUNT_PLY] > limit:
            return True
    sp = info[I_SP]
    key = bbs[BB_KEY]
    window = min(info[I_RULE50], sp)
    back = 4
    while back <= window:
        if bbs[BB_STATE_NB + (sp - back) * UNDO_BB_NB + UB_KEY] == key:
            return True
        back += 2
    return False


@jit
def _order(
    bbs: np.ndarray,
    info: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    n: int,
    tt_move: int,
    killers: np.ndarray,
    history: np.ndarray,
    ply: int,
) -> None:
    us = info[I_STM]
    for i in range(n):
        move = moves[i]
        to = move & MOVE_TO_MASK
        frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
        kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
        if move == tt_move:
            scores[i] = 1 << 30
            continue
        score = 0
        if kind != KIND_DROP and kind != KIND_PIECE_PROMOTION:
            victim = info[I_BOARD + to]
            if victim != 0 and (victim >> 3) != us:
                attacker = info[I_BOARD + frm]
                score = (1 << 24) + VALUES[(victim & 7) - 1] * 16 - VALUES[(attacker & 7) - 1] // 16
        if kind in (KIND_PROMOTION, KIND_PIECE_PROMOTION):
            score += 1 << 23
        if score == 0:
            if move == killers[ply, 0]:
                score = 1 << 22
            elif move == killers[ply, 1]:
                score = (1 << 22) - 1
            else:
                score = history[us, frm, to]
        scores[i] = score


@jit
def _pick(moves: np.ndarray, scores: np.ndarray, start: int, n: int) -> int:
    best = start
    for i in range(start + 1, n):
        if scores[i] > scores[best]:
            best = i
    moves[start], moves[best] = moves[best], moves[start]
    scores[start], scores[best] = scores[best], scores[start]
    return moves[start]


@jit
def _is_tactical(info: np.ndarray, move: int) -> bool:
    kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
    if kind in (KIND_PROMOTION, KIND_PIECE_PROMOTION):
        return True
    if kind == KIND_DROP:
        return False
    victim = info[I_BOARD + (move & MOVE_TO_MASK)]
    return victim != 0 and (victim >> 3) != info[I_STM]


@jit
def _has_pieces(bbs: np.ndarray, info: np.ndarray) -> bool:
    own = bbs[BB_COLOR + info[I_STM]]
    return (own & ~(bbs[BB_TYPE + PAWN] | bbs[BB_TYPE + KING])) != 0


@jit
def _lone_counter(bbs: np.ndarray, info: np.ndarray) -> bool:
    """Whether the side counting is a lone king (pieces' honour); it moves on even count plies."""
    counter = info[I_STM] if info[I_COUNT_PLY] % 2 == 0 else 1 - info[I_STM]
    return popcount(bbs[BB_COLOR + counter]) == 1


@jit
def _no_move_score(bbs: np.ndarray, info: np.ndarray, ctx: np.ndarray, ply: int) -> int:
    if in_check(bbs, info[I_STM]):
        if (
            ctx[C_DRAW_PLY]
            and info[I_COUNT_LIMIT]
            and info[I_COUNT_PLY] % 2 == 1
            and not _lone_counter(bbs, info)
        ):
            return 0  # declared board's honour: the counter's mate is a draw (RULES.md 2.6.4)
        return -MATE + ply
    stalemate = ctx[C_STALEMATE]
    if stalemate > 0:
        return MATE - ply
    if stalemate < 0:
        return -MATE + ply
    return 0


@jit
def _stopped(ctx: np.ndarray) -> bool:
    """Whether to stop: on the flag, or on the node budget, to the node (the weak levels'
    budgets start at 400 nodes)."""
    limit = ctx[C_NODE_LIMIT]
    if limit and ctx[C_NODES] >= limit:
        ctx[C_STOP] = 1
    return ctx[C_STOP] != 0


@jit
def _order_captures(info: np.ndarray, moves: np.ndarray, scores: np.ndarray, n: int) -> None:
    us = info[I_STM]
    for i in range(n):
        move = moves[i]
        kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
        score = 0
        if kind != KIND_DROP and kind != KIND_PIECE_PROMOTION:
            victim = info[I_BOARD + (move & MOVE_TO_MASK)]
            if victim != 0 and (victim >> 3) != us:
                attacker = info[I_BOARD + ((move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK)]
                score = VALUES[(victim & 7) - 1] * 16 - VALUES[(attacker & 7) - 1] // 16
        if kind in (KIND_PROMOTION, KIND_PIECE_PROMOTION):
            score += 1000
        scores[i] = score


# Recursive functions get explicit signatures: numba then compiles them eagerly, which its
# on-disk cache handles (lazily typed recursive functions crash when loaded from the cache).
_QUIESCE_SIGNATURE = (
    "int64(uint64[::1], int64[::1], int64, int64, int64, int64[::1], int32[:, ::1], int64[:, ::1],"
    " int64[::1])"
)
_SEARCH_SIGNATURE = (
    "int64(uint64[::1], int64[::1], int64, int64, int64, int64, int64[::1], uint64[::1],"
    " int64[::1], int32[:, ::1], int64[:, :, ::1], int32[:, ::1], int64[:, ::1], int32[:, ::1],"
    " int64[::1], boolean, uint8[::1], int64[::1], int64[::1])"
)


@numba.njit(_QUIESCE_SIGNATURE, cache=True)
def quiesce(
    bbs: np.ndarray,
    info: np.ndarray,
    alpha: int,
    beta: int,
    ply: int,
    ctx: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray,
) -> int:
    ctx[C_NODES] += 1
    if ply > ctx[C_SELDEPTH]:
        ctx[C_SELDEPTH] = ply
    if _stopped(ctx):
        return 0
    checked = in_check(bbs, info[I_STM])
    if ply >= MAX_PLY - 1:
        return evaluate(bbs, info, weights)
    stand = -INFINITE
    if not checked:
        # stand pat before the moves are generated: most quiescence nodes end here, and the
        # rare stalemate it misses at a node already at or above beta is left to the search
        stand = evaluate(bbs, info, weights)
        if stand >= beta:
            return stand
    buffer = moves[ply]
    n = legal_moves(bbs, info, buffer)
    if n == 0:
        return _no_move_score(bbs, info, ctx, ply)
    if stand > alpha:
        alpha = stand
    keep = 0
    for i in range(n):
        if checked or _is_tactical(info, buffer[i]):
            buffer[keep] = buffer[i]
            keep += 1
    line = scores[ply]
    _order_captures(info, buffer, line, keep)
    for i in range(keep):
        move = _pick(buffer, line, i, keep)
        if not checked and line[i] < 1000:  # a capture, not a promotion: delta pruning
            victim = info[I_BOARD + (move & MOVE_TO_MASK)]
            if victim != 0 and stand + VALUES[(victim & 7) - 1] + 200 < alpha:
                continue
        make_move(bbs, info, move)
        score = -quiesce(bbs, info, -beta, -alpha, ply + 1, ctx, moves, scores, weights)
        unmake_move(bbs, info)
        if ctx[C_STOP]:
            return 0
        if score >= beta:
            return score
        if score > alpha:
            alpha = score
    return alpha


@numba.njit(_SEARCH_SIGNATURE, cache=True)
def search(
    bbs: np.ndarray,
    info: np.ndarray,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    ctx: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    pv: np.ndarray,
    pv_length: np.ndarray,
    allow_null: bool,
    slab: np.ndarray,
    slots: np.ndarray,
    weights: np.ndarray,
) -> int:
    """Negamax principal variation search; returns the score for the side to move. ``slab``
    and ``slots`` hold the endgame tables it may probe (:mod:`.tablebase`; empty: none)."""
    # plain (non-literal) booleans for the recursive calls, which must match the signature
    yes = ply >= 0
    no = ply < 0
    pv_length[ply] = 0
    if ply > 0:
        if _is_draw(bbs, info, ctx):
            return 0
        # mate distance pruning
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        if ctx[C_EGTB_PIECES] and depth >= ctx[C_EGTB_DEPTH]:
            declared = ctx[C_DRAW_PLY] != 0
            most, clock = ctx[C_EGTB_PIECES], ctx[C_EGTB_CLOCK]
            known = table_probe(bbs, info, slab, slots, most, declared, clock, MATE, ply)
            if known != NO_VALUE:
                ctx[C_TB_HITS] += 1
                return known
    checked = in_check(bbs, info[I_STM])
    if checked:
        depth += 1
    if depth <= 0 or ply >= MAX_PLY - 1:
        return quiesce(bbs, info, alpha, beta, ply, ctx, moves, scores, weights)
    ctx[C_NODES] += 1
    if _stopped(ctx):
        return 0
    key = bbs[BB_KEY]
    pv_node = beta - alpha > 1
    tt_move = -1
    entry = _tt_probe(tt_keys, tt_data, key)
    if entry >= 0:
        tt_move = entry & 0xFFFFF
        tt_depth = (entry >> 36) & 255
        if tt_depth >= depth and not pv_node and ply > 0:
            tt_score = _score_from_tt(((entry >> 20) & 0xFFFF) - 32768, ply)
            bound = (entry >> 44) & 3
            if bound == BOUND_EXACT:
                return tt_score
            if bound == BOUND_LOWER and tt_score >= beta:
                return tt_score
            if bound == BOUND_UPPER and tt_score <= alpha:
                return tt_score

    static_eval = -INFINITE if checked else evaluate(bbs, info, weights)
    # checks end Kar Ouk at once, so nothing that might skip a checking move is safe there
    prunable = not pv_node and not checked and info[V_CHECK_WINS] == 0
    if prunable and depth <= 4 and abs(beta) < MATE_BOUND and static_eval - 110 * depth >= beta:
        return static_eval  # reverse futility: far above beta, a shallow search will not fall

    null_candidate = allow_null and not checked and not pv_node and depth >= 3
    if null_candidate and _has_pieces(bbs, info) and static_eval >= beta:
        reduction = 2 + depth // 6
        make_null(bbs, info)
        score = -search(
            bbs,
            info,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            ctx,
            tt_keys,
            tt_data,
            killers,
            history,
            moves,
            scores,
            pv,
            pv_length,
            no,
            slab,
            slots,
            weights,
        )
        unmake_null(bbs, info)
        if ctx[C_STOP]:
            return 0
        if score >= beta and score < MATE_BOUND:
            return beta

    buffer = moves[ply]
    n = legal_moves(bbs, info, buffer)
    if n == 0:
        return _no_move_score(bbs, info, ctx, ply)
    line = scores[ply]
    _order(bbs, info, buffer, line, n, tt_move, killers, history, ply)
    best = -INFINITE
    best_move = buffer[0]
    original_alpha = alpha
    us = info[I_STM]
    quiets = 0
    for i in range(n):
        move = _pick(buffer, line, i, n)
        tactical = _is_tactical(info, move)
        if not tactical:
            quiets += 1
            if prunable and i > 0 and best > -MATE_BOUND:
                if depth <= 3 and quiets > 3 + 2 * depth * depth:
                    continue  # late move pruning
                if depth <= 2 and static_eval + 90 + 110 * depth <= alpha:
                    continue  # futility: a quiet move will not bring it back
        make_move(bbs, info, move)
        gives_check = in_check(bbs, info[I_STM])
        # principal variation search: the first move with the full window, the others with a
        # null window (reduced late in the list), searched again at full depth and then with the
        # full window while they beat alpha
        reduction = 0
        if depth >= 3 and i >= 3 and not tactical and not checked and not gives_check:
            reduction = LMR[min(depth, 63), min(i, 63)]
            if pv_node:
                reduction -= 1
            reduction = max(0, min(reduction, depth - 2))
        full_window = i == 0
        while True:
            low = -beta if full_window else -alpha - 1
            score = -search(
                bbs,
                info,
                depth - 1 - reduction,
                low,
                -alpha,
                ply + 1,
                ctx,
                tt_keys,
                tt_data,
                killers,
                history,
                moves,
                scores,
                pv,
                pv_length,
                yes,
                slab,
                slots,
                weights,
            )
            if full_window or score <= alpha:
                break
            if reduction > 0:
                reduction = 0  # a reduced move that beats alpha: search it at full depth
            elif score < beta:
                full_window = True  # inside the window: search it with the full window
            else:
                break
        unmake_move(bbs, info)
        if ctx[C_STOP]:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                pv[ply, 0] = move
                for j in range(pv_length[ply + 1]):
                    pv[ply, j + 1] = pv[ply + 1, j]
                pv_length[ply] = pv_length[ply + 1] + 1
                if score >= beta:
                    if not tactical:
                        if killers[ply, 0] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
                        history[us, frm, move & MOVE_TO_MASK] += depth * depth
                    break
    if best >= beta:
        bound = BOUND_LOWER
    elif best > original_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    _tt_store(tt_keys, tt_data, key, best_move, _score_to_tt(best, ply), depth, bound)
    return best


@numba.njit(cache=True, nogil=True)
def search_root(
    bbs: np.ndarray,
    info: np.ndarray,
    depth: int,
    alpha: int,
    beta: int,
    ctx: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    pv: np.ndarray,
    pv_length: np.ndarray,
    excluded: np.ndarray,
    slab: np.ndarray,
    slots: np.ndarray,
    weights: np.ndarray,
) -> int:
    """One iteration of iterative deepening from the position in ``bbs``/``info``, leaving out
    the root moves in ``excluded`` (for MultiPV); the principal variation is left in
    ``pv[0, :pv_length[0]]`` (empty, and the score -INFINITE, when every move is excluded).
    Releases the GIL."""
    moves = np.empty((MAX_PLY + 1, MAX_MOVES), dtype=np.int32)
    scores = np.empty((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    ctx[C_SELDEPTH] = 0
    pv_length[0] = 0
    yes = depth >= 0  # a plain boolean for the signature of search
    buffer = moves[0]
    total = legal_moves(bbs, info, buffer)
    if total == 0:
        return _no_move_score(bbs, info, ctx, 0)
    n = 0
    for i in range(total):
        skip = False
        for j in range(len(excluded)):
            if excluded[j] == buffer[i]:
                skip = True
        if not skip:
            buffer[n] = buffer[i]
            n += 1
    if n == 0:
        return -INFINITE
    if in_check(bbs, info[I_STM]):
        depth += 1
    key = bbs[BB_KEY]
    entry = _tt_probe(tt_keys, tt_data, key)
    tt_move = entry & 0xFFFFF if entry >= 0 else -1
    line = scores[0]
    _order(bbs, info, buffer, line, n, tt_move, killers, history, 0)
    best = -INFINITE
    best_move = buffer[0]
    original_alpha = alpha
    for i in range(n):
        move = _pick(buffer, line, i, n)
        make_move(bbs, info, move)
        if i == 0:
            score = -search(
                bbs, info, depth - 1, -beta, -alpha, 1, ctx, tt_keys, tt_data, killers, history,
                moves, scores, pv, pv_length, yes, slab, slots, weights,
            )  # fmt: skip
        else:
            score = -search(
                bbs, info, depth - 1, -alpha - 1, -alpha, 1, ctx, tt_keys, tt_data, killers,
                history, moves, scores, pv, pv_length, yes, slab, slots, weights,
            )  # fmt: skip
            if alpha < score < beta:
                score = -search(
                    bbs, info, depth - 1, -beta, -alpha, 1, ctx, tt_keys, tt_data, killers,
                    history, moves, scores, pv, pv_length, yes, slab, slots, weights,
                )  # fmt: skip
        unmake_move(bbs, info)
        if ctx[C_STOP]:
            break
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                pv[0, 0] = move
                for j in range(pv_length[1]):
                    pv[0, j + 1] = pv[1, j]
                pv_length[0] = pv_length[1] + 1
                if score >= beta:
                    break
    if ctx[C_STOP] and best == -INFINITE:
        return 0
    if len(excluded) == 0 and not ctx[C_STOP]:
        if best >= beta:
            bound = BOUND_LOWER
        elif best > original_alpha:
            bound = BOUND_EXACT
        else:
            bound = BOUND_UPPER
        _tt_store(tt_keys, tt_data, key, best_move, best, depth, bound)
    return best
