"""The game's chat in Chromium (issue 46 item 7): two players talk in their room, a markup
message shows as the letters typed, a signed-in spectator talks in the spectators' room that the
players do not see until the game ends."""

from __future__ import annotations

import itertools
from typing import Any

from tests.browser_support import Page, needs_browser, wait_until

pytestmark = needs_browser

PASSWORD = "correct horse battery"
_names = itertools.count(1)


def _seated_page(page: Page, server: str, game: str, seats: dict[str, str]) -> None:
    """``page`` on game ``game``'s board, holding ``seats`` as the new-game form keeps them."""
    page.goto(server + "/")
    page.evaluate(
        "seats => localStorage.setItem('kradan.seats', JSON.stringify(seats))", {game: seats}
    )
    page.goto(f"{server}/games/{game}")
    wait_until(page, "window.kradan.game && window.kradan.chat && window.kradan.chat.room")


def _say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def _lines(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#chat-messages li").all_inner_texts()]


def test_players_and_spectators_talk_apart(
    page: Page, server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    made = page.request.post(server + "/api/games", data={"opponent": "human"}).json()
    game = made["id"]
    friend = browser.new_context(**browser_context_args).new_page()
    watcher = browser.new_context(**browser_context_args).new_page()
    try:
        _seated_page(page, server, game, {"white": made["token"]})
        _seated_page(friend, server, game, {"black": made["invite"]})
        assert page.evaluate("window.kradan.chat.room") == "players"
        _say(page, "สวัสดี, good luck")
        wait_until(friend, "document.querySelectorAll('#chat-messages li').length >= 1")
        markup = "<img src=x onerror=document.title='owned'>"
        _say(friend, markup)
        wait_until(page, "document.querySelectorAll('#chat-messages li').length >= 2")
        assert _lines(page) == ["white สวัสดี, good luck", f"black {markup}"]
        assert page.locator("#chat-messages img").count() == 0  # text, never HTML
        assert page.title() != "owned"

        # a watcher signs in and talks with the other watchers, not with the players
        name = f"Watcher{next(_names)}"
        watcher.goto(f"{server}/login?next=/games/{game}")
        watcher.fill("#sign-up-name", name)
        watcher.fill("#sign-up-password", PASSWORD)
        watcher.click("#sign-up-button")
        watcher.wait_for_url(f"**/games/{game}")
        wait_until(watcher, "window.kradan.chat && window.kradan.chat.room === 'spectators'")
        assert watcher.locator("#chat-rooms").is_hidden()  # the players' room is not theirs
        _say(watcher, "White should push the pawn")
        wait_until(watcher, "document.querySelectorAll('#chat-messages li').length >= 1")
        assert _lines(watcher) == [f"{name} White should push the pawn"]
        assert "push the pawn" not in " ".join(_lines(page))
        assert page.locator("#chat-rooms").is_hidden()  # a player in play: one room

        # once the game has ended, its players may read the spectators too
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("[data-action=resign]")
        wait_until(page, "window.kradan.game.status !== 'playing'")
        page.reload()
        wait_until(page, "window.kradan.chat && window.kradan.chat.room")
        page.click("#chat-rooms button[data-room=spectators]")
        wait_until(page, "document.querySelectorAll('#chat-messages li').length === 1")
        assert _lines(page) == [f"{name} White should push the pawn"]
        assert page.locator("#chat-form").is_hidden()  # a guest player writes no spectator line
    finally:
        friend.context.close()
        watcher.context.close()
