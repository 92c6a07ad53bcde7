"""Game-end verdicts against Fairy-Stockfish (reference/README.md): ``immediate_end``,
``optional_end`` and ``insufficient`` for every reference position, replaying
``moves_from_start`` so that repetitions count; and spec_positions.json (docs/rules.md section
9)."""

from __future__ import annotations

import pytest

from kradan import Board, Termination

from .conftest import reference_rows, row_id, spec_positions

VARIANTS = ("makruk", "cambodian", "karouk", "sittuyin")
ROWS = [(variant, row) for variant in VARIANTS for row in reference_rows(variant)]
IDS = [f"{variant}-{i}" for variant in VARIANTS for i in range(len(reference_rows(variant)))]
SPEC = [row for row in spec_positions() if row["variant"] in VARIANTS]


def replay(variant: str, moves: list[str]) -> Board:
    board = Board(variant=variant)
    for uci in moves:
        board.push_uci(uci)
    return board


def fsf_optional_end(board: Board) -> bool:
    """Fairy-Stockfish's is_optional_game_end: counting limit, repetition, n-move rule and the
    promotion-only draw, unless the side to move is mated."""
    if board.is_checkmate():
        return False
    return (
        board.is_counting_limit()
        or board.is_repetition()
        or board.is_n_move_rule()
        or board.is_promotion_only_draw()
    )


def check_verdicts(board: Board, row: dict) -> None:
    immediate, value = row["immediate_end"]
    outcome = board.outcome()
    first_check = outcome is not None and outcome.termination is Termination.FIRST_CHECK
    assert first_check == immediate
    if immediate:
        assert value == -32000 and outcome is not None and outcome.winner == (not board.turn)
    assert fsf_optional_end(board) == row["optional_end"][0]
    insufficient = [board.has_insufficient_material(True), board.has_insufficient_material(False)]
    assert insufficient == row["insufficient"]


@pytest.mark.parametrize(("variant", "row"), ROWS, ids=IDS)
def test_reference_game_end(variant: str, row: dict) -> None:
    check_verdicts(replay(variant, row["moves_from_start"]), row)


@pytest.mark.parametrize("row", SPEC, ids=[row_id(r) for r in SPEC])
def test_spec_positions_game_end(row: dict) -> None:
    board = Board(row["fen"], variant=row["variant"])
    check_verdicts(board, row)
    if "game_result" in row:
        outcome = board.outcome()
        assert outcome is not None
        expected_winner = None if row["game_result"] == 0 else (not board.turn)
        assert outcome.winner == expected_winner
