"""The compiled parts of training the evaluation network (:mod:`kradan.training.nnue`): the
network's forward pass in floating point, the loss and its gradient over a minibatch split
between threads, and Adam's step."""

from __future__ import annotations

import math

import numba
import numpy as np

from ..network import MAX_PIECES, SCALE


@numba.njit(cache=True)
def mirror_rows(rows: np.ndarray, flip: int, out: np.ndarray) -> int:
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
def black_row(f: int) -> int:
    kind = f // 64
    return ((kind + 6) % 12) * 64 + ((f % 64) ^ 63)


@numba.njit(cache=True)
def forward(
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
        fb = black_row(fw)
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
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@numba.njit(cache=True, parallel=True)
def batch_gradient(
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
            n = mirror_rows(features[index], flip, rows)
            side = stm[index]
            out = forward(w1, b1, w2, b2, rows, n, side, acc)
            p = sigmoid(out * SCALE / s)
            error = p - targets[index]
            losses[t] += error * error
            grad = 2.0 * error * p * (1.0 - p) * SCALE / s
            gb2[t] += grad
            for k in range(n):
                fw = rows[k]
                fb = black_row(fw)
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
def adam(
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
def loss(
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
        count = mirror_rows(features[index], 0, rows)
        out = forward(w1, b1, w2, b2, rows, count, stm[index], acc)
        error = sigmoid(out * SCALE / s) - targets[index]
        errors[index] = error * error
    return float(errors.mean()) if n else 0.0


__all__ = ["adam", "batch_gradient", "black_row", "forward", "loss", "mirror_rows", "sigmoid"]
