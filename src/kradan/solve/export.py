"""The proof tree of one position, taken out of proven values (a proof database, or an on-line
search's findings) into a :class:`~kradan.solve.table.StrategyTable`.

From the root: where the side to move is claimed to win, the one recorded winning move; where it
is claimed to lose, every legal move; to the end of every line. Each position gets its plies to
the end: one more than its child's for a win, one more than its longest-lasting child's for a
loss (the loser holds out longest against the recorded strategy). The walk runs on the compiled
kernel's rows (it is the solver's view, fast); the checker (:mod:`.check`, :mod:`.walk`) walks
the result again with the public board alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from ..alquerque import Board
from ..alquerque import _kernel as K
from ..errors import KradanError
from .keys import state_key
from .table import LOSS, MAX_DEPTH, StrategyTable

#: a proven value: (the side to move wins, the winning move's kernel code) or None (not known)
Lookup = Callable[[int], "tuple[bool, int] | None"]
_ROOM = 400


class ExportError(KradanError, ValueError):
    """The recorded values do not make a proof tree (a missing win, an illegal move)."""


class _Extract:
    def __init__(self, board: Board, lookup: Lookup) -> None:
        self.stack, self.root_ply = board.kernel_history(room=_ROOM)
        self.rules = board.kernel_rules
        self.lookup = lookup
        self.work = np.zeros(K.WORK_NB, dtype=np.int64)
        #: key -> (move index or LOSS, plies to the end)
        self.found: dict[int, tuple[int, int]] = {}

    def moves(self, ply: int) -> list[int]:
        out = np.zeros(K.MAX_MOVES, dtype=np.int64)
        n = K.generate(self.stack, ply, self.rules, out, False, self.work)
        return [int(code) for code in out[:n]]

    def fail(self, ply: int, reason: str) -> ExportError:
        return ExportError(f"no proof tree {ply - self.root_ply} plies below the root: {reason}")

    def node(self, ply: int, should_win: bool) -> int:
        """The plies to the end of ``stack[ply]``, claimed won or lost for its side to move."""
        if ply - self.root_ply >= _ROOM - 2:
            raise self.fail(ply, "a line longer than the walk allows")
        codes = self.moves(ply)
        if not codes:  # no move (or no piece): the side to move has lost
            if should_win:
                raise self.fail(ply, "a position claimed won where the side to move has lost")
            return 0
        key = state_key(self.stack[ply])
        known = self.found.get(key)
        if known is not None:
            if (known[0] != LOSS) != should_win:
                raise self.fail(ply, f"position {key:#x} reached as won and as lost")
            return known[1]
        if should_win:
            entry = self.lookup(key)
            if entry is None or not entry[0]:
                what = "no value" if entry is None else "a loss"
                raise self.fail(ply, f"position {key:#x} should be won, and has {what}")
            if entry[1] not in codes:
                raise self.fail(ply, f"the move {entry[1]} of {key:#x} is not legal")
            index = codes.index(entry[1])
            if index >= LOSS:
                raise self.fail(ply, f"the winning move is the {index}th, beyond a byte")
            K.make(self.stack, ply, self.rules, entry[1])
            depth = 1 + self.node(ply + 1, False)
        else:
            index, depth = LOSS, 0
            for code in codes:
                K.make(self.stack, ply, self.rules, code)
                depth = max(depth, 1 + self.node(ply + 1, True))
        if depth > MAX_DEPTH:
            raise self.fail(ply, f"a line of {depth} plies, beyond a byte")
        self.found[key] = (index, depth)
        return depth


def extract(board: Board, lookup: Lookup, *, game: str = "alquerque-bell") -> StrategyTable:
    """The proof tree of ``board``'s value as ``lookup`` records it (a win when it records one
    for the root, else a loss), as a strategy table rooted at ``board``.

    :raises ExportError: where the recorded values make no proof tree.
    """
    walk = _Extract(board, lookup)
    root = lookup(state_key(walk.stack[walk.root_ply]))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _ROOM * 4))
    try:
        walk.node(walk.root_ply, root is not None and root[0])
    finally:
        sys.setrecursionlimit(limit)
    keys = np.array(sorted(walk.found), dtype=np.uint64)
    moves = np.array([walk.found[int(k)][0] for k in keys], dtype=np.uint8)
    depths = np.array([walk.found[int(k)][1] for k in keys], dtype=np.uint8)
    return StrategyTable(game, board.text(), keys, moves, depths)


__all__ = ["ExportError", "Lookup", "extract"]
