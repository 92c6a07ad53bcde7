"""FEN reading and writing (docs/rules.md 2.6.3 and issue 2 item 5/7): exactly Fairy-Stockfish's
format, the same accept/reject decisions as its ``validate_fen``, and clear typed errors."""

from __future__ import annotations

import pytest

from kradan import MET, Board, InvalidFenError, parse_square
from kradan.chessboard.status import Status

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
B = START.split()[0]

# FEN text that Fairy-Stockfish accepts, with what kradan writes back
ACCEPTED = [
    (START, START),
    (B, START),  # missing fields default to w - - 0 1
    (B + " b", B + " b - - 0 1"),
    (B + " w - - 0 0", START),  # fullmove 0 is read as 1
    (B + " w - - 7", B + " w - - 7 1"),
    (B + " w DEde - 0 1", START),  # Makruk ignores field 3
    (B + " w KQkq - 0 1", START),
    ("8/8/4k3/8/1R6/8/8/3K1N1R b - 16 10 41", "8/8/4k3/8/1R6/8/8/3K1N1R b - 16 10 41"),
    ("3k4/2m5/5M2/4M3/3KS3/8/8/8 b - 128 0 1", "3k4/2m5/5M2/4M3/3KS3/8/8/8 b - 128 0 1"),
    (B + " w - 0 7 3", B + " w - - 7 3"),  # limit 0 means no count: field 5 is the halfmove clock
    (B + " w - - 00 1", START),
    (B + " w - - - -", START),
    ("rnsmksnr/08/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", START),
    ("4k3/8/8/8/8/8/8/3K2M~1 w - - 0 1", "4k3/8/8/8/8/8/8/3K2M1 w - - 0 1"),
    ("P3k3/8/8/8/8/8/8/3K4 w - - 0 1", "P3k3/8/8/8/8/8/8/3K4 w - - 0 1"),  # a pawn that cannot move
    (START + " ", START),  # one trailing space
]

# (FEN, words the error must contain); each is also rejected by Fairy-Stockfish unless noted
REJECTED = [
    ("", "empty"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNRR w - - 0 1", "more than 8 squares"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNX w - - 0 1", "'X'"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSQMSNR w - - 0 1", "'Q'"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR x - - 0 1", "side to move"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR W - - 0 1", "side to move"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSMMSNR w - - 0 1", "exactly one king"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKKSNR w - - 0 1", "exactly one king"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "exactly one king"),
    ("3k4/3K4/8/8/8/8/8/8 w - - 0 1", "next to each other"),
    (B + " w - e3 0 1", "field 4"),
    (B + " w - -16 0 1", "field 4"),
    (B + " w - 1+1 0 1", "field 4"),
    (B + " w - - x 1", "halfmove"),
    (B + " w - - -1 1", "halfmove"),
    (B + " w - - +3 1", "halfmove"),
    (B + " w - - 0 x", "fullmove"),
    (B + " w - - 0 -3", "fullmove"),
    (START + " extra", "at most 6 fields"),
    (START + "  ", "empty field"),
    (" " + START, "empty field"),
    (B + "  w - - 0 1", "empty field"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/RNSKMSNR w - - 0 1", "8 ranks"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/8/RNSKMSNR w - - 0 1", "8 ranks"),
    ("rnsmksnr/44/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "has 44 squares"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR[] w - - 0 1", "no pieces in hand"),
    (B + "\tw - - 0 1", "'\\t'"),
]

# Accepted by Fairy-Stockfish's validate_fen but rejected by kradan on purpose (see fen.py):
# text that is not a position
KRADAN_STRICTER = [
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSN w - - 0 1", "has 7 squares"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/~RNSKMSNR w - - 0 1", "'~'"),
]

# Accepted as Fairy-Stockfish accepts them (issue 43), and flagged by status()
ODD = [
    (B + " w - 128 0 1", Status.IMPOSSIBLE_COUNT),  # docs/rules.md 2.6.2: no count with pawns
    ("8/8/4k3/8/1R6/8/8/3K1N1R b - 17 10 41", Status.IMPOSSIBLE_COUNT),
    ("8/8/4k3/8/1R6/8/8/3K1N1R b - 100 10 41", Status.IMPOSSIBLE_COUNT),
    ("4k3/8/8/8/8/8/8/3KR3 w - - 0 1", Status.OPPOSITE_CHECK),
    ("RRRk4/8/8/8/8/8/8/3K4 b - - 0 1", Status.TOO_MANY_PIECES),
    ("4k3/8/4P3/8/8/8/8/3K4 w - - 0 1", Status.PAWN_PAST_PROMOTION),
]


@pytest.mark.parametrize(("fen", "flags"), ODD)
def test_odd_positions_load_and_say_what_is_odd(fen: str, flags: Status) -> None:
    board = Board(fen)
    assert board.status() == flags and not board.is_valid()
    assert len(board.status_text()) == bin(flags).count("1")
    assert Board(board.fen()).status() == flags  # written back as read


def test_a_king_is_never_taken_in_an_odd_position() -> None:
    """The side to move may not take the king of a side left in check (Fairy-Stockfish would);
    the other side then has to answer the check."""
    board = Board("4k3/8/8/8/8/8/8/3KR3 w - - 0 1")
    assert "e1e8" not in {move.uci() for move in board.legal_moves}
    board.push_uci("e1e2")
    assert board.is_check() and board.is_valid()


def test_positions_of_play_are_valid() -> None:
    board = Board()
    for uci in ("e3e4", "d6d5", "e4d5"):
        assert board.is_valid()
        board.push_uci(uci)
    assert board.status() == Status.VALID


@pytest.mark.parametrize(("fen", "written"), ACCEPTED)
def test_accepted_fens_are_written_as_fairy_stockfish_does(fen: str, written: str) -> None:
    assert Board(fen).fen() == written


@pytest.mark.parametrize(("fen", "words"), REJECTED + KRADAN_STRICTER)
def test_rejected_fens_raise_a_typed_error_quoting_the_fen(fen: str, words: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        Board(fen)
    message = str(info.value)
    assert repr(fen) in message
    assert words in message
    assert isinstance(info.value, ValueError)


def test_acceptance_agrees_with_fairy_stockfish() -> None:
    sf = pytest.importorskip("pyffish", reason="pyffish (the Fairy-Stockfish oracle) is missing")
    for fen, _ in ACCEPTED:
        assert sf.validate_fen(fen, "makruk") == 1, fen
    for fen, _ in REJECTED:
        assert sf.validate_fen(fen, "makruk") < 1, fen
    for fen, _ in KRADAN_STRICTER:
        assert sf.validate_fen(fen, "makruk") == 1, fen
    for fen, _ in ODD:
        assert sf.validate_fen(fen, "makruk") == 1, fen


def test_promoted_mets_are_read_and_written_on_request() -> None:
    fen = "rnsmksnr/8/1pM~1pppp/p7/8/PPPP1PPP/8/RNSKMSNR b - - 0 3"
    board = Board(fen)
    assert board.fen(show_promoted=True) == fen
    assert board.fen() == fen.replace("M~", "M")
    promoted = board.piece_at(parse_square("c6"))
    assert promoted is not None and promoted.promoted and promoted.piece_type == MET


def test_counting_fields_round_trip_through_moves() -> None:
    """docs/rules.md 2.6.2, example: pieces' honour after a capture leaves a lone king."""
    board = Board("8/8/4k3/8/1r6/8/8/R2K1N1R w - - 0 40")
    for uci in ("a1a4", "e6e5", "a4b4"):
        board.push_uci(uci)
    assert board.fen() == "8/8/8/4k3/1R6/8/8/3K1N1R b - 16 10 41"
    assert Board(board.fen()).fen() == board.fen()


def test_failed_set_fen_leaves_the_board_unchanged() -> None:
    board = Board()
    board.push_san("e4")
    before = board.fen()
    with pytest.raises(InvalidFenError):
        board.set_fen("not a fen")
    assert board.fen() == before
    assert len(board.move_stack) == 1
