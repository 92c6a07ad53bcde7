"""Token buckets per client address, for what one client may do a minute: import PGN into the
archive (bytes, ``POST /api/archive``, :mod:`.archive_api`) and create games (one token a game,
:mod:`.limits`).

A bucket holds up to ``capacity`` tokens (a minute's worth, ``per_minute``, unless told
otherwise) and fills at ``per_minute`` a minute. :meth:`TokenBuckets.wait` says whether an
address has ``need`` tokens now, and if not how long until it has; :meth:`TokenBuckets.take`
spends them. The archive lets an import in while its address's bucket is not in debt
(``need`` 0) and takes the bytes as they are read (all of ``Content-Length`` at once when the
request announces it), so one import may take the bucket into debt, up to the size of a body,
and the address's next import waits until the debt is paid off: an import is never cut off
half way, and a client that sends many at once pays for each one it announced. Creating a
game needs a whole token (``need`` 1), so a burst of ``capacity`` games goes through at once
and then one every ``60 / per_minute`` seconds.

The address is the one uvicorn reports (``request.client.host``): the connection's, or the
``X-Forwarded-For`` of a reverse proxy on the same machine. The number of buckets kept is
bounded: full ones are forgotten first.

>>> clock = [0.0]
>>> limit = ImportLimit(1000, clock=lambda: clock[0])
>>> limit.wait("10.0.0.1") is None
True
>>> limit.take("10.0.0.1", 1500)  # 500 bytes of debt: 30 s at 1000 bytes a minute
>>> limit.wait("10.0.0.1"), limit.wait("10.0.0.2")
(30, None)
>>> clock[0] = 30.0
>>> limit.wait("10.0.0.1") is None
True
>>> games = TokenBuckets(30, capacity=2, clock=lambda: clock[0])  # 30 a minute, 2 at once
>>> games.take("10.0.0.1"); games.take("10.0.0.1")
>>> games.wait("10.0.0.1", need=1)  # then one token every 2 s
2
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

#: the bytes of PGN one address may import a minute, unless told otherwise: 64 MiB (about
#: 100 000 games of 60 moves)
DEFAULT_IMPORT_RATE = 64 << 20


@dataclass
class _Bucket:
    tokens: float
    when: float


class TokenBuckets:
    """The token buckets of the client addresses: each fills at ``per_minute`` tokens a
    minute and holds ``capacity`` (default: ``per_minute``); at most ``most_addresses``
    buckets are kept.

    :raises ValueError: for a rate or capacity that is not positive
    """

    def __init__(
        self,
        per_minute: float,
        *,
        capacity: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        most_addresses: int = 10_000,
    ) -> None:
        if not per_minute > 0:
            raise ValueError(f"per_minute {per_minute!r}: expected a positive rate")
        if capacity is not None and not capacity > 0:
            raise ValueError(f"capacity {capacity!r}: expected a positive number of tokens")
        self.per_minute = per_minute
        self.capacity = float(per_minute if capacity is None else capacity)
        self.clock = clock
        self.most_addresses = most_addresses
        self._buckets: dict[str, _Bucket] = {}

    @property
    def per_second(self) -> float:
        return self.per_minute / 60

    def _bucket(self, address: str) -> _Bucket:
        """``address``'s bucket, filled up to now."""
        now = self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.most_addresses:
                self._forget(now)
            bucket = self._buckets[address] = _Bucket(self.capacity, now)
        else:
            gained = (now - bucket.when) * self.per_second
            bucket.tokens = min(self.capacity, bucket.tokens + gained)
            bucket.when = now
        return bucket

    def _forget(self, now: float) -> None:
        """Make room: drop the buckets that are full again, else the oldest half."""
        full = [
            address
            for address, bucket in self._buckets.items()
            if bucket.tokens + (now - bucket.when) * self.per_second >= self.capacity
        ]
        for address in full or list(self._buckets)[: max(1, len(self._buckets) // 2)]:
            del self._buckets[address]

    def wait(self, address: str, need: float = 0) -> int | None:
        """``None`` when ``address``'s bucket holds ``need`` tokens now, else the whole
        seconds until it will."""
        bucket = self._bucket(address)
        if bucket.tokens >= need:
            return None
        return max(1, math.ceil((need - bucket.tokens) / self.per_second))

    def take(self, address: str, amount: float = 1) -> None:
        """Spend ``amount`` tokens of ``address``'s bucket (it may go into debt)."""
        self._bucket(address).tokens -= amount


class ImportLimit(TokenBuckets):
    """The archive's import limit: ``per_minute`` bytes of PGN a minute per address, a
    bucket holding a minute's worth."""


def amount_text(size: float) -> str:
    """A number of bytes as people read it: ``64 MiB``, ``1.5 KiB``, ``900 B``."""
    if size >= 1 << 20:
        return f"{size / (1 << 20):.3g} MiB"
    if size >= 1 << 10:
        return f"{size / (1 << 10):.3g} KiB"
    return f"{size:g} B"


__all__ = ["DEFAULT_IMPORT_RATE", "ImportLimit", "TokenBuckets", "amount_text"]
