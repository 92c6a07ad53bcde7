"""Fit the evaluation's weights to game results: the Texel method (docs/tuning.md).

1. :func:`collect` replays games (self-play, or any PGN of the game) and keeps their *quiet*
   positions: the side to move is not in check, has no capture, holds nothing in hand, and
   none of the evaluation's endgame knowledge applies, so that the static evaluation is
   exactly a weighted sum of counts (:mod:`kradan.engine.kernels.features`). Each position
   is labelled with its game's result for White (1, 1/2 or 0).
2. :func:`fit` finds the scale ``K`` that best turns the current evaluation into an expected
   score, ``1 / (1 + 10 ** (-K * eval / 400))``, then every weight at once by least squares
   on the results (scipy's L-BFGS, with the exact gradient), with a small pull toward the
   starting weights for counts the games rarely show. A tenth of the games is held out to
   measure the fit on positions it did not see.

Self-play games for step 1 start from :func:`random_openings` (``kradan tune openings``), so
that thousands of games between two equal players are thousands of different games.

The result is a weights file for ``kradan:weights=FILE`` (and, once a match has shown it
stronger, for ``kradan/engine/eval_weights.json``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..board import Board
from ..engine import weights as W
from ..engine.kernels.evaluate import evaluate
from ..engine.kernels.features import features
from ..errors import UsageError
from ..games import KernelBoard

#: the games of each weight set
SET_OF_GAME = {"makruk": "makruk", "cambodian": "ouk", "karouk": "ouk", "sittuyin": "sittuyin"}
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
#: how a game may end that says nothing of its positions: lost on the clock (a fast
#: self-play game on a busy machine), so its positions are left out
UNTOLD = {"time forfeit"}


@dataclass
class Positions:
    """Labelled quiet positions of one weight set: ``counts[i] @ weights`` is position ``i``'s
    evaluation for White, ``results[i]`` its game's result for White, ``games[i]`` the
    game it came from (positions of one game stay together when some are held out)."""

    set_name: str
    counts: np.ndarray  # (n, N_PARAMS) float32
    results: np.ndarray  # (n,) float32
    games: np.ndarray  # (n,) int32

    def __len__(self) -> int:
        return len(self.results)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, set_name=self.set_name, counts=self.counts,
                            results=self.results, games=self.games)  # fmt: skip

    @classmethod
    def load(cls, path: str | Path) -> Positions:
        with np.load(path) as data:
            positions = cls(str(data["set_name"]), data["counts"], data["results"], data["games"])
        if positions.counts.shape[1:] != (W.N_PARAMS,):
            raise UsageError(f"{str(path)!r} holds counts of another evaluation; collect again")
        return positions


def random_openings(variant: str, count: int, plies: int, seed: int) -> list[list[str]]:
    """``count`` different lines of ``plies`` random legal moves from the start of ``variant``
    (UCI moves), none ending in check or in the game's end, in a random order: the starts of
    self-play games for tuning. The same ``seed`` gives the same lines."""
    from ..games import CheckBoard, new_board

    if count < 1 or plies < 1:
        raise UsageError(f"--count {count} and --plies {plies} must be 1 or more")
    rng = random.Random(seed)
    found: dict[str, None] = {}
    for _attempt in range(50 * count):
        board = new_board(variant)
        line = []
        for _ply in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            board.push(move)
            line.append(move.uci())
        checked = isinstance(board, CheckBoard) and board.is_check()  # Alquerque has no check
        if len(line) == plies and not board.is_game_over() and not checked:
            found[" ".join(line)] = None
            if len(found) == count:
                lines = [text.split() for text in found]
                rng.shuffle(lines)
                return lines
    raise UsageError(f"found only {len(found)} different {plies}-ply lines of {variant}, "
                     f"not {count}")  # fmt: skip


def quiet_counts(board: Board, row: np.ndarray, out: np.ndarray) -> bool:
    """Fill ``out`` with the position's counts and say whether the position is quiet (see
    the module's text); ``row`` is the weight set the evaluation is checked with."""
    if board.is_check() or board.hand(True) or board.hand(False):
        return False
    moves = list(board.legal_moves)
    if not moves or any(board.is_capture(move) for move in moves):
        return False
    bbs, info = board.kernel_arrays()
    features(bbs, info, out)
    white = float(row @ out)
    # the evaluation rounds its blend of the phases down to a whole centipawn
    return abs(int(evaluate(bbs, info, row)) - (white if board.turn else -white)) < 1.0


def collect(games: Iterable[Any], set_name: str, *, skip_plies: int = 8) -> Positions:
    """The quiet positions of ``games`` (PGN games, :class:`kradan.pgn.Game`) of the weight set
    ``set_name``, after the first ``skip_plies`` plies of each (the opening book's), labelled
    with each game's result. Games of other sets, without a result, or lost on time, are left
    out."""
    if set_name not in W.SETS:
        raise UsageError(f"unknown weight set {set_name!r}: the sets are {list(W.SETS)}")
    row = W.DEFAULT[W.SETS.index(set_name)]
    counts: list[np.ndarray] = []
    results: list[float] = []
    origins: list[int] = []
    out = np.zeros(W.N_PARAMS)
    for number, game in enumerate(games):
        result = RESULTS.get(game.headers.get("Result", "*"))
        if result is None or game.errors:  # a damaged game (its position too) is left out
            continue
        if game.headers.get("Termination") in UNTOLD:
            continue
        played = game.board()
        if not isinstance(played, KernelBoard):  # Alquerque: no weight set
            continue
        board = cast(Board, played)  # the chess kernel's board
        if SET_OF_GAME.get(board.variant.name) != set_name:
            continue
        for ply, move in enumerate(game.mainline_moves()):
            if ply >= skip_plies and quiet_counts(board, row, out):
                counts.append(out.astype(np.float32))
                results.append(result)
                origins.append(number)
            board.push(move)
    return Positions(
        set_name,
        np.array(counts, dtype=np.float32).reshape(-1, W.N_PARAMS),
        np.array(results, dtype=np.float32),
        np.array(origins, dtype=np.int32),
    )


def expected_score(evaluation: np.ndarray, k: float) -> np.ndarray:
    """White's expected score at ``evaluation`` centipawns (the logistic curve of Elo)."""
    return 1.0 / (1.0 + np.power(10.0, -k * evaluation / 400.0))


def mean_squared_error(positions: Positions, row: np.ndarray, k: float) -> float:
    """How far the expected scores of ``row``'s evaluations lie from the results."""
    predicted = expected_score(positions.counts.astype(np.float64) @ row, k)
    return float(np.mean((positions.results - predicted) ** 2))


@dataclass
class Fit:
    """A fitted weight row and how well it and the starting row predict the results."""

    row: np.ndarray
    k: float
    train_before: float
    train_after: float
    held_out_before: float
    held_out_after: float
    positions: int
    held_out: int
    iterations: int


def _split(positions: Positions, held_out: float, seed: int) -> tuple[Positions, Positions]:
    """Hold out about ``held_out`` of the games, every position of each."""
    games = np.unique(positions.games)
    rng = np.random.default_rng(seed)
    chosen = rng.choice(games, size=max(1, round(held_out * len(games))), replace=False)
    mask = np.isin(positions.games, chosen)

    def part(keep: np.ndarray) -> Positions:
        return Positions(positions.set_name, positions.counts[keep], positions.results[keep],
                         positions.games[keep])  # fmt: skip

    return part(~mask), part(mask)


#: the pull toward the starting weights that Makruk's 2,795 self-play games chose by the
#: held-out error (docs/tuning.md): weaker pulls gained under a thousandth of error while the
#: weights drifted from the scale the search's margins are set in
DEFAULT_L2 = 3e-9


def fit(
    positions: Positions,
    start: np.ndarray,
    *,
    l2: float = DEFAULT_L2,
    held_out: float = 0.1,
    seed: int = 1,
    max_iterations: int = 500,
) -> Fit:
    """Fit every weight of ``start`` to the results of ``positions`` (see the module's text).
    ``l2`` weighs the pull toward ``start`` per squared centipawn of each weight."""
    from scipy.optimize import minimize, minimize_scalar

    if len(np.unique(positions.games)) < 2:
        raise UsageError("a fit needs the positions of at least two games")
    train, test = _split(positions, held_out, seed)
    counts = train.counts.astype(np.float64)
    results = train.results.astype(np.float64)
    start = start.astype(np.float64)
    evaluation = counts @ start
    k = float(minimize_scalar(lambda k: np.mean((results - expected_score(evaluation, k)) ** 2),
                              bounds=(0.05, 10.0), method="bounded").x)  # fmt: skip
    slope = k * math.log(10.0) / 400.0

    size = len(results)

    def loss(row: np.ndarray) -> tuple[float, np.ndarray]:
        # summed, not averaged, over the positions: L-BFGS's stopping tests are absolute, and
        # a mean's gradient (a millionth per centipawn) would stop it at the first step
        predicted = expected_score(counts @ row, k)
        error = predicted - results
        pull = row - start
        value = float(error @ error + size * l2 * (pull @ pull))
        gradient = 2.0 * slope * (counts.T @ (error * predicted * (1.0 - predicted)))
        return value, gradient + 2.0 * size * l2 * pull

    found = minimize(loss, start, jac=True, method="L-BFGS-B",
                     options={"maxiter": max_iterations})  # fmt: skip
    row = np.round(found.x).astype(np.int64)
    return Fit(
        row=row,
        k=k,
        train_before=mean_squared_error(train, start, k),
        train_after=mean_squared_error(train, row.astype(np.float64), k),
        held_out_before=mean_squared_error(test, start, k),
        held_out_after=mean_squared_error(test, row.astype(np.float64), k),
        positions=len(train),
        held_out=len(test),
        iterations=int(found.nit),
    )
