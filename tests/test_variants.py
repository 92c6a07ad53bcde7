"""``Variant`` and ``find_variant`` (DESIGN.md, layer "variants")."""

from __future__ import annotations

import pytest

from kradan import VariantError
from kradan.variants import (
    MAKRUK,
    CountingRule,
    PromotionRule,
    SittuyinCounting,
    find_variant,
    variant_names,
)


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


# --- the options' start positions and rules (docs/rules.md 2.8, 5.6, section 8) ----------------


def test_handicap_rooks_start_as_mets_of_their_colour() -> None:
    """docs/rules.md 2.8, takhen rua: the rooks named start as mets, White's upper case."""
    fen = find_variant("makruk", takhen_rua=("a1", "h8")).starting_fen
    assert fen == "rnsmksnm/8/pppppppp/8/8/PPPPPPPP/8/MNSKMSNR w - - 0 1"
    fen = find_variant("makruk", takhen_rua=("h1", "a8")).starting_fen
    assert fen == "mnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNM w - - 0 1"


@pytest.mark.parametrize(
    ("options", "rights"),
    [
        ({"sut_ma": True}, "BGbg"),
        ({"sut_khun": True}, "De"),
        ({"sut_met": True}, "Ed"),
        ({"sut_khun": True, "sut_met": True, "sut_ma": True}, "BDEGbdeg"),
    ],
)
def test_sutras_write_their_rights_in_the_start_position(
    options: dict[str, bool], rights: str
) -> None:
    """docs/rules.md 2.8: each sutra's pieces hold a right in FEN field 3 at the start, White's
    files in upper case first: the king's (d1, e8), the met's (e1, d8), the knights'."""
    fen = find_variant("makruk", **options).starting_fen
    assert fen == f"rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w {rights} - 0 1"
    handicap = find_variant("makruk", takhen_rua=("a1",), **options).starting_fen
    assert handicap == f"rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/MNSKMSNR w {rights} - 0 1"


def test_without_options_the_start_position_is_the_games_own() -> None:
    """Ouk keeps its gate rights (DEde) when no Makruk option applies."""
    for name in ("makruk", "cambodian", "karouk", "sittuyin"):
        variant = find_variant(name)
        assert variant.starting_fen == variant.start_fen
    assert find_variant("cambodian").starting_fen.split()[2] == "DEde"


@pytest.mark.parametrize(
    ("counting", "rule"),
    [
        ("asean", CountingRule.ASEAN),
        ("seed", CountingRule.SITTUYIN_SEED),
        ("seed_literal", CountingRule.SITTUYIN_SEED_LITERAL),
    ],
)
def test_sittuyin_counting_picks_the_limits(counting: str, rule: CountingRule) -> None:
    """docs/rules.md 5.6, Decision 9: the ASEAN limits by default, the seed's when chosen."""
    variant = find_variant("sittuyin", sittuyin_counting=counting)
    assert variant.effective_counting_rule is rule


@pytest.mark.parametrize("option", ["pieces_count_optional", "allow_voluntary_restart"])
def test_declared_only_options_need_declared_counting(option: str) -> None:
    """Decision 9: the lone side's choices exist only when counts are declared."""
    with pytest.raises(VariantError, match=f"option '{option}' needs counting='declared'"):
        find_variant("makruk", **{option: True})
    assert getattr(find_variant("makruk", counting="declared", **{option: True}), option)


@pytest.mark.parametrize("counting", ["seed", "seed_literal"])
def test_sittuyin_counting_leaves_other_games_limits(counting: str) -> None:
    """The option is Sittuyin's alone: set on another game without the checks (``replace``),
    it still changes nothing there."""
    for name, rule in (("makruk", CountingRule.MAKRUK), ("cambodian", CountingRule.CAMBODIAN)):
        variant = find_variant(name).replace(sittuyin_counting=SittuyinCounting(counting))
        assert variant.effective_counting_rule is rule
