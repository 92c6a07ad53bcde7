"""The sequential probability ratio test of engine matches: is the first player at least
``elo1`` stronger (H1) or at most ``elo0`` (H0)? Stop as soon as the games say so.

Games come in pairs: one opening played with each colour. A pair scores 0, 1/2, 1, 3/2 or 2
points for the first player, and the five counts (the pentanomial) capture how the two games
of a pair are alike, which makes the test sharper than counting single games.

The log-likelihood ratio is the generalised SPRT's: for each hypothesis, the pentanomial
distribution most likely to give the counts seen, among those whose expected score (a
pair's points as a fraction of 2) is ``s0`` or ``s1``, the scores of ``elo0`` and ``elo1``
(logistic Elo); the LLR is the log of the ratio of the two likelihoods. That constrained
maximum is ``p_i = f_i / (1 + lambda (x_i - s))``, with ``f_i`` the observed frequencies,
``x_i`` the bins' scores and ``lambda`` the root that makes the mean ``s`` (found by
bisection). For many pairs this is close to the familiar normal approximation
``pairs (s1 - s0) (2 mu - s0 - s1) / (2 var)``; for few, it stays modest where that one
explodes (one won pair is no proof). Each count gets a pseudo-count of 1/1000 first, so that
every bin can carry probability. H1 is accepted when the LLR reaches
``log((1 - beta) / alpha)``, H0 when it falls to ``log(beta / (1 - alpha))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import UsageError

#: a pair's points for the first player, by pentanomial bin
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
#: added to every bin before the statistics
PSEUDO_COUNT = 1e-3


def expected_score(elo: float) -> float:
    """The score of a player ``elo`` (logistic Elo) stronger than its opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True)
class SprtBounds:
    """The hypotheses (``elo0`` < ``elo1``) and the error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> SprtBounds:
        """``"ELO0,ELO1"`` or ``"ELO0,ELO1,ALPHA,BETA"``.

        :raises UsageError: for anything else, naming ``text``.
        """
        words = [word.strip() for word in text.split(",")]
        try:
            numbers = [float(word) for word in words]
        except ValueError:
            numbers = []
        if len(numbers) not in (2, 4) or not all(math.isfinite(n) for n in numbers):
            raise UsageError(f"--sprt {text!r}: expected ELO0,ELO1[,ALPHA,BETA]")
        bounds = cls(*numbers)
        if bounds.elo0 >= bounds.elo1:
            raise UsageError(f"--sprt {text!r}: ELO0 must be below ELO1")
        if not (0 < bounds.alpha < 0.5 and 0 < bounds.beta < 0.5):
            raise UsageError(f"--sprt {text!r}: ALPHA and BETA must be between 0 and 0.5")
        return bounds

    @property
    def lower(self) -> float:
        """The LLR at which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)


@dataclass
class Sprt:
    """The test's state: feed it pairs (:meth:`add_pair`), ask :attr:`verdict`."""

    bounds: SprtBounds
    #: pairs by the first player's points: 0, 1/2, 1, 3/2, 2
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)

    def add_pair(self, points: float) -> None:
        """One opening's two games, ``points`` (0..2) for the first player."""
        bin_ = round(points * 2)
        if not 0 <= bin_ <= 4 or abs(points * 2 - bin_) > 1e-9:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {points!r}")
        self.pentanomial[bin_] += 1

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 after the pairs so far."""
        if self.pairs == 0:
            return 0.0
        counts = [count + PSEUDO_COUNT for count in self.pentanomial]
        total = sum(counts)
        frequencies = [count / total for count in counts]
        under_h0 = _most_likely(frequencies, expected_score(self.bounds.elo0))
        under_h1 = _most_likely(frequencies, expected_score(self.bounds.elo1))
        return sum(
            count * math.log(p1 / p0)
            for count, p0, p1 in zip(counts, under_h0, under_h1, strict=True)
        )

    @property
    def verdict(self) -> str | None:
        """``"H1"`` (the first player is at least ``elo1`` stronger), ``"H0"`` (at most
        ``elo0``), or ``None`` while undecided."""
        value = self.llr()
        if value >= self.bounds.upper:
            return "H1"
        if value <= self.bounds.lower:
            return "H0"
        return None

    def summary(self) -> str:
        """One line: the LLR and its bounds, the hypotheses and the pentanomial counts."""
        b = self.bounds
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[self.verdict]
        return (
            f"SPRT [{b.elo0:g}, {b.elo1:g}] (alpha {b.alpha:g}, beta {b.beta:g}): LLR "
            f"{self.llr():.2f} ({b.lower:.2f}, {b.upper:.2f}), {verdict}; pairs "
            f"{self.pairs}, pentanomial {self.pentanomial}"
        )


def _most_likely(frequencies: list[float], mean: float) -> list[float]:
    """The pentanomial distribution nearest (most likely) to ``frequencies`` whose expected
    score is ``mean`` (0 < mean < 1): ``f_i / (1 + lambda (x_i - mean))``."""
    shifts = [points / 2 - mean for points in PAIR_POINTS]

    def excess(lam: float) -> float:  # decreasing in lam; zero at the answer
        return sum(f * d / (1 + lam * d) for f, d in zip(frequencies, shifts, strict=True))

    # every denominator stays positive strictly between these two
    low, high = -1 / max(shifts), -1 / min(shifts)
    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    lam = (low + high) / 2
    # at the root these sum to 1: sum f (1 + lam d - lam d) / (1 + lam d) = 1 - lam * excess
    return [f / (1 + lam * d) for f, d in zip(frequencies, shifts, strict=True)]


__all__ = ["PAIR_POINTS", "Sprt", "SprtBounds", "expected_score"]
