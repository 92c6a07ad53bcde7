"""What the engine workers of ``kradan serve`` do for play (they run in the worker processes of
:mod:`.engine_pool`): rebuild the game from its start and history, and ask the worker's
:class:`~kradan.runners.players.KradanPlayer`, kept for the life of the process, for a move or
a draw answer. Each task takes its request and the worker's :class:`TaskContext`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class TaskContext(Protocol):
    """What a task may ask of the worker that runs it."""

    def emit(self, data: Any) -> None:
        """Send ``data`` to the server now, before the task's answer (an analysis's lines)."""
        ...

    def arm(self, searcher: Any) -> bool:
        """Let a stop of this task stop ``searcher`` (armed here, searched with
        ``armed=True``); ``False`` when the task was stopped already."""
        ...


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


def worker_player(level: int, variant: str) -> Any:
    """The worker's one player (made, and ``variant``'s search loaded, on first use), at
    ``level``."""
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


def choose_move(request: EngineRequest, context: TaskContext | None = None) -> EngineAnswer:
    """The engine's move and count decision (runs in the worker)."""
    board = rebuild(request.variant, request.options, request.start_fen, request.history)
    player = worker_player(request.level, request.variant)
    answer = player.choose_move(board, _limit(request, bool(board.turn)))
    move = None if answer.move is None else str(answer.move.uci())
    return EngineAnswer(move, answer.count)


def accepts_draw(request: EngineRequest, context: TaskContext | None = None) -> bool:
    """Whether the engine, to move or not, accepts a draw: when it is not clearly ahead
    (runs in the worker)."""
    from ..engine.types import Limit

    board = rebuild(request.variant, request.options, request.start_fen, request.history)
    player = worker_player(request.level, request.variant)
    engine_white = bool(request.extra.get("engine_white", True))
    answer = player.searcher_for(board).best_move(board, Limit(time=0.3, depth=6))
    score = answer.info.score if answer.info else None
    if score is None:
        return False
    value = int(score.value)  # for the side to move
    if bool(board.turn) != engine_white:
        value = -value
    return value <= 50


def warm(request: Any = None, context: TaskContext | None = None) -> bool:
    """Load (or compile) the search of every game the engine plays, so that the first move
    waits for nothing (runs in the worker)."""
    from ..games import games

    player = worker_player(10, "makruk")
    for game in games():
        if game.searcher is not None:
            player.searchers.warm(game.new_board())
    return True


#: a task: its request and the worker's context in, its answer (picklable) out
Task = Callable[[Any, TaskContext], Any]

#: nodes a second the estimate of a level's search counts on (a slow machine's, on purpose)
ESTIMATE_NPS = 500_000
#: seconds a move costs besides its search (rebuilding the game, the answer's way back)
OVERHEAD_SECONDS = 0.02


def estimated_seconds(request: EngineRequest, *, draw: bool = False) -> float:
    """How long the engine will think on ``request``, as the pool's queue weighs it: a level
    below 20 is bound by its node budget, level 20 by its time; a draw answer by its 0.3 s."""
    from ..engine.levels import MAX_LEVEL, level_nodes

    if draw:
        return 0.3
    # the side to move is not known here without rebuilding: the longer budget of the two
    seconds = max(_limit(request, True).time or 0.0, _limit(request, False).time or 0.0)
    if request.level < MAX_LEVEL:
        seconds = min(seconds, level_nodes(request.level) / ESTIMATE_NPS)
    return seconds + OVERHEAD_SECONDS
