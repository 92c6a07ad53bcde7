"""The board editor and the analysis board in Chromium, by real clicks (issue 45): a position
set up in the editor, analysed with three engine lines, a variation added from them, a move
marked and commented, and the PGN downloaded with all of it."""

from __future__ import annotations

import io
from pathlib import Path

from kradan.pgn import read_game
from tests.browser_support import Page, click_square, needs_browser, wait_until

pytestmark = needs_browser


def test_a_position_from_the_editor_is_analysed_varied_and_downloaded(
    page: Page, server: str
) -> None:
    page.goto(server + "/editor?variant=makruk")
    wait_until(page, "window.kradan.board && window.kradan.checks >= 1")
    page.click("#clear-board")
    for palette, role, square in [
        ("bottom", "k", "c3"), ("bottom", "r", "h1"), ("bottom", "p", "e4"),
        ("top", "k", "a8"), ("top", "n", "d7"),
    ]:  # fmt: skip
        page.click(f"#palette-{palette} [data-role={role}]")
        click_square(page, square)
    fen = "k7/3n4/8/8/4P3/2K5/8/7R w - - 0 1"
    wait_until(page, f"document.querySelector('#fen').value === '{fen}'")
    wait_until(page, "document.querySelector('#verdict').textContent.includes('23 legal moves')")

    page.click("#analyse")
    page.wait_for_url("**/analysis?*")
    wait_until(page, "window.kradan.board && window.kradan.game")
    assert page.evaluate("window.kradan.game.fen") == fen
    page.select_option("#multipv", "3")
    wait_until(page, "document.querySelectorAll('#engine-lines .engine-line').length === 3", 60_000)
    lines = page.locator("#engine-lines .engine-line")
    scores = [lines.nth(i).text_content() or "" for i in range(2)]
    assert all(score.split()[0].startswith("+") for score in scores)  # White wins

    # the second line's move, then back, then another line's: a main line and a variation (the
    # lines are read when clicked: they change as the search deepens)
    lines.nth(1).click()
    wait_until(page, "window.kradan.current && window.kradan.current.parent")
    main_san = page.evaluate("window.kradan.current.san")
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
        wait_until(page, "!window.kradan.current.parent")
        wait_until(
            page, "document.querySelectorAll('#engine-lines .engine-line').length === 3", 60_000
        )
        texts = [text.split() for text in lines.all_text_contents()]
        pick = next(i for i, words in enumerate(texts) if words[1] != main_san)
        lines.nth(pick).click()
        wait_until(page, "window.kradan.current.parent")
        if page.evaluate("window.kradan.page.root.children.length") == 2:
            break
    wait_until(
        page, "window.kradan.current.parent && window.kradan.page.root.children.length === 2"
    )
    other_san = page.evaluate("window.kradan.current.san")
    page.click("#nags [data-nag='1']")
    page.fill("#comment", "the engine's choice")
    page.locator("#comment").blur()
    tree = page.text_content("#tree") or ""
    assert "!" in tree and "the engine's choice" in tree

    page.click("#position-tools summary")
    with page.expect_download() as download:
        page.click("#download-pgn")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    game = read_game(io.StringIO(text))
    assert game is not None
    assert game.board().fen() == fen
    main, other = game.variations
    assert main.san() == main_san
    assert other.san() == other_san and other.nags == {1}
    assert other.comment == "the engine's choice"
