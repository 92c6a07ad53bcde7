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
from functools import cache

from .. import alquerque
from .._core import layout as L
from ..board import Board
from ..errors import IllegalMoveError, InvalidMoveError
from ..games import AnyBoard
from ..move import Move
from ..pieces import PAWN, PIECE_SYMBOLS, PieceType
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


@cache
def _letter_types(piece_types: tuple[PieceType, ...]) -> dict[str, PieceType]:
    return {PIECE_SYMBOLS[t].upper(): t for t in piece_types}


def _fast_san(board: Board, text: str) -> Move | None:
    """The move plain SAN ``text`` names when exactly one legal move fits, else ``None`` (the
    full parser then decides, with its leniency and its error messages). Works on the kernel's
    move codes, so that reading long files is quick."""
    match = _FAST_SAN.fullmatch(text)
    if match is None:
        return None
    letter, file, rank, target, promo = match.groups()
    piece_types = board.variant.piece_types
    types = _letter_types(piece_types)
    wanted = PAWN if letter in ("", "P") else types.get(letter)
    if wanted is None:
        return None
    to_square = (ord(target[1]) - 49) * 8 + ord(target[0]) - 97
    promotion = types.get(promo) if promo else None
    if promo and promotion is None:
        return None
    promotion_optional = board.variant.promotion is PromotionRule.ON_ENTRY and not promo
    want_file = ord(file) - 97 if file else -1
    want_rank = ord(rank) - 49 if rank else -1
    squares = board._info[L.I_BOARD : L.I_BOARD + 64].tolist()
    found = -1
    for code in board._legal_codes():
        if code & L.MOVE_TO_MASK != to_square:
            continue
        kind = (code >> L.MOVE_KIND_SHIFT) & L.MOVE_KIND_MASK
        if kind == L.KIND_DROP or kind == L.KIND_SUTRA:
            continue
        frm = (code >> L.MOVE_FROM_SHIFT) & L.MOVE_TO_MASK
        if frm == to_square:
            continue  # an in-place promotion: the full parser reads those
        if (want_file >= 0 and frm & 7 != want_file) or (want_rank >= 0 and frm >> 3 != want_rank):
            continue
        promotes = kind == L.KIND_PROMOTION or kind == L.KIND_PIECE_PROMOTION
        if not promotion_optional:
            promoted = piece_types[(code >> L.MOVE_PIECE_SHIFT) & L.MOVE_PIECE_MASK]
            if (promoted if promotes else None) != promotion:
                continue
        if piece_types[(squares[frm] & 7) - 1] != wanted:
            continue
        if found >= 0:
            return None
        found = code
    return board._codec.decode(found) if found >= 0 else None


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
