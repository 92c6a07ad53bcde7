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

Quiescence is :mod:`.quiescence`; what every node shares (the score scale, ``ctx``'s layout,
draws, the static value, making a move with the network) is :mod:`.node`.
"""

from __future__ import annotations

import threading

import numba
import numpy as np

from ..._core.attacks import in_check
from ..._core.layout import BB_COLOR, BB_KEY, BB_TYPE, I_STM, KING, MAX_MOVES, PAWN, V_CHECK_WINS
from ..._core.makemove import make_null, unmake_move, unmake_null
from ..._core.movegen import legal_moves
from . import nnue as N
from . import precompile
from . import transposition as T
from .exchange import exchange_at_least
from .node import (
    C_AGE,
    C_DRAW_PLY,
    C_EGTB_CLOCK,
    C_EGTB_DEPTH,
    C_EGTB_PIECES,
    C_NODES,
    C_SELDEPTH,
    C_STOP,
    C_TB_HITS,
    INFINITE,
    MATE,
    MATE_BOUND,
    MAX_PLY,
    _bound,
    _cuts,
    _draw_value,
    _is_draw,
    _no_move_score,
    _stopped,
    accumulator_row,
    make_and_update,
    static_value,
)
from .ordering import KILLER, PRUNED, is_tactical, order_moves, pick, piece_to, reward_quiet
from .quiescence import QUIESCE_SIGNATURE, quiesce
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
#: the search stack's rows: a row per ply, two before the root (``stack[ply + 2]``)
STACK_OFFSET = 2
S_EVAL = 0  # the static evaluation (-INFINITE: in check)
S_PIECE_TO = 1  # the move made from this ply, as a continuation-history index (-1: none)
STACK_NB = 2


@jit
def _has_pieces(bbs: np.ndarray, info: np.ndarray) -> bool:
    own = bbs[BB_COLOR + info[I_STM]]
    return (own & ~(bbs[BB_TYPE + PAWN] | bbs[BB_TYPE + KING])) != 0


# Recursive functions are compiled for explicit signatures, never typed lazily (that crashes
# when numba loads them from its cache): see :func:`compile_for`
_SEARCH_SIGNATURE = (
    "int64(uint64[::1], int64[::1], int64, int64, int64, int64, int64[::1], uint64[::1],"
    " int64[::1], int32[:, ::1], int64[:, :, ::1], int32[:, ::1], int64[:, ::1], int32[:, ::1],"
    " int64[:, ::1], int32[:, ::1], int64[::1], boolean, uint8[::1], int64[::1], int64[::1],"
    " %s[:, ::1])"
)


@numba.njit(cache=True)
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


#: the network array types the recursive kernels are compiled for in this process
_COMPILED_FOR: set[str] = set()
#: one compilation at a time: threads that each start a search (``kradan bot`` plays each game
#: in a thread) must not close the kernels while another thread compiles them
_COMPILING = threading.Lock()


def compile_for(network: np.ndarray) -> None:
    """Compile (or load from numba's cache) the recursive kernels for ``network``'s array type,
    int32 with a network and int8 without, before :func:`search_root` is first typed for it:
    a process compiles only the search it uses (each copy costs seconds on a first run)."""
    dtype = str(network.dtype)
    if dtype in _COMPILED_FOR or not hasattr(search, "compile"):
        return  # NUMBA_DISABLE_JIT=1 runs the plain Python functions: nothing to compile
    with _COMPILING:
        if dtype not in _COMPILED_FOR:
            _compile(dtype)


def _compile(dtype: str) -> None:
    if not precompile.in_cache(search, _SEARCH_SIGNATURE % dtype):
        # a first run: what the search calls is compiled in two processes at once
        precompile.compile_split(dtype)
    for kernel, signature in ((quiesce, QUIESCE_SIGNATURE), (search, _SEARCH_SIGNATURE)):
        kernel.disable_compile(False)
        try:
            kernel.compile(signature % dtype)
        finally:
            # closed again: a caller typed otherwise is an error, never a lazily typed copy
            kernel.disable_compile(True)
    _COMPILED_FOR.add(dtype)


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
    # the root's ply and "no previous move" as plain integers, not constants: numba compiles a
    # callee again for each constant argument (seconds of a first run, for code run once here)
    root = depth - depth
    none = root - 1
    if N.uses_network(nnue):
        N.refresh(bbs, nnue, nnue, accumulator_row(root))
    buffer = moves[0]
    total = legal_moves(bbs, info, buffer)
    if total == 0:
        return _no_move_score(bbs, info, ctx, root)
    n = root
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
        stack[STACK_OFFSET, S_EVAL] = static_value(bbs, info, weights, nnue, root, ctx)
    key = bbs[BB_KEY]
    tt_move = T.entry_move(T.tt_probe(tt_keys, tt_data, key))
    line = scores[0]
    order_moves(bbs, info, buffer, line, n, tt_move, killers, history, cont, none, none, root)
    best = -INFINITE
    best_move = -1
    original_alpha = alpha
    for i in range(n):
        move = pick(buffer, line, i, n)
        stack[STACK_OFFSET, S_PIECE_TO] = piece_to(info, move)
        make_and_update(bbs, info, move, nnue, root)
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
                            info,
                            buffer,
                            line,
                            i,
                            move,
                            depth,
                            killers,
                            history,
                            cont,
                            none,
                            none,
                            root,
                        )
                    break
    if ctx[C_STOP] and best == -INFINITE:
        return 0
    if len(excluded) == 0 and not ctx[C_STOP]:
        bound = _bound(best, original_alpha, beta)
        T.tt_store(tt_keys, tt_data, key, best_move, best, depth, bound, ctx[C_AGE])
    return best


__all__ = ["search", "search_root"]
