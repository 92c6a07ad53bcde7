"""What the first players hit on the game page (issue 46), with real input in Debian's Chromium:
the mated king marked, the Content Security Policy kept on every game's page, the games list in
the reader's language. The server, the launch arguments and the helpers are in
``tests/conftest.py`` and ``tests/browser_support.py``."""

from __future__ import annotations

import re
from typing import Any

from tests.browser_support import (
    Page,
    click_square,
    expect,
    game,
    needs_browser,
    new_game,
    play,
    wait_until,
)

pytestmark = needs_browser

#: every game's page is opened with the CSP's violations counted from the first script on
VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', event => {
  window.__cspViolations.push(event.violatedDirective + ' ' + (event.sourceFile || '') + ':' +
    event.lineNumber);
});
"""

GAMES = [
    ("makruk", 8, 8),
    ("cambodian", 8, 8),
    ("karouk", 8, 8),
    ("sittuyin", 8, 8),
    ("alquerque", 5, 5),
]


def test_no_game_page_breaks_the_content_security_policy(page: Page, server: str) -> None:
    """Issue 46: Kar Ouk and Sittuyin logged two violations each (the pockets' style)."""
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.on("pageerror", lambda error: console.append(str(error)))
    page.add_init_script(VIOLATIONS)
    for variant, _, _ in GAMES:
        new_game(page, server, variant)
        page.reload()  # the board page as it opens, not only as the form leads to it
        wait_until(page, "window.kradan.board && window.kradan.game")
        page.evaluate("window.kradan.board.redrawAll()")
        page.wait_for_timeout(200)
        violations = page.evaluate("window.__cspViolations")
        assert violations == [], (variant, violations)
    assert not [text for text in console if "Content Security Policy" in text], console


def test_the_mated_king_is_marked(page: Page, server: str) -> None:
    new_game(page, server, "makruk", fen="k7/8/1K6/8/8/8/8/7R w - - 0 1")
    play(page, "h1h8")
    assert game(page)["status"] == "ended" and game(page)["check"] == "a8"
    expect(page.locator("#move-form")).to_be_hidden()  # no move box after the end
    expect(page.locator("#board cg-board square.check")).to_have_count(1)
    checked = page.evaluate("window.kradan.board.state.check")
    assert checked == ["a8"] or checked == "a8"


def test_the_games_list_speaks_thai(page: Page, server: str, browser_context_args: Any) -> None:
    """Issue 46: the players of the home page's list were 'human – engine level 1' in Thai."""
    page.context.add_cookies([{"name": "kradan_lang", "value": "th", "url": server}])
    new_game(page, server, "makruk", "engine", level=1)
    page.goto(server + "/")
    first = page.locator("#recent-games li a").first
    expect(first).to_contain_text("คน – คอมพิวเตอร์ ระดับ 1")
    assert "human" not in (first.text_content() or "")


#: the centre of an element's text (not of its box), on the page
TEXT_CENTRE = """element => {
  const range = document.createRange();
  range.selectNodeContents(element);
  const box = range.getBoundingClientRect();
  return [box.x + box.width / 2, box.y + box.height / 2];
}"""


def test_alquerques_coordinates_stand_on_the_lines(page: Page, server: str) -> None:
    """Issue 46: the labels sat in the cells' corners; each now stands on its line, centred
    on the row or column of points it names."""
    new_game(page, server, "alquerque")
    box = page.locator("#board cg-board").bounding_box()
    assert box is not None
    cell = box["width"] / 5
    ranks = page.locator("#board coords.side coord")
    files = page.locator("#board coords.bottom coord")
    expect(ranks).to_have_count(5)
    expect(files).to_have_count(5)
    for index in range(5):
        rank, file = ranks.nth(index), files.nth(index)
        label, letter = rank.text_content() or "", file.text_content() or ""
        _, y = page.evaluate(TEXT_CENTRE, rank.element_handle())
        row = 5 - int(label)  # White at the bottom
        assert abs(y - (box["y"] + (row + 0.5) * cell)) < 3, (label, y)
        x, _ = page.evaluate(TEXT_CENTRE, file.element_handle())
        column = ord(letter) - ord("a")
        assert abs(x - (box["x"] + (column + 0.5) * cell)) < 3, (letter, x)


def _square_box(page: Page, key: str) -> dict[str, float]:
    box = page.locator("#board cg-board").bounding_box()
    assert box is not None
    size = box["width"] / 8
    file, rank = ord(key[0]) - 97, int(key[1:]) - 1
    if page.evaluate("window.kradan.board.state.orientation") == "black":
        file, rank = 7 - file, 7 - rank
    return {"x": box["x"] + file * size, "y": box["y"] + (7 - rank) * size, "size": size}


def test_the_promotion_chooser_leaves_the_pawn_in_sight(page: Page, server: str) -> None:
    """Issue 46: the chooser's box stood over the middle of the board, on the pawn; it stands
    in the half away from the pawn now, with either side at the bottom."""
    new_game(page, server, "sittuyin", fen="r3k3/8/8/4P3/8/8/8/R3K3[] w - - 0 1")
    for flipped in (False, True):
        if flipped:
            page.click("#flip")
        click_square(page, "e5")
        click_square(page, "e5")  # a second click promotes in place
        chooser = page.locator("#chooser .choices")
        expect(chooser).to_be_visible()
        box = chooser.bounding_box()
        assert box is not None
        square = _square_box(page, "e5")
        apart = (
            box["y"] >= square["y"] + square["size"] - 1
            or box["y"] + box["height"] <= square["y"] + 1
        )
        assert apart, (flipped, box, square)
        page.click("#chooser button.cancel")
        expect(page.locator("#chooser")).to_be_hidden()
    page.click("#flip")
    click_square(page, "e5")
    click_square(page, "e5")
    page.click("#chooser button.piece-choice")
    wait_until(page, "window.kradan.game.ply >= 1")
    assert game(page)["moves"] == ["e5e5f"]


def test_a_lost_connection_is_shown_and_stops_the_clocks(page: Page, server: str) -> None:
    """Issue 46: with the socket gone the page said nothing and its clocks ran on. Now a banner
    says so, the clocks stand still, and both come back with the server's state."""
    sockets: list[Any] = []
    dropped = [False]

    def route(socket: Any) -> None:
        if dropped[0]:
            socket.close()  # the server cannot be reached: the page tries again later
            return
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket("**/socket", route)
    page.goto(server + "/")
    page.select_option("#variant", "makruk")
    page.check('input[name="opponent"][value="here"]')
    page.check("#clock-on")
    page.click("#start")
    page.wait_for_url("**/games/*")
    wait_until(page, "window.kradan.board && window.kradan.game && window.kradan.socketOpen")
    page.evaluate("window.kradan.board.set({animation: {enabled: false}})")
    play(page, "e3e4")
    play(page, "d6d5")  # the clocks start with the second move: White's runs
    wait_until(page, "window.kradan.game.clock.running === 'white'")
    expect(page.locator("#connection")).to_be_hidden()
    dropped[0] = True
    for socket in sockets:
        socket.close()
    banner = page.locator("#connection")
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Connection lost, reconnecting…")
    assert banner.get_attribute("role") == "alert"
    clock = page.locator(".clock.running")
    before = clock.text_content()
    page.wait_for_timeout(1500)
    assert clock.text_content() == before  # stands still while the state cannot come
    dropped[0] = False
    wait_until(page, "window.kradan.socketOpen", timeout=30_000)
    expect(banner).to_be_hidden()
    page.wait_for_timeout(1200)
    assert clock.text_content() != before  # runs again from the server's time


def test_the_invitation_link_stays_on_the_board_page(
    page: Page, server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    """Issue 46: the link was shown once, on the new-game page. The inviter's board page keeps
    it (with Copy) until the friend has come by it; nobody else sees it."""
    page.goto(server + "/")
    page.select_option("#variant", "makruk")
    page.check('input[name="opponent"][value="invite"]')
    page.click("#start")
    expect(page.locator("#invitation")).to_be_visible()
    link = page.input_value("#invite-link")
    page.click("#go-to-game")  # without copying the link
    wait_until(page, "window.kradan.board && window.kradan.game")
    page.reload()
    wait_until(page, "window.kradan.board && window.kradan.game && window.kradan.socketOpen")
    expect(page.locator("#invitation")).to_be_visible()
    assert page.input_value("#invite-link") == link
    page.click("#copy-invite")
    assert (
        page.evaluate("document.getSelection().toString() || document.activeElement.value") == link
    )
    game_url = page.url
    spectator = browser.new_context(**browser_context_args).new_page()
    friend = browser.new_context(**browser_context_args).new_page()
    try:
        spectator.goto(game_url)
        wait_until(spectator, "window.kradan.board && window.kradan.game")
        expect(spectator.locator("#invitation")).to_be_hidden()
        friend.goto(link)
        friend.wait_for_url("**/games/*")
        wait_until(friend, "window.kradan.board && window.kradan.game")
        expect(friend.locator("#invitation")).to_be_hidden()
        expect(page.locator("#invitation")).to_be_hidden()  # told over the socket
        page.reload()
        wait_until(page, "window.kradan.board && window.kradan.game")
        expect(page.locator("#invitation")).to_be_hidden()
        play(page, "e3e4")
        wait_until(friend, "window.kradan.game.ply >= 1")
        play(friend, "d6d5")
        wait_until(page, "window.kradan.game.ply >= 2")
    finally:
        spectator.context.close()
        friend.context.close()


def _open_game(page: Page, server: str, **body: Any) -> str:
    """A game made through the API (no click), its seats kept as the new-game form keeps them;
    its board page open. Returns its id."""
    page.goto(server + "/")
    made = page.request.post(server + "/api/games", data=body).json()
    page.evaluate(
        """made => {
          const seats = {[made.color]: made.token};
          if (made.invite) seats[made.color === 'white' ? 'black' : 'white'] = made.invite;
          localStorage.setItem('kradan.seats', JSON.stringify({[made.id]: seats}));
        }""",
        made,
    )
    page.goto(f"{server}/games/{made['id']}")
    wait_until(page, "window.kradan.board && window.kradan.game && window.kradan.socketOpen")
    page.evaluate("window.kradan.board.set({animation: {enabled: false}})")
    return str(made["id"])


def _tab_to(page: Page, element_id: str) -> None:
    for _ in range(60):
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def _type_move(page: Page, text: str) -> None:
    before = game(page)["ply"]
    _tab_to(page, "move-input")
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    wait_until(page, f"window.kradan.game.ply > {before}")


def test_a_game_played_with_the_keyboard_alone(page: Page, server: str) -> None:
    """Issue 46: nothing inside the board took the focus and there was no move box. Now the
    board takes the arrow keys and Enter, and the move box SAN, Thai SAN and UCI."""
    _open_game(page, server, variant="makruk", opponent="human")
    board = page.locator("#board-frame")
    assert board.get_attribute("aria-label") == "Board"
    _tab_to(page, "board-frame")
    expect(page.locator("#key-focus")).to_be_visible()
    # from d2: up to d3, right to e3; pick the pawn up, up to e4, put it down
    for key in ("ArrowUp", "ArrowRight"):
        page.keyboard.press(key)
    expect(page.locator("#key-square")).to_have_text("e3: White pawn")
    page.keyboard.press("Enter")
    expect(page.locator("#key-square")).to_have_text("e3: White pawn, picked up")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    wait_until(page, "window.kradan.game.ply === 1")
    assert game(page)["moves"] == ["e3e4"]
    _type_move(page, "d5")  # SAN
    _type_move(page, "จxง๕")  # Thai SAN
    _type_move(page, "c6d5")  # UCI
    assert game(page)["moves"] == ["e3e4", "d6d5", "e4d5", "c6d5"]
    # a move that is not one: a clear message, and nothing sent
    _tab_to(page, "move-input")
    page.keyboard.type("Zz9")
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_have_text("Not a legal move: Zz9")
    expect(page.locator("#move-input")).to_have_attribute("aria-invalid", "true")
    assert game(page)["ply"] == 4
    for name in ("#nav-first", "#nav-prev", "#nav-next", "#nav-last"):
        assert page.locator(name).get_attribute("aria-label")
    assert page.locator("#moves").get_attribute("aria-label") == "Moves"


def test_a_promotion_chosen_with_the_keyboard(page: Page, server: str) -> None:
    _open_game(
        page,
        server,
        variant="sittuyin",
        opponent="human",
        fen="r3k3/8/8/4P3/8/8/8/R3K3[] w - - 0 1",
    )
    _tab_to(page, "board-frame")
    # from d2 to e5: three up, one right; Enter twice promotes in place
    for key in ("ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight", "Enter", "Enter"):
        page.keyboard.press(key)
    expect(page.locator("#chooser")).to_be_visible()
    # the page moves the focus into the box a moment after it opens
    wait_until(page, "document.activeElement.closest('#chooser') !== null")
    page.keyboard.press("Enter")  # the focused choice: promote
    wait_until(page, "window.kradan.game.ply === 1")
    assert game(page)["moves"] == ["e5e5f"]
    assert page.evaluate("document.activeElement.id") == "board-frame"


def test_the_opponents_move_is_announced(
    page: Page, server: str, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    game_id = _open_game(page, server, variant="makruk", opponent="engine", level=1)
    announce = page.locator("#announce")
    assert announce.get_attribute("aria-live") == "polite"
    _type_move(page, "e4")
    wait_until(page, "window.kradan.game.ply >= 2", timeout=120_000)
    reply = game(page)["san"][1]
    expect(announce).to_have_text(f"Black played {reply}")
    # a spectator in Thai hears both sides, in Thai
    context = browser.new_context(**browser_context_args)
    context.add_cookies([{"name": "kradan_lang", "value": "th", "url": server}])
    spectator = context.new_page()
    try:
        spectator.goto(f"{server}/games/{game_id}")
        wait_until(spectator, "window.kradan.game && window.kradan.socketOpen")
        expect(spectator.locator("#move-form")).to_be_hidden()  # a spectator only watches
        _type_move(page, "d4")
        wait_until(spectator, "window.kradan.game.ply >= 3")
        # White's d4, or the engine's reply if it came as fast
        expect(spectator.locator("#announce")).to_have_text(re.compile(r"^ฝ่าย(ขาว|ดำ)เดิน \S+$"))
    finally:
        context.close()
