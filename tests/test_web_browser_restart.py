"""A board in the browser outlives its server (issue 12): ``kradan serve`` killed with SIGKILL in
the middle of a game and started again on the same database and port; the open page reconnects
by itself and the game goes on, with every acknowledged move. This test starts its own server."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from benchmarks.loopback import free_port
from tests.browser_support import (
    Page,
    expect,
    game,
    needs_browser,
    new_game,
    piece_on,
    play,
    start_server,
    stop_server,
    wait_until,
)

pytestmark = needs_browser


def test_the_board_goes_on_after_the_server_is_killed(page: Page, tmp_path: Path) -> None:
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    port = free_port()
    log = tmp_path / "server.log"
    url = f"http://127.0.0.1:{port}"
    process = start_server(database, port, log)
    try:
        new_game(page, url, "makruk")
        play(page, "e3e4")
        play(page, "d6d5")
        play(page, "e4d5")
        assert game(page)["moves"] == ["e3e4", "d6d5", "e4d5"]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        # the page notices: its socket is closed, a move now cannot reach the server
        wait_until(page, "window.kradan.socketOpen === false")
        process = start_server(database, port, log)
        # the page reconnects by itself (its socket retries) and shows the stored game
        wait_until(page, "window.kradan.socketOpen === true", timeout=30_000)
        state = game(page)
        assert state["moves"] == ["e3e4", "d6d5", "e4d5"] and state["turn"] == "black"
        # a move made elsewhere (Black's seat, over the API) reaches the page over the new socket
        game_id = page.url.rsplit("/", 1)[1]
        seats = page.evaluate("JSON.parse(localStorage.getItem('kradan.seats'))")
        black = seats[game_id]["black"]
        answer = page.request.post(
            f"{url}/api/games/{game_id}/moves",
            data={"move": "e6d5"},
            headers={"Authorization": f"Bearer {black}"},
        )
        assert answer.ok, answer.text()
        wait_until(page, "window.kradan.game.ply === 4")
        assert piece_on(page, "d5") == {"role": "p-piece", "color": "black", "promoted": False}
        play(page, "f3f4")
        expect(page.locator("#moves .move")).to_have_count(5)
        # and a reload shows the same game from the restarted server
        page.reload()
        wait_until(page, "window.kradan.board && window.kradan.game")
        assert game(page)["moves"] == ["e3e4", "d6d5", "e4d5", "e6d5", "f3f4"]
    finally:
        if process.poll() is None:
            stop_server(process)
