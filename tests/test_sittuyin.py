"""Sittuyin (docs/rules.md 5): the setup phase as drops, the screened setup, and promotion."""

from __future__ import annotations

import pytest

from kradan import (
    BLACK,
    FERZ,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidSetupError,
    Move,
    Piece,
    parse_square,
)
from kradan.sittuyin_setup import PRESETS

START = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"
EXAMPLE = [
    "R@a1",
    "R@a8",
    "R@h1",
    "R@h8",
    "K@e2",
    "K@e7",
    "F@d2",
    "F@d7",
    "S@c1",
    "S@c8",
    "S@f1",
    "S@f8",
    "N@b2",
    "N@b7",
    "N@g2",
    "N@g7",
]
AFTER_SETUP = "r1s2s1r/1n1fk1n1/4pppp/pppp4/4PPPP/PPPP4/1N1FK1N1/R1S2S1R[] w - - 0 9"


def ucis(board: Board) -> set[str]:
    return {m.uci() for m in board.legal_moves}


def test_start_position_hand_and_aliases() -> None:
    """docs/rules.md 5.2: the pieces start in hand; FSF writes the hand K, S, F, R, N per side."""
    for name in ("sittuyin", "burmese", "Burmese chess"):
        assert Board(variant=name).fen() == START
    board = Board(variant="sittuyin")
    assert board.hand(WHITE) == {2: 2, 3: 2, 7: 1, 5: 2, 6: 1}


def test_setup_is_a_sequence_of_drops() -> None:
    """docs/rules.md 5.3: 4 piece types x 20 squares + 8 rook squares; every move is a drop."""
    board = Board(variant="sittuyin")
    moves = list(board.legal_moves)
    assert len(moves) == 88 and all(m.drop is not None for m in moves)
    rook_squares = {m.uci()[2:] for m in moves if m.uci().startswith("R@")}
    assert rook_squares == {f"{f}1" for f in "abcdefgh"}  # rooks only on the back rank
    king_squares = {m.uci()[2:] for m in moves if m.uci().startswith("K@")}
    assert "a3" not in king_squares and "e3" in king_squares and "e4" not in king_squares
    assert len(king_squares) == 20


def test_whole_setup_reaches_the_fsf_position() -> None:
    board = Board(variant="sittuyin")
    for uci in EXAMPLE:
        board.push_uci(uci)
    assert board.fen() == AFTER_SETUP
    assert all(m.drop is None for m in board.legal_moves)
    assert "e4d5" in ucis(board)


def test_a_fen_without_a_hand_is_a_finished_setup() -> None:
    board = Board(AFTER_SETUP.replace("[]", ""), variant="sittuyin")
    assert board.fen() == AFTER_SETUP


def test_pawns_do_not_promote_by_moving() -> None:
    """docs/rules.md 5.4: a pawn may walk to the last rank and stay a pawn there."""
    board = Board("k7/4P3/8/8/8/8/8/K7[] w - - 0 1", variant="sittuyin")
    assert "e7e8" in ucis(board)
    board.push_uci("e7e8")
    assert board.piece_at(parse_square("e8")) == Piece(1, WHITE)


def test_promotion_in_place_or_one_diagonal_step() -> None:
    """docs/rules.md 5.5 (ST7): a last pawn promotes anywhere, in place or diagonally."""
    board = Board("4k3/8/8/8/8/8/P7/4K3[] w - - 0 1", variant="sittuyin")
    assert {m.uci() for m in board.legal_moves if m.promotion} == {"a2a2f", "a2b1f", "a2b3f"}
    move = board.parse_uci("a2a2f")
    assert board.san(move) == "a2=F" and board.san(board.parse_uci("a2b3f")) == "a2b3=F"
    board.push(move)
    assert board.piece_at(parse_square("a2")) == Piece(FERZ, WHITE, promoted=True)
    assert board.fen(show_promoted=True) == "4k3/8/8/8/8/8/F~7/4K3[] b - - 0 1"


def test_promotion_may_not_attack_a_piece() -> None:
    """ST6: in place d5 would attack the knight on c6."""
    board = Board("4k3/8/2n5/3P4/8/8/P7/4K3[] w - - 0 1", variant="sittuyin")
    assert {m.uci() for m in board.legal_moves if m.promotion} == {"d5c4f", "d5e4f", "d5e6f"}


def test_promotion_may_not_uncover_a_check() -> None:
    board = Board("3k4/8/8/3P4/8/8/P7/3RK3[] w - - 0 1", variant="sittuyin")
    assert {m.uci() for m in board.legal_moves if m.promotion} == {"d5d5f"}


def test_promotion_may_not_uncover_a_check_along_a_rank() -> None:
    """The rook on a5 would see the king on h5 once the pawn steps off d5: only in place."""
    board = Board("8/8/8/R2P3k/8/8/P7/4K3[] w - - 0 1", variant="sittuyin")
    assert {m.uci() for m in board.legal_moves if m.promotion} == {"d5d5f"}


@pytest.mark.parametrize(
    ("fen", "blocks"),
    [
        ("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", {"N@b1", "N@c1", "N@d1"}),
        ("R3k3/8/8/8/8/8/8/4K3[n] b - - 0 1", {"N@b8", "N@c8", "N@d8"}),
    ],
)
def test_a_drop_in_check_must_block(fen: str, blocks: set[str]) -> None:
    """docs/rules.md 5.2: a setup drop is a move; in check only a drop between king and rook."""
    board = Board(fen, variant="sittuyin")
    assert board.is_check()
    assert {m.uci() for m in board.legal_moves} == blocks


def test_a_drop_in_double_check_is_impossible() -> None:
    board = Board("4k3/8/8/8/8/8/8/r3K2r[N] w - - 0 1", variant="sittuyin")
    assert not any(board.legal_moves)
    assert board.is_checkmate()


@pytest.mark.parametrize(
    ("fen", "taken"),
    [
        ("4k3/8/8/8/8/8/8/r2nK3[N] w - - 0 1", "N@d1"),
        ("R2Nk3/8/8/8/8/8/8/4K3[n] b - - 0 1", "N@d8"),
    ],
)
def test_a_rook_screened_by_its_own_knight_gives_no_check_to_drops(fen: str, taken: str) -> None:
    """Every empty square of the camp takes a drop (21 here); the knight's square does not."""
    board = Board(fen, variant="sittuyin")
    drops = {m.uci() for m in board.legal_moves}
    assert not board.is_check() and len(drops) == 21 and taken not in drops


def test_only_pawns_on_promotion_squares_and_only_without_a_sitke() -> None:
    board = Board("4k3/8/8/3P4/8/1P6/8/4K3[] w - - 0 1", variant="sittuyin")
    promoting = {m.uci()[:2] for m in board.legal_moves if m.promotion}
    assert promoting == {"d5"}  # b3 is not on a sit-ke line in Black's half
    with_ferz = Board("4k3/8/8/3P4/8/1P6/8/3FK3[] w - - 0 1", variant="sittuyin")
    assert not any(m.promotion for m in with_ferz.legal_moves)


def test_a_pawn_reaching_a_promotion_square_promotes_on_a_later_turn() -> None:
    board = Board("4k3/8/8/8/3P4/1P6/8/4K3[] w - - 0 1", variant="sittuyin")
    board.push_uci("d4d5")
    board.push_uci("e8e7")
    assert any(m.promotion and m.from_square == parse_square("d5") for m in board.legal_moves)


def test_screened_setup_replays_both_arrangements_as_drops() -> None:
    board = Board(variant="sittuyin", sittuyin_setup="screened")
    assert board.submit_setup(WHITE, "standard") is False
    assert board.fen() == START  # nothing shows until both sides are in
    assert board.submit_setup(BLACK, "standard") is True
    assert board.fen() == AFTER_SETUP
    assert len(board.move_stack) == 16 and board.move_stack[0] == Move.from_uci("K@e2")


def test_screened_setup_refuses_single_drops() -> None:
    board = Board(variant="sittuyin", sittuyin_setup="screened")
    with pytest.raises(IllegalMoveError, match="submit_setup"):
        board.push_uci("K@e2")


@pytest.mark.parametrize(
    ("arrangement", "words"),
    [
        (
            {**PRESETS["standard"], "a1": "N", "b2": "R"},
            "rook on b2: rooks must stand on White's back rank",
        ),
        ({**PRESETS["standard"], "e2": "F", "d2": "F"}, "2 ferz(s) placed, but White holds 1"),
        (
            {k: v for k, v in PRESETS["standard"].items() if k != "b2"},
            "1 knight(s) placed, but White holds 2",
        ),
        (
            {**{k: v for k, v in PRESETS["standard"].items() if k != "e2"}, "e4": "K"},
            "e4 is outside White's camp",
        ),
        (
            {**{k: v for k, v in PRESETS["standard"].items() if k != "e2"}, "a3": "K"},
            "a3 is already occupied",
        ),
        ({**PRESETS["standard"], "c2": "Q"}, "'Q' on c2 is not a piece"),
        ({"z9": "K"}, "'z9' is not a square"),
        ("castle", "unknown setup preset 'castle'"),
    ],
)
def test_screened_setup_errors_name_the_square_and_rule(arrangement: object, words: str) -> None:
    board = Board(variant="sittuyin", sittuyin_setup="screened")
    with pytest.raises(InvalidSetupError) as info:
        board.submit_setup(WHITE, arrangement)  # type: ignore[arg-type]
    assert words in str(info.value)
    assert board.fen() == START


def test_setup_errors_name_each_sides_own_camp_and_back_rank() -> None:
    board = Board(variant="sittuyin", sittuyin_setup="screened")
    white = {k: v for k, v in PRESETS["standard"].items() if k != "e2"}
    with pytest.raises(InvalidSetupError, match=r"e4 is outside White's camp \(ranks 1-3\)"):
        board.submit_setup(WHITE, {**white, "e4": "K"})
    board.submit_setup(WHITE, "standard")
    with pytest.raises(InvalidSetupError, match=r"e5 is outside Black's camp \(ranks 6-8\)"):
        board.submit_setup(BLACK, {"e5": "K"})
    with pytest.raises(InvalidSetupError, match=r"e4 is outside Black's camp \(ranks 6-8\)"):
        board.submit_setup(BLACK, {"e4": "K"})
    with pytest.raises(InvalidSetupError, match=r"stand on Black's back rank \(rank 8\)"):
        board.submit_setup(BLACK, {"a7": "R"})


def test_every_preset_is_valid_for_both_sides() -> None:
    for name in PRESETS:
        board = Board(variant="sittuyin", sittuyin_setup="screened")
        board.submit_setup(WHITE, name)
        assert board.submit_setup(BLACK, name)
        assert board.fen().endswith("[] w - - 0 9")


def test_submitting_twice_or_without_a_setup_phase() -> None:
    board = Board(variant="sittuyin", sittuyin_setup="screened")
    board.submit_setup(WHITE, "standard")
    with pytest.raises(InvalidSetupError, match="already submitted"):
        board.submit_setup(WHITE, "mirrored")
    with pytest.raises(InvalidSetupError, match="no setup phase"):
        Board().submit_setup(WHITE, "standard")
