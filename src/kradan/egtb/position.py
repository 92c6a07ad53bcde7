"""From a :class:`kradan.Board` to a table and an index: which table, colour-flipped or not,
and the squares in the table's slot order."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import TablebaseError
from ..pieces import FERZ, KING, WHITE
from ..position import ChessPosition
from ..variants import GateRule, StalemateRule
from .index import index_of
from .material import MAX_PIECES, TYPE_TO_LETTER, Material, canonical


@dataclass(frozen=True)
class Located:
    """A position as its table sees it."""

    #: the table, ``None`` for bare kings (always drawn)
    material: Material | None
    #: the table stores the stronger side as White: ``True`` when that is the board's Black
    flipped: bool
    #: side to move in the table's orientation (0 White)
    stm: int
    index: int


#: the games whose pawnless endings move as the tables' do (Ouk once no leap rights remain;
#: Sittuyin once set up, its sit-ke moving as the met)
GAMES = ("makruk", "cambodian", "sittuyin")


def check_rules(board: ChessPosition) -> None:
    """Refuse boards whose rules the tables were not built for.

    :raises TablebaseError: for another game than Makruk, Ouk Chatrang or Sittuyin, an Ouk
        position whose king or met may still leap, a Sittuyin position still being set up, or
        options that change the endings (stalemate not a draw, the king's sutra).
    """
    variant = board.variant
    if variant.name not in GAMES:
        raise TablebaseError(
            "the endgame tables cover Makruk, Ouk Chatrang and Sittuyin positions, not "
            f"{variant.title}"
            + (" (the first check wins there)" if getattr(variant, "checks_to_win", 0) else "")
        )
    if board.hand(WHITE) or board.hand(not WHITE):
        raise TablebaseError(
            f"the endgame tables hold positions with every piece on the board: {board.fen()}"
        )
    if variant.gates is GateRule.KING_AND_MET_LEAPS and board.has_first_move_rights():
        raise TablebaseError(
            "the endgame tables hold Ouk positions without leap rights (FEN field 3 '-'): "
            f"{board.fen()}"
        )
    if variant.stalemate is not StalemateRule.DRAW:
        raise TablebaseError(
            f"the endgame tables score stalemate as a draw, not stalemate={variant.stalemate!s}"
        )
    if variant.sut_khun and board.has_first_move_rights():
        raise TablebaseError(
            f"the endgame tables do not know the king's sutra (sut_khun): {board.fen()}"
        )


def locate(board: ChessPosition) -> Located:
    """The table and index of ``board``'s position.

    :raises TablebaseError: for pawns, more than the tables' pieces, or other rules.
    """
    check_rules(board)
    kings: dict[bool, int] = {}
    pieces: dict[bool, list[tuple[str, int]]] = {True: [], False: []}
    for square, piece in board.piece_map().items():
        if piece.piece_type == KING:
            kings[piece.color] = square
            continue
        # Sittuyin's sit-ke (FSF's ferz) moves as the met: the tables' "M"
        letter = "M" if piece.piece_type == FERZ else TYPE_TO_LETTER.get(piece.piece_type)
        if letter is None:
            raise TablebaseError(
                f"the endgame tables hold no {piece.symbol()!r} (pawnless endings only): "
                f"{board.fen()}"
            )
        pieces[piece.color].append((letter, square))
    count = 2 + len(pieces[True]) + len(pieces[False])
    if len(kings) != 2 or count > MAX_PIECES:
        raise TablebaseError(
            f"the endgame tables hold positions of 2 kings and at most {MAX_PIECES} pieces in "
            f"all: {board.fen()}"
        )
    stm = 0 if board.turn == WHITE else 1
    white_letters = "".join(c for c, _ in pieces[True])
    black_letters = "".join(c for c, _ in pieces[False])
    if not white_letters and not black_letters:
        return Located(None, False, stm, 0)
    material, flipped = canonical(white_letters, black_letters)
    strong, weak = (False, True) if flipped else (True, False)
    mask = 56 if flipped else 0
    squares = [kings[strong] ^ mask, kings[weak] ^ mask]
    for side, letters in ((strong, material.white), (weak, material.black)):
        left = list(pieces[side])
        for c in letters:
            k = next(i for i, (letter, _) in enumerate(left) if letter == c)
            squares.append(left.pop(k)[1] ^ mask)
    table_stm = 1 - stm if flipped else stm
    return Located(material, flipped, table_stm, index_of(table_stm, squares))
