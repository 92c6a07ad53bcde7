"""Colours, piece types, pieces and squares: the vocabulary shared by every chess-family game.

Coordinates are absolute (DESIGN.md): square 0 is a1, White's lower left; square 63 is h8.
Piece types are small integers like python-chess's. ``FERZ`` is Sittuyin's sit-ke, which moves
like the Makruk met but is written ``F``; keeping it a type of its own makes ``Move.uci()`` and
``Piece.symbol()`` independent of the variant.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidArgumentError, InvalidSquareError

Color = bool
WHITE: Color = True
BLACK: Color = False
COLORS = (WHITE, BLACK)
COLOR_NAMES = {WHITE: "white", BLACK: "black"}

PieceType = int
PAWN: PieceType = 1  # bia / ne
KNIGHT: PieceType = 2  # ma / myin
KHON: PieceType = 3  # khon / sin: one step diagonally or straight forward
MET: PieceType = 4  # met (and promoted pawn): one step diagonally
ROOK: PieceType = 5  # rua / yahhta
KING: PieceType = 6  # khun / min-gyi
FERZ: PieceType = 7  # Sittuyin sit-ke: moves like the met, written F
PIECE_TYPES = (PAWN, KNIGHT, KHON, MET, ROOK, KING, FERZ)

PIECE_SYMBOLS = {PAWN: "p", KNIGHT: "n", KHON: "s", MET: "m", ROOK: "r", KING: "k", FERZ: "f"}
PIECE_NAMES = {
    PAWN: "pawn",
    KNIGHT: "knight",
    KHON: "khon",
    MET: "met",
    ROOK: "rook",
    KING: "king",
    FERZ: "ferz",
}
SYMBOL_TO_TYPE = {symbol: piece_type for piece_type, symbol in PIECE_SYMBOLS.items()}


def piece_symbol(piece_type: PieceType) -> str:
    """Lower-case letter of a piece type (``'m'`` for the met)."""
    return PIECE_SYMBOLS[piece_type]


def piece_name(piece_type: PieceType) -> str:
    """English name of a piece type."""
    return PIECE_NAMES[piece_type]


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of one colour; ``promoted`` marks a met that was a pawn (written ``M~``)."""

    piece_type: PieceType
    color: Color
    promoted: bool = False

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece a FEN letter names: ``"M"`` a White met, ``"s"`` a Black khon, ``"M~"`` a
        White promoted pawn.

        :raises InvalidArgumentError: for anything else, the text quoted.
        """
        text = symbol if isinstance(symbol, str) else ""
        promoted = text.endswith("~") and len(text) == 2
        letter = text[:1] if promoted or len(text) == 1 else ""
        piece_type = SYMBOL_TO_TYPE.get(letter.lower())
        if piece_type is None:
            raise InvalidArgumentError(
                f"piece symbol {symbol!r}: expected one of {''.join(PIECE_SYMBOLS.values())} "
                "(upper case for White), with ~ for a promoted pawn"
            )
        return cls(piece_type, letter.isupper(), promoted)

    def symbol(self) -> str:
        """FEN letter: upper case for White (``'M'``), lower case for Black (``'m'``)."""
        letter = PIECE_SYMBOLS[self.piece_type]
        return letter.upper() if self.color else letter

    def __str__(self) -> str:
        return self.symbol()


# the squares by name, as python-chess names them (``kradan.E4 == 28``)
A1, B1, C1, D1, E1, F1, G1, H1 = range(0, 8)
A2, B2, C2, D2, E2, F2, G2, H2 = range(8, 16)
A3, B3, C3, D3, E3, F3, G3, H3 = range(16, 24)
A4, B4, C4, D4, E4, F4, G4, H4 = range(24, 32)
A5, B5, C5, D5, E5, F5, G5, H5 = range(32, 40)
A6, B6, C6, D6, E6, F6, G6, H6 = range(40, 48)
A7, B7, C7, D7, E7, F7, G7, H7 = range(48, 56)
A8, B8, C8, D8, E8, F8, G8, H8 = range(56, 64)

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"

Square = int
SQUARES = range(64)
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
_SQUARE_BY_NAME = {name: index for index, name in enumerate(SQUARE_NAMES)}


def square(file_index: int, rank_index: int) -> Square:
    """Square from 0-based file and rank indices."""
    return rank_index * 8 + file_index


def square_file(sq: Square) -> int:
    """0-based file index (a = 0)."""
    return sq & 7


def square_rank(sq: Square) -> int:
    """0-based rank index (rank 1 = 0)."""
    return sq >> 3


def square_name(sq: Square) -> str:
    """Name of a square, e.g. ``square_name(0) == 'a1'``."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """Square from its name, e.g. ``parse_square('e3') == 20``.

    :raises InvalidSquareError: when ``name`` is not one of ``a1`` .. ``h8``.
    """
    try:
        return _SQUARE_BY_NAME[name]
    except (KeyError, TypeError):
        raise InvalidSquareError(f"invalid square name: {name!r} (expected a1 .. h8)") from None
