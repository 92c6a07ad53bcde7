"""What the rules modules read of a chess-family board.

Counting (:mod:`kradan.counting`), the end of the game (:mod:`kradan.game_end`), material
(:mod:`kradan.material`) and SAN (:mod:`kradan.notation.san`) take a :class:`ChessPosition`: a
small read-only view that :class:`kradan.Board` satisfies. They never import the board and
never change it; every change to a board goes through a Board method.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from .move import Move
from .pieces import Color, Piece, PieceType, Square
from .variants import Variant


class LegalMoves(Protocol):
    """A position's legal moves."""

    def __iter__(self) -> Iterator[Move]: ...

    def __bool__(self) -> bool: ...

    def count(self) -> int: ...


class ChessPosition(Protocol):
    """A chess-family position and the history that led to it, read-only."""

    @property
    def variant(self) -> Variant: ...

    @property
    def turn(self) -> Color: ...

    @property
    def halfmove_clock(self) -> int: ...

    @property
    def ply(self) -> int: ...

    @property
    def legal_moves(self) -> LegalMoves: ...

    def fen(self) -> str: ...

    def piece_at(self, square: Square) -> Piece | None: ...

    def piece_map(self) -> dict[Square, Piece]: ...

    def has_piece(self, piece_type: PieceType, color: Color) -> bool: ...

    def hand(self, color: Color) -> dict[int, int]: ...

    def is_check(self) -> bool: ...

    def is_legal(self, move: Move) -> bool: ...

    def parse_uci(self, uci: str) -> Move: ...

    def is_capture(self, move: Move) -> bool: ...

    def gives_check(self, move: Move) -> bool: ...

    def gives_checkmate(self, move: Move) -> bool: ...

    def has_first_move_rights(self) -> bool: ...

    def counting_fields(self) -> tuple[int, int]: ...

    def remaining_checks(self, color: Color) -> int: ...

    def repetitions(self) -> list[int]: ...

    def copy(self) -> ChessPosition:
        """An independent copy, history included (to walk back through with :meth:`pop`)."""
        ...

    def pop(self) -> object: ...


__all__ = ["ChessPosition", "LegalMoves"]
