"""What a python-chess user reaches for, with python-chess's names where the meaning is the
same: the placement alone (``board_fen``), EPD, long algebraic, a line of moves in SAN, captures,
attackers of a square, a Unicode board and a picture for notebooks."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import Self

from .._core import layout as L
from .._core.attacks import attackers_of_color
from ..arguments import check_color, check_square
from ..move import Move, require_move
from ..notation.san import move_to_san
from ..pieces import FERZ, KHON, KING, KNIGHT, MET, PAWN, ROOK, Color, Square
from ..variant_enums import PromotionRule
from .counts import CountingActions
from .explain import KernelArrays, leaves_king_attacked, reaches

#: Unicode chess glyphs for the pieces, by their nearest Western kin (khon as the bishop, met
#: and ferz as the queen), White's first
UNICODE_PIECES = {
    (KING, True): "♔", (MET, True): "♕", (FERZ, True): "♕", (ROOK, True): "♖",
    (KHON, True): "♗", (KNIGHT, True): "♘", (PAWN, True): "♙",
    (KING, False): "♚", (MET, False): "♛", (FERZ, False): "♛", (ROOK, False): "♜",
    (KHON, False): "♝", (KNIGHT, False): "♞", (PAWN, False): "♟",
}  # fmt: skip


class Conveniences(CountingActions):
    """python-chess's conveniences on a chess-family board."""

    def board_fen(self, *, show_promoted: bool | None = None) -> str:
        """The FEN's first field without the hand: where the pieces stand."""
        return self.fen(show_promoted=show_promoted).split(" ", 1)[0].split("[", 1)[0]

    def epd(self) -> str:
        """The FEN less its last two fields (the halfmove or counting ply and the move
        number), as EPD writes a position."""
        return " ".join(self.fen().split(" ")[:-2])

    def lan(self, move: Move) -> str:
        """``move`` in long algebraic notation (``Nb1-d2``)."""
        return move_to_san(self, move, "lan")

    def variation_san(self, moves: Iterable[Move], notation: str = "san") -> str:
        """``moves``, played in turn from here, as a numbered line in ``notation`` (``san``,
        ``lan``, ``thai`` or ``thai_lan``): ``1. e4 d5 2. exd5``.

        :raises IllegalMoveError: at the first move that is not legal where it stands;
        :raises InvalidArgumentError: when ``moves`` is not a sequence of moves, or for an
            unknown notation.
        """
        return self._numbered_line(moves, lambda board, move: move_to_san(board, move, notation))

    def mirror(self) -> Self:
        """The same position with the colours swapped: the board turned upside down (rank 1
        becomes rank 8), every piece and piece in hand given to the other side, the other side
        to move, first-move rights swapped; the counting fields and the move number stay. A
        position and its mirror are equally good for the side to move. The copy has no history.
        """
        fields = self.fen(show_promoted=True).split(" ")
        placement, bracket, hand = fields[0].partition("[")
        ranks = placement.split("/")[::-1]
        fields[0] = "/".join(ranks).swapcase() + bracket + hand.swapcase()
        fields[1] = "b" if fields[1] == "w" else "w"
        fields[2] = fields[2].swapcase()
        board = self.copy(stack=False)
        board.set_fen(" ".join(fields))
        return board  # type: ignore[return-value]  # copy() gives the board's own class

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal, or would be but for the mover's king: the piece moves
        as it may, and only check (left, given or walked into) forbids it, as python-chess
        means it. Drops, sutras, Ouk's first moves and Sittuyin's promotions are pseudo-legal
        only where they are legal.

        :raises InvalidMoveError: when ``move`` is not a :class:`~kradan.Move`.
        """
        require_move(move)
        if self.is_legal(move):
            return True
        if not move or move.drop is not None or move.pawn_step is not None:
            return False
        piece = self.piece_at(move.from_square)
        target = self.piece_at(move.to_square)
        if piece is None or piece.color != self.turn or move.from_square == move.to_square:
            return False
        if target is not None and (target.color == self.turn or target.piece_type == KING):
            return False
        if move.promotion != self._promotion_on_arrival(piece.piece_type, move.to_square):
            return False
        kernel = KernelArrays(self._bbs, self._info, self._codec.encode(move))
        return reaches(self, move, kernel) and leaves_king_attacked(kernel)

    def _promotion_on_arrival(self, piece_type: int, square: Square) -> int | None:
        """What a piece of ``piece_type`` arriving on ``square`` must become (Makruk's pawn
        entering the promotion ranks), or ``None``."""
        variant = self.variant
        if piece_type != PAWN or variant.promotion is not PromotionRule.ON_ENTRY:
            return None
        rank = square // 8 + 1 if self.turn else 8 - square // 8
        return variant.promoted_type if rank >= variant.promotion_rank else None

    def generate_legal_captures(self) -> Iterator[Move]:
        """The legal moves that capture."""
        return (move for move in self.legal_moves if self.is_capture(move))

    def attackers(self, color: Color, square: Square) -> list[Square]:
        """The squares of ``color``'s pieces that attack ``square`` (pawns by their captures),
        in square order.

        :raises InvalidSquareError: for a square that is not 0..63;
        :raises InvalidArgumentError: for a colour that is not ``True`` or ``False``.
        """
        side = L.WHITE if check_color(color) else L.BLACK
        target = check_square(square)
        occupied = self._bbs[L.BB_COLOR] | self._bbs[L.BB_COLOR + 1]
        found = int(attackers_of_color(self._bbs, side, target, occupied))
        return [index for index in range(64) if found >> index & 1]

    def is_attacked_by(self, color: Color, square: Square) -> bool:
        """Whether a piece of ``color`` attacks ``square``."""
        return bool(self.attackers(color, square))

    def unicode(self, *, empty_square: str = "·") -> str:
        """The board in Unicode chess glyphs, White at the bottom, a line per rank."""
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = self.piece_at(rank * 8 + file)
                glyph = (
                    empty_square if piece is None else UNICODE_PIECES[piece.piece_type, piece.color]
                )
                cells.append(glyph)
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def _repr_svg_(self) -> str:
        """The picture a Jupyter notebook shows for a board. The pictures are a layer above the
        rules, so the drawer is found by name when a notebook asks, as the registry's hooks
        are (:meth:`kradan.games.Game.hook`)."""
        draw = importlib.import_module("kradan.svg").board
        picture: str = draw(self)
        return picture


__all__ = ["UNICODE_PIECES", "Conveniences"]
