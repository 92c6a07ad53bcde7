"""The admin page in Chromium (issue 47 item 2): an admin (made with ``kradan admin create-user
--admin``) finds the page through the header's link, disables a member who then cannot sign
in, and adjudicates a game that both players' boards then show as ended."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.browser_support import Page, needs_browser, screenshot, wait_until

pytestmark = needs_browser

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own whose database holds the admin Root."""
    from benchmarks.loopback import free_port
    from kradan.cli.main import main
    from tests.browser_support import start_server, stop_server

    folder = tmp_path_factory.mktemp("admin")
    url = f"sqlite+aiosqlite:///{folder / 'games.db'}"
    password = folder / "password.txt"
    password.write_text(PASSWORD + "\n")
    command = ["admin", "create-user", "Root", "--admin", "--db", url, "--password-file",
               str(password)]  # fmt: skip
    with ThreadPoolExecutor(1) as thread:  # (Playwright may hold this thread's event loop)
        assert thread.submit(main, command).result() == 0
    port = free_port()
    process = start_server(url, port, folder / "server.log")
    yield f"http://127.0.0.1:{port}"
    stop_server(process)


def _sign_in(page: Page, server: str, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{server}/login?next=/")
    page.fill("#sign-in-name", username)
    page.fill("#sign-in-password", password)
    page.click("#sign-in-button")


def _seated(page: Page, server: str, game: str, seats: dict[str, str]) -> None:
    page.goto(server + "/")
    page.evaluate(
        "seats => localStorage.setItem('kradan.seats', JSON.stringify(seats))", {game: seats}
    )
    page.goto(f"{server}/games/{game}")
    wait_until(page, "window.kradan.game && window.kradan.game.status === 'playing'")


def test_an_admin_disables_a_member_and_adjudicates_a_game(
    page: Page, club: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    member = browser.new_context(**browser_context_args).new_page()
    white = browser.new_context(**browser_context_args).new_page()
    black = browser.new_context(**browser_context_args).new_page()
    try:
        made = member.request.post(club + "/api/accounts",
                                   data={"username": "Mali", "password": PASSWORD})  # fmt: skip
        assert made.status == 201, made.text()
        game = white.request.post(club + "/api/games", data={"opponent": "human"}).json()
        _seated(white, club, game["id"], {"white": game["token"]})
        _seated(black, club, game["id"], {"black": game["invite"]})

        _sign_in(page, club, "Root")
        page.wait_for_selector("#admin-link")  # the header shows admins the way in
        page.click("#admin-link")
        page.wait_for_url("**/admin")
        wait_until(page, "document.body.dataset.ready === 'yes'")
        row = page.locator("#user-list tr", has_text="Mali")
        row.locator("[data-action=disable]").click()
        wait_until(
            page,
            "[...document.querySelectorAll('#user-list tr')].some(r =>"
            " r.textContent.includes('Mali') && r.querySelector('[data-action=enable]'))",
        )

        # Mali was signed in: the session is gone, and signing in again is refused
        assert member.request.get(club + "/api/session").json()["username"] is None
        _sign_in(member, club, "Mali")
        member.wait_for_selector("#message:not([hidden])")
        assert "disabled" in member.inner_text("#message")
        assert member.url.endswith("/login?next=/")

        # the admin adjudicates the game: both boards show it ended at once
        games = page.locator("#game-list tr", has=page.locator(f"[data-game='{game['id']}']"))
        games.locator("select").select_option("0-1")
        games.locator("[data-action=adjudicate]").click()
        for board in (white, black):
            wait_until(
                board,
                "window.kradan.game.status === 'ended'"
                " && window.kradan.game.termination === 'adjudication'",
            )
            assert board.evaluate("window.kradan.game.result") == "0-1"
            assert "adjudication" in board.inner_text("#status")
        wait_until(
            page,
            "document.querySelector('#audit-list').textContent.includes('adjudicated the game')",
        )
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, "admin")
    finally:
        for other in (member, white, black):
            other.context.close()
