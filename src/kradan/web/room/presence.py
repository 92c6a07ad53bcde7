"""Who is at a game: per seat, the websockets open on it and since when it has had none.

A seat is *here* while at least one websocket that proved the seat (its cookie, or an ``auth``
message) is open. Without one it is *away*, counted from when its last socket closed, or from
its last seated request over HTTP (a move, an action, a look at the game with its token: an
HTTP-only client shows it is there by asking), or from when the server loaded the game. The
times come from one clock (:data:`Now`) that the server passes in, so that tests can move it.
"""

from __future__ import annotations

from collections.abc import Callable

#: the clock of presence and of the dead-game rules: seconds, as :func:`time.time` counts them
Now = Callable[[], float]


class Presence:
    """The seats' connections in one room, and when each was last known to be there."""

    def __init__(self, now: Now) -> None:
        self.now = now
        loaded = now()
        #: the websockets open on each seat
        self.sockets = {True: 0, False: 0}
        #: since when each seat has been away (meaningful while it has no socket)
        self.away_since = {True: loaded, False: loaded}
        #: when each seat was first known to be there since the game was loaded (``None``: not yet)
        self.seen_at: dict[bool, float | None] = {True: None, False: None}

    def seen(self, color: bool) -> None:
        """``color``'s seat showed it is there now (a request, a socket): its absence, if any,
        counts from now."""
        now = self.now()
        if self.seen_at[color] is None:
            self.seen_at[color] = now
        self.away_since[color] = now

    def arrive(self, color: bool) -> None:
        """A websocket of ``color``'s seat opened."""
        self.seen(color)
        self.sockets[color] += 1

    def leave(self, color: bool) -> None:
        """A websocket of ``color``'s seat closed: the seat is away from now if it was the
        last."""
        self.sockets[color] = max(0, self.sockets[color] - 1)
        if not self.sockets[color]:
            self.away_since[color] = self.now()

    def here(self, color: bool) -> bool:
        """Whether ``color``'s seat has a websocket open."""
        return self.sockets[color] > 0

    def away_for(self, color: bool) -> float:
        """Seconds ``color``'s seat has been away (0 while it is here)."""
        return 0.0 if self.here(color) else max(0.0, self.now() - self.away_since[color])


__all__ = ["Now", "Presence"]
