"""Counting as players do it on a chess-family board: the running count, and declaring and
stopping counts (``counting="declared"``). The rules are :mod:`kradan.counting`'s; a count
action goes on the move stack, so ``pop()`` takes it back."""

from __future__ import annotations

from .. import _core, counting
from .._core import layout as L
from ..counting import CountAction, CountingState
from .moves import BoardMoves


class CountingActions(BoardMoves):
    """The running count, and the actions that declare and stop counts."""

    def counting_state(self) -> CountingState | None:
        """The running count in words and numbers, or ``None``."""
        return counting.counting_state(self)

    def declare_count(self) -> CountAction:
        """Declare a count for the side to move (``counting="declared"``); ``pop()`` undoes it.

        :raises CountingError: when the counting rules do not allow it now.
        """
        action, pieces_honour = counting.declaration(self)
        self._push_count_action(action)
        if pieces_honour:
            _core.start_pieces_honour(self._bbs, self._info, L.WHITE if self.turn else L.BLACK)
        else:
            self._info[L.I_COUNT_LIMIT] = 2 * counting.BOARD_HONOUR_MOVES
            self._info[L.I_COUNT_PLY] = 0
        return action

    def stop_count(self) -> CountAction:
        """Stop the side to move's board's-honour count (``counting="declared"``).

        :raises CountingError: when no count of the side to move can be stopped.
        """
        action = counting.stop(self)
        self._push_count_action(action)
        self._info[L.I_COUNT_LIMIT] = 0
        self._info[L.I_COUNT_PLY] = 0
        return action
