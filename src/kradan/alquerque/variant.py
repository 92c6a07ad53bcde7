"""The two Alquerque games and their options (docs/rules.md 6, conflicts C17-C23, decision 4).

* ``alquerque``: Alfonso X's rules (6.3): steps and jumps along the lines in any direction,
  compulsory captures, chains; threefold repetition and a no-capture limit make every game end.
* ``alquerque-bell``: Alfonso X plus R.C. Bell's rules (6.4-6.5): men step only forward,
  diagonally forward or sideways, never back onto a point they stood on, and may leave the far
  row only by capturing; a side that cannot move loses; Bell's penalty scoring.

Decisions where the sources leave a point open (docs/rules.md 6 and 7; each tested):

* Alfonso X with no legal move: a draw (the seed gives Alfonso no immobilisation win).
* Threefold repetition is a draw in both games (under Bell's default rules no position can
  repeat, so it matters only with options that allow cycles, such as ``no_return="off"``).
* ``no_capture_adjudication="draw_if_equal"``: at the limit, equal piece counts draw; unequal
  counts play on (repetition still ends every game).
* A huffed piece is removed as part of the opponent's next move and is not a capture.
* Kings (``alquerque_kings``): a man reaching the far row becomes a king, which ends a chain; a
  king steps and jumps one point along any line, in any direction, and is never bound by the
  far-row or direction rules.
* ``bell_scoring="winner_ahead_only"``: after an immobilisation the loser is charged
  2 + (W - L) only when the winner has more pieces, else 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..rulesets import N_, Catalogue, Option, RuleSetBase


class CaptureRule(StrEnum):
    FORCED = "forced"  # a move that does not capture is illegal when a capture exists
    HUFF = "huff"  # not capturing is allowed, but the piece that could have is removed


class HuffTarget(StrEnum):
    OPPONENT_CHOOSES_ONE = "opponent_chooses_one"
    ALL = "all"


class ChainContinuation(StrEnum):
    MANDATORY = "mandatory"  # a jumping piece must keep jumping while it can
    OPTIONAL = "optional"


class CaptureDirections(StrEnum):
    ANY = "any"
    FORWARD_SIDEWAYS = "forward_sideways"


class NoReturn(StrEnum):
    ANY_PREVIOUS = "any_previous"  # never onto a point the piece has stood on
    START_POINT = "start_point"  # never back onto its starting point
    OFF = "off"


class NoReturnScope(StrEnum):
    STEPS = "steps"
    ALL_MOVES = "all_moves"


class FirstPlayer(StrEnum):
    WHITE = "white"
    BLACK = "black"


class NoCaptureAdjudication(StrEnum):
    DRAW_IF_EQUAL = "draw_if_equal"
    MORE_PIECES_WINS = "more_pieces_wins"


class BellScoring(StrEnum):
    SEED = "seed"
    WINNER_AHEAD_ONLY = "winner_ahead_only"


@dataclass(frozen=True)
class AlquerqueVariant(RuleSetBase):
    """The rules of one Alquerque game, options included (its ``name``, ``title`` and
    ``aliases`` are :class:`~kradan.rulesets.RuleSetBase`'s)."""

    #: Bell's rules: direction of steps, no return, far row, immobilisation win, scoring
    bell: bool
    capture_rule: CaptureRule = CaptureRule.FORCED
    huff_target: HuffTarget = HuffTarget.OPPONENT_CHOOSES_ONE
    chain_continuation: ChainContinuation = ChainContinuation.MANDATORY
    bell_capture_directions: CaptureDirections = CaptureDirections.ANY
    no_return: NoReturn = NoReturn.ANY_PREVIOUS
    no_return_scope: NoReturnScope = NoReturnScope.STEPS
    alquerque_kings: bool = False
    first_player: FirstPlayer = FirstPlayer.WHITE
    #: moves per side without a capture after which the adjudication applies; 0 = never
    no_capture_limit: int = 0
    no_capture_adjudication: NoCaptureAdjudication = NoCaptureAdjudication.DRAW_IF_EQUAL
    bell_scoring: BellScoring = BellScoring.SEED

    @property
    def start_text(self) -> str:
        """The start position (docs/rules.md 6.2) with the first player to move."""
        side = "w" if self.first_player is FirstPlayer.WHITE else "b"
        return f"ppppp/ppppp/pp1PP/PPPPP/PPPPP {side} - 0 1"

    def option_table(self) -> Mapping[str, Option]:
        """Alquerque's rule options (:data:`OPTIONS`)."""
        return OPTIONS


def _is_bell(game: AlquerqueVariant) -> bool:
    return game.bell


_BELL_ONLY = "it is one of Bell's rules: use 'alquerque-bell'"

OPTIONS: dict[str, Option] = {
    "capture_rule": Option(
        CaptureRule,
        label=N_("Capturing"),
        help="Whether a capture must be made when one exists.",
        value_labels={
            "forced": N_("compulsory"),
            "huff": N_("not compulsory: the piece that could have captured is huffed"),
        },
    ),
    "huff_target": Option(
        HuffTarget,
        label=N_("Huffing removes"),
        help="Under huffing, which pieces that could have captured are removed.",
        value_labels={
            "opponent_chooses_one": N_("one piece, chosen by the opponent"),
            "all": N_("every piece that could have captured"),
        },
    ),
    "chain_continuation": Option(
        ChainContinuation,
        label=N_("Capture chains"),
        help="Whether a jumping piece must keep jumping while it can.",
        value_labels={
            "mandatory": N_("must go on while a capture is possible"),
            "optional": N_("may stop at any point"),
        },
    ),
    "bell_capture_directions": Option(
        CaptureDirections, _is_bell, _BELL_ONLY,
        label=N_("Capture directions"),
        help="The directions a man may capture in.",
        value_labels={
            "any": N_("any direction"),
            "forward_sideways": N_("forwards and sideways only"),
        },
    ),
    "no_return": Option(
        NoReturn, _is_bell, _BELL_ONLY,
        label=N_("No going back"),
        help="The points a piece may not move back onto.",
        value_labels={
            "any_previous": N_("never onto a point the piece has stood on"),
            "start_point": N_("never back onto its starting point"),
            "off": N_("off"),
        },
    ),
    "no_return_scope": Option(
        NoReturnScope, _is_bell, _BELL_ONLY,
        label=N_("No going back applies to"),
        help="Whether the no-return rule binds steps only or captures too.",
        value_labels={"steps": N_("steps only"), "all_moves": N_("every move")},
    ),
    "alquerque_kings": Option(
        bool,
        label=N_("A man reaching the far row becomes a king"),
        help="A king steps and jumps one point along any line, in any direction.",
    ),
    "first_player": Option(
        FirstPlayer,
        label=N_("Who moves first"),
        help="The side that makes the first move.",
        value_labels={"white": N_("White"), "black": N_("Black")},
    ),
    "no_capture_limit": Option(
        int,
        label=N_("Moves per side without a capture before the game is decided (0: never)"),
        help="After this many moves per side without a capture the adjudication applies.",
    ),
    "no_capture_adjudication": Option(
        NoCaptureAdjudication,
        label=N_("Then the game is decided by"),
        help="How a game that reaches the no-capture limit ends.",
        value_labels={
            "draw_if_equal": N_("a draw if both have as many pieces"),
            "more_pieces_wins": N_("the side with more pieces wins"),
        },
    ),
    "bell_scoring": Option(
        BellScoring, _is_bell, _BELL_ONLY,
        label=N_("Scoring after an immobilisation"),
        help="What the loser is charged when a side cannot move.",
        value_labels={
            "seed": N_("2 plus the difference in pieces"),
            "winner_ahead_only": N_("2 plus the difference only when the winner is ahead"),
        },
    ),
}  # fmt: skip
BELL_ONLY = tuple(name for name, option in OPTIONS.items() if option.applies is _is_bell)

ALFONSO = AlquerqueVariant(
    name="alquerque",
    title=N_("Alquerque (Alfonso X)"),
    aliases=("alquerque", "alfonso", "qirkat"),
    bell=False,
    no_capture_limit=50,
)
BELL = AlquerqueVariant(
    name="alquerque-bell",
    title=N_("Alquerque (R.C. Bell)"),
    aliases=("alquerque bell", "bell"),
    bell=True,
)
CATALOGUE: Catalogue[AlquerqueVariant] = Catalogue("Alquerque game", (ALFONSO, BELL), OPTIONS)
GAMES = CATALOGUE.rule_sets


def find_game(name: str | AlquerqueVariant, **options: Any) -> AlquerqueVariant:
    """The Alquerque game called ``name``, with ``options`` applied.

    :raises VariantError: for an unknown name or option.
    """
    return CATALOGUE.find(name, **options)


def is_alquerque_name(name: object) -> bool:
    """Whether ``name`` names one of the Alquerque games."""
    return CATALOGUE.get(name) is not None
