"""kradan.engine.winning (the winning-chance curve and the marks) and
kradan.training.winning_fit (fitting the curve to games)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kradan.engine.types import MATE_VALUE, Score
from kradan.engine.winning import (
    BLUNDER,
    INACCURACY,
    LOST,
    MISTAKE,
    SCALES,
    WinningCurve,
    curve_for,
    expected_from_cp,
    judge,
    mark_for,
)
from kradan.training.winning_fit import calibration, fit_scale, log_likelihood

CURVE = WinningCurve(0.004)


def test_the_curve_is_a_logistic_of_the_score_and_mates_are_certain() -> None:
    assert CURVE.expected(Score(cp=0)) == 0.5
    assert CURVE.expected(Score(cp=100)) == pytest.approx(1 / (1 + math.exp(-0.4)))
    assert CURVE.expected(Score(cp=-100)) == pytest.approx(1 - CURVE.expected(Score(cp=100)))
    assert CURVE.expected(Score(mate=3)) == 1.0 and CURVE.expected(Score(mate=-3)) == 0.0
    assert CURVE.expected(Score(mate=0)) == 0.0  # mated on the board
    assert CURVE.expected(Score(cp=MATE_VALUE)) == 1.0  # won on the board (a first check)
    assert expected_from_cp(-1e6, 0.004) == 0.0 and expected_from_cp(1e6, 0.004) == 1.0
    assert CURVE.centipawns(CURVE.expected(Score(cp=250))) == pytest.approx(250)
    assert CURVE.centipawns(1.0) == math.inf and CURVE.centipawns(0.0) == -math.inf


def test_every_game_has_a_fitted_curve() -> None:
    from kradan.games import game_names

    assert set(game_names()) <= set(SCALES)
    assert curve_for("makruk").scale == SCALES["makruk"] > 0
    assert curve_for("no such game").scale > 0


@pytest.mark.parametrize(
    ("loss", "mark"),
    [(0.0, None), (INACCURACY - 1e-9, None), (INACCURACY, "?!"), (MISTAKE, "?"),
     (BLUNDER, "??"), (1.0, "??")],
)  # fmt: skip
def test_marks_by_the_drop_in_expected_score(loss: float, mark: str | None) -> None:
    assert mark_for(loss) == mark


def test_a_move_that_allows_mate_is_a_blunder() -> None:
    verdict = judge(CURVE, Score(cp=0), Score(mate=-1), was_best=False, only_move=False)
    assert verdict.best == 0.5 and verdict.played == 0.0 and verdict.loss == 0.5
    assert verdict.mark == "??"


def test_the_best_move_the_only_move_and_decided_games_get_no_mark() -> None:
    # the best move loses nothing, even where the next search scores it lower
    best = judge(CURVE, Score(cp=300), Score(cp=-300), was_best=True, only_move=False)
    assert best.loss == 0.0 and best.mark is None
    only = judge(CURVE, Score(cp=0), Score(mate=-1), was_best=False, only_move=True)
    assert only.loss == 0.5 and only.mark is None
    # lost before the move: a worse move in a lost game is no news
    lost = judge(CURVE, Score(cp=-1500), Score(mate=-2), was_best=False, only_move=False)
    assert lost.best <= LOST and lost.mark is None
    # still won after it: a slower win is no mistake
    won = judge(CURVE, Score(mate=2), Score(cp=1500), was_best=False, only_move=False)
    assert won.played >= 1 - LOST and won.mark is None
    # a move that turns a won game into an even one is marked
    thrown = judge(CURVE, Score(mate=2), Score(cp=0), was_best=False, only_move=False)
    assert thrown.loss == 0.5 and thrown.mark == "??"


def test_a_better_score_after_the_move_is_no_loss() -> None:
    verdict = judge(CURVE, Score(cp=0), Score(cp=40), was_best=False, only_move=False)
    assert verdict.loss == 0.0 and verdict.mark is None


# --- the fit ---------------------------------------------------------------------------------


def synthetic_games(scale: float, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores and results whose mean at each score is the curve of ``scale``, with many draws
    near an even score (as Makruk's counts give): a draw with probability min(E, 1 - E)."""
    rng = np.random.default_rng(seed)
    cp = rng.uniform(-800, 800, count)
    p = 1 / (1 + np.exp(-scale * cp))
    draw = np.minimum(p, 1 - p)
    u = rng.uniform(size=count)
    results = np.where(u < p - draw / 2, 1.0, np.where(u < p + draw / 2, 0.5, 0.0))
    return cp, results


@pytest.mark.parametrize("scale", [0.001, 0.004])
def test_the_fit_recovers_a_known_scale(scale: float) -> None:
    cp, results = synthetic_games(scale, 40_000, seed=7)
    assert 0.15 < np.mean(results == 0.5) < 0.6  # draws are counted, as halves
    fit = fit_scale(cp, results, games=40)
    assert abs(fit.scale - scale) < 4 * fit.stderr and fit.stderr < 0.05 * scale
    assert fit.positions == 40_000 and fit.games == 40
    # it is the maximum of the likelihood
    for other in (fit.scale * 0.9, fit.scale * 1.1):
        assert log_likelihood(cp, results, other) < fit.log_likelihood
    assert fit.pawn == pytest.approx(1 / (1 + math.exp(-100 * fit.scale)))


def test_the_calibration_table_compares_observed_and_fitted_results() -> None:
    cp, results = synthetic_games(0.004, 20_000, seed=3)
    bins = calibration(cp, results, 0.004, [-800, -200, 200, 800, 2000])
    assert [b.low for b in bins] == [-800, -200, 200]  # the empty bin is left out
    assert sum(b.positions for b in bins) == 20_000
    for b in bins:
        assert abs(b.observed - b.expected) < 0.02


@pytest.mark.parametrize(
    ("cp", "results", "words"),
    [([], [], "no positions"), ([1, 2], [1], "differ in shape"),
     ([0, 0], [1, 0], "every score is 0"), ([100, -100], [1.5, 0], "0..1"),
     ([100, 200, -50], [1, 1, 0], "did not settle")],
)  # fmt: skip
def test_data_that_fix_no_scale_are_refused(
    cp: list[float], results: list[float], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        fit_scale(np.array(cp, dtype=float), np.array(results, dtype=float))
