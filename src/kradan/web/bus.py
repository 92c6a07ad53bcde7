"""What one ``kradan serve`` process tells the others (:class:`Bus`).

A game's changes need no bus: its requests and websockets all reach the one process that
serves it (:mod:`.forward`). What lives beside the games in each process's memory does: the
lobby's seeks (:mod:`.lobby`) are posted on one process and listed, polled and taken on any.
:class:`LocalBus` is the bus of a process that is alone: there is nobody to tell, so it
does nothing, and a single process works as it always did. :class:`PostgresBus` sends each
message as a PostgreSQL ``NOTIFY`` on the process's own connection (:mod:`.owners`), which the
other processes ``LISTEN`` to. A payload must stay under PostgreSQL's 8,000 bytes: messages are
small (a seek, an id); a larger one is not sent, and logged. PostgreSQL does not keep
notifications: a process that was not listening has missed them, as a process that was not
running has missed the seeks of the minutes before it started.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from .owners import Owners

log = logging.getLogger("kradan.web")

#: the most bytes of a message's JSON (PostgreSQL refuses a payload of 8,000 or more)
MAX_PAYLOAD = 7900
#: the prefix of the channels, one per topic
CHANNEL_PREFIX = "kradan_"

Handler = Callable[[dict[str, Any]], None]


class Bus(Protocol):
    """Messages between the processes of one database, by topic."""

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Tell the other processes ``message`` (a small JSON object) on ``topic``."""
        ...

    async def subscribe(self, topic: str, handler: Handler) -> None:
        """Call ``handler`` with each message another process publishes on ``topic``."""
        ...


class LocalBus:
    """The bus of a process that is alone: nobody else to tell."""

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        return None

    async def subscribe(self, topic: str, handler: Handler) -> None:
        return None


class PostgresBus:
    """``NOTIFY`` and ``LISTEN`` on the connection of ``owners``; a process does not hear its
    own messages."""

    def __init__(self, owners: Owners) -> None:
        self.owners = owners

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        payload = json.dumps(message, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            log.warning("a %s message of %d bytes was not sent", topic, len(payload))
            return
        await self.owners.notify(CHANNEL_PREFIX + topic, payload)

    async def subscribe(self, topic: str, handler: Handler) -> None:
        def heard(payload: str) -> None:
            try:
                handler(json.loads(payload))
            except Exception:
                log.exception("a %s message could not be taken: %.200s", topic, payload)

        await self.owners.listen(CHANNEL_PREFIX + topic, heard)


__all__ = ["Bus", "Handler", "LocalBus", "PostgresBus"]
