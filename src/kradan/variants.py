"""Variants: every game kradan knows is a frozen :class:`Variant` of rule parameters.

A new game of the chess family is new data here, not new kernel code: the kernel reads the
promotion rule and region, the first-move rights (gates), the setup phase (pieces in hand that
must be dropped), the counting rule and the check rule from these fields.

Rule options (RULES.md section 8) are fields too. ``find_variant(name, **options)`` and
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
from enum import StrEnum
from functools import cached_property
from typing import Any

from .errors import VariantError
from .pieces import FERZ, KHON, KING, KNIGHT, MET, PAWN, ROOK, PieceType
from .rulesets import Catalogue, Option, RuleSetBase


class PromotionRule(StrEnum):
    """How pawns promote (RULES.md 2.3, 5.5)."""

    NONE = "none"
    #: a pawn entering the promotion region becomes ``promoted_type`` in the same move (Makruk)
    ON_ENTRY = "on_entry"
    #: promotion is a move of its own, in place or one diagonal step (Sittuyin)
    SEPARATE_MOVE = "separate_move"


class GateRule(StrEnum):
    """First-move rights kept in FEN field 3 (RULES.md 2.8, 3.1-3.2)."""

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
    """Which counting limits apply (RULES.md 2.6.2, 3.3, 5.6)."""

    NONE = "none"
    MAKRUK = "makruk"
    CAMBODIAN = "cambodian"
    ASEAN = "asean"
    #: the Sittuyin seed's table, minus the pieces on the board, for a lone king only
    SITTUYIN_SEED = "sittuyin_seed"
    #: the same, starting as soon as one side is a lone king, pawns or not ([S4] read literally)
    SITTUYIN_SEED_LITERAL = "sittuyin_seed_literal"


class CountingMode(StrEnum):
    """Who starts a count (RULES.md 2.6.2, 2.6.4, decision 3)."""

    #: counts start and run by themselves, as in Fairy-Stockfish
    AUTO = "auto"
    #: players declare and stop board's honour; a mate by the counter is a draw (the seeds)
    DECLARED = "declared"


class PiecesPrecedence(StrEnum):
    """Which line of the pieces'-honour table applies when several do (RULES.md 2.6.1, C6)."""

    #: the smallest limit (Fairy-Stockfish, [S2]): khon + 2 knights gives 32
    LOWEST = "lowest"
    #: rooks, then khons, then knights ([S0], [S1]): khon + 2 knights gives 44
    KHON_FIRST = "khon_first"


class OukCounting(StrEnum):
    """Ouk's counting rule (RULES.md 3.3, C11)."""

    CAMBODIAN = "cambodian"
    MAKRUK = "makruk"


class SittuyinCounting(StrEnum):
    """Sittuyin's counting rule (RULES.md 5.6, C9, Decision 9)."""

    ASEAN = "asean"
    SEED = "seed"
    #: the seed's countdown from the moment one side is a lone king, even with pawns on the board
    SEED_LITERAL = "seed_literal"


class CountDeclarer(StrEnum):
    """Who may declare board's honour in declared counting (RULES.md 2.6.4, Decision 9)."""

    #: either side ([S1], [S2])
    EITHER = "either"
    #: only the weaker side, the side with less material ([S0]); with equal material, either
    WEAKER = "weaker"


class StalemateRule(StrEnum):
    """What a stalemate means (RULES.md 2.4, C1)."""

    DRAW = "draw"
    #: [S1] calls stalemating a foul: the side that stalemated loses
    STALEMATER_LOSES = "stalemater_loses"
    #: [S2]: the game is played again; no result
    REPLAY = "replay"
    #: the stricter reading of [S1]'s "foul": a stalemating move is not legal, unless every
    #: move stalemates (then they stay legal and the stalemate is a draw)
    ILLEGAL = "illegal"


class PerpetualCheck(StrEnum):
    """Repetition under perpetual check (RULES.md 2.5, C2)."""

    DRAW = "draw"
    #: a side that gave check in every position of the repeated cycle loses
    CHECKER_LOSES = "checker_loses"


class InsufficientMaterial(StrEnum):
    """Fairy-Stockfish's dead-position test (RULES.md 2.7, C16)."""

    #: the game ends as a draw at once when neither side can possibly mate
    DEAD_POSITION = "dead_position"
    OFF = "off"


class KoreanDraws(StrEnum):
    """The Korean table of material draws (RULES.md 2.7)."""

    OFF = "off"
    #: either player may claim a draw when the material matches a row
    CLAIM = "claim"
    #: the game ends as a draw when the material matches a row
    AUTO = "auto"


class KingLeap(StrEnum):
    """Where the Ouk king's first leap may go (RULES.md 3.2, C10)."""

    #: the two knight squares on the rank directly ahead (Fairy-Stockfish)
    FORWARD_RANK = "forward_rank"
    #: any empty knight square (the seed's "like a horse")
    ANY_KNIGHT = "any_knight"


class MetLeap(StrEnum):
    """How the Ouk met's first two-square move treats the square it passes (RULES.md 3.2)."""

    #: it jumps: the square in between may be occupied (Fairy-Stockfish)
    JUMP = "jump"
    #: the square in between must be empty
    CLEAR_PATH = "clear_path"


class SutraWindow(StrEnum):
    """When the Makruk sutras may be played (RULES.md 2.8)."""

    #: the pieces involved have never moved and no piece has been captured yet
    UNMOVED_AND_NO_CAPTURE = "unmoved_and_no_capture"
    #: the pieces involved have never moved
    UNMOVED = "unmoved"
    #: only as the side's first move of the game
    FIRST_MOVE_ONLY = "first_move_only"


class SittuyinSetup(StrEnum):
    """How the Sittuyin camp is arranged (RULES.md 5.3, C12)."""

    #: one drop per turn, alternating, White first (Fairy-Stockfish)
    ALTERNATE = "alternate"
    #: each side submits its whole arrangement unseen; both are then replayed as drops
    SCREENED = "screened"


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

    # --- Ouk options (RULES.md 3.2, conflict C10) -----------------------------------------------
    #: the leaps are allowed only while no piece has been captured (all 32 pieces on the board)
    ouk_require_no_capture: bool = False
    ouk_king_leap: KingLeap = KingLeap.FORWARD_RANK
    ouk_met_leap: MetLeap = MetLeap.JUMP
    #: an enemy rook arriving on the king's rank or file cancels the king's leap
    ouk_rook_aim_cancels: bool = True

    # --- Makruk sutras (RULES.md 2.8) -----------------------------------------------------------
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

    # --- Sittuyin (RULES.md 5.3, 5.5, 5.6) ------------------------------------------------------
    sittuyin_setup: SittuyinSetup = SittuyinSetup.ALTERNATE
    sittuyin_counting: SittuyinCounting = SittuyinCounting.ASEAN
    #: K+P v K with only promotions legal is a draw (Fairy-Stockfish)
    promotion_only_draw: bool = True

    # --- End of game (RULES.md 2.4-2.7, 3.3, section 8) ----------------------------------------
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
    #: applies (RULES.md 3.3 item 3)
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
    "ouk_require_no_capture": Option(bool, _is_ouk),
    "ouk_king_leap": Option(KingLeap, _is_ouk),
    "ouk_met_leap": Option(MetLeap, _is_ouk),
    "ouk_rook_aim_cancels": Option(bool, _is_ouk),
    "sut_khun": Option(bool, _is_makruk),
    "sut_met": Option(bool, _is_makruk),
    "sut_ma": Option(bool, _is_makruk),
    "takhen_rua": Option(
        tuple, _is_makruk, choices=("a1", "h1", "a8", "h8"), choice_name="rook squares"
    ),
    "sutra_window": Option(SutraWindow, _is_makruk),
    "sittuyin_setup": Option(SittuyinSetup, _is_sittuyin),
    "sittuyin_counting": Option(SittuyinCounting, _is_sittuyin),
    "promotion_only_draw": Option(bool, _is_sittuyin),
    "show_promoted": Option(bool),
    "counting": Option(CountingMode, _is_makruk_family),
    "pieces_honour_precedence": Option(PiecesPrecedence),
    "pieces_count_optional": Option(bool, _is_makruk_family),
    "allow_voluntary_restart": Option(bool, _is_makruk_family),
    "board_count_declarer": Option(CountDeclarer, _is_makruk_family),
    "ouk_counting": Option(OukCounting, _is_ouk),
    "ouk_count_sooner": Option(bool, _is_ouk),
    "stalemate": Option(StalemateRule),
    "repetition_count": Option(int),
    "perpetual_check": Option(PerpetualCheck),
    "insufficient_material": Option(InsufficientMaterial),
    "korean_material_draws": Option(KoreanDraws, _is_makruk_family),
    "n_move_rule": Option(int),
}

MAKRUK = Variant(
    name="makruk",
    title="Makruk",
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
    title="Ouk Chatrang",
    aliases=("ouk", "ouk chatrang", "ouk chaktrang", "cambodian chess"),
    start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
    gates=GateRule.KING_AND_MET_LEAPS,
    counting_rule=CountingRule.CAMBODIAN,
)

KAROUK = dataclasses.replace(
    CAMBODIAN,
    name="karouk",
    title="Kar Ouk",
    aliases=("kar ouk",),
    start_fen="rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 1+1 0 1",
    checks_to_win=1,
)

SITTUYIN = Variant(
    name="sittuyin",
    title="Sittuyin",
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
