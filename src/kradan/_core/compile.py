"""Compile a :class:`~kradan.variants.Variant` into the kernel's variant parameters."""

from __future__ import annotations

import numpy as np

from ..variants import CountingRule, GateRule, PromotionRule, SetupRule, Variant
from . import layout as L
from .tables import RANK_MASKS

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
}
_GATES = {GateRule.NONE: L.GATES_NONE, GateRule.KING_AND_MET_LEAPS: L.GATES_OUK}


def _relative_ranks_mask(color: int, ranks: tuple[int, ...] | range) -> np.uint64:
    mask = np.uint64(0)
    for relative in ranks:
        index = relative - 1 if color == L.WHITE else 8 - relative
        mask |= RANK_MASKS[index]
    return mask


def apply_variant(bbs: np.ndarray, info: np.ndarray, variant: Variant) -> None:
    """Write the variant parameters and region masks into a position's arrays."""
    info[L.V_PROMOTION] = _PROMOTION[variant.promotion]
    info[L.V_COUNTING] = _COUNTING[variant.counting]
    info[L.V_GATES] = _GATES[variant.gates]
    info[L.V_CHECK_WINS] = 1 if variant.checks_to_win else 0
    info[L.V_DROPS] = 1 if variant.setup is SetupRule.DROPS else 0
    info[L.V_PROMOTED_TYPE] = L.MET
    for color in (L.WHITE, L.BLACK):
        promotion_ranks = range(variant.promotion_rank, 9) if variant.promotion_rank else ()
        bbs[L.BB_PROMO_ZONE + color] = _relative_ranks_mask(color, promotion_ranks)
        bbs[L.BB_DROP_ZONE + color] = _relative_ranks_mask(color, variant.drop_ranks)
        bbs[L.BB_ROOK_DROP_ZONE + color] = _relative_ranks_mask(color, variant.rook_drop_ranks)
