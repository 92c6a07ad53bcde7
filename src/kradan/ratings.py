"""Glicko-2 ratings, as Mark Glickman defines them ("Example of the Glicko-2 system",
glicko.net/glicko/glicko2.pdf): a rating, its deviation (how unsure it is) and its volatility
(how erratic the player is).

:func:`rate` is the paper's steps 1-8 for one player over one rating period. ``kradan serve``
rates each game as a period of its own, as lichess does (:func:`rate_game`: both players from
their ratings before the game), and lets a deviation grow with the time a player has not played
(:func:`aged`). The paper's worked example is a test (tests/test_ratings.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: Glicko-2's scale: a rating point is this many of Glicko-2's internal units
SCALE = 173.7178
#: a new player: rating, deviation and volatility (the paper's suggestions)
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: the system constant: how much the volatility may change (the paper: 0.3 to 1.2); lichess's
TAU = 0.75
#: the bounds kept on a deviation (a rating never looks surer than MIN, nor less sure than new)
MIN_DEVIATION, MAX_DEVIATION = 45.0, START_DEVIATION
#: the most a volatility may become (an unbounded one lets a few upsets swing a rating wildly)
MAX_VOLATILITY = 0.1
#: the convergence tolerance of the volatility's iteration (the paper's epsilon)
EPSILON = 1e-6
#: a deviation at or above this marks a provisional rating (shown with a "?")
PROVISIONAL = 110.0


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating, on the familiar scale (1500 for a new player)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score (0..1) Glicko-2 expects of ``player`` against ``opponent``."""
    return _expected(
        (player.rating - START_RATING) / SCALE,
        (opponent.rating - START_RATING) / SCALE,
        opponent.deviation / SCALE,
    )


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the volatility that solves the paper's f(x) = 0, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Rating,
    games: Iterable[tuple[Rating, float]],
    *,
    tau: float = TAU,
    bounded: bool = True,
) -> Rating:
    """``player``'s rating after one period of ``games``: (opponent's rating before the period,
    ``player``'s score: 1, 1/2 or 0). No games: only the deviation grows. ``bounded`` keeps the
    deviation and volatility within :data:`MIN_DEVIATION`..:data:`MAX_DEVIATION` and
    :data:`MAX_VOLATILITY` (the paper has no bounds: ``bounded=False`` is its exact system)."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    played = [((o.rating - START_RATING) / SCALE, o.deviation / SCALE, s) for o, s in games]
    if not played:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return _bounded(Rating(player.rating, phi_star * SCALE, sigma), bounded)
    inverse_v = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in played:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma_new = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return _bounded(Rating(mu_new * SCALE + START_RATING, phi_new * SCALE, sigma_new), bounded)


def _bounded(rating: Rating, bounded: bool) -> Rating:
    if not bounded:
        return rating
    return Rating(
        rating.rating,
        min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation)),
        min(MAX_VOLATILITY, rating.volatility),
    )


def rate_game(white: Rating, black: Rating, white_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them, each rated from the other's rating
    before it (the game a rating period of its own)."""
    return rate(white, [(black, white_score)]), rate(black, [(white, 1.0 - white_score)])


def aged(rating: Rating, periods: float) -> Rating:
    """``rating`` after ``periods`` rating periods without a game: the deviation grows as
    Glicko-2's step 6 grows it, once per period (a fraction of a period counts in proportion),
    never beyond a new player's."""
    if periods <= 0:
        return rating
    phi = rating.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * rating.volatility * rating.volatility) * SCALE
    return Rating(rating.rating, min(MAX_DEVIATION, grown), rating.volatility)


__all__ = [
    "START_RATING",
    "TAU",
    "Rating",
    "aged",
    "expected_score",
    "rate",
    "rate_game",
]
