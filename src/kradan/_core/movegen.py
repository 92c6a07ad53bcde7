"""Fully legal move generation: checkers, pins and evasion masks, no make-test-unmake.

Only rooks slide in these games, so pins lie on ranks and files and a single check is either
parried on the checker's square or, against a rook, on the squares between it and the king.
"""

from __future__ import annotations

import numpy as np

from .attacks import attackers_of_color, is_attacked, pinned_pieces, rook_attacks
from .bits import ZERO, bit, jit, jit_inline, lsb, pop_lsb, popcount
from .layout import (
    BB_COLOR,
    BB_GATES,
    BB_PROMO_ZONE,
    BB_TYPE,
    GATES_OUK,
    I_CHECKS,
    I_STM,
    KHON,
    KIND_NORMAL,
    KIND_PROMOTION,
    KING,
    KNIGHT,
    MET,
    MOVE_FROM_SHIFT,
    MOVE_KIND_SHIFT,
    MOVE_PIECE_SHIFT,
    PAWN,
    PROMOTION_ON_MOVE,
    ROOK,
    V_CHECK_WINS,
    V_GATES,
    V_PROMOTED_TYPE,
    V_PROMOTION,
)
from .tables import (
    BETWEEN,
    FERZ_ATTACKS,
    KHON_ATTACKS,
    KING_ATTACKS,
    KING_LEAPS_FORWARD,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    PAWN_PUSHES,
    TWO_AHEAD,
)


@jit_inline
def pack_move(from_sq: int, to_sq: int, kind: int, piece: int) -> int:
    """The ``int32`` form of a move used inside the kernel."""
    return (
        to_sq
        | (from_sq << MOVE_FROM_SHIFT)
        | (kind << MOVE_KIND_SHIFT)
        | (piece << MOVE_PIECE_SHIFT)
    )


@jit_inline
def _emit(
    out: np.ndarray,
    n: int,
    from_sq: int,
    targets: np.uint64,
    kind: int,
    piece: int,
    count_only: bool,
) -> int:
    if count_only:
        return n + popcount(targets)
    head = pack_move(from_sq, 0, kind, piece)
    while targets:
        out[n] = head | lsb(targets)
        targets = pop_lsb(targets)
        n += 1
    return n


@jit_inline
def game_stopped_by_check(info: np.ndarray) -> bool:
    """Kar Ouk: a side has used up its checks, so the game is over and nothing is legal."""
    return info[V_CHECK_WINS] != 0 and (info[I_CHECKS] == 0 or info[I_CHECKS + 1] == 0)


@jit
def generate_moves(bbs: np.ndarray, info: np.ndarray, out: np.ndarray, count_only: bool) -> int:
    """Write every legal move into ``out`` (or only count them) and return how many there are."""
    if game_stopped_by_check(info):
        return 0
    us = info[I_STM]
    them = 1 - us
    own = bbs[BB_COLOR + us]
    occupied = own | bbs[BB_COLOR + them]
    not_own = ~own
    king_bb = bbs[BB_TYPE + KING] & own
    ksq = lsb(king_bb)
    checkers = attackers_of_color(bbs, them, ksq, occupied)
    n = 0

    # king steps: the target must not be attacked once the king has left its square
    without_king = occupied ^ king_bb
    targets = KING_ATTACKS[ksq] & not_own
    while targets:
        to = lsb(targets)
        targets = pop_lsb(targets)
        if not is_attacked(bbs, them, to, without_king):
            if count_only:
                n += 1
            else:
                out[n] = pack_move(ksq, to, KIND_NORMAL, 0)
                n += 1
    gates_on = info[V_GATES] == GATES_OUK and (bbs[BB_GATES] & own) != ZERO
    # Ouk king leap: only with its gate, never out of check, onto an empty square
    if gates_on and checkers == ZERO and (bbs[BB_GATES] & king_bb) != ZERO:
        targets = KING_LEAPS_FORWARD[us, ksq] & ~occupied
        while targets:
            to = lsb(targets)
            targets = pop_lsb(targets)
            if not is_attacked(bbs, them, to, without_king):
                if count_only:
                    n += 1
                else:
                    out[n] = pack_move(ksq, to, KIND_NORMAL, 0)
                    n += 1

    if checkers != ZERO and popcount(checkers) > 1:
        return n
    allowed = not_own
    if checkers != ZERO:
        checker = lsb(checkers)
        allowed &= checkers | BETWEEN[ksq, checker]
    pinned = pinned_pieces(bbs, us, ksq, occupied)

    pieces = bbs[BB_TYPE + KNIGHT] & own & ~pinned  # a pinned knight can never move
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        n = _emit(out, n, sq, KNIGHT_ATTACKS[sq] & allowed, KIND_NORMAL, 0, count_only)

    pieces = bbs[BB_TYPE + MET] & own & ~pinned  # diagonal steps never stay on a rank or file
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        n = _emit(out, n, sq, FERZ_ATTACKS[sq] & allowed, KIND_NORMAL, 0, count_only)

    pieces = bbs[BB_TYPE + KHON] & own
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        targets = KHON_ATTACKS[us, sq] & allowed
        if pinned & bit(sq):
            targets &= LINE[ksq, sq]
        n = _emit(out, n, sq, targets, KIND_NORMAL, 0, count_only)

    pieces = bbs[BB_TYPE + ROOK] & own
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        targets = rook_attacks(sq, occupied) & allowed
        if pinned & bit(sq):
            targets &= LINE[ksq, sq]
        n = _emit(out, n, sq, targets, KIND_NORMAL, 0, count_only)

    enemies = bbs[BB_COLOR + them]
    empty = ~occupied
    promote = info[V_PROMOTION] == PROMOTION_ON_MOVE
    zone = bbs[BB_PROMO_ZONE + us] if promote else ZERO
    promoted_type = info[V_PROMOTED_TYPE]
    pieces = bbs[BB_TYPE + PAWN] & own
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        targets = ((PAWN_PUSHES[us, sq] & empty) | (PAWN_ATTACKS[us, sq] & enemies)) & allowed
        if pinned & bit(sq):
            targets &= LINE[ksq, sq]
        n = _emit(out, n, sq, targets & ~zone, KIND_NORMAL, 0, count_only)
        n = _emit(out, n, sq, targets & zone, KIND_PROMOTION, promoted_type, count_only)

    if gates_on:
        # Ouk met leap: two squares straight ahead onto an empty square, jumping the middle one
        pieces = bbs[BB_TYPE + MET] & own & bbs[BB_GATES]
        while pieces:
            sq = lsb(pieces)
            pieces = pop_lsb(pieces)
            targets = TWO_AHEAD[us, sq] & empty & allowed
            if pinned & bit(sq):
                targets &= LINE[ksq, sq]
            n = _emit(out, n, sq, targets, KIND_NORMAL, 0, count_only)
    return n
