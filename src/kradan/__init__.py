"""kradan (กระดาน, "board"): Makruk, Ouk Chatrang, Kar Ouk, Sittuyin and Alquerque in Python.

>>> import kradan
>>> board = kradan.Board()
>>> board.push_san("e4")
Move.from_uci('e3e4')
>>> board.perft(3)
12079

Every game is found by name through the registry (:mod:`kradan.games`), Alquerque included:

>>> kradan.find_game("thai").name, kradan.new_board("alquerque-bell").perft(3)
('makruk', 6)
>>> kradan.game_names()
['cambodian', 'karouk', 'makruk', 'sittuyin', 'alquerque', 'alquerque-bell']
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
from .games import Game, GameBoard, canonical_name, find_game, game_names, game_of, new_board
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
from .variants import Variant

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
    "Game",
    "GameBoard",
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
    "canonical_name",
    "find_game",
    "game_names",
    "game_of",
    "new_board",
    "parse_square",
    "piece_name",
    "piece_symbol",
    "square",
    "square_file",
    "square_name",
    "square_rank",
]
