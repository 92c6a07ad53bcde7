"""Every Makruk reference position (RULES.md 2, reference/README.md) must match Fairy-Stockfish:
legal move set, SAN set, checking moves, perft at each listed depth, and the FEN after replaying
``moves_from_start``."""

from __future__ import annotations

import pytest

from kradan import Board

from .conftest import reference_rows, row_id, spec_positions

ROWS = reference_rows("makruk")
SPEC = spec_positions("makruk")


@pytest.mark.parametrize("row", ROWS, ids=[f"makruk-{i}" for i in range(len(ROWS))])
def test_legal_moves_san_and_checks(row: dict) -> None:
    board = Board(row["fen"], variant="makruk")
    moves = list(board.legal_moves)
    assert sorted(m.uci() for m in moves) == row["legal"]
    assert sorted(board.san(m) for m in moves) == row["san"]
    assert sorted(m.uci() for m in moves if board.gives_check(m)) == sorted(row["gives_check"])


@pytest.mark.parametrize("row", ROWS, ids=[f"makruk-{i}" for i in range(len(ROWS))])
def test_perft_to_depth_3(row: dict) -> None:
    board = Board(row["fen"], variant="makruk")
    for depth, expected in enumerate(row["perft"][:3], start=1):
        assert board.perft(depth) == expected, f"depth {depth}"
    assert board.perft(2, bulk=False) == row["perft"][1]


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=[f"makruk-{i}" for i in range(len(ROWS))])
def test_perft_depth_4(row: dict) -> None:
    if len(row["perft"]) < 4:
        pytest.skip("no depth-4 figure in this row")
    assert Board(row["fen"], variant="makruk").perft(4) == row["perft"][3]


@pytest.mark.parametrize("row", ROWS, ids=[f"makruk-{i}" for i in range(len(ROWS))])
def test_replaying_the_game_reaches_the_fen(row: dict) -> None:
    """Make/unmake, promotion and the automatic count (RULES.md 2.6.2) along a whole game."""
    board = Board(variant="makruk")
    for uci in row["moves_from_start"]:
        board.push_uci(uci)
    assert board.fen() == row["fen"]
    assert Board(board.fen(), variant="makruk") == board


@pytest.mark.parametrize("row", SPEC, ids=[row_id(r) for r in SPEC])
def test_spec_positions(row: dict) -> None:
    """RULES.md section 9: the hand-picked Makruk positions MK1-MK10."""
    board = Board(row["fen"], variant="makruk")
    assert sorted(m.uci() for m in board.legal_moves) == sorted(row["legal_moves_d1"])
    for depth in (1, 2, 3):
        assert board.perft(depth) == row["perft_engine"][str(depth)]
    if "game_result" in row:
        ended = board.legal_moves.count() == 0
        assert ended
        assert board.is_checkmate() == (row["game_result"] != 0)
        assert board.is_stalemate() == (row["game_result"] == 0)


@pytest.mark.slow
@pytest.mark.parametrize("row", SPEC, ids=[row_id(r) for r in SPEC])
def test_spec_positions_depth_4(row: dict) -> None:
    assert Board(row["fen"], variant="makruk").perft(4) == row["perft_engine"]["4"]
