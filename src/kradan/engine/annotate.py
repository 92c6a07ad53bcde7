"""Engine analysis of games: an evaluation for every move, marks on the mistakes, and the line
the engine prefers where a move lost much.

Each main-line position is searched once. The score of the move played is the next position's
score seen from the other side, so a move's loss is what the mover's best score drops by.
Evaluations are written as lichess does, ``[%eval 0.35]`` (pawns, White's view) or
``[%eval #-3]``; mistakes get the NAGs ``?!`` (inaccuracy), ``?`` (mistake) and ``??`` (blunder).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..games import AnyBoard
from ..pgn import Game
from ..pgn.tree import apply_count_actions
from .searchers import Searchers
from .types import Limit, Score, outcome_score

#: centipawn losses that earn ?!, ? and ??
INACCURACY, MISTAKE, BLUNDER = 60, 150, 300
NAG_INACCURACY, NAG_MISTAKE, NAG_BLUNDER = 6, 2, 4
BEST_LINE_PLIES = 8


def score_value(score: Score) -> int:
    """A score as one number for the side to move (:attr:`Score.value`)."""
    return score.value


def eval_text(score: Score, white_to_move: bool) -> str:
    """``[%eval ...]``'s value for ``score`` of the side to move: White's view, in pawns."""
    sign = 1 if white_to_move else -1
    if score.mate is not None:
        return f"#{sign * score.mate}"
    return f"{sign * (score.cp or 0) / 100:.2f}"


@dataclass
class PositionAnalysis:
    """One searched position: its score for the side to move and the engine's line."""

    score: Score
    line: list[object]


def _analyse(board: AnyBoard, searchers: Searchers, limit: Limit) -> PositionAnalysis:
    ended = outcome_score(board)
    if ended is not None:
        return PositionAnalysis(ended, [])
    result = searchers.for_board(board).best_move(board, limit)
    if result.info is None:
        return PositionAnalysis(Score(cp=0), [])
    return PositionAnalysis(result.info.score.relative, list(result.info.pv))


def _loss_nag(loss: int) -> int | None:
    if loss >= BLUNDER:
        return NAG_BLUNDER
    if loss >= MISTAKE:
        return NAG_MISTAKE
    if loss >= INACCURACY:
        return NAG_INACCURACY
    return None


def annotate(
    game: Game,
    limit: Limit,
    *,
    searchers: Searchers | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Game:
    """Add ``[%eval]`` comments, mistake NAGs and the engine's line after mistakes to
    ``game``'s main line (in place), searching each position within ``limit``; returns
    ``game``. ``progress(done, total)`` is called after each position."""
    searchers = searchers or Searchers()
    nodes = [game, *game.mainline()]
    # one board walks the main line: the position before each node's move, then after it
    board = game.board()
    searchers.warm(board)
    turns = [bool(board.turn)]
    analyses = [_analyse(board, searchers, limit)]
    for index, node in enumerate(nodes[1:], start=1):
        if progress is not None:
            progress(index, len(nodes))
        board.push(node.move)
        apply_count_actions(board, node.count_actions)
        turns.append(bool(board.turn))
        analyses.append(_analyse(board, searchers, limit))
    if progress is not None:
        progress(len(nodes), len(nodes))
    for index, node in enumerate(nodes[1:], start=1):
        parent = nodes[index - 1]
        before, after = analyses[index - 1], analyses[index]
        note = f"[%eval {eval_text(after.score, turns[index])}]"
        node.comment = f"{note} {node.comment}".strip()
        loss = score_value(before.score) + score_value(after.score)
        nag = _loss_nag(loss)
        if nag is None:
            continue
        node.nags.add(nag)
        best = before.line[:BEST_LINE_PLIES]
        if best and best[0] != node.move and not parent.has_variation(best[0]):  # type: ignore[arg-type]
            side = parent.add_legal(best[0])  # type: ignore[arg-type]
            side.comment = f"[%eval {eval_text(before.score, turns[index - 1])}]"
            tail = side
            for move in best[1:]:
                tail = tail.add_legal(move)  # type: ignore[arg-type]
    game.headers["Annotator"] = "kradan"
    return game


__all__ = ["annotate", "eval_text", "score_value"]
