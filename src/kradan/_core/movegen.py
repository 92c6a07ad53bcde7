"""Fully legal move generation: checkers, pins and evasion masks, no make-test-unmake.

Only rooks slide in these games, so pins lie on ranks and files and a single check is either
parried on the checker's square or, against a rook, on the squares between it and the king.
Only ``stalemate="illegal"`` makes and unmakes: a move that stalemates is dropped, unless
every move does.
"""

from __future__ import annotations

import numpy as np

from .attacks import attackers_of_color, in_check, is_attacked, pinned_pieces, rook_attacks
from .bits import ZERO, bit, jit, jit_inline, lsb, pop_lsb, popcount
from .emit import emit, pack_move
from .layout import (
    BB_COLOR,
    BB_GATES,
    BB_PROMO_ZONE,
    BB_TYPE,
    I_CHECKS,
    I_STM,
    KHON,
    KIND_NORMAL,
    KIND_PROMOTION,
    KING,
    KNIGHT,
    MAX_MOVES,
    MET,
    PAWN,
    PROMOTION_ON_MOVE,
    PROMOTION_SITTUYIN,
    ROOK,
    V_CHECK_WINS,
    V_DROPS,
    V_NO_STALEMATING,
    V_PROMOTED_TYPE,
    V_PROMOTION,
)
from .makemove import make_move, unmake_move
from .special import (
    generate_drops,
    generate_first_moves,
    generate_sittuyin_promotions,
    hand_count,
)
from .tables import (
    BETWEEN,
    FERZ_ATTACKS,
    KHON_ATTACKS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    PAWN_PUSHES,
)


@jit_inline
def game_stopped_by_check(info: np.ndarray) -> bool:
    """Kar Ouk: a side has used up its checks, so the game is over and nothing is legal."""
    return info[V_CHECK_WINS] != 0 and (info[I_CHECKS] == 0 or info[I_CHECKS + 1] == 0)


@jit_inline
def legal_moves(bbs: np.ndarray, info: np.ndarray, out: np.ndarray) -> int:
    """Write every legal move into ``out`` and return how many there are: those of
    :func:`generate_moves`, less the stalemating ones under ``stalemate="illegal"``.

    Inlined at each call site, which then calls the generator with a constant flag: numba keeps
    one compiled generator per flag, and the plain game pays one branch for the option.
    """
    n = generate_moves(bbs, info, out, False)
    if info[V_NO_STALEMATING] != 0:
        return drop_stalemating(bbs, info, out, n)
    return n


@jit_inline
def count_legal_moves(bbs: np.ndarray, info: np.ndarray, out: np.ndarray) -> int:
    """How many legal moves there are (``out`` is scratch space); see :func:`legal_moves`."""
    if info[V_NO_STALEMATING] != 0:
        return drop_stalemating(bbs, info, out, generate_moves(bbs, info, out, False))
    return generate_moves(bbs, info, out, True)


@jit
def drop_stalemating(bbs: np.ndarray, info: np.ndarray, out: np.ndarray, n: int) -> int:
    """Keep the first ``n`` moves of ``out`` that do not leave the opponent stalemated
    (``stalemate="illegal"``); all of them when every move stalemates, so that a side never
    lacks a move by this rule. Returns how many are kept."""
    scratch = np.empty(MAX_MOVES, dtype=out.dtype)
    kept = 0
    for i in range(n):
        move = out[i]
        make_move(bbs, info, np.int64(move))  # type: ignore[arg-type]
        # the replies generated, not only counted: the search then compiles one copy of the
        # generator (this rule is an option, and rare)
        replies = generate_moves(bbs, info, scratch, False)
        stalemating = replies == 0 and not in_check(bbs, info[I_STM])
        unmake_move(bbs, info)
        if not stalemating:
            out[kept] = move
            kept += 1
    return kept if kept > 0 else n


@jit
def generate_moves(bbs: np.ndarray, info: np.ndarray, out: np.ndarray, count_only: bool) -> int:
    """Every legal move by the rules of movement (without ``stalemate="illegal"``: see
    :func:`legal_moves`) into ``out`` (or only counted); returns how many there are."""
    if game_stopped_by_check(info):
        return 0
    us = info[I_STM]
    # the rare generators take the flag as a plain boolean (one compiled version, not two)
    counting = count_only != False  # noqa: E712
    if info[V_DROPS] != 0 and hand_count(info, us) > 0:
        return generate_drops(bbs, info, out, counting)
    them = 1 - us
    own = bbs[BB_COLOR + us]
    occupied = own | bbs[BB_COLOR + them]
    # a king is never taken: only a set-up position where the side not to move is in check
    # (which a FEN may hold, as Fairy-Stockfish's do) offers one
    their_king = bbs[BB_TYPE + KING] & bbs[BB_COLOR + them]
    not_own = ~(own | their_king)
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
        n = emit(out, n, sq, KNIGHT_ATTACKS[sq] & allowed, KIND_NORMAL, 0, count_only)

    pieces = bbs[BB_TYPE + MET] & own & ~pinned  # diagonal steps never stay on a rank or file
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        n = emit(out, n, sq, FERZ_ATTACKS[sq] & allowed, KIND_NORMAL, 0, count_only)

    pieces = bbs[BB_TYPE + KHON] & own
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        targets = KHON_ATTACKS[us, sq] & allowed
        if pinned & bit(sq):
            targets &= LINE[ksq, sq]
        n = emit(out, n, sq, targets, KIND_NORMAL, 0, count_only)

    pieces = bbs[BB_TYPE + ROOK] & own
    while pieces:
        sq = lsb(pieces)
        pieces = pop_lsb(pieces)
        targets = rook_attacks(sq, occupied) & allowed
        if pinned & bit(sq):
            targets &= LINE[ksq, sq]
        n = emit(out, n, sq, targets, KIND_NORMAL, 0, count_only)

    enemies = bbs[BB_COLOR + them] ^ their_king
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
        n = emit(out, n, sq, targets & ~zone, KIND_NORMAL, 0, count_only)
        n = emit(out, n, sq, targets & zone, KIND_PROMOTION, promoted_type, count_only)

    if bbs[BB_GATES] & own:
        n = generate_first_moves(bbs, info, out, n, counting, checkers, allowed, pinned)
    if info[V_PROMOTION] == PROMOTION_SITTUYIN and (bbs[BB_TYPE + MET] & own) == ZERO:
        n = generate_sittuyin_promotions(bbs, info, out, n, counting, checkers, allowed, pinned)
    return n
