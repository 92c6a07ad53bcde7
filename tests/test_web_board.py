"""More of the board in the browser (issue 12), with real clicks and drags in Debian's Chromium:
Sittuyin's screened setup on one screen, the move list in Thai SAN, a Makruk game against the
engine played to its end, premoves, and a spectator who watches live. The server and the helpers
are in ``tests/conftest.py`` and ``tests/browser_support.py``.

With ``KRADAN_WEB_SCREENSHOTS=1`` the screened setup is saved as
``docs/images/web-sittuyin-setup.png`` and the Thai SAN move list as ``web-thai-san.png``.
"""

from __future__ import annotations

from typing import Any

from kradan import Board
from tests.browser_support import (
    Page,
    click_square,
    drag_from_pocket,
    drag_square,
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

WHITE_CAMP = {
    "a1": "r", "h1": "r", "b2": "n", "g2": "n", "c1": "s", "f1": "s", "d2": "f", "e2": "k",
}  # fmt: skip
BLACK_CAMP = {
    "a8": "r", "h8": "r", "b7": "n", "g7": "n", "c8": "s", "f8": "s", "e7": "f", "d7": "k",
}  # fmt: skip


def start_screened_game(page: Page, server: str, opponent: str, level: int | None = None) -> None:
    page.goto(server + "/")
    page.select_option("#variant", "sittuyin")
    page.click(".rule-options summary")
    page.select_option(
        'fieldset.rules[data-variant="sittuyin"] [data-option="sittuyin_setup"]', "screened"
    )
    page.check(f'input[name="opponent"][value="{opponent}"]')
    if level is not None:
        page.eval_on_selector("#level", f"el => {{ el.value = '{level}'; }}")
    page.click("#start")
    page.wait_for_url("**/games/*")
    wait_until(page, "window.kradan.board && window.kradan.game")
    page.evaluate("window.kradan.board.set({animation: {enabled: false}})")


HAND = {"k": 1, "f": 1, "s": 2, "n": 2, "r": 2}


def arrange(page: Page, pocket: str, camp: dict[str, str]) -> None:
    """Drag each piece of ``camp`` from the ``pocket`` (``#pocket-bottom``) to its square; the
    pocket counts down."""
    for square, role in camp.items():
        expect(page.locator("#setup-done")).to_be_disabled()
        drag_from_pocket(page, pocket, role, square)
        placed = piece_on(page, square)
        assert placed is not None and placed["role"] == f"{role}-piece", square
        on_board = sum(
            1 for piece in board_pieces(page).values() if piece == placed["color"][0] + role
        )
        expect(page.locator(f"{pocket} piece[data-role='{role}-piece']")).to_have_attribute(
            "data-nb", str(HAND[role] - on_board)
        )


def board_pieces(page: Page) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        "Object.fromEntries(Array.from(window.kradan.board.state.boardState.pieces,"
        " ([k, p]) => [k, p.color[0] + p.role[0]]))"
    )
    return found


def test_a_screened_sittuyin_setup_on_one_screen(page: Page, server: str) -> None:
    start_screened_game(page, server, "here")
    state = game(page)
    assert state["setup"] == {"white": False, "black": False} and state["legal_moves"] == []
    # the screen comes first: White arranges, Black looks away
    screen = page.locator("#setup-screen")
    expect(screen).to_be_visible()
    expect(screen).to_contain_text("White arranges")
    page.click("#setup-reveal")
    expect(screen).to_be_hidden()
    # a chariot may only go on the back rank: dropped on b2 it goes back to the pocket
    drag_from_pocket(page, "#pocket-bottom", "r", "b2")
    assert piece_on(page, "b2") is None
    arrange(page, "#pocket-bottom", WHITE_CAMP)
    # a piece already placed moves within the camp (the king to e3 and back)
    drag_square(page, "e2", "e3")
    assert piece_on(page, "e3") == {"role": "k-piece", "color": "white", "promoted": False}
    drag_square(page, "e3", "e2")
    assert game(page)["setup"] == {"white": False, "black": False}  # nothing sent yet
    page.click("#setup-done")
    wait_until(page, "window.kradan.game.setup && window.kradan.game.setup.white")
    # Black's turn behind the screen: White's camp is gone from the board
    expect(screen).to_be_visible()
    expect(screen).to_contain_text("Black arranges")
    assert set(board_pieces(page).values()) == {"wp", "bp"}
    page.click("#setup-reveal")
    assert set(board_pieces(page).values()) == {"wp", "bp"}  # Black sees pawns only
    arrange(page, "#pocket-top", dict(list(BLACK_CAMP.items())[:5]))
    screenshot(page, "sittuyin-setup")
    arrange(page, "#pocket-top", dict(list(BLACK_CAMP.items())[5:]))
    page.click("#setup-done")
    wait_until(page, "window.kradan.game.ply === 16")
    expected = Board(variant="sittuyin", sittuyin_setup="screened")
    expected.submit_setup(True, {sq: r.upper() for sq, r in WHITE_CAMP.items()})
    expected.submit_setup(False, {sq: r.upper() for sq, r in BLACK_CAMP.items()})
    state = game(page)
    assert state["fen"] == expected.fen() and state["setup"] is None
    expect(page.locator("#setup-panel")).to_be_hidden()
    expect(page.locator("#pocket-bottom")).to_be_hidden()
    expect(page.locator("#moves .move")).to_have_count(16)
    play(page, "a3a4")
    assert game(page)["moves"][-1] == "a3a4"


def test_a_screened_setup_against_the_engine(page: Page, server: str) -> None:
    start_screened_game(page, server, "engine", level=1)
    wait_until(page, "window.kradan.game.setup && window.kradan.game.setup.black")
    expect(page.locator("#setup-screen")).to_be_hidden()  # one person: nothing to hide
    assert set(board_pieces(page).values()) == {"wp", "bp"}  # the engine's camp is unseen
    arrange(page, "#pocket-bottom", WHITE_CAMP)
    page.click("#setup-done")
    wait_until(page, "window.kradan.game.ply === 16")
    black = {k: v for k, v in board_pieces(page).items() if v.startswith("b") and v != "bp"}
    assert len(black) == 8  # the engine's camp, shown once both are in
    play(page, "a3a4")
    wait_until(page, "window.kradan.game.ply >= 18", timeout=120_000)


def test_the_move_list_in_thai_san(page: Page, server: str) -> None:
    page.goto(server + "/")
    page.evaluate("localStorage.removeItem('kradan.notation')")
    new_game(page, server, "makruk")
    play(page, "e3e4")
    play(page, "g6g5")
    play(page, "f1e2")
    moves = page.locator("#moves .move")
    expect(moves).to_have_text(["e4", "g5", "Se2"])
    button = page.locator("#notation")
    expect(button).to_have_text("Moves in Thai SAN")
    button.click()
    expect(moves).to_have_text(game(page)["thai_san"])
    assert game(page)["thai_san"][:2] == ["จ๔", "ช๕"]
    expect(button).to_have_text("Moves in SAN")
    screenshot(page, "thai-san")
    # the choice is kept: the next board shows Thai SAN at once
    page.reload()
    wait_until(page, "window.kradan.board && window.kradan.game")
    expect(page.locator("#moves .move").first).to_have_text("จ๔")
    page.click("#notation")
    expect(page.locator("#moves .move").first).to_have_text("e4")
    assert page.evaluate("localStorage.getItem('kradan.notation')") == "san"
    # Alquerque has no Thai SAN: no such button
    new_game(page, server, "alquerque")
    expect(page.locator("#notation")).to_be_hidden()


def test_a_makruk_game_against_the_engine_to_its_end(page: Page, server: str) -> None:
    # White mates in two: 1. Kb6 leaves Black's king only b8, then 2. Rh8 mates
    new_game(page, server, "makruk", "engine", fen="k7/8/2K5/8/8/8/8/7R w - - 0 1", level=1)
    play(page, "c6b6")
    wait_until(page, "window.kradan.game.ply >= 2", timeout=120_000)
    assert game(page)["moves"] == ["c6b6", "a8b8"]
    play(page, "h1h8")
    wait_until(page, "window.kradan.game.status === 'ended'")
    state = game(page)
    assert state["result"] == "1-0" and state["termination"] == "checkmate"
    expect(page.locator("#status")).to_contain_text("1-0")
    expect(page.locator("#status")).to_contain_text("checkmate")
    expect(page.locator('[data-action="resign"]')).to_be_hidden()
    assert page.evaluate("window.kradan.board.state.movable.color") is None


def test_a_premove_is_played_when_the_engine_has_moved(page: Page, server: str) -> None:
    # at level 20 the engine thinks for its full time (two seconds a move without a clock)
    new_game(page, server, "makruk", "engine", level=20)
    play(page, "a3a4")
    # the engine thinks: the next move is entered now, as a premove
    assert game(page)["ply"] == 1
    click_square(page, "h3")
    click_square(page, "h4")
    assert page.evaluate("window.kradan.board.state.premovable.current") == ["h3", "h4"]
    wait_until(page, "window.kradan.game.ply >= 3", timeout=120_000)
    state = game(page)
    assert state["moves"][0] == "a3a4" and state["moves"][2] == "h3h4"
    assert piece_on(page, "h4") == {"role": "p-piece", "color": "white", "promoted": False}


def test_a_spectator_watches_live_and_cannot_move(
    page: Page, server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    new_game(page, server, "makruk")
    url = page.url
    watcher = browser.new_context(**browser_context_args).new_page()
    try:
        watcher.goto(url)
        wait_until(watcher, "window.kradan.board && window.kradan.game")
        assert watcher.evaluate("window.kradan.game.seat") is None
        play(page, "e3e4")
        wait_until(watcher, "window.kradan.game.ply >= 1")  # over the websocket
        assert piece_on(watcher, "e4") == {"role": "p-piece", "color": "white", "promoted": False}
        play(page, "d6d5")
        wait_until(watcher, "window.kradan.game.ply >= 2")
        expect(watcher.locator("#moves .move")).to_have_text(["e4", "d5"])
        # the watcher tries to move White: the board does not let it, the server would refuse
        assert watcher.evaluate("window.kradan.board.state.movable.color") is None
        click_square(watcher, "e4")
        click_square(watcher, "d5")
        watcher.wait_for_timeout(300)
        assert game(watcher)["ply"] == 2 and game(page)["ply"] == 2
        for action in ("resign", "offer_draw", "takeback"):
            expect(watcher.locator(f'[data-action="{action}"]')).to_be_hidden()
        answer = watcher.request.post(
            url.replace("/games/", "/api/games/") + "/moves", data={"move": "e4d5"}
        )
        assert answer.status == 401
    finally:
        watcher.context.close()


def test_a_screened_setup_by_invitation(
    page: Page, server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    page.goto(server + "/")
    page.select_option("#variant", "sittuyin")
    page.click(".rule-options summary")
    page.select_option(
        'fieldset.rules[data-variant="sittuyin"] [data-option="sittuyin_setup"]', "screened"
    )
    page.check('input[name="opponent"][value="invite"]')
    page.click("#start")
    expect(page.locator("#invitation")).to_be_visible()
    link = page.input_value("#invite-link")
    page.click("#go-to-game")
    wait_until(page, "window.kradan.board && window.kradan.game")
    expect(page.locator("#setup-screen")).to_be_hidden()  # one person at this screen
    arrange(page, "#pocket-bottom", WHITE_CAMP)
    page.click("#setup-done")
    wait_until(page, "window.kradan.game.setup && window.kradan.game.setup.white")
    expect(page.locator("#setup-text")).to_contain_text("Waiting for Black")
    # White still sees the camp it handed in, after a reload too (the server keeps it for its seat)
    page.reload()
    wait_until(page, "window.kradan.board && window.kradan.game")
    assert piece_on(page, "e2") == {"role": "k-piece", "color": "white", "promoted": False}
    friend = browser.new_context(**browser_context_args).new_page()
    try:
        friend.goto(link)
        friend.wait_for_url("**/games/*")
        wait_until(friend, "window.kradan.board && window.kradan.game")
        friend.evaluate("window.kradan.board.set({animation: {enabled: false}})")
        assert friend.evaluate("window.kradan.board.state.orientation") == "black"
        assert set(board_pieces(friend).values()) == {"wp", "bp"}  # White's camp stays unseen
        expect(friend.locator("#setup-screen")).to_be_hidden()
        arrange(friend, "#pocket-bottom", BLACK_CAMP)  # Black's pocket is at its own edge
        assert set(board_pieces(page).values()) == {"wp", "bp", "wk", "wf", "ws", "wn", "wr"}
        friend.click("#setup-done")
        wait_until(page, "window.kradan.game.ply === 16")
        wait_until(friend, "window.kradan.game.ply === 16")
        assert board_pieces(page) == board_pieces(friend)
        play(page, "a3a4")
        wait_until(friend, "window.kradan.game.ply === 17")
    finally:
        friend.context.close()
