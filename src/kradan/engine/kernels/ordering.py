"""Move ordering for the chess family's search, and the statistics it learns from cutoffs.

The order: the transposition table's move; captures that do not lose material in the exchange
(most valuable victim first, then least valuable attacker), with promotions among them; safe
promotions; the two killers of the ply; the quiet moves by their history (from-to, per side)
and their continuation history (this piece to this square, after the move one and two plies
before); last the captures that lose material. Histories move by "gravity" (a bonus shrinks as
the value nears its bound), so they stay within ``HISTORY_MAX`` without being rescaled.
"""

from __future__ import annotations

import numpy as np

from ..._core.bits import jit
from ..._core.layout import (
    I_BOARD,
    I_STM,
    KIND_DROP,
    KIND_PIECE_PROMOTION,
    KIND_PROMOTION,
    MOVE_FROM_SHIFT,
    MOVE_KIND_MASK,
    MOVE_KIND_SHIFT,
    MOVE_TO_MASK,
    PIECE_TYPE_NB,
)
from .evaluate import VALUES
from .exchange import exchange_at_least, loses_material

TT_MOVE = 1 << 30
GOOD_CAPTURE = 1 << 24
PROMOTION = 1 << 23
KILLER = 1 << 22
BAD_CAPTURE = -(1 << 20)
#: the score a move the search pruned is left with, so that no history blames it
PRUNED = -(1 << 40)
#: the bound of every history value
HISTORY_MAX = 16384
#: rows of the continuation history: a piece (colour and type) on a square
PIECE_TO_NB = 2 * PIECE_TYPE_NB * 64


@jit
def piece_to(info: np.ndarray, move: int) -> int:
    """The continuation-history index of ``move`` (the piece that moves and its target), or
    -1 for a drop. Call it before the move is made."""
    kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
    if kind == KIND_DROP:
        return -1
    piece = info[I_BOARD + ((move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK)]
    if piece == 0:
        return -1
    return ((piece >> 3) * PIECE_TYPE_NB + (piece & 7) - 1) * 64 + (move & MOVE_TO_MASK)


@jit
def is_capture(info: np.ndarray, move: int) -> bool:
    kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
    if kind in (KIND_DROP, KIND_PIECE_PROMOTION):
        return False
    victim = info[I_BOARD + (move & MOVE_TO_MASK)]
    return victim != 0 and (victim >> 3) != info[I_STM]


@jit
def is_tactical(info: np.ndarray, move: int) -> bool:
    """A capture or a promotion: the moves quiescence searches and pruning leaves alone."""
    kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
    if kind in (KIND_PROMOTION, KIND_PIECE_PROMOTION):
        return True
    return is_capture(info, move)


@jit
def _victim_first(info: np.ndarray, move: int) -> int:
    victim = info[I_BOARD + (move & MOVE_TO_MASK)]
    attacker = info[I_BOARD + ((move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK)]
    return VALUES[(victim & 7) - 1] * 16 - VALUES[(attacker & 7) - 1] // 16


@jit
def quiet_score(
    info: np.ndarray, move: int, history: np.ndarray, cont: np.ndarray, prev1: int, prev2: int
) -> int:
    """What the histories say of the quiet ``move``."""
    frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
    score = int(history[info[I_STM], frm, move & MOVE_TO_MASK])
    target = piece_to(info, move)
    if target >= 0:
        if prev1 >= 0:
            score += cont[prev1, target]
        if prev2 >= 0:
            score += cont[prev2, target]
    return score


@jit
def order_moves(
    bbs: np.ndarray,
    info: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    n: int,
    tt_move: int,
    killers: np.ndarray,
    history: np.ndarray,
    cont: np.ndarray,
    prev1: int,
    prev2: int,
    ply: int,
) -> None:
    """Give each of ``moves[:n]`` its ordering score in ``scores``."""
    for i in range(n):
        move = moves[i]
        kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
        if move == tt_move:
            score = TT_MOVE
        elif is_capture(info, move):
            if loses_material(bbs, info, move):
                score = BAD_CAPTURE + _victim_first(info, move)
            else:
                score = GOOD_CAPTURE + _victim_first(info, move)
                if kind == KIND_PROMOTION:
                    score += PROMOTION
        elif kind == KIND_PIECE_PROMOTION or (
            kind == KIND_PROMOTION and exchange_at_least(bbs, info, move, np.int64(0))  # type: ignore[arg-type]
        ):
            score = PROMOTION
        elif move == killers[ply, 0]:
            score = KILLER
        elif move == killers[ply, 1]:
            score = KILLER - 1
        else:
            score = quiet_score(info, move, history, cont, prev1, prev2)
        scores[i] = score


@jit
def order_captures(
    bbs: np.ndarray, info: np.ndarray, moves: np.ndarray, scores: np.ndarray, n: int, tt_move: int
) -> None:
    """Quiescence's order: the table's move, then by victim and attacker, promotions first."""
    for i in range(n):
        move = moves[i]
        kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
        score = 0
        if move == tt_move:
            score = TT_MOVE
        elif is_capture(info, move):
            score = GOOD_CAPTURE + _victim_first(info, move)
        if kind in (KIND_PROMOTION, KIND_PIECE_PROMOTION):
            score += PROMOTION
        scores[i] = score


@jit
def pick(moves: np.ndarray, scores: np.ndarray, start: int, n: int) -> int:
    """Bring the best-scored of ``moves[start:n]`` to ``start`` and return it."""
    best = start
    for i in range(start + 1, n):
        if scores[i] > scores[best]:
            best = i
    moves[start], moves[best] = moves[best], moves[start]
    scores[start], scores[best] = scores[best], scores[start]
    return moves[start]


@jit
def _nudge(value: int, bonus: int) -> int:
    return value + bonus - value * abs(bonus) // HISTORY_MAX


@jit
def _add_quiet(
    info: np.ndarray,
    move: int,
    bonus: int,
    history: np.ndarray,
    cont: np.ndarray,
    prev1: int,
    prev2: int,
) -> None:
    us = info[I_STM]
    frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
    to = move & MOVE_TO_MASK
    history[us, frm, to] = _nudge(history[us, frm, to], bonus)
    target = piece_to(info, move)
    if target >= 0:
        if prev1 >= 0:
            cont[prev1, target] = _nudge(cont[prev1, target], bonus)
        if prev2 >= 0:
            cont[prev2, target] = _nudge(cont[prev2, target], bonus)


@jit
def history_bonus(depth: int) -> int:
    return min(32 * depth * depth, 2048)


@jit
def reward_quiet(
    info: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    tried: int,
    best_move: int,
    depth: int,
    killers: np.ndarray,
    history: np.ndarray,
    cont: np.ndarray,
    prev1: int,
    prev2: int,
    ply: int,
) -> None:
    """A quiet ``best_move`` caused a cutoff after ``moves[:tried]``: make it a killer, raise its
    histories, and lower those of the quiet moves searched before it."""
    if killers[ply, 0] != best_move:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = best_move
    bonus = history_bonus(depth)
    _add_quiet(info, best_move, bonus, history, cont, prev1, prev2)
    for j in range(tried):
        move = moves[j]
        if move != best_move and scores[j] != PRUNED and not is_tactical(info, move):
            _add_quiet(info, move, -bonus, history, cont, prev1, prev2)


__all__ = [
    "HISTORY_MAX",
    "PIECE_TO_NB",
    "PRUNED",
    "history_bonus",
    "is_capture",
    "is_tactical",
    "order_captures",
    "order_moves",
    "pick",
    "piece_to",
    "quiet_score",
    "reward_quiet",
]
