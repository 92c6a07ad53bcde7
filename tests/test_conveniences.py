"""python-chess's conveniences on kradan's boards (issue 43), named as python-chess names them."""

from __future__ import annotations

import io
import random

import pytest

import kradan
import kradan.pgn
from kradan import BLACK, WHITE, Board, Move, Piece, new_board
from kradan.chessboard.status import Status
from kradan.errors import IllegalMoveError, InvalidArgumentError, InvalidSquareError
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


def test_the_null_move_passes_and_is_written_as_engines_and_pgn_write_it() -> None:
    null = Move.null()
    assert not null and null.is_null() and Move.from_uci("0000") == null
    assert null.uci() == "0000" and str(null) == "0000" and Move.from_uci("e3e4")
    board = Board()
    assert null not in board.legal_moves and not board.is_pseudo_legal(null)
    board.push_san("e4")
    key = board.zobrist_key()
    board.push(null)
    assert board.turn is WHITE  # White moves again
    assert board.san(null) == "--" and board.move_stack[-1] == null
    board.push_san("d4")
    assert board.fen() == "rnsmksnr/8/pppppppp/8/3PP3/PPP2PPP/8/RNSKMSNR b - - 0 2"
    assert Board().variation_san(board.move_stack) == "1. e4 -- 2. d4"
    board.pop()
    assert board.pop() == null and board.zobrist_key() == key and board.turn is False
    # a PGN with "--" reads back to the same position
    game = kradan.pgn.read_game(io.StringIO('[Variant "makruk"]\n\n1. e4 -- 2. d4 *'))
    assert game is not None and game.end().board().fen().startswith("rnsmksnr/8/pppppppp/8/3PP3")


@pytest.mark.parametrize("text", ["0000", "--"])
def test_a_player_who_types_a_null_move_hears_why_it_is_refused(text: str) -> None:
    with pytest.raises(IllegalMoveError, match="null move"):
        Board().parse_san(text)
    with pytest.raises(IllegalMoveError, match="null move"):
        Board().parse_uci("0000")
    with pytest.raises(IllegalMoveError, match="stays where it is"):
        Board().parse_uci("a1a1")  # the rook's square twice is a mistake, not a pass


def test_no_side_passes_while_setting_up() -> None:
    board = Board(variant="sittuyin")
    with pytest.raises(IllegalMoveError, match="setting up"):
        board.push(Move.null())
    assert board.move_stack == []


@pytest.mark.parametrize("variant", ["makruk", "ouk", "karouk", "sittuyin"])
def test_a_mirrored_position_is_the_same_game_with_the_colours_swapped(variant: str) -> None:
    rng = random.Random(variant)
    board = Board(variant=variant)
    for _ in range(60):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
        mirror = board.mirror()
        assert mirror.turn != board.turn and mirror.move_stack == []
        assert mirror.mirror().fen(show_promoted=True) == board.fen(show_promoted=True)
        for square, piece in board.piece_map().items():
            twin = mirror.piece_at(square ^ 56)
            assert twin is not None and twin.piece_type == piece.piece_type
            assert twin.color != piece.color and twin.promoted == piece.promoted
        assert mirror.hand(True) == board.hand(False)
        assert mirror.perft(2) == board.perft(2)
        assert mirror.is_check() == board.is_check()


def test_pseudo_legal_moves_ignore_only_the_king() -> None:
    # White's king on e1 in check from the rook on e3; the rook on a1 may not ignore it
    board = Board("4k3/8/8/8/8/4r3/8/R3K3 w - - 0 1")
    assert not board.is_legal(Move.from_uci("a1a8")) and board.is_pseudo_legal(
        Move.from_uci("a1a8")
    )
    assert board.is_pseudo_legal(Move.from_uci("e1f1")) and board.is_legal(Move.from_uci("e1f1"))
    assert board.is_pseudo_legal(Move.from_uci("e1e2"))  # walks along the rook's file
    assert not board.is_pseudo_legal(Move.from_uci("a1b2"))  # no rook moves so
    assert not board.is_pseudo_legal(Move.from_uci("e1e3")) or board.is_legal(Move.from_uci("e1e3"))
    assert not board.is_pseudo_legal(Move.from_uci("e3e4"))  # Black's rook; White moves
    assert not board.is_pseudo_legal(Move.from_uci("a2a3"))  # no piece there
    # a pinned knight
    pinned = Board("4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1")
    assert not pinned.is_legal(Move.from_uci("e2c3")) and pinned.is_pseudo_legal(
        Move.from_uci("e2c3")
    )
    assert not pinned.is_pseudo_legal(Move.from_uci("e2e4"))  # no knight's move
    # a pawn entering the promotion ranks becomes a met in the same move, or it is no move
    pawn = Board("4k3/8/8/2P1r3/8/8/8/4K3 w - - 0 1")
    assert pawn.is_pseudo_legal(Move.from_uci("c5c6m"))
    assert not pawn.is_pseudo_legal(Move.from_uci("c5c6"))
    # own pieces and kings are never taken
    own = Board("4k3/8/8/8/8/8/3P4/R3K3 w - - 0 1")
    assert not own.is_pseudo_legal(Move.from_uci("e1d2"))
    assert not Board("3k4/8/8/8/8/8/8/R2RK3 b - - 0 1").is_pseudo_legal(Move.from_uci("d8d1"))


def _fen_after(board: Board, move: Move) -> str:
    """The position after ``move`` built by hand from the piece map (no move generator), the
    other side to move: an oracle for what ``move`` does to the mover's king."""
    pieces = dict(board.piece_map())
    piece = pieces.pop(move.from_square)
    if move.promotion is not None:
        piece = Piece(move.promotion, piece.color)
    pieces[move.to_square] = piece
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            here = pieces.get(rank * 8 + file)
            if here is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + here.symbol()
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" b" if board.turn else " w") + " - - 0 1"


def test_every_legal_move_is_pseudo_legal_and_the_others_leave_the_king_attacked() -> None:
    rng = random.Random(7)
    found = 0
    for _ in range(6):
        board = Board()
        for _ in range(70):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            assert all(board.is_pseudo_legal(move) for move in moves)
            for origin, piece in board.piece_map().items():
                if piece.color != board.turn:
                    continue
                for target in range(64):
                    for promotion in (None, MET):
                        move = Move(origin, target, promotion)
                        if board.is_pseudo_legal(move) and not board.is_legal(move):
                            found += 1
                            after = Board(_fen_after(board, move))
                            assert after.status() & Status.OPPOSITE_CHECK, (board.fen(), move)
            board.push(rng.choice(moves))
    assert found > 20  # the positions held such moves to check
