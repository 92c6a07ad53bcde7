"""Every reference position (reference/README.md) must match Fairy-Stockfish: legal move set,
SAN set, checking moves, perft at each listed depth, and the FEN reached by replaying
``moves_from_start``. Rules: docs/rules.md 2 (makruk), 3 (cambodian), 4 (karouk), 5 (sittuyin)."""

from __future__ import annotations

import pytest

from kradan import Board

from .conftest import reference_rows, row_id, spec_positions

VARIANTS = ("makruk", "cambodian", "karouk", "sittuyin")
ROWS = [(variant, row) for variant in VARIANTS for row in reference_rows(variant)]
IDS = [f"{variant}-{i}" for variant in VARIANTS for i in range(len(reference_rows(variant)))]
SPEC = [row for row in spec_positions() if row["variant"] in VARIANTS]


@pytest.mark.parametrize(("variant", "row"), ROWS, ids=IDS)
def test_legal_moves_san_and_checks(variant: str, row: dict) -> None:
    board = Board(row["fen"], variant=variant)
    moves = list(board.legal_moves)
    assert sorted(m.uci() for m in moves) == row["legal"]
    assert sorted(board.san(m) for m in moves) == row["san"]
    assert sorted(m.uci() for m in moves if board.gives_check(m)) == sorted(row["gives_check"])


@pytest.mark.parametrize(("variant", "row"), ROWS, ids=IDS)
def test_perft_to_depth_3(variant: str, row: dict) -> None:
    board = Board(row["fen"], variant=variant)
    for depth, expected in enumerate(row["perft"][:3], start=1):
        assert board.perft(depth) == expected, f"depth {depth}"
    assert board.perft(2, bulk=False) == row["perft"][1]


DEEP = [(v, r, i) for (v, r), i in zip(ROWS, IDS, strict=True) if len(r["perft"]) >= 4]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "row"), [d[:2] for d in DEEP], ids=[d[2] for d in DEEP])
def test_perft_depth_4(variant: str, row: dict) -> None:
    """Depth 4 where the reference lists it (makruk, cambodian, karouk; sittuyin stops at 3)."""
    assert Board(row["fen"], variant=variant).perft(4) == row["perft"][3]


@pytest.mark.parametrize(("variant", "row"), ROWS, ids=IDS)
def test_replaying_the_game_reaches_the_fen(variant: str, row: dict) -> None:
    """Make/unmake, promotions, gates, drops, check counts and the automatic count
    (docs/rules.md 2.6.2, 3.3, 5.6) along a whole game."""
    board = Board(variant=variant)
    for uci in row["moves_from_start"]:
        board.push_uci(uci)
    assert board.fen() == row["fen"]
    assert Board(board.fen(), variant=variant) == board


@pytest.mark.parametrize("row", SPEC, ids=[row_id(r) for r in SPEC])
def test_spec_positions(row: dict) -> None:
    """docs/rules.md section 9: the hand-picked positions."""
    board = Board(row["fen"], variant=row["variant"])
    assert sorted(m.uci() for m in board.legal_moves) == sorted(row["legal_moves_d1"])
    for depth in (1, 2, 3):
        assert board.perft(depth) == row["perft_engine"][str(depth)]
    if "game_result" in row:
        assert board.legal_moves.count() == 0
        assert board.is_checkmate() == (row["game_result"] != 0)
        assert board.is_stalemate() == (row["game_result"] == 0)


@pytest.mark.slow
@pytest.mark.parametrize("row", SPEC, ids=[row_id(r) for r in SPEC])
def test_spec_positions_depth_4(row: dict) -> None:
    board = Board(row["fen"], variant=row["variant"])
    assert board.perft(4) == row["perft_engine"]["4"]
