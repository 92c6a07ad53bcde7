"""kradan serve's broadcast: every subscriber gets the game, a failing one is dropped, and one
that stops reading cannot hold up the others for longer than the limit."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web stack (kradan[web]) is not installed")

from kradan.web.hall import send_to_all


def run(work: Coroutine[Any, Any, None]) -> None:
    """``work`` in an event loop of its own thread (Playwright's sync API, used by the browser
    tests in this process, may hold a running loop in this one)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, work).result()


class Socket:
    """A subscriber that keeps what it is sent; ``stuck`` never finishes a send, ``broken``
    raises as a closed connection does."""

    def __init__(self, name: str, *, stuck: bool = False, broken: bool = False) -> None:
        self.name = name
        self.stuck = stuck
        self.broken = broken
        self.received: list[str] = []

    async def send_text(self, text: str) -> None:
        if self.broken:
            raise RuntimeError(f"{self.name}: the connection is closed")
        if self.stuck:
            await asyncio.Event().wait()
        self.received.append(text)


def test_every_subscriber_gets_the_message() -> None:
    sockets = {Socket("a"), Socket("b"), Socket("c")}
    subscribers = set(sockets)
    run(send_to_all(subscribers, "hello"))
    assert all(socket.received == ["hello"] for socket in sockets)
    assert subscribers == sockets


def test_a_failing_subscriber_is_dropped_and_the_rest_still_get_it() -> None:
    good = [Socket(f"good {n}") for n in range(4)]
    broken = Socket("broken", broken=True)
    subscribers = {*good, broken}
    run(send_to_all(subscribers, "move"))
    assert subscribers == set(good)
    assert all(socket.received == ["move"] for socket in good)


def test_a_stuck_subscriber_is_dropped_after_the_limit_and_the_rest_still_get_it() -> None:
    good = [Socket(f"good {n}") for n in range(4)]
    stuck = Socket("stuck", stuck=True)
    subscribers = {*good, stuck}

    async def send() -> None:
        # the outer limit fails the test rather than hang it, were the stuck one waited on
        async with asyncio.timeout(10):
            await send_to_all(subscribers, "move", limit=0.05)

    run(send())
    assert subscribers == set(good)
    assert all(socket.received == ["move"] for socket in good)
    assert stuck.received == []
