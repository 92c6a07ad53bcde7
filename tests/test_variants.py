"""``Variant`` and ``find_variant`` (DESIGN.md, layer "variants")."""

from __future__ import annotations

import pytest

from kradan import VariantError
from kradan.variants import MAKRUK, CountingRule, PromotionRule, find_variant, variant_names


@pytest.mark.parametrize(
    "name", ["makruk", "Makruk", "thai", "Thai chess", "THAI_CHESS", "thai-chess"]
)
def test_aliases_find_makruk(name: str) -> None:
    assert find_variant(name) is MAKRUK


def test_unknown_variant_lists_the_known_ones() -> None:
    with pytest.raises(VariantError) as info:
        find_variant("chess")
    message = str(info.value)
    assert "'chess'" in message
    for name in variant_names():
        assert name in message


def test_makruk_parameters() -> None:
    assert MAKRUK.promotion is PromotionRule.ON_ENTRY
    assert MAKRUK.promotion_rank == 6
    assert MAKRUK.counting_rule is CountingRule.MAKRUK
    assert MAKRUK.letters == "PNSMRK"
    assert MAKRUK.checks_to_win == 0 and MAKRUK.n_move_rule == 0


def test_replace_makes_a_changed_copy_and_rejects_unknown_fields() -> None:
    shown = MAKRUK.replace(show_promoted=True)
    assert shown.show_promoted and not MAKRUK.show_promoted
    with pytest.raises(VariantError) as info:
        MAKRUK.replace(colour="blue")
    assert "'colour'" in str(info.value)


def test_variants_are_frozen() -> None:
    with pytest.raises(AttributeError):
        MAKRUK.name = "other"  # type: ignore[misc]
