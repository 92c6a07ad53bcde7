"""Game review in Chromium, by real clicks (issue 45): a game ends, "Analyse this game" opens the
analysis board, the server reviews it with a progress bar, and the page shows the evaluation
graph, the marks and their counts, the engine's better move, and "find a better move" judges
the moves tried in the position before the blunder."""

from __future__ import annotations

from tests.browser_support import Page, click_square, needs_browser, new_game, play, wait_until

pytestmark = needs_browser

#: White's rook leaves the first rank (1. Ra2??) and Black mates on it (1... Rb1#)
FEN = "1r6/8/8/8/8/7k/8/R6K w - - 0 1"
BLUNDER, MATE = "a1a2", "b8b1"


def _enter(page: Page, move: str) -> None:
    """Two clicks on the analysis board, and wait until the page shows the move's node."""
    before = page.evaluate("window.kradan.updates")
    click_square(page, move[:2])
    click_square(page, move[2:4])
    wait_until(page, f"window.kradan.updates > {before} && window.kradan.current.uci === '{move}'")


def test_an_ended_game_is_reviewed_and_a_better_move_is_found(page: Page, server: str) -> None:
    new_game(page, server, "makruk", fen=FEN)
    play(page, BLUNDER)
    play(page, MATE)
    wait_until(page, "window.kradan.game.status === 'ended'")
    link = page.locator("#review-game")
    link.wait_for(state="visible")
    link.click()

    page.wait_for_url("**/analysis?*")
    page.locator("#review-result").wait_for(state="visible", timeout=180_000)
    # the graph: the start and two moves, one dot, a blunder's
    assert page.get_attribute("#review-graph", "data-count") == "3"
    assert page.locator("#review-graph .graph-mark.mark-blunder").count() == 1
    assert page.locator("#review-graph .graph-mark").count() == 1
    white = page.locator("#review-summary tr[data-color=white] td")
    assert [white.nth(i).text_content() for i in range(3)] == ["0", "0", "1"]
    marks = page.locator("#tree .review-mark")
    assert marks.count() == 1 and marks.first.text_content() == "??"

    # the blunder on view: its note offers the engine's move, which a click plays
    marks.first.click()
    note = page.locator("#review-note")
    note.wait_for(state="visible")
    best = page.evaluate("window.kradan.review.data.plies[0].best")
    assert best["uci"] != BLUNDER and best["san"] in (note.text_content() or "")
    # a click on the graph's first ply shows that move too
    box = page.locator("#review-graph").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * 0.45, box["y"] + box["height"] / 2)
    wait_until(page, f"window.kradan.current.uci === '{BLUNDER}'")

    # find a better move for White: the game's move is refused, the engine's is found
    page.select_option("#learn-side", "white")
    page.click("#learn-start")
    wait_until(page, "window.kradan.current === window.kradan.page.root")
    assert page.is_disabled("#engine-on")  # no engine lines to copy from
    assert "Find a better move for White" in (page.text_content("#learn-text") or "")
    _enter(page, BLUNDER)
    wait_until(page, "document.querySelector('#learn-text').dataset.tone === 'wrong'")
    wait_until(page, "window.kradan.current === window.kradan.page.root")
    _enter(page, best["uci"])
    wait_until(page, "document.querySelector('#learn-text').dataset.tone === 'right'", 30_000)
    page.click("#learn-next")
    wait_until(page, "document.querySelector('#learn-text').dataset.tone === 'done'")
    assert "1 of 1" in (page.text_content("#learn-text") or "")
    page.click("#learn-stop")
    assert page.is_enabled("#engine-on")


def test_a_game_in_play_offers_no_review(page: Page, server: str) -> None:
    new_game(page, server, "makruk", fen=FEN)
    play(page, BLUNDER)
    assert page.locator("#review-game-line").is_hidden()
    game_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{server}/analysis?game={game_id}&review=1")
    wait_until(page, "window.kradan.current")
    assert page.locator("#review").is_hidden()
