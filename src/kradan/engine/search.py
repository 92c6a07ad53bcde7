"""The engine's search as an iterator: each completed depth yields ``SearchInfo`` (depth, score,
principal variation, nodes, time), consumed by every front end (UCI, XBoard, play, match).

>>> from kradan import Board
>>> engine = Searcher(hash_mb=1)
>>> result = engine.best_move(Board("k7/2K5/8/8/8/8/7R/8 w - - 0 1"), Limit(depth=3))
>>> result.move.uci(), result.info.score.mate
('h2a2', 1)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import numpy as np

from ..alquerque.move import Move as AlquerqueMove
from ..board import Board
from ..move import Move
from ..variants import CountingMode, StalemateRule
from . import _search as S


@dataclass(frozen=True)
class Score:
    """A search score: centipawns for the side to move, or moves to mate (negative: mated)."""

    cp: int | None = None
    mate: int | None = None

    @classmethod
    def from_internal(cls, value: int) -> Score:
        if value > S.MATE_BOUND:
            return cls(mate=(S.MATE - value + 1) // 2)
        if value < -S.MATE_BOUND:
            return cls(mate=-((S.MATE + value + 1) // 2))  # odd: lost by its own move (Alquerque)
        return cls(cp=value)

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"


@dataclass(frozen=True)
class Limit:
    """When to stop: any of depth, nodes, seconds for this move, or a clock with increment."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    white_inc: float = 0.0
    black_inc: float = 0.0
    moves_to_go: int | None = None


MoveT = TypeVar("MoveT", Move, AlquerqueMove)


@dataclass(frozen=True)
class SearchInfo(Generic[MoveT]):
    """What one completed iteration found (``pv`` holds the game's own moves)."""

    depth: int
    seldepth: int
    score: Score
    pv: list[MoveT]
    nodes: int
    seconds: float

    @property
    def nps(self) -> int:
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@dataclass
class SearchResult(Generic[MoveT]):
    move: MoveT | None
    info: SearchInfo[MoveT] | None
    ponder: MoveT | None = None
    history: list[SearchInfo[MoveT]] = field(default_factory=list)


def time_budget(limit: Limit, white_to_move: bool) -> tuple[float | None, float | None]:
    """(soft, hard) seconds: stop starting new iterations after soft; stop outright at hard."""
    if limit.time is not None:
        return limit.time, limit.time
    clock = limit.white_clock if white_to_move else limit.black_clock
    if clock is None:
        return None, None
    inc = limit.white_inc if white_to_move else limit.black_inc
    moves = min(limit.moves_to_go or 35, 35)
    # keep a reserve for the round trip through a GUI or match runner, larger on a short clock
    reserve = min(0.3, 0.1 + clock / 20)
    usable = max(0.0, clock - reserve)
    soft = max(0.005, usable / moves + 0.7 * inc)
    hard = max(0.01, min(usable / 3 + inc / 2, 2.5 * soft))
    return min(soft, hard), hard


def stop_timer(seconds: float | None, stop: Callable[[], None]) -> threading.Timer | None:
    """A started daemon timer that calls ``stop`` after ``seconds`` (none without a limit)."""
    if seconds is None:
        return None
    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    return timer


_NOTHING = np.zeros(0, dtype=np.int32)


class Searcher:
    """A search engine instance with its transposition table (``hash_mb`` megabytes)."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.ctx = np.zeros(S.CTX_NB, dtype=np.int64)
        self.resize(hash_mb)
        self._killers = np.zeros((S.MAX_PLY + 1, 2), dtype=np.int32)
        self._history = np.zeros((2, 64, 64), dtype=np.int64)
        self._pv = np.zeros((S.MAX_PLY + 1, S.MAX_PLY + 1), dtype=np.int32)
        self._pv_length = np.zeros(S.MAX_PLY + 1, dtype=np.int64)

    def resize(self, hash_mb: int) -> None:
        """Allocate a transposition table of about ``hash_mb`` megabytes (a power of two)."""
        entries = max(1024, (max(1, hash_mb) << 20) // 16)
        size = 1 << (entries.bit_length() - 1)
        self._tt_keys = np.zeros(size, dtype=np.uint64)
        self._tt_data = np.full(size, -1, dtype=np.int64)

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        self._tt_keys[:] = 0
        self._tt_data[:] = -1
        self._history[:] = 0
        self._killers[:] = 0

    def stop(self) -> None:
        """Ask a running search to stop; it returns within milliseconds."""
        self.ctx[S.C_STOP] = 1

    def arm(self) -> None:
        """Clear a previous stop before starting a search in another thread, so that a stop
        that arrives before that thread gets going is not lost (pass ``armed=True`` then)."""
        self.ctx[:] = 0

    def _start(self, limit: Limit, armed: bool) -> None:
        stop = self.ctx[S.C_STOP] if armed else 0
        self.ctx[:] = 0
        self.ctx[S.C_STOP] = stop
        self.ctx[S.C_NODE_LIMIT] = limit.nodes or 0

    def search(
        self, board: Board, limit: Limit | None = None, *, armed: bool = False
    ) -> Iterator[SearchInfo[Move]]:
        """Iterative deepening: yields a :class:`SearchInfo` after each completed depth."""
        limit = limit or Limit()
        bbs, info = board.kernel_arrays(room=2 * S.MAX_PLY)  # the search's undo records fit
        variant = board.variant
        self._start(limit, armed)
        self.ctx[S.C_STALEMATE] = {
            StalemateRule.DRAW: 0,
            StalemateRule.STALEMATER_LOSES: 1,
            StalemateRule.REPLAY: 0,
        }[variant.stalemate]
        self.ctx[S.C_DRAW_PLY] = int(variant.counting is CountingMode.DECLARED)
        self._history //= 8
        soft, hard = time_budget(limit, board.turn)
        start = time.perf_counter()
        timer = stop_timer(hard, self.stop)
        max_depth = min(limit.depth or S.MAX_PLY - 2, S.MAX_PLY - 2)
        previous = 0
        try:
            if not board.legal_moves:
                return
            for depth in range(1, max_depth + 1):
                window = 50 if depth >= 4 else S.INFINITE
                alpha, beta = (
                    max(previous - window, -S.INFINITE),
                    min(previous + window, S.INFINITE),
                )
                while True:
                    score = S.search_root(
                        bbs, info, depth, alpha, beta, self.ctx, self._tt_keys, self._tt_data,
                        self._killers, self._history, self._pv, self._pv_length, _NOTHING,
                    )  # fmt: skip
                    if self.ctx[S.C_STOP] or alpha < score < beta:
                        break
                    alpha, beta = -S.INFINITE, S.INFINITE  # the window failed: search wide
                if self.ctx[S.C_STOP] and depth > 1:
                    break
                previous = score
                length = int(self._pv_length[0])
                pv = [board.decode_move(int(code)) for code in self._pv[0, :length]]
                seconds = time.perf_counter() - start
                yield SearchInfo(
                    depth,
                    int(self.ctx[S.C_SELDEPTH]),
                    Score.from_internal(int(score)),
                    pv,
                    int(self.ctx[S.C_NODES]),
                    seconds,
                )
                if self.ctx[S.C_STOP]:
                    break
                if soft is not None and seconds >= 0.6 * soft:
                    break  # the next depth would most likely not finish in time
                if abs(score) > S.MATE_BOUND and depth >= 2 * (S.MATE - abs(score)) + 2:
                    break  # a mate found is not found faster by searching deeper
        finally:
            if timer is not None:
                timer.cancel()

    def search_multipv(
        self, board: Board, limit: Limit | None, lines: int, *, armed: bool = False
    ) -> Iterator[list[SearchInfo[Move]]]:
        """Like :meth:`search`, but each depth yields the ``lines`` best root moves, best first."""
        limit = limit or Limit()
        bbs, info = board.kernel_arrays(room=2 * S.MAX_PLY)
        self._start(limit, armed)
        self.ctx[S.C_DRAW_PLY] = int(board.variant.counting is CountingMode.DECLARED)
        soft, hard = time_budget(limit, board.turn)
        start = time.perf_counter()
        timer = stop_timer(hard, self.stop)
        max_depth = min(limit.depth or S.MAX_PLY - 2, S.MAX_PLY - 2)
        try:
            for depth in range(1, max_depth + 1):
                found: list[SearchInfo[Move]] = []
                excluded: list[int] = []
                for _ in range(lines):
                    score = S.search_root(
                        bbs, info, depth, -S.INFINITE, S.INFINITE, self.ctx, self._tt_keys,
                        self._tt_data, self._killers, self._history, self._pv, self._pv_length,
                        np.array(excluded, dtype=np.int32),
                    )  # fmt: skip
                    length = int(self._pv_length[0])
                    if self.ctx[S.C_STOP] or length == 0:
                        break
                    codes = self._pv[0, :length]
                    excluded.append(int(codes[0]))
                    found.append(
                        SearchInfo(
                            depth,
                            int(self.ctx[S.C_SELDEPTH]),
                            Score.from_internal(int(score)),
                            [board.decode_move(int(code)) for code in codes],
                            int(self.ctx[S.C_NODES]),
                            time.perf_counter() - start,
                        )
                    )
                if self.ctx[S.C_STOP] and depth > 1:
                    break
                found.sort(key=lambda line: -score_sort_key(line.score))
                if found:
                    yield found
                if self.ctx[S.C_STOP] or (soft is not None and time.perf_counter() - start >= soft):
                    break
        finally:
            if timer is not None:
                timer.cancel()

    def best_move(
        self, board: Board, limit: Limit | None = None, *, armed: bool = False
    ) -> SearchResult[Move]:
        """Search and return the best move (``None`` when there is no legal move)."""
        history = list(self.search(board, limit, armed=armed))
        if not history:
            moves = list(board.legal_moves)
            return SearchResult(moves[0] if moves else None, None)
        last = history[-1]
        move = last.pv[0] if last.pv else next(iter(board.legal_moves))
        ponder = last.pv[1] if len(last.pv) > 1 else None
        return SearchResult(move, last, ponder, history)


def score_sort_key(score: Score) -> int:
    """An integer that orders scores: any win above any centipawns above any loss."""
    if score.mate is not None:
        return 100_000 - score.mate if score.mate > 0 else -100_000 - score.mate
    return score.cp or 0
