"""The board in the browser (issue 12), with real clicks in Debian's Chromium. The server, the
launch arguments and the helpers are in ``tests/conftest.py`` and ``tests/browser_support.py``.

With ``KRADAN_WEB_SCREENSHOTS=1`` each game's page is also saved as ``docs/images/web-<game>.png``.
"""

from __future__ import annotations

from typing import Any

from tests.browser_support import (
    Page,
    click_square,
    expect,
    game,
    needs_browser,
    new_game,
    piece_on,
    play,
    screenshot,
    wait_until,
)

pytestmark = needs_browser


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


def test_an_odd_start_position_is_played_with_a_warning(page: Page, server: str) -> None:
    """Issue 43: a position Fairy-Stockfish loads opens, and the board page says what is odd."""
    new_game(page, server, "makruk", fen="4k3/8/8/8/8/8/8/3KR3 w - - 0 1")
    wait_until(page, "!document.querySelector('#message').hidden")
    assert page.text_content("#message") == ("Odd start position: the side not to move is in check")
    screenshot(page, "odd-position")


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


def test_sound_can_be_turned_off_and_the_picture_comes_as_png(page: Page, server: str) -> None:
    new_game(page, server, "makruk")
    play(page, "e3e4")
    assert page.evaluate("window.kradan.sounds") == 1  # a knock for the move
    expect(page.locator("#sound")).to_have_text("Sound off")
    page.click("#sound")
    expect(page.locator("#sound")).to_have_text("Sound on")
    play(page, "d6d5")
    assert page.evaluate("window.kradan.sounds") == 1  # silence, and it is remembered
    page.reload()
    wait_until(page, "window.kradan.board && window.kradan.game")
    expect(page.locator("#sound")).to_have_text("Sound on")
    with page.expect_download() as caught:
        page.click("#download-png")
    download = caught.value
    assert download.suggested_filename.endswith(".png")
    path = download.path()
    assert path is not None
    with open(path, "rb") as picture:
        assert picture.read(8) == b"\x89PNG\r\n\x1a\n"
