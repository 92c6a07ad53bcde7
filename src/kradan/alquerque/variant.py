"""The two Alquerque games and their options (RULES.md 6, conflicts C17-C23, decision 4).

* ``alquerque``: Alfonso X's rules (6.3): steps and jumps along the lines in any direction,
  compulsory captures, chains; threefold repetition and a no-capture limit make every game end.
* ``alquerque-bell``: Alfonso X plus R.C. Bell's rules (6.4-6.5): men step only forward,
  diagonally forward or sideways, never back onto a point they stood on, and may leave the far
  row only by capturing; a side that cannot move loses; Bell's penalty scoring.

Decisions where RULES.md leaves a point open (each tested):

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

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..errors import VariantError


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
class AlquerqueVariant:
    """The rules of one Alquerque game, options included."""

    name: str
    title: str
    aliases: tuple[str, ...]
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
        """The start position (RULES.md 6.2) with the first player to move."""
        side = "w" if self.first_player is FirstPlayer.WHITE else "b"
        return f"ppppp/ppppp/pp1PP/PPPPP/PPPPP {side} - 0 1"

    def with_options(self, **options: Any) -> AlquerqueVariant:
        """A copy with options set; strings are accepted for enum options.

        :raises VariantError: for an unknown option, one of the other rule set, or a bad value.
        """
        fields = {field.name: field for field in dataclasses.fields(self)}
        changes: dict[str, object] = {}
        for key, value in options.items():
            if key not in OPTIONS:
                raise VariantError(f"unknown option {key!r}; options: {', '.join(sorted(OPTIONS))}")
            if key in BELL_ONLY and not self.bell:
                raise VariantError(f"option {key!r} is one of Bell's rules: use 'alquerque-bell'")
            kind = fields[key].type
            default = getattr(self, key)
            if isinstance(default, StrEnum):
                try:
                    changes[key] = type(default)(value)
                except ValueError:
                    allowed = ", ".join(repr(m.value) for m in type(default))
                    raise VariantError(
                        f"option {key}={value!r}: expected one of {allowed}"
                    ) from None
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise VariantError(f"option {key}={value!r}: expected True or False")
                changes[key] = value
            else:
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise VariantError(
                        f"option {key}={value!r}: expected a whole number >= 0 ({kind})"
                    )
                changes[key] = value
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


OPTIONS = (
    "capture_rule",
    "huff_target",
    "chain_continuation",
    "bell_capture_directions",
    "no_return",
    "no_return_scope",
    "alquerque_kings",
    "first_player",
    "no_capture_limit",
    "no_capture_adjudication",
    "bell_scoring",
)
BELL_ONLY = ("bell_capture_directions", "no_return", "no_return_scope", "bell_scoring")

ALFONSO = AlquerqueVariant(
    name="alquerque",
    title="Alquerque (Alfonso X)",
    aliases=("alquerque", "alfonso", "qirkat"),
    bell=False,
    no_capture_limit=50,
)
BELL = AlquerqueVariant(
    name="alquerque-bell",
    title="Alquerque (R.C. Bell)",
    aliases=("alquerque bell", "bell"),
    bell=True,
)
GAMES = {game.name: game for game in (ALFONSO, BELL)}


def _normalise(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def find_game(name: str | AlquerqueVariant, **options: Any) -> AlquerqueVariant:
    """The Alquerque game called ``name``, with ``options`` applied.

    :raises VariantError: for an unknown name or option.
    """
    game: AlquerqueVariant | None = None
    if isinstance(name, AlquerqueVariant):
        game = name
    elif isinstance(name, str):
        key = _normalise(name)
        for candidate in GAMES.values():
            if key in {_normalise(a) for a in (candidate.name, *candidate.aliases)}:
                game = candidate
    if game is None:
        raise VariantError(f"unknown Alquerque game {name!r}; known: {', '.join(GAMES)}")
    return game.with_options(**options) if options else game


def is_alquerque_name(name: object) -> bool:
    """Whether ``name`` names one of the Alquerque games."""
    if isinstance(name, AlquerqueVariant):
        return True
    try:
        find_game(name)  # type: ignore[arg-type]
    except VariantError:
        return False
    return True
