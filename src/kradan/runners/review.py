"""Game review: every position of a game searched, every move judged by what it cost its mover
in winning chances (:mod:`kradan.engine.winning`), with the better move where it cost much.

The positions are searched in chunks, here or on any executor (:mod:`kradan.executors`: the
local process pool, or a Ray cluster). A task carries the whole game (a board with its history,
pickled) and the positions to search, named by the length of the move stack there; the worker
walks back to each with ``pop``. Each search starts from a cleared search (no table, no move
ordering left from another position), without endgame tables (a node may lack them) and to a
depth or a node count, never a time: the same review comes back whatever ran it, and however
the positions were split.

Position ``k`` is the board before the game's ``k+1``-th move (the counts declared before that
move included), and the last one is the board at the game's end. Move ``k`` is judged from the
search of position ``k-1`` (its best move and score) and that of position ``k`` (the score of
the move played, from the other side).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice, pairwise
from typing import Any

from ..counting import CountAction
from ..engine.types import Limit, Score, outcome_score
from ..engine.winning import CP_CLIP, WinningCurve, curve_for, judge
from ..errors import InvalidArgumentError
from ..games import game_of
from ..pgn import Game
from ..pgn.tree import apply_count_actions

#: positions a task searches
CHUNK_POSITIONS = 8
#: the limit of a review when none is given: reproducible, and a few seconds for a game
DEFAULT_LIMIT = Limit(depth=10)
#: the transposition table of each search, in megabytes (part of what makes a review the same
#: everywhere)
HASH_MB = 16
#: plies of the better line kept
LINE_PLIES = 8
#: centipawns a move's loss is counted in at most (a mate counts as this)
CP_LOSS_CLIP = 1000


@dataclass(frozen=True)
class PositionTask:
    """Search the positions of ``board``'s game at the move-stack lengths ``stops``."""

    board: Any
    stops: tuple[int, ...]
    limit: Limit
    hash_mb: int = HASH_MB


@dataclass(frozen=True)
class PositionEval:
    """One searched position: its score for the side to move, the best move and line (UCI;
    empty for a finished game) and how deep and wide the search went."""

    stop: int
    score: Score
    line: tuple[str, ...] = ()
    depth: int = 0
    nodes: int = 0


_searchers: Any = None


def _searchers_for(hash_mb: int) -> Any:
    """This process's searches (made once: a worker serves many tasks), without tables."""
    global _searchers
    if _searchers is None or _searchers.hash_mb != hash_mb:
        from ..engine.searchers import Searchers

        _searchers = Searchers(hash_mb)
        _searchers.use_tables(False)
    return _searchers


def evaluate_positions(task: PositionTask) -> list[PositionEval]:
    """Search each position of ``task`` (in a worker), each from a cleared search."""
    searchers = _searchers_for(task.hash_mb)
    board = task.board.copy()
    found = []
    for stop in sorted(task.stops, reverse=True):
        while len(board.move_stack) > stop:
            board.pop()
        ended = outcome_score(board)
        if ended is not None:
            found.append(PositionEval(stop, ended))
            continue
        search = searchers.for_board(board)
        search.clear()
        result = search.best_move(board, task.limit)
        info = result.info
        if info is None or result.move is None:
            found.append(PositionEval(stop, Score(cp=0)))
            continue
        line = tuple(move.uci() for move in info.pv[:LINE_PLIES]) or (result.move.uci(),)
        found.append(PositionEval(stop, info.score.relative, line, info.depth, info.nodes))
    found.sort(key=lambda evaluation: evaluation.stop)
    return found


# --- the review ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BestMove:
    """The engine's choice where a move was played: UCI, SAN, its line in UCI and in SAN, and
    its score (White's view)."""

    uci: str
    san: str
    line: tuple[str, ...]
    line_san: tuple[str, ...]
    score: Score


@dataclass(frozen=True)
class PlyReview:
    """One move judged. ``score`` is White's score after it and ``expected`` White's expected
    score then; ``loss`` is what the mover's expected score dropped by (0..1), ``cp_loss`` the
    same in centipawns (each side clipped to ±1000), ``mark`` ``?!``, ``?``, ``??`` or
    ``None``; ``best`` is the engine's move in the position before."""

    ply: int
    white: bool
    uci: str
    san: str
    score: Score
    expected: float
    best: BestMove | None
    loss: float
    cp_loss: int
    mark: str | None


@dataclass
class SideSummary:
    """One side's moves: how many, how many marked each way, and the mean loss of expected
    score (in points of 100) and of centipawns."""

    moves: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    average_loss: float = 0.0
    average_cp_loss: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {"moves": self.moves, "inaccuracies": self.inaccuracies,
                "mistakes": self.mistakes, "blunders": self.blunders,
                "average_loss": round(self.average_loss, 2),
                "average_cp_loss": round(self.average_cp_loss, 1)}  # fmt: skip


@dataclass
class Review:
    """A reviewed game: the start's score (White's view), each move judged, each side's
    summary, and what it was judged with (the limit, the curve's scale)."""

    game: str
    limit: Limit
    scale: float
    start: Score
    start_expected: float
    plies: list[PlyReview] = field(default_factory=list)
    white: SideSummary = field(default_factory=SideSummary)
    black: SideSummary = field(default_factory=SideSummary)

    def summary(self, white: bool) -> SideSummary:
        return self.white if white else self.black

    def marks(self) -> list[str | None]:
        """Each move's mark, in order (what two reviews of one game must agree on)."""
        return [ply.mark for ply in self.plies]

    def as_json(self) -> dict[str, Any]:
        """The review as the web API sends it (scores from White's point of view)."""
        return {
            "game": self.game,
            "limit": limit_text(self.limit),
            "scale": self.scale,
            "start": {"score": score_json(self.start), "expected": round(self.start_expected, 4)},
            "plies": [ply_json(ply) for ply in self.plies],
            "summary": {"white": self.white.as_json(), "black": self.black.as_json()},
        }


def score_json(score: Score) -> dict[str, int]:
    """White's ``score`` as the API sends it: ``{"mate": n}`` (negative: White is mated), or
    ``{"cp": n}`` clipped to ±2000; a game already won or lost on the board (``mate 0``, a
    first check) is ±2000 centipawns."""
    if score.mate is not None and score.mate != 0:
        return {"mate": score.mate}
    if score.mate == 0:
        return {"cp": -CP_CLIP}
    return {"cp": max(-CP_CLIP, min(CP_CLIP, score.cp or 0))}


def ply_json(ply: PlyReview) -> dict[str, Any]:
    best = ply.best
    return {
        "ply": ply.ply,
        "color": "white" if ply.white else "black",
        "uci": ply.uci,
        "san": ply.san,
        "score": score_json(ply.score),
        "expected": round(ply.expected, 4),
        "best": None
        if best is None
        else {
            "uci": best.uci,
            "san": best.san,
            "line": list(best.line_san),
            "score": score_json(best.score),
        },
        "loss": round(ply.loss, 4),
        "mark": ply.mark,
    }


def limit_text(limit: Limit) -> str:
    """``depth 10`` or ``nodes 200000`` (both, when both bound it)."""
    parts = []
    if limit.depth is not None:
        parts.append(f"depth {limit.depth}")
    if limit.nodes is not None:
        parts.append(f"nodes {limit.nodes}")
    return ", ".join(parts)


def check_limit(limit: Limit) -> Limit:
    """``limit`` if it bounds a search by depth or nodes alone (so that every machine finds
    the same).

    :raises InvalidArgumentError: for a time or clock limit, or none at all.
    """
    timed = (limit.time, limit.white_clock, limit.black_clock, limit.moves_to_go)
    if any(value is not None for value in timed) or (limit.depth is None and limit.nodes is None):
        raise InvalidArgumentError(
            f"a review searches to a depth or a node count, never a time, so that any machine "
            f"finds the same: not {limit!r}"
        )
    if (limit.depth is not None and limit.depth < 1) or (
        limit.nodes is not None and limit.nodes < 1
    ):
        raise InvalidArgumentError(f"a review's depth and nodes must be 1 or more: not {limit!r}")
    return limit


def replayed(board: Any) -> Any:
    """A fresh board of ``board``'s game with its history played again: no resignation or
    agreed draw is carried, only what the moves and counts made."""
    fresh = board.copy()
    entries = list(fresh.move_stack)
    while fresh.move_stack:
        fresh.pop()
    for entry in entries:
        if isinstance(entry, CountAction):
            apply_count_actions(fresh, [entry.kind])
        else:
            fresh.push(entry)
    return fresh


def board_of_pgn(game: Game) -> Any:
    """The board at the end of ``game``'s main line, its moves and counts in its history.

    :raises PgnError: for a count its game has no counting for.
    """
    board = game.board()  # the counts before the first move declared
    for node in game.mainline():
        board.push(node.move)
        apply_count_actions(board, node.count_actions)
    return board


def move_stops(board: Any) -> list[int]:
    """The move-stack length of every position: before each move (after the counts declared
    before it), and at the end."""
    stops = []
    for index, entry in enumerate(board.move_stack):
        if not isinstance(entry, CountAction):
            stops.append(index)
    stops.append(len(board.move_stack))
    return stops


def plan_tasks(board: Any, limit: Limit, chunk: int = CHUNK_POSITIONS) -> list[PositionTask]:
    """The tasks that search every position of ``board``'s game, ``chunk`` positions each."""
    stops = move_stops(board)
    return [PositionTask(board, tuple(stops[i : i + chunk]), limit)
            for i in range(0, len(stops), max(1, chunk))]  # fmt: skip


def _run(
    tasks: list[PositionTask],
    executor: Any,
    progress: Callable[[int, int], None] | None,
) -> dict[int, PositionEval]:
    total = sum(len(task.stops) for task in tasks)
    found: dict[int, PositionEval] = {}
    if executor is None:
        results: Any = ((i, evaluate_positions(task)) for i, task in enumerate(tasks))
    else:
        from ..executors import run_tasks

        results = run_tasks(executor, evaluate_positions, tasks)
    for _index, evaluations in results:
        for evaluation in evaluations:
            found[evaluation.stop] = evaluation
        if progress is not None:
            progress(len(found), total)
    return found


def review_game(
    board: Any,
    limit: Limit = DEFAULT_LIMIT,
    *,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
    curve: WinningCurve | None = None,
    chunk: int = CHUNK_POSITIONS,
) -> Review:
    """Review the game in ``board``'s move stack (any game kradan's engine plays; a
    :class:`~kradan.pgn.Game` through :func:`board_of_pgn`): search every position within
    ``limit`` (a depth or node count), on ``executor`` (``None``: here, one position after
    another), ``chunk`` positions a task; ``progress(done, total)`` after each task.

    :raises InvalidArgumentError: for a limit of time, or no limit.
    :raises EngineError: for a game kradan's engine does not play.
    """
    check_limit(limit)
    game = replayed(board)
    curve = curve or curve_for(game_of(game).name)
    found = _run(plan_tasks(game, limit, chunk), executor, progress)
    return judge_game(game, found, curve, limit)


def _white(score: Score, white_to_move: bool) -> Score:
    return score if white_to_move else -score


def _clipped_cp(score: Score) -> int:
    if score.mate is not None:
        return CP_LOSS_CLIP if score.mate > 0 else -CP_LOSS_CLIP
    return max(-CP_LOSS_CLIP, min(CP_LOSS_CLIP, score.cp or 0))


def judge_game(
    board: Any, found: dict[int, PositionEval], curve: WinningCurve, limit: Limit
) -> Review:
    """The review of the game in ``board``'s history from the searches of its positions
    (``found``, by move-stack length)."""
    stops = move_stops(board)
    entries = list(board.move_stack)
    walk = board.copy()
    while walk.move_stack:
        walk.pop()
    start = found[stops[0]]
    # the counts declared before the first move
    for entry in entries[: stops[0]]:
        apply_count_actions(walk, [entry.kind])
    start_white = _white(start.score, bool(walk.turn))
    review = Review(game_of(walk).name, limit, curve.scale, start_white,
                    curve.expected(start_white))  # fmt: skip
    for number, (before_stop, after_stop) in enumerate(pairwise(stops), 1):
        before, after = found[before_stop], found[after_stop]
        mover = bool(walk.turn)
        move = entries[before_stop]
        only_move = sum(1 for _ in islice(iter(walk.legal_moves), 2)) == 1
        best = None
        if before.line:
            best_move = walk.parse_uci(before.line[0])
            line_board = walk.copy()
            line = []
            for uci in before.line:
                step = line_board.parse_uci(uci)
                line.append(line_board.san(step))
                line_board.push(step)
            best = BestMove(before.line[0], walk.san(best_move), before.line, tuple(line),
                            _white(before.score, mover))  # fmt: skip
        san = walk.san(move)
        uci = move.uci()
        walk.push(move)
        for entry in entries[before_stop + 1 : after_stop]:
            apply_count_actions(walk, [entry.kind])
        played = after.score if bool(walk.turn) == mover else -after.score
        verdict = judge(curve, before.score, played,
                        was_best=best is not None and best.uci == uci,
                        only_move=only_move)  # fmt: skip
        cp_loss = (
            0 if verdict.loss == 0 else max(0, _clipped_cp(before.score) - _clipped_cp(played))
        )
        score_white = _white(played, mover)
        review.plies.append(PlyReview(number, mover, uci, san, score_white,
                                      curve.expected(score_white), best, verdict.loss,
                                      cp_loss, verdict.mark))  # fmt: skip
    _summarise(review)
    return review


def _summarise(review: Review) -> None:
    for white in (True, False):
        side = review.summary(white)
        mine = [ply for ply in review.plies if ply.white == white]
        side.moves = len(mine)
        side.inaccuracies = sum(1 for ply in mine if ply.mark == "?!")
        side.mistakes = sum(1 for ply in mine if ply.mark == "?")
        side.blunders = sum(1 for ply in mine if ply.mark == "??")
        if mine:
            side.average_loss = 100 * sum(ply.loss for ply in mine) / len(mine)
            side.average_cp_loss = sum(ply.cp_loss for ply in mine) / len(mine)


def review_pgn_game(game: Game, limit: Limit = DEFAULT_LIMIT, **options: Any) -> Review:
    """:func:`review_game` on the main line of a PGN game."""
    return review_game(board_of_pgn(game), limit, **options)


def marked(review: Review) -> Sequence[PlyReview]:
    """The moves that got a mark."""
    return [ply for ply in review.plies if ply.mark is not None]


__all__ = [
    "CHUNK_POSITIONS",
    "DEFAULT_LIMIT",
    "BestMove",
    "PlyReview",
    "PositionEval",
    "PositionTask",
    "Review",
    "SideSummary",
    "board_of_pgn",
    "check_limit",
    "evaluate_positions",
    "judge_game",
    "limit_text",
    "marked",
    "move_stops",
    "plan_tasks",
    "review_game",
    "review_pgn_game",
    "score_json",
]
