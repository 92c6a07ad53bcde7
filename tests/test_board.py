"""The ``Board`` API (issue 2 item 4), with python-chess's vocabulary."""

from __future__ import annotations

import pytest

from kradan import (
    BLACK,
    KHON,
    KING,
    MET,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Piece,
    parse_square,
)

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"


def test_start_position() -> None:
    board = Board()
    assert board.fen() == START
    assert board.turn is WHITE
    assert board.legal_moves.count() == len(board.legal_moves) == 23
    assert board.piece_at(parse_square("d1")) == Piece(KING, WHITE)
    assert board.piece_at(parse_square("e1")) == Piece(MET, WHITE)
    assert board.piece_at(parse_square("c8")) == Piece(KHON, BLACK)
    assert board.piece_at(parse_square("e4")) is None
    assert board.king(WHITE) == parse_square("d1") and board.king(BLACK) == parse_square("e8")
    assert len(board.piece_map()) == 32


def test_push_pop_peek_and_move_stack() -> None:
    board = Board()
    move = board.push_uci("e3e4")
    assert board.turn is BLACK and board.peek() == move and board.move_stack == [move]
    board.push_san("d5")
    assert board.pop() == Move.from_uci("d6d5")
    assert board.pop() == move
    assert board == Board() and board.fen() == START
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_push_of_an_illegal_move_raises_and_leaves_the_board_unchanged() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError) as info:
        board.push(Move.from_uci("e3e5"))
    assert "'e3e5'" in str(info.value) and START in str(info.value)
    with pytest.raises(IllegalMoveError):
        board.push(Move.from_uci("e3e4m"))  # no promotion there
    with pytest.raises(IllegalMoveError):
        board.push_uci("R@e4")  # Makruk has no drops
    with pytest.raises(InvalidMoveError):
        board.push_uci("e3e4e5")
    assert board.fen() == START and board.move_stack == []


def test_promotion_suffix_is_required() -> None:
    """docs/rules.md 2.3: the pawn must become a met; a plain c5c6 is not a move."""
    board = Board("4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1")
    assert Move.from_uci("c5c6m") in board.legal_moves
    assert Move.from_uci("c5c6") not in board.legal_moves
    with pytest.raises(IllegalMoveError):
        board.push_uci("c5c6")
    board.push_uci("c5c6m")
    promoted = board.piece_at(parse_square("c6"))
    assert promoted == Piece(MET, WHITE, promoted=True)


def test_check_checkmate_stalemate() -> None:
    """docs/rules.md 2.4 and section 9, MK7 (stalemate) and MK8 (mate)."""
    stalemate = Board("k1K5/7R/8/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate() and not stalemate.is_checkmate() and not stalemate.is_check()
    mate = Board("k7/2K5/8/8/8/8/R7/8 b - 32 6 1")
    assert mate.is_checkmate() and mate.is_check() and not mate.is_stalemate()
    assert mate.checkers() == [parse_square("a2")]
    assert not Board().is_check()


def test_gives_check_and_is_capture() -> None:
    board = Board("4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1")
    assert board.gives_check(board.parse_uci("e3e5"))
    assert not board.gives_check(board.parse_uci("e3e2"))
    assert board.is_capture(board.parse_uci("e3e5"))
    assert board.is_capture(board.parse_uci("c5b6m"))
    assert not board.is_capture(board.parse_uci("c5c6m"))
    with pytest.raises(IllegalMoveError):
        board.gives_check(Move.from_uci("a1a2"))


def test_kings_may_not_stand_next_to_each_other() -> None:
    board = Board("8/8/8/3k4/8/3K4/8/8 w - - 0 1")
    targets = {m.uci() for m in board.legal_moves}
    assert targets == {"d3c2", "d3d2", "d3e2", "d3c3", "d3e3"}


def test_pinned_rook_moves_only_along_the_pin() -> None:
    board = Board("4r3/8/8/8/8/4R3/8/k3K3 w - - 0 1")
    rook_moves = {m.uci() for m in board.legal_moves if m.from_square == parse_square("e3")}
    assert rook_moves == {"e3e2", "e3e4", "e3e5", "e3e6", "e3e7", "e3e8"}


def test_pinned_khon_moves_only_along_the_pin() -> None:
    """A piece pinned to its king may not leave the line of the pin: the khon on e2, pinned on
    the e-file, keeps only its step forward (its diagonal steps would expose the king)."""
    board = Board("4r3/8/8/8/8/8/4S3/k3K3 w - - 0 1")
    khon_moves = {m.uci() for m in board.legal_moves if m.from_square == parse_square("e2")}
    assert khon_moves == {"e2e3"}
    free = Board("8/8/8/8/8/8/4S3/k3K3 w - - 0 1")
    free_moves = {m.uci() for m in free.legal_moves if m.from_square == parse_square("e2")}
    assert free_moves == {"e2d1", "e2d3", "e2e3", "e2f1", "e2f3"}


def test_copy_is_independent() -> None:
    board = Board()
    board.push_san("e4")
    clone = board.copy()
    clone.push_san("d5")
    assert board.fen() != clone.fen() and len(board.move_stack) == 1
    bare = board.copy(stack=False)
    assert bare == board and bare.move_stack == []
    with pytest.raises(IndexError):
        bare.pop()


def test_equality_and_hash_by_position_not_history() -> None:
    a = Board()
    a.push_san("Nd2")
    a.push_san("Nd7")
    a.push_san("Nb1")
    a.push_san("Nb8")
    b = Board(START.replace(" 0 1", " 4 3"))
    assert a == b and hash(a) == hash(b)
    assert a != Board()  # the clocks differ
    assert a != "not a board"


def test_long_games_grow_the_undo_stack() -> None:
    board = Board("4k3/8/8/8/8/8/8/R2K4 w - - 0 1")
    shuffle = ["a1a2", "e8e7", "a2a1", "e7e8"]
    for i in range(400):
        board.push_uci(shuffle[i % 4])
    assert len(board.move_stack) == 400
    assert board.perft(5) == board.perft(5, bulk=False)  # deep trees get room for their undo
    for _ in range(400):
        board.pop()
    assert board.fen() == "4k3/8/8/8/8/8/8/R2K4 w - - 0 1"


def test_text_board_and_repr() -> None:
    text = str(Board())
    assert text.splitlines()[0] == "8 r n s m k s n r"
    assert text.splitlines()[-1] == "  a b c d e f g h"
    assert repr(Board()) == f"Board({START!r}, variant='makruk')"
    assert "Kc2" in repr(Board().legal_moves)


def test_perft_and_divide() -> None:
    board = Board()
    assert [board.perft(d) for d in range(4)] == [1, 23, 529, 12012]
    divide = board.perft_divide(2)
    assert len(divide) == 23 and sum(divide.values()) == 529
    assert board.perft(3, bulk=False) == 12012
    assert board.fen() == START


def test_reset_and_set_fen() -> None:
    board = Board("4k3/8/8/8/8/8/8/R2K4 w - - 0 1")
    board.push_uci("a1a2")
    board.reset()
    assert board.fen() == START and board.move_stack == []
