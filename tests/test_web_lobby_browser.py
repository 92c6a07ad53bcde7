"""Accounts, the lobby, a rated game and its rematch in Chromium, by real clicks (issue 46's
done-when): two people sign up in two browsers, one presses a quick-pairing button, the other
takes the seek from the lobby's list, they play a rated Makruk game to its end, both see their
new ratings, and they rematch with the colours swapped."""

from __future__ import annotations

import itertools
from typing import Any

from tests.browser_support import Page, needs_browser, play, wait_until

pytestmark = needs_browser

PASSWORD = "correct horse battery"
_names = itertools.count(1)


def _sign_up(page: Page, server: str, name: str) -> None:
    page.goto(server + "/login?next=/")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-button")
    page.wait_for_url(server + "/")
    assert page.text_content("#account-name") == name


def test_two_accounts_meet_in_the_lobby_play_rated_and_rematch(
    page: Page, server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    number = next(_names)
    first, second = f"Anan{number}", f"Boon{number}"
    other = browser.new_context(**browser_context_args).new_page()
    try:
        _sign_up(page, server, first)
        _sign_up(other, server, second)
        page.check("#rated")
        page.click("#quick-pairing button[data-variant=makruk][data-clock='5+3']")
        page.locator("#seeking").wait_for(state="visible")

        row = other.locator("#seeks tr", has_text=first)
        row.wait_for(timeout=10_000)
        assert "rated" in (row.text_content() or "")
        row.locator(".take-seek").click()
        other.wait_for_url("**/games/*")
        page.wait_for_url("**/games/*", timeout=15_000)
        assert page.url == other.url
        for each in (page, other):
            wait_until(each, "window.kradan.board && window.kradan.game")
            each.evaluate("window.kradan.board.set({animation: {enabled: false}})")
        view = page.evaluate("window.kradan.game")
        assert view["rated"] and sorted(view["players"].values()) == [first, second]
        by_color = {view["players"]["white"]: "white", view["players"]["black"]: "black"}
        white = page if by_color[first] == "white" else other
        black = other if white is page else page

        play(white, "e3e4")
        wait_until(black, "window.kradan.game.ply >= 1")
        play(black, "d6d5")
        wait_until(white, "window.kradan.game.ply >= 2")
        # the resignation's confirm() answered in the page itself: no dialog for the driver to
        # handle while the click waits (tests/test_web_browser.py clicks through the dialog)
        black.evaluate("window.confirm = () => true")
        black.click("[data-action=resign]")

        for each in (page, other):
            each.locator("#rating-change").wait_for(state="visible", timeout=20_000)
        shown = white.text_content("#rating-change") or ""
        assert "1500 → 1662 (+162.3)" in shown and "1500 → 1338 (-162.3)" in shown
        changes = white.evaluate("window.kradan.game.rating_changes")
        assert changes["white"]["change"] > 0 > changes["black"]["change"]

        old = white.url
        white.click("#rematch")
        wait_until(black, "window.kradan.game.rematch && window.kradan.game.rematch.offered_by")
        assert black.text_content("#rematch") == "Accept the rematch"
        black.click("#rematch")
        for each in (page, other):
            each.wait_for_url(lambda url: url != old, timeout=15_000)
        assert page.url == other.url
        wait_until(white, "window.kradan.game && window.kradan.game.rated")
        again = white.evaluate("window.kradan.game")
        swapped = {"white": view["players"]["black"], "black": view["players"]["white"]}
        assert again["players"] == swapped and again["ply"] == 0

        page.goto(f"{server}/@/{first}")
        wait_until(page, "window.kradan.loaded")
        makruk = page.locator("#player-ratings tr[data-family=makruk]").text_content() or ""
        assert ("1662" if white is page else "1338") in makruk
    finally:
        other.context.close()
