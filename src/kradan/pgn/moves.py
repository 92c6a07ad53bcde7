"""Moves as PGN writes and reads them, for every game: :func:`move_text` and :func:`parse_move`
ask the game's ``pgn`` hook (a game without one writes ``board.san(move)``). The bottom of the
package: it imports no other PGN module.

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
from typing import Any, Protocol

from .. import alquerque
from .._core import layout as L
from ..board import Board
from ..errors import IllegalMoveError, InvalidMoveError
from ..games import AnyBoard, game_of
from ..move import Move
from ..notation.san import NULL_SAN
from ..pieces import PAWN, PIECE_SYMBOLS, PieceType
from ..variants import PromotionRule

_FAST_SAN = re.compile(r"([KMSNRFP]?)([a-h]?)([1-8]?)x?([a-h][1-8])(?:=?([MFSNRK]))?[+#]?[!?]*")
_UCI = re.compile(r"[a-h][1-8][a-h][1-8][a-z]?")


class AnyMove(Protocol):
    """A move of any game: the game's own move object, which writes itself as UCI."""

    def uci(self) -> str: ...


def move_text(board: AnyBoard, move: AnyMove, notation: str = "san") -> str:
    """``move`` as a PGN move token on ``board`` in ``notation``, one of the game's notations
    (``san``, ``lan``, ``thai`` or ``thai_lan`` for the chess family); a notation the game does
    not have gives its default. Written by the game's PGN hook, else by ``board.san``.

    :raises IllegalMoveError: when the move is not legal on ``board``.
    """
    game = game_of(board)
    if notation not in game.notations:
        notation = game.notations[0]
    moves = game.hook("pgn")
    if moves is None:
        san: Any = board.san
        text: str = san(move) if notation == game.notations[0] else san(move, notation)
        return text
    text = moves.move_text(board, move, notation)
    return text


def parse_move(board: AnyBoard, text: str) -> Any:
    """The legal move a PGN token names on ``board``, by the game's PGN hook.

    :raises InvalidMoveError: for text that is no move;
    :raises IllegalMoveError: when it names no legal move;
    :raises AmbiguousMoveError: when it fits several.
    """
    moves = game_of(board).hook("pgn")
    if moves is None:
        return board.parse_san(text)
    return moves.parse_move(board, text)


class AlquerqueMoves:
    """Alquerque's PGN moves: ``c2-c3``, ``b3xd3xd5``, and ``hc3,b2-c3`` for a huff first."""

    @staticmethod
    def move_text(board: alquerque.Board, move: alquerque.Move, notation: str = "san") -> str:
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {board.text()!r}")
        text = move.readable()
        if move.huff is not None:
            text = f"h{alquerque.point_name(move.huff)},{text.split(') ', 1)[1]}"
        return text

    @staticmethod
    def parse_move(board: alquerque.Board, text: str) -> alquerque.Move:
        return board.parse_san(text)


class ChessMoves:
    """The chess family's PGN moves: SAN (or Thai SAN) written; SAN, long algebraic, Thai SAN,
    UCI strings and cutechess's short Sittuyin promotion read."""

    @staticmethod
    def move_text(board: Board, move: Move, notation: str = "san") -> str:
        return board.san(move, notation)

    @staticmethod
    def parse_move(board: Board, text: str) -> Move:
        if text == NULL_SAN:
            return Move.null()  # a pass, as analysis writes it (python-chess reads it too)
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


ALQUERQUE_MOVES = AlquerqueMoves()
CHESS_MOVES = ChessMoves()


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
    found = -1
    codes = board.legal_codes()
    for code in codes:
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
        piece = board.piece_at(frm)
        if piece is None or piece.piece_type != wanted:
            continue
        if found >= 0:
            return None
        found = code
    return board.decode_move(found) if found >= 0 else None


def _short_promotion(board: Board, text: str) -> Move | None:
    """cutechess's short Sittuyin promotion ``c7=F``: the one promotion to the target square."""
    match = re.fullmatch(r"([a-h][1-8])=?([A-Z])[+#]?[!?]*", text)
    if match is None or board.variant.promotion is not PromotionRule.SEPARATE_MOVE:
        return None
    target = (int(match.group(1)[1]) - 1) * 8 + "abcdefgh".index(match.group(1)[0])
    letter = match.group(2).lower()
    moves = [
        move
        for move in board.legal_moves
        if move.promotion is not None
        and move.to_square == target
        and PIECE_SYMBOLS[move.promotion] == letter
    ]
    return moves[0] if len(moves) == 1 else None


__all__ = [
    "ALQUERQUE_MOVES",
    "CHESS_MOVES",
    "AlquerqueMoves",
    "AnyMove",
    "ChessMoves",
    "move_text",
    "parse_move",
]
