"""The counting rules seen from Python: the state in words and numbers, and declared counting.

The kernel keeps two numbers, the limit and the count, in plies (FEN fields 4 and 5, exactly as
Fairy-Stockfish writes them). The side that counts is the one to move on even plies: a count
starts at ply 0 (board's honour) or 2N (pieces' honour, N pieces on the board) with that side to
move, or at 2N - 1 when its own capture began it.

* ``counting="auto"`` (default, docs/rules.md 2.6.2): counts start by themselves; the game is drawn
  once the count passes the limit, unless that move mates.
* ``counting="declared"`` (docs/rules.md 2.6.4): a player declares board's honour on its turn and
  may stop it; it counts its own moves from 0 and the game is drawn when it completes move 64. A
  mate by the counter while it counts is a draw (with ``board_count_declarer="weaker"`` only
  the side with less material may declare it). Pieces' honour starts at N when a lone king
  arises with no pawn left (or when declared, with ``pieces_count_optional``), and the stronger
  side has L - N moves to mate, as in automatic counting (Decision 8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import CountingError
from .pieces import COLOR_NAMES, FERZ, KHON, KING, KNIGHT, MET, PAWN, ROOK, Color, PieceType
from .variants import CountDeclarer, CountingMode, CountingRule

if TYPE_CHECKING:
    from .position import ChessPosition as Board

BOARD_HONOUR = "board's honour"
PIECES_HONOUR = "pieces' honour"
BOARD_HONOUR_MOVES = 64
#: material in the usual reckoning, to tell the weaker side (``board_count_declarer="weaker"``)
MATERIAL_POINTS: dict[PieceType, int] = {
    ROOK: 5, KNIGHT: 3, KHON: 3, MET: 2, FERZ: 2, PAWN: 1, KING: 0,
}  # fmt: skip


@dataclass(frozen=True)
class CountAction:
    """A declaration or stop of a count, kept in the move stack so that ``pop()`` undoes it."""

    kind: str  # "declare" or "stop"
    color: Color

    def uci(self) -> str:
        return f"({self.kind} count)"

    def __str__(self) -> str:
        return f"{COLOR_NAMES[self.color]} {self.kind}s a count"


@dataclass(frozen=True)
class CountingState:
    """A running count, in the words players use and in numbers."""

    #: ``"board's honour"`` or ``"pieces' honour"``
    honour: str
    #: the side that counts (the weaker side, or the declarer)
    counting_side: Color
    #: moves counted so far
    count: int
    #: the count at which the game is drawn
    limit: int
    #: moves the other side still has in which to mate
    moves_left: int
    #: the raw FEN fields: counting ply and limit in plies
    plies: int
    limit_plies: int
    declared: bool

    def __str__(self) -> str:
        counter = COLOR_NAMES[self.counting_side].capitalize()
        other = COLOR_NAMES[not self.counting_side].capitalize()
        return (
            f"{self.honour}: {counter} counts {self.count} of {self.limit}; "
            f"{other} has {self.moves_left} move{'s' * (self.moves_left != 1)} left to mate"
        )


def _declared(board: Board) -> bool:
    return board.variant.counting is CountingMode.DECLARED


def _fields(board: Board) -> tuple[int, int]:
    return board.counting_fields()


def _draw_ply(board: Board, limit: int, ply: int) -> int:
    """The first counting ply at which the game is drawn: for a declared board's honour, when
    the counter completes its last move; otherwise (automatic counting, and pieces' honour in
    either mode: Decision 8) when the stronger side has had its L - N moves."""
    return limit - 1 if _declared(board) and not _lone_counter(board, ply) else limit + 1


def _lone_counter(board: Board, ply: int) -> bool:
    """Whether the side counting (to move on even counting plies) is a lone king."""
    counter = board.turn if ply % 2 == 0 else not board.turn
    return all(p.piece_type == KING for p in board.piece_map().values() if p.color == counter)


def counting_state(board: Board) -> CountingState | None:
    """The running count, or ``None``."""
    limit, ply = _fields(board)
    if limit == 0:
        return None
    counter = board.turn if ply % 2 == 0 else not board.turn
    lone = _lone_counter(board, ply)
    first = ply if ply % 2 else ply + 1  # the other side moves on odd plies
    draw = _draw_ply(board, limit, ply)
    moves_left = (draw - 1 - first) // 2 + 1 if first < draw else 0
    return CountingState(
        honour=PIECES_HONOUR if lone else BOARD_HONOUR,
        counting_side=counter,
        count=(ply + 1) // 2,
        limit=limit // 2,
        moves_left=moves_left,
        plies=ply,
        limit_plies=limit,
        declared=_declared(board),
    )


def counting_limit_reached(board: Board) -> bool:
    """Whether the running count has reached the point where the game is drawn."""
    limit, ply = _fields(board)
    return limit > 0 and ply >= _draw_ply(board, limit, ply)


def counter_gave_mate(board: Board) -> bool:
    """Declared mode: the side to move is mated by the side counting board's honour."""
    state = counting_state(board)
    return (
        _declared(board)
        and state is not None
        and state.honour == BOARD_HONOUR
        and state.counting_side != board.turn
    )


def _pieces(board: Board, color: Color) -> list[int]:
    return [p.piece_type for p in board.piece_map().values() if p.color == color]


def declaration(board: Board) -> tuple[CountAction, bool]:
    """The count the side to move may declare now (declared mode only; docs/rules.md 2.6.4), and
    whether it is pieces' honour (a lone king's) rather than board's honour. The board applies
    it (:meth:`kradan.Board.declare_count`).

    Board's honour, when no pawn is left and both sides have a piece besides the king; or, with
    ``pieces_count_optional``, pieces' honour for a lone king; or, with
    ``allow_voluntary_restart``, a restart of the lone king's count from the present material.

    :raises CountingError: naming the rule that forbids the declaration.
    """
    if not _declared(board):
        raise CountingError(
            "counts start by themselves with counting='auto'; declaring needs counting='declared'"
        )
    me, other = board.turn, not board.turn
    mine, theirs = _pieces(board, me), _pieces(board, other)
    if PAWN in mine or PAWN in theirs:
        raise CountingError(
            "no count may be declared while unpromoted pawns remain (docs/rules.md 2.6.4)"
        )
    limit, _ = _fields(board)
    lone = mine == [KING]
    variant = board.variant
    if limit:
        state = counting_state(board)
        assert state is not None
        restart = variant.allow_voluntary_restart and lone and state.honour == PIECES_HONOUR
        if not restart:
            raise CountingError(
                f"a {state.honour} count is already running; only a lone king may restart its "
                "count, with allow_voluntary_restart"
            )
    elif lone:
        if not variant.pieces_count_optional:
            raise CountingError(
                "pieces' honour starts by itself in declared mode; pieces_count_optional lets the "
                "lone king declare it"
            )
    elif theirs == [KING]:
        raise CountingError("board's honour needs a piece besides the king on both sides")
    elif variant.board_count_declarer is CountDeclarer.WEAKER and _points(mine) > _points(theirs):
        raise CountingError(
            f"only the weaker side may declare board's honour (board_count_declarer='weaker'): "
            f"{COLOR_NAMES[me]} has {_points(mine)} points of material against {_points(theirs)}"
        )
    return CountAction("declare", me), lone


#: the longest count of Ouk's board's honour, in plies: a count set from outside never runs past it
OUK_BOARD_HONOUR_PLIES = 126


def fields_from_count_start(board: Board, count_started: int) -> tuple[int, int]:
    """FEN fields 4 and 5 (limit, ply) when a count's start is kept outside the board, as
    Fairy-Stockfish's ``get_fen(..., countStarted)`` writes them for servers that track it
    (pychess.org): ``count_started`` is the game ply at which board's honour began, or
    negative when it has not begun. A running pieces' honour keeps its own ply; in Ouk and Kar
    Ouk a board's honour that ends sooner than it wins, with its limit of 126 plies.

    Call only while a count runs (the limit field is not 0)."""
    limit, ply = _fields(board)
    board_ply = 0 if count_started < 0 else max(1 + board.ply - count_started, 0)
    cambodian = board.variant.counting_rule is CountingRule.CAMBODIAN
    if cambodian and OUK_BOARD_HONOUR_PLIES - board_ply < limit - ply:
        return OUK_BOARD_HONOUR_PLIES, board_ply
    pieces = board.piece_map().values()
    lone_king = any(sum(p.color == color for p in pieces) <= 1 for color in (True, False))
    if lone_king and not any(p.piece_type == PAWN for p in pieces):
        return limit, ply  # pieces' honour: its count is the board's own
    return limit, board_ply


def _points(pieces: list[int]) -> int:
    return sum(MATERIAL_POINTS[piece] for piece in pieces)


def stop(board: Board) -> CountAction:
    """The counter's stop of its board's-honour count on its turn (declared mode; docs/rules.md
    2.6.4). The board applies it (:meth:`kradan.Board.stop_count`).

    :raises CountingError: when no count runs, the side to move is not the counter, or the count
        is pieces' honour, which cannot be stopped.
    """
    if not _declared(board):
        raise CountingError("only declared counts can be stopped (counting='declared')")
    state = counting_state(board)
    if state is None:
        raise CountingError("no count is running")
    if state.counting_side != board.turn:
        raise CountingError(
            f"only the counter ({COLOR_NAMES[state.counting_side]}) may stop the count, on its turn"
        )
    if state.honour == PIECES_HONOUR:
        raise CountingError("pieces' honour cannot be stopped (docs/rules.md 2.6.4, [S2])")
    return CountAction("stop", board.turn)
