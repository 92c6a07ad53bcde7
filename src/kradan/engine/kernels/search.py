"""The compiled alpha-beta search for the chess family.

Principal variation search with a two-way transposition table (probed in quiescence too),
quiescence on captures and promotions that do not lose material, move ordering by
:mod:`.ordering` (hash move, exchange-checked captures, promotions, killers, history and
continuation history), and the pruning of the strongest engines: reverse futility, null move
with a reduction that grows with the margin, internal iterative reduction, late-move pruning,
futility, history and exchange pruning, and late-move reductions steered by history and by
whether the side to move is improving. Check extensions and mate scores. Repetition (within
the search, a second occurrence) and the counting limit are draws; Kar Ouk's first check ends
the game because the side in check then has no move, so nothing that might skip a check is
pruned there. The search checks ``ctx[C_STOP]`` at every node, so another thread (a clock, a
UCI ``stop``) can end it within milliseconds: the kernel releases the GIL.
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
    KING,
    MAX_MOVES,
    MOVE_FROM_SHIFT,
    MOVE_TO_MASK,
    PAWN,
    UB_KEY,
    UNDO_BB_NB,
    V_CHECK_WINS,
)
from ..._core.makemove import make_move, make_null, unmake_move, unmake_null
from ..._core.movegen import legal_moves
from . import nnue as N
from . import transposition as T
from .evaluate import VALUES, evaluate, network_evaluate
from .exchange import exchange_at_least, loses_material
from .ordering import (
    KILLER,
    PIECE_TO_NB,
    PRUNED,
    is_capture,
    is_tactical,
    order_captures,
    order_moves,
    pick,
    piece_to,
    reward_quiet,
)
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
assert MATE_BOUND == T.MATE_BOUND
#: the search stack's rows: a row per ply, two before the root (``stack[ply + 2]``)
STACK_OFFSET = 2
S_EVAL = 0  # the static evaluation (-INFINITE: in check)
S_PIECE_TO = 1  # the move made from this ply, as a continuation-history index (-1: none)
STACK_NB = 2

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
C_AGE = 11  # the transposition table's age: which search wrote an entry (0-255)
C_CONTEMPT = 12  # centipawns a draw by repetition or count is worse than even for the root side
C_NET_BIAS = 13  # the evaluation network's output bias (:mod:`.nnue`)
CTX_NB = 14


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
def _draw_value(ctx: np.ndarray, ply: int) -> int:
    """A draw's score for the side to move at ``ply``: the side to move at the root counts it
    ``ctx[C_CONTEMPT]`` worse than even, its opponent as much better, so that with contempt
    the engine plays on rather than repeat in a position it thinks even."""
    contempt = ctx[C_CONTEMPT]
    return -contempt if ply % 2 == 0 else contempt


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
def accumulator_row(ply: int) -> int:
    """The row of White's accumulator at ``ply`` in the network array (Black's follows)."""
    return N.NET_ROWS + 2 * ply


@jit
def static_value(
    bbs: np.ndarray, info: np.ndarray, weights: np.ndarray, nnue: np.ndarray, ply: int,
    ctx: np.ndarray,
) -> int:
    """The static evaluation: the network's when one is given (``nnue`` not empty), with
    the accumulators of this ply; else the weighted terms of :mod:`.evaluate`."""
    if not N.uses_network(nnue):
        return evaluate(bbs, info, weights)
    raw = N.output(nnue, ctx[C_NET_BIAS], nnue, accumulator_row(ply), info[I_STM])
    return network_evaluate(bbs, info, raw)


@jit
def make_and_update(
    bbs: np.ndarray, info: np.ndarray, move: int, nnue: np.ndarray, ply: int
) -> None:
    """Make ``move`` and, with a network, bring the next ply's accumulators up to date from
    the pieces on the move's two squares."""
    if not N.uses_network(nnue):
        make_move(bbs, info, move)
        return
    frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
    to = move & MOVE_TO_MASK
    from_was, to_was = info[I_BOARD + frm], info[I_BOARD + to]
    make_move(bbs, info, move)
    N.update(
        nnue, nnue, accumulator_row(ply), accumulator_row(ply + 1), frm, to, from_was, to_was,
        info[I_BOARD + frm], info[I_BOARD + to],
    )  # fmt: skip


@jit
def _bound(best: int, alpha: int, beta: int) -> int:
    if best >= beta:
        return T.BOUND_LOWER
    if best > alpha:
        return T.BOUND_EXACT
    return T.BOUND_UPPER


@jit
def _cuts(entry: int, score: int, alpha: int, beta: int) -> bool:
    """Whether the stored ``score`` with the entry's bound decides a search in (alpha, beta)."""
    bound = T.entry_bound(entry)
    if bound == T.BOUND_EXACT:
        return True
    if bound == T.BOUND_LOWER:
        return score >= beta
    return bound == T.BOUND_UPPER and score <= alpha


# Recursive functions get explicit signatures: numba then compiles them eagerly, which its
# on-disk cache handles (lazily typed recursive functions crash when loaded from the cache).
_QUIESCE_SIGNATURE = (
    "int64(uint64[::1], int64[::1], int64, int64, int64, int64[::1], uint64[::1], int64[::1],"
    " int32[:, ::1], int64[:, ::1], int64[::1], %s[:, ::1])"
)
_SEARCH_SIGNATURE = (
    "int64(uint64[::1], int64[::1], int64, int64, int64, int64, int64[::1], uint64[::1],"
    " int64[::1], int32[:, ::1], int64[:, :, ::1], int32[:, ::1], int64[:, ::1], int32[:, ::1],"
    " int64[:, ::1], int32[:, ::1], int64[::1], boolean, uint8[::1], int64[::1], int64[::1],"
    " %s[:, ::1])"
)


@numba.njit([_QUIESCE_SIGNATURE % "int32", _QUIESCE_SIGNATURE % "int8"], cache=True)
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
    keep = 0
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
            bbs, info, -beta, -alpha, ply + 1, ctx, tt_keys, tt_data, moves, scores, weights,
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
    T.tt_store(tt_keys, tt_data, key, best_move, T.score_to_tt(best, ply), 0, bound, ctx[C_AGE])
    return best


@numba.njit([_SEARCH_SIGNATURE % "int32", _SEARCH_SIGNATURE % "int8"], cache=True)
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
    cont: np.ndarray,
    stack: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    pv: np.ndarray,
    pv_length: np.ndarray,
    allow_null: bool,
    slab: np.ndarray,
    slots: np.ndarray,
    weights: np.ndarray,
    nnue: np.ndarray,
) -> int:
    """Negamax principal variation search; returns the score for the side to move. ``slab``
    and ``slots`` hold the endgame tables it may probe (:mod:`.tablebase`; empty: none)."""
    # plain (non-literal) booleans for the recursive calls, which must match the signature
    yes = ply >= 0
    no = ply < 0
    pv_length[ply] = 0
    if ply > 0:
        if _is_draw(bbs, info, ctx):
            return _draw_value(ctx, ply)
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
        return quiesce(
            bbs, info, alpha, beta, ply, ctx, tt_keys, tt_data, moves, scores, weights, nnue
        )
    ctx[C_NODES] += 1
    if _stopped(ctx):
        return 0
    key = bbs[BB_KEY]
    pv_node = beta - alpha > 1
    entry = T.tt_probe(tt_keys, tt_data, key)
    tt_move = T.entry_move(entry)
    tt_score = -INFINITE
    if entry >= 0:
        tt_score = T.score_from_tt(T.entry_score(entry), ply)
        if T.entry_depth(entry) >= depth and not pv_node and _cuts(entry, tt_score, alpha, beta):
            return tt_score

    row = ply + STACK_OFFSET
    prev1 = stack[row - 1, S_PIECE_TO]
    prev2 = stack[row - 2, S_PIECE_TO]
    if checked:
        static_eval = eval_ = -INFINITE
        improving = False
    else:
        static_eval = eval_ = static_value(bbs, info, weights, nnue, ply, ctx)
        if entry >= 0 and abs(tt_score) < MATE_BOUND:
            bound = T.entry_bound(entry)
            if (bound == T.BOUND_EXACT) or (bound == T.BOUND_LOWER) == (tt_score > eval_):
                eval_ = tt_score  # the table's bound says more than the evaluation
        before = stack[row - 2, S_EVAL]
        improving = before == -INFINITE or static_eval > before
    stack[row, S_EVAL] = static_eval
    # checks end Kar Ouk at once, so nothing that might skip a checking move is safe there
    prunable = not pv_node and not checked and info[V_CHECK_WINS] == 0
    margin = 90 * (depth - int(improving))
    if prunable and depth <= 7 and abs(beta) < MATE_BOUND and eval_ - margin >= beta:
        return eval_  # reverse futility: far above beta, a shallow search will not fall

    null_move = prunable and allow_null and depth >= 3 and eval_ >= beta
    if null_move and static_eval >= beta and _has_pieces(bbs, info):
        reduction = 3 + depth // 4 + min((eval_ - beta) // 200, 2)
        stack[row, S_PIECE_TO] = -1
        make_null(bbs, info)
        if N.uses_network(nnue):
            here = accumulator_row(ply)
            for i in range(nnue.shape[1]):
                nnue[here + 2, i] = nnue[here, i]
                nnue[here + 3, i] = nnue[here + 1, i]
        score = -search(
            bbs, info, depth - 1 - reduction, -beta, -beta + 1, ply + 1, ctx, tt_keys,
            tt_data, killers, history, cont, stack, moves, scores, pv, pv_length, no, slab,
            slots, weights, nnue,
        )  # fmt: skip
        unmake_null(bbs, info)
        if ctx[C_STOP]:
            return 0
        if score >= beta:
            return beta if score >= MATE_BOUND else score

    if depth >= 4 and tt_move < 0:
        depth -= 1  # internal iterative reduction: no move known, a shallower look finds one

    buffer = moves[ply]
    n = legal_moves(bbs, info, buffer)
    if n == 0:
        return _no_move_score(bbs, info, ctx, ply)
    line = scores[ply]
    order_moves(bbs, info, buffer, line, n, tt_move, killers, history, cont, prev1, prev2, ply)
    best = -INFINITE
    best_move = -1
    original_alpha = alpha
    quiets = 0
    for i in range(n):
        move = pick(buffer, line, i, n)
        ordered = line[i]
        tactical = is_tactical(info, move)
        reduction = LMR[min(depth, 63), min(i, 63)] if i > 0 else 0
        if prunable and best > -MATE_BOUND:
            if not tactical:
                quiets += 1
                lmr_depth = max(depth - 1 - reduction, 0)
                if depth <= 7 and quiets > (4 + depth * depth) // (2 - int(improving)):
                    line[i] = PRUNED
                    continue  # late move pruning
                if lmr_depth <= 6 and static_eval + 100 + 90 * lmr_depth <= alpha:
                    line[i] = PRUNED
                    continue  # futility: a quiet move will not bring it back
                if lmr_depth <= 2 and ordered < KILLER and ordered < -4000 * depth:
                    line[i] = PRUNED
                    continue  # history: such moves have failed here before
                if lmr_depth <= 6 and not exchange_at_least(
                    bbs, info, move, -30 * lmr_depth * lmr_depth
                ):
                    line[i] = PRUNED
                    continue  # the piece is lost where it goes
            elif (
                depth <= 6 and ordered < 0 and not exchange_at_least(bbs, info, move, -100 * depth)
            ):
                line[i] = PRUNED
                continue  # a capture that loses too much
        stack[row, S_PIECE_TO] = piece_to(info, move)
        make_and_update(bbs, info, move, nnue, ply)
        gives_check = in_check(bbs, info[I_STM])
        # principal variation search: the first move with the full window, the others with a
        # null window (reduced late in the list), searched again at full depth and then with the
        # full window while they beat alpha
        late = i >= (3 if pv_node else 2)
        if depth >= 3 and late and (not tactical or ordered < 0) and not checked:
            if pv_node:
                reduction -= 1
            if not improving:
                reduction += 1
            if ordered >= KILLER - 1 and not tactical:
                reduction -= 1
            if gives_check:
                reduction -= 1
            if not tactical:
                reduction -= max(-2, min(2, ordered // 8000))
            reduction = max(0, min(reduction, depth - 2))
        else:
            reduction = 0
        full_window = i == 0
        while True:
            low = -beta if full_window else -alpha - 1
            score = -search(
                bbs, info, depth - 1 - reduction, low, -alpha, ply + 1, ctx, tt_keys, tt_data,
                killers, history, cont, stack, moves, scores, pv, pv_length, yes, slab, slots,
                weights, nnue,
            )  # fmt: skip
            if full_window or score <= alpha or ctx[C_STOP]:
                break
            if reduction > 0:
                reduction = 0  # a reduced move that beats alpha: search it at full depth
            elif score < beta and pv_node:
                full_window = True  # inside the window: search it with the full window
            else:
                break
        unmake_move(bbs, info)
        if ctx[C_STOP]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                best_move = move
                alpha = score
                pv[ply, 0] = move
                for j in range(pv_length[ply + 1]):
                    pv[ply, j + 1] = pv[ply + 1, j]
                pv_length[ply] = pv_length[ply + 1] + 1
                if score >= beta:
                    if not tactical:
                        reward_quiet(
                            info, buffer, line, i, move, depth, killers, history, cont, prev1,
                            prev2, ply,
                        )  # fmt: skip
                    break
    if best == -INFINITE:
        return alpha  # every move was pruned (cannot happen: the first is always searched)
    T.tt_store(
        tt_keys, tt_data, key, best_move, T.score_to_tt(best, ply), depth,
        _bound(best, original_alpha, beta), ctx[C_AGE],
    )  # fmt: skip
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
    cont: np.ndarray,
    pv: np.ndarray,
    pv_length: np.ndarray,
    excluded: np.ndarray,
    slab: np.ndarray,
    slots: np.ndarray,
    weights: np.ndarray,
    nnue: np.ndarray,
) -> int:
    """One iteration of iterative deepening from the position in ``bbs``/``info``, leaving out
    the root moves in ``excluded`` (for MultiPV); the principal variation is left in
    ``pv[0, :pv_length[0]]`` (empty, and the score -INFINITE, when every move is excluded).
    With a network, ``nnue`` holds its ``NET_ROWS`` rows and then the two accumulators of
    each ply (its bias is in ``ctx``); empty, the evaluation is the weighted terms. Releases
    the GIL."""
    moves = np.empty((MAX_PLY + 1, MAX_MOVES), dtype=np.int32)
    scores = np.empty((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    stack = np.empty((MAX_PLY + 2 * STACK_OFFSET, STACK_NB), dtype=np.int64)
    stack[:, S_EVAL] = -INFINITE
    stack[:, S_PIECE_TO] = -1
    ctx[C_SELDEPTH] = 0
    pv_length[0] = 0
    yes = depth >= 0  # a plain boolean for the signature of search
    if N.uses_network(nnue):
        N.refresh(bbs, nnue, nnue, accumulator_row(0))
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
    checked = in_check(bbs, info[I_STM])
    if checked:
        depth += 1
    else:
        stack[STACK_OFFSET, S_EVAL] = static_value(bbs, info, weights, nnue, 0, ctx)
    key = bbs[BB_KEY]
    tt_move = T.entry_move(T.tt_probe(tt_keys, tt_data, key))
    line = scores[0]
    order_moves(bbs, info, buffer, line, n, tt_move, killers, history, cont, -1, -1, 0)
    best = -INFINITE
    best_move = -1
    original_alpha = alpha
    for i in range(n):
        move = pick(buffer, line, i, n)
        stack[STACK_OFFSET, S_PIECE_TO] = piece_to(info, move)
        make_and_update(bbs, info, move, nnue, 0)
        if i == 0:
            score = -search(
                bbs, info, depth - 1, -beta, -alpha, 1, ctx, tt_keys, tt_data, killers, history,
                cont, stack, moves, scores, pv, pv_length, yes, slab, slots, weights, nnue,
            )  # fmt: skip
        else:
            score = -search(
                bbs, info, depth - 1, -alpha - 1, -alpha, 1, ctx, tt_keys, tt_data, killers,
                history, cont, stack, moves, scores, pv, pv_length, yes, slab, slots, weights,
                nnue,
            )  # fmt: skip
            if alpha < score < beta and not ctx[C_STOP]:
                score = -search(
                    bbs, info, depth - 1, -beta, -alpha, 1, ctx, tt_keys, tt_data, killers,
                    history, cont, stack, moves, scores, pv, pv_length, yes, slab, slots,
                    weights, nnue,
                )  # fmt: skip
        unmake_move(bbs, info)
        if ctx[C_STOP]:
            break
        if score > best:
            best = score
            if score > alpha:
                best_move = move
                alpha = score
                pv[0, 0] = move
                for j in range(pv_length[1]):
                    pv[0, j + 1] = pv[1, j]
                pv_length[0] = pv_length[1] + 1
                if score >= beta:
                    if not is_tactical(info, move):
                        reward_quiet(
                            info, buffer, line, i, move, depth, killers, history, cont, -1, -1, 0
                        )
                    break
    if ctx[C_STOP] and best == -INFINITE:
        return 0
    if len(excluded) == 0 and not ctx[C_STOP]:
        bound = _bound(best, original_alpha, beta)
        T.tt_store(tt_keys, tt_data, key, best_move, best, depth, bound, ctx[C_AGE])
    return best


__all__ = ["CTX_NB", "INFINITE", "MATE", "MATE_BOUND", "MAX_PLY", "PIECE_TO_NB", "search_root"]
