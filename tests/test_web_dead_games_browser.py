"""Games nobody plays in Chromium, two people in two browsers (issue 46): "Abort" before the
first moves ends the game for both; when one closes the page of a started game, the other reads
"Your opponent left the game" with a countdown, then claims the win. The server runs with a
claim wait of two seconds (``create_app(dead_games=...)``), so nothing sleeps long."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_support import (
    Page,
    needs_browser,
    play,
    screenshot,
    start_server,
    stop_server,
    wait_until,
)

pytestmark = needs_browser

#: the app with short waits: two seconds before a claim, a minute for a first move
SHORT_WAITS = """
import sys, uvicorn
from kradan.web.room.dead_rules import DeadGameRules
from kradan.web.server import create_app
rules = DeadGameRules(first_move_s=60, claim_min_s=2, claim_max_s=2)
app = create_app(sys.argv[1], dead_games=rules)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


@pytest.fixture(scope="module")
def short_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from benchmarks.loopback import free_port

    folder = tmp_path_factory.mktemp("dead-games")
    port = free_port()
    process = start_server(
        f"sqlite+aiosqlite:///{folder / 'games.db'}", port, folder / "server.log", SHORT_WAITS
    )
    yield f"http://127.0.0.1:{port}"
    stop_server(process)


def _two_players(page: Page, other: Page, server: str) -> None:
    """A game between people: ``page`` makes it (White), ``other`` takes the invitation."""
    made = page.request.post(server + "/api/games", data={"opponent": "human"})
    assert made.ok, made.text()
    created = made.json()
    page.goto(f"{server}/games/{created['id']}")
    other.goto(f"{server}/join/{created['id']}?seat={created['invite']}")
    for each in (page, other):
        wait_until(each, "window.kradan.board && window.kradan.game && window.kradan.socketOpen")
        each.evaluate("window.kradan.board.set({animation: {enabled: false}})")


def test_abort_before_the_first_moves(
    page: Page, short_server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    other = browser.new_context(**browser_context_args).new_page()
    try:
        _two_players(page, other, short_server)
        abort = page.locator("[data-action=abort]")
        abort.wait_for(state="visible")
        wait_until(page, "document.querySelector('#waits').textContent.includes('60')")
        play(page, "e3e4")  # Black may still abort until it has moved
        other.locator("[data-action=abort]").click()
        for each in (page, other):
            wait_until(each, "window.kradan.game.status === 'ended'")
            assert each.text_content("#status") == "Game aborted"
            assert each.locator("[data-action=abort]").is_hidden()
        assert page.evaluate("window.kradan.game.result") == "*"
    finally:
        other.context.close()


def test_claim_the_win_when_the_opponent_left(
    page: Page, short_server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    other = browser.new_context(**browser_context_args).new_page()
    try:
        _two_players(page, other, short_server)
        play(page, "e3e4")
        wait_until(other, "window.kradan.game.ply === 1")
        play(other, "d6d5")
        wait_until(page, "window.kradan.game.ply === 2")
        assert page.locator("[data-action=abort]").is_hidden()
        assert page.locator("#waits").is_hidden()  # both are here
        other.close()  # Black leaves
        notice = page.locator("#waits")
        notice.wait_for(state="visible")
        assert "Your opponent left the game" in (notice.text_content() or "")
        claim = page.locator("[data-action=claim_win]")
        claim.wait_for(state="visible", timeout=10_000)
        screenshot(page, "claim-the-win")
        claim.click()
        wait_until(page, "window.kradan.game.status === 'ended'")
        game = page.evaluate("window.kradan.game")
        assert (game["result"], game["termination"]) == ("1-0", "abandoned")
        assert "1-0" in (page.text_content("#status") or "")
        assert page.locator("#waits").is_hidden() and claim.is_hidden()
    finally:
        other.context.close()
