"""The values of the chess family's rule parameters and options: one ``StrEnum`` each.

:class:`kradan.variants.Variant` holds them and :data:`kradan.variants.OPTIONS` offers them as
options; the kernel reads the structural ones (promotion, gates, setup, counting). They live
apart from the variants so that each module keeps one job.
"""

from __future__ import annotations

from enum import StrEnum


class PromotionRule(StrEnum):
    """How pawns promote (docs/rules.md 2.3, 5.5)."""

    NONE = "none"
    #: a pawn entering the promotion region becomes ``promoted_type`` in the same move (Makruk)
    ON_ENTRY = "on_entry"
    #: promotion is a move of its own, in place or one diagonal step (Sittuyin)
    SEPARATE_MOVE = "separate_move"


class GateRule(StrEnum):
    """First-move rights kept in FEN field 3 (docs/rules.md 2.8, 3.1-3.2)."""

    NONE = "none"
    #: the unmoved king may leap to a knight square on the rank ahead, the met two squares ahead
    KING_AND_MET_LEAPS = "king_and_met_leaps"


class SetupRule(StrEnum):
    """How the pieces reach the board (docs/rules.md 5.3)."""

    #: the game starts from ``start_fen`` with every piece on the board
    FIXED = "fixed"
    #: pieces start in hand and are dropped one per turn into the own camp before play
    DROPS = "drops"


class CountingRule(StrEnum):
    """Which counting limits apply (docs/rules.md 2.6.2, 3.3, 5.6)."""

    NONE = "none"
    MAKRUK = "makruk"
    CAMBODIAN = "cambodian"
    ASEAN = "asean"
    #: the Sittuyin seed's table, minus the pieces on the board, for a lone king only
    SITTUYIN_SEED = "sittuyin_seed"
    #: the same, starting as soon as one side is a lone king, pawns or not ([S4] read literally)
    SITTUYIN_SEED_LITERAL = "sittuyin_seed_literal"


class CountingMode(StrEnum):
    """Who starts a count (docs/rules.md 2.6.2, 2.6.4, decision 3)."""

    #: counts start and run by themselves, as in Fairy-Stockfish
    AUTO = "auto"
    #: players declare and stop board's honour; a mate by the counter is a draw (the seeds)
    DECLARED = "declared"


class PiecesPrecedence(StrEnum):
    """Which line of the pieces'-honour table applies when several do (docs/rules.md 2.6.1, C6)."""

    #: the smallest limit (Fairy-Stockfish, [S2]): khon + 2 knights gives 32
    LOWEST = "lowest"
    #: rooks, then khons, then knights ([S0], [S1]): khon + 2 knights gives 44
    KHON_FIRST = "khon_first"


class OukCounting(StrEnum):
    """Ouk's counting rule (docs/rules.md 3.3, C11)."""

    CAMBODIAN = "cambodian"
    MAKRUK = "makruk"


class SittuyinCounting(StrEnum):
    """Sittuyin's counting rule (docs/rules.md 5.6, C9, Decision 9)."""

    ASEAN = "asean"
    SEED = "seed"
    #: the seed's countdown from the moment one side is a lone king, even with pawns on the board
    SEED_LITERAL = "seed_literal"


class CountDeclarer(StrEnum):
    """Who may declare board's honour in declared counting (docs/rules.md 2.6.4, Decision 9)."""

    #: either side ([S1], [S2])
    EITHER = "either"
    #: only the weaker side, the side with less material ([S0]); with equal material, either
    WEAKER = "weaker"


class StalemateRule(StrEnum):
    """What a stalemate means (docs/rules.md 2.4, C1)."""

    DRAW = "draw"
    #: [S1] calls stalemating a foul: the side that stalemated loses
    STALEMATER_LOSES = "stalemater_loses"
    #: [S2]: the game is played again; no result
    REPLAY = "replay"
    #: the stricter reading of [S1]'s "foul": a stalemating move is not legal, unless every
    #: move stalemates (then they stay legal and the stalemate is a draw)
    ILLEGAL = "illegal"


class PerpetualCheck(StrEnum):
    """Repetition under perpetual check (docs/rules.md 2.5, C2)."""

    DRAW = "draw"
    #: a side that gave check in every position of the repeated cycle loses
    CHECKER_LOSES = "checker_loses"


class InsufficientMaterial(StrEnum):
    """Fairy-Stockfish's dead-position test (docs/rules.md 2.7, C16)."""

    #: the game ends as a draw at once when neither side can possibly mate
    DEAD_POSITION = "dead_position"
    OFF = "off"


class KoreanDraws(StrEnum):
    """The Korean table of material draws (docs/rules.md 2.7)."""

    OFF = "off"
    #: either player may claim a draw when the material matches a row
    CLAIM = "claim"
    #: the game ends as a draw when the material matches a row
    AUTO = "auto"


class KingLeap(StrEnum):
    """Where the Ouk king's first leap may go (docs/rules.md 3.2, C10)."""

    #: the two knight squares on the rank directly ahead (Fairy-Stockfish)
    FORWARD_RANK = "forward_rank"
    #: any empty knight square (the seed's "like a horse")
    ANY_KNIGHT = "any_knight"


class MetLeap(StrEnum):
    """How the Ouk met's first two-square move treats the square it passes (docs/rules.md 3.2)."""

    #: it jumps: the square in between may be occupied (Fairy-Stockfish)
    JUMP = "jump"
    #: the square in between must be empty
    CLEAR_PATH = "clear_path"


class SutraWindow(StrEnum):
    """When the Makruk sutras may be played (docs/rules.md 2.8)."""

    #: the pieces involved have never moved and no piece has been captured yet
    UNMOVED_AND_NO_CAPTURE = "unmoved_and_no_capture"
    #: the pieces involved have never moved
    UNMOVED = "unmoved"
    #: only as the side's first move of the game
    FIRST_MOVE_ONLY = "first_move_only"


class SittuyinSetup(StrEnum):
    """How the Sittuyin camp is arranged (docs/rules.md 5.3, C12)."""

    #: one drop per turn, alternating, White first (Fairy-Stockfish)
    ALTERNATE = "alternate"
    #: each side submits its whole arrangement unseen; both are then replayed as drops
    SCREENED = "screened"


__all__ = [
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
]
