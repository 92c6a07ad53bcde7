"""A game review written into its PGN: each move's evaluation as lichess writes it
(``[%eval 0.35]``, White's view in pawns, or ``[%eval #-3]``), the marks as NAGs (``$6`` ?!,
``$2`` ?, ``$4`` ??), the engine's better line as a variation after each marked move, and each
side's summary as the game's first comment."""

from __future__ import annotations

from ..engine.types import MATE_VALUE, Score
from ..engine.winning import NAGS
from ..errors import InvalidArgumentError
from ..pgn import Game
from .review import Review, SideSummary, limit_text


def eval_text(score: Score) -> str | None:
    """``[%eval ...]``'s value for White's ``score``; ``None`` for a game won or lost on the
    board (its result says so)."""
    if score.mate is not None:
        return None if score.mate == 0 else f"#{score.mate}"
    cp = score.cp or 0
    if abs(cp) >= MATE_VALUE:
        return None
    return f"{cp / 100:.2f}"


def summary_text(side: SideSummary) -> str:
    """``2 inaccuracies, 1 mistake, 0 blunders, average loss 4.1``."""

    def counted(count: int, word: str, plural: str) -> str:
        return f"{count} {word if count == 1 else plural}"

    return (f"{counted(side.inaccuracies, 'inaccuracy', 'inaccuracies')}, "
            f"{counted(side.mistakes, 'mistake', 'mistakes')}, "
            f"{counted(side.blunders, 'blunder', 'blunders')}, "
            f"average loss {side.average_loss:.1f}")  # fmt: skip


def write_review(game: Game, review: Review) -> Game:
    """Write ``review`` into ``game``'s main line (in place) and return ``game``.

    :raises InvalidArgumentError: when the review is of a game with another number of moves.
    """
    nodes = list(game.mainline())
    if len(nodes) != len(review.plies):
        raise InvalidArgumentError(
            f"a review of {len(review.plies)} moves cannot annotate a game of {len(nodes)}"
        )
    for node, ply in zip(nodes, review.plies, strict=True):
        shown = eval_text(ply.score)
        if shown is not None:
            node.comment = f"[%eval {shown}] {node.comment}".strip()
        if ply.mark is None or ply.best is None:
            continue
        node.nags.add(NAGS[ply.mark])
        parent = node.parent
        assert parent is not None
        board = parent.board()
        moves = []
        for uci in ply.best.line:
            move = board.parse_uci(uci)
            moves.append(move)
            board.push(move)
        if not moves or parent.has_variation(moves[0]):
            continue
        side = parent.add_legal(moves[0])
        best_shown = eval_text(ply.best.score)
        if best_shown is not None:
            side.comment = f"[%eval {best_shown}]"
        tail = side
        for move in moves[1:]:
            tail = tail.add_legal(move)
    summary = (f"kradan review, {limit_text(review.limit)}: White {summary_text(review.white)}; "
               f"Black {summary_text(review.black)}")  # fmt: skip
    game.comment = f"{summary} {game.comment}".strip()
    game.headers["Annotator"] = "kradan"
    return game


__all__ = ["eval_text", "summary_text", "write_review"]
