"""SAN, long algebraic and Thai SAN (issue 2 item 5): written as Fairy-Stockfish writes them,
read back leniently, with typed errors for bad, illegal and ambiguous input."""

from __future__ import annotations

import pytest

from kradan import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError

PROMOTION = "4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1"
KNIGHTS = "4k3/8/8/8/8/1N3N2/8/1N1K1N2 w - - 0 1"
METS = "4k3/8/8/2M5/8/2M~5/8/3K4 w - - 0 1"


@pytest.mark.parametrize(
    ("fen", "uci", "san", "thai"),
    [
        (PROMOTION, "c5b6m", "cxb6=M", "คxข๖=M"),
        (PROMOTION, "c5c6m", "c6=M", "ค๖=M"),
        (PROMOTION, "e3e5", "Rxe5+", "รxจ๕+"),
        (PROMOTION, "d1e2", "Ke2", "ข-จ๒"),
        (KNIGHTS, "b1d2", "Nb1d2", "มข๑-ง๒"),
        (KNIGHTS, "f1h2", "N1h2", "ม๑-ญ๒"),
        (KNIGHTS, "b3d4", "Nbd4", "มข-ง๔"),
        (METS, "c3b4", "M3b4", "ง๓-ข๔"),  # a promoted met is ง in Thai, ม็ otherwise
        (METS, "c5b6", "Mb6", "ม็-ข๖"),
        ("k7/8/8/8/8/8/1R6/2RK4 w - - 0 1", "c1a1", "Ra1#", "ร-ก๑#"),
    ],
)
def test_san_and_thai_san(fen: str, uci: str, san: str, thai: str) -> None:
    board = Board(fen)
    move = board.parse_uci(uci)
    assert board.san(move) == san
    assert board.san(move, "thai") == thai
    assert board.parse_san(san) == move
    assert board.parse_san(thai) == move


@pytest.mark.parametrize(
    ("typed", "uci"),
    [
        ("e4", "e3e4"),
        ("e3e4", "e3e4"),
        ("e3-e4", "e3e4"),
        ("Nd2", "b1d2"),
        ("Nb1-d2", "b1d2"),
        ("Nd2+", "b1d2"),
        ("Nbd2", "b1d2"),
    ],
)
def test_parse_san_accepts_what_people_type(typed: str, uci: str) -> None:
    board = Board()
    assert board.parse_san(typed).uci() == uci


@pytest.mark.parametrize(
    ("typed", "uci"),
    [
        ("cxb6=M", "c5b6m"),
        ("cxb6", "c5b6m"),
        ("cb6", "c5b6m"),
        ("c6", "c5c6m"),
        ("c6=m", "c5c6m"),
        ("c6M", "c5c6m"),
    ],
)
def test_parse_san_promotions_with_or_without_x_and_equals(typed: str, uci: str) -> None:
    assert Board(PROMOTION).parse_san(typed).uci() == uci


def test_ambiguous_san_names_the_candidates() -> None:
    board = Board(KNIGHTS)
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_san("Nd2")
    message = str(info.value)
    assert "'Nd2'" in message and "Nb1d2" in message and "Nf3d2" in message


def test_two_candidates_are_already_ambiguous() -> None:
    board = Board("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1")
    with pytest.raises(AmbiguousMoveError, match="could be Nbd2, Nfd2"):
        board.parse_san("Nd2")


def test_pinned_piece_needs_no_disambiguation() -> None:
    """Fairy-Stockfish counts only rivals that could legally make the move."""
    board = Board("1k2r3/8/8/8/8/8/R3R3/4K3 w - - 0 1")
    assert board.san(board.parse_uci("a2d2")) == "Rd2"
    assert board.parse_san("Rd2").uci() == "a2d2"


@pytest.mark.parametrize("text", ["e5", "Ke3", "Nxe5", "Rd7", "R@d4"])
def test_illegal_san(text: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        Board().parse_san(text)
    assert repr(text) in str(info.value)
    assert Board().fen() in str(info.value)


@pytest.mark.parametrize("text", ["", "   ", "hello", "Qd4", "e9", "O-O"])
def test_invalid_san(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Board().parse_san(text)
    assert repr(text) in str(info.value)


def test_unknown_notation() -> None:
    board = Board()
    with pytest.raises(ValueError, match="unknown notation 'fancy'"):
        board.san(board.parse_uci("e3e4"), "fancy")


def test_san_of_an_illegal_move_raises() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError):
        board.san(board.parse_uci("e3e4").__class__.from_uci("e3e5"))


def test_drops_parse_in_latin_thai_and_long_thai() -> None:
    """docs/rules.md 5.2 (Sittuyin's setup): a drop is read as ``N@a1``, ``ม@ก๑`` and the long Thai
    ``ม @ก๑``, and a drop that is not legal is an illegal move, not a mystery."""
    board = Board(variant="sittuyin")
    for text in ("N@a1", "ม@ก๑", "ม @ก๑"):
        assert board.parse_san(text).uci() == "N@a1"
    rook = board.parse_uci("R@c1")
    assert [board.san(rook, notation) for notation in ("san", "lan", "thai", "thai_lan")] == [
        "R@c1", "R@c1", "ร@ค๑", "ร @ค๑"
    ]  # fmt: skip
    assert board.parse_san("ร@ค๑").uci() == "R@c1"
    with pytest.raises(IllegalMoveError):
        board.parse_san("R@e5")  # Black's half of the board


def test_an_illegal_move_in_thai_letters_is_illegal_not_invalid() -> None:
    """Well-formed Thai SAN that names no legal move is an IllegalMoveError, as for Latin."""
    board = Board()
    assert board.parse_san("ม-ง๒").uci() == "b1d2"
    with pytest.raises(IllegalMoveError) as info:
        board.parse_san("ข-จ๕")
    assert "'ข-จ๕'" in str(info.value)
    with pytest.raises(InvalidMoveError):
        board.parse_san("q๓")  # a Thai rank, but a letter that no notation has: not a move


def test_a_sittuyin_promotion_needs_its_letter() -> None:
    """docs/rules.md 5.5: in Sittuyin promotion is a move of its own, so a pawn's diagonal step
    without ``=F`` is no move at all (only Makruk's forced promotion may leave it out)."""
    board = Board("k7/8/8/4P3/8/8/8/7K w - - 0 40", variant="sittuyin")
    assert board.parse_san("e5d4=F").uci() == "e5d4f"
    assert board.parse_san("e5=F").uci() == "e5e5f"
    for text in ("e5d4", "e5e5"):
        with pytest.raises(IllegalMoveError):
            board.parse_san(text)


def test_long_thai_san_spells_the_piece_and_both_squares() -> None:
    """Long Thai notation: the piece's letter, a space, then both squares (as Fairy-Stockfish's
    THAI_LAN writes them), for a move and for a sutra's pawn step (docs/rules.md 2.8)."""
    board = Board()
    assert board.san(board.parse_uci("b1d2"), "thai_lan") == "ม ข๑-ง๒"
    assert board.san(board.parse_uci("e3e4"), "thai_lan") == "บ จ๓-จ๔"  # the pawn is named
    assert board.san(board.parse_uci("e3e4"), "thai") == "จ๔"  # ... only in long Thai
    sutra = Board(sut_ma=True)
    move = next(m for m in sutra.legal_moves if m.uci() == "a3a4,b1a3")
    assert sutra.san(move, "thai_lan") == "บ ก๓-ก๔,ม ข๑-ก๓"
    assert sutra.san(move, "thai") == "ก๔,ม-ก๓"


def test_a_notation_name_built_at_run_time_works() -> None:
    """A notation name read from a command line or a file is a string equal to the literal,
    not the same object; every notation must treat it alike."""
    board = Board(sut_ma=True)
    moves = [board.parse_uci(uci) for uci in ("b1d2", "e3e4")]
    moves.append(next(m for m in board.legal_moves if m.pawn_step))
    for name in ("san", "lan", "thai", "thai_lan"):
        built = "".join(list(name))
        assert built == name and built is not name
        assert [board.san(move, built) for move in moves] == [board.san(m, name) for m in moves]


@pytest.mark.parametrize("typed", ["Pe4", "บจ๔", "บ จ๓-จ๔", "จ๔", "e4"])
def test_a_pawn_move_may_name_the_pawn(typed: str) -> None:
    """People write the pawn's letter too: ``Pe4``, and in Thai ``บ`` (as long Thai does)."""
    assert Board().parse_san(typed).uci() == "e3e4"


@pytest.mark.parametrize("text", [None, 34, b"e4"])
def test_a_move_that_is_not_text_is_an_invalid_move(text: object) -> None:
    """A program that passes something other than a string gets the typed error, quoting it."""
    with pytest.raises(InvalidMoveError) as info:
        Board().parse_san(text)  # type: ignore[arg-type]
    assert repr(text) in str(info.value)


def test_text_made_of_every_thai_notation_character_is_judged_as_thai() -> None:
    """Thai-only text with a rank is an illegal move whatever it holds, even every character
    the notation has at once (the test is "only Thai-notation characters", not "fewer")."""
    from kradan.notation.san import _THAI_CHARS

    letters = sorted(_THAI_CHARS - {" "})
    text = letters[0] + " " + "".join(letters[1:])  # the space inside, where strip leaves it
    assert set(text) == _THAI_CHARS
    with pytest.raises(IllegalMoveError):
        Board().parse_san(text)
