"""The waits of games nobody plays, in one place (:mod:`.abandon` applies them): how long a
side has for its first move, how long a game may stay unstarted, and how long an opponent must
have been gone before the game can be claimed. ``kradan.web.create_app(dead_games=...)`` takes
other values (the browser tests use short ones)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Clock


@dataclass(frozen=True)
class DeadGameRules:
    """How long a game may wait for its first moves, and for a player who left."""

    #: seconds for each side's first move, between people (lichess: 15-35 s by speed)
    first_move_s: float = 30.0
    #: seconds after which any game not yet started is aborted (an invitation never taken)
    unstarted_s: float = 24 * 3600.0
    #: the wait before a claim: a tenth of the game's estimated length (the base time and 40
    #: increments), at least ``claim_min_s`` and at most ``claim_max_s``; ``claim_max_s``
    #: without a clock
    claim_min_s: float = 20.0
    claim_max_s: float = 120.0

    def claim_wait(self, clock: Clock | None) -> float:
        """Seconds an opponent must have been gone before a claim: with the defaults 20 s at
        30 s+0, 1+0 and 3+0, 26 s at 3+2, 42 s at 5+3, 80 s at 10+5, and 120 s from 15+10 on
        and without a clock."""
        if clock is None:
            return self.claim_max_s
        estimate = (clock.base_ms + 40 * clock.increment_ms) / 1000
        return min(self.claim_max_s, max(self.claim_min_s, estimate / 10))


__all__ = ["DeadGameRules"]
