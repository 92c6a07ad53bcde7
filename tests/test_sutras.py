"""The Makruk sutras and the tilted-boats handicap (docs/rules.md 2.8): options, all off by
default."""

from __future__ import annotations

import pytest

from kradan import Board, IllegalMoveError, Move, VariantError

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR"
ALL = {"sut_khun": True, "sut_met": True, "sut_ma": True}


def ucis(board: Board) -> set[str]:
    return {m.uci() for m in board.legal_moves}


def sutras(board: Board) -> set[str]:
    return {m.uci() for m in board.legal_moves if m.pawn_step is not None}


def test_off_by_default() -> None:
    board = Board()
    assert board.fen().split()[2] == "-"
    assert not sutras(board) and "d1b2" not in ucis(board)
    # Fairy-Stockfish's makruk ignores field 3, and so does kradan without sutras
    assert Board(f"{START} w BDEGbdeg - 0 1").fen() == f"{START} w - - 0 1"


def test_rights_in_field_3() -> None:
    assert Board(**ALL).fen() == f"{START} w BDEGbdeg - 0 1"
    assert Board(sut_met=True).fen() == f"{START} w Ed - 0 1"
    assert Board(sut_ma=True).fen() == f"{START} w BGbg - 0 1"
    assert Board(sut_khun=True).fen() == f"{START} w De - 0 1"


def test_sut_khun_leaps_like_the_ouk_king() -> None:
    board = Board(sut_khun=True)
    assert {"d1b2", "d1f2"} <= ucis(board)
    board.push_uci("d1b2")
    assert board.fen().split()[2] == "e"
    assert {"e8c7", "e8g7"} <= ucis(board)
    board.push_uci("e8e7")  # an ordinary king move spends the right too
    board.push_uci("b2a2")
    assert board.fen().split()[2] == "-"


def test_sut_khun_never_out_of_check() -> None:
    fen = "rnsmk1nr/8/pppppppp/8/8/PPPPPPPP/2s5/RNSKMSNR w De - 0 1"
    board = Board(fen, sut_khun=True, sutra_window="unmoved")
    assert not {"d1b2", "d1f2"} & ucis(board)


def test_sut_met() -> None:
    board = Board(sut_met=True)
    assert sutras(board) == {"e3e4,e1e3"}
    board.push(Move.from_uci("e3e4,e1e3"))
    assert board.fen() == "rnsmksnr/8/pppppppp/8/4P3/PPPPMPPP/8/RNSK1SNR b d - 0 1"
    assert sutras(board) == {"d6d5,d8d6"}


@pytest.mark.parametrize(
    ("fen", "why"),
    [
        (
            "r1smksnr/8/pppppppp/8/4n3/PPPPPPPP/8/RNSKMSNR w E - 0 1",
            "the pawn's square ahead is taken",
        ),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/4N3/R1SKMSNR w E - 0 1", "a piece stands between"),
        ("rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR w E - 0 1", "the pawn has moved"),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w D - 0 1", "the met has moved"),
    ],
)
def test_sut_met_conditions(fen: str, why: str) -> None:
    assert "e3e4,e1e3" not in ucis(Board(fen, sut_met=True)), why


def test_sut_met_may_not_leave_the_king_in_check() -> None:
    fen = "4k3/8/8/8/8/4P3/8/3KM2r w E - 0 1"  # the met shields the king from the rook
    assert "e3e4,e1e3" not in ucis(Board(fen, sut_met=True, sutra_window="unmoved"))
    fen = "4k3/8/8/8/8/4P3/8/3KM3 w E - 0 1"
    assert "e3e4,e1e3" in ucis(Board(fen, sut_met=True, sutra_window="unmoved"))


def test_sut_ma() -> None:
    board = Board(sut_ma=True)
    assert sutras(board) == {"a3a4,b1a3", "c3c4,b1c3", "f3f4,g1f3", "h3h4,g1h3"}
    board.push_uci("c3c4,b1c3")
    assert board.fen() == "rnsmksnr/8/pppppppp/8/2P5/PPNPPPPP/8/R1SKMSNR b Gbg - 0 1"
    assert sutras(board) == {"a6a5,b8a6", "c6c5,b8c6", "f6f5,g8f6", "h6h5,g8h6"}


def test_each_sutra_once_per_side() -> None:
    board = Board(sut_met=True, sutra_window="unmoved")
    for uci in ("e3e4,e1e3", "a6a5", "e3d2", "a5a4", "d2e1", "a8a5"):
        board.push_uci(uci)
    assert "e1e3" not in {m.uci().split(",")[-1] for m in board.legal_moves}
    assert board.fen().split()[2] == "d"


def test_window_no_capture() -> None:
    """Default window: pieces unmoved and no capture yet (all 32 pieces on the board)."""
    fen = "rnsmksnr/8/ppp1pppp/8/8/PPPPPPPP/8/RNSKMSNR w BDEGbdeg - 0 1"  # a black pawn is gone
    assert not sutras(Board(fen, **ALL))
    assert sutras(Board(fen, **ALL, sutra_window="unmoved"))


def test_window_first_move_only() -> None:
    board = Board(**ALL, sutra_window="first_move_only")
    assert sutras(board)
    board.push_uci("a3a4")
    assert sutras(board)  # Black's first move
    board.push_uci("a6a5")
    assert not sutras(board) and "d1b2" not in ucis(board)


def test_notation_round_trip() -> None:
    board = Board(**ALL)
    move = board.parse_uci("e3e4,e1e3")
    assert move.uci() == "e3e4,e1e3" and move.pawn_step == Move.from_uci("e3e4")
    assert board.san(move) == "e4,Me3"
    assert board.san(move, "lan") == "e3-e4,Me1-e3"
    assert board.san(move, "thai") == "จ๔,ม็-จ๓"
    for text in ("e4,Me3", "e3-e4,Me1-e3", "จ๔,ม็-จ๓", "e3e4,e1e3"):
        assert board.parse_san(text) == move
    assert board.parse_san("e4") == Move.from_uci("e3e4")  # the plain pawn move


def test_sutra_moves_are_illegal_without_the_option() -> None:
    with pytest.raises(IllegalMoveError):
        Board().push_uci("e3e4,e1e3")


def test_perft_with_sutras_counts_them() -> None:
    board = Board(**ALL)
    assert board.legal_moves.count() == 23 + 2 + 1 + 4
    assert board.perft(3) == board.perft(3, bulk=False)
    divide = board.perft_divide(2)
    assert sum(divide.values()) == board.perft(2)


def test_takhen_rua_handicap() -> None:
    """docs/rules.md 2.8: rooks replaced by mets; Fairy-Stockfish gives 23 moves for both gone."""
    both = Board(takhen_rua=("a1", "h1"))
    assert both.fen() == "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/MNSKMSNM w - - 0 1"
    assert both.legal_moves.count() == 23
    black = Board(takhen_rua="a8")
    assert black.fen().startswith("mnsmksnr/")
    with pytest.raises(VariantError, match="rook squares"):
        Board(takhen_rua=("b1",))
