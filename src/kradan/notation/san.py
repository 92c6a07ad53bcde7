"""SAN, long algebraic and Thai SAN, written as Fairy-Stockfish writes them and read leniently.

Writing follows Fairy-Stockfish's ``move_to_san``:

* piece letter (none for pawns), then the origin when needed: a pawn capture always names its
  file; another piece names file, else rank, else square, when another piece of the same type
  could legally make the same move; long notations always name the origin square;
* ``x`` for a capture; in long notations ``-`` otherwise, and in Thai SAN ``-`` after a piece;
* the target, then ``=M`` (always an ASCII letter) for a promotion, ``@`` for a drop;
* ``+`` for check, ``#`` when the checked side has no legal reply.

Thai SAN uses Thai letters: ข khun, ค khon, ม ma, ร rua, ม็ met, ง promoted met (บ bia in Thai
long notation), files ก ข ค ง จ ฉ ช ญ and Thai digits for ranks.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import AmbiguousMoveError, IllegalMoveError, InvalidArgumentError, InvalidMoveError
from ..move import Move
from ..pieces import (
    FERZ,
    KHON,
    KING,
    KNIGHT,
    MET,
    PAWN,
    PIECE_NAMES,
    PIECE_SYMBOLS,
    ROOK,
    SQUARE_NAMES,
    SYMBOL_TO_TYPE,
)
from ..variants import PromotionRule

if TYPE_CHECKING:
    from ..position import ChessPosition

NOTATIONS = ("san", "lan", "thai", "thai_lan")

THAI_FILES = "กขคงจฉชญ"
THAI_RANKS = "๑๒๓๔๕๖๗๘"
THAI_PIECES = {KING: "ข", KHON: "ค", KNIGHT: "ม", ROOK: "ร", MET: "ม็", FERZ: "ม็", PAWN: ""}
THAI_PROMOTED_MET = "ง"
THAI_PAWN_LONG = "บ"

_STRIP = str.maketrans("", "", "x-+#= !?")
_SAN_SYNTAX = re.compile(r"[KMSNRFP]?[a-h]?[1-8]?[x-]?[a-h][1-8](=?[A-Za-z])?[+#]?[!?]*")
_SAN_PARTS = re.compile(r"([KMSNRFP]?)[a-h]?[1-8]?[x-]?([a-h][1-8])")
_UCI_SYNTAX = re.compile(r"[a-h][1-8][a-h][1-8][a-z]?(,[a-h][1-8][a-h][1-8])?|[A-Z]@[a-h][1-8]")
_DROP_SYNTAX = re.compile(r"[KMSNRFP]@[a-h][1-8][+#]?[!?]*")
_THAI_CHARS = set(THAI_FILES + THAI_RANKS + "ขคมรงบ็") | set("x-+#=@ MF!?")


def _square(sq: int, thai: bool) -> str:
    if thai:
        return THAI_FILES[sq & 7] + THAI_RANKS[sq >> 3]
    return SQUARE_NAMES[sq]


def _file(sq: int, thai: bool) -> str:
    return (THAI_FILES if thai else "abcdefgh")[sq & 7]


def _rank(sq: int, thai: bool) -> str:
    return (THAI_RANKS if thai else "12345678")[sq >> 3]


def _piece_letter(board: ChessPosition, move: Move, notation: str) -> str:
    thai = notation.startswith("thai")
    if move.drop is not None:
        piece_type = move.drop
        if thai:
            return THAI_PIECES[piece_type] or THAI_PAWN_LONG
        return PIECE_SYMBOLS[piece_type].upper()
    piece = board.piece_at(move.from_square)
    assert piece is not None
    if thai:
        if piece.piece_type == PAWN:
            return THAI_PAWN_LONG if notation == "thai_lan" else ""
        if piece.promoted and piece.piece_type in (MET, FERZ):
            return THAI_PROMOTED_MET
        return THAI_PIECES[piece.piece_type]
    return "" if piece.piece_type == PAWN else PIECE_SYMBOLS[piece.piece_type].upper()


def _rivals(board: ChessPosition, move: Move) -> list[int]:
    """Origins of other legal moves of the same piece type, kind and target."""
    piece = board.piece_at(move.from_square)
    assert piece is not None
    result = []
    for other in board.legal_moves:
        if (
            other.to_square == move.to_square
            and other.from_square != move.from_square
            and other.promotion == move.promotion
            and other.drop is None
        ):
            rival = board.piece_at(other.from_square)
            if rival is not None and rival.piece_type == piece.piece_type:
                result.append(other.from_square)
    return result


def _is_step_promotion(board: ChessPosition, move: Move) -> bool:
    """A Sittuyin promotion onto a neighbouring square (written with its full origin)."""
    return (
        move.promotion is not None
        and move.from_square != move.to_square
        and board.variant.promotion is PromotionRule.SEPARATE_MOVE
    )


def _origin(board: ChessPosition, move: Move, notation: str) -> str:
    thai = notation.startswith("thai")
    frm = move.from_square
    if move.drop is not None:
        return ""
    if notation in ("lan", "thai_lan"):
        return _square(frm, thai)
    piece = board.piece_at(frm)
    assert piece is not None
    if piece.piece_type == PAWN:
        if board.is_capture(move):
            return _file(frm, thai)
        if _is_step_promotion(board, move):
            return _square(frm, thai)
    rivals = _rivals(board, move)
    if not rivals:
        return ""
    if all((r & 7) != (frm & 7) for r in rivals):
        return _file(frm, thai)
    if all((r >> 3) != (frm >> 3) for r in rivals):
        return _rank(frm, thai)
    return _square(frm, thai)


#: the null move (a pass) in SAN, as PGN readers and python-chess write it
NULL_SAN = "--"


def move_to_san(board: ChessPosition, move: Move, notation: str = "san") -> str:
    """``move`` written in ``notation`` (``san``, ``lan``, ``thai`` or ``thai_lan``).

    :raises IllegalMoveError: when ``move`` is not legal on ``board``.
    :raises InvalidArgumentError: (a ``ValueError``) for an unknown notation name.
    """
    if notation not in NOTATIONS:
        raise InvalidArgumentError(f"unknown notation {notation!r}; known: {', '.join(NOTATIONS)}")
    if isinstance(move, Move) and move.is_null():
        return NULL_SAN
    if not board.is_legal(move):
        raise IllegalMoveError(f"illegal move {move.uci()!r} in {board.fen()!r}")
    thai = notation.startswith("thai")
    text = _sutra_pawn_part(move, notation) if move.pawn_step else ""
    letter = _piece_letter(board, move, notation)
    text += letter
    if notation == "thai_lan":
        text += " "
    text += _origin(board, move, notation)
    if move.drop is not None:
        text += "@"
    elif board.is_capture(move):
        text += "x"
    elif notation in ("lan", "thai_lan") or (notation == "thai" and letter != ""):
        text += "-"
    text += _square(move.to_square, thai)
    if move.promotion is not None:
        text += "=" + PIECE_SYMBOLS[move.promotion].upper()
    if board.gives_check(move):
        text += "#" if board.gives_checkmate(move) else "+"
    return text


def _sutra_pawn_part(move: Move, notation: str) -> str:
    """The pawn step of a sutra and the comma (docs/rules.md 2.8): ``e4,`` or, long, ``e3-e4,``."""
    assert move.pawn_step is not None
    thai = notation.startswith("thai")
    step = move.pawn_step
    if notation == "lan":
        return f"{_square(step.from_square, thai)}-{_square(step.to_square, thai)},"
    if notation == "thai_lan":
        return (
            f"{THAI_PAWN_LONG} {_square(step.from_square, thai)}-{_square(step.to_square, thai)},"
        )
    return _square(step.to_square, thai) + ","


def _sutra_spellings(board: ChessPosition, move: Move) -> set[str]:
    assert move.pawn_step is not None
    step = move.pawn_step
    piece = board.piece_at(move.from_square)
    assert piece is not None
    result = {f"{step.uci()},{SQUARE_NAMES[move.from_square]}{SQUARE_NAMES[move.to_square]}"}
    for thai in (False, True):
        letter = THAI_PIECES[piece.piece_type] if thai else PIECE_SYMBOLS[piece.piece_type].upper()
        for pawn in (
            _square(step.to_square, thai),
            _square(step.from_square, thai) + _square(step.to_square, thai),
        ):
            for origin in ("", _square(move.from_square, thai)):
                result.add(f"{pawn},{letter}{origin}{_square(move.to_square, thai)}")
    return result


def _spellings(board: ChessPosition, move: Move) -> set[str]:
    """Every normalised way of writing ``move`` that parse_san accepts."""
    if move.pawn_step is not None:
        return _sutra_spellings(board, move)
    target_latin = SQUARE_NAMES[move.to_square]
    promo = PIECE_SYMBOLS[move.promotion].upper() if move.promotion is not None else ""
    result = set()
    if move.drop is not None:
        result.add(PIECE_SYMBOLS[move.drop].upper() + "@" + target_latin)
        result.add((THAI_PIECES[move.drop] or THAI_PAWN_LONG) + "@" + _square(move.to_square, True))
        return result
    piece = board.piece_at(move.from_square)
    assert piece is not None
    frm = move.from_square
    for thai in (False, True):
        target = _square(move.to_square, thai)
        if piece.piece_type == PAWN:
            letters = [THAI_PAWN_LONG, ""] if thai else ["", "P"]
            origins = [_square(frm, thai)]
            if board.is_capture(move):
                origins.append(_file(frm, thai))
            elif not _is_step_promotion(board, move):
                origins.append("")
        else:
            if thai:
                letters = [THAI_PIECES[piece.piece_type]]
                if piece.piece_type in (MET, FERZ):
                    letters.append(THAI_PROMOTED_MET)
            else:
                letters = [PIECE_SYMBOLS[piece.piece_type].upper()]
            origins = ["", _file(frm, thai), _rank(frm, thai), _square(frm, thai)]
        for letter in letters:
            for origin in origins:
                base = letter + origin + target
                result.add(base + promo)
                if promo and board.variant.promotion is PromotionRule.ON_ENTRY:
                    result.add(base)  # the promotion is forced, so it may be left out
    return result


def _normalise(text: str) -> str:
    text = text.strip()
    match = re.search(r"=([a-z])", text)
    if match:
        text = text[: match.start(1)] + match.group(1).upper() + text[match.end(1) :]
    return (
        text.translate(_STRIP)
        if "@" not in text
        else text.translate(str.maketrans("", "", "+#!? "))
    )


def _as_uci(board: ChessPosition, text: str) -> Move | None:
    """The move that ``text`` names in UCI (squares alone), or ``None`` when it is not UCI.

    :raises IllegalMoveError: for a UCI move that is not legal here, saying why.
    """
    if not _UCI_SYNTAX.fullmatch(text):
        return None
    return board.parse_uci(text)


def _san_reason(board: ChessPosition, text: str) -> str:
    """Why the SAN ``text`` fits no legal move, as ``": reason"``."""
    parts = _SAN_PARTS.match(text)
    if parts is None:
        return ""
    letter, target = parts.groups()
    piece_type = SYMBOL_TO_TYPE[(letter or "p").lower()]
    name = PIECE_NAMES[piece_type]
    side = "White" if board.turn else "Black"
    origins = sorted(
        SQUARE_NAMES[move.from_square]
        for move in board.legal_moves
        if SQUARE_NAMES[move.to_square] == target
        and move.drop is None
        and (piece := board.piece_at(move.from_square)) is not None
        and piece.piece_type == piece_type
    )
    if not origins:
        return f": no {name} of {side}'s can go to {target}"
    return f": the {name}s that can go to {target} stand on {', '.join(origins)}"


def parse_san(board: ChessPosition, text: str) -> Move:
    """The legal move that ``text`` (SAN, long algebraic or Thai SAN) describes.

    :raises InvalidMoveError: for text that is not a move at all;
    :raises IllegalMoveError: when it describes no legal move;
    :raises AmbiguousMoveError: when it fits several legal moves.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"invalid SAN {text!r}: a move is written as text")
    if not text.strip():
        raise InvalidMoveError(f"invalid SAN {text!r}: empty")
    if text.strip() in (NULL_SAN, "0000"):
        raise IllegalMoveError(
            f"illegal SAN {text!r} in {board.fen()!r}: the null move is no legal move "
            "(push Move.null() to pass on purpose)"
        )
    uci = _as_uci(board, text.strip())
    if uci is not None:
        return uci  # squares alone (``b1d2``) read as UCI, as a player types them
    wanted = _normalise(text)
    matches = [move for move in board.legal_moves if wanted in _spellings(board, move)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        options = ", ".join(sorted(move_to_san(board, move, "san") for move in matches))
        raise AmbiguousMoveError(f"ambiguous SAN {text!r} in {board.fen()!r}: could be {options}")
    stripped = text.strip()
    if _SAN_SYNTAX.fullmatch(stripped) or _DROP_SYNTAX.fullmatch(stripped):
        reason = _san_reason(board, stripped)
        raise IllegalMoveError(f"illegal SAN {text!r} in {board.fen()!r}{reason}")
    if set(stripped) <= _THAI_CHARS and any(char in THAI_RANKS for char in stripped):
        raise IllegalMoveError(f"illegal SAN {text!r} in {board.fen()!r}")
    raise InvalidMoveError(f"invalid SAN {text!r}: not a move in SAN, long or Thai notation")
