"""Iterative deepening, once for every game: the clock, stopping, MultiPV and the tables.

A :class:`GameAdapter` knows one game's kernel (how to prepare its arrays, call its root search
and read back the principal variation); :class:`IterativeDeepening` drives any adapter, so each
game's searcher is this driver and its adapter.

Never a blind move: the first depth is always searched to its end. A stop (``stop``, a GUI's
``stop``, the hard time limit's timer, a node budget) that comes before it is held back and
takes effect as soon as that depth is done (microseconds to a millisecond), so every answer
comes from at least a completed depth-1 search (or from the endgame tables' move).
"""

from __future__ import annotations

import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from .types import Limit, MoveT, PovScore, Score, SearchInfo, SearchResult, time_budget


class _Board(Protocol):
    @property
    def turn(self) -> bool: ...

    @property
    def legal_moves(self) -> Iterable[Any]: ...


BoardT = TypeVar("BoardT", bound=_Board)

#: builds one line's report: depth, internal score, moves, plies to add to the seldepth
Report = Callable[[int, int, list[MoveT], int], SearchInfo[MoveT]]


@dataclass
class Tables:
    """What the driver owns and the kernels read and write: the shared ``ctx`` slots (stop flag,
    node counts, rule switches) and the transposition table."""

    ctx: np.ndarray
    tt_keys: np.ndarray
    tt_data: np.ndarray


class GameAdapter(ABC, Generic[BoardT, MoveT]):
    """One game's kernel as the driver needs it; the class attributes are its parameters."""

    ctx_size: int
    #: ``ctx`` slots: stop flag, nodes searched, node limit (0: none), selective depth
    stop_slot: int = 0
    nodes_slot: int = 1
    node_limit_slot: int = 2
    seldepth_slot: int = 3
    max_depth: int
    infinite: int
    mate: int
    mate_bound: int
    #: half-width of the aspiration window from depth 4 on (``None``: every depth searches wide)
    aspiration: int | None
    #: no new depth once this fraction of the soft time is spent
    soft_fraction: float
    #: a mate ``n`` plies away ends the search at depth ``factor * n + 2``
    mate_depth_factor: int

    def clear(self) -> None:
        """Forget the move ordering learnt in earlier searches (a new game)."""

    @abstractmethod
    def prepare(self, board: BoardT, tables: Tables, *, multipv: bool, clocked: bool) -> None:
        """Set up the kernel's arrays and ``ctx`` rule switches for a search of ``board``.
        A search on the move's time (``clocked``) never waits for slow work: endgame tables
        not yet in memory are read in the background meanwhile. One without a clock may."""

    def root_answer(self, board: BoardT, *, clocked: bool) -> SearchInfo[MoveT] | None:
        """An exact answer for the prepared position without searching (the endgame tables'
        move), or ``None``: search it."""
        return None

    @abstractmethod
    def playable(self, board: BoardT) -> bool:
        """Whether there is anything to search (a move, and the game not over)."""

    @abstractmethod
    def search_root(self, depth: int, alpha: int, beta: int, tables: Tables) -> int:
        """One root search of the prepared position to ``depth`` (internal score)."""

    @abstractmethod
    def principal_variation(self, board: BoardT) -> list[MoveT]:
        """The last root search's line, as ``board``'s moves."""

    @abstractmethod
    def root_lines(
        self, board: BoardT, depth: int, lines: int, tables: Tables, report: Report[MoveT]
    ) -> list[SearchInfo[MoveT]]:
        """At least the ``lines`` best root moves' lines to ``depth``, in any order; stops
        early when the stop flag is set."""


#: the longest limit a timer is armed for (about 31 years; ``threading`` overflows far beyond)
LONGEST_WAIT = 1e9
#: an aspiration window that has failed until it is wider than this searches without bounds
ASPIRATION_WIDEST = 1000


#: seconds the stop clock's thread waits for a search before it lets go (a later one starts it)
CLOCK_IDLE = 5.0


class StopClock:
    """Calls ``stop`` when a search's hard time limit has passed: one waiting thread serves all
    of a searcher's searches, since starting a thread (a :class:`threading.Timer`) per search
    took up to 4 ms on a busy machine, before the search could begin. The thread holds the
    clock only weakly and ends after :data:`CLOCK_IDLE` idle seconds."""

    def __init__(self, stop: Callable[[], None]) -> None:
        self._stop = stop
        self._changed = threading.Condition()
        #: when to stop (a :func:`time.perf_counter` time; ``None``: not armed)
        self.due: float | None = None
        self._watching = False

    def start(self, seconds: float | None) -> bool:
        """Stop after ``seconds``; returns whether that was armed (not without a limit, nor
        with one past what a thread can wait: such a search ends by its other bounds)."""
        with self._changed:
            self.due = None
            if seconds is not None and seconds < LONGEST_WAIT:  # not for NaN either
                self.due = time.perf_counter() + max(0.0, seconds)
                if not self._watching:
                    self._watching = True
                    watcher = threading.Thread(
                        target=_watch, args=(weakref.ref(self), self._changed),
                        name="kradan-stop-clock", daemon=True,
                    )  # fmt: skip
                    watcher.start()
            self._changed.notify_all()
            return self.due is not None

    def cancel(self) -> None:
        with self._changed:
            self.due = None
            self._changed.notify_all()


def _watch(owner: weakref.ref[StopClock], changed: threading.Condition) -> None:
    """The stop clock's thread: calls the clock's ``stop`` when its time is due; ends when the
    clock is gone, or has been idle for :data:`CLOCK_IDLE` seconds."""
    with changed:
        while True:
            clock = owner()
            if clock is None:
                return
            due, now = clock.due, time.perf_counter()
            if due is not None and due <= now:
                # under the lock: once ``cancel`` returns, no stop of this search comes late
                # (it would stop the next one, whose ``arm`` came before it)
                clock.due = None
                clock._stop()
                del clock
                continue
            del clock  # not kept alive by its own thread while it waits
            if not changed.wait(CLOCK_IDLE if due is None else due - now) and due is None:
                clock = owner()
                if clock is None or clock.due is None:
                    if clock is not None:
                        clock._watching = False
                    return
                del clock


def table_size(hash_mb: int) -> int:
    """Entries in a table of about ``hash_mb`` megabytes: a power of two, 16 bytes each."""
    entries = max(1024, (max(1, hash_mb) << 20) // 16)
    return 1 << (entries.bit_length() - 1)


class IterativeDeepening(Generic[BoardT, MoveT]):
    """A search engine instance: ``adapter``'s game, a transposition table of about ``hash_mb``
    megabytes, and a stop flag another thread may set."""

    def __init__(self, adapter: GameAdapter[BoardT, MoveT], hash_mb: int = 16) -> None:
        self.adapter: GameAdapter[BoardT, MoveT] = adapter
        self.ctx = np.zeros(adapter.ctx_size, dtype=np.int64)
        self.tables = Tables(self.ctx, np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64))
        self.resize(hash_mb)
        self._clock = StopClock(self.stop)
        self._started = 0.0
        self._turn = True
        self._node_budget = 0
        self._clocked = False
        #: a stop was asked for (it binds once the first depth is complete)
        self._stop_asked = False
        #: the first depth of the running search is complete: a stop binds at once
        self._stop_binds = False
        self._stop_lock = threading.Lock()
        #: seconds the last search spent before its first root search (setting up, the
        #: endgame tables' preparation, a root probe that found no answer), or on the whole
        #: answer when the tables gave it
        self.preparation = 0.0

    def resize(self, hash_mb: int) -> None:
        """Allocate a transposition table of about ``hash_mb`` megabytes (a power of two)."""
        size = table_size(hash_mb)
        self.tables.tt_keys = np.zeros(size, dtype=np.uint64)
        self.tables.tt_data = np.full(size, -1, dtype=np.int64)

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        self.tables.tt_keys[:] = 0
        self.tables.tt_data[:] = -1
        self.adapter.clear()

    def stop(self) -> None:
        """Ask a running search to stop; it returns within milliseconds, and never before its
        first depth is complete (so that its move is never a blind one)."""
        with self._stop_lock:
            self._stop_asked = True
            if self._stop_binds:
                self.ctx[self.adapter.stop_slot] = 1

    def arm(self) -> None:
        """Clear a previous stop before starting a search in another thread, so that a stop
        that arrives before that thread gets going is not lost (pass ``armed=True`` then)."""
        with self._stop_lock:
            self.ctx[:] = 0
            self._stop_asked = self._stop_binds = False

    def _bind_stop(self) -> None:
        """The first depth is complete: a stop asked for (or asked from now on) binds."""
        with self._stop_lock:
            self._stop_binds = True
            if self._stop_asked:
                self.ctx[self.adapter.stop_slot] = 1

    def _stopped(self) -> bool:
        return bool(self.ctx[self.adapter.stop_slot])

    def _begin(
        self, board: BoardT, limit: Limit, armed: bool, *, multipv: bool
    ) -> tuple[float | None, int]:
        """Reset ``ctx`` (keeping an armed stop asked for), prepare the kernel, start the clock
        and the hard-limit timer; returns the soft time and the deepest depth."""
        adapter = self.adapter
        # the clock runs from here: the preparation is part of the move's time
        self._started = time.perf_counter()
        with self._stop_lock:
            self.ctx[:] = 0
            self._stop_asked = self._stop_asked and armed
            # the first depth is always searched to its end, so that there is a move to play:
            # a stop binds once it is (:meth:`_bind_stop`), a node budget from the second
            # depth on (:meth:`_deepen`)
            self._stop_binds = False
        self._node_budget = limit.nodes or 0
        soft, hard = time_budget(limit, board.turn)
        self._turn = bool(board.turn)  # the side the reports' scores are for
        self._clock.start(hard)
        self._clocked = hard is not None
        adapter.prepare(board, self.tables, multipv=multipv, clocked=self._clocked)
        return soft, min(limit.depth or adapter.max_depth, adapter.max_depth)

    def _prepared(self) -> None:
        """The preparation is over: the first root search (or the tables' answer) begins."""
        self.preparation = time.perf_counter() - self._started

    def _deepen(self, depth: int) -> None:
        """Before searching ``depth``: from the second depth on, the node budget binds."""
        if depth == 2:
            self.ctx[self.adapter.node_limit_slot] = self._node_budget

    def _end(self) -> None:
        self._clock.cancel()

    def _report(
        self, depth: int, score: int, pv: list[MoveT], seldepth_extra: int = 0
    ) -> SearchInfo[MoveT]:
        return SearchInfo(
            depth,
            int(self.ctx[self.adapter.seldepth_slot]) + seldepth_extra,
            PovScore(Score.from_internal(score), self._turn),
            pv,
            int(self.ctx[self.adapter.nodes_slot]),
            time.perf_counter() - self._started,
        )

    def _search_depth(self, depth: int, previous: int) -> int:
        """The root search at ``depth``: in an aspiration window around ``previous`` where the
        game uses one, widened on the side where the score fell outside it."""
        adapter = self.adapter
        infinite = adapter.infinite
        if adapter.aspiration is None:
            return adapter.search_root(depth, -infinite, infinite, self.tables)
        window = adapter.aspiration if depth >= 4 else infinite
        alpha, beta = max(previous - window, -infinite), min(previous + window, infinite)
        while True:
            score = adapter.search_root(depth, alpha, beta, self.tables)
            if self._stopped() or alpha < score < beta:
                return score
            # the window failed: widen it on the side that failed, twice as far each time, and
            # search wide once it has grown past a few pawns
            window *= 2
            if window > ASPIRATION_WIDEST:
                alpha, beta = -infinite, infinite
            elif score <= alpha:
                alpha, beta = max(score - window, -infinite), (alpha + beta) // 2
            else:
                beta = min(score + window, infinite)

    def search(
        self, board: BoardT, limit: Limit | None = None, *, armed: bool = False
    ) -> Iterator[SearchInfo[MoveT]]:
        """Iterative deepening: yields a :class:`SearchInfo` after each completed depth."""
        adapter = self.adapter
        soft, max_depth = self._begin(board, limit or Limit(), armed, multipv=False)
        previous = 0
        try:
            if not adapter.playable(board):
                return
            known = adapter.root_answer(board, clocked=self._clocked)
            self._prepared()
            if known is not None:
                yield known
                return
            for depth in range(1, max_depth + 1):
                self._deepen(depth)
                score = int(self._search_depth(depth, previous))
                if depth == 1:
                    self._bind_stop()
                elif self._stopped():
                    break
                previous = score
                info = self._report(depth, score, adapter.principal_variation(board))
                yield info
                if self._stopped():
                    break
                if soft is not None and info.seconds >= adapter.soft_fraction * soft:
                    break  # the next depth would most likely not finish in time
                plies = adapter.mate - abs(score)
                if (
                    abs(score) > adapter.mate_bound
                    and depth >= adapter.mate_depth_factor * plies + 2
                ):
                    break  # a mate found is not found faster by searching deeper
        finally:
            self._end()

    def search_multipv(
        self, board: BoardT, limit: Limit | None, lines: int, *, armed: bool = False
    ) -> Iterator[list[SearchInfo[MoveT]]]:
        """Like :meth:`search`, but each depth yields the ``lines`` best root moves, best first."""
        adapter = self.adapter
        soft, max_depth = self._begin(board, limit or Limit(), armed, multipv=True)
        try:
            if not adapter.playable(board):
                return
            self._prepared()
            for depth in range(1, max_depth + 1):
                self._deepen(depth)
                found = adapter.root_lines(board, depth, lines, self.tables, self._report)
                if depth == 1:
                    self._bind_stop()
                elif self._stopped():
                    break
                found.sort(key=lambda line: -line.score.value)
                if found:
                    ranked = enumerate(found[:lines], start=1)
                    yield [replace(line, multipv=rank) for rank, line in ranked]
                if self._stopped() or (
                    soft is not None and time.perf_counter() - self._started >= soft
                ):
                    break
        finally:
            self._end()

    def best_move(
        self, board: BoardT, limit: Limit | None = None, *, armed: bool = False
    ) -> SearchResult[MoveT]:
        """Search and return the best move (``None`` when there is nothing to play)."""
        history = list(self.search(board, limit, armed=armed))
        last = history[-1] if history else None
        if last is None or not last.pv:
            moves: list[MoveT] = list(board.legal_moves)
            return SearchResult(moves[0] if moves else None, last, None, history)
        ponder = last.pv[1] if len(last.pv) > 1 else None
        return SearchResult(last.pv[0], last, ponder, history)


__all__ = ["GameAdapter", "IterativeDeepening", "StopClock", "Tables", "table_size"]
