"""The engine for Alquerque: the same iterator-of-``SearchInfo`` interface as :class:`Searcher`,
so the players, ``kradan match`` and ``kradan play`` drive both games alike.

>>> from kradan.alquerque import Board
>>> result = AlquerqueSearcher().best_move(Board(), Limit(depth=2))
>>> result.move is not None
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from ..alquerque import _kernel as K
from ..alquerque.board import Board
from ..alquerque.move import Move as AlquerqueMove
from ..alquerque.variant import NoCaptureAdjudication
from . import _alquerque_search as A
from .search import (
    Limit,
    Score,
    SearchInfo,
    SearchResult,
    score_sort_key,
    stop_timer,
    time_budget,
)


class AlquerqueSearcher:
    """An Alquerque search instance with its move-ordering table (``hash_mb`` megabytes)."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.ctx = np.zeros(A.CTX_NB, dtype=np.int64)
        self.resize(hash_mb)

    def resize(self, hash_mb: int) -> None:
        """Allocate a table of about ``hash_mb`` megabytes (a power of two entries)."""
        entries = max(1024, (max(1, hash_mb) << 20) // 16)
        size = 1 << (entries.bit_length() - 1)
        self._tt_keys = np.zeros(size, dtype=np.uint64)
        self._tt_data = np.full(size, -1, dtype=np.int64)

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        self._tt_keys[:] = 0
        self._tt_data[:] = -1

    def stop(self) -> None:
        """Ask a running search to stop; it returns within milliseconds."""
        self.ctx[A.C_STOP] = 1

    def arm(self) -> None:
        """Clear a previous stop before starting a search in another thread (then pass
        ``armed=True``), so that a stop arriving before that thread starts is not lost."""
        self.ctx[:] = 0

    def _prepare(self, board: Board, limit: Limit, armed: bool) -> tuple[np.ndarray, int]:
        stop = self.ctx[A.C_STOP] if armed else 0
        self.ctx[:] = 0
        self.ctx[A.C_STOP] = stop
        self.ctx[A.C_NODE_LIMIT] = limit.nodes or 0
        variant = board.variant
        self.ctx[A.C_BELL] = int(variant.bell)
        self.ctx[A.C_LIMIT] = 2 * (variant.no_capture_limit or 0)
        more_wins = variant.no_capture_adjudication is NoCaptureAdjudication.MORE_PIECES_WINS
        self.ctx[A.C_MORE_WINS] = int(more_wins)
        self.ctx[A.C_HISTORY] = int(board.kernel_rules[K.R_NO_RETURN] != 0)
        return board.kernel_history(room=A.MAX_PLY + 3)

    def search(
        self, board: Board, limit: Limit | None = None, *, armed: bool = False
    ) -> Iterator[SearchInfo[AlquerqueMove]]:
        """Iterative deepening: yields a :class:`SearchInfo` after each completed depth."""
        limit = limit or Limit()
        stack, ply = self._prepare(board, limit, armed)
        rows = A.MAX_PLY + 2
        killers = np.zeros((rows, 2), dtype=np.int64)
        pv = np.zeros((rows, A.MAX_PLY + 1), dtype=np.int64)
        pv_length = np.zeros(rows, dtype=np.int64)
        soft, hard = time_budget(limit, board.turn)
        start = time.perf_counter()
        timer = stop_timer(hard, self.stop)
        max_depth = min(limit.depth or A.MAX_PLY - 4, A.MAX_PLY - 4)
        try:
            if not board.legal_moves or board.outcome() is not None:
                return
            for depth in range(1, max_depth + 1):
                score = A.search_root(
                    stack, ply, depth, board.kernel_rules, self.ctx, self._tt_keys, self._tt_data,
                    killers, pv, pv_length,
                )  # fmt: skip
                if self.ctx[A.C_STOP] and depth > 1:
                    break
                length = int(pv_length[0])
                line = [board.decode_move(int(code)) for code in pv[0, :length]]
                line = _legal_prefix(board, line)
                seconds = time.perf_counter() - start
                yield SearchInfo(
                    depth,
                    int(self.ctx[A.C_SELDEPTH]),
                    Score.from_internal(int(score)),
                    line,
                    int(self.ctx[A.C_NODES]),
                    seconds,
                )
                if self.ctx[A.C_STOP]:
                    break
                if soft is not None and seconds >= 0.5 * soft:
                    break  # the next depth would most likely not finish in time
                if abs(score) > A.MATE_BOUND and depth >= A.MATE - abs(score) + 2:
                    break  # a won or lost game is not decided faster by searching deeper
        finally:
            if timer is not None:
                timer.cancel()

    def search_multipv(
        self, board: Board, limit: Limit | None, lines: int, *, armed: bool = False
    ) -> Iterator[list[SearchInfo[AlquerqueMove]]]:
        """Like :meth:`search`, but each depth yields the ``lines`` best root moves, best first
        (each root move is searched on its own: Alquerque has few moves at the root)."""
        limit = limit or Limit()
        stack, ply = self._prepare(board, limit, armed)
        killers = np.zeros((A.MAX_PLY + 2, 2), dtype=np.int64)
        pv = np.zeros((A.MAX_PLY + 2, A.MAX_PLY + 1), dtype=np.int64)
        pv_length = np.zeros(A.MAX_PLY + 2, dtype=np.int64)
        soft, hard = time_budget(limit, board.turn)
        start = time.perf_counter()
        timer = stop_timer(hard, self.stop)
        max_depth = min(limit.depth or A.MAX_PLY - 4, A.MAX_PLY - 4)
        roots = [(move, board.encode_move(move) or 0) for move in board.legal_moves]
        try:
            if not roots or board.outcome() is not None:
                return
            for depth in range(1, max_depth + 1):
                found: list[SearchInfo[AlquerqueMove]] = []
                for move, code in roots:
                    K.make(stack, ply, board.kernel_rules, code)
                    child = A.search_root(
                        stack, ply + 1, depth - 1, board.kernel_rules, self.ctx, self._tt_keys,
                        self._tt_data, killers, pv, pv_length,
                    )  # fmt: skip
                    if self.ctx[A.C_STOP]:
                        break
                    score = -int(child)
                    score += -1 if score > A.MATE_BOUND else 1 if score < -A.MATE_BOUND else 0
                    after = board.copy()
                    after.push(move)
                    tail = [after.decode_move(int(c)) for c in pv[0, : int(pv_length[0])]]
                    found.append(
                        SearchInfo(
                            depth,
                            int(self.ctx[A.C_SELDEPTH]) + 1,
                            Score.from_internal(score),
                            [move, *_legal_prefix(after, tail)],
                            int(self.ctx[A.C_NODES]),
                            time.perf_counter() - start,
                        )
                    )
                if self.ctx[A.C_STOP] and depth > 1:
                    break
                found.sort(key=lambda line: -score_sort_key(line.score))
                if found:
                    yield found[:lines]
                if self.ctx[A.C_STOP] or (soft is not None and time.perf_counter() - start >= soft):
                    break
        finally:
            if timer is not None:
                timer.cancel()

    def best_move(
        self, board: Board, limit: Limit | None = None, *, armed: bool = False
    ) -> SearchResult[AlquerqueMove]:
        """Search and return the best move (``None`` when the game is over)."""
        history = list(self.search(board, limit, armed=armed))
        moves = list(board.legal_moves)
        if not history or not history[-1].pv:
            return SearchResult(moves[0] if moves else None, history[-1] if history else None)
        last = history[-1]
        ponder = last.pv[1] if len(last.pv) > 1 else None
        return SearchResult(last.pv[0], last, ponder, history)


def _legal_prefix(board: Board, line: list[AlquerqueMove]) -> list[AlquerqueMove]:
    """The moves of ``line`` that are legal one after the other (a line is always checked
    before it is shown: huffs are decoded in the position they are played in)."""
    work = board.copy()
    legal = []
    for move in line:
        if not work.is_legal(move):
            break
        work.push(move)
        legal.append(move)
    return legal
