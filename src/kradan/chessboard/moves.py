"""Legal moves, making and taking back moves, and checks, on a chess-family board: the hot
paths of :class:`kradan.Board`, each a direct call into the kernel."""

from __future__ import annotations

from .. import _core
from .._core import layout as L
from ..counting import CountAction
from ..errors import EmptyMoveStackError, IllegalMoveError
from ..move import Move, require_move
from ..pieces import Square
from ..variants import SittuyinSetup
from .explain import KernelArrays, illegal_reason
from .state import BoardState

#: undo records kept free beyond the game's history
GROWTH_MARGIN = 8


class BoardMoves(BoardState):
    """Legal moves, push and pop, and what a move or the position says about check."""

    def copy(self, *, stack: bool = True) -> BoardMoves:
        """An independent copy; with ``stack=False`` the copy has no move history."""
        raise NotImplementedError

    # --- legal moves -------------------------------------------------------------------------

    def _legal_codes(self) -> list[int]:
        if self._legal is None:
            n = _core.legal_moves(self._bbs, self._info, self._buffer)
            self._legal = self._buffer[:n].tolist()
        return self._legal

    def _legal_move_list(self) -> list[Move]:
        if self._legal_moves is None:
            self._legal_moves = self._codec.decode_all(self._legal_codes())
        return self._legal_moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal in this position."""
        code = self._codec.encode(move)
        return code is not None and code in self._legal_codes()

    def _code_of(self, move: Move) -> int:
        code = self._codec.encode(move)
        if code is None or code not in self._legal_codes():
            reason = self._illegal_reason(move)
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {self.fen()!r}{reason}")
        return code

    def _illegal_reason(self, move: Move) -> str:
        kernel = KernelArrays(self._bbs, self._info, self._codec.encode(move))
        return illegal_reason(self, move, kernel)

    # --- making and taking back moves ----------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move``; :meth:`Move.null() <kradan.Move.null>` passes the turn (for analysis:
        what would the other side do if it moved again?).

        :raises IllegalMoveError: when the move is not legal here; the board is unchanged.
        """
        if isinstance(move, Move) and move.is_null():
            self._push_null(move)
            return
        code = self._code_of(move)
        if move.drop is not None and self.variant.sittuyin_setup is SittuyinSetup.SCREENED:
            raise IllegalMoveError(
                f"illegal move {move.uci()!r} in {self.fen()!r}: in a screened setup each side "
                "submits its whole arrangement with submit_setup()"
            )
        self._push_code(code, move)

    def _ensure_room(self, plies: int) -> None:
        """Make sure ``plies`` more undo records fit (the kernel does not check)."""
        used = int(self._info[L.I_SP])
        if _core.capacity(self._info) - used < plies:
            need = max(2 * _core.capacity(self._info), used + plies)
            self._bbs, self._info = _core.grown(self._bbs, self._info, need)

    def _push_code(self, code: int, move: Move) -> None:
        self._ensure_room(GROWTH_MARGIN)
        _core.make_move(self._bbs, self._info, code)
        self.move_stack.append(move)
        self._saved.append((self._legal, self._legal_moves, None))
        self._legal = None
        self._legal_moves = None
        self._ended = None

    def _push_null(self, move: Move) -> None:
        if any(any(self.hand(color).values()) for color in (True, False)):
            raise IllegalMoveError(
                f"illegal move '0000' in {self.fen()!r}: no side passes while setting up"
            )
        self._ensure_room(GROWTH_MARGIN)
        _core.make_null(self._bbs, self._info)
        self.move_stack.append(move)
        self._saved.append((self._legal, self._legal_moves, None))
        self._legal = None
        self._legal_moves = None
        self._ended = None

    def _push_count_action(self, action: CountAction) -> None:
        fields = (int(self._info[L.I_COUNT_LIMIT]), int(self._info[L.I_COUNT_PLY]))
        self.move_stack.append(action)
        self._saved.append((self._legal, self._legal_moves, fields))
        self._ended = None

    def pop(self) -> Move | CountAction:
        """Take back the last move and return it.

        :raises EmptyMoveStackError: (an ``IndexError``) when there is no move to take back.
        """
        if not self.move_stack:
            raise EmptyMoveStackError("pop from a board with an empty move stack")
        self._legal, self._legal_moves, fields = self._saved.pop()
        self._ended = None
        last = self.move_stack[-1]
        if isinstance(last, Move) and last.is_null():
            _core.unmake_null(self._bbs, self._info)
        elif fields is None:
            _core.unmake_move(self._bbs, self._info)
        else:
            self._info[L.I_COUNT_LIMIT], self._info[L.I_COUNT_PLY] = fields
        return self.move_stack.pop()

    # --- checks --------------------------------------------------------------------------------

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return bool(_core.side_in_check(self._bbs, self._info))

    def checkers(self) -> list[Square]:
        """Squares of the pieces giving check to the side to move."""
        bits = int(_core.checkers(self._bbs, self._info, True))
        return [sq for sq in range(64) if bits >> sq & 1]

    def is_checkmate(self) -> bool:
        """Whether the side to move is in check and has no legal move."""
        return self.is_check() and not self._legal_codes()

    def is_stalemate(self) -> bool:
        """Whether the side to move is not in check and has no legal move."""
        return not self.is_check() and not self._legal_codes()

    def gives_check(self, move: Move) -> bool:
        """Whether the legal ``move`` puts the opponent's king in check.

        :raises IllegalMoveError: when the move is not legal here.
        """
        code = self._code_of(move)
        _core.make_move(self._bbs, self._info, code)
        try:
            return bool(_core.side_in_check(self._bbs, self._info))
        finally:
            _core.unmake_move(self._bbs, self._info)

    def gives_checkmate(self, move: Move) -> bool:
        """Whether the legal ``move`` leaves the opponent without a legal move while in check
        (SAN's ``#``).

        :raises IllegalMoveError: when the move is not legal here.
        """
        code = self._code_of(move)
        _core.make_move(self._bbs, self._info, code)
        try:
            if not _core.side_in_check(self._bbs, self._info):
                return False
            return _core.count_legal_moves(self._bbs, self._info, self._buffer) == 0
        finally:
            _core.unmake_move(self._bbs, self._info)

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` takes a piece (drops, sutras and promotions in place never do).

        :raises InvalidMoveError: when ``move`` is not a :class:`Move`.
        """
        require_move(move)
        if move.drop is not None or move.from_square == move.to_square or move.pawn_step:
            return False
        code = int(self._info[L.I_BOARD + move.to_square])
        return code != 0 and (code >> 3) != int(self._info[L.I_STM])
