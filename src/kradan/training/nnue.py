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

from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from ..engine.kernels import nnue_training as K
from ..engine.network import (
    FEATURES,
    NET_ROWS,
    OUTPUT_LIMIT,
    QA,
    QB,
    ROW_BIAS,
    ROW_OUT_THEM,
    ROW_OUT_US,
    Network,
)
from ..errors import UsageError
from ..runners.selfplay import TrainingPositions

#: the hidden layer's width of a new network
DEFAULT_HIDDEN = 128
#: centipawns a unit of the logistic that turns scores into expected results: the scale of
#: the weighted evaluation's Texel fit, 400 / (0.412 ln 10)
DEFAULT_SCALE = 420.0


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

    @classmethod
    def from_network(cls, network: Network) -> FloatNetwork:
        """The floating-point form of an integer network, so that training can go on from
        it: :func:`quantize` gives ``network``'s weights back exactly."""
        weights = network.weights.astype(np.float64)
        return cls(
            weights[:FEATURES] / QA,
            weights[ROW_BIAS] / QA,
            np.concatenate([weights[ROW_OUT_US], weights[ROW_OUT_THEM]]) / QB,
            np.array([network.bias / (QA * QB)]),
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
    init: FloatNetwork | None = None,
) -> tuple[FloatNetwork, float]:
    """The trained network and its scale ``S`` (``scale``, or fitted when ``None``). The
    rate falls tenfold over the last third of the epochs. Training starts from random
    weights of width ``hidden``, or from a copy of ``init`` (whose width then rules): a new
    generation of self-play goes on from the network that played it, without the games
    that taught that network.

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
    if init is None:
        net = FloatNetwork.random(hidden, seed)
    else:
        net = FloatNetwork(init.w1.copy(), init.b1.copy(), init.w2.copy(), init.b2.copy())
        hidden = net.w1.shape[1]
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
            total += K.batch_gradient(
                net.w1, net.b1, net.w2, float(net.b2[0]), features, stm, targets, order, start,
                stop, s, g1, gb1, g2, gb2, epoch,
            )  # fmt: skip
            size = stop - start
            step += 1
            gradients = (g1.sum(0), gb1.sum(0), g2.sum(0), gb2.sum(0, keepdims=True))
            for weights, grad, (m, v) in zip(parameters, gradients, moments, strict=True):
                K.adam(weights, grad / size, m, v, epoch_rate, step)
        if report is not None:
            test_loss = K.loss(net.w1, net.b1, net.w2, float(net.b2[0]), features[test_index],
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
