"""Glicko-2 (issue 46 item 3): Glickman's worked example gives his published figures, and the
bounds and aging kradan adds behave."""

from __future__ import annotations

import pytest

from kradan.ratings import (
    MAX_DEVIATION,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    Rating,
    aged,
    expected_score,
    rate,
    rate_game,
)

#: the example of glicko.net/glicko/glicko2.pdf: a 1500/200 player (volatility 0.06, tau 0.5)
#: beats a 1400/30 player and loses to 1550/100 and 1700/300 players
PLAYER = Rating(1500, 200, 0.06)
GAMES = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example() -> None:
    after = rate(PLAYER, GAMES, tau=0.5, bounded=False)
    # the paper prints r' = 1464.06, RD' = 151.52, sigma' = 0.05999; full precision gives
    # 1464.05 / 151.52 / 0.059996
    assert after.rating == pytest.approx(1464.06, abs=0.05)
    assert after.deviation == pytest.approx(151.52, abs=0.05)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_examples_expected_scores() -> None:
    # the paper's E column: 0.639, 0.432, 0.303
    scores = [expected_score(PLAYER, opponent) for opponent, _ in GAMES]
    assert scores == pytest.approx([0.639, 0.432, 0.303], abs=0.001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(PLAYER, [], tau=0.5, bounded=False)
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    assert after.deviation == pytest.approx((200**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_win_raises_the_winner_and_lowers_the_loser_by_the_same_expectation() -> None:
    white, black = rate_game(Rating(), Rating(), 1.0)
    assert white.rating > 1500 > black.rating
    assert white.rating - 1500 == pytest.approx(1500 - black.rating)
    assert white.deviation < 350 and black.deviation < 350
    drawn_white, drawn_black = rate_game(Rating(1600, 80), Rating(1400, 80), 0.5)
    assert drawn_white.rating < 1600 and drawn_black.rating > 1400  # the stronger drew


def test_bounds_keep_the_deviation_and_volatility_in_range() -> None:
    many = [(Rating(1500, 30), 0.5)] * 40  # a period this full would make it surer than 45
    assert rate(Rating(1500, 60), many, bounded=False).deviation < MIN_DEVIATION
    assert rate(Rating(1500, 60), many).deviation == MIN_DEVIATION
    wild = rate(Rating(1500, 350, 0.099), [(Rating(2500, 50), 1.0)] * 5)
    assert wild.volatility <= MAX_VOLATILITY
    assert rate(Rating(), []).deviation == MAX_DEVIATION


def test_aging_widens_the_deviation_up_to_a_new_players() -> None:
    rating = Rating(1700, 60, 0.06)
    assert aged(rating, 0) == rating
    one, ten = aged(rating, 1), aged(rating, 10)
    assert 60 < one.deviation < ten.deviation and one.rating == 1700
    assert aged(rating, 10**9).deviation == MAX_DEVIATION
    assert not Rating(1500, 60).provisional and Rating().provisional
