"""Alquerque, the 25-point game of the seeds (docs/rules.md 6): Alfonso X's and R.C. Bell's rules.

>>> from kradan import alquerque
>>> board = alquerque.Board(variant="alquerque-bell")
>>> [board.perft(depth) for depth in (1, 2, 3)]
[4, 5, 6]
"""

from __future__ import annotations

from .board import Board, GameNotOverError, LegalMoves
from .geometry import POINT_NAMES, parse_point, point_name
from .move import Move
from .variant import ALFONSO, BELL, GAMES, AlquerqueVariant

__all__ = [
    "ALFONSO",
    "BELL",
    "GAMES",
    "POINT_NAMES",
    "AlquerqueVariant",
    "Board",
    "GameNotOverError",
    "LegalMoves",
    "Move",
    "parse_point",
    "point_name",
]
