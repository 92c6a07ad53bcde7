"""The board in the browser (issue 12): ``kradan serve`` in a subprocess on 127.0.0.1 with a
temporary database, driven through Debian's Chromium by Playwright.

Chromium is launched with ``executable_path`` and nothing else (``playwright install`` is never
run). Moves are played by clicking square centres with ``page.mouse``: chessgroundx has no
element per square and ignores synthetic events. The tests skip, saying why, when Chromium,
Playwright or the server is missing.

With ``KRADAN_WEB_SCREENSHOTS=1`` each game's page is also saved as ``docs/images/web-<game>.png``.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("KRADAN_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[dev]')"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium fonts-noto-core)"
    for module in ("uvicorn", "kradan.web.server"):
        try:
            found = importlib.util.find_spec(module)
        except ImportError:
            found = None
        if found is None:
            return f"{module} is missing: the server of kradan serve is not there yet"
    return None


MISSING = _missing()
if MISSING:
    print(f"\ntest_web_browser: skipped: {MISSING}", file=sys.stderr)
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

if MISSING is None:
    from playwright.sync_api import Page, expect
else:  # pragma: no cover - the module is skipped
    Page = Any

SERVER = """
import sys, uvicorn
from kradan.web.server import create_app
uvicorn.run(create_app(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a real ``kradan serve`` on a temporary database."""
    database = tmp_path_factory.mktemp("web") / "games.db"
    port = _free_port()
    log = (tmp_path_factory.getbasetemp() / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, f"sqlite+aiosqlite:///{database}", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2) as answer:
                if answer.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            log.close()
            text = (tmp_path_factory.getbasetemp() / "server.log").read_text()
            pytest.fail(f"the server did not start:\n{text[-3000:]}")
        time.sleep(0.2)
    yield url
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, launched with its path and nothing else."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1100, "height": 820}}


# --- helpers ----------------------------------------------------------------------------------


def new_game(
    page: Page,
    server: str,
    variant: str,
    opponent: str = "here",
    *,
    fen: str | None = None,
    level: int | None = None,
) -> str:
    """Start a game from the new-game page; returns its id once its board is shown."""
    page.goto(server + "/")
    page.select_option("#variant", variant)
    page.check(f'input[name="opponent"][value="{opponent}"]')
    if level is not None:  # a range input: set, not typed
        page.eval_on_selector("#level", f"el => {{ el.value = '{level}'; }}")
    if fen is not None:
        page.fill("#start-fen", fen)
    page.click("#start")
    page.wait_for_url("**/games/*")
    wait_until(page, "window.kradan.board && window.kradan.game")
    page.evaluate("window.kradan.board.set({animation: {enabled: false}})")
    return page.url.rsplit("/", 1)[1]


def wait_until(page: Page, condition: str, timeout: float = 20_000) -> None:
    script = f"() => {{ try {{ return Boolean({condition}); }} catch (e) {{ return false; }} }}"
    page.wait_for_function(script, timeout=timeout)


def game(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("window.kradan.game")
    return state


def click_square(page: Page, key: str, width: int = 8, height: int = 8) -> None:
    """Click the centre of ``key`` on the board (White at the bottom unless flipped)."""
    box = page.locator("#board cg-board").bounding_box()
    assert box is not None
    file, rank = ord(key[0]) - 97, int(key[1:]) - 1
    if page.evaluate("window.kradan.board.state.orientation") == "black":
        file, rank = width - 1 - file, height - 1 - rank
    page.mouse.click(
        box["x"] + (file + 0.5) * box["width"] / width,
        box["y"] + (height - 1 - rank + 0.5) * box["height"] / height,
    )
    page.wait_for_timeout(60)  # chessgroundx calls back through setTimeout


def play(page: Page, move: str, width: int = 8, height: int = 8) -> None:
    """Play ``move`` (``e3e4``) by two clicks and wait until the server has it."""
    before = game(page)["ply"]
    click_square(page, move[:2], width, height)
    click_square(page, move[2:4], width, height)
    wait_until(page, f"window.kradan.game.ply > {before}")


def piece_on(page: Page, key: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(
        f"(() => {{ const p = window.kradan.board.state.boardState.pieces.get('{key}');"
        " return p ? {role: p.role, color: p.color, promoted: Boolean(p.promoted)} : null; })()"
    )
    return found


def screenshot(page: Page, name: str) -> None:
    """Save the page as ``docs/images/web-<name>.png`` when asked to."""
    page.wait_for_timeout(300)
    target = Path(os.environ.get("KRADAN_WEB_SCREENSHOT_DIR", IMAGES))
    if os.environ.get("KRADAN_WEB_SCREENSHOTS") == "1":
        target.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(target / f"web-{name}.png"), full_page=True)
    else:
        page.screenshot()  # the page can be drawn


# --- the tests --------------------------------------------------------------------------------


def test_the_new_game_page_lists_every_game_and_its_options(page: Page, server: str) -> None:
    from kradan.games import game_names

    page.goto(server + "/")
    values = page.eval_on_selector_all("#variant option", "options => options.map(o => o.value)")
    assert values == game_names()
    page.select_option("#variant", "makruk")
    page.click(".rule-options summary")
    counting = page.locator('fieldset.rules[data-variant="makruk"] [data-option="counting"]')
    expect(counting).to_be_visible()
    expect(page.locator('fieldset.rules[data-variant="sittuyin"]')).to_be_hidden()


def test_makruk_move_against_the_engine(page: Page, server: str) -> None:
    new_game(page, server, "makruk", "engine", level=1)
    expect(page.locator("#board cg-board piece")).to_have_count(32)
    click_square(page, "e3")
    expect(page.locator("#board cg-board square.move-dest")).to_have_count(1)
    click_square(page, "e4")
    wait_until(page, "window.kradan.game.ply >= 2", timeout=120_000)  # the engine replied
    state = game(page)
    assert state["moves"][0] == "e3e4"
    assert state["san"][0] == "e4"
    expect(page.locator("#moves .move")).to_have_count(2)
    expect(page.locator("#board cg-board square.last-move")).to_have_count(2)
    # back through the move list: the position before the engine's reply
    page.locator('#moves .move[data-ply="1"]').click()
    assert page.evaluate("window.kradan.board.getFen()").startswith(
        "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR"
    )
    page.click("#nav-last")
    screenshot(page, "makruk")
    # take back the engine's reply and the move
    page.click('[data-action="takeback"]')
    wait_until(page, "window.kradan.game.ply === 0")
    expect(page.locator("#board cg-board piece")).to_have_count(32)
    # the picture of the position, as kradan.svg draws it
    picture = page.request.get(server + (page.locator("#download-svg").get_attribute("href") or ""))
    assert picture.ok and picture.text().startswith("<svg")
    pgn = page.request.get(server + (page.locator("#download-pgn").get_attribute("href") or ""))
    assert pgn.ok and '[Variant "makruk"]' in pgn.text()


def test_makruk_promotion(page: Page, server: str) -> None:
    new_game(page, server, "makruk", fen="4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1")
    play(page, "c5c6")
    assert game(page)["moves"] == ["c5c6m"]
    assert piece_on(page, "c6") == {"role": "m-piece", "color": "white", "promoted": True}


def test_declared_counting(page: Page, server: str) -> None:
    page.goto(server + "/")
    page.select_option("#variant", "makruk")
    page.click(".rule-options summary")
    page.select_option('fieldset.rules[data-variant="makruk"] [data-option="counting"]', "declared")
    page.check('input[name="opponent"][value="here"]')
    page.fill("#start-fen", "8/8/4k3/8/1r6/8/8/R2K1N1R w - - 0 40")
    page.click("#start")
    page.wait_for_url("**/games/*")
    wait_until(page, "window.kradan.board && window.kradan.game")
    assert game(page)["options"] == {"counting": "declared"}
    expect(page.locator("#counting")).to_be_hidden()
    page.click('[data-action="declare_count"]')
    wait_until(page, "window.kradan.game.counting !== null")
    expect(page.locator("#counting")).to_contain_text("board's honour")
    play(page, "a1a4")
    expect(page.locator("#counting")).to_be_visible()  # the count stays on screen


def test_makruk_sutra_in_two_steps(page: Page, server: str) -> None:
    # the met sutra: the pawn in front of the met steps forward, then the met takes its square
    page.goto(server + "/")
    page.select_option("#variant", "makruk")
    page.click(".rule-options summary")
    page.check('fieldset.rules[data-variant="makruk"] [data-option="sut_met"]')
    page.check('input[name="opponent"][value="here"]')
    page.click("#start")
    page.wait_for_url("**/games/*")
    wait_until(page, "window.kradan.board && window.kradan.game")
    click_square(page, "e3")
    click_square(page, "e4")
    expect(page.locator("#finish-chain")).to_be_visible()  # e3e4 alone is a move too
    click_square(page, "e3")  # the met, picked up already, goes on to e3
    wait_until(page, "window.kradan.game.ply >= 1")
    assert game(page)["moves"] == ["e3e4,e1e3"]
    # Black's d-pawn stands in front of its met: the sutra is offered, and declined
    click_square(page, "d6")
    click_square(page, "d5")
    page.click("#finish-chain")
    wait_until(page, "window.kradan.game.ply >= 2")
    assert game(page)["moves"] == ["e3e4,e1e3", "d6d5"]
    page.locator('#moves .move[data-ply="1"]').click()  # back to the position after the sutra
    assert page.evaluate("window.kradan.board.getFen()") == (
        "rnsmksnr/8/pppppppp/8/4P3/PPPPMPPP/8/RNSK1SNR"
    )


def test_ouk_king_leap(page: Page, server: str) -> None:
    new_game(page, server, "cambodian")
    click_square(page, "d1")
    dests = page.evaluate("window.kradan.board.state.movable.dests.get('d1')")
    assert {"b2", "f2"} <= set(dests)  # the leaps, beside the steps
    click_square(page, "b2")
    wait_until(page, "window.kradan.game.ply >= 1")
    assert game(page)["moves"] == ["d1b2"]
    assert piece_on(page, "b2") == {"role": "k-piece", "color": "white", "promoted": False}
    screenshot(page, "cambodian")


def test_sittuyin_drop(page: Page, server: str) -> None:
    new_game(page, server, "sittuyin")
    expect(page.locator("#pocket-bottom piece")).to_have_count(5)
    page.locator("#pocket-bottom piece[data-role='r-piece']").click()
    page.wait_for_timeout(60)
    click_square(page, "a1")
    wait_until(page, "window.kradan.game.ply >= 1")
    assert game(page)["moves"] == ["R@a1"]
    assert piece_on(page, "a1") == {"role": "r-piece", "color": "white", "promoted": False}
    expect(page.locator("#pocket-bottom piece[data-role='r-piece']")).to_have_attribute(
        "data-nb", "1"
    )
    # Black drops from the top pocket
    page.locator("#pocket-top piece[data-role='k-piece']").click()
    page.wait_for_timeout(60)
    click_square(page, "e7")
    wait_until(page, "window.kradan.game.ply >= 2")
    assert game(page)["moves"] == ["R@a1", "K@e7"]
    screenshot(page, "sittuyin")


def test_sittuyin_promotion_in_place(page: Page, server: str) -> None:
    # a second click on the pawn on e5 (a long diagonal, in Black's half) promotes it there
    new_game(page, server, "sittuyin", fen="r3k3/8/8/4P3/8/8/8/R3K3[] w - - 0 1")
    expect(page.locator("#pocket-bottom")).to_be_hidden()  # the setup is over
    click_square(page, "e5")
    dests = page.evaluate("window.kradan.board.state.movable.dests.get('e5')")
    assert "e5" in dests  # promotion in place is offered on the pawn's own square
    click_square(page, "e5")
    expect(page.locator("#chooser")).to_be_visible()
    page.click("#chooser button.piece-choice")
    wait_until(page, "window.kradan.game.ply >= 1")
    assert game(page)["moves"] == ["e5e5f"]
    assert piece_on(page, "e5") == {"role": "f-piece", "color": "white", "promoted": True}


def test_alquerque_capture(page: Page, server: str) -> None:
    new_game(page, server, "alquerque")
    expect(page.locator("#board cg-board piece")).to_have_count(24)
    play(page, "d2c3", 5, 5)
    # Black must capture: b4 or d4 jumps over c3 to d2
    click_square(page, "b4", 5, 5)
    dests = page.evaluate("window.kradan.board.state.movable.dests.get('b4')")
    assert dests == ["d2"]
    click_square(page, "d2", 5, 5)
    wait_until(page, "window.kradan.game.ply >= 2")
    assert game(page)["moves"] == ["d2c3", "b4d2"]
    assert piece_on(page, "c3") is None
    assert piece_on(page, "d2") == {"role": "p-piece", "color": "black", "promoted": False}
    expect(page.locator("#board cg-board piece")).to_have_count(23)
    screenshot(page, "alquerque")


def test_alquerque_chain_capture_point_by_point(page: Page, server: str) -> None:
    # White's man on a1 jumps b2 to c3, then c4 to c5: two hops in one move
    new_game(page, server, "alquerque", fen="5/2p2/5/1p3/P3p w - 0 1")
    legal = game(page)["legal_moves"]
    assert "a1c3c5" in legal
    click_square(page, "a1", 5, 5)
    click_square(page, "c3", 5, 5)
    assert piece_on(page, "b2") is None  # the first jumped man is gone at once
    dests = page.evaluate("window.kradan.board.state.movable.dests.get('c3')")
    assert dests == ["c5"]
    click_square(page, "c5", 5, 5)
    wait_until(page, "window.kradan.game.ply >= 1")
    assert game(page)["moves"] == ["a1c3c5"]


def test_a_game_by_invitation(
    page: Page, server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    page.goto(server + "/")
    page.select_option("#variant", "makruk")
    page.check('input[name="opponent"][value="invite"]')
    page.click("#start")
    expect(page.locator("#invitation")).to_be_visible()
    link = page.input_value("#invite-link")
    assert "/join/" in link and "?seat=" in link
    page.click("#go-to-game")
    wait_until(page, "window.kradan.board && window.kradan.game")
    friend = browser.new_context(**browser_context_args).new_page()
    try:
        friend.goto(link)  # sets the friend's seat cookie, then shows the board
        friend.wait_for_url("**/games/*")
        wait_until(friend, "window.kradan.board && window.kradan.game")
        assert friend.evaluate("window.kradan.board.state.orientation") == "black"
        play(page, "e3e4")
        wait_until(friend, "window.kradan.game.ply >= 1")  # over the websocket
        play(friend, "d6d5")
        wait_until(page, "window.kradan.game.ply >= 2")
        assert game(page)["moves"] == ["e3e4", "d6d5"]
    finally:
        friend.context.close()


def test_same_screen_game(page: Page, server: str) -> None:
    new_game(page, server, "karouk")
    page.click("#labels")  # Thai coordinates
    expect(page.locator("#board coords.bottom coord").first).to_have_text("ก")
    play(page, "e3e4")
    play(page, "d6d5")
    play(page, "e4d5")
    state = game(page)
    assert state["moves"] == ["e3e4", "d6d5", "e4d5"]
    assert state["turn"] == "black"
    page.click("#flip")
    assert page.evaluate("window.kradan.board.state.orientation") == "black"
    play(page, "e6d5")
    screenshot(page, "karouk")
    page.click("#labels")
    page.click("#flip")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="resign"]')  # White, to move, resigns
    wait_until(page, "window.kradan.game.status === 'ended'")
    assert game(page)["result"] == "0-1"
    expect(page.locator("#status")).to_contain_text("0-1")
