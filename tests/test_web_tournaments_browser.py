"""A Swiss tournament in Chromium, played by bots (issue 47's done-when): six bot accounts play
through the bot API (``kradan bot``'s runner, kradan's engine at level 1, a short clock); an
organiser signs up, makes a 6-player Swiss of 5 rounds with the page's form and starts it; the
rounds pair and play themselves; the standings with their tie-breaks and the crosstable show,
and the tournament's PGN downloads with its 15 games."""

from __future__ import annotations

import itertools
import os
import threading
from pathlib import Path
from typing import Any

from kradan.runners.bot import Bot, BotServer
from tests.browser_support import IMAGES, Page, needs_browser, wait_until
from tests.test_web_bot import Person
from tests.web_helpers import PASSWORD

pytestmark = needs_browser

_runs = itertools.count(1)
#: the bots' clock: five seconds a side, no increment (a round lasts seconds)
CLOCK = "5+0"


def _bot(server: str, name: str) -> tuple[Bot, threading.Thread]:
    """A bot account ``name`` playing with kradan's engine at level 1, its five games in a
    thread of its own."""
    person = Person(server)
    person.call("POST", "/api/accounts", {"username": name, "password": PASSWORD})
    token = person.call("POST", "/api/tokens")["token"]
    bot = Bot(BotServer(server, token), "kradan:level=1", log=lambda _: None)
    assert bot.account(upgrade=True) == name
    thread = threading.Thread(target=bot.run, kwargs={"games": 5}, daemon=True)
    thread.start()
    return bot, thread


def _screenshot(page: Page, name: str, tmp_path: Path) -> None:
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    if os.environ.get("KRADAN_WEB_SCREENSHOTS"):
        page.screenshot(path=str(IMAGES / f"web-{name}.png"), full_page=True)


def test_a_six_bot_swiss_of_five_rounds_plays_itself(
    page: Page, server: str, tmp_path: Path
) -> None:
    run = f"{next(_runs)}{os.getpid() % 1000}"
    names = [f"Bot{run}x{i}" for i in range(1, 7)]
    bots = [_bot(server, name) for name in names]

    page.goto(server + "/login?next=/tournaments")
    page.fill("#sign-up-name", f"Org{run}")
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-button")
    page.wait_for_url(server + "/tournaments")
    page.locator("#tournament-form").wait_for(state="visible")
    page.fill("#t-name", f"Bot Swiss {run}")
    page.select_option("#t-variant", "makruk")
    page.select_option("#t-system", "swiss")
    page.fill("#t-rounds", "5")
    page.fill("#t-clock", CLOCK)
    page.fill("#t-players", ", ".join(names))
    page.click("#t-create")
    page.wait_for_url("**/tournaments/*")
    wait_until(page, "window.kradan.tournament()?.status === 'created'")
    assert page.locator("#t-start").is_visible()
    page.click("#t-start")
    wait_until(page, "window.kradan.tournament().rounds.length >= 1")
    # five rounds of three games, each a few seconds: polled every 3 s by the page
    wait_until(page, "window.kradan.tournament().status === 'finished'", timeout=300_000)
    data: dict[str, Any] = page.evaluate("window.kradan.tournament()")
    assert [len(r["pairings"]) for r in data["rounds"]] == [3, 3, 3, 3, 3]
    met = [frozenset((p["white"], p["black"])) for r in data["rounds"] for p in r["pairings"]]
    assert len(set(met)) == 15  # a Swiss of players - 1 rounds: everyone met everyone once
    assert sum(line["points"] for line in data["standings"]) == 15
    # what the page shows: six lines of standings with their tie-breaks, the crosstable
    wait_until(page, "document.querySelectorAll('#standings tbody tr').length === 6")
    heads = page.locator("#standings thead th").all_text_contents()
    assert "Buchholz" in heads and "Sonneborn-Berger" in heads
    assert page.locator("#crosstable tbody tr").count() == 6
    assert page.locator("#rounds .round").count() == 5
    assert page.locator("#t-status").get_attribute("data-status") == "finished"
    _screenshot(page, "tournament", tmp_path)

    with page.expect_download() as download:
        page.click("#t-pgn")
    pgn = Path(download.value.path()).read_text(encoding="utf-8")
    assert pgn.count("[Result ") == 15
    for name in names:
        assert pgn.count(f'"{name}"') == 5

    page.goto(server + "/tournaments")
    page.locator("#tournament-list", has_text=f"Bot Swiss {run}").wait_for()
    _screenshot(page, "tournaments", tmp_path)

    for bot, thread in bots:
        thread.join(60)
        # on a 5-second clock a move may reach the server just after the flag fell: refused
        # (409, the game is over), which the bot notes; anything else is an error
        assert all("is over" in error for error in bot.errors), bot.errors
