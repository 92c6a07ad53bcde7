"""Moves as PGN writes and reads them, for every game.

Chess family: SAN as Fairy-Stockfish and pychess.org write it (``Me3``, ``c6=M``, ``R@a1``,
``e4,Me3`` for a sutra), or Thai SAN on request. Reading also takes long algebraic, Thai SAN,
UCI strings (``b6c7f``) and cutechess's short Sittuyin promotion (``c7=F``: the target square
alone, when only one pawn can promote there).

Alquerque: the readable form without spaces, ``c2-c3`` or ``b3xd3xd5``; a huff taken before the
move is written ``hc3,b2-c3`` (the huffed point, a comma, the move). UCI strings are read too.
"""

from __future__ import annotations

import re

from .. import alquerque
from ..board import Board
from ..errors import IllegalMoveError, InvalidMoveError
from ..games import AnyBoard
from ..move import Move
from ..pieces import PAWN, PIECE_SYMBOLS
from ..variants import PromotionRule
from .tree import AnyMove

_FAST_SAN = re.compile(r"([KMSNRFP]?)([a-h]?)([1-8]?)x?([a-h][1-8])(?:=?([MFSNRK]))?[+#]?[!?]*")
_UCI = re.compile(r"[a-h][1-8][a-h][1-8][a-z]?")


def move_text(board: AnyBoard, move: AnyMove, notation: str = "san") -> str:
    """``move`` as a PGN move token on ``board`` (``notation`` ``san``, ``lan``, ``thai`` or
    ``thai_lan`` for the chess family; Alquerque has one notation).

    :raises IllegalMoveError: when the move is not legal on ``board``.
    """
    if isinstance(board, alquerque.Board):
        assert isinstance(move, alquerque.Move)
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {board.text()!r}")
        text = move.readable()
        if move.huff is not None:
            text = f"h{alquerque.point_name(move.huff)},{text.split(') ', 1)[1]}"
        return text
    assert isinstance(move, Move)
    return board.san(move, notation)


def _fast_san(board: Board, text: str) -> Move | None:
    """The move plain SAN ``text`` names when exactly one legal move fits, else ``None`` (the
    full parser then decides, with its leniency and its error messages)."""
    match = _FAST_SAN.fullmatch(text)
    if match is None:
        return None
    letter, file, rank, target, promo = match.groups()
    variant = board.variant
    types = {PIECE_SYMBOLS[t].upper(): t for t in variant.piece_types}
    wanted = PAWN if letter in ("", "P") else types.get(letter)
    if wanted is None:
        return None
    to_square = (int(target[1]) - 1) * 8 + "abcdefgh".index(target[0])
    promotion = types.get(promo) if promo else None
    if promo and promotion is None:
        return None
    promotion_optional = variant.promotion is PromotionRule.ON_ENTRY and not promo
    found: Move | None = None
    for move in board._legal_move_list():
        if move.to_square != to_square or move.drop is not None or move.pawn_step is not None:
            continue
        frm = move.from_square
        if move.from_square == to_square:
            continue  # an in-place promotion: the full parser reads those
        if (file and "abcdefgh"[frm & 7] != file) or (rank and str((frm >> 3) + 1) != rank):
            continue
        if move.promotion != promotion and not promotion_optional:
            continue
        piece = board.piece_at(frm)
        if piece is None or piece.piece_type != wanted:
            continue
        if found is not None:
            return None
        found = move
    return found


def parse_move(board: AnyBoard, text: str) -> AnyMove:
    """The legal move a PGN token names on ``board``.

    :raises InvalidMoveError: for text that is no move;
    :raises IllegalMoveError: when it names no legal move;
    :raises AmbiguousMoveError: when it fits several.
    """
    if isinstance(board, alquerque.Board):
        return board.parse_uci(text.rstrip("!?+#"))
    fast = _fast_san(board, text)
    if fast is not None:
        return fast
    try:
        return board.parse_san(text)
    except (InvalidMoveError, IllegalMoveError) as error:
        if _UCI.fullmatch(text):
            try:
                return board.parse_uci(text)
            except ValueError:
                pass
        short = _short_promotion(board, text)
        if short is not None:
            return short
        raise error


def _short_promotion(board: Board, text: str) -> Move | None:
    """cutechess's short Sittuyin promotion ``c7=F``: the one promotion to the target square."""
    match = re.fullmatch(r"([a-h][1-8])=?([A-Z])[+#]?[!?]*", text)
    if match is None or board.variant.promotion is not PromotionRule.SEPARATE_MOVE:
        return None
    target = (int(match.group(1)[1]) - 1) * 8 + "abcdefgh".index(match.group(1)[0])
    letter = match.group(2).lower()
    moves = [
        move
        for move in board._legal_move_list()
        if move.promotion is not None
        and move.to_square == target
        and PIECE_SYMBOLS[move.promotion] == letter
    ]
    return moves[0] if len(moves) == 1 else None


__all__ = ["move_text", "parse_move"]
