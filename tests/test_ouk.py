"""Ouk Chatrang (docs/rules.md 3) and Kar Ouk (docs/rules.md 4): gates, leaps and their options
(C10)."""

from __future__ import annotations

import pytest

from kradan import Board, InvalidFenError, VariantError
from kradan.variants import find_variant

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"
E_PAWN_UP = "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR w DEde - 0 1"


def ucis(board: Board) -> set[str]:
    return {m.uci() for m in board.legal_moves}


def test_start_position_and_aliases() -> None:
    """docs/rules.md 3.1-3.2: 25 moves, two of them king leaps."""
    for name in ("cambodian", "ouk", "Ouk Chatrang", "ouk_chaktrang"):
        board = Board(variant=name)
        assert board.fen() == START
        assert board.legal_moves.count() == 25
        assert {"d1b2", "d1f2"} <= ucis(board)


def test_king_leap_only_to_empty_forward_knight_squares_and_not_in_check() -> None:
    """docs/rules.md 3.2: the leap needs the gate, an empty target, and no check (CB5)."""
    assert {"d1b2", "d1f2"} <= ucis(Board(E_PAWN_UP, variant="cambodian"))
    blocked = Board("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1N6/R1SKMSNR w DEde - 0 1", variant="ouk")
    assert "d1b2" not in ucis(blocked) and "d1f2" in ucis(blocked)
    in_check = Board("rnsmk1nr/8/pppppppp/8/8/PPPPPPPP/2s5/RNSKMSNR w DEde - 0 1", variant="ouk")
    assert ucis(in_check) == {"c1c2", "d1c2", "d1d2", "d1e2"}
    no_gate = Board(E_PAWN_UP.replace("DEde", "Ede"), variant="ouk")
    assert not {"d1b2", "d1f2"} & ucis(no_gate)


def test_leap_right_survives_a_parried_check() -> None:
    """docs/rules.md 3.2: only moving the king or the rook rule removes the right."""
    board = Board("rnsmk1nr/8/pppppppp/8/8/PPPPPPPP/2s5/RNSKMSNR w DEde - 0 1", variant="ouk")
    board.push_uci("c1c2")  # the khon takes the checking khon
    board.push_uci("a6a5")
    assert {"d1b2"} <= ucis(board)


def test_met_leap_jumps_and_needs_an_empty_target() -> None:
    """docs/rules.md 3.2: e1e3 over an occupied e2, never onto a piece."""
    board = Board(E_PAWN_UP, variant="ouk")
    assert "e1e3" in ucis(board)
    over_knight = Board(
        "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/4N3/R1SKMSNR w DEde - 0 1", variant="ouk"
    )
    assert "e1e3" in ucis(over_knight)
    assert "e1e3" not in ucis(Board(START, variant="ouk"))  # e3 holds a pawn


def test_met_leap_may_parry_a_check() -> None:
    board = Board("4k3/8/8/8/8/K6r/8/4M3 w E - 0 1", variant="ouk")
    assert ucis(board) == {"e1e3", "a3a2", "a3b2", "a3a4", "a3b4"}


def test_rights_are_lost_when_the_piece_moves_or_is_captured() -> None:
    board = Board(E_PAWN_UP, variant="ouk")
    board.push_uci("d1d2")
    assert board.fen().split()[2] == "Ede"
    fen = "3mk3/8/8/8/8/8/8/3R1K2 w de - 0 1"
    board = Board(fen, variant="ouk", ouk_rook_aim_cancels=False)
    board.push_uci("d1d8")  # takes the met on its gate square
    assert board.fen().split()[2] == "e"
    board = Board(fen, variant="ouk")
    board.push_uci("d1d8")  # and the rook now aims along the king's rank
    assert board.fen().split()[2] == "-"


def test_enemy_rook_on_the_kings_file_cancels_the_leap() -> None:
    """docs/rules.md 3.1: an x-ray test; CB4."""
    board = Board("rnsmk1nr/4s3/pppppppp/8/8/PPPPPPPP/R7/1NSKMSNR w DEde - 2 2", variant="ouk")
    board.push_uci("a2e2")
    assert board.fen() == "rnsmk1nr/4s3/pppppppp/8/8/PPPPPPPP/4R3/1NSKMSNR b DEd - 3 2"


def test_option_rook_aim_does_not_cancel() -> None:
    board = Board(
        "rnsmk1nr/4s3/pppppppp/8/8/PPPPPPPP/R7/1NSKMSNR w DEde - 2 2",
        variant="ouk",
        ouk_rook_aim_cancels=False,
    )
    board.push_uci("a2e2")
    assert board.fen().split()[2] == "DEde"


def test_option_king_leap_any_knight_square() -> None:
    """C10: the seed's "like a horse": e3 (empty after e3e4) becomes a target."""
    board = Board(E_PAWN_UP, variant="ouk", ouk_king_leap="any_knight")
    assert {"d1b2", "d1f2", "d1e3"} <= ucis(board)
    assert "d1e3" not in ucis(Board(E_PAWN_UP, variant="ouk"))


def test_option_met_leap_needs_a_clear_path() -> None:
    fen = "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/4N3/R1SKMSNR w DEde - 0 1"
    assert "e1e3" not in ucis(Board(fen, variant="ouk", ouk_met_leap="clear_path"))
    assert "e1e3" in ucis(Board(E_PAWN_UP, variant="ouk", ouk_met_leap="clear_path"))


def test_option_leaps_only_before_any_capture() -> None:
    """C10: [S0] allows the first moves only while no piece has been captured."""
    after_capture = "rnsmksnr/8/ppp1pppp/8/4P3/PPPP1PPP/8/RNSKMSNR w DEde - 0 1"  # 31 pieces
    strict = Board(after_capture, variant="ouk", ouk_require_no_capture=True)
    assert not {"d1b2", "d1f2", "e1e3"} & ucis(strict)
    assert {"d1b2", "d1f2", "e1e3"} <= ucis(Board(after_capture, variant="ouk"))
    full = Board(E_PAWN_UP, variant="ouk", ouk_require_no_capture=True)
    assert {"d1b2", "d1f2", "e1e3"} <= ucis(full)


@pytest.mark.parametrize(
    ("option", "value"),
    [("ouk_king_leap", "anywhere"), ("ouk_met_leap", 3), ("ouk_require_no_capture", "yes")],
)
def test_bad_option_values(option: str, value: object) -> None:
    with pytest.raises(VariantError) as info:
        find_variant("ouk", **{option: value})
    assert option in str(info.value)


def test_ouk_options_do_not_apply_to_makruk() -> None:
    with pytest.raises(VariantError, match="does not apply to makruk"):
        Board(variant="makruk", ouk_king_leap="any_knight")


def test_gate_field_is_read_as_fairy_stockfish_reads_it() -> None:
    """Letters on empty or enemy squares and non-file letters are ignored; order normalised."""
    board = Board("r3k3/8/8/8/8/8/8/R3K3 w ADEadeh - 0 1", variant="ouk")
    assert board.fen().split()[2] == "AEae"
    assert Board(START.replace("DEde", "edED"), variant="ouk").fen() == START


def test_kar_ouk_first_check_ends_the_game() -> None:
    """docs/rules.md 4: the checking move uses the mover's check; then nothing is legal (KO3)."""
    board = Board("4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1", variant="karouk")
    board.push_uci("a1a8")
    assert board.fen() == "R3k3/8/8/8/8/8/8/4K3 b - 30 0+1 6 1"
    assert board.legal_moves.count() == 0 and board.is_check()
    assert board.perft(2) == 0


def test_kar_ouk_first_check_by_black_ends_the_game() -> None:
    """docs/rules.md 4: Black's checks are counted as White's are; Black's first check ends the
    game and leaves White no move (KO3)."""
    board = Board("r3k3/8/8/8/8/8/8/4K3 b - - 1+1 0 1", variant="karouk")
    board.push_uci("a8a1")
    assert board.fen().split()[4] == "1+0"
    assert board.legal_moves.count() == 0 and board.is_check()
    assert board.perft(1) == 0
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is False


def test_kar_ouk_check_field() -> None:
    assert Board(variant="kar ouk").fen() == (
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 1+1 0 1"
    )
    no_field = Board(
        "rn1mksnr/3s4/pppppppp/8/4N3/PPPPPPPP/8/R1SKMSNR b DEde - 3 2", variant="karouk"
    )
    assert no_field.fen().split()[4] == "1+1"  # missing: 1+1, as Fairy-Stockfish assumes
    with pytest.raises(InvalidFenError, match="check field"):
        Board("4k3/8/8/8/8/8/8/R3K3 w - - 1+x 0 1", variant="karouk")


def test_kar_ouk_perft_stops_at_checks() -> None:
    """docs/rules.md 4, KO2: the same FEN counts fewer leaves in karouk than in cambodian."""
    fen = "rn1mksnr/3s4/pppppppp/8/4N3/PPPPPPPP/8/R1SKMSNR b DEde - 3 2"
    assert Board(fen, variant="karouk").perft(3) == 12444
    assert Board(fen, variant="cambodian").perft(3) == 12546
