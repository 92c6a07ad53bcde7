"""The game archive and the opening explorer in Chromium, by real clicks (issue 45): a PGN file
imported on /archive, its games found by a player's name, one opened in the analysis board, its
opening seen in the explorer panel (the moves and their counts), and a move of the explorer
played on the board."""

from __future__ import annotations

import secrets
from pathlib import Path

from kradan import pgn
from kradan.games import find_game
from tests.browser_support import Page, needs_browser, wait_until

pytestmark = needs_browser

#: the games of the file: their opening moves; the archive's player plays White in each
OPENINGS = [
    ["e3e4", "d6d5", "e4d5"],
    ["e3e4", "e6e5"],
    ["c3c4", "f6f5", "b1d2"],
]


def pgn_file(folder: Path, player: str) -> Path:
    texts = []
    for number, moves in enumerate(OPENINGS):
        board = find_game("makruk").new_board()
        for move in moves:
            board.push_uci(move)
        tags = {"White": player, "Black": f"Rival {number}", "Date": f"2024.05.{10 + number}",
                "Event": "archive test", "Result": ["1-0", "0-1", "1/2-1/2"][number]}  # fmt: skip
        texts.append(pgn.game_text(board, tags))
    texts.append('[Event "broken"]\n\n1. e3e4 Kz9 *\n')
    path = folder / "club.pgn"
    path.write_text("\n".join(texts), encoding="utf-8")
    return path


def explorer_rows(page: Page) -> dict[str, int]:
    """The explorer's moves on view (SAN) and how many games played each."""
    rows: dict[str, int] = page.evaluate(
        "Object.fromEntries(Array.from(document.querySelectorAll('#explorer-moves tbody tr'))"
        ".map(row => [row.cells[0].textContent, Number(row.cells[1].textContent)]))"
    )
    return rows


def test_a_pgn_file_is_imported_found_opened_and_explored(
    page: Page, server: str, tmp_path: Path
) -> None:
    player = f"Archivist {secrets.token_hex(4)}"  # the server is shared by every browser test
    page.goto(server + "/archive")
    wait_until(page, "window.kradan.state.searched >= 1")

    # import: three games stored, the broken one reported by its line
    page.set_input_files("#import-file", str(pgn_file(tmp_path, player)))
    page.click("#import-start")
    wait_until(page, "window.kradan.state.imports === 1")
    report = page.text_content("#import-report") or ""
    assert "3 games imported" in report and "1 game left out" in report
    [error] = page.locator("#import-errors li").all_text_contents()
    assert error.startswith("Line ") and "'Kz9'" in error

    # search by the player: the three games, newest first, and the export of the same selection
    page.fill("#search-player", player)
    page.click("#search-start")
    # the import's own refresh of the list may come first: wait for this search's answer
    wait_until(page, f"new URLSearchParams(window.kradan.state.query).get('player') === '{player}'")
    wait_until(page, "document.querySelectorAll('#results-body tr').length === 3")
    rows = page.locator("#results-body tr")
    assert [rows.nth(i).locator("td").nth(2).text_content() for i in range(3)] == [
        "Rival 2", "Rival 1", "Rival 0",
    ]  # fmt: skip
    export = page.get_attribute("#export", "href") or ""
    assert export.startswith("/api/archive.pgn?") and "player=Archivist" in export
    assert "player=Archivist" in page.url

    # the oldest game (1. e3e4 d6d5 2. e4d5) opens in the analysis board at its start
    rows.nth(2).locator("a.open-game").click()
    page.wait_for_url("**/analysis*")
    wait_until(page, "window.kradan.board && window.kradan.page.root")
    wait_until(page, "window.kradan.page.root.children.length === 1")
    assert page.evaluate("window.kradan.page.headers.White") == player
    line = page.evaluate(
        "(() => { const moves = []; let at = window.kradan.page.root;"
        " while (at.children.length) { [at] = at.children; moves.push(at.uci); }"
        " return moves; })()"
    )
    assert line == OPENINGS[0]

    # the explorer, narrowed to the player's games: e4 twice, c4 once
    wait_until(page, "window.kradan.explorer.shown >= 1", 30_000)
    page.click(".explorer-filters summary")
    page.fill("#explorer-player", player)
    wait_until(page, "window.kradan.explorer.answer && window.kradan.explorer.answer.games === 3")
    assert explorer_rows(page) == {"e4": 2, "c4": 1}
    assert page.text_content("#explorer-total") == "3 games"
    listed = page.locator("#explorer-games a").all_text_contents()
    assert sorted(listed) == sorted(f"{player} – Rival {n}" for n in range(3))

    # a click on e4 plays it on the board; the explorer follows: d5 once, e5 once
    page.locator("#explorer-moves tr[data-uci='e3e4']").click()
    wait_until(page, "window.kradan.current.uci === 'e3e4'")
    wait_until(page, "window.kradan.explorer.answer.games === 2")
    assert explorer_rows(page) == {"d5": 1, "e5": 1}
    assert page.evaluate("window.kradan.game.fen").split()[1] == "b"

    # a position no game of the player reached says so
    page.locator("#explorer-moves tr[data-uci='e6e5']").click()
    wait_until(page, "window.kradan.current.uci === 'e6e5'")
    page.keyboard.press("ArrowLeft")  # back: e3e4
    page.fill("#explorer-player", "nobody at all")
    wait_until(page, "window.kradan.explorer.answer && window.kradan.explorer.answer.games === 0")
    assert page.is_visible("#explorer-note")
    assert page.text_content("#explorer-note") == "No games in the archive reach this position."
    assert page.is_hidden("#explorer-moves")
