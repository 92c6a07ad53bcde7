"""Automatic counting (docs/rules.md 2.6.2, 3.3, 5.6): Fairy-Stockfish's limits and their update.

The state is two numbers in ``info``: the counting limit in plies (0 = no count running) and the
counting ply. Nobody declares anything; the limit is computed from the point of view of the side
that would be counted for.
"""

from __future__ import annotations

import numpy as np

from .bits import ZERO, jit, popcount
from .layout import (
    BB_COLOR,
    BB_TYPE,
    COUNT_DECLARED,
    COUNT_KHON_FIRST,
    COUNT_PIECES_OPTIONAL,
    COUNT_SOONER,
    COUNTING_ASEAN,
    COUNTING_CAMBODIAN,
    COUNTING_MAKRUK,
    COUNTING_NONE,
    COUNTING_SITTUYIN_SEED,
    COUNTING_SITTUYIN_SEED_LITERAL,
    I_COUNT_LIMIT,
    I_COUNT_PLY,
    I_STM,
    KHON,
    KNIGHT,
    PAWN,
    ROOK,
    V_COUNT_FLAGS,
    V_COUNTING,
)


@jit
def pieces_honour_moves(bbs: np.ndarray, strong: int, khon_first: bool) -> int:
    """Makruk's pieces'-honour limit in moves for ``strong``'s material.

    By default the smallest applicable line wins (Fairy-Stockfish, [S2]); ``khon_first`` reads
    the table as [S0]/[S1] do: rooks, then khons, then knights.
    """
    mine = bbs[BB_COLOR + strong]
    rooks = popcount(bbs[BB_TYPE + ROOK] & mine)
    khons = popcount(bbs[BB_TYPE + KHON] & mine)
    knights = popcount(bbs[BB_TYPE + KNIGHT] & mine)
    if rooks >= 2:
        return 8
    if rooks == 1:
        return 16
    if khons >= 2:
        return 22
    if khon_first and khons == 1:
        return 44
    if knights >= 2:
        return 32
    if khons == 1:
        return 44
    return 64


@jit
def counting_limit_moves(bbs: np.ndarray, info: np.ndarray, counted: int) -> int:
    """The limit in moves if ``counted`` were counted for now; 0 when it cannot be."""
    rule = info[V_COUNTING]
    if rule == COUNTING_NONE:
        return 0
    khon_first = (info[V_COUNT_FLAGS] & COUNT_KHON_FIRST) != 0
    other = 1 - counted
    counted_nb = popcount(bbs[BB_COLOR + counted])
    other_nb = popcount(bbs[BB_COLOR + other])
    pawns_on_board = bbs[BB_TYPE + PAWN] != ZERO
    if rule == COUNTING_MAKRUK:
        if pawns_on_board or other_nb == 1:
            return 0
        if counted_nb > 1:
            return 64
        return pieces_honour_moves(bbs, other, khon_first)
    if rule == COUNTING_CAMBODIAN:
        if counted_nb > 3 or other_nb == 1:
            return 0
        if counted_nb > 1:
            return 63
        if pawns_on_board:
            return 0
        return pieces_honour_moves(bbs, other, khon_first) - 1
    if rule == COUNTING_SITTUYIN_SEED:
        if pawns_on_board or other_nb == 1 or counted_nb > 1:
            return 0
        return pieces_honour_moves(bbs, other, khon_first)
    if rule == COUNTING_SITTUYIN_SEED_LITERAL:
        if other_nb == 1 or counted_nb > 1:
            return 0
        return pieces_honour_moves(bbs, other, khon_first)
    if rule == COUNTING_ASEAN:
        if counted_nb > 1 or pawns_on_board or other_nb == 1:
            return 0
        theirs = bbs[BB_COLOR + other]
        if bbs[BB_TYPE + ROOK] & theirs:
            return 16
        if bbs[BB_TYPE + KHON] & theirs:
            return 44
        if bbs[BB_TYPE + KNIGHT] & theirs:
            return 64
        return 0
    return 0


@jit
def update_counting(
    bbs: np.ndarray, info: np.ndarray, mover: int, captured_type: int, promoted: bool
) -> None:
    """Advance or start the count after ``mover`` has played (the side to move is now the other)."""
    if info[V_COUNTING] == COUNTING_NONE:
        return
    if info[I_COUNT_LIMIT]:
        info[I_COUNT_PLY] += 1
    if info[V_COUNT_FLAGS] & COUNT_DECLARED:
        _update_declared(bbs, info, mover, captured_type, promoted)
        return
    to_move = 1 - mover
    total = popcount(bbs[BB_COLOR] | bbs[BB_COLOR + 1])
    rule = info[V_COUNTING]
    if (
        captured_type == PAWN
        and rule != COUNTING_ASEAN
        and popcount(bbs[BB_COLOR + mover]) == 1
        and bbs[BB_TYPE + PAWN] == ZERO
    ):
        # the lone king took the last pawn: its capturing move counts as its own first move
        limit = counting_limit_moves(bbs, info, mover)
        if limit > 0:
            info[I_COUNT_LIMIT] = 2 * limit
            info[I_COUNT_PLY] = 2 * total - 1
    lone = popcount(bbs[BB_COLOR + to_move]) == 1
    if info[I_COUNT_LIMIT] == 0 or ((captured_type >= 0 or promoted) and lone):
        limit = counting_limit_moves(bbs, info, to_move)
        if limit > 0:
            ply = 2 * total if lone and rule != COUNTING_ASEAN else 0
            running = info[I_COUNT_LIMIT] - info[I_COUNT_PLY]
            if (
                info[V_COUNT_FLAGS] & COUNT_SOONER
                and info[I_COUNT_LIMIT] != 0
                and running < 2 * limit - ply
            ):
                return  # Ouk: the running board's honour ends sooner, and stays (docs/rules.md 3.3)
            info[I_COUNT_LIMIT] = 2 * limit
            info[I_COUNT_PLY] = ply


@jit
def _update_declared(
    bbs: np.ndarray, info: np.ndarray, mover: int, captured_type: int, promoted: bool
) -> None:
    """Declared mode (docs/rules.md 2.6.4): only pieces' honour starts by itself, when a lone king
    arises with no pawn left, at the number of pieces on the board. A running board's-honour
    count gives way to it; a lone king's captures do not restart it. A lone king that was
    already alone when the position was set up gets its count at the first move, as in
    automatic mode (Decision 12)."""
    if info[V_COUNT_FLAGS] & COUNT_PIECES_OPTIONAL or bbs[BB_TYPE + PAWN] != ZERO:
        return
    to_move = 1 - mover
    for lone in (to_move, mover):
        if popcount(bbs[BB_COLOR + lone]) != 1 or popcount(bbs[BB_COLOR + 1 - lone]) == 1:
            continue
        just_lone = lone == to_move and captured_type >= 0
        if just_lone or info[I_COUNT_LIMIT] == 0:
            start_pieces_honour(bbs, info, lone)


@jit
def start_pieces_honour(bbs: np.ndarray, info: np.ndarray, lone: int) -> None:
    """Start the seed's pieces' honour for the lone king ``lone``: the count stands at the
    number of pieces on the board and the limit comes from the stronger side's material."""
    khon_first = (info[V_COUNT_FLAGS] & COUNT_KHON_FIRST) != 0
    total = popcount(bbs[BB_COLOR] | bbs[BB_COLOR + 1])
    limit = pieces_honour_moves(bbs, 1 - lone, khon_first)
    info[I_COUNT_LIMIT] = 2 * limit
    # the lone side counts its own moves: it is to move on even plies
    info[I_COUNT_PLY] = 2 * total if info[I_STM] == lone else 2 * total - 1
