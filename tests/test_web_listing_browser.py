"""The new-game form's "List this game publicly" in Debian's Chromium (issue 46): checked for a
game against the engine, unchecked for a game between people until the player ticks it, and
sent with the game; the front page lists only the public games. The server and the helpers are
in ``tests/conftest.py`` and ``tests/browser_support.py``."""

from __future__ import annotations

from tests.browser_support import Page, expect, game, needs_browser, wait_until

pytestmark = needs_browser


def start(page: Page, server: str, opponent: str, tick: bool | None = None) -> dict[str, object]:
    """A game from the form against ``opponent`` (the box as the form sets it, or ticked or
    cleared by hand); the game as the board page shows it."""
    page.goto(server + "/")
    page.check(f'input[name="opponent"][value="{opponent}"]')
    if tick is not None:
        page.set_checked("#public", tick)
    page.click("#start")
    page.wait_for_url("**/games/*")
    wait_until(page, "window.kradan.game")
    return game(page)


def test_the_box_follows_the_opponent_until_the_player_sets_it(page: Page, server: str) -> None:
    page.goto(server + "/")
    box = page.locator("#public")
    expect(box).to_be_checked()  # the engine, the form's first choice
    for opponent, checked in (("invite", False), ("here", False), ("engine", True)):
        page.check(f'input[name="opponent"][value="{opponent}"]')
        assert box.is_checked() is checked, opponent
    page.check('input[name="opponent"][value="invite"]')
    box.check()  # set by hand: it stays so whatever the opponent
    page.check('input[name="opponent"][value="engine"]')
    page.check('input[name="opponent"][value="here"]')
    expect(box).to_be_checked()

    listed = start(page, server, "engine")
    private = start(page, server, "here")
    asked = start(page, server, "here", tick=True)
    hidden = start(page, server, "engine", tick=False)
    assert [g["public"] for g in (listed, private, asked, hidden)] == [True, False, True, False]
    page.goto(server + "/")
    links = page.locator("#recent-games li a")
    expect(links.first).to_be_visible()
    shown = [link.get_attribute("href") for link in links.all()]
    assert f"/games/{listed['id']}" in shown and f"/games/{asked['id']}" in shown
    assert f"/games/{private['id']}" not in shown and f"/games/{hidden['id']}" not in shown
