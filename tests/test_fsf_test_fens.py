"""Every FEN of Fairy-Stockfish's own test cases for kradan's games loads (issue 43): the positions
its ``test.py``, ``tests/perft.sh`` and ``tests/js/test.js`` use for makruk, cambodian, karouk and
sittuyin. A position written by Fairy-Stockfish must load; ``status()`` names what is odd about the
two that no game of kradan's reaches (docs/rules.md 2.6.3), and every other one has the same legal
moves and the same FEN in both programs."""

from __future__ import annotations

import pytest

from kradan import Board, InvalidFenError
from kradan.chessboard.status import Status
from kradan.errors import InvalidArgumentError

# Fairy-Stockfish's variant name -> kradan's
VARIANTS = {"makruk": "makruk", "cambodian": "ouk", "karouk": "karouk", "sittuyin": "sittuyin"}

# (Fairy-Stockfish variant, FEN, what status() says)
TEST_FENS: list[tuple[str, str, Status]] = [
    ("makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", Status.VALID),
    ("makruk", "rnsmksnr/8/1pM~1pppp/p7/8/PPPP1PPP/8/RNSKMSNR b - - 0 3", Status.VALID),
    ("makruk", "8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1", Status.VALID),
    ("makruk", "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1", Status.VALID),
    ("makruk", "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 1 30", Status.VALID),
    ("makruk", "3k4/2m5/8/4MP2/3KS3/8/8/8 w - - 0 1", Status.VALID),
    ("makruk", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 0 33", Status.VALID),
    ("makruk", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 36 1", Status.VALID),
    ("makruk", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 7 33", Status.VALID),
    ("makruk", "r1smksnr/3n4/pppp1ppp/4p3/4PP2/PPPP2PP/8/RNSKMSNR w - - 0 1", Status.VALID),
    ("makruk", "rnsm1s1r/4n1k1/1ppppppp/p7/2PPP3/PP3PPP/4N2R/RNSKMS2 b - - 1 5", Status.VALID),
    ("makruk", "4k3/8/8/4S3/8/2S5/8/4K3 w - - 0 1", Status.VALID),
    ("makruk", "4k3/8/4M3/4S3/8/2S5/8/4K3 w - - 0 1", Status.VALID),
    ("makruk", "4k3/8/4M~3/4S3/8/2S5/8/4K3 w - - 0 1", Status.VALID),
    ("makruk", "4k3/8/8/3S4/8/3S4/8/4K3 w - - 0 1", Status.VALID),
    ("makruk", "8/6ks/3M~2r1/2K1M3/8/3R4/8/8 w - 128 18 50", Status.VALID),
    ("cambodian", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1", Status.VALID),
    ("cambodian", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde 0 0 1", Status.VALID),
    ("cambodian", "8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1", Status.VALID),
    # 128 is Makruk's limit; Ouk's longest count is 126 plies
    ("cambodian", "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1", Status.IMPOSSIBLE_COUNT),
    ("cambodian", "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 126 101 80", Status.VALID),
    # white to move, and the pawn on f5 gives check to the king on e6
    ("cambodian", "8/8/4k3/5P2/8/2RMK3/8/8 w - 126 41 50", Status.OPPOSITE_CHECK),
    ("cambodian", "8/8/4k3/5P2/8/2RMK3/8/8 b - 126 42 50", Status.VALID),
    ("cambodian", "3k4/2m5/8/4MP2/3KS3/8/8/8 w - - 0 1", Status.VALID),
    ("cambodian", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 0 33", Status.VALID),
    ("cambodian", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 36 1", Status.VALID),
    ("cambodian", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 7 33", Status.VALID),
    ("cambodian", "rnsmk1nr/4s3/pppppppp/8/8/PPPPPPPP/R7/1NSKMSNR w DEde - 2 2", Status.VALID),
    ("cambodian", "1nsmksnr/r7/pppppppp/8/8/PPPPPPPP/2SN4/R2KMSNR b DEde - 3 2", Status.VALID),
    ("cambodian", "rnsmksnr/8/1ppppppp/8/8/1PPPPPPP/8/RNSKMSNR w DEde - 0 1", Status.VALID),
    ("cambodian", "r1s1ks1r/3nm3/pppNpppp/3n4/5P2/PPPPPNPP/8/R1SKMS1R b DEe 0 0 5", Status.VALID),
    ("cambodian", "1ns1ksn1/r6r/pppmpppp/3p4/8/PPPPPPPP/RK2N2R/1NS1MS2 w Ee - 6 5", Status.VALID),
    ("karouk", "rn1mksnr/3s4/pppppppp/8/4N3/PPPPPPPP/8/R1SKMSNR b DEde - 3 2", Status.VALID),
    ("sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1", Status.VALID),
    ("sittuyin", "3rr3/1kn3n1/1ss1p1pp/1pPpP3/6PP/p3KN2/2SSFN2/3R3R[] b - - 0 14", Status.VALID),
    ("sittuyin", "7R/1r6/3k1np1/3s2N1/3s3P/4n3/6p1/2R3K1[] w - - 2 55", Status.VALID),
    ("sittuyin", "k7/2K3P1/8/4P3/8/8/8/1R6[] w - - 0 1", Status.VALID),
    ("sittuyin", "8/2k5/8/4P3/4P1N1/5K2/8/8[] w - - 0 1", Status.VALID),
    ("sittuyin", "8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72", Status.VALID),
    ("sittuyin", "2r5/6k1/6p1/3s2P1/3npR2/8/p2N2F1/3K4[] w - - 1 50", Status.VALID),
    ("sittuyin", "8/6s1/5P2/3n4/pR2K2S/1P6/1k4p1/8[] w - - 1 50", Status.VALID),
    ("sittuyin", "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1", Status.VALID),
    ("sittuyin", "k7/8/8/8/8/8/8/K7 w - - 0 1", Status.VALID),
    ("sittuyin", "k6P/8/8/8/8/8/8/K7[] w - - 0 1", Status.VALID),
    ("sittuyin", "k6P/8/8/8/8/8/8/K6p[] w - - 0 1", Status.VALID),
    ("sittuyin", "k7/8/8/8/8/8/8/KFF5[] w - - 0 1", Status.VALID),
    ("sittuyin", "k7/8/8/8/8/8/8/KS6[] w - - 0 1", Status.VALID),
]

# Fairy-Stockfish's test cases of FENs it refuses
REFUSED = [("sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[FRRSSNNkfrrssnn] w - - 0 1", "king")]


@pytest.mark.parametrize(("variant", "fen", "status"), TEST_FENS)
def test_fairy_stockfish_test_fens_load(variant: str, fen: str, status: Status) -> None:
    board = Board(fen, variant=VARIANTS[variant])
    assert board.status() == status, board.status_text()
    assert board.is_valid() == (status == Status.VALID)


@pytest.mark.parametrize(("variant", "fen", "words"), REFUSED)
def test_fairy_stockfish_refusals_are_refused(variant: str, fen: str, words: str) -> None:
    with pytest.raises(InvalidFenError, match=words):
        Board(fen, variant=VARIANTS[variant])


@pytest.mark.parametrize(("variant", "fen"), [(v, f) for v, f, s in TEST_FENS if s == Status.VALID])
def test_valid_test_fens_agree_with_fairy_stockfish(variant: str, fen: str) -> None:
    sf = pytest.importorskip("pyffish", reason="pyffish (the Fairy-Stockfish oracle) is missing")
    assert sf.validate_fen(fen, variant) == 1
    board = Board(fen, variant=VARIANTS[variant])
    assert sorted(m.uci() for m in board.legal_moves) == sorted(sf.legal_moves(variant, fen, []))
    assert board.fen() == sf.get_fen(variant, fen, [])


# (Fairy-Stockfish variant, FEN, moves) in which a count runs: board's honour, pieces' honour,
# and Ouk's board's honour that ends sooner than a pieces' honour
COUNTING = [
    ("makruk", "8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1", ["g5g6m"]),
    ("makruk", "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 1 30", ["e5f6"]),
    ("makruk", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 0 33", ["d4d5"]),
    ("makruk", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 7 33", ["d4d5"]),
    ("cambodian", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 7 33", ["d4d5"]),
    ("cambodian", "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 126 101 80", ["c7c6"]),
    ("cambodian", "8/8/4k3/5P2/8/2RMK3/8/8 b - 126 42 50", ["e6f5"]),
]
STARTS = [None, -1, 0, 1, 5, 58, 60, 66, 99, 130, 159]


def test_a_count_started_outside_the_board_is_written_from_its_start() -> None:
    """docs/rules.md 2.6.2: board's honour counts from the ply it began at (65 - 58 + 1 = 8
    plies after move 33's white ply), 0 when it has not begun; the board's own count otherwise."""
    board = Board("3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 7 33")
    board.push_uci("d4d5")
    assert board.fen().endswith(" 128 8 33")
    assert board.fen(count_started=58).endswith(" 128 8 33")
    assert board.fen(count_started=60).endswith(" 128 6 33")
    assert board.fen(count_started=-1).endswith(" 128 0 33")
    assert board.fen(count_started=0) == board.fen()
    pieces = Board("8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 1 30")
    pieces.push_uci("e5f6")  # the lone king's count: its own, whatever the board's began at
    assert pieces.fen(count_started=58) == pieces.fen() == "8/2K3k1/5S2/6S1/8/8/8/8 b - 44 8 30"
    assert Board().fen(count_started=5) == Board().fen()  # no count runs
    with pytest.raises(InvalidArgumentError, match="'5'"):
        Board().fen(count_started="5")  # type: ignore[arg-type]


@pytest.mark.parametrize(("variant", "fen", "moves"), COUNTING)
def test_count_started_agrees_with_fairy_stockfish(
    variant: str, fen: str, moves: list[str]
) -> None:
    sf = pytest.importorskip("pyffish", reason="pyffish (the Fairy-Stockfish oracle) is missing")
    board = Board(fen, variant=VARIANTS[variant])
    for move in moves:
        board.push_uci(move)
    for start in STARTS:
        theirs = sf.get_fen(variant, fen, moves, False, False, True, start or 0)
        assert board.fen(show_promoted=True, count_started=start) == theirs, start
