"""Alquerque, the 25-point game of the seeds (docs/rules.md 6): Alfonso X's and R.C. Bell's rules.

>>> from kradan import alquerque
>>> board = alquerque.Board(variant="alquerque-bell")
>>> [board.perft(depth) for depth in (1, 2, 3)]
[4, 5, 6]
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from .variant import ALFONSO, BELL, GAMES, AlquerqueVariant

#: names loaded on first use, so that the registry reads the rule sets without the kernel
_LAZY = {
    "Board": ".board",
    "GameNotOverError": ".board",
    "LegalMoves": ".board",
    "POINT_NAMES": ".geometry",
    "parse_point": ".geometry",
    "point_name": ".geometry",
    "Move": ".move",
}

if TYPE_CHECKING:
    from .board import Board, GameNotOverError, LegalMoves
    from .geometry import POINT_NAMES, parse_point, point_name
    from .move import Move


__getattr__, __dir__ = lazy_names(__name__, _LAZY)

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
