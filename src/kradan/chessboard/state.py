"""The position of a chess-family board in the kernel's arrays: FEN in and out, the side to
move, the clocks, and what stands on each square or in hand."""

from __future__ import annotations

import numpy as np

from .. import counting
from .._core import layout as L
from ..arguments import check_color, check_number, check_square
from ..boardbase import BoardBase
from ..counting import CountAction
from ..move import Move
from ..movecodec import MoveCodec
from ..notation import fen as fen_notation
from ..pieces import BLACK, WHITE, Color, Piece, PieceType, Square
from ..variants import Variant


class BoardState(BoardBase[Move, Move | CountAction]):
    """The fields of :class:`kradan.Board` and the reads of its position."""

    variant: Variant
    _codec: MoveCodec
    #: scratch for the kernel's move generation
    _buffer: np.ndarray
    #: the kernel's bitboards and info array (position, undo records, counts)
    _bbs: np.ndarray
    _info: np.ndarray
    #: the legal moves as codes and as Move objects, while the position stands
    _legal: list[int] | None
    _legal_moves: list[Move] | None
    #: per entry of move_stack: the legal-move caches before it, and for a count action the
    #: counting fields it replaced
    _saved: list[tuple[list[int] | None, list[Move] | None, tuple[int, int] | None]]
    #: the drops of each side's screened setup, held until both are in
    _screened: dict[Color, list[Move]]

    # --- position set-up and FEN -------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Replace the position (and clear the move history) with ``fen``.

        :raises InvalidFenError: for a malformed or impossible FEN; the board is left unchanged.
        """
        self._bbs, self._info = fen_notation.parse_fen(fen, self.variant)
        self.move_stack = []
        self._saved = []
        self._screened = {}
        self._ended = None
        self._forget_legal()

    def _forget_legal(self) -> None:
        """Drop the legal moves kept for the position (it changed)."""
        self._legal = None
        self._legal_moves = None

    def fen(self, *, show_promoted: bool | None = None, count_started: int | None = None) -> str:
        """The position as Fairy-Stockfish writes it; ``show_promoted`` writes promoted mets as
        ``M~`` (default: the variant's ``show_promoted``). ``count_started``, as in
        Fairy-Stockfish's ``get_fen``, is for a server that keeps the start of board's honour
        itself: the game ply it began at, or negative for not begun; ``None`` or 0 writes the
        board's own count (see :func:`kradan.counting.fields_from_count_start`).

        :raises InvalidArgumentError: when ``count_started`` is not a whole number.
        """
        if show_promoted is None:
            show_promoted = self.variant.show_promoted
        text = fen_notation.write_fen(self._bbs, self._info, self.variant, show_promoted)
        if count_started is None or check_number(count_started, "count_started", -(2**31)) == 0:
            return text
        fields = text.split(" ")
        if fields[3] == "-":
            return text  # no count runs
        limit, ply = counting.fields_from_count_start(self, count_started)  # type: ignore[arg-type]
        fields[3], fields[4] = str(limit), str(ply)
        return " ".join(fields)

    def reset(self) -> None:
        """Back to the variant's start position, with no history."""
        self.set_fen(self.variant.starting_fen)

    # --- state -------------------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move: ``WHITE`` (``True``) or ``BLACK`` (``False``)."""
        return WHITE if self._info[L.I_STM] == L.WHITE else BLACK

    @property
    def fullmove_number(self) -> int:
        """The move number, starting at 1 and increased after each Black move."""
        black = int(self._info[L.I_STM]) == L.BLACK
        return 1 + (int(self._info[L.I_GAME_PLY]) - black) // 2

    @property
    def ply(self) -> int:
        """Half-moves since the start of the game (derived from the fullmove number)."""
        return int(self._info[L.I_GAME_PLY])

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move (0 while a count runs, as in FSF's FEN)."""
        return int(self._info[L.I_RULE50])

    def piece_at(self, square: Square) -> Piece | None:
        """The piece on ``square``, or ``None`` when it is empty.

        :raises InvalidSquareError: when ``square`` is not 0..63.
        """
        square = check_square(square)
        code = int(self._info[L.I_BOARD + square])
        if code == 0:
            return None
        promoted = bool(int(self._bbs[L.BB_PROMOTED]) >> square & 1)
        return Piece(self.variant.piece_types[(code & 7) - 1], code >> 3 == L.WHITE, promoted)

    def piece_map(self) -> dict[Square, Piece]:
        """Every occupied square and its piece."""
        codes = self._info[L.I_BOARD : L.I_BOARD + 64]
        promoted = int(self._bbs[L.BB_PROMOTED])
        types = self.variant.piece_types
        return {
            square: Piece(types[(code & 7) - 1], code >> 3 == L.WHITE, bool(promoted >> square & 1))
            for square, code in enumerate(codes.tolist())
            if code
        }

    def has_piece(self, piece_type: PieceType, color: Color) -> bool:
        """Whether ``color`` has a ``piece_type`` on the board (one bitboard test)."""
        types = self.variant.piece_types
        index = L.WHITE if check_color(color) else L.BLACK
        if piece_type not in types:
            return False
        kernel_type = types.index(piece_type)
        return bool(int(self._bbs[L.BB_TYPE + kernel_type] & self._bbs[L.BB_COLOR + index]))

    def king(self, color: Color) -> Square | None:
        """The square of ``color``'s king (``None`` while it is still in hand)."""
        index = L.WHITE if check_color(color) else L.BLACK
        kings = int(self._bbs[L.BB_TYPE + L.KING] & self._bbs[L.BB_COLOR + index])
        return kings.bit_length() - 1 if kings else None

    def hand(self, color: Color) -> dict[int, int]:
        """Pieces ``color`` holds in hand, by piece type (only Sittuyin's setup has any)."""
        base = L.I_HAND + (L.WHITE if check_color(color) else L.BLACK) * L.PIECE_TYPE_NB
        counts = {}
        for index, piece_type in enumerate(self.variant.piece_types):
            if int(self._info[base + index]):
                counts[piece_type] = int(self._info[base + index])
        return counts

    def _symbol_at(self, square: int) -> str:
        piece = self.piece_at(square)
        return piece.symbol() if piece else "."

    # --- rights, counts and history, as the FEN and the kernel keep them ---------------------

    def has_first_move_rights(self) -> bool:
        """Whether a piece still holds a first-move right (FEN field 3 is not ``-``): an Ouk
        king's or met's leap, or a Makruk sutra."""
        return bool(self._bbs[L.BB_GATES])

    def counting_fields(self) -> tuple[int, int]:
        """The running count's limit and count in plies (FEN fields 4 and 5; 0 and 0 when no
        count runs)."""
        return int(self._info[L.I_COUNT_LIMIT]), int(self._info[L.I_COUNT_PLY])

    def remaining_checks(self, color: Color) -> int:
        """Checks ``color`` still has to give to win (Kar Ouk; the FEN's check field)."""
        return int(self._info[L.I_CHECKS + (L.WHITE if check_color(color) else L.BLACK)])

    def repetitions(self) -> list[int]:
        """Plies back (2 = the position before the last two moves) at which this position
        stood before, counting only since the last capture, pawn move or drop, as
        Fairy-Stockfish does; the newest first."""
        sp = int(self._info[L.I_SP])
        start = L.BB_STATE_NB + L.UB_KEY
        keys = self._bbs[start : start + sp * L.UNDO_BB_NB : L.UNDO_BB_NB]
        window = min(int(self._info[L.I_RULE50]), len(keys))
        key = self._bbs[L.BB_KEY]
        return [back for back in range(2, window + 1, 2) if keys[len(keys) - back] == key]

    def zobrist_key(self) -> int:
        """The position's 64-bit Zobrist key: the pieces, the side to move, Sittuyin's hands and
        gates (not the counts or clocks). The random numbers behind it are fixed, so a key is
        the same in every process (opening books are filed by it)."""
        return int(self._bbs[L.BB_KEY])

    def _identity(self) -> tuple[object, ...]:
        """What the FEN shows, nothing it hides; like Fairy-Stockfish's position identity, whether
        a met was once a pawn (``M~``) does not count."""
        info = self._info
        counting = int(info[L.I_COUNT_LIMIT]) != 0
        return (
            self.variant,
            info[L.I_BOARD : L.I_BOARD + 64].tobytes(),
            info[L.I_HAND : L.I_HAND + 12].tobytes(),
            int(info[L.I_STM]),
            int(info[L.I_COUNT_LIMIT]),
            int(info[L.I_COUNT_PLY]) if counting else int(info[L.I_RULE50]),
            int(info[L.I_GAME_PLY]),
            int(info[L.I_CHECKS]),
            int(info[L.I_CHECKS + 1]),
            int(self._bbs[L.BB_GATES]),
        )

    def __hash__(self) -> int:
        return int(self._bbs[L.BB_KEY])
