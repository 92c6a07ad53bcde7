"""What the browser tests share (issue 12): ``kradan serve`` in a subprocess on 127.0.0.1 with a
temporary database, driven through Debian's Chromium by Playwright. The fixtures themselves
(``server``, the Chromium launch arguments) live in ``tests/conftest.py`` so that every browser
test file shares one server.

Chromium is launched with ``executable_path`` and nothing else (``playwright install`` is never
run). Moves are played by clicking square centres with ``page.mouse``: chessgroundx has no
element per square and ignores synthetic events. The tests skip, saying why, when Chromium,
Playwright or the server is missing.

With ``KRADAN_WEB_SCREENSHOTS=1`` each game's page is also saved as ``docs/images/web-<game>.png``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
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
    print(f"\nbrowser tests: skipped: {MISSING}", file=sys.stderr)
#: the mark every browser test module sets as its ``pytestmark``
needs_browser = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

if MISSING is None:
    from playwright.sync_api import Page, expect
else:  # pragma: no cover - the modules are skipped
    Page = Any
    expect = None

#: the server of the browser tests: the default hosts (they ask for 127.0.0.1), and no limit on
#: the games they create, all from one address
SERVER = """
import sys, uvicorn
from kradan.web.server import ServeSettings, create_app
app = create_app(sys.argv[1], settings=ServeSettings(create_rate=0))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def start_server(
    database_url: str, port: int, log_path: Path, script: str = SERVER
) -> subprocess.Popen[bytes]:
    """Start ``kradan serve``'s app on 127.0.0.1:``port`` and wait until it answers (``script``
    runs it, given the database's URL and the port: :data:`SERVER`, or one that makes the app
    with other settings)."""
    log = log_path.open("a")
    process = subprocess.Popen(
        [sys.executable, "-c", script, database_url, str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2) as answer:
                if answer.status == 200:
                    return process
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the server did not start:\n{log_path.read_text()[-3000:]}")
        time.sleep(0.2)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


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


def square_centre(page: Page, key: str, width: int = 8, height: int = 8) -> tuple[float, float]:
    """The centre of ``key`` on the page (White at the bottom unless flipped)."""
    box = page.locator("#board cg-board").bounding_box()
    assert box is not None
    file, rank = ord(key[0]) - 97, int(key[1:]) - 1
    if page.evaluate("window.kradan.board.state.orientation") == "black":
        file, rank = width - 1 - file, height - 1 - rank
    return (
        box["x"] + (file + 0.5) * box["width"] / width,
        box["y"] + (height - 1 - rank + 0.5) * box["height"] / height,
    )


def drag_to(page: Page, start: tuple[float, float], key: str) -> None:
    """Press the mouse at ``start``, drag it to ``key``'s centre and let go."""
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 5, start[1] + 5, steps=2)
    page.mouse.move(*square_centre(page, key), steps=8)
    page.mouse.up()
    page.wait_for_timeout(80)  # chessgroundx calls back through setTimeout


def drag_square(page: Page, orig: str, dest: str) -> None:
    """Drag the piece on ``orig`` to ``dest``."""
    drag_to(page, square_centre(page, orig), dest)


def drag_from_pocket(page: Page, pocket: str, role: str, key: str) -> None:
    """Drag the ``role`` piece (``r``) from ``pocket`` (``#pocket-bottom``) to ``key``."""
    box = page.locator(f"{pocket} piece[data-role='{role}-piece']").bounding_box()
    assert box is not None
    drag_to(page, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2), key)
