"""The engine pool of ``kradan serve``: the engine thinks in a worker process, so that the event
loop never waits for a search. :class:`EnginePool` sends the game (its variant, options, start
and history) to a ``ProcessPoolExecutor`` (one worker by default, started with ``spawn``); the
worker rebuilds the board and asks its :class:`~kradan.runners.players.KradanPlayer`, kept for
the life of the process.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

#: an entry of a game's history: a move's UCI string, or ``"count:declare"``/``"count:stop"``
HistoryEntry = str

#: seconds the engine thinks per move when the game has no clock (levels cap it further)
DEFAULT_SECONDS = 2.0


@dataclass(frozen=True)
class EngineRequest:
    """Everything a worker needs to rebuild a game and choose a move in it."""

    variant: str
    options: dict[str, Any]
    start_fen: str
    history: Sequence[HistoryEntry]
    level: int
    #: remaining clock times and increment in milliseconds (``None``: no clock)
    white_ms: int | None = None
    black_ms: int | None = None
    increment_ms: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EngineAnswer:
    """The engine's move as UCI text (``None``: it has none), and the count it declares or
    stops before it (``"declare"``, ``"stop"`` or ``None``; declared counting only)."""

    move: str | None
    count: str | None = None


# --- in the worker process ---------------------------------------------------------------------

_PLAYER: Any = None


def _player(level: int, variant: str) -> Any:
    global _PLAYER
    if _PLAYER is None:
        from ..runners.players import KradanPlayer

        _PLAYER = KradanPlayer(level, game=variant)
    _PLAYER.level = level
    return _PLAYER


def rebuild(variant: str, options: dict[str, Any], start_fen: str, history: Sequence[str]) -> Any:
    """The board of ``variant`` at ``start_fen`` with ``history`` played (count actions
    included)."""
    from ..games import new_board

    board: Any = new_board(variant, start_fen, **options)
    for entry in history:
        if entry == "count:declare":
            board.declare_count()
        elif entry == "count:stop":
            board.stop_count()
        else:
            board.push_uci(entry)
    return board


def _limit(request: EngineRequest, white: bool) -> Any:
    from ..engine.types import Limit

    if request.white_ms is None or request.black_ms is None:
        return Limit(time=DEFAULT_SECONDS)
    own = request.white_ms if white else request.black_ms
    seconds = max(0.05, min(DEFAULT_SECONDS * 5, own / 1000 / 30 + request.increment_ms / 1000))
    return Limit(time=seconds)


def choose_move(request: EngineRequest) -> EngineAnswer:
    """The engine's move and count decision (runs in the worker)."""
    board = rebuild(request.variant, request.options, request.start_fen, request.history)
    player = _player(request.level, request.variant)
    answer = player.choose_move(board, _limit(request, bool(board.turn)))
    move = None if answer.move is None else str(answer.move.uci())
    return EngineAnswer(move, answer.count)


def accepts_draw(request: EngineRequest) -> bool:
    """Whether the engine, to move or not, accepts a draw: when it is not clearly ahead
    (runs in the worker)."""
    from ..engine.types import Limit

    board = rebuild(request.variant, request.options, request.start_fen, request.history)
    player = _player(request.level, request.variant)
    engine_white = bool(request.extra.get("engine_white", True))
    answer = player.searcher_for(board).best_move(board, Limit(time=0.3, depth=6))
    score = answer.info.score if answer.info else None
    if score is None:
        return False
    value = int(score.value)  # for the side to move
    if bool(board.turn) != engine_white:
        value = -value
    return value <= 50


def warm() -> bool:
    """Load (or compile) the search of every game the engine plays, so that the first move
    waits for nothing (runs in the worker)."""
    from ..games import games

    player = _player(10, "makruk")
    for game in games():
        if game.searcher is not None:
            player.searchers.warm(game.new_board())
    return True


def exit_with_parent() -> None:
    """Worker initializer: end the worker when the server's process ends, even when it is killed
    (SIGKILL): a pool's worker would otherwise wait for work forever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="kradan-exit-with-parent", daemon=True).start()


# --- in the server -----------------------------------------------------------------------------


class EnginePool:
    """The worker processes, started on first use."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
            )
        return self.executor

    async def choose_move(self, request: EngineRequest) -> EngineAnswer:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), choose_move, request)

    async def warm(self) -> bool:
        """Start the worker and load the searches now (``kradan serve`` does, at start)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), warm)

    async def accepts_draw(self, request: EngineRequest) -> bool:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), accepts_draw, request)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None


__all__ = [
    "EngineAnswer",
    "EnginePool",
    "EngineRequest",
    "accepts_draw",
    "choose_move",
    "rebuild",
    "warm",
]
