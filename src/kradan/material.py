"""Material rules of docs/rules.md 2.7: Fairy-Stockfish's dead-position test and the Korean table.

Both read only the pieces on the board (and in hand), so they work on any board of the family.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .pieces import FERZ, KHON, KING, KNIGHT, MET, PAWN, ROOK, Color, square_file, square_rank
from .variants import StalemateRule

if TYPE_CHECKING:
    from .position import ChessPosition as Board

_COLOR_BOUND = (MET, FERZ)  # one diagonal step: a met never leaves its square colour
_MATING = (ROOK, KHON)  # pieces that can mate a lone king with their king's help


def _is_dark(square: int) -> bool:
    return (square_file(square) + square_rank(square)) % 2 == 0  # a1 is dark


def has_insufficient_material(board: Board, color: Color) -> bool:
    """Whether ``color`` cannot possibly mate, by Fairy-Stockfish's rules (docs/rules.md 2.7).

    A rook or khon always suffices. Mets suffice when the mets on the board stand on both square
    colours or when any other piece besides the kings is on the board; knights and pawns need
    at least one more piece of either side. In Kar Ouk, where any check wins, and when a
    stalemate is not a draw, every piece suffices. Pieces in hand always suffice.
    """
    if any(board.has_piece(piece_type, color) for piece_type in _MATING) or board.hand(color):
        return False  # the usual case, without looking at every square
    pieces = board.piece_map()
    mine = [p.piece_type for p in pieces.values() if p.color == color and p.piece_type != KING]
    lenient = board.variant.checks_to_win > 0 or board.variant.stalemate not in (
        StalemateRule.DRAW,
        StalemateRule.ILLEGAL,  # a forced stalemate is a draw
    )
    others = [sq for sq, p in pieces.items() if p.piece_type != KING]
    bound = [sq for sq, p in pieces.items() if p.piece_type in _COLOR_BOUND]
    unbound = [sq for sq in others if sq not in bound]
    if any(t in _COLOR_BOUND for t in mine):
        both_colours = any(_is_dark(sq) for sq in bound) and not all(_is_dark(sq) for sq in bound)
        if both_colours or unbound or lenient:
            return False
    needs_helper = any(t not in _COLOR_BOUND for t in mine)
    return not (needs_helper and (len(others) >= 2 or lenient))


# --- the Korean table (docs/rules.md 2.7, [S1]) ---------------------------------------------------


def _pawn_groups_ok(files: list[int], rule: str) -> bool:
    if rule == "connected":
        # one unbroken run of files: c, d, e, f is connected; c, d and f, g are two groups
        # (Decision 11)
        distinct = sorted(set(files))
        return distinct[-1] - distinct[0] == len(distinct) - 1
    # "two connected, one separated": a pair on adjacent files and a pawn next to neither
    for i, lone in enumerate(files):
        pair = files[:i] + files[i + 1 :]
        if abs(pair[0] - pair[1]) == 1 and all(abs(lone - f) > 1 for f in pair):
            return True
    return False


# each row: (stronger side, weaker side); a side is a list of alternatives, each a tuple of
# (piece counts, pawn rule or None). Counts are exact: any other piece breaks the match.
_N, _S, _R, _P = "N", "S", "R", "P"
_Side = list[tuple[dict[str, int], str | None]]
KOREAN_ROWS: list[tuple[_Side, _Side]] = [
    ([({_P: 3}, "two_and_one")], [({_P: 1}, None)]),
    ([({_N: 1, _S: 1, _P: 1}, None)], [({_P: 2}, None)]),
    ([({_R: 1}, None)], [({_P: 3}, None), ({_N: 1, _P: 1}, None), ({_S: 1, _P: 1}, None)]),
    ([({_S: 1, _N: 1}, None)], [({_S: 1}, None), ({_N: 1}, None)]),
    ([({_R: 1, _P: 1}, None)], [({_R: 1}, None)]),
    ([({_S: 1, _P: 2}, None), ({_N: 1, _P: 2}, None)], [({_R: 1}, None)]),
    ([({_S: 1, _P: 3}, None), ({_N: 1, _P: 3}, None)], [({_R: 1, _P: 1}, None)]),
    ([({_R: 1, _S: 1}, None), ({_R: 1, _N: 1}, None)], [({_R: 1}, None)]),
    ([({_P: 4}, "connected")], [({_R: 1, _P: 1}, None)]),
    ([({_R: 2}, None)], [({_R: 1, _S: 1}, None), ({_R: 1, _N: 1}, None)]),
]  # fmt: skip

_LETTER = {PAWN: _P, KNIGHT: _N, KHON: _S, ROOK: _R, MET: "M", FERZ: "M"}


def _side_material(board: Board, color: Color) -> tuple[Counter[str], list[int]]:
    counts: Counter[str] = Counter()
    pawn_files = []
    for square, piece in board.piece_map().items():
        if piece.color != color or piece.piece_type == KING:
            continue
        counts[_LETTER[piece.piece_type]] += 1
        if piece.piece_type == PAWN:
            pawn_files.append(square_file(square))
    return counts, pawn_files


def _matches(side: tuple[Counter[str], list[int]], options: _Side) -> bool:
    counts, files = side
    for wanted, pawn_rule in options:
        if counts == Counter(wanted) and (pawn_rule is None or _pawn_groups_ok(files, pawn_rule)):
            return True
    return False


def korean_material_draw(board: Board) -> bool:
    """Whether the material matches a row of the Korean table, in either colour orientation.

    "Pawn" means an unpromoted pawn and the material must be exactly as listed (kings aside), so
    any met breaks the match [interp].
    """
    white = _side_material(board, True)
    black = _side_material(board, False)
    for strong, weak in KOREAN_ROWS:
        if (_matches(white, strong) and _matches(black, weak)) or (
            _matches(black, strong) and _matches(white, weak)
        ):
            return True
    return False
