"""The rarer moves: Sittuyin drops and promotions, Ouk leaps and Makruk sutras.

They are generated only when they can exist (pieces in hand, first-move rights, no sit-ke on the
board), so the common path in :mod:`movegen` stays lean. Sutra moves, which move two pieces, are
checked by making and unmaking them.
"""

from __future__ import annotations

import numpy as np

from .attacks import attackers_of_color, in_check, is_attacked, rook_attacks
from .bits import FULL, ZERO, bit, jit, jit_inline, lsb, pop_lsb, popcount
from .emit import emit, emit_one, pack_move
from .layout import (
    BB_COLOR,
    BB_DROP_ZONE,
    BB_GATES,
    BB_PROMO_ZONE,
    BB_ROOK_DROP_ZONE,
    BB_TYPE,
    FULL_ARMY,
    GATES_OUK,
    I_GAME_PLY,
    I_HAND,
    I_STM,
    KIND_DROP,
    KIND_NORMAL,
    KIND_PIECE_PROMOTION,
    KIND_SUTRA,
    KING,
    KNIGHT,
    LEAP_KING_ANY_KNIGHT,
    LEAP_MET_CLEAR_PATH,
    LEAP_REQUIRE_NO_CAPTURE,
    MET,
    PAWN,
    PIECE_TYPE_NB,
    ROOK,
    SUTRA_KHUN,
    SUTRA_MA,
    SUTRA_MET,
    V_GATES,
    V_LEAP_FLAGS,
    V_SUTRA_WINDOW,
    V_SUTRAS,
    WINDOW_FIRST_MOVE_ONLY,
    WINDOW_UNMOVED_AND_NO_CAPTURE,
)
from .makemove import make_move, unmake_move
from .tables import (
    BETWEEN,
    FERZ_ATTACKS,
    KING_LEAPS_FORWARD,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_PUSHES,
    RANK_MASKS,
    TWO_AHEAD,
)


@jit_inline
def hand_count(info: np.ndarray, color: int) -> int:
    """Pieces ``color`` still holds in hand."""
    total = 0
    for ptype in range(PIECE_TYPE_NB):
        total += info[I_HAND + color * PIECE_TYPE_NB + ptype]
    return total


@jit
def generate_drops(bbs: np.ndarray, info: np.ndarray, out: np.ndarray, count_only: bool) -> int:
    """Setup phase: every drop of a piece in hand onto an empty square of its region."""
    us = info[I_STM]
    them = 1 - us
    own = bbs[BB_COLOR + us]
    occupied = own | bbs[BB_COLOR + them]
    empty = ~occupied
    allowed = FULL
    king_bb = bbs[BB_TYPE + KING] & own
    if king_bb:
        ksq = lsb(king_bb)
        checkers = attackers_of_color(bbs, them, ksq, occupied)
        if checkers:
            if popcount(checkers) > 1:
                return 0
            allowed = BETWEEN[ksq, lsb(checkers)]  # a drop can only block
    n = 0
    for ptype in range(PIECE_TYPE_NB):
        if info[I_HAND + us * PIECE_TYPE_NB + ptype] > 0:
            zone = bbs[BB_ROOK_DROP_ZONE + us] if ptype == ROOK else bbs[BB_DROP_ZONE + us]
            n = emit(out, n, 0, zone & empty & allowed, KIND_DROP, ptype, count_only)
    return n


@jit_inline
def _king_leaps(
    bbs: np.ndarray,
    out: np.ndarray,
    n: int,
    count_only: bool,
    us: int,
    targets: np.uint64,
) -> int:
    """King leaps to empty ``targets`` that are not attacked."""
    king_bb = bbs[BB_TYPE + KING] & bbs[BB_COLOR + us]
    ksq = lsb(king_bb)
    occupied = bbs[BB_COLOR] | bbs[BB_COLOR + 1]
    targets &= ~occupied
    while targets:
        to = lsb(targets)
        targets = pop_lsb(targets)
        if not is_attacked(bbs, 1 - us, to, occupied ^ king_bb):
            n = emit_one(out, n, pack_move(ksq, to, KIND_NORMAL, 0), count_only)
    return n


@jit
def _sutra_if_legal(
    bbs: np.ndarray, info: np.ndarray, out: np.ndarray, n: int, count_only: bool, move: int
) -> int:
    us = info[I_STM]
    make_move(bbs, info, move)
    legal = not in_check(bbs, us)
    unmake_move(bbs, info)
    if legal:
        n = emit_one(out, n, move, count_only)
    return n


@jit
def generate_first_moves(
    bbs: np.ndarray,
    info: np.ndarray,
    out: np.ndarray,
    n: int,
    count_only: bool,
    checkers: np.uint64,
    allowed: np.uint64,
    pinned: np.uint64,
) -> int:
    """Moves that need a first-move right: Ouk king and met leaps, Makruk sutras."""
    us = info[I_STM]
    own = bbs[BB_COLOR + us]
    occupied = own | bbs[BB_COLOR + 1 - us]
    empty = ~occupied
    rights = bbs[BB_GATES] & own
    king_bb = bbs[BB_TYPE + KING] & own
    ksq = lsb(king_bb)
    nothing_captured = popcount(occupied) == FULL_ARMY

    if info[V_GATES] == GATES_OUK:
        flags = info[V_LEAP_FLAGS]
        if flags & LEAP_REQUIRE_NO_CAPTURE and not nothing_captured:
            return n
        if rights & king_bb and checkers == ZERO:  # never out of check
            if flags & LEAP_KING_ANY_KNIGHT:
                n = _king_leaps(bbs, out, n, count_only, us, KNIGHT_ATTACKS[ksq])
            else:
                n = _king_leaps(bbs, out, n, count_only, us, KING_LEAPS_FORWARD[us, ksq])
        mets = bbs[BB_TYPE + MET] & rights
        while mets:
            sq = lsb(mets)
            mets = pop_lsb(mets)
            targets = TWO_AHEAD[us, sq] & empty & allowed
            if flags & LEAP_MET_CLEAR_PATH and PAWN_PUSHES[us, sq] & occupied:
                targets = ZERO
            if pinned & bit(sq):
                targets &= LINE[ksq, sq]
            n = emit(out, n, sq, targets, KIND_NORMAL, 0, count_only)
        return n

    sutras = info[V_SUTRAS]
    window = info[V_SUTRA_WINDOW]
    if window == WINDOW_UNMOVED_AND_NO_CAPTURE and not nothing_captured:
        return n
    if window == WINDOW_FIRST_MOVE_ONLY and info[I_GAME_PLY] >= 2:
        return n
    if sutras & SUTRA_KHUN and rights & king_bb and checkers == ZERO:
        n = _king_leaps(bbs, out, n, count_only, us, KING_LEAPS_FORWARD[us, ksq])
    unmoved_pawns = bbs[BB_TYPE + PAWN] & own & RANK_MASKS[2 if us == 0 else 5]
    if sutras & SUTRA_MET:
        mets = bbs[BB_TYPE + MET] & rights
        while mets:
            sq = lsb(mets)
            mets = pop_lsb(mets)
            pawn = TWO_AHEAD[us, sq] & unmoved_pawns
            if pawn and (PAWN_PUSHES[us, sq] & occupied) == ZERO:
                pawn_sq = lsb(pawn)
                if PAWN_PUSHES[us, pawn_sq] & empty:
                    move = pack_move(sq, pawn_sq, KIND_SUTRA, us)
                    n = _sutra_if_legal(bbs, info, out, n, count_only, move)
    if sutras & SUTRA_MA:
        knights = bbs[BB_TYPE + KNIGHT] & rights
        while knights:
            sq = lsb(knights)
            knights = pop_lsb(knights)
            pawns = KNIGHT_ATTACKS[sq] & unmoved_pawns
            while pawns:
                pawn_sq = lsb(pawns)
                pawns = pop_lsb(pawns)
                if PAWN_PUSHES[us, pawn_sq] & empty:
                    move = pack_move(sq, pawn_sq, KIND_SUTRA, us)
                    n = _sutra_if_legal(bbs, info, out, n, count_only, move)
    return n


@jit
def generate_sittuyin_promotions(
    bbs: np.ndarray,
    info: np.ndarray,
    out: np.ndarray,
    n: int,
    count_only: bool,
    checkers: np.uint64,
    allowed: np.uint64,
    pinned: np.uint64,
) -> int:
    """Sittuyin promotions (docs/rules.md 5.5), for a side with no sit-ke on the board.

    With two or more pawns only those standing on a promotion square may promote; a last pawn
    may promote anywhere. The pawn becomes a sit-ke in place or one diagonal step away on an
    empty square; the new sit-ke may attack no enemy piece and the move may give no check.
    """
    us = info[I_STM]
    them = 1 - us
    own = bbs[BB_COLOR + us]
    enemies = bbs[BB_COLOR + them]
    occupied = own | enemies
    pawns = bbs[BB_TYPE + PAWN] & own
    if popcount(pawns) > 1:
        pawns &= bbs[BB_PROMO_ZONE + us]
    if pawns == ZERO:
        return n
    ksq = lsb(bbs[BB_TYPE + KING] & own)
    their_king = bbs[BB_TYPE + KING] & enemies
    own_rooks = bbs[BB_TYPE + ROOK] & own
    while pawns:
        sq = lsb(pawns)
        pawns = pop_lsb(pawns)
        # in place: nothing moves, so it can neither parry a check nor uncover one
        if checkers == ZERO and (FERZ_ATTACKS[sq] & enemies) == ZERO:
            n = emit_one(out, n, pack_move(sq, sq, KIND_PIECE_PROMOTION, MET), count_only)
        targets = FERZ_ATTACKS[sq] & ~occupied & allowed
        if pinned & bit(sq):
            targets &= LINE[ksq, sq]
        while targets:
            to = lsb(targets)
            targets = pop_lsb(targets)
            if FERZ_ATTACKS[to] & enemies:
                continue
            if their_king:
                after = occupied ^ bit(sq) ^ bit(to)
                if rook_attacks(lsb(their_king), after) & own_rooks:
                    continue  # the step would uncover a check
            n = emit_one(out, n, pack_move(sq, to, KIND_PIECE_PROMOTION, MET), count_only)
    return n
