"""How much PGN one client address may import into the archive: a token bucket of bytes per
address (``POST /api/archive``, :mod:`.archive_api`).

A bucket holds up to a minute's worth of bytes (``per_minute``) and fills at that rate. An
import is let in while its address's bucket is not in debt; the bytes it sends are then taken
from the bucket as they are read (all of ``Content-Length`` at once when the request announces
it), so one import may take the bucket into debt, up to the size of a body, and the address's
next import waits until the debt is paid off. An import is never cut off half way, and a
client that sends many at once pays for each one it announced.

The address is the connection's (``request.client.host``): behind a reverse proxy every
client shares the proxy's bucket. The number of buckets kept is bounded: full ones are
forgotten first.

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


class ImportLimit:
    """The token buckets of the addresses that import: ``per_minute`` bytes a minute each
    (a bucket holds as much); at most ``most_addresses`` buckets are kept."""

    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        most_addresses: int = 10_000,
    ) -> None:
        if per_minute <= 0:
            raise ValueError(f"per_minute {per_minute!r}: expected a positive number of bytes")
        self.per_minute = per_minute
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
            bucket = self._buckets[address] = _Bucket(float(self.per_minute), now)
        else:
            gained = (now - bucket.when) * self.per_second
            bucket.tokens = min(float(self.per_minute), bucket.tokens + gained)
            bucket.when = now
        return bucket

    def _forget(self, now: float) -> None:
        """Make room: drop the buckets that are full again, else the oldest half."""
        full = [
            address
            for address, bucket in self._buckets.items()
            if bucket.tokens + (now - bucket.when) * self.per_second >= self.per_minute
        ]
        for address in full or list(self._buckets)[: max(1, len(self._buckets) // 2)]:
            del self._buckets[address]

    def wait(self, address: str) -> int | None:
        """``None`` when ``address`` may import now, else the whole seconds until it may."""
        bucket = self._bucket(address)
        if bucket.tokens >= 0:
            return None
        return max(1, math.ceil(-bucket.tokens / self.per_second))

    def take(self, address: str, size: int) -> None:
        """Count ``size`` bytes imported from ``address``."""
        self._bucket(address).tokens -= size


def amount_text(size: int) -> str:
    """A number of bytes as people read it: ``64 MiB``, ``1.5 KiB``, ``900 B``."""
    if size >= 1 << 20:
        return f"{size / (1 << 20):.3g} MiB"
    if size >= 1 << 10:
        return f"{size / (1 << 10):.3g} KiB"
    return f"{size} B"


__all__ = ["DEFAULT_IMPORT_RATE", "ImportLimit", "amount_text"]
