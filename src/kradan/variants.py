"""Variants: every game kradan knows is a frozen :class:`Variant` of rule parameters.

A new game of the chess family is new data here, not new kernel code: the kernel reads the
promotion rule and region, the first-move rights (gates), the setup phase (pieces in hand that
must be dropped), the counting rule and the check rule from these fields.

>>> find_variant("Thai chess").name
'makruk'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

from .errors import VariantError
from .pieces import KHON, KING, KNIGHT, MET, PAWN, ROOK, PieceType


class PromotionRule(StrEnum):
    """How pawns promote (RULES.md 2.3, 5.5)."""

    NONE = "none"
    #: a pawn entering the promotion region becomes ``promoted_type`` in the same move (Makruk)
    ON_ENTRY = "on_entry"
    #: promotion is a move of its own, in place or one diagonal step (Sittuyin)
    SEPARATE_MOVE = "separate_move"


class GateRule(StrEnum):
    """First-move rights kept in FEN field 3 (RULES.md 3.1-3.2)."""

    NONE = "none"
    #: the unmoved king may leap to a knight square on the rank ahead, the met two squares ahead
    KING_AND_MET_LEAPS = "king_and_met_leaps"


class SetupRule(StrEnum):
    """How the pieces reach the board (RULES.md 5.3)."""

    #: the game starts from ``start_fen`` with every piece on the board
    FIXED = "fixed"
    #: pieces start in hand and are dropped one per turn into the own camp before play
    DROPS = "drops"


class CountingRule(StrEnum):
    """Which automatic counting rule applies (RULES.md 2.6.2, 3.3, 5.6)."""

    NONE = "none"
    MAKRUK = "makruk"
    CAMBODIAN = "cambodian"
    ASEAN = "asean"


@dataclass(frozen=True)
class Variant:
    """The rule parameters of one game of the chess family."""

    #: Fairy-Stockfish's name, used in UCI ``UCI_Variant`` and PGN ``[Variant]``
    name: str
    #: the name people use
    title: str
    aliases: tuple[str, ...]
    start_fen: str
    #: public piece type of each kernel piece index (pawn, knight, khon, met, rook, king)
    piece_types: tuple[PieceType, PieceType, PieceType, PieceType, PieceType, PieceType]
    promotion: PromotionRule
    #: relative rank (1-8, counted from the owner's side) where the promotion region begins
    promotion_rank: int
    #: the piece type a pawn becomes
    promoted_type: PieceType
    gates: GateRule = GateRule.NONE
    setup: SetupRule = SetupRule.FIXED
    #: the relative ranks (1-8) where pieces may be dropped during the setup phase
    drop_ranks: tuple[int, ...] = ()
    #: the relative ranks where rooks may be dropped
    rook_drop_ranks: tuple[int, ...] = ()
    counting: CountingRule = CountingRule.NONE
    #: checks a side must give to win at once (Kar Ouk: 1); 0 means checks do not win
    checks_to_win: int = 0
    #: plies without capture or pawn move after which a draw may be claimed, in moves; 0 = none
    n_move_rule: int = 0
    #: write promoted pieces as ``M~`` in FEN by default
    show_promoted: bool = False

    @property
    def letters(self) -> str:
        """Upper-case FEN letters in kernel order, e.g. ``'PNSMRK'``."""
        from .pieces import piece_symbol

        return "".join(piece_symbol(t).upper() for t in self.piece_types)

    def replace(self, **changes: object) -> Variant:
        """A copy with some fields changed.

        :raises VariantError: for a field name the variant does not have.
        """
        names = {field.name for field in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise VariantError(
                f"unknown variant field(s) {', '.join(map(repr, unknown))}; "
                f"known fields: {', '.join(sorted(names))}"
            )
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


MAKRUK = Variant(
    name="makruk",
    title="Makruk",
    aliases=("thai", "thai chess", "makruk"),
    start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    piece_types=(PAWN, KNIGHT, KHON, MET, ROOK, KING),
    promotion=PromotionRule.ON_ENTRY,
    promotion_rank=6,
    promoted_type=MET,
    counting=CountingRule.MAKRUK,
)

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (MAKRUK,)}


def _normalise(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def _build_alias_table() -> dict[str, Variant]:
    table: dict[str, Variant] = {}
    for variant in VARIANTS.values():
        for alias in (variant.name, variant.title, *variant.aliases):
            table[_normalise(alias)] = variant
            table[_normalise(alias).replace(" ", "")] = variant
    return table


_ALIASES = _build_alias_table()


def variant_names() -> list[str]:
    """The names of every built-in variant."""
    return sorted(VARIANTS)


def find_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (case-insensitive; aliases such as ``"thai"`` work).

    A :class:`Variant` passes through unchanged.

    :raises VariantError: for an unknown name, listing the known ones.
    """
    if isinstance(name, Variant):
        return name
    if isinstance(name, str):
        key = _normalise(name)
        found = _ALIASES.get(key) or _ALIASES.get(key.replace(" ", ""))
        if found is not None:
            return found
    known = ", ".join(variant_names())
    raise VariantError(f"unknown variant {name!r}; known variants: {known}")


__all__ = [
    "MAKRUK",
    "VARIANTS",
    "CountingRule",
    "GateRule",
    "PromotionRule",
    "SetupRule",
    "Variant",
    "find_variant",
    "variant_names",
]
