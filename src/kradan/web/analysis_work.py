"""An analysis as an engine worker runs it (:mod:`.engine_pool`): the position rebuilt, the
endgame tables' verdict (or a Bell Alquerque position's proven value), then a MultiPV search
whose lines go back to the server as they deepen.

The lines are written here, in the worker, ready to send: each with its moves in UCI, SAN and
(where the game has it) Thai SAN, its score from White's point of view, its depth and the nodes
searched, so the server's event loop only forwards them. Streaming: the first completed depth is
sent at once, then the latest at most every :data:`EMIT_SECONDS` (the server's socket sends at
most every 125 ms anyway), and the last one is the task's answer. One long search streams
better than a series of searches of growing depth: each depth builds on the last one's table,
and a stop (a newer request, a client gone, a move to play first) ends it within milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine_tasks import TaskContext, worker_player

#: seconds between two updates a worker sends of one analysis
EMIT_SECONDS = 0.1


@dataclass(frozen=True)
class AnalysisRequest:
    """A position to analyse (checked by the server already) and for how long."""

    variant: str
    options: dict[str, Any]
    #: the position's FEN (``None``: the game's start)
    fen: str | None
    moves: tuple[str, ...] = ()
    multipv: int = 1
    seconds: float = 1.0
    #: the deepest depth already sent to the client (an analysis that goes on after a pause
    #: sends nothing shallower)
    shown_depth: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def position(request: AnalysisRequest) -> Any:
    """The board ``request`` names: its FEN (or the start) and then its moves.

    :raises KradanError: (a ``ValueError``) for a bad variant, option, FEN or move.
    """
    from ..games import new_board

    board: Any = new_board(request.variant, request.fen, **request.options)
    for move in request.moves:
        board.push_uci(move)
    return board


def score_view(info: Any) -> dict[str, int]:
    """A line's score from White's point of view: ``{"cp": n}`` or ``{"mate": n}`` (negative:
    Black mates)."""
    score = info.score.white()
    return {"mate": int(score.mate)} if score.mate is not None else {"cp": int(score.cp or 0)}


def written_line(board: Any, moves: list[Any], thai: bool) -> tuple[list[str], list[str] | None]:
    """``moves`` from ``board`` in SAN and, with ``thai``, in Thai SAN."""
    work = board.copy()
    san: list[str] = []
    thai_san: list[str] | None = [] if thai else None
    for move in moves:
        san.append(work.san(move))
        if thai_san is not None:
            thai_san.append(work.san(move, "thai"))
        work.push(move)
    return san, thai_san


def line_view(board: Any, info: Any, thai: bool) -> dict[str, Any]:
    """One line of the answer (see :class:`kradan.web.analysis.LineView`)."""
    san, thai_san = written_line(board, list(info.pv), thai)
    return {
        "multipv": int(info.multipv),
        "depth": int(info.depth),
        "seldepth": int(info.seldepth),
        "score": score_view(info),
        "moves": [move.uci() for move in info.pv],
        "san": san,
        "thai_san": thai_san,
        "nodes": int(info.nodes),
    }


def table_view(board: Any) -> dict[str, Any] | None:
    """The endgame tables' verdict on ``board`` for the side to move, with the count in words
    and in fields; ``None`` where the tables know nothing (more pieces, pawns, another game, a
    table not installed)."""
    from ..engine.tablebase import table_answer

    # (the tables answer for the games they were built for, and refuse any other board)

    found = table_answer(board)
    if found is None:
        return None
    count = found.count
    best = found.best_move
    return {
        "result": {1: "win", 0: "draw", -1: "loss"}[found.result],
        "text": str(found),
        "table": found.table,
        "mate_in": found.mate_moves if found.result else None,
        "plies": found.dtm,
        "best_move": None if best is None else best.uci(),
        "best_san": None if best is None else board.san(best),
        "count": None
        if count is None
        else {
            "honour": count.honour,
            "moves_left": count.moves_left,
            "fits": count.fits,
            "exact": count.exact,
            "text": str(count),
        },
    }


def proven_view(board: Any) -> dict[str, Any] | None:
    """The proven value of a Bell Alquerque position for the side to move (the solved
    strategy table, or a short df-pn search of a late position; docs/alquerque-solved.md);
    ``None`` for any other game or a position not proven."""
    from ..solve.answers import is_bell, proven

    verdict = proven(board) if is_bell(board) else None
    if verdict is None or verdict.move is None:
        return None
    return {
        "result": "win" if verdict.win else "loss",
        "plies": verdict.plies,
        "text": verdict.text(),
        "source": verdict.source,
        "best_move": verdict.move.uci(),
        "best_san": board.san(verdict.move),
        "line": [move.uci() for move in verdict.line],
    }


def analyse(request: AnalysisRequest, context: TaskContext) -> dict[str, Any]:
    """Search ``request``'s position for ``request.seconds`` (less when stopped), sending each
    deeper set of lines through ``context``; the answer is the deepest set (runs in the
    worker)."""
    import time

    from ..engine.types import Limit
    from ..games import game_of

    board = position(request)
    thai = "thai" in game_of(board).notations
    table = table_view(board)
    proven = proven_view(board)
    answer: dict[str, Any] = {"depth": 0, "lines": [], "table": table, "proven": proven,
                              "nodes": 0}  # fmt: skip
    if board.outcome() is not None:
        return answer
    searcher = worker_player(20, request.variant).searcher_for(board)
    if not context.arm(searcher):
        return answer
    limit = Limit(time=max(0.01, request.seconds))
    sent = 0.0
    latest: list[Any] = []
    for lines in searcher.search_multipv(board, limit, request.multipv, armed=True):
        latest = lines
        now = time.perf_counter()
        if lines[0].depth > request.shown_depth and now - sent >= EMIT_SECONDS:
            sent = now
            context.emit(_answer(board, lines, thai, table, proven))
    return _answer(board, latest, thai, table, proven) if latest else answer


def _answer(board: Any, lines: list[Any], thai: bool, table: Any, proven: Any) -> dict[str, Any]:
    views = [line_view(board, info, thai) for info in lines]
    return {
        "depth": int(lines[0].depth),
        "lines": views,
        "table": table,
        "proven": proven,
        "nodes": int(lines[0].nodes),
    }


__all__ = [
    "AnalysisRequest",
    "analyse",
    "line_view",
    "position",
    "proven_view",
    "score_view",
    "table_view",
]
