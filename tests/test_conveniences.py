"""python-chess's conveniences on kradan's boards (issue 43), named as python-chess names them."""

from __future__ import annotations

import pytest

import kradan
from kradan import BLACK, WHITE, Board, Piece, new_board
from kradan.errors import InvalidArgumentError, InvalidSquareError
from kradan.pieces import KHON, MET, PAWN, ROOK

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR"


def test_square_constants() -> None:
    assert (kradan.A1, kradan.E4, kradan.H8) == (0, 28, 63)
    assert kradan.square_name(kradan.E3) == "e3"


def test_board_fen_and_epd() -> None:
    board = Board()
    assert board.board_fen() == START
    assert board.epd() == f"{START} w - -"
    sittuyin = new_board("sittuyin")
    assert "[" not in sittuyin.board_fen()  # the hand is not part of the placement


def test_lan_and_a_line_in_san() -> None:
    board = Board()
    moves = [board.parse_uci(uci) for uci in ("e3e4",)]
    assert board.lan(moves[0]) == "e3-e4"
    line = [Board().parse_uci("e3e4")]
    after = Board()
    after.push(line[0])
    line += [after.parse_uci("d6d5")]
    after.push(line[1])
    line.append(after.parse_uci("e4d5"))
    assert Board().variation_san(line) == "1. e4 d5 2. exd5"
    assert Board().variation_san(line, "thai") == "1. จ๔ ง๕ 2. จxง๕"
    assert len(Board().move_stack) == 0  # the board itself is not changed


def test_captures_and_attackers() -> None:
    board = Board("4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1")
    assert [m.uci() for m in board.generate_legal_captures()] == ["e4d5"]
    assert board.attackers(WHITE, kradan.D5) == [kradan.E4]  # a pawn attacks diagonally ahead
    assert board.attackers(WHITE, kradan.A8) == [kradan.A1]
    assert board.is_attacked_by(BLACK, kradan.E4) and not board.is_attacked_by(BLACK, kradan.D4)
    with pytest.raises(InvalidSquareError):
        board.attackers(WHITE, 64)
    with pytest.raises(InvalidArgumentError):
        board.attackers("white", 3)  # type: ignore[arg-type]


def test_piece_from_symbol() -> None:
    assert Piece.from_symbol("M") == Piece(MET, WHITE)
    assert Piece.from_symbol("s") == Piece(KHON, BLACK)
    assert Piece.from_symbol("M~") == Piece(MET, WHITE, promoted=True)
    assert Piece.from_symbol("r").symbol() == "r" and Piece.from_symbol("P").piece_type == PAWN
    for bad in ("Q", "", "MM", "~", None, "m~~"):
        with pytest.raises(InvalidArgumentError):
            Piece.from_symbol(bad)  # type: ignore[arg-type]
    assert Piece.from_symbol("R") == Piece(ROOK, WHITE)


def test_unicode_and_the_notebook_picture() -> None:
    text = Board().unicode()
    assert (
        text.splitlines()[0] == "♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"
    )  # Black's back rank: rook, knight, khon, met, king
    assert text.splitlines()[3] == "· · · · · · · ·"
    assert Board()._repr_svg_().startswith("<svg")


def test_svg_orientation_as_python_chess_says_it() -> None:
    board = Board()
    assert kradan.svg.board(board, orientation=BLACK) == kradan.svg.board(board, flipped=True)
    assert kradan.svg.board(board, orientation=WHITE) == kradan.svg.board(board)


def test_importing_kradan_loads_no_kernel_and_leaks_no_future_import() -> None:
    import subprocess
    import sys

    code = "import sys, kradan; print('numba' in sys.modules, hasattr(kradan, 'annotations'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]
