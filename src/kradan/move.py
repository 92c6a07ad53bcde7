"""The :class:`Move` value type and its UCI form (Fairy-Stockfish's strings).

* a step or capture: ``e3e4``
* a promotion, suffix required: ``c5c6m`` (Makruk), ``d5c6f`` or in place ``d5d5f`` (Sittuyin)
* a drop, upper-case letter for both colours: ``R@a1``
* the null move (a pass, as engines and python-chess write it): ``0000``
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from numbers import Integral

from .errors import InvalidMoveError
from .movebase import MoveBase
from .pieces import (
    KING,
    PIECE_SYMBOLS,
    PIECE_TYPES,
    SQUARE_NAMES,
    SYMBOL_TO_TYPE,
    PieceType,
    Square,
    parse_square,
)

_UCI_MOVE = re.compile(r"([a-h][1-8])([a-h][1-8])([a-z]?)")
_UCI_DROP = re.compile(r"([A-Za-z])@([a-h][1-8])")


@dataclass(frozen=True, slots=True, repr=False)
class Move(MoveBase):
    """A move: from where to where, and the piece a pawn promotes to or the piece dropped.

    For a drop, ``from_square == to_square`` (as in python-chess) and ``drop`` is the piece type.
    A Makruk sutra moves two pieces: ``pawn_step`` is the pawn's step, played first, and the
    move itself takes a piece onto the square the pawn left (docs/rules.md 2.8).
    """

    from_square: Square
    to_square: Square
    promotion: PieceType | None = None
    drop: PieceType | None = None
    pawn_step: Move | None = None

    def __post_init__(self) -> None:
        for name in ("from_square", "to_square"):
            value = getattr(self, name)
            if (
                not isinstance(value, Integral)
                or isinstance(value, bool)
                or not 0 <= int(value) < 64
            ):
                raise InvalidMoveError(f"invalid move: {name} {value!r} is not a square (0-63)")
            object.__setattr__(self, name, int(value))  # a numpy integer becomes a plain one
        for name in ("promotion", "drop"):
            value = getattr(self, name)
            if value is not None and value not in PIECE_TYPES:
                raise InvalidMoveError(f"invalid move: {name} {value!r} is not a piece type")
        if self.pawn_step is not None and not isinstance(self.pawn_step, Move):
            raise InvalidMoveError(f"invalid move: pawn_step {self.pawn_step!r} is not a Move")

    @classmethod
    def null(cls) -> Move:
        """The null move: a pass, written ``0000``, false in a boolean context. A board plays
        it with ``push`` (the other side moves next); it is never among the legal moves."""
        return cls(0, 0)

    def is_null(self) -> bool:
        """Whether this is the null move."""
        return (
            self.from_square == self.to_square == 0
            and self.promotion is None
            and self.drop is None
            and self.pawn_step is None
        )

    def __bool__(self) -> bool:
        return not self.is_null()

    def uci(self) -> str:
        """The move in Fairy-Stockfish's UCI form, e.g. ``'b4c3m'``, ``'R@a1'``, for a sutra
        the two steps joined by a comma, ``'e3e4,e1e3'``, and ``'0000'`` for the null move."""
        if self.is_null():
            return "0000"
        if self.pawn_step is not None:
            piece_part = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
            return f"{self.pawn_step.uci()},{piece_part}"
        if self.drop is not None:
            return f"{PIECE_SYMBOLS[self.drop].upper()}@{SQUARE_NAMES[self.to_square]}"
        text = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        if self.promotion is not None:
            text += PIECE_SYMBOLS[self.promotion]
        return text

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse a UCI move string.

        :raises InvalidMoveError: when ``text`` is not a well-formed UCI move.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"invalid UCI move {text!r}: expected a string")
        if text == "0000":
            return cls.null()
        if text.count(",") == 1:
            first, _, second = text.partition(",")
            pawn, piece = _UCI_MOVE.fullmatch(first), _UCI_MOVE.fullmatch(second)
            if pawn and piece and not pawn.group(3) and not piece.group(3):
                return cls(
                    parse_square(piece.group(1)),
                    parse_square(piece.group(2)),
                    pawn_step=cls(parse_square(pawn.group(1)), parse_square(pawn.group(2))),
                )
            raise InvalidMoveError(
                f"invalid UCI move {text!r}: a sutra is two plain moves joined by a comma"
            )
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
            f"invalid UCI move {text!r}: expected e.g. 'e3e4', 'c5c6m', 'R@a1', 'e3e4,e1e3' "
            "or '0000'"
        )


#: ``move`` itself when it is a :class:`Move`; :raises InvalidMoveError: naming what was given
require_move = Move.require
