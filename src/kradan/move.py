"""The :class:`Move` value type and its UCI form (Fairy-Stockfish's strings).

* a step or capture: ``e3e4``
* a promotion, suffix required: ``c5c6m`` (Makruk), ``d5c6f`` or in place ``d5d5f`` (Sittuyin)
* a drop, upper-case letter for both colours: ``R@a1``
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidMoveError
from .pieces import (
    KING,
    PIECE_SYMBOLS,
    SQUARE_NAMES,
    SYMBOL_TO_TYPE,
    PieceType,
    Square,
    parse_square,
)

_UCI_MOVE = re.compile(r"([a-h][1-8])([a-h][1-8])([a-z]?)")
_UCI_DROP = re.compile(r"([A-Za-z])@([a-h][1-8])")


@dataclass(frozen=True, slots=True)
class Move:
    """A move: from where to where, and the piece a pawn promotes to or the piece dropped.

    For a drop, ``from_square == to_square`` (as in python-chess) and ``drop`` is the piece type.
    """

    from_square: Square
    to_square: Square
    promotion: PieceType | None = None
    drop: PieceType | None = None

    def uci(self) -> str:
        """The move in Fairy-Stockfish's UCI form, e.g. ``'b4c3m'`` or ``'R@a1'``."""
        if self.drop is not None:
            return f"{PIECE_SYMBOLS[self.drop].upper()}@{SQUARE_NAMES[self.to_square]}"
        text = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        if self.promotion is not None:
            text += PIECE_SYMBOLS[self.promotion]
        return text

    def __str__(self) -> str:
        return self.uci()

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse a UCI move string.

        :raises InvalidMoveError: when ``text`` is not a well-formed UCI move.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"invalid UCI move {text!r}: expected a string")
        match = _UCI_MOVE.fullmatch(text)
        if match:
            promotion = None
            if match.group(3):
                promotion = SYMBOL_TO_TYPE.get(match.group(3))
                if promotion is None or promotion == KING:
                    raise InvalidMoveError(
                        f"invalid UCI move {text!r}: {match.group(3)!r} is not a promotion piece"
                    )
            return cls(parse_square(match.group(1)), parse_square(match.group(2)), promotion)
        match = _UCI_DROP.fullmatch(text)
        if match:
            drop = SYMBOL_TO_TYPE.get(match.group(1).lower())
            if drop is None:
                raise InvalidMoveError(
                    f"invalid UCI move {text!r}: {match.group(1)!r} is not a piece letter"
                )
            target = parse_square(match.group(2))
            return cls(target, target, drop=drop)
        raise InvalidMoveError(
            f"invalid UCI move {text!r}: expected e.g. 'e3e4', 'c5c6m' or 'R@a1'"
        )
