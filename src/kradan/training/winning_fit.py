"""Fit the winning-chance curve of :mod:`kradan.engine.winning` to games: positions scored by
the engine, each labelled with its game's result.

The curve is ``E(cp) = 1 / (1 + exp(-scale * cp))``: White's expected score from White's
score in centipawns. :func:`fit_scale` finds the ``scale`` of greatest likelihood, a result
``y`` (1, 1/2 or 0) counting as ``y`` wins and ``1 - y`` losses of a Bernoulli trial, so that a
draw (by the count, by repetition, by agreement) pulls the curve toward 1/2 as much as half a
win and half a loss would. The log-likelihood is concave in ``scale``: Newton's method finds
its one maximum in a few steps.

The positions come from ``kradan tune selfplay``
(:class:`kradan.runners.selfplay.TrainingPositions`: White's score and White's result of quiet
positions); ``benchmarks/fit_winning_curve.py`` runs it and prints the table of docs/review.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from ..runners.selfplay import TrainingPositions

#: where Newton's method starts (a pawn of 100 cp worth about 60 % from an even game)
START_SCALE = 0.004
#: steps at most, and the change of ``scale`` below which it stops
STEPS, TOLERANCE = 100, 1e-10
#: a scale beyond this (a centipawn deciding the game) means the data fix none
MAX_SCALE = 1.0


@dataclass(frozen=True)
class Fit:
    """A fitted curve: ``scale`` per centipawn, its standard error, the positions and games
    it stood on, the share of drawn positions and the mean log-likelihood per position."""

    scale: float
    stderr: float
    positions: int
    games: int
    draws: float
    log_likelihood: float

    @property
    def pawn(self) -> float:
        """White's expected score a pawn (100 cp) up, by the curve."""
        return 1.0 / (1.0 + math.exp(-100.0 * self.scale))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # = 1 / (1 + exp(-x)), without overflow


def log_likelihood(cp: np.ndarray, results: np.ndarray, scale: float) -> float:
    """The mean log-likelihood of ``results`` under the curve of ``scale`` at scores ``cp``."""
    x = scale * np.asarray(cp, dtype=np.float64)
    y = np.asarray(results, dtype=np.float64)
    # log(sigmoid(x)) = -log1p(exp(-x)), written stably with logaddexp
    return float(np.mean(-y * np.logaddexp(0.0, -x) - (1.0 - y) * np.logaddexp(0.0, x)))


def fit_scale(cp: np.ndarray, results: np.ndarray, games: int | None = None) -> Fit:
    """The ``scale`` of greatest likelihood for White's ``results`` (1, 1/2, 0) at White's
    scores ``cp``.

    :raises ValueError: for no positions, arrays of different lengths, a result outside 0..1,
        or data that fix no scale (every score 0, or every result one way: no finite maximum).
    """
    x = np.asarray(cp, dtype=np.float64)
    y = np.asarray(results, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"scores and results differ in shape: {x.shape} and {y.shape}")
    if len(x) == 0:
        raise ValueError("no positions to fit")
    if np.any((y < 0) | (y > 1)):
        raise ValueError(f"results must lie in 0..1, not {float(y[(y < 0) | (y > 1)][0])!r}")
    if not np.any(x):
        raise ValueError("every score is 0: the data fix no scale")
    scale = START_SCALE
    unsettled = ValueError("the fit did not settle: do the results fix a finite scale?")
    for _ in range(STEPS):
        p = _sigmoid(scale * x)
        gradient = float(np.sum((y - p) * x))
        curvature = float(np.sum(p * (1.0 - p) * x * x))
        if not curvature > 0.0 or abs(scale) > MAX_SCALE:  # the curve became a step
            raise unsettled
        step = gradient / curvature
        # a step that would cross zero or run away is shortened: the maximum lies on the way
        while abs(step) > 4 * abs(scale) + 1e-3:
            step /= 2
        scale += step
        if abs(step) < TOLERANCE:
            break
    else:
        raise unsettled
    p = _sigmoid(scale * x)
    information = float(np.sum(p * (1.0 - p) * x * x))
    stderr = 1.0 / math.sqrt(information) if information > 0 else math.inf
    return Fit(scale, stderr, len(x), games if games is not None else 0,
               float(np.mean(y == 0.5)), log_likelihood(x, y, scale))  # fmt: skip


@dataclass(frozen=True)
class Bin:
    """Positions with White's score in ``low..high``: how many, White's mean result there,
    and the mean the curve expects."""

    low: float
    high: float
    positions: int
    observed: float
    expected: float


def calibration(cp: np.ndarray, results: np.ndarray, scale: float, edges: list[float]) -> list[Bin]:
    """The observed and the fitted mean result in each bin of White's score between ``edges``
    (bins with no position are left out): the table that shows how well the curve fits."""
    x = np.asarray(cp, dtype=np.float64)
    y = np.asarray(results, dtype=np.float64)
    found = []
    for low, high in pairwise(edges):
        inside = (x >= low) & (x < high)
        count = int(np.sum(inside))
        if count:
            found.append(Bin(low, high, count, float(np.mean(y[inside])),
                             float(np.mean(_sigmoid(scale * x[inside])))))  # fmt: skip
    return found


def selfplay_positions(paths: list[str | Path]) -> tuple[np.ndarray, np.ndarray, int]:
    """White's scores, White's results and the number of games of the self-play files
    ``paths`` (``kradan tune selfplay``), joined.

    :raises UsageError: for a file that holds no self-play positions.
    """
    scores, results, games = [], [], 0
    for path in paths:
        found = TrainingPositions.load(path)
        scores.append(found.scores.astype(np.float64))
        results.append(found.results.astype(np.float64))
        games += len(np.unique(found.games))
    return np.concatenate(scores), np.concatenate(results), games


__all__ = ["Bin", "Fit", "calibration", "fit_scale", "log_likelihood", "selfplay_positions"]
