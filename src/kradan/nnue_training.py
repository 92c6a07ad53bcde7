"""Train the evaluation network on self-play positions (``kradan tune train``, docs/tuning.md).

The network is the one :mod:`kradan.engine.kernels.nnue` runs, trained here in floating point
and then rounded to its integer weights. Each position's target, for the side to move, blends
the engine's score and the game's result, ``lam * sigmoid(score / S) + (1 - lam) * result``,
where ``S`` (centipawns per unit of the logistic) is 420 by default, the scale the Texel fit
found for the weighted evaluation (``K`` = 0.412, docs/tuning.md), so that the network's
centipawns are the search's (its margins are set in them), or fitted to the data on request;
the loss is the squared error of ``sigmoid(network / S)``.
Positions are also seen mirrored left to right, which the rules of every game this network
plays leave unchanged. Adam, on minibatches, compiled with numba and split over the cores.
A twentieth of the games is held out, and the loss on them is reported after every epoch.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from .engine.network import (
    FEATURES,
    MAX_PIECES,
    NET_ROWS,
    OUTPUT_LIMIT,
    QA,
    QB,
    ROW_BIAS,
    ROW_OUT_THEM,
    ROW_OUT_US,
    SCALE,
    Network,
)
from .errors import UsageError
from .selfplay import TrainingPositions

#: the hidden layer's width of a new network
DEFAULT_HIDDEN = 128
#: centipawns a unit of the logistic that turns scores into expected results: the scale of
#: the weighted evaluation's Texel fit, 400 / (0.412 ln 10)
DEFAULT_SCALE = 420.0


@numba.njit(cache=True)
def _mirror_rows(rows: np.ndarray, flip: int, out: np.ndarray) -> int:
    """White's rows of a position into ``out`` (files mirrored when ``flip`` is 7); returns
    how many."""
    n = 0
    for k in range(rows.shape[0]):
        f = rows[k]
        if f < 0:
            break
        out[n] = (f // 64) * 64 + ((f % 64) ^ flip)
        n += 1
    return n


@numba.njit(cache=True)
def _black_row(f: int) -> int:
    kind = f // 64
    return ((kind + 6) % 12) * 64 + ((f % 64) ^ 63)


@numba.njit(cache=True)
def _forward(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: float,
    white: np.ndarray,
    n: int,
    stm: int,
    acc: np.ndarray,
) -> float:
    """The network's output (before SCALE) for the rows ``white[:n]``; ``acc[0]`` and
    ``acc[1]`` are left holding the side to move's and the other side's accumulators."""
    hidden = w1.shape[1]
    for i in range(hidden):
        acc[0, i] = b1[i]
        acc[1, i] = b1[i]
    for k in range(n):
        fw = white[k]
        fb = _black_row(fw)
        us, them = (fw, fb) if stm == 0 else (fb, fw)
        for i in range(hidden):
            acc[0, i] += w1[us, i]
            acc[1, i] += w1[them, i]
    out = b2
    for side in range(2):
        for i in range(hidden):
            a = min(max(acc[side, i], 0.0), 1.0)
            out += a * a * w2[side * hidden + i]
    return out


@numba.njit(cache=True)
def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@numba.njit(cache=True, parallel=True)
def _batch_gradient(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: float,
    features: np.ndarray,
    stm: np.ndarray,
    targets: np.ndarray,
    order: np.ndarray,
    start: int,
    stop: int,
    s: float,
    g1: np.ndarray,
    gb1: np.ndarray,
    g2: np.ndarray,
    gb2: np.ndarray,
    epoch: int,
) -> float:
    """The loss summed over ``order[start:stop]`` and its gradient, in one slot of ``g1``,
    ``gb1``, ``g2``, ``gb2`` per thread (summed by the caller)."""
    threads = g1.shape[0]
    hidden = w1.shape[1]
    count = stop - start
    losses = np.zeros(threads)
    for t in numba.prange(threads):
        g1[t] = 0.0
        gb1[t] = 0.0
        g2[t] = 0.0
        gb2[t] = 0.0
        acc = np.empty((2, hidden))
        rows = np.empty(MAX_PIECES, dtype=np.int64)
        for j in range(start + t * count // threads, start + (t + 1) * count // threads):
            index = order[j]
            flip = 7 if (index + epoch) % 2 == 1 else 0
            n = _mirror_rows(features[index], flip, rows)
            side = stm[index]
            out = _forward(w1, b1, w2, b2, rows, n, side, acc)
            p = _sigmoid(out * SCALE / s)
            error = p - targets[index]
            losses[t] += error * error
            grad = 2.0 * error * p * (1.0 - p) * SCALE / s
            gb2[t] += grad
            for k in range(n):
                fw = rows[k]
                fb = _black_row(fw)
                us, them = (fw, fb) if side == 0 else (fb, fw)
                for i in range(hidden):
                    a = acc[0, i]
                    if 0.0 < a < 1.0:
                        g1[t, us, i] += grad * w2[i] * 2.0 * a
                    a = acc[1, i]
                    if 0.0 < a < 1.0:
                        g1[t, them, i] += grad * w2[hidden + i] * 2.0 * a
            for side_index in range(2):
                for i in range(hidden):
                    a = acc[side_index, i]
                    clipped = min(max(a, 0.0), 1.0)
                    g2[t, side_index * hidden + i] += grad * clipped * clipped
                    if 0.0 < a < 1.0:
                        gb1[t, i] += grad * w2[side_index * hidden + i] * 2.0 * a
    return float(losses.sum())


@numba.njit(cache=True)
def _adam(
    weights: np.ndarray, grad: np.ndarray, m: np.ndarray, v: np.ndarray, rate: float, step: int
) -> None:
    beta1, beta2 = 0.9, 0.999
    flat_w, flat_g, flat_m, flat_v = weights.ravel(), grad.ravel(), m.ravel(), v.ravel()
    c1 = 1.0 - beta1**step
    c2 = 1.0 - beta2**step
    for i in range(flat_w.size):
        flat_m[i] = beta1 * flat_m[i] + (1.0 - beta1) * flat_g[i]
        flat_v[i] = beta2 * flat_v[i] + (1.0 - beta2) * flat_g[i] * flat_g[i]
        flat_w[i] -= rate * (flat_m[i] / c1) / (np.sqrt(flat_v[i] / c2) + 1e-8)


@numba.njit(cache=True, parallel=True)
def _loss(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: float,
    features: np.ndarray,
    stm: np.ndarray,
    targets: np.ndarray,
    s: float,
) -> float:
    """The mean squared error over every position (not mirrored)."""
    n = len(targets)
    hidden = w1.shape[1]
    errors = np.zeros(n)
    for index in numba.prange(n):
        acc = np.empty((2, hidden))
        rows = np.empty(MAX_PIECES, dtype=np.int64)
        count = _mirror_rows(features[index], 0, rows)
        out = _forward(w1, b1, w2, b2, rows, count, stm[index], acc)
        error = _sigmoid(out * SCALE / s) - targets[index]
        errors[index] = error * error
    return float(errors.mean()) if n else 0.0


@dataclass
class FloatNetwork:
    """The network in floating point, as trained."""

    w1: np.ndarray  # (FEATURES, H)
    b1: np.ndarray  # (H,)
    w2: np.ndarray  # (2H,): the side to move's, then the other side's
    b2: np.ndarray  # (1,)

    @classmethod
    def random(cls, hidden: int, seed: int) -> FloatNetwork:
        rng = np.random.default_rng(seed)
        return cls(
            rng.normal(0.0, 0.05, (FEATURES, hidden)),
            rng.uniform(0.1, 0.6, hidden),
            rng.normal(0.0, 0.1, 2 * hidden),
            np.zeros(1),
        )


def side_to_move_view(positions: TrainingPositions) -> tuple[np.ndarray, np.ndarray]:
    """Each position's score and result for the side to move."""
    sign = np.where(positions.stm == 0, 1.0, -1.0)
    results = np.where(positions.stm == 0, positions.results, 1.0 - positions.results)
    return positions.scores.astype(np.float64) * sign, results.astype(np.float64)


def fit_scale(scores: np.ndarray, results: np.ndarray) -> float:
    """The ``S`` (centipawns per unit) for which ``sigmoid(score / S)`` best predicts the
    results, by a golden-section search over 50-2000."""
    low, high = np.log(50.0), np.log(2000.0)

    def error(log_s: float) -> float:
        return float(np.mean((1.0 / (1.0 + np.exp(-scores / np.exp(log_s))) - results) ** 2))

    ratio = (np.sqrt(5.0) - 1.0) / 2.0
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    for _ in range(60):
        if error(a) < error(b):
            high, b = b, a
            a = high - ratio * (high - low)
        else:
            low, a = a, b
            b = low + ratio * (high - low)
    return float(np.exp((low + high) / 2.0))


@dataclass
class TrainingReport:
    epoch: int
    train_loss: float
    held_out_loss: float


def train(
    positions: TrainingPositions,
    *,
    hidden: int = DEFAULT_HIDDEN,
    epochs: int = 20,
    batch: int = 16384,
    rate: float = 0.001,
    lam: float = 0.85,
    scale: float | None = DEFAULT_SCALE,
    seed: int = 1,
    held_out: float = 0.05,
    report: Callable[[TrainingReport], None] | None = None,
) -> tuple[FloatNetwork, float]:
    """The trained network and its scale ``S`` (``scale``, or fitted when ``None``). The
    rate falls tenfold over the last third of the epochs.

    :raises UsageError: for no positions or settings out of range.
    """
    if len(positions) == 0:
        raise UsageError("no training positions")
    if not 0.0 <= lam <= 1.0 or epochs < 1 or batch < 1 or hidden < 1:
        raise UsageError(f"lam {lam} must lie in [0, 1]; epochs, batch and hidden 1 or more")
    if scale is not None and scale <= 0:
        raise UsageError(f"a scale of {scale} centipawns: it must be above 0")
    scores, results = side_to_move_view(positions)
    s = fit_scale(scores, results) if scale is None else float(scale)
    targets = lam / (1.0 + np.exp(-scores / s)) + (1.0 - lam) * results
    rng = np.random.default_rng(seed)
    games = np.unique(positions.games)
    kept_out = set(rng.choice(games, size=int(len(games) * held_out), replace=False).tolist())
    out_mask = np.isin(positions.games, list(kept_out))
    train_index = np.flatnonzero(~out_mask)
    test_index = np.flatnonzero(out_mask)
    features = positions.features.astype(np.int64)
    stm = positions.stm.astype(np.int64)
    net = FloatNetwork.random(hidden, seed)
    threads = numba.get_num_threads()
    g1 = np.zeros((threads, FEATURES, hidden))
    gb1 = np.zeros((threads, hidden))
    g2 = np.zeros((threads, 2 * hidden))
    gb2 = np.zeros(threads)
    parameters = (net.w1, net.b1, net.w2, net.b2)
    moments = [(np.zeros_like(w), np.zeros_like(w)) for w in parameters]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(train_index)
        epoch_rate = rate if epoch < epochs - epochs // 3 else rate / 10.0
        total = 0.0
        for start in range(0, len(order), batch):
            stop = min(start + batch, len(order))
            total += _batch_gradient(
                net.w1, net.b1, net.w2, float(net.b2[0]), features, stm, targets, order, start,
                stop, s, g1, gb1, g2, gb2, epoch,
            )  # fmt: skip
            size = stop - start
            step += 1
            gradients = (g1.sum(0), gb1.sum(0), g2.sum(0), gb2.sum(0, keepdims=True))
            for weights, grad, (m, v) in zip(parameters, gradients, moments, strict=True):
                _adam(weights, grad / size, m, v, epoch_rate, step)
        if report is not None:
            test_loss = _loss(net.w1, net.b1, net.w2, float(net.b2[0]), features[test_index],
                              stm[test_index], targets[test_index], s)  # fmt: skip
            report(TrainingReport(epoch + 1, total / max(1, len(order)), float(test_loss)))
    return net, s


def quantize(net: FloatNetwork, sets: tuple[str, ...], about: str) -> Network:
    """The integer network the engine runs (:mod:`kradan.engine.kernels.nnue`)."""
    hidden = net.w1.shape[1]
    weights = np.zeros((NET_ROWS, hidden), dtype=np.int32)
    weights[:FEATURES] = np.round(net.w1 * QA)
    weights[ROW_BIAS] = np.round(net.b1 * QA)
    limit = OUTPUT_LIMIT - 1
    weights[ROW_OUT_US] = np.clip(np.round(net.w2[:hidden] * QB), -limit, limit)
    weights[ROW_OUT_THEM] = np.clip(np.round(net.w2[hidden:] * QB), -limit, limit)
    return Network(weights, round(float(net.b2[0]) * QA * QB), sets, about)


__all__ = [
    "DEFAULT_HIDDEN",
    "DEFAULT_SCALE",
    "FloatNetwork",
    "TrainingReport",
    "fit_scale",
    "quantize",
    "train",
]
