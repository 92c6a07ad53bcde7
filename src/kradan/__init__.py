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

from typing import TYPE_CHECKING

from ._lazy import lazy_names
from .errors import (
    AmbiguousMoveError,
    CountingError,
    EmptyMoveStackError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidFenError,
    InvalidMoveError,
    InvalidSetupError,
    InvalidSquareError,
    KradanError,
    PgnError,
    VariantError,
)
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

__version__ = "0.1.0"

#: names loaded on first use, each from its module: ``import kradan`` stays light (no numba, no
#: compiled kernel) until a board or a game is asked for (issue 43)
_LAZY = {
    "Board": ".board",
    "LegalMoveGenerator": ".board",
    "CountAction": ".counting",
    "CountingState": ".counting",
    "Game": ".games",
    "GameBoard": ".games",
    "canonical_name": ".games",
    "find_game": ".games",
    "game_names": ".games",
    "game_of": ".games",
    "new_board": ".games",
    "Move": ".move",
    "Outcome": ".outcome",
    "Termination": ".outcome",
    "Variant": ".variants",
    "alquerque": None,
}

if TYPE_CHECKING:
    from . import alquerque
    from .board import Board, LegalMoveGenerator
    from .counting import CountAction, CountingState
    from .games import Game, GameBoard, canonical_name, find_game, game_names, game_of, new_board
    from .move import Move
    from .outcome import Outcome, Termination
    from .variants import Variant


__getattr__, __dir__ = lazy_names(__name__, _LAZY)

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
    "EmptyMoveStackError",
    "Game",
    "GameBoard",
    "IllegalMoveError",
    "InvalidArgumentError",
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
