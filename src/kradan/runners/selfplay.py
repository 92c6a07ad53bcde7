"""Self-play games that teach the evaluation network: positions, the engine's score of each
and the game's result (``kradan tune selfplay``, docs/tuning.md).

Each game starts from a random opening (:func:`kradan.training.tuning.random_openings`) and is
played by kradan's engine against itself on a node budget a move, in this process, with no
protocol between. A position is kept when it is quiet enough for a static evaluation to judge:
the side to move is not in check, holds nothing in hand, and its best move is neither a capture
nor a promotion, and the score is not a mate. A game ends by the rules (counts included, a
repetition as a draw), when both sides' searches have seen a mate for two moves each, or
after ``MAX_PLIES`` as a draw.

The positions are stored as White's input rows of the network (:mod:`kradan.engine.kernels.nnue`),
the side to move, White's score and White's result, in an ``.npz`` file that
:mod:`kradan.training.nnue` reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..board import Board
from ..engine.kernels.nnue import MAX_PIECES, white_features
from ..engine.types import Limit
from ..errors import UsageError

#: a game still going after this many plies is scored a draw
MAX_PLIES = 400
#: plies each side's search must report a mate before the game is scored as that mate
MATE_PLIES = 2
#: scores beyond this many centipawns are clipped (a lead that large is a won game)
SCORE_CLIP = 3000


@dataclass(frozen=True)
class SelfPlayTask:
    """One game to play: the variant, the opening's UCI moves and the node budget a move."""

    variant: str
    opening: tuple[str, ...]
    nodes: int


@dataclass
class TrainingPositions:
    """Positions for the network: White's input rows (``-1`` pads each row of
    ``features`` to 32), the side to move (0 White, 1 Black), White's score in centipawns,
    White's result (1, 1/2, 0), and the game each came from."""

    features: np.ndarray  # (n, MAX_PIECES) int16
    stm: np.ndarray  # (n,) int8
    scores: np.ndarray  # (n,) int16
    results: np.ndarray  # (n,) float32
    games: np.ndarray  # (n,) int32

    def __len__(self) -> int:
        return len(self.results)

    @classmethod
    def empty(cls) -> TrainingPositions:
        return cls(
            np.zeros((0, MAX_PIECES), dtype=np.int16), np.zeros(0, dtype=np.int8),
            np.zeros(0, dtype=np.int16), np.zeros(0, dtype=np.float32),
            np.zeros(0, dtype=np.int32),
        )  # fmt: skip

    @classmethod
    def join(cls, parts: list[TrainingPositions]) -> TrainingPositions:
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.stm for p in parts]),
            np.concatenate([p.scores for p in parts]),
            np.concatenate([p.results for p in parts]),
            np.concatenate([p.games for p in parts]),
        )

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, features=self.features, stm=self.stm, scores=self.scores,
                            results=self.results, games=self.games)  # fmt: skip

    @classmethod
    def load(cls, path: str | Path) -> TrainingPositions:
        """:raises UsageError: when the file holds something else."""
        try:
            with np.load(path) as data:
                found = cls(data["features"], data["stm"], data["scores"], data["results"],
                            data["games"])  # fmt: skip
        except (OSError, ValueError, KeyError) as error:
            raise UsageError(
                f"cannot read training positions from {str(path)!r}: {error}"
            ) from error
        if found.features.ndim != 2 or found.features.shape[1] != MAX_PIECES:
            raise UsageError(f"{str(path)!r} holds no network training positions")
        return found


_searchers: Any = None


def _searcher(board: Board) -> Any:
    """This process's search (made once: a worker plays many games)."""
    global _searchers
    if _searchers is None:
        from ..engine.searchers import Searchers

        _searchers = Searchers(16)
    return _searchers.for_board(board)


def _quiet(board: Board, move: Any) -> bool:
    return not (board.is_check() or board.hand(True) or board.hand(False)
                or board.is_capture(move) or move.promotion is not None)  # fmt: skip


def play_game(task: SelfPlayTask) -> TrainingPositions:
    """Play one self-play game and return its kept positions (``games`` all 0)."""
    from ..games import KernelBoard, new_board

    played = new_board(task.variant)
    if not isinstance(played, KernelBoard):
        raise UsageError(f"self-play for the network plays the chess family, not {task.variant}")
    board = cast(Board, played)  # the chess kernel's board
    for uci in task.opening:
        board.push_uci(uci)
    searcher = _searcher(board)
    searcher.clear()
    rows: list[np.ndarray] = []
    sides: list[int] = []
    scores: list[int] = []
    buffer = np.zeros(MAX_PIECES, dtype=np.int16)
    result = 0.5
    mates = 0  # plies in a row whose search saw a mate for the same winner
    winner = 0.5
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = 0.5 if outcome.winner is None else float(outcome.winner)
            break
        if board.ply >= MAX_PLIES:
            break
        found = searcher.best_move(board, Limit(nodes=task.nodes))
        if found.move is None or found.info is None:
            break
        score = found.info.score
        white_sign = 1 if board.turn else -1
        if score.mate is not None:
            side_wins = 1.0 if (score.mate > 0) == board.turn else 0.0
            mates = mates + 1 if side_wins == winner else 1
            winner = side_wins
            if mates >= 2 * MATE_PLIES:
                result = winner
                break
        else:
            mates, winner = 0, 0.5
            if _quiet(board, found.move):
                bbs, _ = board.kernel_arrays()
                buffer[:] = -1
                white_features(bbs, buffer)
                rows.append(buffer.copy())
                sides.append(0 if board.turn else 1)
                clipped = max(-SCORE_CLIP, min(SCORE_CLIP, score.cp or 0))
                scores.append(white_sign * clipped)
        board.push(found.move)
    n = len(rows)
    return TrainingPositions(
        np.array(rows, dtype=np.int16).reshape(n, MAX_PIECES),
        np.array(sides, dtype=np.int8),
        np.array(scores, dtype=np.int16),
        np.full(n, result, dtype=np.float32),
        np.zeros(n, dtype=np.int32),
    )


def play_games(tasks: list[SelfPlayTask], executor: Any) -> Iterator[tuple[int, TrainingPositions]]:
    """Each task's game on ``executor``, as each finishes: ``(task index, positions)`` with
    ``games`` set to the task index."""
    from ..executors import run_tasks

    for index, positions in run_tasks(executor, play_game, tasks):
        positions.games[:] = index
        yield index, positions


__all__ = ["MAX_PLIES", "SelfPlayTask", "TrainingPositions", "play_game", "play_games"]
