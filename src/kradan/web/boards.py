"""What the browser's board needs of each family of games: the ``browser`` hooks of the
registry (:class:`kradan.games.Game`), read by the web pages through
:meth:`kradan.games.Game.browser_board`.

Each hook reads the rule set it is given, never the game's name: the board picture, the
premoves chessgroundx allows and the pocket follow from the pieces, the first-move rights and
the setup rule.
"""

from __future__ import annotations

from ..alquerque.variant import AlquerqueVariant
from ..games import BrowserBoard
from ..pieces import FERZ, PIECE_SYMBOLS
from ..variants import GateRule, PromotionRule, SetupRule, Variant

#: the order of the pieces in a pocket (rook, knight, khon, ferz, met, king)
POCKET_ORDER = ("r", "n", "s", "f", "m", "k")


def chess(rules: Variant) -> BrowserBoard:
    """The board of a game of the chess family: 8x8, its pocket when the pieces start in
    hand, chessgroundx's premoves of Makruk, Ouk or Sittuyin (the ferz's game, whose board
    shows the diagonals its pawns promote on)."""
    with_ferz = FERZ in rules.piece_types
    if with_ferz:
        premove = "sittuyin"
    elif rules.gates is GateRule.KING_AND_MET_LEAPS:
        premove = "cambodian"
    else:
        premove = "makruk"
    pocket = None
    if rules.setup is SetupRule.DROPS:
        letters = {PIECE_SYMBOLS[piece] for piece in rules.piece_types} - {"p"}
        pocket = [letter for letter in POCKET_ORDER if letter in letters]
    return {
        "family": "chess",
        "board": "sittuyin" if with_ferz else "plain",
        "width": 8,
        "height": 8,
        "premove": premove,
        "pocket": pocket,
        "promoted": PIECE_SYMBOLS[rules.promoted_type],
        "kings": ["k"],
        "jump_captures": False,
        # promoting as a move of its own is never forced, so the player confirms it
        "confirm_promotion": rules.promotion is PromotionRule.SEPARATE_MOVE,
        "move_number_field": -1,
        # the setup's camp: the own three ranks, rooks on the back rank (docs/rules.md 5.3)
        "camp": {"ranks": 3, "back_rank": ["r"]} if pocket else None,
        "roles": [PIECE_SYMBOLS[piece] for piece in rules.piece_types],
    }


def alquerque(rules: AlquerqueVariant) -> BrowserBoard:
    """The board of an Alquerque game: 5x5 points along the lines, no pocket, no promotion
    (a king, where the rules make one, is a stone of its own), nothing in check."""
    return {
        "family": "alquerque",
        "board": "alquerque",
        "width": 5,
        "height": 5,
        "premove": None,
        "pocket": None,
        "promoted": None,
        "kings": [],
        "jump_captures": True,
        "confirm_promotion": False,
        # the position text's fifth field; a sixth, the no-return history, may follow
        "move_number_field": 4,
        "camp": None,
        "roles": ["p"],
    }


__all__ = ["POCKET_ORDER", "alquerque", "chess"]
