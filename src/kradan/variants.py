"""Variants: every game kradan knows is a frozen :class:`Variant` of rule parameters.

A new game of the chess family is new data here, not new kernel code: the kernel reads the
promotion rule and region, the first-move rights (gates), the setup phase (pieces in hand that
must be dropped), the counting rule and the check rule from these fields.

Rule options (docs/rules.md section 8) are fields too. ``find_variant(name, **options)`` and
``Board(variant=name, **options)`` set them, with their values checked:

>>> find_variant("Thai chess").name
'makruk'
>>> find_variant("ouk", ouk_king_leap="any_knight").ouk_king_leap
<KingLeap.ANY_KNIGHT: 'any_knight'>
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .errors import VariantError
from .pieces import FERZ, KHON, KING, KNIGHT, MET, PAWN, ROOK, PieceType
from .rulesets import N_, Catalogue, Option, RuleSetBase
from .variant_enums import (
    CountDeclarer,
    CountingMode,
    CountingRule,
    GateRule,
    InsufficientMaterial,
    KingLeap,
    KoreanDraws,
    MetLeap,
    OukCounting,
    PerpetualCheck,
    PiecesPrecedence,
    PromotionRule,
    SetupRule,
    SittuyinCounting,
    SittuyinSetup,
    StalemateRule,
    SutraWindow,
)


@dataclass(frozen=True)
class Variant(RuleSetBase):
    """The rule parameters of one game of the chess family, options included (its ``name``,
    ``title`` and ``aliases`` are :class:`~kradan.rulesets.RuleSetBase`'s)."""

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
    counting_rule: CountingRule = CountingRule.NONE
    #: checks a side must give to win at once (Kar Ouk: 1); 0 means checks do not win
    checks_to_win: int = 0
    #: moves without capture or pawn move after which a draw may be claimed; 0 = none
    n_move_rule: int = 0
    #: write promoted pieces as ``M~`` in FEN by default
    show_promoted: bool = False

    # --- Ouk options (docs/rules.md 3.2, conflict C10) --------------------------------------------
    #: the leaps are allowed only while no piece has been captured (all 32 pieces on the board)
    ouk_require_no_capture: bool = False
    ouk_king_leap: KingLeap = KingLeap.FORWARD_RANK
    ouk_met_leap: MetLeap = MetLeap.JUMP
    #: an enemy rook arriving on the king's rank or file cancels the king's leap
    ouk_rook_aim_cancels: bool = True

    # --- Makruk sutras (docs/rules.md 2.8) --------------------------------------------------------
    #: king sutra: the unmoved king leaps to an empty knight square on the rank ahead
    sut_khun: bool = False
    #: met sutra: the pawn in front of the met steps forward, the met moves onto its square
    sut_met: bool = False
    #: horse sutra: a pawn a knight's move from an unmoved knight steps forward, the knight
    #: jumps onto its square
    sut_ma: bool = False
    #: handicap: the rooks on these squares (a1, h1, a8, h8) start as mets
    takhen_rua: tuple[str, ...] = ()
    sutra_window: SutraWindow = SutraWindow.UNMOVED_AND_NO_CAPTURE

    # --- Sittuyin (docs/rules.md 5.3, 5.5, 5.6) ---------------------------------------------------
    sittuyin_setup: SittuyinSetup = SittuyinSetup.ALTERNATE
    sittuyin_counting: SittuyinCounting = SittuyinCounting.ASEAN
    #: K+P v K with only promotions legal is a draw (Fairy-Stockfish)
    promotion_only_draw: bool = True

    # --- End of game (docs/rules.md 2.4-2.7, 3.3, section 8) --------------------------------------
    counting: CountingMode = CountingMode.AUTO
    pieces_honour_precedence: PiecesPrecedence = PiecesPrecedence.LOWEST
    #: declared mode: the lone side chooses when to start pieces' honour ([S0], [S1])
    pieces_count_optional: bool = False
    #: declared mode: the lone side may restart pieces' honour from the new count ([S0])
    allow_voluntary_restart: bool = False
    #: declared mode: who may declare board's honour
    board_count_declarer: CountDeclarer = CountDeclarer.EITHER
    ouk_counting: OukCounting = OukCounting.CAMBODIAN
    #: Ouk: when pieces' honour arises while board's honour runs, the count that ends sooner
    #: applies (docs/rules.md 3.3 item 3)
    ouk_count_sooner: bool = False
    stalemate: StalemateRule = StalemateRule.DRAW
    #: occurrences of a position that make a draw claimable
    repetition_count: int = 3
    perpetual_check: PerpetualCheck = PerpetualCheck.DRAW
    insufficient_material: InsufficientMaterial = InsufficientMaterial.DEAD_POSITION
    korean_material_draws: KoreanDraws = KoreanDraws.OFF

    @cached_property
    def letters(self) -> str:
        """Upper-case FEN letters in kernel order, e.g. ``'PNSMRK'`` (worked out once: every
        FEN written reads it)."""
        from .pieces import piece_symbol

        return "".join(piece_symbol(t).upper() for t in self.piece_types)

    @property
    def effective_counting_rule(self) -> CountingRule:
        """The counting limits in force once ``ouk_counting`` / ``sittuyin_counting`` apply."""
        rule = self.counting_rule
        if rule is CountingRule.CAMBODIAN and self.ouk_counting is OukCounting.MAKRUK:
            return CountingRule.MAKRUK
        if rule is CountingRule.ASEAN and self.sittuyin_counting is SittuyinCounting.SEED:
            return CountingRule.SITTUYIN_SEED
        if rule is CountingRule.ASEAN and self.sittuyin_counting is SittuyinCounting.SEED_LITERAL:
            return CountingRule.SITTUYIN_SEED_LITERAL
        return self.counting_rule

    @property
    def has_sutras(self) -> bool:
        """Whether any Makruk sutra is switched on."""
        return self.sut_khun or self.sut_met or self.sut_ma

    @property
    def keeps_first_move_rights(self) -> bool:
        """Whether FEN field 3 holds first-move rights (Ouk gates or sutra rights)."""
        return self.gates is not GateRule.NONE or self.has_sutras

    @property
    def starting_fen(self) -> str:
        """The start position with the options applied (handicap rooks, sutra rights)."""
        if not self.takhen_rua and not self.has_sutras:
            return self.start_fen
        board, side, _rights, *rest = self.start_fen.split(" ")
        rows = [_expand(row) for row in board.split("/")]
        for name in self.takhen_rua:
            file, rank = "abcdefgh".index(name[0]), int(name[1])
            row = rows[8 - rank]
            rows[8 - rank] = row[:file] + ("M" if rank == 1 else "m") + row[file + 1 :]
        rights = ""
        if self.has_sutras:
            white = "".join(f.upper() for f in _sutra_files(self, white=True))
            black = "".join(_sutra_files(self, white=False))
            rights = white + black
        return " ".join(["/".join(_compress(r) for r in rows), side, rights or "-", *rest])

    def option_table(self) -> Mapping[str, Option]:
        """The chess family's rule options (:data:`OPTIONS`)."""
        return OPTIONS

    def with_options(self, **options: Any) -> Variant:
        """A copy with rule options set, each checked against the option catalogue.

        Strings are accepted for enum options (``ouk_king_leap="any_knight"``).

        :raises VariantError: for an unknown option, one that does not apply to this game, or
            a value outside the option's range.
        """
        result = super().with_options(**options)
        declared_only = ("pieces_count_optional", "allow_voluntary_restart")
        for key in declared_only:
            if getattr(result, key) and result.counting is not CountingMode.DECLARED:
                raise VariantError(f"option {key!r} needs counting='declared'")
        return result


def _expand(row: str) -> str:
    return "".join("." * int(c) if c.isdigit() else c for c in row)


def _compress(row: str) -> str:
    out, empty = "", 0
    for char in row:
        if char == ".":
            empty += 1
            continue
        out += (str(empty) if empty else "") + char
        empty = 0
    return out + (str(empty) if empty else "")


def _sutra_files(variant: Variant, *, white: bool) -> str:
    """File letters of the pieces that hold sutra rights at the start, in file order."""
    files = set()
    if variant.sut_ma:
        files |= {"b", "g"}
    if variant.sut_khun:
        files.add("d" if white else "e")
    if variant.sut_met:
        files.add("e" if white else "d")
    return "".join(sorted(files))


def _is_ouk(variant: Variant) -> bool:
    return variant.gates is GateRule.KING_AND_MET_LEAPS


def _is_makruk(variant: Variant) -> bool:
    return variant.counting_rule is CountingRule.MAKRUK and variant.gates is GateRule.NONE


def _is_makruk_family(variant: Variant) -> bool:
    return variant.setup is SetupRule.FIXED


def _is_sittuyin(variant: Variant) -> bool:
    return variant.setup is SetupRule.DROPS


OPTIONS: dict[str, Option] = {
    # Ouk Chatrang and Kar Ouk
    "ouk_require_no_capture": Option(
        bool, _is_ouk,
        label=N_("First leaps only while no piece has been captured"),
        help="The king's and the met's first leaps are allowed only while all 32 pieces are "
        "on the board.",
    ),
    "ouk_king_leap": Option(
        KingLeap, _is_ouk,
        label=N_("The king's first leap"),
        help="Where the unmoved king may leap.",
        value_labels={
            "forward_rank": N_("to a knight square on the rank ahead"),
            "any_knight": N_("to any empty knight square"),
        },
    ),
    "ouk_met_leap": Option(
        MetLeap, _is_ouk,
        label=N_("The met's first two-square move"),
        help="Whether the square the unmoved met passes over may be occupied.",
        value_labels={
            "jump": N_("jumps (the square between may be occupied)"),
            "clear_path": N_("the square between must be empty"),
        },
    ),
    "ouk_rook_aim_cancels": Option(
        bool, _is_ouk,
        label=N_("A rook aimed at the king takes away its leap"),
        help="An enemy rook arriving on the king's rank or file cancels the king's leap.",
    ),
    # Makruk's sutras and handicap
    "sut_khun": Option(
        bool, _is_makruk,
        label=N_("King sutra (sut khun)"),
        help="The unmoved king may leap to an empty knight square on the rank ahead.",
    ),
    "sut_met": Option(
        bool, _is_makruk,
        label=N_("Met sutra (sut met)"),
        help="The pawn in front of the met steps forward and the met moves onto its square.",
    ),
    "sut_ma": Option(
        bool, _is_makruk,
        label=N_("Horse sutra (sut ma)"),
        help="A pawn a knight's move from an unmoved knight steps forward and the knight jumps "
        "onto its square.",
    ),
    "takhen_rua": Option(
        tuple, _is_makruk, choices=("a1", "h1", "a8", "h8"), choice_name=N_("rook squares"),
        label=N_("Handicap: rooks that start as mets (takhen rua)"),
        help="The rooks on these squares start as mets.",
    ),
    "sutra_window": Option(
        SutraWindow, _is_makruk,
        label=N_("When the sutras may be played"),
        help="How long the sutras stay allowed.",
        value_labels={
            "unmoved_and_no_capture": N_("pieces unmoved and nothing captured yet"),
            "unmoved": N_("pieces unmoved"),
            "first_move_only": N_("first move only"),
        },
    ),
    # Sittuyin
    "sittuyin_setup": Option(
        SittuyinSetup, _is_sittuyin,
        label=N_("Setting up the camp"),
        help="How the pieces in hand reach the board before play.",
        value_labels={
            "alternate": N_("one piece at a time, in turn"),
            "screened": N_("screened: each side arranges its camp unseen"),
        },
    ),
    "sittuyin_counting": Option(
        SittuyinCounting, _is_sittuyin,
        label=N_("Counting rule"),
        help="Which counting limits apply.",
        value_labels={
            "asean": N_("ASEAN rules"),
            "seed": N_("Makruk's pieces' honour table"),
            "seed_literal": N_("Makruk's table, from the moment one side has a lone king"),
        },
    ),
    "promotion_only_draw": Option(
        bool, _is_sittuyin,
        label=N_("King and pawn against king is a draw when only promotions are legal"),
        help="King and pawn against a lone king is drawn when the only legal moves are "
        "promotions, as Fairy-Stockfish scores it.",
    ),
    # the end of the game
    "show_promoted": Option(
        bool,
        label=N_("Mark promoted pawns in the FEN"),
        help="Write promoted pieces as M~ in FEN.",
    ),
    "counting": Option(
        CountingMode, _is_makruk_family,
        label=N_("Counting"),
        help="Whether counts start by themselves or are declared by the players.",
        value_labels={"auto": N_("automatic"), "declared": N_("declared by the players")},
    ),
    "pieces_honour_precedence": Option(
        PiecesPrecedence,
        label=N_("Pieces' honour when several rows apply"),
        help="Which line of the pieces'-honour table applies when several do.",
        value_labels={
            "lowest": N_("the smallest limit"),
            "khon_first": N_("rooks, then khons, then knights"),
        },
    ),
    "pieces_count_optional": Option(
        bool, _is_makruk_family,
        label=N_("The lone side chooses when pieces' honour starts"),
        help="With declared counting, the side with the lone king decides when pieces' honour "
        "starts.",
    ),
    "allow_voluntary_restart": Option(
        bool, _is_makruk_family,
        label=N_("The lone side may restart pieces' honour"),
        help="With declared counting, the lone side may start pieces' honour again from the "
        "new count.",
    ),
    "board_count_declarer": Option(
        CountDeclarer, _is_makruk_family,
        label=N_("Who may declare board's honour"),
        help="With declared counting: either side, or only the side with less material.",
        value_labels={"either": N_("either side"), "weaker": N_("the weaker side")},
    ),
    "ouk_counting": Option(
        OukCounting, _is_ouk,
        label=N_("Counting rule"),
        help="Ouk's own counting or Makruk's.",
        value_labels={"cambodian": N_("Cambodian counting"), "makruk": N_("as in Makruk")},
    ),
    "ouk_count_sooner": Option(
        bool, _is_ouk,
        label=N_("When both counts apply, the one that ends sooner is kept"),
        help="When pieces' honour arises while board's honour runs.",
    ),
    "stalemate": Option(
        StalemateRule,
        label=N_("Stalemate"),
        help="What a stalemate means.",
        value_labels={
            "draw": N_("draw"),
            "stalemater_loses": N_("the side that stalemates loses"),
            "replay": N_("the game is played again"),
            "illegal": N_("a move that stalemates is not allowed"),
        },
    ),
    "repetition_count": Option(
        int,
        label=N_("Repetitions before a draw can be claimed"),
        help="Occurrences of a position that make a draw claimable.",
    ),
    "perpetual_check": Option(
        PerpetualCheck,
        label=N_("Perpetual check"),
        help="Repetition under perpetual check.",
        value_labels={"draw": N_("draw"), "checker_loses": N_("the checking side loses")},
    ),
    "insufficient_material": Option(
        InsufficientMaterial,
        label=N_("Insufficient material"),
        help="Fairy-Stockfish's dead-position test.",
        value_labels={
            "dead_position": N_("a draw when neither side can mate"),
            "off": N_("off"),
        },
    ),
    "korean_material_draws": Option(
        KoreanDraws, _is_makruk_family,
        label=N_("The Korean table of material draws"),
        help="A draw, on claim or at once, when the material matches a row of the Korean "
        "table.",
        value_labels={
            "off": N_("off"),
            "claim": N_("a draw on claim"),
            "auto": N_("a draw at once"),
        },
    ),
    "n_move_rule": Option(
        int,
        label=N_("Moves without a capture or pawn move before a draw can be claimed (0: none)"),
        help="Moves without a capture or pawn move after which a draw may be claimed; 0: none.",
    ),
}  # fmt: skip

MAKRUK = Variant(
    name="makruk",
    title=N_("Makruk"),
    aliases=("thai", "thai chess", "makruk"),
    start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    piece_types=(PAWN, KNIGHT, KHON, MET, ROOK, KING),
    promotion=PromotionRule.ON_ENTRY,
    promotion_rank=6,
    promoted_type=MET,
    counting_rule=CountingRule.MAKRUK,
)

#: Ouk is Makruk with the king's and met's first leaps and Cambodian counting
CAMBODIAN = dataclasses.replace(
    MAKRUK,
    name="cambodian",
    title=N_("Ouk Chatrang"),
    aliases=("ouk", "ouk chatrang", "ouk chaktrang", "cambodian chess"),
    start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
    gates=GateRule.KING_AND_MET_LEAPS,
    counting_rule=CountingRule.CAMBODIAN,
)

KAROUK = dataclasses.replace(
    CAMBODIAN,
    name="karouk",
    title=N_("Kar Ouk"),
    aliases=("kar ouk",),
    start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 1+1 0 1",
    checks_to_win=1,
)

SITTUYIN = Variant(
    name="sittuyin",
    title=N_("Sittuyin"),
    aliases=("burmese", "burmese chess", "sittuyin"),
    start_fen="8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
    piece_types=(PAWN, KNIGHT, KHON, FERZ, ROOK, KING),
    promotion=PromotionRule.SEPARATE_MOVE,
    promotion_rank=5,
    promoted_type=FERZ,
    setup=SetupRule.DROPS,
    drop_ranks=(1, 2, 3),
    rook_drop_ranks=(1,),
    counting_rule=CountingRule.ASEAN,
    n_move_rule=50,
)

VARIANTS: dict[str, Variant] = {
    variant.name: variant for variant in (MAKRUK, CAMBODIAN, KAROUK, SITTUYIN)
}


CATALOGUE: Catalogue[Variant] = Catalogue("variant", VARIANTS.values(), OPTIONS)


def variant_names() -> list[str]:
    """The names of every built-in variant."""
    return CATALOGUE.names()


def find_variant(name: str | Variant, **options: Any) -> Variant:
    """The variant called ``name`` (case-insensitive; aliases such as ``"thai"`` work), with
    ``options`` applied (see :meth:`Variant.with_options`).

    A :class:`Variant` passes through, with ``options`` applied.

    :raises VariantError: for an unknown name, listing the known ones, or a bad option.
    """
    return CATALOGUE.find(name, **options)


__all__ = [
    "CAMBODIAN",
    "CATALOGUE",
    "KAROUK",
    "MAKRUK",
    "OPTIONS",
    "SITTUYIN",
    "VARIANTS",
    "CountDeclarer",
    "CountingMode",
    "CountingRule",
    "GateRule",
    "InsufficientMaterial",
    "KingLeap",
    "KoreanDraws",
    "MetLeap",
    "OukCounting",
    "PerpetualCheck",
    "PiecesPrecedence",
    "PromotionRule",
    "SetupRule",
    "SittuyinCounting",
    "SittuyinSetup",
    "StalemateRule",
    "SutraWindow",
    "Variant",
    "find_variant",
    "variant_names",
]
