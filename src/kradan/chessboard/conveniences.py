"""What a python-chess user reaches for, with python-chess's names where the meaning is the
same: the placement alone (``board_fen``), EPD, long algebraic, a line of moves in SAN, captures,
attackers of a square, a Unicode board and a picture for notebooks."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator

from .._core import layout as L
from .._core.attacks import attackers_of_color
from ..arguments import check_color, check_square
from ..errors import InvalidArgumentError
from ..move import Move
from ..notation.san import move_to_san
from ..pieces import FERZ, KHON, KING, KNIGHT, MET, PAWN, ROOK, Color, Square
from .counts import CountingActions

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
        """``moves``, played in turn from here, as a numbered line: ``1. e4 d5 2. exd5``.

        :raises IllegalMoveError: at the first move that is not legal where it stands;
        :raises InvalidArgumentError: when ``moves`` is not a sequence of moves.
        """
        if isinstance(moves, str | bytes) or not isinstance(moves, Iterable):
            raise InvalidArgumentError(f"moves {moves!r}: expected Move objects, in order")
        board = self.copy(stack=False)
        words: list[str] = []
        for index, move in enumerate(moves):
            number = board.fullmove_number
            if board.turn:
                words.append(f"{number}.")
            elif index == 0:
                words.append(f"{number}...")
            words.append(move_to_san(board, move, notation))
            board.push(move)
        return " ".join(words)

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
