"""The :class:`Board`: a position of a chess-family game plus the moves that led to it.

>>> board = Board()
>>> board.legal_moves.count()
23
>>> board.push_san("e4")
Move.from_uci('e3e4')
>>> board.fen()
'rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1'

The board is put together from parts of one job each (:mod:`kradan.chessboard`): the position
and its FEN, legal moves with push and pop, the end of the game, counting, Sittuyin's setup and
the kernel's view with perft; what it shares with Alquerque's board is
:class:`~kradan.boardbase.BoardBase`'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import layout as L
from .boardbase import LegalMoveView
from .chessboard.conveniences import Conveniences
from .chessboard.endings import GameEndQueries
from .chessboard.kernel import KernelView
from .chessboard.setup import SetupActions
from .chessboard.status import StatusQueries
from .counting import CountAction
from .move import Move
from .movecodec import codec_for
from .notation import san as san_notation
from .outcome import Outcome
from .variants import Variant, find_variant


class LegalMoveGenerator(LegalMoveView[Move]):
    """The legal moves of a board: iterate, count, test ``move in board.legal_moves``."""

    __slots__ = ()


class Board(GameEndQueries, Conveniences, StatusQueries, SetupActions, KernelView):
    """A position of ``variant`` with its move history.

    :param fen: the position; the variant's start position when ``None``.
    :param variant: a :class:`~kradan.variants.Variant` or a name such as ``"makruk"``.
    :param options: rule options of docs/rules.md section 8, e.g. ``sut_met=True``.
    :raises InvalidFenError: for a malformed or impossible FEN.
    :raises VariantError: for an unknown variant name or option.
    """

    _move_class = Move
    _legal_view = LegalMoveGenerator
    _files = "abcdefgh"

    def __init__(
        self, fen: str | None = None, *, variant: str | Variant = "makruk", **options: Any
    ) -> None:
        self.variant = find_variant(variant, **options)
        self._codec = codec_for(self.variant)
        self._buffer = np.empty(L.MAX_MOVES, dtype=np.int32)
        self.move_stack = []
        self._legal = None
        self._legal_moves = None
        self._saved = []
        self._ended = None
        self._screened = {}
        self.set_fen(self.variant.starting_fen if fen is None else fen)

    # --- SAN -----------------------------------------------------------------------------------

    def san(self, move: Move, notation: str = "san") -> str:
        """``move`` in SAN (``'san'``), long algebraic (``'lan'``), Thai SAN (``'thai'``) or Thai
        long algebraic (``'thai_lan'``), as Fairy-Stockfish writes them.

        :raises IllegalMoveError: when the move is not legal here.
        """
        return san_notation.move_to_san(self, move, notation)

    def parse_san(self, san: str) -> Move:
        """The legal move that the SAN (or Thai SAN) text ``san`` describes.

        Accepts what people type: with or without ``x``, ``+``, ``#``, ``=`` and ``-``.

        :raises InvalidMoveError: for text that is not a move;
        :raises IllegalMoveError: when no legal move matches;
        :raises AmbiguousMoveError: when several legal moves match.
        """
        return san_notation.parse_san(self, san)

    # --- copying and pickling ------------------------------------------------------------------

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy; with ``stack=False`` the copy has no move history."""
        board = Board.__new__(Board)
        board.variant = self.variant
        board._codec = self._codec
        board._buffer = np.empty(L.MAX_MOVES, dtype=np.int32)
        board._bbs = self._bbs.copy()
        board._info = self._info.copy()
        board._legal = self._legal
        board._legal_moves = self._legal_moves
        board._ended = self._ended
        board._screened = {color: list(drops) for color, drops in self._screened.items()}
        if stack:
            board.move_stack = list(self.move_stack)
            board._saved = list(self._saved)
        else:
            board.move_stack = []
            board._saved = []
            board._info[L.I_SP] = 0
        return board

    def __reduce__(self) -> tuple[object, ...]:
        entries = [m.uci() if isinstance(m, Move) else m for m in self.move_stack]
        return (_rebuild, (self.variant, self._root_fen(), entries, self._ended))

    def _replay(self, move: Move) -> None:
        """Play the legal ``move``, a screened setup's drops included (as unpickling does)."""
        self._push_code(self._code_of(move), move)

    def _root_fen(self) -> str:
        board = self.copy()
        while board.move_stack:
            board.pop()
        return board.fen(show_promoted=True)


def _rebuild(
    variant: Variant, fen: str, entries: list[str | CountAction], ended: Outcome | None
) -> Board:
    board = Board(fen, variant=variant)
    for entry in entries:
        if isinstance(entry, CountAction):
            (board.declare_count if entry.kind == "declare" else board.stop_count)()
        else:
            board._replay(Move.from_uci(entry))
    board._ended = ended
    return board


__all__ = ["Board", "LegalMoveGenerator"]
