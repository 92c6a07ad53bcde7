"""What every node of the chess family's compiled search shares.

The score scale (mate scores, the window's bounds, the deepest ply), the layout of ``ctx``, the
int64 array the search shares with its driver and with other threads (the stop flag, the node
count and budget, the rule and table settings), and the helpers both :mod:`.quiescence` and
:mod:`.search` call at each node: draws by repetition or count, the score of a position without
a move, the stop test, the static evaluation (the network's or the weighted terms'), making a
move with the network's accumulators brought up to date, and reading the transposition table's
bounds.
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
    I_BOARD,
    I_COUNT_LIMIT,
    I_COUNT_PLY,
    I_RULE50,
    I_SP,
    I_STM,
    MOVE_FROM_SHIFT,
    MOVE_TO_MASK,
    UB_KEY,
    UNDO_BB_NB,
)
from ..._core.makemove import make_move
from . import nnue as N
from . import transposition as T
from .evaluate import evaluate, network_evaluate

jit = numba.njit(cache=True)

MATE = 30000
INFINITE = 32000
MATE_BOUND = MATE - 1000  # scores beyond this are mates
MAX_PLY = 128
assert MATE_BOUND == T.MATE_BOUND

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
            return 0  # declared board's honour: the counter's mate is a draw (docs/rules.md 2.6.4)
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
    bbs: np.ndarray,
    info: np.ndarray,
    weights: np.ndarray,
    nnue: np.ndarray,
    ply: int,
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
    # the move as int64, the type Python's calls give it: one compiled make_move, not two
    if not N.uses_network(nnue):
        make_move(bbs, info, np.int64(move))  # type: ignore[arg-type]
        return
    frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
    to = move & MOVE_TO_MASK
    from_was, to_was = info[I_BOARD + frm], info[I_BOARD + to]
    make_move(bbs, info, np.int64(move))  # type: ignore[arg-type]
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


__all__ = [
    "CTX_NB",
    "INFINITE",
    "MATE",
    "MATE_BOUND",
    "MAX_PLY",
    "accumulator_row",
    "make_and_update",
    "static_value",
]
