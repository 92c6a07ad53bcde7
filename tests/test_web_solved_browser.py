"""The analysis board in Chromium shows the proven verdict of a Bell Alquerque position
(issue 48 item 4): after White's d2-c3 (the shipped strategy table's root), the number of plies
and the winning move the table gives, in the evaluation bar and in the line of that move too;
the start position, which is not proven, shows none."""

from __future__ import annotations

from kradan.alquerque import Board
from kradan.solve.answers import proven
from tests.browser_support import Page, needs_browser, wait_until

pytestmark = needs_browser


def test_the_analysis_board_shows_the_proven_verdict(page: Page, server: str) -> None:
    board = Board(variant="alquerque-bell")
    board.push_uci("d2c3")
    verdict = proven(board)
    assert verdict is not None and verdict.move is not None
    page.goto(server + "/analysis?variant=alquerque-bell&moves=d2c3")
    wait_until(page, "!document.querySelector('#proven-verdict').hidden", 60_000)
    text = page.text_content("#proven-verdict") or ""
    assert f"wins in {verdict.plies} plies, with {board.san(verdict.move)}" in text
    # the bar and the proven move's line give the proof's value, not the search's centipawns:
    # Black to move wins, so White's chance is 0 and the score a mate for Black, in moves
    assert page.get_attribute("#eval-bar", "aria-valuenow") == "0"
    wait_until(page, "document.querySelectorAll('#engine-lines .engine-line').length >= 1", 60_000)
    page.select_option("#multipv", "5")
    wait_until(page, "document.querySelector('#engine-lines .engine-proven') !== null", 60_000)
    score = page.text_content("#engine-lines .engine-proven .engine-score")
    assert score == f"#-{(verdict.plies + 1) // 2}"
    page.goto(server + "/analysis?variant=alquerque-bell")
    wait_until(page, "document.querySelectorAll('#engine-lines .engine-line').length >= 1", 60_000)
    assert page.evaluate("document.querySelector('#proven-verdict').hidden")
