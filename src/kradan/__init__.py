"""kradan (กระดาน, "board"): Makruk, Ouk Chatrang, Kar Ouk, Sittuyin and Alquerque in Python.

>>> import kradan
>>> board = kradan.Board()
>>> board.push_san("e4")
Move.from_uci('e3e4')
>>> board.perft(3)
12079
"""

from __future__ import annotations

from . import alquerque
from .board import Board, LegalMoveGenerator
from .counting import CountAction, CountingState
from .errors import (
    AmbiguousMoveError,
    CountingError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidSetupError,
    InvalidSquareError,
    KradanError,
    PgnError,
    VariantError,
)
from .move import Move
from .outcome import Outcome, Termination
from .pieces import (
    BLACK,
    COLORS,
    FERZ,
    KHON,
    KING,
    KNIGHT,
    MET,
    PAWN,
    PIECE_TYPES,
    ROOK,
    SQUARE_NAMES,
    SQUARES,
    WHITE,
    Color,
    Piece,
    PieceType,
    Square,
    parse_square,
    piece_name,
    piece_symbol,
    square,
    square_file,
    square_name,
    square_rank,
)
from .variants import Variant, find_variant, variant_names

__version__ = "0.1.0"

__all__ = [
    "BLACK",
    "COLORS",
    "FERZ",
    "KHON",
    "KING",
    "KNIGHT",
    "MET",
    "PAWN",
    "PIECE_TYPES",
    "ROOK",
    "SQUARES",
    "SQUARE_NAMES",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "CountAction",
    "CountingError",
    "CountingState",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidSetupError",
    "InvalidSquareError",
    "KradanError",
    "LegalMoveGenerator",
    "Move",
    "Outcome",
    "PgnError",
    "Piece",
    "PieceType",
    "Square",
    "Termination",
    "Variant",
    "VariantError",
    "__version__",
    "alquerque",
    "find_variant",
    "parse_square",
    "piece_name",
    "piece_symbol",
    "square",
    "square_file",
    "square_name",
    "square_rank",
    "variant_names",
]
