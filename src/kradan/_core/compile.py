"""Compile a :class:`~kradan.variants.Variant` into the kernel's variant parameters."""

from __future__ import annotations

import numpy as np

from ..variants import (
    CountingMode,
    CountingRule,
    GateRule,
    KingLeap,
    MetLeap,
    PiecesPrecedence,
    PromotionRule,
    SetupRule,
    StalemateRule,
    SutraWindow,
    Variant,
)
from . import layout as L
from .tables import LONG_DIAGONALS, RANK_MASKS

_PROMOTION = {
    PromotionRule.NONE: L.PROMOTION_NONE,
    PromotionRule.ON_ENTRY: L.PROMOTION_ON_MOVE,
    PromotionRule.SEPARATE_MOVE: L.PROMOTION_SITTUYIN,
}
_COUNTING = {
    CountingRule.NONE: L.COUNTING_NONE,
    CountingRule.MAKRUK: L.COUNTING_MAKRUK,
    CountingRule.CAMBODIAN: L.COUNTING_CAMBODIAN,
    CountingRule.ASEAN: L.COUNTING_ASEAN,
    CountingRule.SITTUYIN_SEED: L.COUNTING_SITTUYIN_SEED,
    CountingRule.SITTUYIN_SEED_LITERAL: L.COUNTING_SITTUYIN_SEED_LITERAL,
}
_GATES = {GateRule.NONE: L.GATES_NONE, GateRule.KING_AND_MET_LEAPS: L.GATES_OUK}
_WINDOWS = {
    SutraWindow.UNMOVED_AND_NO_CAPTURE: L.WINDOW_UNMOVED_AND_NO_CAPTURE,
    SutraWindow.UNMOVED: L.WINDOW_UNMOVED,
    SutraWindow.FIRST_MOVE_ONLY: L.WINDOW_FIRST_MOVE_ONLY,
}


def _leap_flags(variant: Variant) -> int:
    flags = 0
    if variant.ouk_require_no_capture:
        flags |= L.LEAP_REQUIRE_NO_CAPTURE
    if variant.ouk_king_leap is KingLeap.ANY_KNIGHT:
        flags |= L.LEAP_KING_ANY_KNIGHT
    if variant.ouk_met_leap is MetLeap.CLEAR_PATH:
        flags |= L.LEAP_MET_CLEAR_PATH
    if variant.ouk_rook_aim_cancels:
        flags |= L.LEAP_ROOK_AIM_CANCELS
    return flags


def _count_flags(variant: Variant) -> int:
    flags = 0
    if variant.pieces_honour_precedence is PiecesPrecedence.KHON_FIRST:
        flags |= L.COUNT_KHON_FIRST
    if variant.counting is CountingMode.DECLARED:
        flags |= L.COUNT_DECLARED
        if variant.pieces_count_optional:
            flags |= L.COUNT_PIECES_OPTIONAL
    if variant.ouk_count_sooner:
        flags |= L.COUNT_SOONER
    return flags


def _sutras(variant: Variant) -> int:
    return (
        (L.SUTRA_KHUN if variant.sut_khun else 0)
        | (L.SUTRA_MET if variant.sut_met else 0)
        | (L.SUTRA_MA if variant.sut_ma else 0)
    )


def _relative_ranks_mask(color: int, ranks: tuple[int, ...] | range) -> np.uint64:
    mask = np.uint64(0)
    for relative in ranks:
        index = relative - 1 if color == L.WHITE else 8 - relative
        mask |= RANK_MASKS[index]
    return mask


def apply_variant(bbs: np.ndarray, info: np.ndarray, variant: Variant) -> None:
    """Write the variant parameters and region masks into a position's arrays."""
    info[L.V_PROMOTION] = _PROMOTION[variant.promotion]
    info[L.V_COUNTING] = _COUNTING[variant.effective_counting_rule]
    info[L.V_COUNT_FLAGS] = _count_flags(variant)
    info[L.V_NO_STALEMATING] = 1 if variant.stalemate is StalemateRule.ILLEGAL else 0
    info[L.V_GATES] = _GATES[variant.gates]
    info[L.V_CHECK_WINS] = 1 if variant.checks_to_win else 0
    info[L.V_DROPS] = 1 if variant.setup is SetupRule.DROPS else 0
    info[L.V_PROMOTED_TYPE] = L.MET
    info[L.V_LEAP_FLAGS] = _leap_flags(variant)
    info[L.V_SUTRAS] = _sutras(variant)
    info[L.V_SUTRA_WINDOW] = _WINDOWS[variant.sutra_window]
    for color in (L.WHITE, L.BLACK):
        promotion_ranks = range(variant.promotion_rank, 9) if variant.promotion_rank else ()
        zone = _relative_ranks_mask(color, promotion_ranks)
        if variant.promotion is PromotionRule.SEPARATE_MOVE:
            zone &= LONG_DIAGONALS  # Sittuyin: the sit-ke lines in the opponent's half
        bbs[L.BB_PROMO_ZONE + color] = zone
        bbs[L.BB_DROP_ZONE + color] = _relative_ranks_mask(color, variant.drop_ranks)
        bbs[L.BB_ROOK_DROP_ZONE + color] = _relative_ranks_mask(color, variant.rook_drop_ranks)
